"""Lee & Clifton's possible-worlds adversary (Secs. 4.2-6) and the ε it implies.

The adversary knows every row of X (n rows) and that exactly one is absent from the released
database X'. Its possible worlds are the n subsets of size n-1, with a uniform prior 1/n. It sees
one response γ = f(X') + Lap(Δf/ε) and forms the posterior of Definition 3. The risk of
disclosure (Definition 5) is the largest posterior; its worst case over responses is Eq. (3) at
γ = f(ω_i), since ``|γ - f(ω_k)| - |γ - f(ω_i)| >= -|f(ω_i) - f(ω_k)|`` for every γ.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit
from scipy import optimize, special, stats

from . import laplace, queries
from ._validate import finite_array, nonnegative, open_unit, positive, real
from .sensitivity import (
    check_values,
)

# responses x worlds evaluated at once by the Monte Carlo: bounded memory at any n
CHUNK_ELEMENTS = 2**21


def posterior(
    answers: Sequence[float] | np.ndarray,
    response: float | np.ndarray,
    sensitivity: float,
    epsilon: float,
) -> np.ndarray:
    """β(ω) = P(κ_f(ω) = γ) / Σ_ψ P(κ_f(ψ) = γ) for each world, uniform prior (Definition 3).

    ``response`` may be an array of T responses: the result then has shape (T, n).

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite.
    response : float or numpy.ndarray
        The response γ, or T responses, finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    numpy.ndarray
        The posterior of each world, of shape (n,) or (T, n).

    Raises
    ------
    ValueError
        If an answer or a response is not finite, or ``sensitivity`` or ``epsilon`` not > 0.
    """
    a = finite_array("answers", answers)
    g = np.asarray(response, dtype=float)
    if not np.all(np.isfinite(g)):
        raise ValueError(f"response must be finite, got {response!r}")
    logp = laplace.log_density(g[..., None], a, sensitivity, epsilon)
    # the likeliest world at 0: ties stay exact far from every world
    logp = logp - logp.max(axis=-1, keepdims=True)
    return np.exp(logp - special.logsumexp(logp, axis=-1, keepdims=True))


@njit(cache=True)
def _kernel_sums(
    gaps: np.ndarray,
    counts: np.ndarray,
    rate: float,
    decay: np.ndarray,
    total: np.ndarray,
    exceedable: np.ndarray,
) -> float:
    """Σ_k c_k e^{-rate |v_i - v_k|} for sorted distinct v (gaps v[i+1] - v[i]) into ``total``,
    and the least of them where ``exceedable`` (a boolean mask; an empty one: the least of all).

    Two one-sided recurrences, O(n) in all: from below, B_i = (B_{i-1} + c_{i-1}) e^{-rate
    gap_{i-1}}; from above, A_i = A_{i+1} e^{-rate gap_i} + c_i; the sum is A_i + B_i. Each factor
    e^{-rate gap_i} is computed once (1 at rate 0), in the first pass, and kept in ``decay`` for the
    second. Every partial sum lies between 0 and the number of worlds, so nothing can overflow;
    terms too small to matter are flushed to zero rather than carried as slow subnormal numbers.
    ``decay`` and ``total`` are work arrays of the same length as ``counts``, reused across calls.
    """
    n = counts.size
    exp = rate != 0.0
    acc = 0.0
    total[0] = 0.0
    for i in range(n - 1):
        factor = math.exp(-rate * gaps[i]) if exp else 1.0
        decay[i] = factor
        acc = (acc + counts[i]) * factor
        if acc < 1e-290:
            acc = 0.0
        total[i + 1] = acc
    least = math.inf
    every = exceedable.size == 0
    acc = 0.0
    for i in range(n - 1, -1, -1):
        if i < n - 1:
            acc *= decay[i]
            if acc < 1e-290:
                acc = 0.0
        acc += counts[i]
        both = acc + total[i]
        total[i] = both
        if both < least and (every or exceedable[i]):
            least = both
    return least


def _distinct_sorted(ascending: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of an ascending array and how often each occurs (run lengths)."""
    starts = np.flatnonzero(np.concatenate(([True], ascending[1:] != ascending[:-1])))
    return ascending[starts], np.diff(np.append(starts, ascending.size)).astype(float)


