"""What an attacker can do under a privacy guarantee: every ε, (ε, δ), ρ-zCDP or μ-GDP read as the
exact bound on a membership test (Kairouz, Oh & Viswanath 2015; Dong, Roth & Su 2019, f-DP).

A test of "is this person's record in the data?" that says "in" with false-positive rate α has a
true-positive rate at most T(α), the guarantee's bound; 1 − T(α) is the trade-off curve
(false-negative rate against α). From it follow the largest advantage max_α T(α) − α, the
true-positive rate at a small α, the best accuracy of a guess at prior ½ and the posterior that a
positive test leaves from a stated prior. Every value is the worst case over all mechanisms with
the guarantee, and some mechanism attains it (READINGS names the reading and the mechanism).

A ρ-zCDP guarantee is read exactly through the test itself: the test turns the mechanism's
outputs on two neighbouring data sets into two coin flips, Bernoulli(T) and Bernoulli(α), and
zCDP's Rényi bounds D_a ≤ aρ hold for that pair in both directions at every order a > 1 (data
processing); any pair that meets them is itself a ρ-zCDP mechanism. So T(α) is the largest T
whose pair meets them (``bernoulli_zcdp_rho``). Reading ρ through its family of (ε(δ), δ)
guarantees (Canonne, Kamath & Steinke 2020, Prop. 12: ``zcdp_tpr_via_approximate``) is valid but
looser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ._validate import closed_unit, open_unit, positive, real

MODELS = ("pure", "approximate", "zcdp", "gdp")
# how each model's guarantee is read on the scale, and the mechanism that attains the reading
READINGS = {
    "pure": "ε-DP, exact: Kairouz, Oh & Viswanath's curve (randomized response attains it)",
    "approximate": (
        "(ε, δ)-DP, exact: Kairouz, Oh & Viswanath's curve (their four-outcome mechanism "
        "attains it)"
    ),
    "zcdp": (
        "ρ-zCDP, exact: the Rényi bounds on the test's two outcomes (a two-outcome mechanism "
        "attains each point; randomized response the advantage)"
    ),
    "gdp": "μ-GDP, exact: Dong, Roth & Su's curve (the Gaussian mechanism attains it)",
}
# the ε grid of a zCDP guarantee's (ε(δ), δ) family: points per unit of log ε
_GRID_POINTS = 100


@dataclass(frozen=True)
class Guarantee:
    """A privacy guarantee: ``model`` one of MODELS, with its parameters (NaN where unused)."""

    model: str
    epsilon: float = math.nan
    delta: float = math.nan
    rho: float = math.nan
    mu: float = math.nan

    def describe(self) -> str:
        """The guarantee as a reader writes it: "ε = 1", "(ε, δ) = (2.19, 1e-05)", "ρ = 2.63"."""
        if self.model == "pure":
            return f"ε = {self.epsilon:g}"
        if self.model == "approximate":
            return f"(ε, δ) = ({self.epsilon:g}, {self.delta:.3g})"
        if self.model == "zcdp":
            return f"ρ = {self.rho:g} (zCDP)"
        return f"μ = {self.mu:g} (Gaussian DP)"


def pure(epsilon: float) -> Guarantee:
    """ε-differential privacy (ε > 0)."""
    return Guarantee("pure", epsilon=positive("epsilon", epsilon), delta=0.0)


def approximate(epsilon: float, delta: float) -> Guarantee:
    """(ε, δ)-differential privacy (ε ≥ 0, 0 ≤ δ < 1)."""
    eps = real("epsilon", epsilon)
    if eps < 0:
        raise ValueError(f"epsilon must be >= 0 (allowed range [0, inf)), got {epsilon!r}")
    d = closed_unit("delta", delta)
    if d == 1:
        raise ValueError(f"delta must lie in [0, 1) (δ = 1 promises nothing), got {delta!r}")
    return Guarantee("approximate", epsilon=eps, delta=d)


def zcdp(rho: float) -> Guarantee:
    """ρ-zero-concentrated differential privacy (Bun & Steinke 2016, Def. 1.1; ρ > 0)."""
    return Guarantee("zcdp", rho=positive("rho", rho))


def gdp(mu: float) -> Guarantee:
    """μ-Gaussian differential privacy (Dong, Roth & Su 2019, Def. 2.6; μ > 0)."""
    return Guarantee("gdp", mu=positive("mu", mu))


def guarantee(
    model: str,
    epsilon: float = math.nan,
    delta: float = math.nan,
    rho: float = math.nan,
    mu: float = math.nan,
) -> Guarantee:
    """The guarantee of ``model`` from the parameters it uses (the others are ignored)."""
    if model == "pure":
        return pure(epsilon)
    if model == "approximate":
        return approximate(epsilon, delta)
    if model == "zcdp":
        return zcdp(rho)
    if model == "gdp":
        return gdp(mu)
    raise ValueError(f"model must be one of {list(MODELS)}, got {model!r}")


# --- conversions -----------------------------------------------------------------------------


def _log_delta_at_order(order: float, rho: float, epsilon: float) -> float:
    """log of CKS's δ at Rényi order a: (a−1)(aρ−ε) − log a + (a−1) log(1 − 1/a)."""
    return (
        (order - 1) * (order * rho - epsilon)
        - math.log(order)
        + (order - 1) * math.log1p(-1 / order)
    )


