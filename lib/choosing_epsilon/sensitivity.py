"""Sensitivity of the mean and the median over Lee & Clifton's possible worlds.

The worlds of a database X of n rows are the n subsets of size n-1 (one row absent).
Two neighbour definitions are offered:

- unbounded (add/remove one row), the paper's: the local sensitivity of a world Y is
  max over t in Y of ``|f(Y) - f(Y - t)|`` (Eq. 15 for the median); Δf is its maximum over worlds.
- bounded (replace one row by a value of the universe, here the values of X): the local
  sensitivity of Y is max over t in Y and u in X of ``|f(Y) - f(Y - t + u)|``.

The unbounded forms are computed from one sort without enumerating neighbours: removing one
element from a sorted list can move its mean by ``|t - mean|/(m-1)`` and its median to one of at
most three values (the three cases of Eq. 15).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from ._validate import finite_array, real

Query = Literal["mean", "median"]
QUERIES: tuple[str, ...] = ("mean", "median")
MIN_ROWS = 3  # a world keeps n-1 rows, and one more is removed in the sensitivity: n-2 >= 1
FLOAT_INTEGERS = 2**53  # every integer up to this size has an exact float64 value


def check_query(query: str) -> str:
    """Return ``query`` if it is a supported query name, else raise ValueError.

    Parameters
    ----------
    query : str
        The query's name.

    Returns
    -------
    str
        ``query``, one of ``QUERIES``.

    Raises
    ------
    ValueError
        If ``query`` is not "mean" or "median".
    """
    if query not in QUERIES:
        raise ValueError(f"query must be one of {QUERIES}, got {query!r}")
    return query


def check_values(values: Sequence[float] | np.ndarray, name: str = "values") -> np.ndarray:
    """The database column as a float array of at least 3 finite values, each an exact float.

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column.
    name : str
        The parameter's name, for the message.

    Returns
    -------
    numpy.ndarray
        The column as a float array.

    Raises
    ------
    ValueError
        If the column holds fewer than 3 values, a value that is not finite, or an integer beyond
        2**53.
    """
    _check_exact_integers(name, values)
    arr = finite_array(name, values)
    if arr.size < MIN_ROWS:
        raise ValueError(
            f"{name} needs at least {MIN_ROWS} rows (each possible world keeps n-1 rows and the "
            f"sensitivity removes one more), got {arr.size}"
        )
    return arr


def _check_exact_integers(name: str, values: Sequence[float] | np.ndarray) -> None:
    """Refuse integers beyond 2**53 that a float64 cannot hold: they would turn into different
    (even equal) values."""
    raw = np.asarray(values)
    if raw.ndim != 1 or raw.dtype.kind not in "iuO":
        return
    if raw.dtype.kind == "O":
        big = [
            v
            for v in raw.tolist()
            if isinstance(v, (int, np.integer))
            and not isinstance(v, bool)
            and abs(int(v)) > FLOAT_INTEGERS
        ]
    else:
        big = raw[(raw > FLOAT_INTEGERS) | (raw < -FLOAT_INTEGERS)].tolist()
    lost = [v for v in big if int(float(v)) != int(v)]
    if lost:
        raise ValueError(
            f"{name}: {lost[0]} has no exact float64 value (integers are exact only up to "
            f"2**53 = {FLOAT_INTEGERS}), so values that differ would be computed as equal; "
            "subtract a common offset first (e.g. the smallest value)"
        )


def standardised(s: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Sorted values as s = scale * (centre + u): a power-of-two scale (exact), the middle value as
    centre.

    Sums of u neither overflow nor drown the differences between large values (1.7e18 + 256 k);
    every sensitivity and world-answer difference is scale times that of u.

    Parameters
    ----------
    s : numpy.ndarray
        The values, sorted ascending.

    Returns
    -------
    u : numpy.ndarray
        The standardised values.
    centre : float
        The middle value, in units of ``scale``.
    scale : float
        The power of two the values are divided by.
    """
    scale = _power_of_two_scale(s)
    t = s / scale
    centre = float(t[t.size // 2])
    return t - centre, centre, scale


def _power_of_two_scale(values: np.ndarray) -> float:
    """The power of two just above the largest |value| of sorted values (1 if all are 0): dividing
    by it is exact."""
    largest = max(abs(float(values[0])), abs(float(values[-1])))
    return math.ldexp(1.0, math.frexp(largest)[1]) if largest > 0 else 1.0


def evaluate(values: Sequence[float] | np.ndarray, query: Query) -> float:
    """f(X) for the mean, or the median of Eq. (13) (mean of the two middle values, even count).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The values, finite.
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    float
        f(X).

    Raises
    ------
    ValueError
        If a value is not finite or the query is not "mean" or "median".
    """
    arr = finite_array("values", values)
    return float(np.mean(arr) if check_query(query) == "mean" else np.median(arr))


def _middle(sorted_values: np.ndarray, j: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Element k of each world ``sorted_values`` minus element j (vectorised over j and k)."""
    return sorted_values[k + (k >= j)]


def _world_medians(s: np.ndarray, j: np.ndarray, skip: np.ndarray | None = None) -> np.ndarray:
    """Median of s minus s[j] (and, when ``skip`` is given, minus element ``skip`` of it)."""
    size = s.size - 1 - (skip is not None)
    lo, hi = (size - 1) // 2, size // 2

    def element(k: int) -> np.ndarray:
        kk = np.full(j.shape, k)
        if skip is not None:
            kk = kk + (kk >= skip)
        return _middle(s, j, kk)

    return (element(lo) + element(hi)) / 2


def standard_world_answers(u: np.ndarray, query: Query) -> np.ndarray:
    """f(ω_j) for the worlds missing u[j], sorted values of moderate size (``standardised``).

    Parameters
    ----------
    u : numpy.ndarray
        The standardised sorted values (``standardised``).
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    numpy.ndarray
        The answer of each world, in units of the standardisation.
    """
    j = np.arange(u.size)
    return (np.sum(u) - u) / (u.size - 1) if query == "mean" else _world_medians(u, j)


def sorted_world_answers(s: np.ndarray, query: Query) -> np.ndarray:
    """f(ω_j) for the worlds missing s[j], the values sorted ascending (non-increasing in j).

    Parameters
    ----------
    s : numpy.ndarray
        The values, sorted ascending.
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    numpy.ndarray
        The answer of the world missing each value.
    """
    u, centre, scale = standardised(s)
    return scale * (centre + standard_world_answers(u, query))


def _per_world(values: Sequence[float] | np.ndarray, query: Query, on_sorted) -> np.ndarray:
    """A computation on the sorted values, its result per world in the order of ``values``."""
    x = check_values(values)
    check_query(query)
    order = np.argsort(x)
    out = np.empty(x.size)
    out[order] = on_sorted(x[order], query)
    return out


def world_answers(values: Sequence[float] | np.ndarray, query: Query) -> np.ndarray:
    """f(ω_j) for each world ω_j = X minus row j, in the order of ``values`` (Sec. 4.3).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column X, at least 3 finite values.
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    numpy.ndarray
        The answer of the world missing each row.

    Raises
    ------
    ValueError
        If the query is not "mean" or "median", or the column holds fewer than 3 values, a value
        that is not finite, or an integer beyond 2**53.
    """
    return _per_world(values, query, sorted_world_answers)


def sorted_local_sensitivities(s: np.ndarray, query: Query) -> np.ndarray:
    """LS_f of the worlds missing s[j], the values sorted ascending (Eq. 15 for the median).

    Parameters
    ----------
    s : numpy.ndarray
        The values, sorted ascending.
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    numpy.ndarray
        The local sensitivity of the world missing each value.
    """
    u, _, scale = standardised(s)
    return scale * standard_local_sensitivities(u, query)


def standard_local_sensitivities(s: np.ndarray, query: Query) -> np.ndarray:
    """LS_f of the worlds missing s[j], sorted values of moderate size (``standardised``).

    Parameters
    ----------
    s : numpy.ndarray
        The standardised sorted values (``standardised``).
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    numpy.ndarray
        The local sensitivity of each world, in units of the standardisation.
    """
    n = s.size
    j = np.arange(n)
    m = n - 1  # world size
    if query == "mean":
        centre = (np.sum(s) - s) / m
        world_min = np.where(j == 0, s[1], s[0])
        world_max = np.where(j == n - 1, s[n - 2], s[n - 1])
        return np.maximum(world_max - centre, centre - world_min) / (m - 1)
    centre = _world_medians(s, j)
    lo = (m - 2) // 2  # lower middle index after one more removal
    # Removing element i of a world shifts both middle elements (i <= lo), only the upper one
    # (lo < i <= hi) or neither (i > hi): three representatives cover every outcome.
    candidates = [0, lo + 1, m - 1]
    return np.max(
        [np.abs(centre - _world_medians(s, j, np.full(n, i))) for i in candidates], axis=0
    )


def world_local_sensitivities(values: Sequence[float] | np.ndarray, query: Query) -> np.ndarray:
    """LS_f(ω_j) = max over t in ω_j of ``|f(ω_j) - f(ω_j - t)|`` per world (Eq. 15; Table 4).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column X, at least 3 finite values.
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    numpy.ndarray
        The local sensitivity of the world missing each row.

    Raises
    ------
    ValueError
        If the query is not "mean" or "median", or the column holds fewer than 3 values, a value
        that is not finite, or an integer beyond 2**53.
    """
    return _per_world(values, query, sorted_local_sensitivities)


def unbounded_sensitivity(values: Sequence[float] | np.ndarray, query: Query) -> float:
    """max over worlds Y and t in Y of ``|f(Y) - f(Y - t)|``: the paper's Δf (Sec. 4.1, Eq. 15).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column X, at least 3 finite values.
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    float
        Δf.

    Raises
    ------
    ValueError
        If the query is not "mean" or "median", or the column holds fewer than 3 values, a value
        that is not finite, or an integer beyond 2**53.
    """
    return float(np.max(world_local_sensitivities(values, query)))


def bounded_sensitivity(values: Sequence[float] | np.ndarray, query: Query) -> float:
    """Replace-one sensitivity: max over worlds Y, t in Y, u in X of ``|f(Y) - f(Y - t + u)|``.

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column X, at least 3 finite values.
    query : {"mean", "median"}
        The query f.

    Returns
    -------
    float
        The replace-one sensitivity.

    Raises
    ------
    ValueError
        If the query is not "mean" or "median", or the column holds fewer than 3 values, a value
        that is not finite, or an integer beyond 2**53.
    """
    x = check_values(values)
    check_query(query)
    n = x.size
    if query == "mean":
        # Replacing t by u moves the mean of n-1 values by (u - t)/(n-1); some world holds the
        # minimum.
        return float((x.max() - x.min()) / (n - 1))
    u, _, scale = standardised(np.sort(x))
    return scale * float(np.max(_bounded_median_sorted(u)))


def _bounded_median_sorted(s: np.ndarray) -> np.ndarray:
    """For each world (s minus s[j], s sorted), the largest move of its median when one element is
    replaced by min or max of s.

    The median is non-decreasing in every element, so u = min(X) or u = max(X) attains the maximum.
    Replacing the element at position i of a world shifts its middle elements in a way that depends
    only on where i lies relative to the middle: positions 0, m - 1 and those next to the middle
    cover every case, so O(n) work suffices instead of enumerating all O(n^2) replacements.
    """
    n = s.size
    m = n - 1  # world size
    j = np.arange(n)
    lo, hi = (m - 1) // 2, m // 2
    centre = _world_medians(s, j)

    def rest(k: int, i: int) -> np.ndarray:
        # element k of the world missing s[j], with its element i removed as well
        kk = np.full(j.shape, k + (k >= i))
        return _middle(s, j, kk)

    def element(k: int, i: int, low_end: bool) -> np.ndarray:
        # element k once element i is replaced: u = min(X) goes first (element k is the rest's
        # k - 1), u = max(X) last (element k is the rest's k)
        if low_end:
            return np.full(n, s[0]) if k == 0 else rest(k - 1, i)
        return np.full(n, s[-1]) if k == m - 1 else rest(k, i)

    best = np.zeros(n)
    for i in sorted({0, m - 1, *range(max(0, lo - 2), min(m, hi + 3))}):
        for low_end in (True, False):
            median = (element(lo, i, low_end) + element(hi, i, low_end)) / 2
            best = np.maximum(best, np.abs(median - centre))
    return best


def mean_sensitivity(lower: float, upper: float, n: int) -> float:
    """(ub - lb) / n: sensitivity of the mean of n values known in [lb, ub], bounded neighbours.

    Parameters
    ----------
    lower, upper : float
        The range [lb, ub] of the values, finite, ``upper`` > ``lower``.
    n : int
        The number of records, at least 1.

    Returns
    -------
    float
        The sensitivity of the mean.

    Raises
    ------
    ValueError
        If the range is not finite with ``upper`` > ``lower``, or ``n`` is not an integer of at
        least 1.
    """
    lo, hi = real("lower", lower), real("upper", upper)
    if not hi > lo:
        raise ValueError(f"upper must exceed lower, got range [{lower!r}, {upper!r}]")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an integer >= 1 (a number of records), got {n!r}")
    return (hi - lo) / int(n)


Neighbours = Literal["replace one", "add or remove one"]
NEIGHBOURS: tuple[str, ...] = ("replace one", "add or remove one")
# datasets enumerated by mean_sensitivity_brute_force, a guard on its running time
MAX_BRUTE_FORCE_DATASETS = 200_000


def mean_sensitivity_brute_force(
    values: Sequence[float] | np.ndarray, sizes: tuple[int, int], neighbours: Neighbours
) -> float:
    """Sensitivity Δ(f) of the mean (the blog's Eq. 3) by enumerating every dataset of
    ``sizes[0]``..``sizes[1]`` records drawn from ``values``.

    ``neighbours="replace one"`` pairs datasets of equal size that differ in one record (bounded
    neighbours); ``"add or remove one"`` pairs a dataset with the one that has one record more
    (unbounded neighbours; removing is the same pair seen from the larger dataset). Datasets are
    multisets: the mean does not depend on the order of the records.

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The values a record may take, finite.
    sizes : tuple of int
        The smallest and the largest number of records, 1 ≤ smallest ≤ largest.
    neighbours : {"replace one", "add or remove one"}
        Which datasets are neighbours.

    Returns
    -------
    float
        The largest change of the mean between neighbouring datasets.

    Raises
    ------
    ValueError
        If a value is not finite, ``sizes`` or ``neighbours`` is out of range, or there are more
        than ``MAX_BRUTE_FORCE_DATASETS`` datasets to enumerate.
    """
    grid = np.unique(finite_array("values", values))
    low, high = (int(s) for s in sizes)
    if not 1 <= low <= high:
        raise ValueError(
            f"sizes must be (smallest, largest) with 1 <= smallest <= largest, got {sizes!r}"
        )
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {NEIGHBOURS}, got {neighbours!r}")
    count = sum(math.comb(grid.size + m - 1, m) for m in range(low, high + 1))
    if count > MAX_BRUTE_FORCE_DATASETS:
        raise ValueError(
            f"{count} datasets to enumerate (more than {MAX_BRUTE_FORCE_DATASETS}): use fewer "
            "values or smaller sizes"
        )
    largest = 0.0
    for m in range(low, high + 1):
        datasets = np.array(list(itertools.combinations_with_replacement(grid, m)), dtype=float)
        sums = datasets.sum(axis=1)
        if neighbours == "replace one":
            # replacing record x by u moves the sum by u - x; the extreme u are the grid's ends
            change = (
                np.maximum(np.abs(grid[-1] - datasets), np.abs(grid[0] - datasets)).max(axis=1) / m
            )
        elif m < high:
            # adding u to a dataset of m records: |(sum + u)/(m + 1) - sum/m|
            change = np.abs((sums[:, None] + grid[None, :]) / (m + 1) - (sums / m)[:, None]).max(
                axis=1
            )
        else:
            continue
        largest = max(largest, float(change.max()))
    return largest


def mean_sensitivity_add_remove(lower: float, upper: float, smallest: int) -> float:
    """(ub - lb)/(m + 1): the sensitivity of the mean over datasets of at least m records in
    [lb, ub], one record added or removed.

    Parameters
    ----------
    lower, upper : float
        The range [lb, ub] of the values, finite, ``upper`` > ``lower``.
    smallest : int
        The fewest records m of a dataset, at least 1.

    Returns
    -------
    float
        The sensitivity of the mean.

    Raises
    ------
    ValueError
        If the range is not finite with ``upper`` > ``lower``, or ``smallest`` is not an integer
        of at least 1.
    """
    if isinstance(smallest, bool) or not isinstance(smallest, (int, np.integer)) or smallest < 1:
        raise ValueError(
            f"smallest must be an integer >= 1 (a number of records), got {smallest!r}"
        )
    # the mean moves most between m and m + 1 records
    return mean_sensitivity(lower, upper, int(smallest) + 1)


# A column given as its distinct values and their counts (multiplicities): every function below
# works on the k distinct values in O(k log k) and never builds the n rows. The n worlds fall into
# k classes: the c_i worlds that miss one copy of value v_i are the same multiset, so they share one
# answer and one local sensitivity. Row positions in the sorted column (up to n - 1) are found from
# the cumulative counts by a binary search.


def check_counts(
    values: Sequence[float] | np.ndarray, counts: Sequence[int] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A column's distinct values (sorted ascending, exact floats) and their counts (int64, >= 1),
    at least 3 rows in all and at most 2**53.

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column's distinct values, finite.
    counts : sequence of int or numpy.ndarray
        How many rows hold each value, integers ≥ 1.

    Returns
    -------
    values : numpy.ndarray
        The distinct values, ascending (float64).
    counts : numpy.ndarray
        Their counts, in the same order (int64).

    Raises
    ------
    ValueError
        If a value is not finite or repeats, an integer value lies beyond 2**53, a count is not an
        integer ≥ 1, there is not one count per value, or the counts sum to fewer than 3 rows or
        more than 2**53.
    """
    _check_exact_integers("values", values)
    v = finite_array("values", values)
    raw = np.asarray(counts)
    if raw.ndim != 1 or raw.size != v.size:
        raise ValueError(
            f"counts must be one count per distinct value: {v.size} values, counts of shape "
            f"{raw.shape}"
        )
    if raw.dtype.kind not in "iuf" or (
        raw.dtype.kind == "f" and not np.all(np.isfinite(raw) & (raw == np.round(raw)))
    ):
        raise ValueError(f"counts must be integers (numbers of rows), got {raw[:5].tolist()!r}")
    if np.any(raw < 1):
        raise ValueError(
            f"counts must be >= 1 (allowed range [1, 2**53]), got {raw.min().item()!r}"
        )
    # at most 2**53 rows, so that n and every row position are exact floats: the total in float
    # first (it cannot overflow), then exactly in int64 once it is known to fit
    if float(np.sum(raw, dtype=float)) > 2.0 * FLOAT_INTEGERS or (
        int(np.sum(raw.astype(np.int64))) > FLOAT_INTEGERS
    ):
        raise ValueError(f"counts must sum to at most 2**53 = {FLOAT_INTEGERS} rows")
    c = raw.astype(np.int64)
    order = np.argsort(v, kind="stable")
    v, c = v[order], c[order]
    repeated = v[1:][v[1:] == v[:-1]]
    if repeated.size:
        raise ValueError(
            "values must be distinct (their multiplicities go in counts), got "
            f"{repeated[0].item()!r} more than once"
        )
    n = int(np.sum(c))
    if n < MIN_ROWS:
        raise ValueError(
            f"counts must sum to at least {MIN_ROWS} rows (each possible world keeps n-1 rows and "
            f"the sensitivity removes one more), got {n}"
        )
    return v, c


def value_at(values: np.ndarray, ends: np.ndarray, position: np.ndarray) -> np.ndarray:
    """Element ``position`` of the sorted column whose distinct values end at cumulative counts
    ``ends``.

    Parameters
    ----------
    values : numpy.ndarray
        The distinct values, ascending.
    ends : numpy.ndarray
        The cumulative counts at which each value's rows end.
    position : numpy.ndarray
        The positions (0-based) in the sorted column.

    Returns
    -------
    numpy.ndarray
        The value at each position.
    """
    return values[np.searchsorted(ends, position, side="right")]


def standardised_counts(values: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, float, float]:
    """``standardised`` for sorted distinct values: the same scale and centre (the element n//2)
    as the expanded column's, so that each u is bit-for-bit the expanded one.

    Parameters
    ----------
    values : numpy.ndarray
        The distinct values, ascending.
    ends : numpy.ndarray
        The cumulative counts at which each value's rows end.

    Returns
    -------
    u : numpy.ndarray
        The standardised distinct values.
    centre : float
        The middle element of the expanded column, in units of ``scale``.
    scale : float
        The power of two the values are divided by.
    """
    scale = _power_of_two_scale(values)
    t = values / scale
    centre = float(value_at(t, ends, np.array(int(ends[-1]) // 2)))
    return t - centre, centre, scale


# the kernels numba compiles, on their first call: importing numba (with llvmlite) is slow, and a
# notebook that never sums exactly (the Laplace introduction) need not pay for it
_KERNELS: list[Callable[..., Any]] = []


def _compiled_on_first_call(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, compiled by numba's ``njit(cache=True)`` when any kernel is first called:
    every kernel is then replaced in the module by its compiled form, so that kernels calling each
    other call compiled code."""
    _KERNELS.append(function)

    def first_call(*args: Any) -> Any:
        from numba import njit

        for kernel in _KERNELS:
            globals()[kernel.__name__] = njit(cache=True)(kernel)
        return globals()[function.__name__](*args)

    first_call.__name__, first_call.__doc__ = function.__name__, function.__doc__
    return first_call


# The superaccumulator of ``exact_weighted_sum``: a fixed-point number of 32-bit limbs, limb j
# worth 2**(32 j - 1074) (the least float64 bit, 2**-1074, is bit 0 of limb 0). A count up to
# 2**53 times a value's 53-bit significand, at any exponent, lies below bit 2046 + 106, and a sum
# of up to 2**63 such products below bit 2215: 70 limbs; 72 leave room for the carries.
_LIMBS = 72
_LIMB_BITS = 32
_LIMB_MASK = (1 << _LIMB_BITS) - 1
# terms between two carry propagations: a term adds at most 3 pieces below 2**33 to one limb, so a
# limb stays far below 2**63 in magnitude (3 * 2**33 * 2**20 < 2**55)
_CARRY_EVERY = 1 << 20


@_compiled_on_first_call
def _add_shifted(limbs: np.ndarray, part: np.int64, position: np.int64, sign: np.int64) -> None:
    """limbs += sign * part * 2**position, for 0 <= part < 2**63 and sign ±1: added in three
    pieces, each below 2**33 (a product by the sign rather than a branch on it, which random signs
    would mispredict)."""
    q = position >> 5
    r = position & 31
    low = (part & _LIMB_MASK) << r  # < 2**63
    high = (part >> _LIMB_BITS) << r  # < 2**(31 + 31)
    limbs[q] += sign * (low & _LIMB_MASK)
    limbs[q + 1] += sign * ((low >> _LIMB_BITS) + (high & _LIMB_MASK))
    limbs[q + 2] += sign * (high >> _LIMB_BITS)


@_compiled_on_first_call
def _carry(limbs: np.ndarray) -> None:
    """Propagate carries: every limb but the last into [0, 2**32), the last keeps the sign."""
    for j in range(limbs.size - 1):
        carry = limbs[j] >> _LIMB_BITS  # arithmetic shift: floor division by 2**32
        limbs[j] -= carry << _LIMB_BITS
        limbs[j + 1] += carry


@_compiled_on_first_call
def _accumulate(bits: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The exact Σ c_i v_i as limbs (see ``_LIMBS``), from the values' IEEE-754 bit patterns
    (int64) and counts in [0, 2**53]. A product of a count below 2**10 and a 53-bit significand is
    exact in int64; a larger count is split in 26- and 27-bit halves, as is the significand, into
    four exact products. Nothing is rounded."""
    limbs = np.zeros(_LIMBS, dtype=np.int64)
    for i in range(bits.size):
        b = bits[i]
        field = (b >> 52) & 0x7FF
        significand = b & ((np.int64(1) << 52) - 1)
        count = counts[i]
        if field == 0x7FF:
            raise ValueError("exact_weighted_sum: values must be finite")
        if count < 0 or count > FLOAT_INTEGERS:
            raise ValueError("exact_weighted_sum: counts must lie in [0, 2**53]")
        if field == 0:  # subnormal (or zero): significand * 2**-1074
            position = np.int64(0)
        else:  # normal: (2**52 + significand) * 2**(field - 1075)
            significand |= np.int64(1) << 52
            position = field - 1
        if significand == 0 or count == 0:
            continue
        sign = 1 | (b >> 63)  # 1, or -1 for a negative value
        if count < 1 << 10:
            _add_shifted(limbs, significand * count, position, sign)
        else:
            m_low, m_high = significand & ((1 << 26) - 1), significand >> 26
            c_low, c_high = count & ((1 << 26) - 1), count >> 26
            _add_shifted(limbs, m_low * c_low, position, sign)
            _add_shifted(limbs, m_low * c_high + m_high * c_low, position + 26, sign)
            _add_shifted(limbs, m_high * c_high, position + 52, sign)
        if (i + 1) % _CARRY_EVERY == 0:
            _carry(limbs)
    _carry(limbs)
    return limbs


def exact_weighted_sum(values: np.ndarray, counts: np.ndarray) -> float:
    """Σ c_i v_i correctly rounded (to nearest, ties to even), for finite values and integer counts
    in [0, 2**53]: the result of exact arithmetic rounded once, as ``math.fsum`` would give it.

    A product of a count up to 2**53 and a 53-bit value has up to 106 bits: in float64 it would
    lose the low bits, and a plain sum of n ~ 1e9 such terms would drift by up to n ulps. Each
    product is added exactly into an integer superaccumulator (``_accumulate``, compiled, O(n)) and
    the one rounding is Python's exact integer division, correctly rounded. OverflowError, as
    ``math.fsum``'s, where the exact sum rounds beyond the largest float.

    Parameters
    ----------
    values : numpy.ndarray
        The values, finite (float64).
    counts : numpy.ndarray
        Their integer counts in [0, 2**53], of the same shape.

    Returns
    -------
    float
        The correctly rounded sum.

    Raises
    ------
    ValueError
        If the values and the counts are not 1-D arrays of one shape, the counts of an integer
        type.
    OverflowError
        If the sum rounds beyond the largest float.
    """
    v, c = np.ascontiguousarray(values, dtype=np.float64), np.ascontiguousarray(counts)
    if c.dtype.kind not in "iu" or v.shape != c.shape or v.ndim != 1:
        raise ValueError(
            "exact_weighted_sum: values and integer counts must be 1-D arrays of one shape, got "
            f"{v.shape} and {c.shape} of {c.dtype}"
        )
    limbs = _accumulate(v.view(np.int64), c.astype(np.int64, copy=False))
    total = sum(int(limb) << (_LIMB_BITS * j) for j, limb in enumerate(limbs.tolist()))
    try:
        return total / (1 << 1074)  # int / int: correctly rounded
    except OverflowError:
        raise OverflowError("intermediate overflow in exact_weighted_sum") from None
