"""The ε of real deployments (OpenDP's epsilon registry): reading it and parsing its δ column."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

_POWER = re.compile(r"^\s*(?:(?P<mantissa>\d+(?:\.\d+)?)\s+)?10\^(?P<exponent>-?\d+)\s*$")


def parse_delta(text: object) -> float:
    """δ as written in the registry ("10^-5", "7 10^-9", "N/A" or empty) as a number; NaN when
    not stated."""
    if text is None or (isinstance(text, float) and math.isnan(text)):
        return math.nan
    value = str(text).strip()
    if value in ("", "N/A", "NA", "n/a"):
        return math.nan
    match = _POWER.match(value)
    if match:
        mantissa = float(match.group("mantissa") or 1)
        return mantissa * 10.0 ** int(match.group("exponent"))
    try:
        return float(value)
    except ValueError:
        raise ValueError(
            f"delta: cannot read {text!r}; expected a number, '10^-5', '7 10^-9' or 'N/A'"
        ) from None


REQUIRED = ("Organization", "Epsilon (ε)", "Delta (δ)", "Context")
UNIT_NOT_STATED = "unit not stated"


def model_from_delta(text: object) -> str:
    """The privacy definition the registry's δ column implies: "ε-DP" where it says "N/A",
    "(ε, δ)-DP" where it gives a number, "not stated" where it is empty."""
    value = "" if text is None or (isinstance(text, float) and math.isnan(text)) else str(text)
    if value.strip() in ("N/A", "NA", "n/a"):
        return "ε-DP"
    return "not stated" if not value.strip() else "(ε, δ)-DP"


def load_registry(path: str | Path) -> pd.DataFrame:
    """The registry with numeric ``epsilon`` and ``delta`` columns added, and ``unit``, ``model``
    and ``label`` kept as written or, in a file without them (the registry as published),
    filled: "unit not stated", the model its δ implies, and "Organization: Context".

    Refuses, naming the file, one that is empty, lacks a column, has no rows or an ε that is not
    a number > 0.
    """
    try:
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise ValueError(
            f"registry_path: {path} is empty; expected a CSV with columns {list(REQUIRED)}"
        ) from None
    for column in REQUIRED:
        if column not in table.columns:
            raise ValueError(
                f"{path}: missing column {column!r}; columns are {list(table.columns)}"
            )
    if table.empty:
        raise ValueError(f"registry_path: {path} lists no deployments (a header without rows)")
    out = table.copy()
    epsilon = pd.to_numeric(table["Epsilon (ε)"], errors="coerce")
    bad = ~(np.isfinite(epsilon) & (epsilon > 0))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{path}: 'Epsilon (ε)' must be a number > 0 in every row; "
            f"row {row + 2} has {table['Epsilon (ε)'].iloc[row]!r}"
        )
    out["epsilon"] = epsilon
    out["delta"] = [parse_delta(v) for v in table["Delta (δ)"]]
    if "unit" not in out:
        out["unit"] = UNIT_NOT_STATED
    if "model" not in out:
        out["model"] = [model_from_delta(v) for v in table["Delta (δ)"]]
    if "label" not in out:
        out["label"] = table["Organization"] + ": " + table["Context"]
    for column in ("unit", "model", "label"):
        blank = out[column].str.strip() == ""
        if blank.any():
            row = int(np.flatnonzero(blank)[0])
            raise ValueError(f"{path}: column {column!r} is empty in row {row + 2}")
    return out