def zcdp_delta(rho: float, epsilon: float) -> float:
    """The δ at which ρ-zCDP gives (ε, δ)-DP (Canonne, Kamath & Steinke 2020, Prop. 12 with
    Rényi divergence aρ at order a): inf over a > 1 of e^((a−1)(aρ−ε)) (1 − 1/a)^(a−1) / a."""
    r = positive("rho", rho)
    eps = real("epsilon", epsilon)
    if eps < 0:
        raise ValueError(f"epsilon must be >= 0 (allowed range [0, inf)), got {epsilon!r}")
    # the quadratic (a−1)(aρ−ε) is least at a = (ε + ρ)/(2ρ): search well beyond it
    top = 4 * (eps + r) / (2 * r) + 4
    found = optimize.minimize_scalar(
        lambda log_excess: _log_delta_at_order(1 + math.exp(log_excess), r, eps),
        bounds=(-30.0, math.log(top)),
        method="bounded",
        options={"xatol": 1e-10},
    )
    return min(1.0, math.exp(min(float(found.fun), 0.0)))


def zcdp_epsilon(rho: float, delta: float) -> float:
    """The smallest ε at which ρ-zCDP gives (ε, δ)-DP by ``zcdp_delta`` (Canonne, Kamath &
    Steinke 2020, Prop. 12): the root of zcdp_delta(ρ, ε) = δ, at most Bun & Steinke's
    ρ + 2 √(ρ ln(1/δ)) (2016, Prop. 1.3)."""
    r, d = positive("rho", rho), open_unit("delta", delta)
    if zcdp_delta(r, 0.0) <= d:
        return 0.0
    top = r + 2 * math.sqrt(r * math.log(1 / d)) + 1
    return float(
        optimize.brentq(
            lambda e: math.log(zcdp_delta(r, e)) - math.log(d), 0.0, top, xtol=1e-13, rtol=1e-13
        )
    )


def gdp_delta(mu: float, epsilon: float) -> float:
    """The δ at which μ-GDP gives (ε, δ)-DP, exactly (Dong, Roth & Su 2019, Cor. 2.13):
    Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)."""
    m = positive("mu", mu)
    eps = real("epsilon", epsilon)
    if eps < 0:
        raise ValueError(f"epsilon must be >= 0 (allowed range [0, inf)), got {epsilon!r}")
    first = stats.norm.logcdf(-eps / m + m / 2)
    second = eps + stats.norm.logcdf(-eps / m - m / 2)
    # the difference of two exponentials, in log space: e^first (1 − e^(second − first))
    return float(math.exp(first) * -math.expm1(second - first))


def gdp_epsilon(mu: float, delta: float) -> float:
    """The smallest ε at which μ-GDP gives (ε, δ)-DP (Dong, Roth & Su 2019, Cor. 2.13)."""
    m, d = positive("mu", mu), open_unit("delta", delta)
    if gdp_delta(m, 0.0) <= d:
        return 0.0
    top = m * m / 2 + m * math.sqrt(2 * math.log(1 / d)) + 1
    return float(optimize.brentq(lambda e: gdp_delta(m, e) - d, 0.0, top, xtol=1e-13, rtol=1e-13))


def gaussian_mu_for_rho(rho: float) -> float:
    """The μ of the Gaussian mechanism whose zCDP parameter is ρ: μ = √(2ρ) (Bun & Steinke 2016,
    Prop. 1.6, ρ = Δ²/(2σ²), and Dong, Roth & Su 2019, Thm. 2.7, μ = Δ/σ)."""
    return math.sqrt(2 * positive("rho", rho))


