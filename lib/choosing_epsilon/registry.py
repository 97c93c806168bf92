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


REQUIRED = ("Organization", "Epsilon (ε)", "Delta (δ)", "Context", "unit")


def load_registry(path: str | Path) -> pd.DataFrame:
    """The registry with numeric ``epsilon`` and ``delta`` columns added (and ``unit`` kept as
    written).

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
    return out
