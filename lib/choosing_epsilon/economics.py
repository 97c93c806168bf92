"""Hsu et al. (2014): choosing ε by paying participants for their extra expected cost.

An individual expects cost P = (cost of a bad event) × (its probability) whether or not they take
part; ε-differential privacy raises it by at most a factor e^ε, so a participant is paid
(e^ε - 1)P. An analyst with budget B pays N participants and needs an accuracy bound A(ε, N) at
most a level the talk slides call T (0.1 in their example: a failure probability); the code calls
that level ``failure_probability`` and the allowed error ``error`` (0.05 on the slides, which give
it no letter; the full paper writes T for it).

For estimating a fraction within an additive error d, A(ε, N) = 2 exp(-N d²/12) + exp(-N ε d/2):
a Chernoff bound for sampling plus the Laplace tail of noise of scale 1/(εN) at d/2. The slides
print only its constants at d = 0.05, rounded to 0.0002 and 0.025; the general form is the one the
public notebook github.com/nigoshh/privacy-accuracy (privacy-accuracy.ipynb, by nigoshh, 2021)
states as the paper's, writing T for the error. The paper is Hsu, Gaboardi, Haeberlen, Khanna,
Narayan, Pierce and Roth, "Differential Privacy: An Economic Method for Choosing Epsilon", IEEE CSF
2014, arXiv:1402.3329.

The docstrings below write α for the accuracy level T and T for the error d, as the full paper does.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from ._validate import closed_unit, open_unit, positive, real, unit_rates


def expected_cost(bad_event_cost: float, bad_event_probability: float) -> float:
    """P: the expected cost of the bad event without participating (slides: 5% × $1274 = $63.70).

    Parameters
    ----------
    bad_event_cost : float
        The cost of the bad event, > 0.
    bad_event_probability : float
        Its probability, in (0, 1).

    Returns
    -------
    float
        The expected cost P.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return positive("bad_event_cost", bad_event_cost) * open_unit(
        "bad_event_probability", bad_event_probability
    )


def payment(epsilon: float, expected_cost: float) -> float:
    """(e^ε - 1)P: the increase in expected cost that an ε-private study must compensate (∞
    where e^ε exceeds a double's range).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    expected_cost : float
        The expected cost P of the bad event, > 0.

    Returns
    -------
    float
        The payment (∞ where e^ε exceeds a double's range).

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    eps, cost = positive("epsilon", epsilon), positive("expected_cost", expected_cost)
    try:
        return math.expm1(eps) * cost
    except OverflowError:
        return math.inf


def participates(offer: float, epsilon: float, expected_cost: float) -> bool:
    """The participation rule: take part when the offer covers the increase in expected cost.

    Parameters
    ----------
    offer : float
        The payment offered, finite.
    epsilon : float
        The privacy parameter ε, > 0.
    expected_cost : float
        The expected cost P of the bad event, > 0.

    Returns
    -------
    bool
        Whether the offer covers the payment.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return real("offer", offer) >= payment(epsilon, expected_cost)


def total_cost(epsilon: float, n: float, expected_cost: float) -> float:
    """N (e^ε - 1)P: what the analyst pays N participants.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : float
        The number of participants N, >= 1.
    expected_cost : float
        The expected cost P of the bad event, > 0.

    Returns
    -------
    float
        The total cost.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return _count("n", n) * payment(epsilon, expected_cost)


def within_budget(epsilon: float, n: float, expected_cost: float, budget: float) -> bool:
    """The budget constraint (e^ε - 1) P N ≤ B.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : float
        The number of participants N, >= 1.
    expected_cost : float
        The expected cost P of the bad event, > 0.
    budget : float
        The budget B, > 0.

    Returns
    -------
    bool
        Whether the total cost is at most the budget.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return total_cost(epsilon, n, expected_cost) <= positive("budget", budget)


