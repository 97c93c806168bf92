"""The statistics a release publishes, over Lee & Clifton's possible worlds (Secs. 4.1-4.3).

The adversary knows the n rows of X and that ``unknown`` = k of them are absent from the
released database: the possible worlds are the C(n, k) subsets of n - k rows, a priori equally
likely. A world is fixed by the multiset of values it misses, so the worlds fall into classes, one
per such multiset, each of prod_i C(c_i, m_i) worlds (m_i copies missed of a value that c_i rows
hold): K classes for K distinct values when k = 1, at most C(K + k - 1, k) in general, whatever n
is. For each class this module gives the worlds' answer f(ω) and local sensitivity LS(ω) = max over
t in ω of ``|f(ω) - f(ω - t)|``; the paper's (unbounded) Δf is their maximum. Queries:

- ``sum``; a count of the rows that meet a condition is the sum of their 0/1 indicator column;
- ``mean``;
- ``variance`` and ``std``, both with the population divisor (the world's own size);
- ``median``, Eq. (13): the middle value, or the mean of the two middle values for an even size;
- ``quantile`` at a level q in (0, 1), as NumPy's default (linear) method: the value at position
  (size - 1) q of the sorted world, interpolated between its neighbours.

Precision. Values are rescaled by a power of two (exact) and, for the order statistics, centred on
the column's middle value (``sensitivity.standardised_counts``). ε depends on the answers only
through their differences, so each query also gives the gaps between its distinct answers as
directly as the data allow: the sum's and the mean's from the differences of the missing values'
sums (for k = 1, the values' own gaps, rounded once), the variance's from the part of it that
changes between worlds (the common part Q/m set aside), the standard deviation's from the
variance's gaps over the sum of the two roots.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .sensitivity import (
    check_counts,
    check_values,
    exact_weighted_sum,
    standardised_counts,
)

Query = Literal["mean", "sum", "variance", "std", "median", "quantile"]
QUERIES: tuple[str, ...] = ("mean", "sum", "variance", "std", "median", "quantile")
# at most this many classes of worlds are formed: above it, the exact ε is refused in one line.
# With one row unknown a class is a distinct value, so 10⁷ distinct values are computed (what
# that costs: docs/running.md); Lee & Clifton's alumni database and make bench go that far
MAX_CLASSES = 10_000_000


def check_query(query: str, q: float | None = None) -> tuple[str, float | None]:
    """``query`` and its level q: q in (0, 1) for "quantile" only, else None.

    Parameters
    ----------
    query : str
        One of ``QUERIES``: "mean", "sum", "variance", "std", "median" or "quantile".
    q : float, optional
        The level of a quantile, in (0, 1); given with "quantile" only.

    Returns
    -------
    query : str
        The query, as given.
    q : float or None
        The level as a float for "quantile", else None.

    Raises
    ------
    ValueError
        If ``query`` is none of ``QUERIES``, ``q`` is given with another query, or a quantile's
        level is missing or outside (0, 1).
    """
    if query not in QUERIES:
        raise ValueError(f"query must be one of {QUERIES}, got {query!r}")
    if query != "quantile":
        if q is not None:
            raise ValueError(
                f"q is the level of a quantile: give it with query='quantile' only, got q={q!r} "
                f"with {query!r}"
            )
        return query, None
    if q is None or isinstance(q, bool) or not isinstance(q, (int, float, np.integer, np.floating)):
        raise ValueError(f"q (the quantile's level) must be a number in (0, 1), got {q!r}")
    if not 0 < float(q) < 1:
        raise ValueError(f"q (the quantile's level) must lie in (0, 1), got {q!r}")
    return query, float(q)


def check_unknown(unknown: int, n: int) -> int:
    """The number k of rows the adversary misses: an integer with 1 <= k <= n - 2 (a world keeps
    at least two rows, so that removing one for Δf leaves one).

    Parameters
    ----------
    unknown : int
        The rows k the adversary misses.
    n : int
        The rows of the column.

    Returns
    -------
    int
        ``unknown`` as an int.

    Raises
    ------
    ValueError
        If ``unknown`` is not an integer in [1, n - 2].
    """
    if isinstance(unknown, bool) or not isinstance(unknown, (int, np.integer)):
        raise ValueError(f"unknown (rows the adversary misses) must be an integer, got {unknown!r}")
    if not 1 <= unknown <= n - 2:
        raise ValueError(
            f"unknown (rows the adversary misses) must lie in [1, n - 2] = [1, {n - 2}] for "
            f"n = {n} rows (each world keeps n - k rows, and Δf removes one more), got {unknown!r}"
        )
    return int(unknown)


@dataclass(frozen=True)
class WorldClasses:
    """A column's possible worlds in classes of worlds that miss the same values, each with its
    answer and local sensitivity, and what ε needs of them.

    ``answer`` and ``local_sensitivity`` are in the column's units (its square for the variance).
    ``gaps``, ``spread`` and ``sensitivity`` are in units of ``unit`` (a power of two, or its
    square), in which they are computed: ε depends on their ratios only.
    """

    query: str
    q: float | None
    n: int  # rows of the column
    unknown: int  # k: rows each world misses
    worlds: int  # C(n, k)
    missing: np.ndarray  # (classes, k): the distinct values each class misses, by index
    weight: np.ndarray  # worlds in each class
    answer: np.ndarray  # f(ω) of each class
    local_sensitivity: np.ndarray  # LS(ω) of each class
    unit: float  # the rescaling's factor to the column's units
    sensitivity: float  # Δf / unit: the largest local sensitivity
    # the distinct answers, ascending: the gaps between them and how many worlds give each
    gaps: np.ndarray
    shared: np.ndarray
    spread: float  # Δv / unit: the largest answer less the smallest


def count_classes(distinct: int, unknown: int) -> int:
    """C(K + k - 1, k): the multisets of k among K distinct values, an upper bound on the
    classes.

    Parameters
    ----------
    distinct : int
        The number K of distinct values of the column.
    unknown : int
        The rows k each world misses.

    Returns
    -------
    int
        The binomial coefficient C(K + k - 1, k).
    """
    return math.comb(distinct + unknown - 1, unknown)


def _multisets(counts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every multiset of k of the distinct values that the column can miss (index rows,
    non-decreasing), how many worlds miss each (prod C(c_i, m_i)), and which copy of its value
    each entry is (0, 1, ... along a run of equal indices)."""
    size = counts.size
    rows = np.arange(size)[:, None]
    if k == 1:  # each value once: every count is >= 1, and C(c, 1) = c
        return rows, counts.astype(float), np.zeros_like(rows)
    for _ in range(k - 1):  # append an index >= the last one: each multiset once
        extra = size - rows[:, -1]
        first = np.repeat(np.cumsum(extra) - extra, extra)
        grown = np.repeat(rows, extra, axis=0)
        rows = np.column_stack([grown, grown[:, -1] + np.arange(first.size) - first])
    rank = np.zeros_like(rows)  # the copy of its value each entry misses: 0, 1, ...
    for j in range(1, k):
        rank[:, j] = np.where(rows[:, j] == rows[:, j - 1], rank[:, j - 1] + 1, 0)
    held = counts[rows]
    possible = np.all(rank < held, axis=1)
    rows, rank, held = rows[possible], rank[possible], held[possible]
    weight = np.prod((held - rank) / (rank + 1.0), axis=1)  # C(c, r) = prod (c - t)/(t + 1)
    return rows, weight, rank


