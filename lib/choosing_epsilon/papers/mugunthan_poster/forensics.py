"""Mugunthan, Xiao & Kagal (poster): Theorem 2 checked by another route. The poster sets the
coverage integral ∫_{-c}^{c} f(x) dx equal to p; ``confidence.theorem2_epsilon`` solves it through
the family's distribution function (in closed form for Laplace noise), and here it is solved by
quadrature of the density itself, as the poster writes it."""

from __future__ import annotations

import math

from scipy import integrate, optimize, stats
from scipy.stats import rv_continuous

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
    scale = positive("sensitivity", sensitivity) / positive("epsilon", epsilon)
    b = min(positive("c", c) / scale, float(family.isf(_TAIL_CUT)))
    value, _ = integrate.quad(family.pdf, -b, b, points=[0.0], epsabs=0, epsrel=1e-12, limit=200)
    return float(value)


def integrated_tail(
    epsilon: float, c: float, sensitivity: float, family: rv_continuous = stats.laplace
) -> float:
    """∫_{|x| > c} f(x) dx by quadrature (1 - p in Theorem 2), accurate in relative terms however
    small it is."""
    scale = positive("sensitivity", sensitivity) / positive("epsilon", epsilon)
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