# --- the trade-off curve ---------------------------------------------------------------------


def _approximate_tpr(epsilon: float, delta: float, fpr: float) -> float:
    """Kairouz, Oh & Viswanath (2015, Thm. 2.1): min(1, δ + e^ε α, 1 − e^−ε (1 − δ − α))."""
    return min(
        1.0,
        delta + math.exp(epsilon) * fpr if epsilon < 700 else 1.0,
        1 - math.exp(-epsilon) * (1 - delta - fpr),
    )


def zcdp_tpr_via_approximate(rho: float, fpr: float) -> float:
    """ρ-zCDP read through its whole family of (ε(δ), δ) guarantees (Canonne, Kamath & Steinke
    2020, Prop. 12): the least of their bounds at ``fpr``. A valid bound, but above the exact
    ``tpr_bound(zcdp(ρ), fpr)`` at every α in (0, 1): shown beside it, never used for the scale."""
    r, alpha = positive("rho", rho), closed_unit("fpr", fpr)
    epsilons, deltas = _zcdp_family(r)
    with np.errstate(over="ignore"):
        values = np.minimum.reduce(
            [
                np.ones_like(epsilons),
                deltas + np.exp(epsilons) * alpha,
                1 - np.exp(-epsilons) * (1 - deltas - alpha),
            ]
        )
    best = int(np.argmin(values))
    low = float(epsilons[max(best - 1, 0)])
    high = float(epsilons[min(best + 1, len(epsilons) - 1)])
    found = optimize.minimize_scalar(
        lambda e: _approximate_tpr(e, zcdp_delta(r, e), alpha),
        bounds=(low, high),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return float(min(values[best], found.fun))


def zcdp_advantage_via_approximate(rho: float) -> float:
    """The largest advantage that ρ-zCDP's (ε(δ), δ) family allows (``zcdp_tpr_via_approximate``
    where its symmetric curve crosses α = 1 − T(α)): above the exact ``zcdp_advantage``."""
    r = positive("rho", rho)

    def crossing(alpha: float) -> float:
        return alpha - (1 - zcdp_tpr_via_approximate(r, alpha))

    if crossing(1e-300) >= 0:
        return 1.0
    log_alpha = optimize.brentq(
        lambda t: crossing(math.exp(t)), math.log(1e-300), math.log(0.5), xtol=1e-14, rtol=1e-15
    )
    return float(1 - 2 * math.exp(log_alpha))


@lru_cache(maxsize=256)
def _zcdp_family(rho: float) -> tuple[np.ndarray, np.ndarray]:
    """The (ε, δ(ε)) family of ρ-zCDP on a log grid of ε, to the ε where δ falls to 1e-300."""
    top = rho + 2 * math.sqrt(rho * math.log(1e300)) + 1
    bottom = min(1e-6, rho / 100)
    count = int(_GRID_POINTS * math.log(top / bottom)) + 1
    epsilons = np.concatenate([[0.0], np.geomspace(bottom, top, count)])
    deltas = np.array([zcdp_delta(rho, float(e)) for e in epsilons])
    return epsilons, deltas


# points per side of the order grid on which bernoulli_zcdp_rho looks for its largest D_a/a
_ORDER_POINTS = 600


def _expm1_minus(x: np.ndarray) -> np.ndarray:
    """e^x − 1 − x to full relative precision: its series x²/2 + x³/6 + x⁴/24 + x⁵/120 where
    |x| < 1e-3 (the next term is below 1e-14 of the sum), directly beyond."""
    with np.errstate(over="ignore"):
        series = x * x * (1 / 2 + x * (1 / 6 + x * (1 / 24 + x / 120)))
        return np.where(np.abs(x) < 1e-3, series, np.expm1(x) - x)


def _log1p_minus(x: float) -> float:
    """log(1 + x) − x to full relative precision: its series −x²/2 + x³/3 − x⁴/4 + x⁵/5 where
    |x| < 1e-3, directly beyond."""
    if abs(x) < 1e-3:
        return x * x * (-1 / 2 + x * (1 / 3 + x * (-1 / 4 + x / 5)))
    return math.log1p(x) - x


def _log_moment(b: np.ndarray, fpr: float, l1: float, l0: float, linear: float) -> np.ndarray:
    """K(b) = log E_Q[(P/Q)^b] for P = Bernoulli(T), Q = Bernoulli(α), from the log ratios
    l1 = log(T/α) and l0 = log((1 − T)/(1 − α)) and linear = α l1 + (1 − α) l0 (= −KL(Q‖P)).
    Near b·l = 0 the sum α(e^(b l1) − 1) + (1 − α)(e^(b l0) − 1) is written as
    α(e^(b l1) − 1 − b l1) + (1 − α)(e^(b l0) − 1 − b l0) + b·linear, so that the first-order
    terms, which cancel to the second order, never meet in floating point; beyond, logaddexp."""
    with np.errstate(over="ignore", invalid="ignore"):
        x1, x0 = b * l1, b * l0
        near = np.maximum(np.abs(x1), np.abs(x0)) < 0.5
        z1, z0 = np.where(near, x1, 0.0), np.where(near, x0, 0.0)
        k_near = np.log1p(
            fpr * _expm1_minus(z1) + (1 - fpr) * _expm1_minus(z0) + np.where(near, b, 0) * linear
        )
        k_far = np.logaddexp(math.log(fpr) + x1, math.log1p(-fpr) + x0)
    return np.where(near, k_near, k_far)


def bernoulli_zcdp_rho(fpr: float, tpr: float) -> float:
    """The least ρ for which a test with rates (α, T) = (``fpr``, ``tpr``) is possible under
    ρ-zCDP: the largest D_a(P‖Q)/a or D_a(Q‖P)/a over orders a > 1 between P = Bernoulli(T) and
    Q = Bernoulli(α) (Bun & Steinke 2016, Def. 1.1, applied to the test's outcome). With
    K(b) = log E_Q[(P/Q)^b], D_a(P‖Q)/a = K(a)/(a(a − 1)) and D_a(Q‖P)/a = K(1 − a)/(a(a − 1)),
    so it is the largest K(b)/(b(b − 1)) over b outside [0, 1]; its limits at b → 1 and b → 0 are
    the two Kullback-Leibler divergences. ∞ where one outcome is certain under one hypothesis
    only."""
    alpha, t = closed_unit("fpr", fpr), closed_unit("tpr", tpr)
    if t == alpha:
        return 0.0
    if alpha in (0.0, 1.0) or t in (0.0, 1.0):
        return math.inf
    # the log ratios from the difference d = T − α (exact in floating point for T near α):
    # l1 = log1p(d/α), l0 = log1p(−d/(1 − α)); α l1 + (1 − α) l0 loses its first-order terms
    # exactly, α(log1p(u) − u) + (1 − α)(log1p(−v) + v) with α u = (1 − α) v = d
    d = t - alpha
    u, v = d / alpha, d / (1 - alpha)
    # near T = 1, 1 − T is exact (Sterbenz) where the rounded v may reach 1
    l1 = math.log1p(u)
    l0 = math.log1p(-v) if v < 0.5 else math.log((1 - t) / (1 - alpha))
    if v < 0.5:
        linear = alpha * _log1p_minus(u) + (1 - alpha) * _log1p_minus(-v)
    else:  # far apart: no cancellation to guard against
        linear = alpha * l1 + (1 - alpha) * l0
    kl_qp = -linear
    kl_pq = linear + d * (l1 - l0)
    best = max(kl_pq, kl_qp, 0.0)
    if best == 0.0:
        return 0.0

    def ratio(b: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):  # b(b − 1) beyond 1e308: the ratio is 0 there
            return _log_moment(b, alpha, l1, l0, linear) / (b * (b - 1))

    # K(b) ≤ |b| max(|l1|, |l0|), so past |b| = 1 + that/best no order can beat the KL limits
    reach = max(abs(l1), abs(l0)) / best + 2
    steps = np.geomspace(1e-7, reach, _ORDER_POINTS)
    for side in (1.0, -1.0):
        orders = 1 + steps if side > 0 else -steps
        values = ratio(orders)
        i = int(np.nanargmax(values))
        if not values[i] > best:
            continue
        low, high = steps[max(i - 1, 0)], steps[min(i + 1, _ORDER_POINTS - 1)]

        def negated(step: float, side: float = side) -> float:
            order = 1 + step if side > 0 else -step
            return -float(ratio(np.array([order]))[0])

        found = optimize.minimize_scalar(
            negated, bounds=(low, high), method="bounded", options={"xatol": 1e-13 * high}
        )
        best = max(best, float(values[i]), -float(found.fun))
    return best


@lru_cache(maxsize=4096)
def _zcdp_tpr(rho: float, fpr: float) -> float:
    """The exact T(α) of ρ-zCDP: the largest T ≥ α with bernoulli_zcdp_rho(α, T) ≤ ρ. The least
    such ρ grows with T (exp((a − 1) D_a) is jointly convex, so every pair between (α, α) and
    a feasible (α, T) is feasible), so it is the root of bernoulli_zcdp_rho(α, T) = ρ, found in
    the logarithm of T − α, which spans from far below α to 1 − α."""
    if fpr in (0.0, 1.0):
        return fpr  # a test that never (always) says "in" under one hypothesis does so under both
    top = 1 - 2**-53
    if bernoulli_zcdp_rho(fpr, top) <= rho:
        return 1.0

    def excess(log_gap: float) -> float:
        return bernoulli_zcdp_rho(fpr, min(fpr + math.exp(log_gap), top)) - rho

    # a gap below α's last bits leaves T = α, where the excess is −ρ; the widest gap may round
    # to a T an ulp below top, where the pair may still be allowed: T is 1 to double precision
    lowest, widest = math.log(max(fpr * 1e-17, 1e-320)), math.log(top - fpr)
    if excess(widest) <= 0:
        return 1.0
    log_gap = optimize.brentq(excess, lowest, widest, xtol=1e-14, rtol=1e-15)
    return min(fpr + math.exp(log_gap), top)


def zcdp_advantage(rho: float) -> float:
    """The largest advantage under ρ-zCDP: tanh(ε/2), with ε the randomized response whose
    Kullback-Leibler divergence ε tanh(ε/2) is ρ. The pairs (α, T) that ρ-zCDP allows form a
    convex set (see ``_zcdp_tpr``) that the relabelling (α, T) → (1 − T, 1 − α) maps onto itself
    and that keeps T − α, so the largest T − α is reached at a pair with α = 1 − T: randomized
    response, which meets every Rényi bound once its KL divergence (the limit a → 1) meets ρ."""
    r = positive("rho", rho)
    # t = tanh(ε/2): ε = log((1 + t)/(1 − t)), and t·ε rises from 0 to ∞ on (0, 1)
    top = 1 - 2**-53
    if top * (math.log1p(top) - math.log1p(-top)) <= r:
        return 1.0
    return float(
        optimize.brentq(
            lambda t: t * (math.log1p(t) - math.log1p(-t)) - r, 0.0, top, xtol=1e-17, rtol=1e-15
        )
    )


def tpr_bound(g: Guarantee, fpr: float) -> float:
    """The largest true-positive rate of a membership test with false-positive rate ``fpr``
    under ``g``, exactly: (ε, δ) by Kairouz, Oh & Viswanath's Thm. 2.1, μ-GDP by Φ(Φ⁻¹(α) + μ)
    (Dong, Roth & Su, Eq. (2.4)), ρ-zCDP by the Rényi bounds on the test's two outcomes
    (``bernoulli_zcdp_rho``)."""
    alpha = closed_unit("fpr", fpr)
    if g.model in ("pure", "approximate"):
        return _approximate_tpr(g.epsilon, g.delta, alpha)
    if g.model == "gdp":
        return float(stats.norm.cdf(stats.norm.ppf(alpha) + g.mu))
    if g.model == "zcdp":
        return _zcdp_tpr(g.rho, alpha)
    raise ValueError(f"g.model must be one of {list(MODELS)}, got {g.model!r}")


def tradeoff(g: Guarantee, fprs: np.ndarray | list[float]) -> np.ndarray:
    """The trade-off curve of ``g``: the least false-negative rate 1 − T(α) at each false-positive
    rate α of ``fprs`` (Dong, Roth & Su 2019, Def. 2.1)."""
    return np.array([1 - tpr_bound(g, float(a)) for a in np.atleast_1d(fprs)])


def advantage(g: Guarantee) -> float:
    """The largest advantage TPR − FPR of a membership test under ``g``, in closed form: pure ε,
    tanh(ε/2) = (e^ε − 1)/(e^ε + 1); (ε, δ), (e^ε − 1 + 2δ)/(e^ε + 1) (Kairouz, Oh & Viswanath's
    curve at its crossing of α = 1 − T(α)); μ-GDP, 2Φ(μ/2) − 1 (Dong, Roth & Su, Cor. 2.13 at
    ε = 0); ρ-zCDP, ``zcdp_advantage``."""
    if g.model == "pure":
        return math.tanh(g.epsilon / 2)
    if g.model == "approximate":
        # 1 − 2(1 − δ)/(e^ε + 1), which stays exact where e^ε overflows
        return 1 - 2 * (1 - g.delta) / (math.exp(g.epsilon) + 1) if g.epsilon < 700 else 1.0
    if g.model == "gdp":
        return math.erf(g.mu / (2 * math.sqrt(2)))
    if g.model == "zcdp":
        return zcdp_advantage(g.rho)
    raise ValueError(f"g.model must be one of {list(MODELS)}, got {g.model!r}")


def accuracy_at_half(g: Guarantee) -> float:
    """The best accuracy of a guess "in" or "out" when either is equally likely beforehand:
    (1 + advantage)/2 (pure ε: e^ε/(1 + e^ε), the truth rate of randomized response)."""
    return (1 + advantage(g)) / 2


def posterior_after_positive(g: Guarantee, prior: float, fpr: float) -> float:
    """The posterior that the person is in the data after a test at false-positive rate ``fpr``
    says "in": p T(α) / (p T(α) + (1 − p) α), from prior p."""
    p = open_unit("prior", prior)
    alpha = positive("fpr", fpr)
    if alpha > 1:
        raise ValueError(f"fpr must lie in (0, 1], got {fpr!r}")
    tpr = tpr_bound(g, alpha)
    return p * tpr / (p * tpr + (1 - p) * alpha)


def largest_posterior(g: Guarantee, prior: float) -> float:
    """The largest posterior a positive test can leave from prior p: p e^ε/(1 − p + p e^ε) under
    pure ε (Bayes' rule with the likelihood ratio at most e^ε); 1 for every other model, whose
    bound T(α)/α grows without limit as α → 0 (certainty on an event of small probability)."""
    p = open_unit("prior", prior)
    if g.model != "pure":
        return 1.0
    log_odds = math.log(p) - math.log1p(-p) + g.epsilon
    return 1 / (1 + math.exp(-log_odds))


def in_100(probability: float) -> str:
    """A probability as readers read it best (Nanayakkara et al. 2023): "73 in 100"."""
    q = closed_unit("probability", probability)
    count = round(100 * q)
    if count == 100:
        return "more than 99 in 100"  # no finite guarantee makes a guess certain
    return f"{count} in 100"


def summary(g: Guarantee) -> dict[str, float]:
    """The scale's numbers for ``g``: advantage, TPR at FPR 1% and 0.1%, accuracy at prior ½."""
    adv = advantage(g)
    return {
        "advantage": adv,
        "tpr_at_fpr_1pct": tpr_bound(g, 0.01),
        "tpr_at_fpr_0.1pct": tpr_bound(g, 0.001),
        "accuracy_at_half": (1 + adv) / 2,
    }


# --- the registry's probability-of-truth table ----------------------------------------------


def truth_probability(epsilon: float) -> float:
    """The probability that randomized response at ε reports the truth: e^ε/(1 + e^ε)
    (Dwork & Roth 2014, Sec. 3.2), the largest accuracy at prior ½ under ε-DP."""
    return float(1 / (1 + math.exp(-_non_negative(epsilon))))


def registry_ui_truth_probability(epsilon: float) -> float:
    """The "probability of truth" the OpenDP registry's website shows (probability-table.js):
    e^(ε/e)/(1 + e^(ε/e)), that is ε divided by Euler's number where ε belongs."""
    return float(1 / (1 + math.exp(-_non_negative(epsilon) / math.e)))


# the ε of the registry website's probability table (probability-table.js)
REGISTRY_UI_EPSILONS = (0, 0.01, 0.1, 1, 5, 10, 50, 100)


def truth_table(epsilons: tuple[float, ...] = REGISTRY_UI_EPSILONS) -> pd.DataFrame:
    """The registry website's "probability of truth" beside randomized response's, per ε."""
    return pd.DataFrame(
        {
            "epsilon": list(epsilons),
            "registry website: e^(ε/e)/(1 + e^(ε/e))": [
                registry_ui_truth_probability(e) for e in epsilons
            ],
            "randomized response: e^ε/(1 + e^ε)": [truth_probability(e) for e in epsilons],
        }
    )


def _non_negative(epsilon: float) -> float:
    eps = real("epsilon", epsilon)
    if eps < 0:
        raise ValueError(f"epsilon must be >= 0 (allowed range [0, inf)), got {epsilon!r}")
    return eps
