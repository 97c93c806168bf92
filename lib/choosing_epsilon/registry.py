"""The ε of real deployments (OpenDP's epsilon registry): reading it and parsing its δ column."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

_POWER = re.compile(r"^\s*(?:(?P<mantissa>\d+(?:\.\d+)?)\s+)?10\^(?P<exponent>-?\d+)\s*$")


def parse_delta(text: object) -> float:
    """δ as written in the registry ("10^-5", "7 10^-9", "N/A" or empty) as a number; NaN when not stated."""
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
        raise ValueError(f"delta: cannot read {text!r}; expected a number, '10^-5', '7 10^-9' or 'N/A'") from None


def load_registry(path: str | Path) -> pd.DataFrame:
    """The registry with numeric ``epsilon`` and ``delta`` columns added (and ``unit`` kept as written)."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in ("Organization", "Epsilon (ε)", "Delta (δ)", "Context", "unit"):
        if column not in table.columns:
            raise ValueError(f"{path}: missing column {column!r}; columns are {list(table.columns)}")
    out = table.copy()
    out["epsilon"] = pd.to_numeric(table["Epsilon (ε)"], errors="raise")
    out["delta"] = [parse_delta(v) for v in table["Delta (δ)"]]
    return out
