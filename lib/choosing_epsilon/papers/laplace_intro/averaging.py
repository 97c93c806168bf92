"""The averaging attack read exactly: after k Laplace releases of one count at ε each, the
advantage of the attacker's own test (the mean of the k answers), of the most powerful test
against the k releases (dp-accounting's bracket), of the worst case of k releases at ε each
(k-fold randomized response) and what basic composition's kε reads; and the k at which each first
reaches a stated risk."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

import pandas as pd

from choosing_epsilon import composition, privacy_loss, risk

# dp-accounting's grid of the privacy loss, as a share of the loss ε of one release: the number of
# points of a composed distribution is then the same at every ε (``_laplace`` widens it with k)
GRID_SHARE = 1 / 100

# the table's columns: the averaging test, the most powerful test (below, above), the worst case
# and basic composition
COLUMNS = {
    "averaging": "averaging test (mean of k answers)",
    "best_lower": "most powerful test, from below",
    "best_upper": "most powerful test, from above",
    "worst_case": "worst case at ε each (k-fold randomized response)",
    "basic": "basic composition (kε)",
}


@lru_cache(maxsize=256)
def _laplace(epsilon: float, k: int) -> composition.Composed:
    """k Laplace releases at ε, on a grid of ε/100 up to k = 100 and √(k/100) times that beyond:
    the composed loss spreads like √k, so its distribution keeps about the same number of points
    (and the time it takes) at every k."""
    step = epsilon * GRID_SHARE * max(1.0, math.sqrt(k / 100))
    return composition.compose(risk.laplace(epsilon), k, grid_step=step)


def _kept(value: float) -> float:
    """A reading of dp-accounting's, to the digits every CPU gives
    (``privacy_loss.round_reproducibly``)."""
    return float(privacy_loss.round_reproducibly(value))


def _kept_outward(value: float, up: bool) -> float:
    """A bound of the bracket to the same digits, rounded away from what it bounds (up for the
    bound from above, down for the one from below), so that rounding never moves it past the
    value: at k = 1, where the curve is exact, the nearest rounding would put the bound from
    above under the averaging test's exact advantage."""
    scale = 10.0**privacy_loss.ACCOUNTANT_DECIMALS
    kept = _kept(value)
    if up and kept < value:
        return min(math.ceil(value * scale) / scale, 1.0)
    if not up and kept > value:
        return math.floor(value * scale) / scale
    return kept


@lru_cache(maxsize=256)
def best_bracket(epsilon: float, k: int) -> tuple[float, float]:
    """The most powerful test's advantage against k Laplace releases at ε, bracketed (each of
    dp-accounting's readings rounded outward, ``_kept_outward``): from below
    the larger of dp-accounting's optimistic estimate and the averaging test (a test, so the best
    does at least as well), from above the smaller of its pessimistic estimate and the worst case
    at ε each (k-fold randomized response, which bounds every ε-DP mechanism)."""
    composed = _laplace(epsilon, k)
    own = composition.averaging_advantage(epsilon, k)
    lower = max(_kept_outward(composed.advantage_attained(), up=False), own)
    worst = composition.compose(risk.pure(epsilon), k).advantage()
    return lower, min(_kept_outward(composed.advantage(), up=True), worst)


def readings(epsilon: float, ks: Sequence[int]) -> pd.DataFrame:
    """The advantage of each reading at each k of ``ks`` (``COLUMNS``; the most powerful test's by
    ``best_bracket``), with the exact worst case's TPR at FPR 1% and basic composition's;
    dp-accounting's readings kept to the digits every CPU gives
    (``privacy_loss.round_reproducibly``)."""
    rows = []
    for k in ks:
        best_lower, best_upper = best_bracket(epsilon, k)
        worst = composition.compose(risk.pure(epsilon), k)
        basic = composition.basic_composition(risk.pure(epsilon), k)
        rows.append(
            {
                "k": int(k),
                COLUMNS["averaging"]: composition.averaging_advantage(epsilon, k),
                COLUMNS["best_lower"]: best_lower,
                COLUMNS["best_upper"]: best_upper,
                COLUMNS["worst_case"]: worst.advantage(),
                COLUMNS["basic"]: risk.advantage(basic),
                "worst case TPR at FPR 1%": float(worst.tpr(0.01)),
                "basic composition TPR at FPR 1%": risk.tpr_bound(basic, 0.01),
            }
        )
    return pd.DataFrame(rows)