def bound_constants(error: float, slide_constants: bool) -> tuple[float, float]:
    """(c_sampling, c_noise) in A = 2 e^{-c_s N} + e^{-c_n N ε}: (T²/12, T/2), or with T²/12
    rounded as the slides do.

    Parameters
    ----------
    error : float
        The allowed error T on the unit scale, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    c_sampling : float
        The sampling term's constant, T²/12.
    c_noise : float
        The noise term's constant, T/2.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    t = open_unit("error", error)
    sampling, noise = t * t / 12, t / 2
    if slide_constants:  # the slides print 0.0002 for T²/12 = 0.000208 (one significant figure)
        sampling = float(f"{sampling:.0e}")
    return sampling, noise


def accuracy_bound(epsilon: float, n: float, error: float, slide_constants: bool = False) -> float:
    """A(ε, N) = 2 exp(-c_s N) + exp(-c_n N ε): a bound on Pr(``|estimate - fraction|`` > error)
    (the full paper's form, as quoted in the module docstring).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : float
        The number of participants N, >= 1.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    float
        A(ε, N).

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    c_s, c_n = bound_constants(error, slide_constants)
    n = _count("n", n)
    return 2 * math.exp(-c_s * n) + math.exp(-c_n * n * positive("epsilon", epsilon))


def budget_epsilon(n: float, expected_cost: float, budget: float) -> float:
    """The largest ε the budget pays for N participants: ln(1 + B / (P N)).

    Parameters
    ----------
    n : float
        The number of participants N, >= 1.
    expected_cost : float
        The expected cost P of the bad event, > 0.
    budget : float
        The budget B, > 0.

    Returns
    -------
    float
        The largest ε the budget pays for.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return math.log1p(
        positive("budget", budget) / (positive("expected_cost", expected_cost) * _count("n", n))
    )


def accuracy_epsilon(
    n: float, error: float, failure_probability: float, slide_constants: bool = False
) -> float:
    """The smallest ε meeting A(ε, N) ≤ α for N participants (inf when sampling alone exceeds α).

    Parameters
    ----------
    n : float
        The number of participants N, >= 1.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    float
        The smallest accurate ε (inf where none is).

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    c_s, c_n = bound_constants(error, slide_constants)
    alpha = open_unit("failure_probability", failure_probability)
    n = _count("n", n)
    room = alpha - 2 * math.exp(-c_s * n)
    return math.log(1 / room) / (c_n * n) if room > 0 else math.inf


def accuracy_n(
    epsilon: float, error: float, failure_probability: float, slide_constants: bool = False
) -> int:
    """The smallest integer N meeting A(ε, N) ≤ α (A falls as N grows), by brentq then an
    integer check.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    int
        The smallest accurate N.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    alpha = open_unit("failure_probability", failure_probability)
    positive("epsilon", epsilon)

    def gap(n: float) -> float:
        return accuracy_bound(epsilon, n, error, slide_constants) - alpha

    hi = 1.0
    while gap(hi) > 0:
        hi *= 2
    n = math.ceil(optimize.brentq(gap, hi / 2 if hi > 1 else 1e-9, hi, xtol=1e-9)) if hi > 1 else 1
    while n > 1 and gap(n - 1) <= 0:
        n -= 1
    while gap(n) > 0:
        n += 1
    return n


def feasible(
    epsilon: float,
    n: float,
    expected_cost: float,
    budget: float,
    error: float,
    failure_probability: float,
    slide_constants: bool = False,
) -> bool:
    """Both constraints at (ε, N): accuracy A(ε, N) ≤ α and budget (e^ε - 1) P N ≤ B.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : float
        The number of participants N, >= 1.
    expected_cost : float
        The expected cost P of the bad event, > 0.
    budget : float
        The budget B, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    bool
        Whether (ε, N) meets both constraints.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    accurate = accuracy_bound(epsilon, n, error, slide_constants) <= open_unit(
        "failure_probability", failure_probability
    )
    return accurate and within_budget(epsilon, n, expected_cost, budget)


@dataclass(frozen=True)
class StudyDesign:
    """A study: its size, its ε, what it pays, and its accuracy bound."""

    n: int
    epsilon: float
    payment: float
    total_cost: float
    accuracy_bound: float


def largest_feasible_epsilon(
    expected_cost: float,
    budget: float,
    error: float,
    failure_probability: float,
    slide_constants: bool = False,
) -> StudyDesign | None:
    """The largest ε for which some integer N ≥ 1 meets both constraints, and that N; None if
    none does.

    For a fixed N the admissible ε form the interval [accuracy_epsilon(N), budget_epsilon(N)].
    Times N, its budget end N ln(1 + B/(PN)) rises with N towards B/P and its accuracy end
    ln(1/(α - 2e^{-c_s N}))/c_n falls towards ln(1/α)/c_n, so once an N is feasible every larger
    one is: a study exists if and only if B exceeds the cost floor P ln(1/α)/c_n, and bisection
    finds the smallest feasible N, whose budget end (the largest over all feasible N, since it
    falls with N) is the answer.

    Parameters
    ----------
    expected_cost : float
        The expected cost P of the bad event, > 0.
    budget : float
        The budget B, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    StudyDesign or None
        The design of largest ε, or None where no N meets both constraints.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    c_s, _ = bound_constants(error, slide_constants)
    alpha = open_unit("failure_probability", failure_probability)
    p, b = positive("expected_cost", expected_cost), positive("budget", budget)
    if b <= cost_floor(p, error, alpha, slide_constants):
        return None

    def ok(n: int) -> bool:
        return accuracy_epsilon(n, error, alpha, slide_constants) <= budget_epsilon(n, p, b)

    # below this size 2e^{-c_s N} >= α: never feasible
    lo = max(1, math.floor(math.log(2 / alpha) / c_s))
    if ok(lo):
        best = lo
    else:
        hi = 2 * lo
        while not ok(hi):
            lo, hi = hi, 2 * hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        best = hi
    eps = budget_epsilon(best, p, b)
    # the budget binds with equality: keep rounding on its safe side
    while not within_budget(eps, best, p, b):
        eps = float(np.nextafter(eps, 0))
    return _design(best, eps, p, error, slide_constants)


def cheapest_study(
    expected_cost: float,
    error: float,
    failure_probability: float,
    slide_constants: bool = False,
    max_n: int = 10**7,
) -> StudyDesign | None:
    """The accurate study of least total cost with N ≤ max_n, each N at its smallest accurate ε;
    None if no N ≤ max_n is accurate.

    The cost N (e^{ε(N)} - 1) P falls as N grows towards P ln(1/α) / c_noise (``cost_floor``), so
    without a cap on N the cheapest study is infinitely large: the cap is part of the question.
    Below ``sampling_n`` participants the sampling term alone exceeds α and no ε helps.

    Parameters
    ----------
    expected_cost : float
        The expected cost P of the bad event, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.
    max_n : int
        The largest study size considered, >= 1.

    Returns
    -------
    StudyDesign or None
        The cheapest accurate design, or None where no N ≤ ``max_n`` is accurate.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    c_s, c_n = bound_constants(error, slide_constants)
    alpha = open_unit("failure_probability", failure_probability)
    p = positive("expected_cost", expected_cost)
    cap = _count("max_n", max_n)
    if sampling_n(error, alpha, slide_constants) > cap:
        return None
    n = np.arange(max(1, math.floor(math.log(2 / alpha) / c_s)), cap + 1, dtype=float)
    room = alpha - 2 * np.exp(-c_s * n)
    n, room = n[room > 0], room[room > 0]
    cost = n * np.expm1(np.log(1 / room) / (c_n * n)) * p
    i = int(np.argmin(cost))
    return _design(int(n[i]), float(np.log(1 / room[i]) / (c_n * n[i])), p, error, slide_constants)


def sampling_n(error: float, failure_probability: float, slide_constants: bool = False) -> float:
    """ln(2/α)/c_s: the study size below which the sampling term 2 exp(-c_s N) alone exceeds α
    (any ε is too small).

    Parameters
    ----------
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    float
        The study size ln(2/α)/c_s.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    c_s, _ = bound_constants(error, slide_constants)
    return math.log(2 / open_unit("failure_probability", failure_probability)) / c_s


def sampling_error(n: float, failure_probability: float) -> float:
    """The error on the unit scale below which N participants miss α whatever ε: where the
    sampling term alone reaches α (``sampling_n``'s inverse in the error; 1 where no error below
    the whole range is met).

    Parameters
    ----------
    n : float
        The number of participants N, >= 1.
    failure_probability : float
        The accuracy level α, in (0, 1).

    Returns
    -------
    float
        The error, in (0, 1].

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    n = _count("n", n)
    alpha = open_unit("failure_probability", failure_probability)
    top = 1 - 1e-12
    if sampling_n(top, alpha) >= n:
        return 1.0
    return float(optimize.brentq(lambda t: sampling_n(t, alpha) - n, 1e-12, top, xtol=1e-15))


def cost_floor(
    expected_cost: float, error: float, failure_probability: float, slide_constants: bool = False
) -> float:
    """The limit of the cheapest accurate study's cost as N → ∞: P ln(1/α) / c_noise.

    Parameters
    ----------
    expected_cost : float
        The expected cost P of the bad event, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    slide_constants : bool
        Round T²/12 to one significant figure, as the slides print it.

    Returns
    -------
    float
        The cost floor P ln(1/α)/c_noise.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    _, c_n = bound_constants(error, slide_constants)
    return (
        positive("expected_cost", expected_cost)
        * math.log(1 / open_unit("failure_probability", failure_probability))
        / c_n
    )


def true_failure_probability(
    epsilon: float, n: int, error: float, fraction: float = 0.5, negligible: float = 1e-300
) -> float:
    """Exact Pr(``|X/N + Lap(1/(εN)) - p|`` > T) for X ~ Binomial(N, p): what A(ε, N) bounds.

    Counts whose binomial tail holds less than ``negligible`` in all are left out of the sum, so the
    value may fall short of the exact one by at most that much.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : int
        The number of participants N, >= 1.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    fraction : float
        The true fraction p, in [0, 1].
    negligible : float
        The binomial mass that may be left out, in (0, 1).

    Returns
    -------
    float
        The failure probability, in [0, 1].

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    n = int(_count("n", n))
    t, p = open_unit("error", error), closed_unit("fraction", fraction)
    weights, offset = _binomial(n, p, open_unit("negligible", negligible))
    # the noise scale, passed to scipy's laplace functions directly
    lam = 1 / (positive("epsilon", epsilon) * n)
    # Pr(noise > T - offset) + Pr(noise < -T - offset), the second as sf(T + offset) by symmetry,
    # in one call
    tails = stats.laplace.sf(np.concatenate([t - offset, t + offset]), scale=lam)
    miss = tails[: offset.size] + tails[offset.size :]
    return float(np.clip(np.sum(weights * miss), 0.0, 1.0))


def failure_probability_every_count(
    epsilon: float, n: int, error: float, fractions: float | Sequence[float] | np.ndarray
) -> np.ndarray:
    """Pr(``|X/N + Lap(1/(εN)) - p|`` > T) at each p of ``fractions``, summed over every count
    0..N: a plain reference for ``true_failure_probability`` (no counts left out, no cache).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : int
        The number of participants N, >= 1.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    fractions : float or array_like
        The true fractions p, in [0, 1].

    Returns
    -------
    numpy.ndarray
        The failure probability at each fraction.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    n = int(_count("n", n))
    t, lam = open_unit("error", error), 1 / (positive("epsilon", epsilon) * n)
    p = np.atleast_1d(unit_rates("fractions", fractions))
    k = np.arange(n + 1)[:, None]
    miss = stats.laplace.sf(t - (k / n - p), scale=lam) + stats.laplace.cdf(
        -t - (k / n - p), scale=lam
    )
    return np.asarray(np.sum(stats.binom.pmf(k, n, p) * miss, axis=0))


@functools.lru_cache(maxsize=128)
def _binomial(n: int, p: float, negligible: float) -> tuple[np.ndarray, np.ndarray]:
    """Binomial(n, p) probabilities of the counts k that carry mass and the estimate's offsets
    k/n - p, kept for reuse.

    The searches over N evaluate the same sizes for many ε, and the binomial probabilities, which
    do not depend on ε, are most of an evaluation's cost.
    """
    # Hoeffding: Pr(|X - np| >= t) <= 2 exp(-2t²/n) <= negligible, so counts beyond t are left out;
    # at the default 1e-300 they carry no mass a double can hold, and a study of 10^8 people needs
    # a few hundred thousand terms.
    half_width = math.sqrt(n * math.log(2 / negligible) / 2)
    k = np.arange(max(0, math.floor(n * p - half_width)), min(n, math.ceil(n * p + half_width)) + 1)
    weights, offset = stats.binom.pmf(k, n, p), k / n - p
    weights.flags.writeable = offset.flags.writeable = False  # shared between calls
    return weights, offset


def worst_case_fraction(
    epsilon: float, n: int, error: float, points: int = 101
) -> tuple[float, float]:
    """The true fraction p in [0, 1/2] at which the exact failure probability is largest, and that
    largest value.

    Pr(``|X/N + Lap(1/(εN)) - p|`` > error) is the same at p and 1 - p (reflect X to N - X and the
    noise to its negative), so [0, 1/2] suffices. A grid of ``points`` fractions (at least 4N + 1
    when the noise scale 1/(εN) is under four lattice steps 1/N, where the binomial's lattice
    makes the curve jagged; at most 20 ``points``) finds the best cell, and a bounded scalar search
    refines the three best cells. Where even the bound A(ε, N) (exact constants), which holds at
    every p, is below a double's range, every p fails with probability under 1e-300: the answer is
    then p = 1/2 and its (underflowed) value, without a scan.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : int
        The number of participants N, >= 1.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    points : int
        The points of the grid, at least 3.

    Returns
    -------
    fraction : float
        The worst true fraction p, in [0, 1/2].
    failure_probability : float
        The exact failure probability there.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    eps, t = positive("epsilon", epsilon), open_unit("error", error)
    n = int(_count("n", n))
    if int(points) < 3:
        raise ValueError(f"points must be >= 3, got {points!r}")
    if accuracy_bound(eps, n, t) == 0.0:
        return 0.5, true_failure_probability(eps, n, t, 0.5)
    m = min(max(int(points), 4 * n + 1 if eps > 0.25 else 0), 20 * int(points))
    grid = np.linspace(0.0, 0.5, m)
    values = np.array([true_failure_probability(eps, n, t, float(p)) for p in grid])
    best_p, best_v = float(grid[int(np.argmax(values))]), float(values.max())
    for i in np.argsort(values)[::-1][:3]:
        lo, hi = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, m - 1)])
        found = optimize.minimize_scalar(
            lambda p: -true_failure_probability(eps, n, t, p),
            bounds=(lo, hi),
            method="bounded",
            options={"xatol": 1e-3 / n},
        )
        if -found.fun > best_v:
            best_p, best_v = float(found.x), float(-found.fun)
    return best_p, best_v