class _World:
    """Order statistics of the worlds of each class: the column less the rows the class misses."""

    def __init__(
        self, ends: np.ndarray, counts: np.ndarray, missing: np.ndarray, rank: np.ndarray
    ) -> None:
        self.ends = ends
        # the positions of the missed rows in the sorted column, ascending along each class
        first = ends - counts  # the first row of each value
        if missing.shape[1] == 1 and missing.shape[0] == ends.size:  # one class per value
            self.removed = first[:, None]
        else:
            self.removed = first[missing] + rank
        self.size = int(ends[-1]) - missing.shape[1]

    def position(self, p: np.ndarray | int) -> np.ndarray:
        """The column position of element p (0-based) of each class's sorted world."""
        pos = np.broadcast_to(np.asarray(p, dtype=np.int64), self.removed.shape[:1]).copy()
        for j in range(self.removed.shape[1]):
            pos += self.removed[:, j] <= pos
        return pos

    def value(self, values: np.ndarray, p: np.ndarray | int) -> np.ndarray:
        """Element p of each class's sorted world, from the column's distinct ``values``."""
        if np.ndim(p) == 0:  # the positions are p to p + k: k + 1 searches, not one per class
            k, p = self.removed.shape[1], int(p)
            at = values[np.searchsorted(self.ends, p + np.arange(k + 1), side="right")]
            if k == 1:  # position p + 1 where the missed row is at or below p (a prefix), else p
                found = np.full(self.removed.shape[0], at[0])
                found[: np.searchsorted(self.removed[:, 0], p, side="right")] = at[1]
                return found
            return at[self.position(p) - p]
        return values[np.searchsorted(self.ends, self.position(p), side="right")]


