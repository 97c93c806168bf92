"""Mugunthan, Xiao & Kagal (poster): three formulas for ε from a confidence requirement on the
noise.

The requirement is that the noisy answer lands within a distance c of the true one with probability
p. For noise of standard deviation σ = M/ε (Laplace: σ = √2 Δ/ε, so M = √2 Δ):

- Theorem 1 (Chebyshev), with c = w q(D): the poster states ε ≤ M / (w q(D) √(1-p)). Chebyshev's
  inequality gives the requirement the other way round: ε ≥ that value suffices.
- Theorem 2 (exact): solve p = ∫_{-c}^{c} f(x) dx; for Laplace noise ε = -Δ ln(1-p) / c.
- Theorem 3 (McDiarmid): ε = (``|M|``/c) √(ln 2 - ln(1-p)); for Laplace (Δ/c) √(2 (ln 2 - ln(1-p))).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, optimize, stats
from scipy.stats import rv_continuous

from . import laplace
from ._validate import nonnegative, open_unit, positive


def _laplace_m(sensitivity: float) -> float:
    """M with σ = M/ε for Lap(Δ/ε): √2 Δ (the poster's Sec. III)."""
    return math.sqrt(2) * positive("sensitivity", sensitivity)


def theorem1_epsilon(sensitivity: float, w: float, query_answer: float, p: float) -> float:
    """Theorem 1 for Laplace noise: √2 Δ / (w q(D) √(1-p)), the poster's upper bound, in truth a
    lower bound (Chebyshev).

    Parameters
    ----------
    sensitivity : float
        The query's sensitivity Δ, > 0.
    w : float
        The relative distance, in (0, 1): the noise is to stay within w q(D).
    query_answer : float
        The true answer q(D), > 0.
    p : float
        The confidence, in (0, 1).

    Returns
    -------
    float
        The ε of Theorem 1 (Chebyshev), a lower bound on the ε that meets the requirement.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return _laplace_m(sensitivity) / (
        open_unit("w", w)
        * positive("query_answer", query_answer)
        * math.sqrt(1 - open_unit("p", p))
    )


def coverage(
    epsilon: float, c: float, sensitivity: float, family: rv_continuous = stats.laplace
) -> float:
    """Pr(``|X|`` < c) for noise X = (Δ/ε) Z with Z from the scipy.stats ``family`` (standard form,
    or a frozen distribution such as ``stats.t(3)``).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    c : float
        The distance, >= 0.
    sensitivity : float
        The sensitivity Δ, > 0.
    family : scipy.stats.rv_continuous
        The standard noise Z (Laplace by default), or a frozen distribution.

    Returns
    -------
    float
        The probability that ``|X|`` < c, to full relative precision when small.

    Raises
    ------
    ValueError
        If ``epsilon``, ``c`` or ``sensitivity`` is outside its range.
    """
    scale = laplace.scale(sensitivity, epsilon, safe_side=False)
    b = nonnegative("c", c) / scale
    if b == 0:
        return 0.0
    # the standard family at c/λ, not a frozen family(scale=...), which costs far more to build
    # than the two CDF values
    low, high = np.asarray(family.cdf([-b, b]))  # frozen families too
    if high - low >= 0.5:  # the difference loses at most one bit
        return float(high - low)
    # a small coverage is the difference of two nearly equal CDF values (at p = 1e-9, seven of
    # sixteen digits would be left): integrate the density instead, to full relative precision,
    # on an interval cut where the tail holds under 1e-17 (a wide one would miss a narrow peak)
    b = min(b, float(family.isf(_TAIL_CUT)))
    value, _ = integrate.quad(family.pdf, -b, b, points=[0.0], epsabs=0, epsrel=1e-13, limit=200)
    return float(value)


def miss(
    epsilon: float, c: float, sensitivity: float, family: rv_continuous = stats.laplace
) -> float:
    """Pr(``|X|`` ≥ c) = 1 - coverage, from the two tails directly so that it keeps its precision
    when tiny.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    c : float
        The distance, >= 0.
    sensitivity : float
        The sensitivity Δ, > 0.
    family : scipy.stats.rv_continuous
        The standard noise Z (Laplace by default), or a frozen distribution.

    Returns
    -------
    float
        The probability that ``|X|`` ≥ c.

    Raises
    ------
    ValueError
        If ``epsilon``, ``c`` or ``sensitivity`` is outside its range.
    """
    scale = laplace.scale(sensitivity, epsilon, safe_side=False)
    c = nonnegative("c", c)
    return float(family.cdf(-c / scale) + family.sf(c / scale))


_TAIL_CUT = 1e-17  # the tail mass left out of coverage's integral
_LOG_EPSILON_LIMIT = 700.0  # |ln ε| beyond which e^{±ln ε} over- or underflows a double


def theorem2_epsilon(
    sensitivity: float, c: float, p: float, family: rv_continuous = stats.laplace
) -> float:
    """Theorem 2: the ε at which noise (Δ/ε) Z, Z from ``family``, lands within c with
    probability p, p = ∫_{-c}^{c} f(x) dx. For Laplace noise in closed form, ε = −Δ ln(1 − p)/c;
    for another family by brentq in log ε on ``coverage`` (for p ≤ ½) or ``miss`` (above it, to
    1 − p), each then a small number with its full relative precision, so that ε is accurate
    even for p within 1e-9 of 0 or 1.

    Parameters
    ----------
    sensitivity : float
        The sensitivity Δ, > 0.
    c : float
        The distance the noise is to stay within, > 0.
    p : float
        The confidence, in (0, 1).
    family : scipy.stats.rv_continuous
        The standard noise Z (Laplace by default), or a frozen distribution.

    Returns
    -------
    float
        The ε at which the noise lands within c with probability p exactly.

    Raises
    ------
    ValueError
        If an argument is outside its range, or no ε between e^-700 and e^700 meets p.
    """
    width, c, target = positive("sensitivity", sensitivity), positive("c", c), open_unit("p", p)
    if family is stats.laplace:
        return -width * math.log1p(-target) / c

    def gap(log_eps: float) -> float:  # rises with ε
        eps = math.exp(log_eps)
        if target <= 0.5:
            return math.log(max(coverage(eps, c, width, family), 1e-320)) - math.log(target)
        return math.log(1 - target) - math.log(max(miss(eps, c, width, family), 1e-320))

    lo, hi = -1.0, 1.0
    while gap(lo) > 0:
        lo -= 2
        if lo < -_LOG_EPSILON_LIMIT:
            raise ValueError(
                f"theorem2_epsilon: no ε above e^-{_LOG_EPSILON_LIMIT:g} gives coverage p = {p!r} "
                f"for c = {c!r}, sensitivity = {sensitivity!r}"
            )
    while gap(hi) < 0:
        hi += 2
        if hi > _LOG_EPSILON_LIMIT:
            raise ValueError(
                f"theorem2_epsilon: no ε below e^{_LOG_EPSILON_LIMIT:g} gives coverage p = {p!r} "
                f"for c = {c!r}, sensitivity = {sensitivity!r}"
            )
    return math.exp(optimize.brentq(gap, lo, hi, xtol=1e-14, rtol=1e-13))


def theorem3_epsilon(sensitivity: float, c: float, p: float, m: float | None = None) -> float:
    """Theorem 3: ε = (``|M|``/c) √(ln 2 - ln(1-p)), with M = √2 Δ (Laplace) unless given.

    Parameters
    ----------
    sensitivity : float
        The sensitivity Δ, > 0.
    c : float
        The distance the noise is to stay within, > 0.
    p : float
        The confidence, in (0, 1).
    m : float, optional
        The constant M of σ = M/ε, > 0 (√2 Δ, Laplace noise's, by default).

    Returns
    -------
    float
        The ε of Theorem 3 (McDiarmid).

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    m_value = _laplace_m(sensitivity) if m is None else abs(positive("m", m))
    return m_value / positive("c", c) * math.sqrt(math.log(2) - math.log1p(-open_unit("p", p)))
