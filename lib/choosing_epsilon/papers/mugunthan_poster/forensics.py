"""Mugunthan, Xiao & Kagal (poster): Theorem 2 checked by another route. The poster sets the
coverage integral ∫_{-c}^{c} f(x) dx equal to p; ``confidence.theorem2_epsilon`` solves it through
the family's distribution function (in closed form for Laplace noise), and here it is solved by
quadrature of the density itself, as the poster writes it."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import integrate, optimize, special, stats
from scipy.stats import rv_continuous

from choosing_epsilon import confidence, laplace, risk
from choosing_epsilon._validate import open_unit, positive

_TAIL_CUT = 1e-17  # tail mass left out of integrated_coverage's interval
_LOG_EPSILON_LIMIT = 700.0  # |ln ε| beyond which e^{±ln ε} over- or underflows a double


def integrated_coverage(
    epsilon: float, c: float, sensitivity: float, family: rv_continuous = stats.laplace
) -> float:
    """∫_{-c}^{c} f(x) dx by quadrature: the integral Theorem 2 sets equal to p.

    The integral runs over the standardised variable on [-c/λ, c/λ], cut where the family's tail
    holds less than 1e-17 (a wide interval around a narrow peak would make the quadrature miss the
    peak).
    """
    scale = laplace.scale(sensitivity, epsilon, safe_side=False)
    b = min(positive("c", c) / scale, float(family.isf(_TAIL_CUT)))
    value, _ = integrate.quad(family.pdf, -b, b, points=[0.0], epsabs=0, epsrel=1e-12, limit=200)
    return float(value)


def integrated_tail(
    epsilon: float, c: float, sensitivity: float, family: rv_continuous = stats.laplace
) -> float:
    """∫_{|x| > c} f(x) dx by quadrature (1 - p in Theorem 2), accurate in relative terms however
    small it is."""
    scale = laplace.scale(sensitivity, epsilon, safe_side=False)
    b = positive("c", c) / scale
    right, _ = integrate.quad(family.pdf, b, math.inf, epsabs=0, epsrel=1e-12, limit=200)
    left, _ = integrate.quad(family.pdf, -math.inf, -b, epsabs=0, epsrel=1e-12, limit=200)
    return float(left + right)


def theorem2_epsilon_by_quadrature(
    sensitivity: float, c: float, p: float, family: rv_continuous = stats.laplace
) -> float:
    """Theorem 2 as the poster writes it: the ε solving p = ∫_{-c}^{c} f(x) dx for noise (Δ/ε) Z,
    by brentq in log ε on the quadrature (the coverage integral matched to p for p ≤ ½, the tail
    integral to 1 − p above it, each then small and to full relative precision)."""
    target = open_unit("p", p)
    positive("sensitivity", sensitivity), positive("c", c)

    def gap(log_eps: float) -> float:  # rises with ε
        eps = math.exp(log_eps)
        if target <= 0.5:
            return math.log(integrated_coverage(eps, c, sensitivity, family)) - math.log(target)
        return math.log(1 - target) - math.log(
            max(integrated_tail(eps, c, sensitivity, family), 1e-320)
        )

    lo, hi = -1.0, 1.0
    while gap(lo) > 0:
        lo -= 2
        if lo < -_LOG_EPSILON_LIMIT:
            raise ValueError(f"no ε above e^-{_LOG_EPSILON_LIMIT:g} gives coverage p = {p!r}")
    while gap(hi) < 0:
        hi += 2
        if hi > _LOG_EPSILON_LIMIT:
            raise ValueError(f"no ε below e^{_LOG_EPSILON_LIMIT:g} gives coverage p = {p!r}")
    return math.exp(optimize.brentq(gap, lo, hi, xtol=1e-14, rtol=1e-13))


# --- the poster's tables and curves: each theorem's ε against what it delivers -----------------


def theorem1_query_answer(epsilon: float, sensitivity: float, w: float, p: float) -> float:
    """Theorem 1 solved for q(D): √2 Δ / (w ε √(1-p)), what anyone learns of the data from a
    published Theorem 1 ε."""
    return (
        math.sqrt(2)
        * positive("sensitivity", sensitivity)
        / (open_unit("w", w) * positive("epsilon", epsilon) * math.sqrt(1 - open_unit("p", p)))
    )


# below this a probability printed to 4 decimals shows as 0.0000 (and its complement as 1.0000)
LOST_AT_4_DECIMALS = 5e-5


def coverage_text(
    epsilon: float, c: float, sensitivity: float, family: rv_continuous = stats.laplace
) -> str:
    """The coverage to 4 decimals, or as 1 - (miss to 3 significant figures) where 4 decimals would
    show 1.0000."""
    shortfall = confidence.miss(epsilon, c, sensitivity, family)
    if shortfall == 0:  # both tails below a double's range
        return "1 - (less than 1e-300)"
    return f"1 - {shortfall:.3g}" if shortfall < LOST_AT_4_DECIMALS else f"{1 - shortfall:.4f}"


def miss_text(shortfall: float) -> str:
    """A probability of missing to 4 decimals, or to 3 significant figures where 4 decimals would
    show 0.0000 (a positive probability is never written as zero)."""
    if shortfall == 0:
        return "0"
    return f"{shortfall:.3g}" if shortfall < LOST_AT_4_DECIMALS else f"{shortfall:.4f}"


def ratio(p: float | np.ndarray) -> np.ndarray:
    """ε2/ε3 for Laplace noise: -ln(1-p) / √(2 (ln 2 - ln(1-p))) (the poster's Fig. 1)."""
    q = np.asarray(p, dtype=float)
    if np.any((q <= 0) | (q >= 1)):
        raise ValueError(f"p must lie in (0, 1), got {p!r}")
    u = -np.log1p(-q)
    return u / np.sqrt(2 * (math.log(2) + u))


def ratio_threshold() -> float:
    """The p where ε2 = ε3, by brentq; analytically 1 - exp(-(1 + √(1 + 2 ln 2)))."""
    return float(optimize.brentq(lambda p: float(ratio(p)) - 1, 0.5, 1 - 1e-12, xtol=1e-15))


def gaussian_sigma_classical(sensitivity: float, epsilon: float, delta: float) -> float:
    """Classical Gaussian mechanism: σ = Δ √(2 ln(1.25/δ)) / ε (Dwork & Roth 2014, Thm A.1), proven
    only for ε < 1."""
    return (
        positive("sensitivity", sensitivity)
        * math.sqrt(2 * math.log(1.25 / open_unit("delta", delta)))
        / positive("epsilon", epsilon)
    )


def theorem2_sigma_gaussian(c: float, p: float) -> float:
    """Theorem 2 for Gaussian noise, stated on σ: Pr(|N(0, σ²)| < c) = p at
    σ = c / Φ⁻¹((1 + p)/2) = c / (√2 erfinv(p))."""
    return positive("c", c) / (math.sqrt(2) * float(special.erfinv(open_unit("p", p))))


def theorem3_sigma(c: float, p: float) -> float:
    """Theorem 3 stated on σ: ε = (|M|/c) √(ln 2 − ln(1−p)) with σ = M/ε means
    σ = c / √(ln 2 − ln(1−p))."""
    return positive("c", c) / math.sqrt(math.log(2) - math.log1p(-open_unit("p", p)))


THEOREMS = ("Theorem 1 (Chebyshev)", "Theorem 2 (exact)", "Theorem 3 (McDiarmid)")


def laplace_sigma_times_epsilon(sensitivity: float, epsilon: float) -> float:
    """Lemma 1's σε for Lap(Δ/ε) noise, with σ taken from scipy (√2 Δ at every ε)."""
    scale = laplace.scale(sensitivity, epsilon, safe_side=False)
    return float(stats.laplace(scale=scale).std()) * epsilon


def theorem_epsilons(
    sensitivity: float, w: float, query_answer: float, c: float, p: float
) -> dict[str, tuple[float, float]]:
    """Theorems 1-3 for Laplace noise at confidence p: each ε with the distance it promises to keep
    the noise within (w q(D) for Theorem 1, c for Theorems 2 and 3)."""
    return {
        THEOREMS[0]: (
            confidence.theorem1_epsilon(sensitivity, w, query_answer, p),
            w * query_answer,
        ),
        THEOREMS[1]: (confidence.theorem2_epsilon(sensitivity, c, p), c),
        THEOREMS[2]: (confidence.theorem3_epsilon(sensitivity, c, p), c),
    }


def simulated_coverage(
    epsilon: float, c: float, sensitivity: float, n_trials: int, rng: np.random.Generator
) -> float:
    """The share of ``n_trials`` draws of Lap(Δ/ε) noise with |X| < c: a Monte Carlo coverage."""
    scale = laplace.scale(sensitivity, epsilon, safe_side=False)
    noise = stats.laplace(scale=scale).rvs(size=n_trials, random_state=rng)
    return float(np.mean(np.abs(noise) < c))


def coverage_by_theorem(
    sensitivity: float,
    w: float,
    query_answer: float,
    c: float,
    p_grid: Sequence[float],
    n_trials: int,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """For each p and theorem: ε, the coverage Pr(|X| < distance) exactly and by Monte Carlo, and
    a verdict (exact, conservative, fails); raises if the two coverages are 5 standard errors
    apart."""
    rows = []
    for q in p_grid:
        for name, (eps, dist) in theorem_epsilons(sensitivity, w, query_answer, c, q).items():
            exact = confidence.coverage(eps, dist, sensitivity)
            simulated = simulated_coverage(eps, dist, sensitivity, n_trials, rng)
            se = math.sqrt(max(exact * (1 - exact), 1e-300) / n_trials)
            if abs(simulated - exact) > 5 * se + 1 / n_trials:
                raise RuntimeError(
                    f"{name} at p = {q:g}: simulated coverage {simulated:.6f} is more than "
                    f"5 standard errors from the exact {exact:.6f}"
                )
            verdict = (
                "exact" if abs(exact - q) <= 1e-9 else "conservative" if exact > q else "fails"
            )
            rows.append(
                {
                    "p": q,
                    "theorem": name,
                    "ε": eps,
                    "coverage (exact)": exact,
                    "coverage (MC)": simulated,
                    "coverage − p": exact - q,
                    "verdict": verdict,
                }
            )
    return pd.DataFrame(rows)


def coverage_curves(
    sensitivity: float, w: float, query_answer: float, c: float, p_values: Sequence[float]
) -> dict[str, list[float]]:
    """The coverage each theorem's ε delivers at every p of ``p_values`` (Theorem 1 at its value,
    read as the lower bound Chebyshev gives)."""
    labels = ("Theorem 1 (at its value)", "Theorem 2", "Theorem 3")
    curves: dict[str, list[float]] = {label: [] for label in labels}
    for q in p_values:
        pairs = theorem_epsilons(sensitivity, w, query_answer, c, q).values()
        for label, (eps, dist) in zip(labels, pairs):
            curves[label].append(confidence.coverage(eps, dist, sensitivity))
    return curves


def gaussian_coverage_analytic(
    epsilon: float, sigma_needed: float, c: float, sensitivity: float, delta: float
) -> float:
    """Pr(|N(0, σ²)| < c) at the σ the analytic calibration gives for ε (σ_needed itself where
    ε = 0: noise that large is (0, δ)-DP)."""
    sigma = (
        risk.gaussian_noise_for_epsilon(epsilon, delta, sensitivity)
        if epsilon > 0
        else sigma_needed
    )
    return float(1 - 2 * stats.norm.sf(c / sigma))


def gaussian_theorems_table(
    sensitivity: float, c: float, p_grid: Sequence[float], delta: float
) -> pd.DataFrame:
    """Theorems 2 and 3 for Gaussian noise: per p, the σ each asks for, its ε under the analytic
    and the classical calibration (flagged where ≥ 1), and the coverage at the analytic ε."""
    m_gauss = gaussian_sigma_classical(sensitivity, 1.0, delta)  # the classical M = σε
    rows = []
    for q in p_grid:
        e2_classical = confidence.theorem2_epsilon(m_gauss, c, q, stats.norm)  # σ = M/ε
        # Φ⁻¹((1 + p)/2) = √2 erfinv(p), without rounding (1 + p)/2
        closed = m_gauss * math.sqrt(2) * special.erfinv(q) / c
        if abs(e2_classical - closed) > 1e-9 * e2_classical:
            raise RuntimeError(
                f"p = {q:g}: the general Theorem 2 solver gives ε = {e2_classical!r}, "
                f"the closed form {closed!r}"
            )
        e3_classical = confidence.theorem3_epsilon(sensitivity, c, q, m=m_gauss)
        s2, s3 = theorem2_sigma_gaussian(c, q), theorem3_sigma(c, q)
        e2, e3 = (risk.gdp_epsilon(sensitivity / s, delta) for s in (s2, s3))
        rows.append(
            {
                "p": q,
                "σ (Thm 2)": s2,
                "ε2 analytic": e2,
                "ε2 classical": e2_classical,
                "ε2 classical valid (< 1)": e2_classical < 1,
                "coverage at ε2": gaussian_coverage_analytic(e2, s2, c, sensitivity, delta),
                "σ (Thm 3)": s3,
                "ε3 analytic": e3,
                "ε3 classical": e3_classical,
                "ε3 classical valid (< 1)": e3_classical < 1,
                "coverage at ε3": gaussian_coverage_analytic(e3, s3, c, sensitivity, delta),
            }
        )
    return pd.DataFrame(rows)


def classical_vs_analytic_table(
    sensitivity: float, epsilons: Sequence[float], delta: float
) -> pd.DataFrame:
    """Per ε: the classical and the analytic Gaussian σ, the δ the classical σ really incurs
    (Balle & Wang 2018, Thm 8) and whether that keeps it (ε, δ)-DP."""
    sigma_classical = [gaussian_sigma_classical(sensitivity, e, delta) for e in epsilons]
    table = pd.DataFrame(
        {
            "ε": list(epsilons),
            "σ classical": sigma_classical,
            "σ analytic": [
                risk.gaussian_noise_for_epsilon(e, delta, sensitivity) for e in epsilons
            ],
            "δ incurred by the classical σ": [
                risk.gdp_delta(sensitivity / s, e) for s, e in zip(sigma_classical, epsilons)
            ],
        }
    )
    table["(ε, δ)-DP"] = table["δ incurred by the classical σ"] <= delta
    return table


def lemma1_table(sensitivity: float, epsilons: Sequence[float], delta: float) -> pd.DataFrame:
    """Lemma 1's σε at each ε, for Laplace noise and for the analytic Gaussian mechanism."""
    return pd.DataFrame(
        {
            "ε": list(epsilons),
            "σε Laplace": [laplace_sigma_times_epsilon(sensitivity, e) for e in epsilons],
            f"σε Gaussian, analytic (δ = {delta:g})": [
                risk.gaussian_noise_for_epsilon(e, delta, sensitivity) * e for e in epsilons
            ],
        }
    )


def sigma_times_epsilon_curves(
    sensitivity: float, epsilons: Sequence[float] | np.ndarray, delta: float
) -> pd.DataFrame:
    """Lemma 1's σε against ε for Laplace noise and for the Gaussian mechanism, calibrated
    analytically and classically."""
    return pd.DataFrame(
        {
            "epsilon": epsilons,
            "sigma_eps_laplace": laplace_sigma_times_epsilon(sensitivity, 1.0),
            "sigma_eps_gaussian_analytic": [
                risk.gaussian_noise_for_epsilon(e, delta, sensitivity) * e for e in epsilons
            ],
            "sigma_eps_gaussian_classical": gaussian_sigma_classical(sensitivity, 1.0, delta),
        }
    )


def theorem3_tail_crossing() -> tuple[float, float]:
    """The t* = c/σ above which the Laplace tail e^{-√2 t} exceeds Theorem 3's bound 2e^{-t²}, and
    the p = 1 - 2e^{-t*²} that Theorem 3 assigns to it."""
    t_star = (math.sqrt(2) + math.sqrt(2 + 4 * math.log(2))) / 2
    return t_star, 1 - 2 * math.exp(-(t_star**2))


def theorem3_tail_curves(t: Sequence[float] | np.ndarray) -> pd.DataFrame:
    """Pr(|X| ≥ tσ) for Laplace and Gaussian noise against Theorem 3's bound 2e^{-t²} (capped
    at 1)."""
    t = np.asarray(t, dtype=float)
    return pd.DataFrame(
        {
            "t": t,
            "laplace": np.exp(-math.sqrt(2) * t),
            "gaussian": 2 * stats.norm.sf(t),
            "theorem3_bound": np.minimum(2 * np.exp(-(t**2)), 1),
        }
    )


def laplace_log10_tail(
    distances: Sequence[float] | np.ndarray, epsilon: float, sensitivity: float
) -> np.ndarray:
    """log₁₀ Pr(|X| ≥ b) = -bε/(Δ ln 10) for Lap(Δ/ε) noise at each b ≥ 0, from the closed form
    (scipy's log survival function underflows to -inf beyond b/λ ≈ 745)."""
    scale = laplace.scale(sensitivity, epsilon, safe_side=False)
    b = np.asarray(distances, dtype=float)
    if np.any(b < 0):
        raise ValueError(f"distances must be >= 0, got {distances!r}")
    return np.asarray(-b / scale / math.log(10))