def _distinct(answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct answers and how many worlds give each."""
    return _distinct_sorted(np.sort(answers))


def _log_self_posterior(answers: np.ndarray, epsilon_over_sensitivity: float) -> np.ndarray:
    """log β(ω_i) at γ = f(ω_i), distinct answers: -log Σ_k e^{-|f(ω_i) - f(ω_k)| ε/Δf} (Eq. 3)."""
    values, counts = _distinct(answers)
    decay, total = np.empty((2, values.size))
    none = np.empty(0, dtype=np.bool_)
    _kernel_sums(np.diff(values), counts, float(epsilon_over_sensitivity), decay, total, none)
    return -np.log(total)


def risk_per_world(
    answers: Sequence[float] | np.ndarray, sensitivity: float, epsilon: float
) -> np.ndarray:
    """β(ω_i) at the worst response γ = f(ω_i), for each world (Eq. 3).

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    numpy.ndarray
        Each world's posterior at its own answer, in the order of ``answers``.

    Raises
    ------
    ValueError
        If an answer is not finite, or ``sensitivity`` or ``epsilon`` not > 0.
    """
    a = finite_array("answers", answers)
    c = 1.0 / laplace.scale(sensitivity, epsilon)
    values = np.unique(a)
    return np.exp(_log_self_posterior(a, c))[np.searchsorted(values, a)]


def worst_case_risk(
    answers: Sequence[float] | np.ndarray, sensitivity: float, epsilon: float
) -> float:
    """Γ at its worst response: max over worlds of Eq. (3).

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        The largest posterior Γ over the worlds.

    Raises
    ------
    ValueError
        If an answer is not finite, or ``sensitivity`` or ``epsilon`` not > 0.
    """
    a = finite_array("answers", answers)
    return _worst_case_risk(a, 1.0 / laplace.scale(sensitivity, epsilon))


def _worst_case_risk(answers: np.ndarray, epsilon_over_sensitivity: float) -> float:
    """``worst_case_risk`` of checked answers, at ε/Δf."""
    return float(np.exp(np.max(_log_self_posterior(answers, epsilon_over_sensitivity))))


def limiting_risk(answers: Sequence[float] | np.ndarray) -> float:
    """The worst-case risk as ε grows without bound: 1 / (fewest worlds sharing one answer).

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite.

    Returns
    -------
    float
        1 over the number of worlds of the rarest answer.

    Raises
    ------
    ValueError
        If an answer is not finite.
    """
    _, counts = _distinct(finite_array("answers", answers))
    return float(1.0 / counts.min())


def risk_upper_bound(n: int, delta_v: float, sensitivity: float, epsilon: float) -> float:
    """Eq. (5): 1 / (1 + (n-1) e^{-ε Δv / Δf}).

    Parameters
    ----------
    n : int
        The number of possible worlds, at least 2.
    delta_v : float
        Δv, the largest difference between two worlds' answers, >= 0.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        The bound on the largest posterior.

    Raises
    ------
    ValueError
        If ``n`` is not an integer of at least 2, ``delta_v`` is negative, or ``sensitivity`` or
        ``epsilon`` not > 0.
    """
    n = _check_n(n)
    dv = nonnegative("delta_v", delta_v)
    return float(
        special.expit(
            np.log(1.0 / (n - 1))
            + positive("epsilon", epsilon) * dv / positive("sensitivity", sensitivity)
        )
    )


def epsilon_upper_bound(n: int, delta_v: float, sensitivity: float, rho: float) -> float:
    """Eq. (7): ε ≤ (Δf/Δv) ln((n-1) ρ / (1-ρ)); ``math.inf`` when Δv = 0 (worlds all tied).

    Parameters
    ----------
    n : int
        The number of possible worlds, at least 2.
    delta_v : float
        Δv, the largest difference between two worlds' answers, >= 0.
    sensitivity : float
        The sensitivity Δf, > 0 (unused when Δv = 0).
    rho : float
        The largest posterior allowed, in [1/n, 1).

    Returns
    -------
    float
        Eq. (7)'s ε (inf when Δv = 0 and ρ exceeds the prior).

    Raises
    ------
    ValueError
        If ``n``, ``delta_v``, ``sensitivity`` or ``rho`` is out of range.
    """
    n = _check_n(n)
    rho = check_rho(rho, n)
    dv = nonnegative("delta_v", delta_v)
    if dv == 0:
        return _epsilon_upper_bound(n, dv, math.nan, rho)
    return _epsilon_upper_bound(n, dv, positive("sensitivity", sensitivity), rho)


def _epsilon_upper_bound(n: int, delta_v: float, sensitivity: float, rho: float) -> float:
    """``epsilon_upper_bound`` of checked arguments."""
    log_odds = bounded_guarantee(n, rho)
    if delta_v == 0:
        return math.inf if log_odds > 0 else 0.0
    return sensitivity / delta_v * max(log_odds, 0.0)


def _risk_gap(gaps: np.ndarray, counts: np.ndarray, sensitivity: float, rho: float):
    """g(ε) = log Γ_worst(ε) - log ρ, negative where ε is admissible, for distinct answers given
    by their successive gaps (ascending) and how many worlds share each.

    Only the answers shared by fewer than 1/ρ worlds can push the worst case above ρ: an answer
    that c >= 1/ρ worlds share has posterior at most 1/c <= ρ at every ε. Those are left out of the
    minimum, so that their posterior, which tends to 1/c = ρ as ε grows and equals it in floating
    point long before, cannot make g vanish on a plateau far below the root.

    Each value is kept: the bracket's ends, evaluated to set it, are evaluated again by
    ``optimize.brentq``, and are then looked up.
    """
    log_rho = math.log(rho)
    # 1/c falls with c: where the most shared answer is exceedable, so is every other (no mask)
    exceedable = np.empty(0, np.bool_) if 1.0 / counts.max() > rho else 1.0 / counts > rho
    decay, total = np.empty((2, counts.size))  # work arrays, allocated once for every evaluation
    known: dict[float, float] = {}

    def g(epsilon: float) -> float:
        if epsilon not in known:
            least = _kernel_sums(gaps, counts, epsilon / sensitivity, decay, total, exceedable)
            known[epsilon] = -math.log(least) - log_rho
        return known[epsilon]

    return g


def exact_epsilon(
    answers: Sequence[float] | np.ndarray,
    sensitivity: float,
    rho: float,
    distinct: tuple[np.ndarray, np.ndarray] | None = None,
) -> float:
    """The largest ε whose worst-case risk (Eq. 3 over worlds) stays ≤ ρ, by ``optimize.brentq``.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    sensitivity : float
        The sensitivity Δf, > 0.
    rho : float
        The largest posterior allowed, in [1/n, 1).
    distinct : tuple of numpy.ndarray, optional
        The distinct answers, ascending, and how many worlds give each, where the caller has them.

    Returns
    -------
    float
        The largest admissible ε (inf where the worst case never exceeds ρ).

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    a = finite_array("answers", answers, min_size=2)
    sens = positive("sensitivity", sensitivity)
    rho = check_rho(rho, a.size)
    values, counts = _distinct(a) if distinct is None else distinct
    spread = float(values[-1] - values[0])
    return _exact_epsilon_gaps(a.size, np.diff(values), counts, spread, sens, rho)


@dataclass(frozen=True)
class BinarySearchStep:
    """One halving of the paper's search range [ε_s, ε_f] (Sec. 5.2)."""

    iteration: int
    epsilon_start: float
    epsilon_end: float
    epsilon: float
    risk: float
    admissible: bool


def binary_search_epsilon(
    answers: Sequence[float] | np.ndarray,
    sensitivity: float,
    rho: float,
    epsilon_end: float,
    tolerance: float = 1e-6,
) -> tuple[float, list[BinarySearchStep]]:
    """The paper's binary search (Sec. 5.2) on [0, ε_f]: ε_s at convergence, and every step.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    sensitivity : float
        The sensitivity Δf, > 0.
    rho : float
        The largest posterior allowed, in [1/n, 1).
    epsilon_end : float
        The upper end ε_f of the search range, > 0.
    tolerance : float
        The width at which the search stops, > 0.

    Returns
    -------
    epsilon : float
        ε_s at convergence.
    steps : list of BinarySearchStep
        Every halving.

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    a = finite_array("answers", answers, min_size=2)
    sens = positive("sensitivity", sensitivity)
    rho = check_rho(rho, a.size)
    end = positive("epsilon_end", epsilon_end)
    return _binary_search(a, sens, rho, end, positive("tolerance", tolerance))


def _binary_search(
    answers: np.ndarray, sensitivity: float, rho: float, epsilon_end: float, tolerance: float
) -> tuple[float, list[BinarySearchStep]]:
    """``binary_search_epsilon`` of checked arguments."""
    start, end, steps = 0.0, epsilon_end, list[BinarySearchStep]()
    while end - start > tolerance:
        eps = (start + end) / 2
        risk = _worst_case_risk(answers, 1.0 / laplace.scale(sensitivity, eps))
        ok = risk <= rho
        steps.append(BinarySearchStep(len(steps) + 1, start, end, eps, risk, ok))
        start, end = (eps, end) if ok else (start, eps)
    return start, steps


@dataclass(frozen=True)
class EpsilonForRisk:
    """The ε that keeps the possible-worlds adversary's posterior at or below ρ."""

    query: str
    rho: float
    n: int  # rows of the column
    sensitivity: float  # Δf, the paper's (unbounded) sensitivity
    delta_v: float  # Δv = max_ij |f(ω_i) - f(ω_j)|
    # Eq. (7): safe for every database with this n, Δf, Δv (a lower bound on `exact`)
    upper_bound: float
    exact: float  # largest ε whose worst-case posterior stays ≤ ρ (math.inf if never exceeded)
    unknown: int = 1  # k: rows the adversary misses (the worlds are the C(n, k) subsets)
    q: float | None = None  # the level of a quantile


def _exact_epsilon_gaps(
    n: int, gaps: np.ndarray, counts: np.ndarray, spread: float, sensitivity: float, rho: float
) -> float:
    """``exact_epsilon`` given the n worlds' distinct answers as their successive gaps (ascending),
    how many worlds share each answer and Δv = ``spread``: the same bracket and root search.

    ε depends on the answers only through their differences over Δf, so a caller that knows the
    gaps more precisely than the difference of two rounded answers (the mean's, from the data's
    own gaps) passes them here.
    """
    if rho >= 1.0 / counts.min():  # the limit of the worst case as ε grows
        return math.inf
    g = _risk_gap(gaps, counts, sensitivity, rho)
    if rho * n < 1 + 1e-6 and g(0.0) >= 0:  # at ε = 0 each posterior is 1/n (the sums, n, rounded)
        return 0.0
    lo = _epsilon_upper_bound(n, spread, sensitivity, rho)  # Eq. (5) bounds the risk: safe
    if g(lo) >= 0:  # Eq. (5) is tight here: the root is lo, up to rounding
        lo, hi = 0.0, lo
    else:  # log Γ rises at most Δv/Δf an ε, near ρ about (1 - ρ) Δv/Δf: past the root, doubled
        step = max(-2 * g(lo) / (1 - rho), 1e-6) * sensitivity / spread  # while it falls short
        hi = lo + step
        while g(hi) <= 0:
            lo, step = hi, 2 * step
            hi = lo + step
    if g(hi) == 0:
        return float(hi)
    return float(optimize.brentq(g, lo, hi, xtol=1e-300, rtol=1e-13, maxiter=500))


def epsilon_for_risk(
    values: Sequence[float] | np.ndarray,
    rho: float,
    query: str = "mean",
    counts: Sequence[int] | np.ndarray | None = None,
    unknown: int = 1,
    q: float | None = None,
) -> EpsilonForRisk:
    """Eq. (7) and the exact ε keeping every world's posterior ≤ ρ, for a query of ``values``.

    ``query``: "mean", "sum" (a count of rows meeting a condition is the sum of its 0/1 column),
    "variance" or "std" (population divisor), "median" (Eq. 13) or "quantile" at level ``q`` in
    (0, 1) (NumPy's linear interpolation); see ``queries``. ``unknown`` = k: the adversary misses k
    rows, so the worlds are the C(n, k) subsets of n - k rows, a priori equally likely, and Δf is
    the largest change of the query when one row of a world is removed. With ``counts``,
    ``values`` are the column's distinct values and ``counts`` how many rows hold each
    (``tables.column_counts``): the same result as on the expanded column, at any number of rows.
    Where every world gives the same answer, any ε keeps the risk at the prior: ∞.

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column, one value per row; with ``counts``, its distinct values.
    rho : float
        The largest posterior allowed, at least the prior 1/C(n, k), below 1.
    query : str
        One of ``queries.QUERIES``.
    counts : sequence of int or numpy.ndarray, optional
        How many rows hold each of ``values``.
    unknown : int
        The rows k the adversary misses, in [1, n - 2].
    q : float, optional
        The level of a quantile, in (0, 1), with ``query="quantile"`` only.

    Returns
    -------
    EpsilonForRisk
        Eq. (7)'s ε and the exact ε, with the sensitivity and Δv they come from.

    Raises
    ------
    ValueError
        If an argument is out of range (``queries.world_classes``, ``check_rho``).
    """
    classes = queries.world_classes(values, query, counts, unknown, q)
    rho = check_rho(rho, classes.worlds)
    sens, dv = classes.sensitivity, classes.spread
    if sens == 0:  # every world gives the same answer, and so does every world less a row
        return EpsilonForRisk(
            classes.query, rho, classes.n, 0.0, 0.0, math.inf, math.inf, classes.unknown, classes.q
        )
    return EpsilonForRisk(
        query=classes.query,
        rho=rho,
        n=classes.n,
        sensitivity=sens * classes.unit,
        delta_v=dv * classes.unit,
        upper_bound=_epsilon_upper_bound(classes.worlds, dv, sens, rho),
        exact=_exact_epsilon_gaps(classes.worlds, classes.gaps, classes.shared, dv, sens, rho),
        unknown=classes.unknown,
        q=classes.q,
    )


def guess_success_probability(
    answers: Sequence[float] | np.ndarray, true_index: int, sensitivity: float, epsilon: float
) -> float:
    """Exact Pr(the maximum-posterior guess is the true world), ties broken uniformly at random.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    true_index : int
        The true world, in [0, n - 1].
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        The probability that the maximum-posterior guess names the true world.

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    a = finite_array("answers", answers, min_size=2)
    if not 0 <= true_index < a.size:
        raise ValueError(f"true_index must lie in [0, {a.size - 1}], got {true_index!r}")
    centre = a[true_index]
    lower, upper = likeliest_range(a, true_index)
    low, high = np.asarray(
        stats.laplace.cdf([lower, upper], loc=centre, scale=laplace.scale(sensitivity, epsilon))
    )
    return float((high - low) / np.sum(a == centre))


def simulate_adversary(
    answers: Sequence[float] | np.ndarray,
    true_index: int,
    sensitivity: float,
    epsilon: float,
    n_trials: int,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Monte Carlo of the adversary: ``n_trials`` responses from the true world, posterior and best
    guess of each.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    true_index : int
        The true world, in [0, n - 1].
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.
    n_trials : int
        How many responses, at least 1.
    rng : numpy.random.Generator
        The seeded generator the responses are drawn from.

    Returns
    -------
    dict of str to float
        The share of correct guesses and its standard error, the mean posterior of the true world,
        the mean and the largest of the largest posterior.

    Raises
    ------
    ValueError
        If an argument is out of range, or ``rng`` is not a generator.
    """
    a = finite_array("answers", answers, min_size=2)
    if not 0 <= true_index < a.size:
        raise ValueError(f"true_index must lie in [0, {a.size - 1}], got {true_index!r}")
    if isinstance(n_trials, bool) or not isinstance(n_trials, (int, np.integer)) or n_trials < 1:
        raise ValueError(f"n_trials must be an integer >= 1, got {n_trials!r}")
    gamma = np.asarray(
        laplace.release(a[true_index], sensitivity, epsilon, rng, size=int(n_trials))
    )
    success, true_posterior, best = (np.empty(gamma.size) for _ in range(3))
    # responses per block: memory stays bounded however many worlds
    step = max(1, CHUNK_ELEMENTS // a.size)
    for start in range(0, gamma.size, step):
        block = slice(start, start + step)
        beta = posterior(a, gamma[block], sensitivity, epsilon)
        top = beta.max(axis=1, keepdims=True)
        is_best = beta == top
        success[block] = is_best[:, true_index] / is_best.sum(axis=1)
        true_posterior[block], best[block] = beta[:, true_index], top[:, 0]
    return {
        "guess_correct": float(success.mean()),
        "guess_correct_se": float(success.std(ddof=1) / math.sqrt(n_trials))
        if n_trials > 1
        else math.nan,
        "mean_true_posterior": float(true_posterior.mean()),
        "mean_max_posterior": float(best.mean()),
        "max_posterior_seen": float(best.max()),
    }


def likeliest_includes(
    answers: Sequence[float] | np.ndarray, index: int, responses: np.ndarray
) -> np.ndarray:
    """For each response, whether world ``index`` is among the likeliest: no other world's answer
    is strictly closer.

    Every world's likelihood falls with the distance of its answer from the response, so this is the
    maximum-posterior test without evaluating n posteriors per response.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    index : int
        The world asked about.
    responses : numpy.ndarray
        The responses, finite.

    Returns
    -------
    numpy.ndarray
        One boolean per response.

    Raises
    ------
    ValueError
        If an answer or a response is not finite, or there are fewer than two answers.
    """
    a = finite_array("answers", answers, min_size=2)
    g = finite_array("responses", responses)
    others = np.sort(np.delete(a, index))
    right = np.clip(np.searchsorted(others, g), 0, others.size - 1)
    left = np.clip(right - 1, 0, others.size - 1)
    nearest_other = np.minimum(np.abs(g - others[left]), np.abs(g - others[right]))
    return np.abs(g - a[index]) <= nearest_other


def likeliest_range(answers: Sequence[float] | np.ndarray, index: int) -> tuple[float, float]:
    """The responses where world ``index`` is among the likeliest (Fig. 3(a)): halfway to the next
    distinct answer on either side, ±inf where there is none.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    index : int
        The world asked about.

    Returns
    -------
    lower, upper : float
        The ends of the range.

    Raises
    ------
    ValueError
        If an answer is not finite, or there are fewer than two.
    """
    a = finite_array("answers", answers, min_size=2)
    centre = a[index]
    below, above = a[a < centre], a[a > centre]
    lower = (centre + below.max()) / 2 if below.size else -math.inf
    upper = (centre + above.min()) / 2 if above.size else math.inf
    return float(lower), float(upper)


def likeliest_range_on_grid(
    answers: Sequence[float] | np.ndarray, index: int, points: int = 200_001
) -> tuple[float, float]:
    """``likeliest_range`` found on a grid one unit beyond the answers (Fig. 3(a)): the first grid
    point inside and the first beyond, ±inf at the grid's ends.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    index : int
        The world asked about.
    points : int
        The points of the grid.

    Returns
    -------
    lower, upper : float
        The ends of the range found on the grid.

    Raises
    ------
    ValueError
        If an answer is not finite, or there are fewer than two.
    """
    a = finite_array("answers", answers, min_size=2)
    grid = np.linspace(a.min() - 1, a.max() + 1, points)
    # grid points where no other world is likelier
    inside = np.flatnonzero(likeliest_includes(a, index, grid))
    low = grid[inside[0]] if inside[0] > 0 else -math.inf
    high = grid[inside[-1] + 1] if inside[-1] + 1 < grid.size else math.inf
    return float(low), float(high)


def _check_n(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n (number of possible worlds) must be an integer >= 2, got {n!r}")
    return int(n)


def check_rho(rho: float, n: int) -> float:
    """Return ``rho`` if it lies in [1/n, 1) for n possible worlds, else raise ValueError naming
    the range.

    ρ must be at least the prior 1/n, which every posterior already reaches at ε = 0.

    Parameters
    ----------
    rho : float
        The largest posterior allowed.
    n : int
        The number of possible worlds.

    Returns
    -------
    float
        ``rho`` as a float.

    Raises
    ------
    ValueError
        If ``rho`` lies outside [1/n, 1).
    """
    r = open_unit("rho", rho)
    if r < 1.0 / n * (1 - 1e-12):
        raise ValueError(
            f"rho must lie in [1/n, 1) = [{1.0 / n:.6g}, 1) for n = {n} possible worlds: the "
            f"uniform prior 1/n is already above rho = {rho!r}, so no ε >= 0 keeps the posterior "
            "at or below it"
        )
    return r


def load_database(path: str | Path, attributes: Sequence[str], absent: str) -> pd.DataFrame:
    """The adversary's database X: a CSV, a ``name`` column, numeric ``attributes`` (Table 1).

    Parameters
    ----------
    path : str or pathlib.Path
        The CSV file.
    attributes : sequence of str
        The numeric columns to read.
    absent : str
        The name of the row missing from the released database.

    Returns
    -------
    pandas.DataFrame
        The ``name`` column (text) and the attributes, in the file's order.

    Raises
    ------
    ValueError
        If the file is missing or unreadable, has no unique and complete ``name`` column or fewer
        than 3 rows, an attribute is missing, not numeric or constant, or ``absent`` names no row.
    """
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"data_path: no such file {str(path)!r}")
    try:
        # names such as 1, 2, 3 stay text, as ``absent`` is compared
        table = pd.read_csv(file, dtype={"name": str})
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise ValueError(f"data_path: {str(path)!r} is not a readable CSV file ({error})") from None
    if "name" not in table.columns:
        raise ValueError(
            f"data_path: {str(path)!r} needs a 'name' column; its columns are {list(table.columns)}"
        )
    if table.name.isna().any() or table.name.duplicated().any():
        raise ValueError(
            f"data_path: the 'name' column must be unique and complete, got {table.name.tolist()}"
        )
    if len(table) < 3:
        raise ValueError(
            "data_path: the database needs at least 3 rows (each possible world keeps n-1 rows "
            f"and the sensitivity removes one more), got {len(table)}"
        )
    if isinstance(attributes, str) or not len(attributes):
        raise ValueError(f"attributes must be a non-empty list of column names, got {attributes!r}")
    for column in attributes:
        if column not in table.columns or column == "name":
            numeric = [c for c in table.columns if c != "name"]
            raise ValueError(
                f"attributes: no column {column!r} in {str(path)!r}; its attribute columns are "
                f"{numeric}"
            )
        if not pd.api.types.is_numeric_dtype(table[column]) or table[column].isna().any():
            raise ValueError(
                f"attributes: column {column!r} must hold a number in every row, got "
                f"{table[column].tolist()}"
            )
        if not np.all(np.isfinite(table[column].to_numpy(dtype=float))):
            raise ValueError(f"attributes: column {column!r} must hold finite numbers")
        check_values(table[column].to_numpy(), f"attributes: column {column!r}")
        if table[column].nunique() == 1:
            raise ValueError(
                f"attributes: column {column!r} holds the same value "
                f"({float(table[column].iloc[0]):g}) in every row: every possible world gives the "
                "same answer and there is nothing to choose ε for; drop it from attributes"
            )
    names = table.name.astype(str)
    absent = str(absent)
    if absent not in set(names):
        raise ValueError(
            f"absent must be one of the names in {str(path)!r}: {names.tolist()}, got {absent!r}"
        )
    return table.assign(name=names)[["name", *attributes]].reset_index(drop=True)


def world_order(names: Sequence[str], absent: str) -> list[int]:
    """Row indices in the paper's world order: the true world (``absent`` missing) first, then
    from the bottom up.

    Parameters
    ----------
    names : sequence of str
        The rows' names.
    absent : str
        The name of the row missing from the released database.

    Returns
    -------
    list of int
        The row indices, the true world first.

    Raises
    ------
    ValueError
        If ``absent`` is none of ``names``.
    """
    names = [str(name) for name in names]
    absent = str(absent)
    if absent not in names:
        raise ValueError(f"absent must be one of {names}, got {absent!r}")
    first = names.index(absent)
    return [first] + [i for i in reversed(range(len(names))) if i != first]


def corrected_binary_search(
    answers: Sequence[float] | np.ndarray,
    sensitivity: float,
    rho: float,
    epsilon_end: float,
    tolerance: float = 1e-9,
) -> tuple[float, float, list[BinarySearchStep]]:
    """Sec. 5.2's binary search on a range that holds the root: ``epsilon_end`` (at least 1e-3)
    doubled until the worst-case risk exceeds ρ; returns that end, the result and the steps.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    sensitivity : float
        The sensitivity Δf, > 0.
    rho : float
        The largest posterior allowed, in [1/n, 1).
    epsilon_end : float
        The paper's upper end ε_f, finite (at least 1e-3 is used).
    tolerance : float
        The width at which the search stops, > 0.

    Returns
    -------
    end : float
        The upper end of the range that holds the root.
    epsilon : float
        The search's result.
    steps : list of BinarySearchStep
        Every halving.

    Raises
    ------
    ValueError
        If an argument is out of range, or the worst-case risk never exceeds ρ.
    """
    a = finite_array("answers", answers, min_size=2)
    sens = positive("sensitivity", sensitivity)
    rho = check_rho(rho, a.size)
    tol = positive("tolerance", tolerance)
    if rho >= limiting_risk(a):
        raise ValueError(f"the worst-case risk never exceeds rho = {rho!r}: no range holds a root")
    end = max(real("epsilon_end", epsilon_end), 1e-3)
    while _worst_case_risk(a, 1.0 / laplace.scale(sens, end)) <= rho:
        end *= 2
    result, steps = _binary_search(a, sens, rho, end, tol)
    return end, result, steps


def risk_at(answers: Sequence[float] | np.ndarray, sensitivity: float, epsilon: float) -> float:
    """The worst-case risk (Eq. 3 over worlds) at any ε in [0, ∞]: the prior 1/n at 0, the limit
    (``limiting_risk``) at ∞.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, in [0, inf].

    Returns
    -------
    float
        The largest posterior over the worlds.

    Raises
    ------
    ValueError
        If an answer is not finite, there are fewer than two, ``sensitivity`` is not > 0 or
        ``epsilon`` is negative.
    """
    a = finite_array("answers", answers, min_size=2)
    if epsilon == 0:
        return 1 / a.size
    if math.isinf(epsilon):
        return limiting_risk(a)
    return _worst_case_risk(a, 1.0 / laplace.scale(sensitivity, epsilon))


def risk_curves(
    answers: Sequence[float] | np.ndarray,
    sensitivity: float,
    delta_v: float,
    epsilons: Sequence[float] | np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Fig. 2's curves: β of world 0 at γ = f(ω_0) (Eq. 3) and the bound of Eq. (5), both the prior
    1/n at ε = 0.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The answer f(ω) of each possible world, finite, at least two.
    sensitivity : float
        The sensitivity Δf, > 0.
    delta_v : float
        Δv, the largest difference between two worlds' answers, >= 0.
    epsilons : sequence of float or numpy.ndarray
        The ε of the curves, >= 0.

    Returns
    -------
    beta : numpy.ndarray
        World 0's posterior at its own answer, at each ε.
    upper : numpy.ndarray
        Eq. (5)'s bound at each ε.

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    a = finite_array("answers", answers, min_size=2)
    n = a.size
    beta = [1 / n if e == 0 else risk_per_world(a, sensitivity, e)[0] for e in epsilons]
    upper = [risk_upper_bound(n, delta_v, sensitivity, e) if e > 0 else 1 / n for e in epsilons]
    return np.array(beta), np.array(upper)


def bounded_guarantee(n: int, rho: float) -> float:
    """ln((n - 1)ρ/(1 - ρ)): the ε that keeps every posterior ≤ ρ for any data of n rows under
    bounded neighbours.

    Parameters
    ----------
    n : int
        The number of rows (possible worlds), at least 2.
    rho : float
        The largest posterior allowed, in [1/n, 1).

    Returns
    -------
    float
        The ε (0 at ρ = 1/n).

    Raises
    ------
    ValueError
        If ``n`` is not an integer of at least 2 or ``rho`` lies outside [1/n, 1).
    """
    n = _check_n(n)
    rho = check_rho(rho, n)
    return math.log((n - 1) * rho / (1 - rho))


MONTE_CARLO_CLASSES = 64  # the Monte Carlo below draws from every class in turn: at most this many


def simulated_worst_posterior(
    values: Sequence[float] | np.ndarray,
    query: str,
    epsilon: float,
    draws: int,
    rng: np.random.Generator,
    unknown: int = 1,
    q: float | None = None,
) -> float:
    """The largest posterior of the true world (Definition 3) over ``draws`` responses drawn from
    each class of worlds in turn as the truth, at ``epsilon``: a Monte Carlo of Eq. (3); nan for a
    column of more than ``MONTE_CARLO_CLASSES`` classes, or where no ε was computed (nan).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The column, one value per row.
    query : str
        One of ``queries.QUERIES``.
    epsilon : float
        The ε of the release, >= 0 (nan: none computed).
    draws : int
        Responses drawn per class of worlds.
    rng : numpy.random.Generator
        The seeded generator the responses are drawn from.
    unknown : int
        The rows k the adversary misses, in [1, n - 2].
    q : float, optional
        The level of a quantile, in (0, 1), with ``query="quantile"`` only.

    Returns
    -------
    float
        The largest posterior of the true world seen (nan where it is not simulated).

    Raises
    ------
    ValueError
        If the column, the query or ``unknown`` is out of range.
    """
    if math.isnan(epsilon):
        return math.nan
    classes = queries.world_classes(values, query, unknown=unknown, q=q)
    if classes.answer.size > MONTE_CARLO_CLASSES:
        return math.nan
    if classes.sensitivity == 0 or epsilon == 0:  # no response tells any world from another
        return 1 / classes.worlds
    if math.isinf(epsilon):
        return math.nan
    answers = classes.answer / classes.unit
    scale = laplace.scale(classes.sensitivity, epsilon)
    log_weight = np.log(classes.weight)
    largest = 0.0
    for true in range(answers.size):
        gamma = answers[true] + rng.laplace(0.0, scale, size=int(draws))
        log_like = -np.abs(gamma[:, None] - answers[None, :]) / scale
        log_posterior = log_like[:, true] - special.logsumexp(log_like + log_weight, axis=1)
        largest = max(largest, float(np.exp(log_posterior).max()))
    return largest