def simulate_failure(
    epsilon: float, n: int, error: float, fraction: float, n_trials: int, rng: np.random.Generator
) -> tuple[float, float]:
    """Monte Carlo of the private estimator: the failure rate over ``n_trials`` studies and its
    standard error.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    n : int
        The number of participants N, >= 1.
    error : float
        The allowed error T on the unit scale.
    fraction : float
        The true fraction p, in [0, 1].
    n_trials : int
        How many studies (the standard error needs at least 2).
    rng : numpy.random.Generator
        The seeded generator.

    Returns
    -------
    rate : float
        The share of studies whose estimate misses by more than T.
    standard_error : float
        Its standard error.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    n = int(_count("n", n))
    counts = rng.binomial(n, fraction, size=n_trials)
    estimate = counts / n + stats.laplace.rvs(
        scale=1 / (positive("epsilon", epsilon) * n), size=n_trials, random_state=rng
    )
    miss = np.abs(estimate - fraction) > error
    return float(miss.mean()), float(miss.std(ddof=1) / math.sqrt(n_trials))


def smallest_true_n(
    epsilon: float, error: float, failure_probability: float, fraction: float = 0.5
) -> int:
    """The N at which the exact failure probability first drops to ≤ α at this ε: brentq from a
    normal-approximation guess.

    The guess is the larger of the sizes at which the sampling error alone (normal approximation,
    Pr(``|X/N - p|`` > T) = α) and the Laplace noise alone (e^{-εNT} = α) would fail with
    probability α; steps of a factor 1.5 from it bracket the answer, brentq on the failure
    probability narrows the bracket to one participant, and each evaluation leaves out binomial mass
    below α·10⁻¹², so the cost of a search hardly grows with N. The binomial's discreteness makes
    the failure probability not exactly monotone in N, so a slightly smaller N can occasionally
    qualify too; the answer is exact to within a few participants.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    fraction : float
        The true fraction p, in [0, 1].

    Returns
    -------
    int
        The smallest N whose exact failure probability is at most α (to within a few
        participants).

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    alpha = open_unit("failure_probability", failure_probability)
    t, p = open_unit("error", error), closed_unit("fraction", fraction)
    eps = positive("epsilon", epsilon)
    negligible = alpha * 1e-12

    def gap(n: float) -> float:  # falls with N
        return true_failure_probability(eps, max(1, round(n)), t, p, negligible) - alpha

    if gap(1) <= 0:
        return 1
    sampling = p * (1 - p) * (stats.norm.isf(alpha / 2) / t) ** 2
    noise = math.log(1 / alpha) / (eps * t)
    lo = hi = max(1.0, math.floor(max(sampling, noise)))
    while gap(hi) > 0:
        lo, hi = hi, math.ceil(hi * 1.5)
    while lo > 1 and gap(lo) <= 0:
        lo, hi = max(1.0, math.floor(lo / 1.5)), lo
    if hi - lo > 1:
        hi = math.ceil(optimize.brentq(gap, lo, hi, xtol=0.5))
    n = int(hi)
    while gap(n) > 0:
        n += 1
    while n > 1 and gap(n - 1) <= 0:
        n -= 1
    return n


