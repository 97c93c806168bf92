"""The Laplace mechanism: noise of scale Δ/ε, its tails and quantiles, seeded sampling, privacy-loss ratios.

Everything is built on ``scipy.stats.laplace``; no density is written out by hand.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ._validate import finite_array, open_unit, positive, real


def scale(sensitivity: float, epsilon: float) -> float:
    """Noise scale λ = Δf/ε of the Laplace mechanism (Dwork et al. 2006; Lee & Clifton Sec. 3)."""
    return positive("sensitivity", sensitivity) / positive("epsilon", epsilon)


def distribution(center: float, sensitivity: float, epsilon: float):
    """The response distribution f(X) + Lap(Δf/ε) as a frozen ``scipy.stats.laplace``."""
    return stats.laplace(loc=real("center", center), scale=scale(sensitivity, epsilon))


def release(
    true_answer: float, sensitivity: float, epsilon: float, rng: np.random.Generator, size: int | None = None
) -> float | np.ndarray:
    """Noisy answer(s) f(X) + Lap(Δf/ε) drawn from the seeded generator ``rng``."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return distribution(true_answer, sensitivity, epsilon).rvs(size=size, random_state=rng)


def tail_probability(z: float, sensitivity: float, epsilon: float) -> float:
    """Pr(|η| ≥ z) = e^{-z/λ} for η ~ Lap(λ), λ = Δ/ε (two-sided tail)."""
    if real("z", z) < 0:
        raise ValueError(f"z must be >= 0 (allowed range [0, inf)), got {z!r}")
    return float(2 * stats.laplace(scale=scale(sensitivity, epsilon)).sf(z))


def noise_at_probability(pr: float, sensitivity: float, epsilon: float) -> float:
    """The magnitude z with Pr(|η| ≥ z) = pr, i.e. z = -(Δ/ε) ln pr."""
    p = open_unit("pr", pr)
    return float(stats.laplace(scale=scale(sensitivity, epsilon)).isf(p / 2))


def tail_ratio(threshold: float, center_a: float, center_b: float, sensitivity: float, epsilon: float) -> float:
    """Pr[f_a + η > t] / Pr[f_b + η > t]: the ratio Definition 1 bounds by e^ε (Lee & Clifton Sec. 4.1)."""
    t = real("threshold", threshold)
    a = distribution(center_a, sensitivity, epsilon).logsf(t)
    b = distribution(center_b, sensitivity, epsilon).logsf(t)
    return float(np.exp(a - b))


def log_density_ratio(
    outputs: np.ndarray, center_a: float, center_b: float, sensitivity: float, epsilon: float
) -> np.ndarray:
    """Privacy loss ln(p_a(y)/p_b(y)) at each output y; ε-DP bounds it by ε when |a - b| ≤ Δ."""
    y = finite_array("outputs", np.atleast_1d(outputs))
    return distribution(center_a, sensitivity, epsilon).logpdf(y) - distribution(center_b, sensitivity, epsilon).logpdf(y)
