"""Input checks shared by the package: every error names the parameter, its value and the allowed
range."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def positive(name: str, value: float) -> float:
    """Return ``value`` as a float if it is finite and > 0, else raise ValueError."""
    x = real(name, value)
    if not x > 0:
        raise ValueError(f"{name} must be > 0 (allowed range (0, inf)), got {value!r}")
    return x


def nonnegative(name: str, value: float) -> float:
    """Return ``value`` as a float if it is finite and >= 0, else raise ValueError."""
    x = real(name, value)
    if x < 0:
        raise ValueError(f"{name} must be >= 0 (allowed range [0, inf)), got {value!r}")
    return x


def real(name: str, value: float) -> float:
    """Return ``value`` as a finite float, else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x


def candidates(k: int) -> int:
    """Return ``k`` as an int if it is an integer of at least 2 (a number of candidates to single
    one out of), else raise ValueError."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k must be an integer >= 2 (candidates to single one out of), got {k!r}")
    return int(k)


def open_unit(name: str, value: float) -> float:
    """Return ``value`` as a float if it lies in the open interval (0, 1), else raise ValueError."""
    x = real(name, value)
    if not 0 < x < 1:
        raise ValueError(f"{name} must lie in (0, 1), got {value!r}")
    return x


def closed_unit(name: str, value: float) -> float:
    """Return ``value`` as a float if it lies in the closed interval [0, 1], else raise
    ValueError."""
    x = real(name, value)
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must lie in [0, 1], got {value!r}")
    return x


def unit_rates(name: str, values: float | Sequence[float] | np.ndarray) -> np.ndarray:
    """Return ``values`` as a float array (of any shape) if none lies outside [0, 1], else raise
    ValueError: rates such as false-positive rates, read one or many at a time."""
    arr = np.asarray(values, dtype=float)
    if np.any((arr < 0) | (arr > 1)):
        raise ValueError(f"{name} must lie in [0, 1], got {values!r}")
    return arr


def finite_array(name: str, values: Sequence[float] | np.ndarray, min_size: int = 1) -> np.ndarray:
    """Return ``values`` as a 1-D float array of finite numbers with at least ``min_size``
    entries."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a sequence of real numbers, got {values!r}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    if arr.size < min_size:
        raise ValueError(f"{name} needs at least {min_size} values, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(
            f"{name} must contain only finite numbers, got {arr[~np.isfinite(arr)][:3]!r}"
        )
    return arr


def positive_array(
    name: str, values: Sequence[float] | np.ndarray, min_size: int = 1
) -> np.ndarray:
    """``finite_array`` whose every entry is > 0."""
    arr = finite_array(name, values, min_size)
    if np.any(arr <= 0):
        raise ValueError(
            f"{name} must hold values > 0 (allowed range (0, inf)), got {arr.tolist()!r}"
        )
    return arr