# Non-private comparison, attributed to the full paper (arXiv:1402.3329, Sec. 5); these formulas
# were not confirmed against its text, and the public notebook github.com/nigoshh/privacy-accuracy
# (privacy-accuracy.ipynb) does not state them: it uses the Chernoff bound 2 exp(-N T²/3) for the
# non-private study instead (``chernoff_non_private_n``).
def sufficient_n(error: float, failure_probability: float) -> float:
    """N ≥ (12/T²) ln(3/α): enough for 3 exp(-N T²/12) ≤ α, the paper's sufficient condition.

    Parameters
    ----------
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).

    Returns
    -------
    float
        The study size (12/T²) ln(3/α).

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    t, alpha = open_unit("error", error), open_unit("failure_probability", failure_probability)
    return 12 / t**2 * math.log(3 / alpha)


def max_base_cost(budget: float, error: float, failure_probability: float) -> float:
    """The largest base cost E for which ε = T/6 at N = (12/T²) ln(3/α) fits the budget.

    Parameters
    ----------
    budget : float
        The budget B, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).

    Returns
    -------
    float
        The largest base cost E.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    t = open_unit("error", error)
    return positive("budget", budget) / (sufficient_n(t, failure_probability) * math.expm1(t / 6))


def non_private_n(error: float, failure_probability: float) -> float:
    """N' ≥ ln(1/(2α)) / (8 T²): the non-private study size as quoted (unverified against the
    paper); needs α < 1/2.

    Parameters
    ----------
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1/2).

    Returns
    -------
    float
        The non-private study size.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    t, alpha = open_unit("error", error), _quoted_alpha(failure_probability)
    return math.log(1 / (2 * alpha)) / (8 * t**2)


def chernoff_non_private_n(error: float, failure_probability: float) -> float:
    """N' = (3/T²) ln(2/α): the non-private size from 2 exp(-N T²/3) ≤ α, the bound
    github.com/nigoshh/privacy-accuracy uses.

    Parameters
    ----------
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).

    Returns
    -------
    float
        The non-private study size.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    t, alpha = open_unit("error", error), open_unit("failure_probability", failure_probability)
    return 3 / t**2 * math.log(2 / alpha)