def _first_k(reaches: Callable[[int], bool], low: int, high: int) -> int | None:
    """The least k in [low, high] with ``reaches(k)`` (monotone in k), by bisection; None when
    even ``high`` does not reach."""
    if not reaches(high):
        return None
    while low < high:
        mid = (low + high) // 2
        if reaches(mid):
            high = mid
        else:
            low = mid + 1
    return low


def crossings(epsilon: float, level: float, largest_k: int) -> dict[str, int | None]:
    """The least k, up to ``largest_k``, at which each reading's advantage reaches ``level`` (None:
    beyond ``largest_k``). The most powerful test's is bracketed: it lies between the k at which
    dp-accounting's bound from above reaches ``level`` and the k at which its estimate from below
    does; basic composition's is ⌈2 artanh(level)/ε⌉, up to the rounding of that quotient."""
    eta = open_level(level)
    worst = _first_k(
        lambda k: composition.compose(risk.pure(epsilon), k).advantage() >= eta, 1, largest_k
    )
    own = _first_k(lambda k: composition.averaging_advantage(epsilon, k) >= eta, 1, largest_k)
    basic = _first_k(lambda k: math.tanh(k * epsilon / 2) >= eta, 1, largest_k)
    # the best test is at most the worst case and at least the averaging test: search between
    high = own if own is not None else largest_k
    low = worst if worst is not None else largest_k
    upper = _first_k(
        lambda k: _kept_outward(_laplace(epsilon, k).advantage(), up=True) >= eta, 1, high
    )

    def lower_reaches(k: int) -> bool:
        return best_bracket(epsilon, k)[0] >= eta

    # the estimate from below may fall under the averaging test: then it crosses after it
    lower = _first_k(lower_reaches, min(low, high), high)
    if lower is None and high < largest_k:
        lower = _first_k(lower_reaches, high, largest_k)
    return {
        "averaging": own,
        "best_upper": upper,
        "best_lower": lower,
        "worst_case": worst,
        "basic": basic,
    }


def open_level(level: float) -> float:
    """The stated risk, an advantage in (0, 1)."""
    if not 0 < level < 1:
        raise ValueError(f"averaging_risk must lie in (0, 1), got {level!r}")
    return float(level)


def advantages_at(epsilon: float, crossed: dict[str, int | None]) -> dict[str, float]:
    """Each reading's advantage at the k where it first reaches the stated risk (for the figure's
    markers); NaN where it does not within the k searched."""
    read: dict[str, Callable[[int], float]] = {
        "averaging": lambda k: composition.averaging_advantage(epsilon, k),
        "best_upper": lambda k: best_bracket(epsilon, k)[1],
        "best_lower": lambda k: best_bracket(epsilon, k)[0],
        "worst_case": lambda k: composition.compose(risk.pure(epsilon), k).advantage(),
        "basic": lambda k: math.tanh(k * epsilon / 2),
    }
    return {key: math.nan if k is None else float(read[key](k)) for key, k in crossed.items()}


def results_entries(table: pd.DataFrame, crossed: dict[str, int | None]) -> dict[str, object]:
    """What results.json records of the averaging attack read exactly: the k's of ``table``
    (``readings``), each reading's advantage at each (the bracket to 7 decimals), the worst case's
    and basic composition's TPR at 1% false positives, and where each first reaches the stated
    risk (``crossed``, from ``crossings``)."""
    return {
        "averaging_k": table["k"].tolist(),
        **{f"averaging_{key}_advantage": table[name].tolist() for key, name in COLUMNS.items()},
        "averaging_worst_case_tpr_at_fpr_1pct": table["worst case TPR at FPR 1%"].tolist(),
        "averaging_basic_tpr_at_fpr_1pct": table["basic composition TPR at FPR 1%"].tolist(),
        "averaging_first_k": crossed,
    }