def _missed(x: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """The sum of ``x`` over the values each class misses, as ``np.sum(x[missing], axis=1)``
    (whose sum of one term is that term, but 0.0 for -0.0)."""
    if missing.shape[1] == 1:  # k = 1: class i misses value i (``_multisets``)
        return x + 0.0
    return np.sum(x[missing], axis=1)


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray | float) -> np.ndarray:
    """a + (b - a) t, as NumPy's quantile computes it (from b for t >= 1/2): its exact values."""
    diff = b - a
    t = np.broadcast_to(t, np.shape(diff))
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)


def _order_statistic(
    world: _World, u: np.ndarray, query: str, q: float | None, size: int, shift: int | None = None
) -> np.ndarray:
    """The median (Eq. 13) or the quantile at q of each world, less element ``shift`` of it when
    given (a world of ``size`` elements after that removal)."""

    def element(p: int) -> np.ndarray:
        old = np.asarray(p) if shift is None else np.asarray(p) + (np.asarray(p) >= shift)
        return world.value(u, old)

    if query == "median" or q is None:
        return (element((size - 1) // 2) + element(size // 2)) / 2
    h = (size - 1) * q
    lo = math.floor(h)
    return _lerp(element(lo), element(min(lo + 1, size - 1)), h - lo)


@dataclass(frozen=True)
class _Answers:
    """One query's answers to each class: in the column's units, and as what ε needs."""

    answer: np.ndarray  # f(ω), in units of the rescaling
    key: np.ndarray  # increasing with the answer, equal exactly where the answers are
    gap: Callable[[np.ndarray, np.ndarray], np.ndarray]  # (sorted keys, first class of each)
    local: np.ndarray  # LS(ω), in units of the rescaling


def _sum_or_mean(
    query: str,
    t: np.ndarray,
    u: np.ndarray,
    counts: np.ndarray,
    world: _World,
    missing: np.ndarray,
) -> _Answers:
    """Sum or mean of each class's worlds, and their LS: removing t moves the sum by |t| and the
    mean of m rows by |t - mean|/(m - 1), most for a world's smallest or largest value."""
    m = world.size
    missed = _missed(t, missing)  # for k = 1 the value itself, exact
    total = exact_weighted_sum(t, counts)
    if query == "sum":
        local = np.maximum(np.abs(world.value(t, 0)), np.abs(world.value(t, m - 1)))
        return _Answers(total - missed, -missed, lambda keys, first: np.diff(keys), local)
    # the world's mean less the column's middle value, where the distances are taken
    centred = (exact_weighted_sum(u, counts) - _missed(u, missing)) / m
    local = np.maximum(world.value(u, m - 1) - centred, centred - world.value(u, 0)) / (m - 1)
    return _Answers((total - missed) / m, -missed, lambda keys, first: np.diff(keys) / m, local)


def _spread(
    query: str, t: np.ndarray, counts: np.ndarray, world: _World, missing: np.ndarray
) -> _Answers:
    """Variance or standard deviation (population divisor) of each class's worlds, and their LS.

    With d = t - μ (μ the column's mean), Q = Σ c d², δ = Σ c d (0 but for rounding), and a class
    missing D = Σ d and E = Σ d² of its k values, a world of m = n - k rows has
    V = (Q - E)/m - ((δ - D)/m)². Removing a row at distance e from the world's mean changes V by
    V - V' = (m e²/(m - 1) - V)/(m - 1), most for the farthest row (the world's smallest or
    largest value) or the nearest one (either side of its mean): four candidates. A variance taken
    as a difference of sums loses digits where it is small beside Q/m (a world, or a world less a
    row, of nearly equal values): there it is held within Popoviciu's bound, range²/4, which is
    exact (0) for equal values, so that the standard deviation's square root does not magnify the
    rounding.
    """
    n, m = int(world.ends[-1]), world.size
    d = t - exact_weighted_sum(t, counts) / n
    q_total, offset = exact_weighted_sum(d * d, counts), exact_weighted_sum(d, counts)
    centre = (offset - _missed(d, missing)) / m  # the world's mean, in d
    key = -_missed(d * d, missing) / m - centre**2
    low, high = world.value(d, 0), world.value(d, m - 1)
    variance = np.clip(q_total / m + key, 0.0, ((high - low) / 2) ** 2)
    # the world's rows nearest its mean: below and above it in the sorted column
    below_column = np.searchsorted(d, centre, side="left")  # distinct values below the mean
    rows_below = np.where(below_column > 0, world.ends[np.maximum(below_column - 1, 0)], 0)
    rank = rows_below - np.sum(d[missing] < centre[:, None], axis=1)  # the world's rows below it
    changes = []
    for p in (
        np.zeros_like(rank),
        np.full_like(rank, m - 1),
        np.maximum(rank - 1, 0),
        np.minimum(rank, m - 1),
    ):
        e = world.value(d, p) - centre
        drop = (m * e * e / (m - 1) - variance) / (m - 1)  # V - V'
        if query == "std":  # |√V - √V'| = |V - V'| / (√V + √V'), V' within its own range's bound
            rest_low = np.where(p == 0, world.value(d, 1), low)
            rest_high = np.where(p == m - 1, world.value(d, m - 2), high)
            after = np.clip(variance - drop, 0.0, ((rest_high - rest_low) / 2) ** 2)
            roots = np.sqrt(variance) + np.sqrt(after)
            drop = np.divide(drop, roots, out=np.zeros_like(drop), where=roots > 0)
        changes.append(np.abs(drop))
    local = np.max(changes, axis=0)
    if query == "variance":
        return _Answers(variance, key, lambda keys, first: np.diff(keys), local)
    root = np.sqrt(variance)

    def gap(keys: np.ndarray, first: np.ndarray) -> np.ndarray:
        r = root[first]
        return np.diff(keys) / (r[:-1] + r[1:])  # √a - √b = (a - b)/(√a + √b)

    return _Answers(root, key, gap, local)


def _order(query: str, q: float | None, u: np.ndarray, centre: float, world: _World) -> _Answers:
    """Median or quantile of each class's worlds, and its LS: removing the world's row of rank r
    moves the elements the smaller world uses by one place where r is at or below them, so ranks
    0, i + 1 and m - 1 (i the lower element used) cover every outcome (Eq. 15 for the median)."""
    m = world.size
    answer = _order_statistic(world, u, query, q, m)
    lower = (m - 2) // 2 if query == "median" else math.floor((m - 2) * q)
    local = np.max(
        [
            np.abs(answer - _order_statistic(world, u, query, q, m - 1, shift=r))
            for r in sorted({0, lower + 1, m - 1})
        ],
        axis=0,
    )
    return _Answers(centre + answer, answer, lambda keys, first: np.diff(keys), local)


def _grouped(
    key: np.ndarray, weight: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray | slice, np.ndarray]:
    """The classes in ascending order of their key (stable), the keys in that order, where each
    distinct key starts, and the worlds of each distinct key."""
    if np.all(key[1:] < key[:-1]):  # distinct and descending (the sum's or mean's, k = 1): reversed
        return np.arange(key.size)[::-1], key[::-1], slice(None), weight[::-1].copy()
    order = np.argsort(key, kind="stable")
    keys = key[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    if starts.size == keys.size:  # every key distinct: each sum has one term, itself
        return order, keys, starts, weight[order]
    return order, keys, starts, np.add.reduceat(weight[order], starts)


def _classes(
    values: np.ndarray, counts: np.ndarray, query: str, q: float | None, unknown: int
) -> WorldClasses:
    """``world_classes`` of sorted values (distinct, or one per row) and their counts."""
    n = int(np.sum(counts))
    classes = count_classes(values.size, unknown)
    if classes > MAX_CLASSES:
        raise ValueError(
            f"unknown = {unknown} on {values.size:,} distinct values makes up to {classes:,} "
            f"classes of possible worlds, above the {MAX_CLASSES:,} computed exactly: take fewer "
            "unknown rows, or round or bin the column"
        )
    missing, weight, rank = _multisets(counts, unknown)
    world = _World(np.cumsum(counts), counts, missing, rank)
    u, centre, scale = standardised_counts(values, world.ends)
    t = values / scale  # exact: scale is a power of two
    if query in ("sum", "mean"):
        a = _sum_or_mean(query, t, u, counts, world, missing)
    elif query in ("variance", "std"):
        a = _spread(query, t, counts, world, missing)
    else:
        a = _order(query, q, u, centre, world)
    order, keys, starts, shared = _grouped(a.key, weight)
    gaps = a.gap(keys[starts], order[starts])
    unit = scale**2 if query == "variance" else scale
    return WorldClasses(
        query=query,
        q=q,
        n=n,
        unknown=unknown,
        worlds=math.comb(n, unknown),
        missing=missing,
        weight=weight,
        answer=a.answer * unit,
        local_sensitivity=a.local * unit,
        unit=unit,
        sensitivity=float(np.max(a.local)),
        gaps=gaps,
        shared=shared,
        spread=float(np.sum(gaps)),
    )


def world_classes(
    values: Sequence[float] | np.ndarray,
    query: str = "mean",
    counts: Sequence[int] | np.ndarray | None = None,
    unknown: int = 1,
    q: float | None = None,
) -> WorldClasses:
    """The possible worlds of a column missing ``unknown`` rows, in classes, with each class's
    answer and local sensitivity (Secs. 4.1-4.3; the query as in the module docstring).

    With ``counts``, ``values`` are the column's distinct values and ``counts`` how many rows hold
    each (``tables.column_counts``). Without, each row is its own entry while the classes this
    makes stay under ``MAX_CLASSES`` (the worlds enumerated row by row), and the distinct values are
    counted above it; either way the same worlds, and the same answers.

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column, one value per row; with ``counts``, its distinct values.
    query : str
        One of ``QUERIES``.
    counts : sequence of int or numpy.ndarray, optional
        How many rows hold each of ``values``.
    unknown : int
        The rows k each world misses, in [1, n - 2].
    q : float, optional
        The level of a quantile, in (0, 1), with ``query="quantile"`` only.

    Returns
    -------
    WorldClasses
        The classes of worlds with their answers, local sensitivities and weights, and the gaps,
        spread and sensitivity that ε depends on.

    Raises
    ------
    ValueError
        If the query, its level, the values, the counts or ``unknown`` are out of range, or the
        column makes more than ``MAX_CLASSES`` classes.
    """
    query, q = check_query(query, q)
    if counts is None:
        x = np.sort(check_values(values))
        k = check_unknown(unknown, x.size)
        v, c = x, np.ones(x.size, dtype=np.int64)  # one entry per row
        if count_classes(x.size, k) > MAX_CLASSES:
            v, c = np.unique(x, return_counts=True)
    else:
        v, c = check_counts(values, counts)
        k = check_unknown(unknown, int(np.sum(c)))
    return _classes(v, c, query, q, k)


def public_sensitivity(
    query: str, lower: float, upper: float, size: int, q: float | None = None
) -> float:
    """Δf from the public range alone: the largest change of ``query`` when one of ``size`` values
    in [lower, upper] is removed, over every column the range allows (the paper's Δf without the
    data). With w = upper - lower and m = ``size``: the mean w/m, the sum ``max(|lower|, |upper|)``,
    the variance (m - 1) w²/m² and the standard deviation w √(m - 1)/m (population divisors),
    the median w/2 (each attained by some column); a quantile w (a bound, not always attained),
    but w/2 at q = 1/2, where it is the median.

    Parameters
    ----------
    query : str
        One of ``QUERIES``.
    lower, upper : float
        The public range of the values, finite, with ``upper`` > ``lower``.
    size : int
        The rows m of a world, at least 2.
    q : float, optional
        The level of a quantile, in (0, 1), with ``query="quantile"`` only.

    Returns
    -------
    float
        The largest change Δf of the query when one value is removed.

    Raises
    ------
    ValueError
        If the query or its level is out of range, the range is not finite with ``upper`` >
        ``lower``, or ``size`` is not an integer of at least 2.
    """
    query, q = check_query(query, q)
    lo, hi = float(lower), float(upper)
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
        raise ValueError(f"the range must be finite with upper > lower, got [{lower!r}, {upper!r}]")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 2:
        raise ValueError(f"size must be an integer >= 2 (rows of a world), got {size!r}")
    w, m = hi - lo, int(size)
    return {
        "mean": w / m,
        "sum": max(abs(lo), abs(hi)),
        "variance": (m - 1) * w * w / (m * m),
        "std": w * math.sqrt(m - 1) / m,
        "median": w / 2,
        "quantile": w / 2 if q == 0.5 else w,
    }[query]