def hoeffding_non_private_n(error: float, failure_probability: float) -> float:
    """N = ln(2/α) / (2T²): the non-private size from Hoeffding's 2 exp(-2N T²) ≤ α.

    Parameters
    ----------
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).

    Returns
    -------
    float
        The non-private study size.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    t, alpha = open_unit("error", error), open_unit("failure_probability", failure_probability)
    return math.log(2 / alpha) / (2 * t**2)


def private_is_cheaper(
    error: float,
    failure_probability: float,
    base_cost: float,
    worst_cost: float,
    exposed_fraction: float,
) -> bool:
    """T/6 ≤ ln(1 + φ W ln(1/(2α)) / (96 E ln(3/α))): the quoted condition for the private study
    to cost less.

    Parameters
    ----------
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1/2).
    base_cost : float
        The base cost E, > 0.
    worst_cost : float
        The worst cost W, > 0.
    exposed_fraction : float
        The fraction φ of people exposed to it, in (0, 1).

    Returns
    -------
    bool
        Whether the quoted condition holds.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return open_unit("error", error) <= crossover_error(
        failure_probability, base_cost, worst_cost, exposed_fraction
    )


def crossover_error(
    failure_probability: float, base_cost: float, worst_cost: float, exposed_fraction: float
) -> float:
    """The error T below which the quoted condition says the private study costs less:
    6 ln(1 + φ W ln(1/(2α)) / (96 E ln(3/α))).

    Parameters
    ----------
    failure_probability : float
        The accuracy level α, in (0, 1/2).
    base_cost : float
        The base cost E, > 0.
    worst_cost : float
        The worst cost W, > 0.
    exposed_fraction : float
        The fraction φ of people exposed to it, in (0, 1).

    Returns
    -------
    float
        The crossover error.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    alpha = _quoted_alpha(failure_probability)
    ratio = (
        open_unit("exposed_fraction", exposed_fraction)
        * positive("worst_cost", worst_cost)
        * math.log(1 / (2 * alpha))
    )
    return 6 * math.log1p(ratio / (96 * positive("base_cost", base_cost) * math.log(3 / alpha)))


def _quoted_alpha(failure_probability: float) -> float:
    """α for the quoted non-private formulas, whose ln(1/(2α)) is a positive size only for
    α < 1/2."""
    alpha = open_unit("failure_probability", failure_probability)
    if alpha >= 0.5:
        raise ValueError(
            "failure_probability must lie in (0, 0.5) for the quoted non-private study size "
            f"ln(1/(2α))/(8T²), got {failure_probability!r}"
        )
    return alpha


def _design(n: int, epsilon: float, p: float, error: float, slide_constants: bool) -> StudyDesign:
    pay = math.expm1(epsilon) * p
    return StudyDesign(n, epsilon, pay, n * pay, accuracy_bound(epsilon, n, error, slide_constants))


def _count(name: str, value: float) -> float:
    x = real(name, value)
    if x < 1:
        raise ValueError(f"{name} must be >= 1 (a number of participants), got {value!r}")
    return x


EXACT_EPSILON_MIN = 1e-4  # the smallest ε the exact search considers
EXACT_EPSILON_MAX = 20.0  # the largest: a budget that affords it may afford more


def largest_feasible_epsilon_exact(
    expected_cost: float,
    budget: float,
    error: float,
    failure_probability: float,
    fraction: float = 0.5,
    epsilon_max: float = EXACT_EPSILON_MAX,
) -> StudyDesign | None:
    """Like ``largest_feasible_epsilon`` but with the exact failure probability in place of
    A(ε, N).

    A geometric scan of ε down from ``epsilon_max`` to ``EXACT_EPSILON_MIN`` finds the first
    affordable ε, then bisection refines it (a design at ``epsilon_max`` itself means the budget
    may afford a larger ε than the scan looks at); the returned design's ``accuracy_bound``
    field holds the exact failure probability. None when even ε = ``EXACT_EPSILON_MIN`` is
    beyond the budget.

    Parameters
    ----------
    expected_cost : float
        The expected cost P of the bad event, > 0.
    budget : float
        The budget B, > 0.
    error : float
        The allowed error T on the unit scale, in (0, 1).
    failure_probability : float
        The accuracy level α, in (0, 1).
    fraction : float
        The true fraction p, in [0, 1].
    epsilon_max : float
        The largest ε scanned, > 0.

    Returns
    -------
    StudyDesign or None
        The design of largest affordable ε (its ``accuracy_bound`` the exact failure probability),
        or None where even ε = ``EXACT_EPSILON_MIN`` is beyond the budget.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    p, b = positive("expected_cost", expected_cost), positive("budget", budget)
    alpha = open_unit("failure_probability", failure_probability)

    def cost(eps: float) -> tuple[int, float]:
        n = smallest_true_n(eps, error, alpha, fraction)
        return n, n * math.expm1(eps) * p

    # downwards: large ε means small, cheap studies
    grid = np.geomspace(positive("epsilon_max", epsilon_max), EXACT_EPSILON_MIN, 80)
    # the cost rises with ε: if the smallest ε of the scan is unaffordable, so is every other
    if cost(grid[-1])[1] > b:
        return None
    first = next(i for i, e in enumerate(grid) if cost(e)[1] <= b)  # exists: grid[-1] is affordable
    if first == 0:
        lo = float(grid[0])
    else:
        lo, hi = float(grid[first]), float(grid[first - 1])
        for _ in range(50):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if cost(mid)[1] <= b else (lo, mid)
    n = cost(lo)[0]
    pay = math.expm1(lo) * p
    return StudyDesign(n, lo, pay, n * pay, true_failure_probability(lo, n, error, fraction))


