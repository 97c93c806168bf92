"""The claims ledger: every number a paper prints, checked against the notebook's computation.

``data/published/<notebook>.csv`` transcribes the paper (claim_id, location, description,
published, tolerance). A notebook checks each claim once; the status is

- ``reproduced``: |reproduced - published| <= tolerance;
- ``discrepancy``: outside the tolerance, accepted only with an explanation the notebook computed;
- ``not applicable``: the notebook runs at parameters other than the paper's.

Anything else (an unexplained mismatch, an explanation for a claim that in fact reproduces, a
claim checked twice or never) raises ``ClaimError``, so the notebook, papermill and CI fail.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from .parameters import same

COLUMNS = ["claim_id", "location", "description", "published", "tolerance"]
RESULT_COLUMNS = ["claim_id", "location", "description", "published", "reproduced", "tolerance", "status", "note"]
STATUSES = ("reproduced", "discrepancy", "not applicable")


class ClaimError(AssertionError):
    """A published number that the notebook neither reproduces nor explains."""


def read_published(path: str | Path) -> pd.DataFrame:
    """Read and validate a published-claims CSV (columns ``COLUMNS``, unique ids, tolerance >= 0)."""
    table = pd.read_csv(path, dtype={"claim_id": str, "location": str, "description": str})
    if list(table.columns) != COLUMNS:
        raise ValueError(f"{path}: columns must be {COLUMNS}, got {list(table.columns)}")
    duplicated = table.loc[table.claim_id.duplicated(), "claim_id"].tolist()
    if duplicated:
        raise ValueError(f"{path}: duplicated claim_id {duplicated}")
    for column in ("published", "tolerance"):
        if not pd.api.types.is_numeric_dtype(table[column]) or table[column].isna().any():
            raise ValueError(f"{path}: column {column} must be numeric and complete")
    if (table.tolerance < 0).any():
        raise ValueError(f"{path}: tolerance must be >= 0")
    return table


class Ledger:
    """Checks computed values against the published ones and records a status for each claim."""

    def __init__(self, published: str | Path, paper_parameters: Mapping[str, object], parameters: Mapping[str, object]):
        self.table = read_published(published)
        missing = set(paper_parameters) - set(parameters)
        if missing:
            raise ValueError(f"parameters: no value given for {sorted(missing)}")
        self._differs = {name for name, value in paper_parameters.items() if not same(value, parameters[name])}
        self._known = set(paper_parameters)
        self._rows: dict[str, dict[str, object]] = {}

    @property
    def at_paper_parameters(self) -> bool:
        """True when every parameter the paper fixes has the paper's value."""
        return not self._differs

    def applicable(self, uses: Iterable[str]) -> bool:
        """True when none of the named inputs differs from the paper's."""
        uses = set(uses)
        unknown = uses - self._known
        if unknown:
            raise ValueError(f"uses names unknown inputs {sorted(unknown)}; known: {sorted(self._known)}")
        return not (uses & self._differs)

    def check(self, claim_id: str, reproduced: float, uses: Iterable[str], explanation: str | None = None) -> str:
        """Record the computed value of ``claim_id`` and return its status (see the module docstring)."""
        rows = self.table.index[self.table.claim_id == claim_id]
        if len(rows) != 1:
            raise ClaimError(f"claim {claim_id!r} is not in the published ledger")
        if claim_id in self._rows:
            raise ClaimError(f"claim {claim_id!r} checked twice")
        row = self.table.loc[rows[0]]
        value = float(reproduced)
        within = math.isfinite(value) and abs(value - row.published) <= row.tolerance * (1 + 1e-9)
        note = ""
        if not self.applicable(uses):
            status = "not applicable"
            note = "computed at parameters other than the paper's: " + ", ".join(sorted(set(uses) & self._differs))
        elif within and explanation is None:
            status = "reproduced"
        elif within:
            raise ClaimError(
                f"claim {claim_id} ({row.location}) reproduces ({value!r} vs {row.published!r}) "
                "but was given a discrepancy explanation: remove it"
            )
        elif explanation:
            status, note = "discrepancy", explanation
        else:
            raise ClaimError(
                f"claim {claim_id} ({row.location}, {row.description}): published {row.published!r}, "
                f"reproduced {value!r}, difference {value - row.published:.3g} exceeds tolerance {row.tolerance!r}"
            )
        self._rows[claim_id] = {**row.to_dict(), "reproduced": value, "status": status, "note": note}
        return status

    def results(self) -> pd.DataFrame:
        """All claims in published order with their status; raises ClaimError if any was never checked."""
        unchecked = [c for c in self.table.claim_id if c not in self._rows]
        if unchecked:
            raise ClaimError(f"{len(unchecked)} published claims were never checked: {unchecked}")
        return pd.DataFrame([self._rows[c] for c in self.table.claim_id], columns=RESULT_COLUMNS)

    def summary(self) -> pd.DataFrame:
        """Counts of claims per status."""
        counts = self.results().status.value_counts()
        return pd.DataFrame({"claims": [int(counts.get(s, 0)) for s in STATUSES]}, index=list(STATUSES))

    def write(self, path: str | Path) -> pd.DataFrame:
        """Write claims.csv (``RESULT_COLUMNS``) and return the table."""
        table = self.results()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(path, index=False, lineterminator="\n")  # round-trip precision
        return table

