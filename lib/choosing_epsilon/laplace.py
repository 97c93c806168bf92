"""The Laplace mechanism: noise of scale Δ/ε, its tails and quantiles, seeded sampling, privacy-loss ratios.

Sampling, densities and distribution functions come from ``scipy.stats.laplace``. One exception:
its ``logpdf`` is the logarithm of ``pdf``, which loses precision in the subnormal range and is
-inf beyond about 745 noise scales, so posteriors at large ε need the log-density written out
(``log_density``); the tests check it against scipy wherever scipy's value is exact.
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
    return stats.laplace.rvs(loc=real("true_answer", true_answer), scale=scale(sensitivity, epsilon), size=size, random_state=rng)


def tail_probability(z: float, sensitivity: float, epsilon: float) -> float:
    """Pr(|η| ≥ z) = e^{-z/λ} for η ~ Lap(λ), λ = Δ/ε (two-sided tail)."""
    if real("z", z) < 0:
        raise ValueError(f"z must be >= 0 (allowed range [0, inf)), got {z!r}")
    return float(2 * stats.laplace.sf(z, scale=scale(sensitivity, epsilon)))


def noise_at_probability(pr: float, sensitivity: float, epsilon: float) -> float:
    """The magnitude z with Pr(|η| ≥ z) = pr, i.e. z = -(Δ/ε) ln pr."""
    p = open_unit("pr", pr)
    return float(stats.laplace.isf(p / 2, scale=scale(sensitivity, epsilon)))


def log_density(y: float | np.ndarray, center: float | np.ndarray, sensitivity: float, epsilon: float) -> np.ndarray:
    """ln of the Lap(Δ/ε) density of response y around ``center``: -|y - c|/λ - ln 2λ, finite at any distance."""
    lam = scale(sensitivity, epsilon)
    return -np.abs(np.asarray(y, dtype=float) - np.asarray(center, dtype=float)) / lam - np.log(2 * lam)


def log_survival(threshold: float, center: float, sensitivity: float, epsilon: float) -> float:
    """ln Pr[f + η > t], finite far into the tail (scipy's laplace.logsf underflows there).

    Beyond the centre the tail mass of a Laplace law equals λ times its density, so
    ln Pr = logpdf(t) + ln λ there, and ln(1 - λ·pdf(t)) on the other side.
    """
    t, c, lam = real("threshold", threshold), real("center", center), scale(sensitivity, epsilon)
    log_far = float(log_density(t, c, sensitivity, epsilon)) + np.log(lam)  # log of the smaller tail at t
    return log_far if t >= c else float(np.log1p(-np.exp(log_far)))


def tail_ratio(threshold: float, center_a: float, center_b: float, sensitivity: float, epsilon: float) -> float:
    """Pr[f_a + η > t] / Pr[f_b + η > t]: the ratio Definition 1 bounds by e^ε (Lee & Clifton Sec. 4.1)."""
    a = log_survival(threshold, center_a, sensitivity, epsilon)
    b = log_survival(threshold, center_b, sensitivity, epsilon)
    return float(np.exp(a - b))


def log_density_ratio(
    outputs: np.ndarray, center_a: float, center_b: float, sensitivity: float, epsilon: float
) -> np.ndarray:
    """Privacy loss ln(p_a(y)/p_b(y)) at each output y; ε-DP bounds it by ε when |a - b| ≤ Δ."""
    y = finite_array("outputs", np.atleast_1d(outputs))
    return log_density(y, real("center_a", center_a), sensitivity, epsilon) - log_density(y, real("center_b", center_b), sensitivity, epsilon)


_LOG_MAX = float(np.log(np.finfo(float).max))  # e^x overflows a float beyond this (about 709.78)


def exp_or_inf(x: float) -> float:
    """e^x (the ratio bound e^ε of ε-DP) as a float, inf where it exceeds the float range instead of an OverflowError."""
    x = float(x)
    return float(np.exp(x)) if x <= _LOG_MAX else float("inf")


def exp_text(x: float, spec: str = ".4g") -> str:
    """e^x as text formatted with ``spec``; outside the float range as m × 10^k, computed from x / ln 10."""
    x = real("x", x)
    if -700 <= x <= _LOG_MAX:
        return format(float(np.exp(x)), spec)
    exponent = x / np.log(10)
    k = int(np.floor(exponent))
    return f"{10 ** (exponent - k):.4f} × 10^{k}"


def check_privacy_loss(loss: np.ndarray, outputs: np.ndarray, center_a: float, center_b: float,
                       sensitivity: float, epsilon: float) -> None:
    """Raise if any privacy loss ln(p_a(y)/p_b(y)) leaves [-ε, ε] by more than the round-off of its terms |y - c|/λ + ln 2λ."""
    lam = scale(sensitivity, epsilon)
    y = np.asarray(outputs, dtype=float)
    terms = (np.abs(y - center_a) + np.abs(y - center_b) + abs(center_a - center_b)) / lam + 2 * abs(np.log(2 * lam))
    slack = 4 * np.finfo(float).eps * (terms + 1) + 1e-12 * epsilon
    excess = np.abs(np.asarray(loss, dtype=float)) - epsilon - slack
    if np.any(excess > 0):
        worst = int(np.argmax(excess))
        raise RuntimeError(
            f"privacy loss {float(np.ravel(loss)[worst])!r} at output {float(np.ravel(y)[worst])!r} exceeds epsilon = {epsilon!r}: "
            "the Laplace mechanism is mis-specified"
        )
