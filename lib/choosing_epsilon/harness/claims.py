"""The claims ledger: every result a source prints, checked against the notebook's computation.

``data/published/<notebook>.csv`` transcribes the source (claim_id, location, description,
published, tolerance, source, source_detail). ``source`` says where the published value comes
from:

- ``printed``: the source prints it (text, table or caption);
- ``read off a figure``: read off the source's figure; ``source_detail`` says how it was read,
  and the tolerance is the reading's precision;
- ``secondary``: a document other than the source that holds the value (``source_detail`` names
  it); an agreeing row checks that document, not the source;
- ``our default``: the notebook's own evaluation at parameters it chose (``source_detail`` says
  which), a check of the formula, not of a number anybody printed.

Only ``printed`` and ``read off a figure`` rows are the source's claims (``COUNTED_SOURCES``);
the others are counted apart. A row with no published value records a slip in the source's
wording: a statement with no one number to reproduce, shown wrong by a computation.

A notebook checks each row once, with the value its computation gives, never one rounded first
(a rounding can carry a value into the tolerance that the computation misses). The status is

- ``reproduced``: ``|reproduced - published| <= tolerance``, and the tolerance resolves the
  published value (``resolves``): less than half its size, so that 0, half and twice the value
  would all fail; a published 0 is resolved only as an exact zero, a tolerance of at most
  ``EXACT_TOLERANCE`` (floating point's), for with any larger one every value as small passes;
- ``fitted``: the same, but only after fitting a value the source does not print (``fitted`` says
  which; the residual is recorded);
- ``below resolution``: within the tolerance, but the tolerance does not resolve the published
  value (a bar a pixel or two high, a printed 0.00): a check that 0 would pass as well, so it is
  counted apart from the reproduced, never among them;
- ``discrepancy``: outside the tolerance, accepted only with an explanation that shows its
  computation (a number), and, where the slip can be redone, the value it gives (``slip``), which
  must then equal the published value within the tolerance;
- ``note``: a slip in the wording (no published value), explained with a computation;
- ``not applicable``: the notebook runs at parameters other than the source's.

Anything else (an unexplained mismatch, an explanation for a claim that in fact reproduces, a
claim checked twice or never) raises ``ClaimError``, so the notebook, papermill and CI fail.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Mapping
from pathlib import Path

import pandas as pd

from .parameters import same

COLUMNS = [
    "claim_id",
    "location",
    "description",
    "published",
    "tolerance",
    "source",
    "source_detail",
]
RESULT_COLUMNS = [
    "claim_id",
    "location",
    "description",
    "source",
    "source_detail",
    "published",
    "reproduced",
    "tolerance",
    "status",
    "note",
    "slip_value",
]
SOURCES = ("printed", "read off a figure", "secondary", "our default")
COUNTED_SOURCES = ("printed", "read off a figure")
STATUSES = ("reproduced", "fitted", "below resolution", "discrepancy", "note", "not applicable")
AGREEING = ("reproduced", "fitted")  # the rows that agree with the source, as the summary counts
RESOLUTION = 2  # a tolerance resolves a value when it is below 1/RESOLUTION of its size
EXACT_TOLERANCE = 1e-9  # the largest tolerance of a value stated exactly: floating point's only
_NUMBER = re.compile(r"\d")


class ClaimError(AssertionError):
    """A published number that the notebook neither reproduces nor explains."""


def read_published(path: str | Path) -> pd.DataFrame:
    """Read and validate a published-claims CSV (columns ``COLUMNS``, unique ids, known sources)."""
    table = pd.read_csv(
        path,
        dtype=dict.fromkeys(
            ("claim_id", "location", "description", "source", "source_detail"), str
        ),
    )
    if list(table.columns) != COLUMNS:
        raise ValueError(f"{path}: columns must be {COLUMNS}, got {list(table.columns)}")
    table["source_detail"] = table.source_detail.fillna("")
    duplicated = table.loc[table.claim_id.duplicated(), "claim_id"].tolist()
    if duplicated:
        raise ValueError(f"{path}: duplicated claim_id {duplicated}")
    unknown = table.loc[~table.source.isin(SOURCES), "claim_id"].tolist()
    if unknown:
        raise ValueError(f"{path}: rows {unknown} need a source, one of {list(SOURCES)}")
    undocumented = table.loc[
        (table.source != "printed") & (table.source_detail.str.strip() == ""), "claim_id"
    ].tolist()
    if undocumented:
        raise ValueError(
            f"{path}: rows {undocumented} need a source_detail (how read, the citation, or the "
            "parameters)"
        )
    for column in ("published", "tolerance"):
        if not pd.api.types.is_numeric_dtype(table[column]):
            raise ValueError(f"{path}: column {column} must be numeric")
    notes = table.published.isna()
    if table.loc[~notes, "tolerance"].isna().any():
        raise ValueError(f"{path}: every published value needs a tolerance")
    if (table.tolerance < 0).any():
        raise ValueError(f"{path}: tolerance must be >= 0")
    if (notes & (table.source != "printed")).any():
        raise ValueError(
            f"{path}: a row without a published value notes the source's printed wording: source "
            "'printed'"
        )
    figure_rows = table.source == "read off a figure"
    if (table.loc[figure_rows, "tolerance"] <= 0).any():
        raise ValueError(
            f"{path}: a value read off a figure needs the reading's precision as its tolerance (> "
            "0)"
        )
    return table


def resolves(published: float, tolerance: float) -> bool:
    """Whether a check within ``tolerance`` of ``published`` tells the value from a plainly wrong
    one: for a nonzero value, 0, half and twice the value all lie outside the tolerance
    (``tolerance < |published| / RESOLUTION``); a published 0 only when it is exact (tolerance at
    most ``EXACT_TOLERANCE``), since with a larger tolerance every value as small passes."""
    if published == 0:
        return tolerance <= EXACT_TOLERANCE
    return tolerance * RESOLUTION < abs(published)


def _explained(claim_id: str, explanation: str | None) -> str:
    if not explanation or not _NUMBER.search(explanation):
        raise ClaimError(
            f"claim {claim_id}: an explanation must show its computation (it names no number)"
        )
    return explanation


# what a run says where no discrepancy or slip applies (Ledger.show_explained)
NOTHING_EXPLAINED = (
    "No discrepancy and no slip applies at this run's parameters: claims.csv marks every such row "
    "not applicable, with the parameters it needs."
)


class Ledger:
    """Checks computed values against the published ones and records a status for each claim."""

    def __init__(
        self,
        published: str | Path,
        paper_parameters: Mapping[str, object],
        parameters: Mapping[str, object],
    ):
        self.table = read_published(published)
        missing = set(paper_parameters) - set(parameters)
        if missing:
            raise ValueError(f"parameters: no value given for {sorted(missing)}")
        self._differs = {
            name for name, value in paper_parameters.items() if not same(value, parameters[name])
        }
        self._known = set(paper_parameters)
        self._rows: dict[str, dict[Hashable, object]] = {}

    @property
    def at_paper_parameters(self) -> bool:
        """True when every parameter the paper fixes has the paper's value."""
        return not self._differs

    def applicable(self, uses: Iterable[str]) -> bool:
        """True when none of the named inputs differs from the paper's."""
        uses = set(uses)
        unknown = uses - self._known
        if unknown:
            raise ValueError(
                f"uses names unknown inputs {sorted(unknown)}; known: {sorted(self._known)}"
            )
        return not (uses & self._differs)

    def claim_ids(self, prefix: str) -> list[str]:
        """The ledger's claim ids that start with ``prefix``, in published order (for checking a
        family of rows, such as the values read off one figure, in one loop)."""
        ids = [c for c in self.table.claim_id if c.startswith(prefix)]
        if not ids:
            raise ValueError(f"no claim id starts with {prefix!r}")
        return ids

    def _row(self, claim_id: str) -> pd.Series:
        rows = self.table.index[self.table.claim_id == claim_id]
        if len(rows) != 1:
            raise ClaimError(f"claim {claim_id!r} is not in the published ledger")
        if claim_id in self._rows:
            raise ClaimError(f"claim {claim_id!r} checked twice")
        return self.table.loc[rows[0]]

    def _not_applicable(self, uses: Iterable[str]) -> str | None:
        if self.applicable(uses):
            return None
        return "computed at parameters other than the paper's: " + ", ".join(
            sorted(set(uses) & self._differs)
        )

    def check(
        self,
        claim_id: str,
        reproduced: float,
        uses: Iterable[str],
        explanation: str | None = None,
        *,
        fitted: str | None = None,
        slip: float | None = None,
    ) -> str:
        """Record the computed value of ``claim_id`` and return its status (see the module
        docstring)."""
        row = self._row(claim_id)
        if pd.isna(row.published):
            raise ClaimError(
                f"claim {claim_id!r} has no published value: record it with Ledger.note"
            )
        value = float(reproduced)
        within = math.isfinite(value) and abs(value - row.published) <= row.tolerance * (1 + 1e-9)
        note, slip_value = "", math.nan
        not_applicable = self._not_applicable(uses)
        if not_applicable:
            status, note = "not applicable", not_applicable
        elif within and explanation is None:
            status = "fitted" if fitted else "reproduced"
            if not resolves(row.published, row.tolerance):
                status = "below resolution"
            if fitted:
                note = f"{fitted}; residual {abs(value - row.published):.1e}"
        elif within:
            raise ClaimError(
                f"claim {claim_id} ({row.location}) reproduces ({value!r} vs {row.published!r}) "
                "but was given a discrepancy explanation: remove it"
            )
        elif explanation is not None:
            status, note = "discrepancy", _explained(claim_id, explanation)
            if slip is not None:
                slip_value = float(slip)
                if not abs(slip_value - row.published) <= row.tolerance * (1 + 1e-9):
                    raise ClaimError(
                        f"claim {claim_id}: the slip the explanation names gives {slip_value!r}, "
                        f"not the published {row.published!r} (tolerance {row.tolerance!r})"
                    )
        else:
            raise ClaimError(
                f"claim {claim_id} ({row.location}, {row.description}): published "
                f"{row.published!r}, "
                f"reproduced {value!r}, difference {value - row.published:.3g} exceeds tolerance "
                f"{row.tolerance!r}"
            )
        self._rows[claim_id] = {
            **row.to_dict(),
            "reproduced": value,
            "status": status,
            "note": note,
            "slip_value": slip_value,
        }
        return status

    def note(
        self, claim_id: str, explanation: str, uses: Iterable[str] = (), value: float = math.nan
    ) -> str:
        """Record a slip in the source's wording (a row with no published value), explained with
        a computation."""
        row = self._row(claim_id)
        if not pd.isna(row.published):
            raise ClaimError(
                f"claim {claim_id!r} has a published value: check it with Ledger.check"
            )
        not_applicable = self._not_applicable(uses)
        status, note = (
            ("not applicable", not_applicable)
            if not_applicable
            else ("note", _explained(claim_id, explanation))
        )
        self._rows[claim_id] = {
            **row.to_dict(),
            "reproduced": float(value),
            "status": status,
            "note": note,
            "slip_value": math.nan,
        }
        return status

    def results(self) -> pd.DataFrame:
        """All claims in published order with their status; raises ClaimError if any was never
        checked."""
        unchecked = [c for c in self.table.claim_id if c not in self._rows]
        if unchecked:
            raise ClaimError(f"{len(unchecked)} published claims were never checked: {unchecked}")
        return pd.DataFrame([self._rows[c] for c in self.table.claim_id], columns=RESULT_COLUMNS)

    def summary(self) -> pd.DataFrame:
        """Counts of rows per status (rows) and kind of source (columns): only the first column
        counts as the source's claims."""
        return tally(self.results())

    def show_explained(self, table: pd.DataFrame) -> None:
        """Display the claims a run explains (``table``: its discrepancies and slips), every note
        in full; where none applies (a run far from the paper's values), say so in a sentence
        instead of an empty table."""
        from IPython.display import display

        if table.empty:
            print(NOTHING_EXPLAINED)
            return
        with pd.option_context("display.max_colwidth", None):
            display(table)

    def write(self, path: str | Path) -> pd.DataFrame:
        """Write claims.csv (``RESULT_COLUMNS``) and return the table."""
        table = self.results()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(path, index=False, lineterminator="\n")  # round-trip precision
        return table


KINDS = {
    "the source's numbers (printed or read off a figure)": COUNTED_SOURCES,
    "secondary source": ("secondary",),
    "our default": ("our default",),
}


def tally(results: pd.DataFrame) -> pd.DataFrame:
    """Counts of a claims table's rows per status and kind of source. The row ``below
    resolution`` is shown where the table has such rows (they are rare: a value a figure can
    barely show), every other status always."""
    shown = [s for s in STATUSES if s != "below resolution" or (results.status == s).any()]
    columns = {}
    for kind, sources in KINDS.items():
        counts = results.loc[results.source.isin(sources), "status"].value_counts()
        columns[kind] = [int(counts.get(s, 0)) for s in shown]
    return pd.DataFrame(columns, index=shown)