def dollars(amount: float) -> str:
    """An amount of money for the text: to the cent with thousands separators, or to 3
    significant figures below a cent; "$∞" for an infinite amount (e^ε beyond a double's range).

    Parameters
    ----------
    amount : float
        The amount, finite or +∞.

    Returns
    -------
    str
        The amount as text.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    if isinstance(amount, (int, float)) and math.isinf(amount) and amount > 0:
        return "$∞"
    x = real("amount", amount)
    return f"${x:,.2f}" if x == 0 or abs(x) >= 0.01 else f"${x:.3g}"


def readable(value: float, decimals: int = 4) -> float:
    """``value`` rounded to ``decimals`` places, or to 3 significant figures where those places
    would show fewer; ±∞ as it is.

    Parameters
    ----------
    value : float
        The value, finite or ±∞.
    decimals : int
        The decimal places kept.

    Returns
    -------
    float
        The rounded value.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    if isinstance(value, (int, float)) and math.isinf(value):
        return float(value)
    x = real("value", value)
    return round(x, decimals) if x == 0 or abs(x) >= 10.0 ** (2 - decimals) else float(f"{x:.3g}")


# a positive probability computed as 0 lies below this (the exact sums leave out less)
UNDERFLOW = 1e-300


def readable_probability(value: float, decimals: int = 6) -> float | str:
    """A positive probability (or a bound on one, which may exceed 1) for a table: ``readable``,
    or '< 1e-300' where it underflowed to 0.

    Parameters
    ----------
    value : float
        The probability (or a bound on one), finite.
    decimals : int
        The decimal places kept.

    Returns
    -------
    float or str
        The rounded value, or '< 1e-300' where it is not positive.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    x = real("value", value)
    return readable(x, decimals) if x > 0 else f"< {UNDERFLOW:g}"
