"""The privacy models and what an attacker can do under each: one module for every reading.

A guarantee is one of the models (``MODELS``): pure ε, (ε, δ), ρ-zCDP, μ-GDP (the Gaussian mechanism
with shift μ = Δ/σ) and the Laplace mechanism with shift μ = Δ/b. A test of "is this person's
record in the data?" that says "in" with false-positive rate α has a true-positive rate at most
T(α), the guarantee's bound (``tpr_bound``); 1 − T(α) is the trade-off curve (``tradeoff``; Dong,
Roth & Su 2019, f-DP). From it follow the largest advantage max_α T(α) − α (``advantage``), the
best accuracy of a guess at prior ½, and the posterior a positive test leaves from a prior. Each
value is the worst case over every mechanism with the guarantee, and some mechanism attains it
(``READINGS`` names it); for the two mechanisms, the value is the mechanism's own.

The inverses sit beside the readings: the ε whose (ε, δ) allows at most a stated risk
(``epsilon_for``; Kulynych et al. 2024, Eq. 25 and Algorithm 5), the largest shift μ a mechanism
may have (``mu_for``), and the noise that follows for a release of sensitivity Δ (``noise_for``;
``gaussian_noise_for_epsilon`` for an (ε, δ)). A calibration spends its rounding on the safe side:
each noise (or ε) is moved by units in the last place until its risk, read exactly (mpmath,
``EXACT_DIGITS``) and as the package prints it, is at most the target (``safe_side``).

A ρ-zCDP guarantee is read exactly through the test itself: the test turns the mechanism's
outputs on two neighbouring data sets into two coin flips, Bernoulli(T) and Bernoulli(α), and
zCDP's Rényi bounds D_a ≤ aρ hold for that pair in both directions at every order a > 1 (data
processing); any pair that meets them is itself a ρ-zCDP mechanism. So T(α) is the largest T
whose pair meets them (``bernoulli_zcdp_rho``). Reading ρ through its family of (ε(δ), δ)
guarantees (Canonne, Kamath & Steinke 2020, Prop. 12: ``zcdp_tpr_via_approximate``) is valid but
looser.

The readings and their inverses take many values at once, as ``tradeoff`` does: an array (or a
list) of false-positive rates, priors, shifts, numbers of candidates, or a target's levels
(``RiskTargets``), gives an array of the same shape, the arguments broadcast against each other
as numpy's are. Each element is the float that the call on that element alone gives, bit for bit;
a single number gives that float. An element outside its range is refused as a single value is,
with its position in the array.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, overload

import mpmath
import numpy as np
from scipy import integrate, optimize, special, stats

from ._validate import candidates, closed_unit, nonnegative, open_unit, positive, unit_rates

MODELS = ("pure", "approximate", "zcdp", "gdp", "laplace")
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
    "laplace": (
        "the Laplace mechanism's own curve, μ = Δ/b, exact (not pure ε-DP's randomized-response "
        "curve, which lies above it)"
    ),
}
# many values at once: an array, a list or a tuple of numbers (a text is one value)
Many = np.ndarray | Sequence[float]


def _many(x: object) -> bool:
    """Whether ``x`` holds many values: an array, a list, a tuple or a ``RiskTargets``."""
    return isinstance(x, (np.ndarray, list, tuple, RiskTargets))


def _elements(x: object) -> np.ndarray:
    """``x`` as an array of the values a call on single values takes: the targets of a
    ``RiskTargets`` one by one, any other single value (a guarantee, a name) as a 0-d array."""
    if isinstance(x, RiskTargets):
        return x.targets()
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (list, tuple)):
        try:  # the elements as given, so that each is checked as itself (True is no number)
            return np.asarray(x, dtype=object)
        except ValueError:  # a ragged list
            raise ValueError(f"an array of numbers was expected, got {x!r}") from None
    one = np.empty((), dtype=object)
    one[()] = x
    return one


def _each(function: Callable[..., Any], *args: Any) -> Any:
    """``function`` of single values called on every element of ``args``, broadcast as numpy
    broadcasts: the float array of its results, of the arguments' common shape (a float for a 0-d
    one), or the result of ``function(*args)`` itself when no argument holds many values, so that
    a single value takes the same path, bit for bit. An element ``function`` refuses is refused
    with its position in the array."""
    if not any(_many(a) for a in args):
        return function(*args)
    given = [_elements(a) for a in args]
    try:
        arrays = np.broadcast_arrays(*given)
    except ValueError:
        shapes = ", ".join(str(a.shape) for a in given if a.ndim)
        raise ValueError(f"the arrays must broadcast to one shape, got shapes {shapes}") from None
    out = np.empty(arrays[0].shape)
    for index in np.ndindex(out.shape):
        values = [a[index] for a in arrays]
        values = [v.item() if isinstance(v, np.generic) else v for v in values]
        try:
            out[index] = function(*values)
        except ValueError as error:
            where = index[0] if len(index) == 1 else index
            raise ValueError(f"{error} (at position {where} of the array)") from None
    return float(out) if out.ndim == 0 else out


# the ε grid of a zCDP guarantee's (ε(δ), δ) family: points per unit of log ε
_GRID_POINTS = 100


@dataclass(frozen=True)
class Guarantee:
    """A privacy guarantee: ``model`` one of MODELS, with its parameters (NaN where unused).
    ``mu`` is μ-GDP's μ, or the Laplace mechanism's shift Δ/b."""

    model: str
    epsilon: float = math.nan
    delta: float = math.nan
    rho: float = math.nan
    mu: float = math.nan

    def describe(self) -> str:
        """The guarantee as a reader writes it: "ε = 1", "(ε, δ) = (2.19, 1e-05)", "ρ = 2.63".

        Returns
        -------
        str
            The guarantee in a line.
        """
        if self.model == "pure":
            return f"ε = {self.epsilon:g}"
        if self.model == "approximate":
            return f"(ε, δ) = ({self.epsilon:g}, {self.delta:.3g})"
        if self.model == "zcdp":
            return f"ρ = {self.rho:g} (zCDP)"
        if self.model == "laplace":
            return f"Laplace noise, Δ/b = {self.mu:g}"
        return f"μ = {self.mu:g} (Gaussian DP)"


def pure(epsilon: float) -> Guarantee:
    """ε-differential privacy (ε ≥ 0).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, >= 0.

    Returns
    -------
    Guarantee
        The guarantee, model "pure" (δ = 0).

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite number >= 0.

    Examples
    --------
    >>> pure(1.0)
    Guarantee(model='pure', epsilon=1.0, delta=0.0, rho=nan, mu=nan)
    """
    return Guarantee("pure", epsilon=nonnegative("epsilon", epsilon), delta=0.0)


def approximate(epsilon: float, delta: float) -> Guarantee:
    """(ε, δ)-differential privacy (ε ≥ 0, 0 ≤ δ < 1).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, >= 0.
    delta : float
        The privacy parameter δ, in [0, 1).

    Returns
    -------
    Guarantee
        The guarantee, model "approximate".

    Raises
    ------
    ValueError
        If ``epsilon`` or ``delta`` is outside its range.

    Examples
    --------
    >>> approximate(2.19, 1e-5).describe()
    '(ε, δ) = (2.19, 1e-05)'
    """
    eps, d = nonnegative("epsilon", epsilon), closed_unit("delta", delta)
    if d == 1:
        raise ValueError(f"delta must lie in [0, 1) (δ = 1 promises nothing), got {delta!r}")
    return Guarantee("approximate", epsilon=eps, delta=d)


def zcdp(rho: float) -> Guarantee:
    """ρ-zero-concentrated differential privacy (Bun & Steinke 2016, Def. 1.1; ρ > 0).

    Parameters
    ----------
    rho : float
        The zCDP parameter ρ, > 0.

    Returns
    -------
    Guarantee
        The guarantee, model "zcdp".

    Raises
    ------
    ValueError
        If ``rho`` is not a finite number > 0.

    Examples
    --------
    >>> zcdp(0.5).describe()
    'ρ = 0.5 (zCDP)'
    """
    return Guarantee("zcdp", rho=positive("rho", rho))


def gdp(mu: float) -> Guarantee:
    """μ-Gaussian differential privacy (Dong, Roth & Su 2019, Def. 2.6; μ ≥ 0): the Gaussian
    mechanism with noise σ on a release of sensitivity Δ has μ = Δ/σ (their Thm. 2.7).

    Parameters
    ----------
    mu : float
        The GDP parameter μ, >= 0.

    Returns
    -------
    Guarantee
        The guarantee, model "gdp".

    Raises
    ------
    ValueError
        If ``mu`` is not a finite number >= 0.

    Examples
    --------
    >>> gdp(1.0).describe()
    'μ = 1 (Gaussian DP)'
    """
    return Guarantee("gdp", mu=nonnegative("mu", mu))


def laplace(mu: float) -> Guarantee:
    """The Laplace mechanism with noise b on a release of sensitivity Δ, shift μ = Δ/b (μ ≥ 0):
    ε-DP at ε = μ, but its own curve allows less than ε-DP's at most rates.

    Parameters
    ----------
    mu : float
        The shift μ = Δ/b, >= 0.

    Returns
    -------
    Guarantee
        The guarantee, model "laplace".

    Raises
    ------
    ValueError
        If ``mu`` is not a finite number >= 0.

    Examples
    --------
    >>> laplace(0.5).describe()
    'Laplace noise, Δ/b = 0.5'
    """
    return Guarantee("laplace", mu=nonnegative("mu", mu))


def guarantee(
    model: str,
    epsilon: float = math.nan,
    delta: float = math.nan,
    rho: float = math.nan,
    mu: float = math.nan,
) -> Guarantee:
    """The guarantee of ``model`` from the parameters it uses (the others are ignored).

    Parameters
    ----------
    model : str
        One of ``MODELS``.
    epsilon, delta, rho, mu : float
        The parameters the model uses (``pure``, ``approximate``, ``zcdp``, ``gdp``, ``laplace``).

    Returns
    -------
    Guarantee
        The guarantee.

    Raises
    ------
    ValueError
        If ``model`` is none of ``MODELS`` or a parameter it uses is out of range.

    Examples
    --------
    >>> guarantee("approximate", epsilon=1.0, delta=1e-6).describe()
    '(ε, δ) = (1, 1e-06)'
    """
    if model == "pure":
        return pure(epsilon)
    if model == "approximate":
        return approximate(epsilon, delta)
    if model == "zcdp":
        return zcdp(rho)
    if model == "gdp":
        return gdp(mu)
    if model == "laplace":
        return laplace(mu)
    raise ValueError(f"model must be one of {list(MODELS)}, got {model!r}")


# --- conversions -----------------------------------------------------------------------------


def _log_delta_at_excess(log_excess: float, rho: float, epsilon: float) -> float:
    """log of CKS's δ at the Rényi order a = 1 + e^x, x = ``log_excess``:
    (a−1)(aρ−ε) − log a + (a−1) log(1 − 1/a), with log a = log1p(e^x) and
    log(1 − 1/a) = x − log1p(e^x), exact as a approaches 1."""
    excess = math.exp(log_excess)
    log_order = math.log1p(excess)
    return excess * ((1 + excess) * rho - epsilon) - log_order + excess * (log_excess - log_order)


def _best_log_excess(rho: float, epsilon: float) -> float:
    """log(a − 1) at the order a that minimises CKS's log δ (``_log_delta_at_excess``), which is
    convex in a: the root of its derivative 2aρ − ρ − ε + log(1 − 1/a), which rises with a. In
    x = log(a − 1) the derivative is g(x) = 2ρ(1 + e^x) − ρ − ε + x − log1p(e^x), and
    g(lo) ≤ −1/2 at lo = min(ε − ρ − 1, −log 4ρ) (as g(x) ≤ x + ρ − ε + 2ρe^x), g(hi) > 0 at
    hi = max(0, log((ε + 1 + log 2)/(2ρ))) (as g(x) ≥ 2ρe^x + ρ − ε − log 2 for x ≥ 0). Newton's
    method from the middle, each step kept inside the bracket that the signs of g narrow (a step
    that would leave it bisects instead), to 1e-13 in x: log δ is flat there, its error second
    order."""
    low = min(epsilon - rho - 1, -math.log(4 * rho))
    high = max(0.0, math.log((epsilon + 1 + math.log(2)) / (2 * rho)))
    x = (low + high) / 2
    for _ in range(200):
        excess = math.exp(x)
        slope = 2 * rho * (1 + excess) - rho - epsilon + x - math.log1p(excess)
        if slope == 0:
            return x
        if slope < 0:
            low = x
        else:
            high = x
        stepped = x - slope / (2 * rho * excess + 1 / (1 + excess))
        if not low < stepped < high:
            stepped = (low + high) / 2
        if abs(stepped - x) <= 1e-13 * max(1.0, abs(x)):
            return stepped
        x = stepped
    return x


@overload
def zcdp_delta(rho: float, epsilon: float) -> float: ...
@overload
def zcdp_delta(rho: float | Many, epsilon: float | Many) -> float | np.ndarray: ...
def zcdp_delta(rho: float | Many, epsilon: float | Many) -> float | np.ndarray:
    """The δ at which ρ-zCDP gives (ε, δ)-DP (Canonne, Kamath & Steinke 2020, Prop. 12 with
    Rényi divergence aρ at order a): inf over a > 1 of e^((a−1)(aρ−ε)) (1 − 1/a)^(a−1) / a.

    Parameters
    ----------
    rho : float or array_like
        The zCDP parameter ρ, > 0.
    epsilon : float or array_like
        The ε, >= 0; the two broadcast (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The δ, in [0, 1].

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(zcdp_delta(0.5, 3.0), 6)
    0.005143
    """
    return _each(_zcdp_delta, rho, epsilon)


def _zcdp_delta(rho: float, epsilon: float) -> float:
    """``zcdp_delta`` of single values."""
    r, eps = positive("rho", rho), nonnegative("epsilon", epsilon)
    return _zcdp_delta_at_best_order(r, eps)


def _zcdp_delta_at_best_order(rho: float, epsilon: float) -> float:
    """``zcdp_delta`` of values already checked: CKS's δ at the order that minimises it."""
    log_delta = _log_delta_at_excess(_best_log_excess(rho, epsilon), rho, epsilon)
    return min(1.0, math.exp(min(log_delta, 0.0)))


@overload
def zcdp_epsilon(rho: float, delta: float) -> float: ...
@overload
def zcdp_epsilon(rho: float | Many, delta: float | Many) -> float | np.ndarray: ...
def zcdp_epsilon(rho: float | Many, delta: float | Many) -> float | np.ndarray:
    """The smallest ε at which ρ-zCDP gives (ε, δ)-DP by ``zcdp_delta`` (Canonne, Kamath &
    Steinke 2020, Prop. 12): the root of zcdp_delta(ρ, ε) = δ, at most Bun & Steinke's
    ρ + 2 √(ρ ln(1/δ)) (2016, Prop. 1.3).

    Parameters
    ----------
    rho : float or array_like
        The zCDP parameter ρ, > 0.
    delta : float or array_like
        The δ, in (0, 1); the two broadcast (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The ε, >= 0.

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(zcdp_epsilon(0.5, 1e-5), 4)
    4.7284
    """
    return _each(_zcdp_epsilon, rho, delta)


def _zcdp_epsilon(rho: float, delta: float) -> float:
    """``zcdp_epsilon`` of single values."""
    r, d = positive("rho", rho), open_unit("delta", delta)
    if zcdp_delta(r, 0.0) <= d:
        return 0.0
    top = r + 2 * math.sqrt(r * math.log(1 / d)) + 1
    return float(
        optimize.brentq(
            lambda e: math.log(zcdp_delta(r, e)) - math.log(d), 0.0, top, xtol=1e-13, rtol=1e-13
        )
    )


_LOG_SMALLEST = math.log(5e-324)  # below it e^x underflows to 0


@overload
def gdp_delta(mu: float, epsilon: float) -> float: ...
@overload
def gdp_delta(mu: float | Many, epsilon: float | Many) -> float | np.ndarray: ...
def gdp_delta(mu: float | Many, epsilon: float | Many) -> float | np.ndarray:
    """The δ at which μ-GDP gives (ε, δ)-DP, exactly (Dong, Roth & Su 2019, Cor. 2.13):
    Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).

    Parameters
    ----------
    mu : float or array_like
        The GDP parameter μ, > 0.
    epsilon : float or array_like
        The ε, >= 0; the two broadcast (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The δ, in [0, 1].

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(gdp_delta(1.0, 1.0), 4)
    0.1269
    """
    return _each(_gdp_delta, mu, epsilon)


def _gdp_delta(mu: float, epsilon: float) -> float:
    """``gdp_delta`` of single values."""
    m, eps = positive("mu", mu), nonnegative("epsilon", epsilon)
    first = stats.norm.logcdf(-eps / m + m / 2)
    if first < _LOG_SMALLEST:
        return 0.0  # δ ≤ Φ(−ε/μ + μ/2) = e^first, below the smallest double: μ far below ε
    second = eps + stats.norm.logcdf(-eps / m - m / 2)
    # the difference of two exponentials, in log space: e^first (1 − e^(second − first)), where
    # second ≤ first (δ ≥ 0); rounding in two huge logs (ε = 1e11) must not push it above
    return float(math.exp(first) * -math.expm1(min(second - first, 0.0)))


@overload
def gdp_epsilon(mu: float, delta: float) -> float: ...
@overload
def gdp_epsilon(mu: float | Many, delta: float | Many) -> float | np.ndarray: ...
def gdp_epsilon(mu: float | Many, delta: float | Many) -> float | np.ndarray:
    """The smallest ε at which μ-GDP gives (ε, δ)-DP (Dong, Roth & Su 2019, Cor. 2.13).

    Parameters
    ----------
    mu : float or array_like
        The GDP parameter μ, > 0.
    delta : float or array_like
        The δ, in (0, 1); the two broadcast (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The ε, >= 0.

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(gdp_epsilon(1.0, 1e-5), 4)
    4.3772
    """
    return _each(_gdp_epsilon, mu, delta)


def _gdp_epsilon(mu: float, delta: float) -> float:
    """``gdp_epsilon`` of single values."""
    m, d = positive("mu", mu), open_unit("delta", delta)
    if gdp_delta(m, 0.0) <= d:
        return 0.0
    top = m * m / 2 + m * math.sqrt(2 * math.log(1 / d)) + 1
    return float(optimize.brentq(lambda e: gdp_delta(m, e) - d, 0.0, top, xtol=1e-13, rtol=1e-13))


@overload
def gaussian_mu_for_rho(rho: float) -> float: ...
@overload
def gaussian_mu_for_rho(rho: float | Many) -> float | np.ndarray: ...
def gaussian_mu_for_rho(rho: float | Many) -> float | np.ndarray:
    """The μ of the Gaussian mechanism whose zCDP parameter is ρ: μ = √(2ρ) (Bun & Steinke 2016,
    Prop. 1.6, ρ = Δ²/(2σ²), and Dong, Roth & Su 2019, Thm. 2.7, μ = Δ/σ).

    Parameters
    ----------
    rho : float or array_like
        The zCDP parameter ρ, > 0 (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The μ.

    Raises
    ------
    ValueError
        If an element is not a finite number > 0.

    Examples
    --------
    >>> gaussian_mu_for_rho(0.5)
    1.0
    """
    return _each(_gaussian_mu_for_rho, rho)


def _gaussian_mu_for_rho(rho: float) -> float:
    """``gaussian_mu_for_rho`` of single values."""
    return math.sqrt(2 * positive("rho", rho))


# --- the trade-off curve ---------------------------------------------------------------------


def _approximate_tpr(epsilon: float, delta: float, fpr: float) -> float:
    """Kairouz, Oh & Viswanath (2015, Thm. 2.1): min(1, δ + e^ε α, 1 − e^−ε (1 − δ − α))."""
    return min(
        1.0,
        delta + math.exp(epsilon) * fpr if epsilon < 700 else 1.0,
        1 - math.exp(-epsilon) * (1 - delta - fpr),
    )


@overload
def zcdp_tpr_via_approximate(rho: float, fpr: float) -> float: ...
@overload
def zcdp_tpr_via_approximate(rho: float | Many, fpr: float | Many) -> float | np.ndarray: ...
def zcdp_tpr_via_approximate(rho: float | Many, fpr: float | Many) -> float | np.ndarray:
    """ρ-zCDP read through its whole family of (ε(δ), δ) guarantees (Canonne, Kamath & Steinke
    2020, Prop. 12): the least of their bounds at ``fpr``. A valid bound, but above the exact
    ``tpr_bound(zcdp(ρ), fpr)`` at every α in (0, 1): shown beside it, never used for the scale.

    Parameters
    ----------
    rho : float or array_like
        The zCDP parameter ρ, > 0.
    fpr : float or array_like
        The false-positive rate α, in [0, 1]; the two broadcast (an array gives an array of its
        shape).

    Returns
    -------
    float or numpy.ndarray
        The bound on the TPR.

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(zcdp_tpr_via_approximate(0.5, 0.01), 4), round(tpr_bound(zcdp(0.5), 0.01), 4)
    (0.1261, 0.1246)
    """
    return _each(_zcdp_tpr_via_approximate, rho, fpr)


def _zcdp_tpr_via_approximate(rho: float, fpr: float) -> float:
    """``zcdp_tpr_via_approximate`` of single values."""
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


@overload
def zcdp_advantage_via_approximate(rho: float) -> float: ...
@overload
def zcdp_advantage_via_approximate(rho: float | Many) -> float | np.ndarray: ...
def zcdp_advantage_via_approximate(rho: float | Many) -> float | np.ndarray:
    """The largest advantage that ρ-zCDP's (ε(δ), δ) family allows (``zcdp_tpr_via_approximate``
    where its symmetric curve crosses α = 1 − T(α)): above the exact ``advantage(zcdp(ρ))``.

    Parameters
    ----------
    rho : float or array_like
        The zCDP parameter ρ, > 0 (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The bound on the advantage.

    Raises
    ------
    ValueError
        If an element is not a finite number > 0.

    Examples
    --------
    >>> round(zcdp_advantage_via_approximate(0.5), 4), round(advantage(zcdp(0.5)), 4)
    (0.5439, 0.4791)
    """
    return _each(_zcdp_advantage_via_approximate, rho)


def _zcdp_advantage_via_approximate(rho: float) -> float:
    """``zcdp_advantage_via_approximate`` of single values."""
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
    return epsilons, np.array([_zcdp_delta_at_best_order(rho, float(e)) for e in epsilons])


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


def _log_moment_at(b: float, fpr: float, l1: float, l0: float, linear: float) -> float:
    """``_log_moment`` at one order, in floats: the bounded search calls it some ten thousand
    times per curve, where numpy's overhead on one-element arrays was most of the time."""
    x1, x0 = b * l1, b * l0
    if max(abs(x1), abs(x0)) < 0.5:
        return math.log1p(fpr * _expm1_minus_at(x1) + (1 - fpr) * _expm1_minus_at(x0) + b * linear)
    a, c = math.log(fpr) + x1, math.log1p(-fpr) + x0
    high, low = max(a, c), min(a, c)
    return high + math.log1p(math.exp(low - high))


def _expm1_minus_at(x: float) -> float:
    """``_expm1_minus`` of one float."""
    if abs(x) < 1e-3:
        return x * x * (1 / 2 + x * (1 / 6 + x * (1 / 24 + x / 120)))
    return math.expm1(x) - x


def _log_moment(b: np.ndarray, fpr: float, l1: float, l0: float, linear: float) -> np.ndarray:
    """K(b) = log E_Q[(P/Q)^b] for P = Bernoulli(T), Q = Bernoulli(α), from the log ratios
    l1 = log(T/α) and l0 = log((1 − T)/(1 − α)) and linear = α l1 + (1 − α) l0 (= −KL(Q‖P)).
    With T in place of α and linear = T l1 + (1 − T) l0 (= KL(P‖Q)) it is log E_P[(P/Q)^b].
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


@overload
def bernoulli_zcdp_rho(fpr: float, tpr: float) -> float: ...
@overload
def bernoulli_zcdp_rho(fpr: float | Many, tpr: float | Many) -> float | np.ndarray: ...
def bernoulli_zcdp_rho(fpr: float | Many, tpr: float | Many) -> float | np.ndarray:
    """The least ρ for which a test with rates (α, T) = (``fpr``, ``tpr``) is possible under
    ρ-zCDP: the largest D_a(P‖Q)/a or D_a(Q‖P)/a over orders a > 1 between P = Bernoulli(T) and
    Q = Bernoulli(α) (Bun & Steinke 2016, Def. 1.1, applied to the test's outcome). With
    K(b) = log E_Q[(P/Q)^b], D_a(P‖Q)/a = K(a)/(a(a − 1)) and D_a(Q‖P)/a = K(1 − a)/(a(a − 1)),
    so it is the largest K(b)/(b(b − 1)) over b outside [0, 1]; its limits at b → 1 and b → 0 are
    the two Kullback-Leibler divergences. ∞ where one outcome is certain under one hypothesis only.

    Parameters
    ----------
    fpr : float or array_like
        The test's false-positive rate α, in [0, 1].
    tpr : float or array_like
        Its true-positive rate T, in [0, 1]; the two broadcast (an array gives an array of its
        shape).

    Returns
    -------
    float or numpy.ndarray
        The least ρ (inf where the test is impossible under any ρ).

    Raises
    ------
    ValueError
        If an element is outside [0, 1], or the arrays do not broadcast.

    Examples
    --------
    >>> round(bernoulli_zcdp_rho(0.01, 0.1), 4)
    0.3991
    """
    return _each(_bernoulli_zcdp_rho, fpr, tpr)


def _bernoulli_zcdp_rho(fpr: float, tpr: float) -> float:
    """``bernoulli_zcdp_rho`` of single values."""
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

    # K(b)/(b(b − 1)) at the order b = 1 + s (side +1) or b = −s (side −1). Above 1 the moment
    # is taken under P, K(1 + s) = log E_P[(P/Q)^s], whose first-order term is s·KL(P‖Q): under
    # Q its terms of size α·l1 cancel to s·KL as s → 0, leaving a relative error (1e-9 at
    # s = 1e-7) that a search would take for a maximum above the KL limit
    def ratio(side: float, s: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):  # s(1 + s) beyond 1e308: the ratio is 0 there
            if side > 0:
                return _log_moment(s, t, l1, l0, kl_pq) / (s * (1 + s))
            return _log_moment(-s, alpha, l1, l0, linear) / (s * (1 + s))

    def ratio_at(side: float, s: float) -> float:
        if side > 0:
            return _log_moment_at(s, t, l1, l0, kl_pq) / (s * (1 + s))
        return _log_moment_at(-s, alpha, l1, l0, linear) / (s * (1 + s))

    # K(b) ≤ |b| max(|l1|, |l0|), so past |b| = 1 + that/best no order can beat the KL limits
    reach = max(abs(l1), abs(l0)) / best + 2
    steps = np.geomspace(1e-7, reach, _ORDER_POINTS)
    for side in (1.0, -1.0):
        values = ratio(side, steps)
        i = int(np.nanargmax(values))
        if not values[i] > best:
            continue
        low, high = steps[max(i - 1, 0)], steps[min(i + 1, _ORDER_POINTS - 1)]

        def negated(step: float, side: float = side) -> float:
            return -ratio_at(side, step)

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
    return _zcdp_tpr_between(rho, fpr, None)


def _zcdp_tpr_between(rho: float, fpr: float, gaps: tuple[float, float] | None) -> float:
    """``_zcdp_tpr``, its root sought first between the gaps T − α = ``gaps`` where they
    bracket it (the excess rises with the gap, so the root is the same one), else over the
    whole span."""
    if fpr in (0.0, 1.0):
        return fpr  # a test that never (always) says "in" under one hypothesis does so under both
    top = 1 - 2**-53
    if bernoulli_zcdp_rho(fpr, top) <= rho:
        return 1.0

    def excess(log_gap: float) -> float:
        return bernoulli_zcdp_rho(fpr, min(fpr + math.exp(log_gap), top)) - rho

    if gaps is not None and 0 < gaps[0] < gaps[1] < top - fpr:
        low, high = math.log(gaps[0]), math.log(gaps[1])
        bracketed = excess(low) <= 0 < excess(high)
    else:
        bracketed = False
    if not bracketed:
        # a gap below α's last bits leaves T = α, where the excess is −ρ; the widest gap may round
        # to a T an ulp below top, where the pair may still be allowed: T is 1 to double precision
        low, high = math.log(max(fpr * 1e-17, 1e-320)), math.log(top - fpr)
        if excess(high) <= 0:
            return 1.0
    log_gap = optimize.brentq(excess, low, high, xtol=1e-14, rtol=1e-15)
    return min(fpr + math.exp(log_gap), top)


def zcdp_tpr_rising(rho: float, fprs: np.ndarray) -> np.ndarray:
    """``tpr_bound(zcdp(rho), fprs)`` for rising rates α ≤ 1/2, each root bracketed by its
    neighbour's: on that half T(α) − α does not fall (T is concave, and symmetric about the
    point where α + T = 1, so its slope is 1 there), and T(α)/α does not rise (T is concave and
    T(0) ≥ 0), so T(α') − α' ≥ T(α) − α and T(α') ≤ T(α) α'/α for α' > α. Each bracket is
    checked before it is used, so a wrong one costs two evaluations, never the root.

    Parameters
    ----------
    rho : float
        The zCDP parameter ρ, > 0.
    fprs : array_like
        The false-positive rates, rising strictly within (0, 1/2].

    Returns
    -------
    numpy.ndarray
        The TPR bound at each rate.

    Raises
    ------
    ValueError
        If ``rho`` is not > 0 or the rates do not rise strictly within (0, 1/2].

    Examples
    --------
    >>> zcdp_tpr_rising(0.5, [0.01, 0.1]).round(4).tolist()
    [0.1246, 0.4837]
    """
    r = positive("rho", rho)
    rates = np.asarray(fprs, dtype=float)
    if rates.ndim != 1 or np.any(np.diff(rates) <= 0) or not 0 < rates[0] <= rates[-1] <= 0.5:
        raise ValueError("fprs must rise strictly within (0, 1/2]")
    out = np.empty_like(rates)
    for i, alpha in enumerate(rates):
        gaps = None
        if i and out[i - 1] < 1.0:
            gaps = (out[i - 1] - rates[i - 1], out[i - 1] * alpha / rates[i - 1] - alpha)
        out[i] = _zcdp_tpr_between(r, float(alpha), gaps)
    return out


def _zcdp_advantage(rho: float) -> float:
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


def _laplace_tpr(mu: float, fpr: float | np.ndarray) -> float | np.ndarray:
    """1 − F(F⁻¹(1 − α) − μ), F the standard Laplace distribution function: the threshold test
    between Laplace(0, 1) and Laplace(μ, 1), the best one (a shift of a log-concave density has
    a monotone likelihood ratio, so Neyman and Pearson's lemma applies)."""
    return stats.laplace.sf(stats.laplace.isf(fpr) - mu)


@overload
def tpr_bound(g: Guarantee, fpr: float) -> float: ...
@overload
def tpr_bound(g: Guarantee, fpr: float | Many) -> float | np.ndarray: ...
def tpr_bound(g: Guarantee, fpr: float | Many) -> float | np.ndarray:
    """The largest true-positive rate of a membership test with false-positive rate ``fpr``
    under ``g``, exactly: (ε, δ) by Kairouz, Oh & Viswanath's Thm. 2.1, μ-GDP by Φ(Φ⁻¹(α) + μ)
    (Dong, Roth & Su, Eq. (2.4)), ρ-zCDP by the Rényi bounds on the test's two outcomes
    (``bernoulli_zcdp_rho``), the Laplace mechanism by its threshold test.

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    fpr : float or array_like
        The false-positive rate α, in [0, 1] (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The largest TPR.

    Raises
    ------
    ValueError
        If a rate lies outside [0, 1].

    Examples
    --------
    >>> round(tpr_bound(gdp(1.0), 0.01), 4)
    0.0924
    >>> tpr_bound(gdp(1.0), [0.001, 0.01, 0.1]).round(4).tolist()
    [0.0183, 0.0924, 0.3891]
    """
    if _many(fpr) and g.model in _CLOSED_FORMS:
        # the closed forms at once: every element checked as one value is, then numpy's
        # operations, one for each of the single value's (the same float, element by element)
        alpha = _rates(fpr)
        if g.model == "gdp":
            value = np.asarray(stats.norm.cdf(stats.norm.ppf(alpha) + g.mu), dtype=float)
        elif g.model == "laplace":
            value = np.asarray(_laplace_tpr(g.mu, alpha), dtype=float)
        else:
            e, d = g.epsilon, g.delta
            first = d + math.exp(e) * alpha if e < 700 else np.ones_like(alpha)
            value = np.minimum(np.minimum(1.0, first), 1 - math.exp(-e) * (1 - d - alpha))
        return float(value) if value.ndim == 0 else value
    return _each(_tpr_bound, g, fpr)


# the models whose bound is a closed form, read for many rates at once
_CLOSED_FORMS = ("pure", "approximate", "gdp", "laplace")


def _rates(fpr: float | Many) -> np.ndarray:
    """Many false-positive rates as a float array, each checked as ``closed_unit`` checks one: a
    numeric array whose every element lies in [0, 1] at once, anything else element by element
    (which names the first bad one)."""
    if isinstance(fpr, np.ndarray) and fpr.dtype.kind in "fiu":
        rates = fpr.astype(float)
        if np.all((rates >= 0) & (rates <= 1)):  # NaN fails both
            return rates
    return np.asarray(_each(lambda x: closed_unit("fpr", x), fpr), dtype=float)


def _tpr_bound(g: Guarantee, fpr: float) -> float:
    """``tpr_bound`` of single values."""
    alpha = closed_unit("fpr", fpr)
    if g.model in ("pure", "approximate"):
        return _approximate_tpr(g.epsilon, g.delta, alpha)
    if g.model == "gdp":
        return float(stats.norm.cdf(stats.norm.ppf(alpha) + g.mu))
    if g.model == "laplace":
        return float(_laplace_tpr(g.mu, alpha))
    if g.model == "zcdp":
        return _zcdp_tpr(g.rho, alpha)
    raise ValueError(f"g.model must be one of {list(MODELS)}, got {g.model!r}")


def tradeoff(g: Guarantee, fprs: float | Sequence[float] | np.ndarray) -> float | np.ndarray:
    """The trade-off curve of ``g``: the least false-negative rate 1 − T(α) at each false-positive
    rate α of ``fprs`` (Dong, Roth & Su 2019, Def. 2.1); a float for one α. In closed form for
    every model but ρ-zCDP: (ε, δ) max{0, 1 − δ − e^ε α, e^−ε (1 − δ − α)} (Kulynych et al.,
    Eq. 5), μ-GDP Φ(Φ⁻¹(1 − α) − μ) (their Eq. 49).

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    fprs : float or array_like
        The false-positive rates, in [0, 1].

    Returns
    -------
    float or numpy.ndarray
        The least false-negative rate at each rate (a float for one rate).

    Raises
    ------
    ValueError
        If a rate lies outside [0, 1].

    Examples
    --------
    >>> tradeoff(pure(1.0), [0.0, 0.1, 0.5]).round(4).tolist()
    [1.0, 0.7282, 0.1839]
    """
    a = unit_rates("fprs", fprs)
    if g.model in ("pure", "approximate"):
        with np.errstate(over="ignore"):
            first = 1 - g.delta - np.exp(g.epsilon) * a if g.epsilon < 700 else np.zeros_like(a)
        value = np.maximum.reduce(
            [np.zeros_like(a), first, math.exp(-g.epsilon) * (1 - g.delta - a)]
        )
    elif g.model == "gdp":
        value = stats.norm.cdf(stats.norm.isf(a) - g.mu)
    elif g.model == "laplace":
        value = 1 - _laplace_tpr(g.mu, a)
    else:
        value = 1 - np.asarray(_each(_tpr_bound, g, a))
    return float(value) if np.ndim(value) == 0 else np.asarray(value)


def advantage(g: Guarantee) -> float:
    """The largest advantage TPR − FPR of a membership test under ``g``, in closed form: pure ε,
    tanh(ε/2) = (e^ε − 1)/(e^ε + 1); (ε, δ), (e^ε − 1 + 2δ)/(e^ε + 1) (Kairouz, Oh & Viswanath's
    curve at its crossing of α = 1 − T(α); Kulynych et al., Eq. 8); μ-GDP, 2Φ(μ/2) − 1 written
    erf(μ/(2√2)) to keep its digits near 0 (Dong, Roth & Su, Cor. 2.13 at ε = 0); the Laplace
    mechanism, its total variation 1 − e^(−μ/2); ρ-zCDP, ``_zcdp_advantage``.

    Parameters
    ----------
    g : Guarantee
        The guarantee.

    Returns
    -------
    float
        The largest advantage, in [0, 1].

    Raises
    ------
    ValueError
        If ``g.model`` is none of ``MODELS``.

    Examples
    --------
    >>> round(advantage(pure(1.0)), 4)
    0.4621
    """
    if g.model == "pure":
        return math.tanh(g.epsilon / 2)
    if g.model == "approximate":
        # 1 − 2(1 − δ)/(e^ε + 1), which stays exact where e^ε overflows
        return 1 - 2 * (1 - g.delta) / (math.exp(g.epsilon) + 1) if g.epsilon < 700 else 1.0
    if g.model == "gdp":
        return math.erf(g.mu / (2 * math.sqrt(2)))
    if g.model == "laplace":
        return -math.expm1(-g.mu / 2)
    if g.model == "zcdp":
        return _zcdp_advantage(g.rho)
    raise ValueError(f"g.model must be one of {list(MODELS)}, got {g.model!r}")


def accuracy_at_half(g: Guarantee) -> float:
    """The best accuracy of a guess "in" or "out" when either is equally likely beforehand:
    (1 + advantage)/2 (pure ε: e^ε/(1 + e^ε), the truth rate of randomized response).

    Parameters
    ----------
    g : Guarantee
        The guarantee.

    Returns
    -------
    float
        The best accuracy, in [1/2, 1].

    Raises
    ------
    ValueError
        If ``g.model`` is none of ``MODELS``.

    Examples
    --------
    >>> round(accuracy_at_half(pure(1.0)), 4)
    0.7311
    """
    return accuracy_from_advantage(advantage(g))


def accuracy_from_advantage(largest_advantage: float) -> float:
    """The best accuracy of a guess at prior ½ from the largest advantage TPR − FPR of any test:
    (1 + advantage)/2, the test's TPR and TNR averaged at its best threshold.

    Parameters
    ----------
    largest_advantage : float
        The largest advantage of any test, in [0, 1].

    Returns
    -------
    float
        The best accuracy at prior ½.

    Examples
    --------
    >>> accuracy_from_advantage(0.25)
    0.625
    """
    return (1 + largest_advantage) / 2


@overload
def posterior_after_positive(g: Guarantee, prior: float, fpr: float) -> float: ...
@overload
def posterior_after_positive(
    g: Guarantee, prior: float | Many, fpr: float | Many
) -> float | np.ndarray: ...
def posterior_after_positive(
    g: Guarantee, prior: float | Many, fpr: float | Many
) -> float | np.ndarray:
    """The posterior that the person is in the data after a test at false-positive rate ``fpr``
    says "in": p T(α) / (p T(α) + (1 − p) α), from prior p.

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    prior : float or array_like
        The prior p, in (0, 1).
    fpr : float or array_like
        The test's false-positive rate α, in (0, 1]; the two broadcast (an array gives an array of
        its shape).

    Returns
    -------
    float or numpy.ndarray
        The posterior.

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(posterior_after_positive(gdp(1.0), 0.5, 0.01), 4)
    0.9023
    >>> posterior_after_positive(gdp(1.0), [0.01, 0.5], 0.01).round(4).tolist()
    [0.0853, 0.9023]
    """
    return _each(_posterior_after_positive, g, prior, fpr)


def _posterior_after_positive(g: Guarantee, prior: float, fpr: float) -> float:
    """``posterior_after_positive`` of single values."""
    p, alpha = open_unit("prior", prior), positive("fpr", fpr)
    if alpha > 1:
        raise ValueError(f"fpr must lie in (0, 1], got {fpr!r}")
    tpr = tpr_bound(g, alpha)
    return p * tpr / (p * tpr + (1 - p) * alpha)


@overload
def largest_posterior(g: Guarantee, prior: float) -> float: ...
@overload
def largest_posterior(g: Guarantee, prior: float | Many) -> float | np.ndarray: ...
def largest_posterior(g: Guarantee, prior: float | Many) -> float | np.ndarray:
    """The largest posterior a positive test can leave from prior p: p e^ε/(1 − p + p e^ε) under
    pure ε and for the Laplace mechanism at ε = μ (Bayes' rule with the likelihood ratio at most
    e^ε, which the Laplace tails attain); 1 for every other model, whose bound T(α)/α grows
    without limit as α → 0 (certainty on an event of small probability).

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    prior : float or array_like
        The prior p, in (0, 1) (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The largest posterior.

    Raises
    ------
    ValueError
        If a prior lies outside (0, 1).

    Examples
    --------
    >>> round(largest_posterior(pure(1.0), 0.1), 4)
    0.232
    """
    return _each(_largest_posterior, g, prior)


def _largest_posterior(g: Guarantee, prior: float) -> float:
    """``largest_posterior`` of single values."""
    p = open_unit("prior", prior)
    if g.model not in ("pure", "laplace"):
        return 1.0
    ratio = g.epsilon if g.model == "pure" else g.mu
    log_odds = math.log(p) - math.log1p(-p) + ratio
    return 1 / (1 + math.exp(-log_odds))


def in_100(probability: float) -> str:
    """A probability as readers read it best (Nanayakkara et al. 2023): "73 in 100".

    Parameters
    ----------
    probability : float
        The probability, in [0, 1].

    Returns
    -------
    str
        "k in 100", or "more than 99 in 100" where it rounds to 100.

    Raises
    ------
    ValueError
        If ``probability`` lies outside [0, 1].

    Examples
    --------
    >>> in_100(accuracy_at_half(pure(1.0)))
    '73 in 100'
    """
    q = closed_unit("probability", probability)
    count = round(100 * q)
    if count == 100:
        return "more than 99 in 100"  # no finite guarantee makes a guess certain
    return f"{count} in 100"


# the candidates among which ``summary`` reads the chance to single one out: the synthesis's
# default (its parameter ``singling_out_among``)
SUMMARY_CANDIDATES = 10


def summary(g: Guarantee, k: int = SUMMARY_CANDIDATES) -> dict[str, float]:
    """The scale's numbers for ``g``: advantage, TPR at FPR 1% and 0.1%, accuracy at prior ½, and
    the chance to single out one of ``k`` candidates, its bound and what a mechanism with the
    guarantee attains (``singling_out``), under the keys ``single_out_<k>_bound`` and
    ``single_out_<k>_attained``.

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    k : int
        The candidates to single one out of, at least 2.

    Returns
    -------
    dict of str to float
        The readings, by name.

    Raises
    ------
    ValueError
        If ``k`` is not an integer of at least 2.

    Examples
    --------
    >>> [round(v, 4) for v in summary(gdp(1.0)).values()]
    [0.3829, 0.0924, 0.0183, 0.6915, 0.3891, 0.2533]
    """
    adv = advantage(g)
    found = singling_out(g, k)
    return {
        "advantage": adv,
        "tpr_at_fpr_1pct": tpr_bound(g, 0.01),
        "tpr_at_fpr_0.1pct": tpr_bound(g, 0.001),
        "accuracy_at_half": accuracy_from_advantage(adv),
        f"single_out_{found.k}_bound": found.bound,
        f"single_out_{found.k}_attained": found.attained,
    }


# --- a stated risk, and the ε or the noise that keeps to it -------------------------------------

TARGET_KINDS = ("advantage", "tpr", "singling_out")  # what a ``RiskTarget`` may bound
MECHANISMS = {"Gaussian": "gdp", "Laplace": "laplace"}  # a mechanism's name and its model


@dataclass(frozen=True)
class RiskTarget:
    """The attack risk a reader accepts: ``kind`` 'advantage' (``value`` = η), 'tpr' (``value`` =
    t at false-positive rate ``fpr``) or 'singling_out' (``value`` = the chance γ of picking one
    of ``candidates`` = k people out, read at the baseline ``fpr`` = 1/k: its bound is the TPR
    there, so every reading and inverse of a TPR serves it)."""

    kind: str
    value: float
    fpr: float = math.nan
    candidates: int = 0

    def __post_init__(self) -> None:
        if self.kind == "advantage":
            open_unit("max_advantage", self.value)
        elif self.kind == "singling_out":
            n, g = candidates(self.candidates), open_unit("max_success", self.value)
            if not g > 1 / n:
                raise ValueError(
                    f"max_success must exceed the chance of a blind guess among {n}, 1/{n} = "
                    f"{1 / n:.6g} (no noise is needed to allow it), got {g!r}"
                )
            object.__setattr__(self, "fpr", 1 / n)
        elif self.kind == "tpr":
            a, t = open_unit("fpr", self.fpr), open_unit("max_tpr", self.value)
            if not t > a:
                raise ValueError(
                    f"max_tpr must exceed fpr = {a!r} (a test with TPR ≤ FPR learns nothing: no "
                    f"finite noise is needed to allow it, and none reaches it below), got {t!r}"
                )
        else:
            raise ValueError(f"kind must be one of {list(TARGET_KINDS)}, got {self.kind!r}")

    def describe(self) -> str:
        """The risk in a line: "advantage ≤ 0.25", "TPR ≤ 0.1 at FPR 0.01".

        Returns
        -------
        str
            The risk in a line.
        """
        if self.kind == "advantage":
            return f"advantage ≤ {self.value:g}"
        if self.kind == "singling_out":
            return f"success ≤ {self.value:g} singling out one of {self.candidates}"
        return f"TPR ≤ {self.value:g} at FPR {self.fpr:g}"


@dataclass(frozen=True, eq=False)
class RiskTargets(RiskTarget):
    """Many risks of one kind at once: a ``RiskTarget`` whose ``value`` (and, for 'tpr', ``fpr``)
    is an array, each element (the two broadcast against each other) a risk that ``RiskTarget``
    accepts. ``at_most_advantage``, ``at_most_tpr`` and ``at_most_singling_out`` return one for
    an array, and every reading and inverse of a target then gives an array of its ``shape``."""

    def __post_init__(self) -> None:
        # each element is checked as a target of its own (its position named where it fails)
        kind, k = self.kind, self.candidates
        fprs = np.asarray(_each(lambda v, a: RiskTarget(kind, v, a, k).fpr, self.value, self.fpr))
        values = np.broadcast_to(np.asarray(self.value, dtype=float), fprs.shape).copy()
        for name, array in (("value", values), ("fpr", fprs)):
            array.flags.writeable = False
            object.__setattr__(self, name, array)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the levels (and of every reading of them)."""
        return tuple(np.shape(self.value))

    def targets(self) -> np.ndarray:
        """The risks one by one: an array of ``RiskTarget``, of the levels' shape.

        Returns
        -------
        numpy.ndarray
            An object array of ``RiskTarget``, of the levels' shape.
        """
        values, fprs = np.asarray(self.value), np.asarray(self.fpr)
        out = np.empty(self.shape, dtype=object)
        for index in np.ndindex(self.shape):
            out[index] = RiskTarget(
                self.kind, float(values[index]), float(fprs[index]), self.candidates
            )
        return out

    def describe(self) -> str:
        """The risks in a line, one after the other: "advantage ≤ 0.1; advantage ≤ 0.25".

        Returns
        -------
        str
            The risks in a line.
        """
        return "; ".join(t.describe() for t in self.targets().flat)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RiskTargets)
            and (self.kind, self.candidates) == (other.kind, other.candidates)
            and np.array_equal(self.value, other.value)
            and np.array_equal(self.fpr, other.fpr, equal_nan=True)
        )

    def __hash__(self) -> int:
        values, fprs = np.asarray(self.value), np.asarray(self.fpr)
        return hash((self.kind, self.candidates, self.shape, values.tobytes(), fprs.tobytes()))


@overload
def at_most_advantage(max_advantage: float) -> RiskTarget: ...
@overload
def at_most_advantage(max_advantage: Many) -> RiskTargets: ...
def at_most_advantage(max_advantage: float | Many) -> RiskTarget:
    """The risk "no test gains more than ``max_advantage`` = TPR − FPR" (``RiskTargets`` for an
    array of levels).

    Parameters
    ----------
    max_advantage : float or array_like
        The largest advantage η accepted, in (0, 1).

    Returns
    -------
    RiskTarget or RiskTargets
        The stated risk (many for an array).

    Raises
    ------
    ValueError
        If a level lies outside (0, 1).

    Examples
    --------
    >>> at_most_advantage(0.25).describe()
    'advantage ≤ 0.25'
    >>> at_most_advantage([0.1, 0.25]).describe()
    'advantage ≤ 0.1; advantage ≤ 0.25'
    """
    if _many(max_advantage):
        return RiskTargets("advantage", max_advantage)  # type: ignore[arg-type]
    return RiskTarget("advantage", max_advantage)  # type: ignore[arg-type]


@overload
def at_most_tpr(max_tpr: float, fpr: float) -> RiskTarget: ...
@overload
def at_most_tpr(max_tpr: Many, fpr: float | Many) -> RiskTargets: ...
@overload
def at_most_tpr(max_tpr: float | Many, fpr: Many) -> RiskTargets: ...
def at_most_tpr(max_tpr: float | Many, fpr: float | Many) -> RiskTarget:
    """The risk "no test with false-positive rate ``fpr`` has a TPR above ``max_tpr``"
    (``RiskTargets`` where either is an array).

    Parameters
    ----------
    max_tpr : float or array_like
        The largest TPR t accepted, in (0, 1), above ``fpr``.
    fpr : float or array_like
        The false-positive rate α it is read at, in (0, 1); the two broadcast.

    Returns
    -------
    RiskTarget or RiskTargets
        The stated risk (many where either is an array).

    Raises
    ------
    ValueError
        If a level or a rate lies outside (0, 1), a TPR does not exceed its rate, or the arrays do
        not broadcast.

    Examples
    --------
    >>> at_most_tpr(0.1, 0.01).describe()
    'TPR ≤ 0.1 at FPR 0.01'
    """
    if _many(max_tpr) or _many(fpr):
        return RiskTargets("tpr", max_tpr, fpr)  # type: ignore[arg-type]
    return RiskTarget("tpr", max_tpr, fpr)  # type: ignore[arg-type]


@overload
def at_most_singling_out(max_success: float, k: int) -> RiskTarget: ...
@overload
def at_most_singling_out(max_success: Many, k: int) -> RiskTargets: ...
def at_most_singling_out(max_success: float | Many, k: int) -> RiskTarget:
    """The risk "no attacker picks the right one of ``k`` candidates with a chance above
    ``max_success``", read by its bound, 1 − f(1/k) (``singling_out``; ``RiskTargets`` for an
    array of chances).

    Parameters
    ----------
    max_success : float or array_like
        The largest chance γ accepted, in (1/k, 1).
    k : int
        The number of candidates, at least 2.

    Returns
    -------
    RiskTarget or RiskTargets
        The stated risk (many for an array).

    Raises
    ------
    ValueError
        If ``k`` is not an integer of at least 2 or a chance lies outside (1/k, 1).

    Examples
    --------
    >>> at_most_singling_out(0.5, 10).describe()
    'success ≤ 0.5 singling out one of 10'
    """
    if _many(max_success):
        return RiskTargets("singling_out", max_success, candidates=k)  # type: ignore[arg-type]
    return RiskTarget("singling_out", max_success, candidates=k)  # type: ignore[arg-type]


@overload
def reading(g: Guarantee, target: RiskTargets) -> np.ndarray: ...  # type: ignore[overload-overlap]
@overload
def reading(g: Guarantee, target: RiskTarget) -> float: ...
def reading(g: Guarantee, target: RiskTarget) -> float | np.ndarray:
    """The risk ``target`` measures, read off ``g``: its advantage, or its TPR at the target's FPR.

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    target : RiskTarget or RiskTargets
        The stated risk (``at_most_advantage``, ``at_most_tpr``, ``at_most_singling_out``); many
        targets give an array of their shape.

    Returns
    -------
    float or numpy.ndarray
        The advantage, or the TPR at the target's FPR.

    Examples
    --------
    >>> round(reading(gdp(1.0), at_most_tpr(0.1, 0.01)), 4)
    0.0924
    """
    return _each(_reading, g, target)


def _reading(g: Guarantee, target: RiskTarget) -> float:
    """``reading`` of single values."""
    return advantage(g) if target.kind == "advantage" else tpr_bound(g, target.fpr)


@overload
def epsilon_for(target: RiskTargets, delta: float | Many = ...) -> np.ndarray: ...  # type: ignore[overload-overlap]
@overload
def epsilon_for(target: RiskTarget, delta: float = ...) -> float: ...
@overload
def epsilon_for(target: RiskTarget, delta: float | Many = ...) -> float | np.ndarray: ...
def epsilon_for(target: RiskTarget, delta: float | Many = 0.0) -> float | np.ndarray:
    """The largest ε at which (ε, δ)-DP allows at most ``target``: log((1 + η − 2δ)/(1 − η)) for an
    advantage η (Kulynych et al., Eq. 25), and for a TPR t at FPR α the largest ε whose Eq. (5)
    curve keeps it, max{log((t − δ)/α), log((1 − δ − α)/(1 − t))} (their Algorithm 5); NaN where no
    ε ≥ 0 does, since (0, δ)-DP already allows advantage δ and TPR α + δ. The ε is moved down by
    units in the last place until its risk, read exactly and as printed, is at most the target.

    Parameters
    ----------
    target : RiskTarget or RiskTargets
        The stated risk (``at_most_advantage``, ``at_most_tpr``, ``at_most_singling_out``); many
        targets give an array of their shape.
    delta : float or array_like
        The δ of the (ε, δ) guarantee, in [0, 1); broadcast against the targets.

    Returns
    -------
    float or numpy.ndarray
        The largest ε (NaN where no ε >= 0 keeps to the target).

    Raises
    ------
    ValueError
        If ``delta`` lies outside [0, 1).

    Examples
    --------
    >>> round(epsilon_for(at_most_advantage(0.25)), 4)
    0.5108
    >>> epsilon_for(at_most_advantage([0.1, 0.25])).round(4).tolist()
    [0.2007, 0.5108]
    """
    return _each(_epsilon_for, target, delta)


def _epsilon_for(target: RiskTarget, delta: float = 0.0) -> float:
    """``epsilon_for`` of single values."""
    d = closed_unit("delta", delta)
    if d >= 1:
        raise ValueError(f"delta must lie in [0, 1), got {delta!r}")
    if target.kind == "advantage":
        eta = target.value
        if not eta > d:
            return math.nan
        start = math.log((1 + eta - 2 * d) / (1 - eta))
    else:
        a, t = target.fpr, target.value
        if not t > a + d:
            return math.nan
        start = max(math.log((t - d) / a), math.log((1 - d - a) / (1 - t)))
    readings = (
        lambda e: exact_reading(Guarantee("approximate", epsilon=max(e, 0.0), delta=d), target),
        lambda e: reading(approximate(max(e, 0.0), d), target),
    )
    return max(safe_side(start, target.value, readings, toward=-math.inf), 0.0)


@overload
def epsilon_for_posterior(prior: float, threshold: float) -> float: ...
@overload
def epsilon_for_posterior(prior: float | Many, threshold: float | Many) -> float | np.ndarray: ...
def epsilon_for_posterior(prior: float | Many, threshold: float | Many) -> float | np.ndarray:
    """The largest ε whose largest posterior from ``prior`` stays ≤ ``threshold``:
    ln(t (1 − p) / (p (1 − t))).

    Parameters
    ----------
    prior : float or array_like
        The prior p, in (0, 1).
    threshold : float or array_like
        The largest posterior t accepted, in (p, 1); the two broadcast (an array gives an array of
        its shape).

    Returns
    -------
    float or numpy.ndarray
        The largest ε.

    Raises
    ------
    ValueError
        If a prior or a threshold lies outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(epsilon_for_posterior(0.5, 0.75), 4)
    1.0986
    """
    return _each(_epsilon_for_posterior, prior, threshold)


def _epsilon_for_posterior(prior: float, threshold: float) -> float:
    """``epsilon_for_posterior`` of single values."""
    p, t = open_unit("prior", prior), open_unit("threshold", threshold)
    if not t > p:
        raise ValueError(
            f"threshold must exceed the prior {prior!r} (allowed range ({prior!r}, 1)), "
            f"got {threshold!r}"
        )
    return math.log(t) - math.log1p(-t) - (math.log(p) - math.log1p(-p))


@overload
def mu_for(mechanism: str, target: RiskTargets) -> np.ndarray: ...  # type: ignore[overload-overlap]
@overload
def mu_for(mechanism: str, target: RiskTarget) -> float: ...
def mu_for(mechanism: str, target: RiskTarget) -> float | np.ndarray:
    """The largest shift μ = Δ/noise at which ``mechanism`` ('Gaussian' or 'Laplace') allows
    exactly ``target`` on its own curve: for the Gaussian 2√2 erf⁻¹(η) and Φ⁻¹(1 − α) + Φ⁻¹(t)
    (Kulynych et al., Corollaries G.2 and G.3), for the Laplace −2 log(1 − η) and
    F⁻¹(1 − α) + F⁻¹(t), F the standard Laplace distribution function.

    Parameters
    ----------
    mechanism : {"Gaussian", "Laplace"}
        The mechanism, by name (``MECHANISMS``).
    target : RiskTarget or RiskTargets
        The stated risk (``at_most_advantage``, ``at_most_tpr``, ``at_most_singling_out``); many
        targets give an array of their shape.

    Returns
    -------
    float or numpy.ndarray
        The largest shift μ.

    Raises
    ------
    ValueError
        If ``mechanism`` is neither "Gaussian" nor "Laplace".

    Examples
    --------
    >>> round(mu_for("Gaussian", at_most_advantage(0.25)), 4)
    0.6373
    """
    return _each(_mu_for, mechanism, target)


def _mu_for(mechanism: str, target: RiskTarget) -> float:
    """``mu_for`` of single values."""
    model = _model(mechanism)
    if target.kind == "advantage":
        eta = target.value
        if model == "gdp":
            return float(2 * math.sqrt(2) * special.erfinv(eta))
        return -2 * math.log1p(-eta)
    family = stats.norm if model == "gdp" else stats.laplace
    return float(family.isf(target.fpr) + family.ppf(target.value))


@overload
def noise_for(  # type: ignore[overload-overlap]
    mechanism: str, target: RiskTargets, sensitivity: float | Many = ...
) -> np.ndarray: ...
@overload
def noise_for(mechanism: str, target: RiskTarget, sensitivity: float = ...) -> float: ...
@overload
def noise_for(
    mechanism: str, target: RiskTarget, sensitivity: float | Many = ...
) -> float | np.ndarray: ...
def noise_for(
    mechanism: str, target: RiskTarget, sensitivity: float | Many = 1.0
) -> float | np.ndarray:
    """The least noise (σ or b) of ``mechanism`` on a release of sensitivity Δ that allows at
    most ``target`` on the mechanism's own curve (the attack-aware calibration, Kulynych et al.,
    Eqs. 13 and 18): Δ/``mu_for``, moved up to the safe side.

    Parameters
    ----------
    mechanism : {"Gaussian", "Laplace"}
        The mechanism, by name (``MECHANISMS``).
    target : RiskTarget or RiskTargets
        The stated risk (``at_most_advantage``, ``at_most_tpr``, ``at_most_singling_out``); many
        targets give an array of their shape.
    sensitivity : float or array_like
        The release's sensitivity Δ, > 0; broadcast against the targets.

    Returns
    -------
    float or numpy.ndarray
        The least noise σ (Gaussian) or b (Laplace).

    Raises
    ------
    ValueError
        If ``mechanism`` is neither "Gaussian" nor "Laplace", or a sensitivity is not > 0.

    Examples
    --------
    >>> round(noise_for("Gaussian", at_most_advantage(0.25)), 4)
    1.5692
    >>> noise_for("Gaussian", at_most_tpr([0.05, 0.1], 0.01)).round(4).tolist()
    [1.4674, 0.9571]
    """
    return _each(_noise_for, mechanism, target, sensitivity)


def _noise_for(mechanism: str, target: RiskTarget, sensitivity: float = 1.0) -> float:
    """``noise_for`` of single values."""
    model, width = _model(mechanism), positive("sensitivity", sensitivity)
    readings = (
        lambda n: exact_reading(Guarantee(model, mu=as_exact(width) / as_exact(n)), target),
        lambda n: reading(Guarantee(model, mu=width / n), target),
    )
    return safe_side(width / mu_for(mechanism, target), target.value, readings)


@overload
def gdp_mu_for_epsilon_delta(epsilon: float, delta: float) -> float: ...
@overload
def gdp_mu_for_epsilon_delta(epsilon: float | Many, delta: float | Many) -> float | np.ndarray: ...
def gdp_mu_for_epsilon_delta(epsilon: float | Many, delta: float | Many) -> float | np.ndarray:
    """The largest μ at which μ-GDP (the Gaussian mechanism with σ = Δ/μ) is (ε, δ)-DP: the root
    of ``gdp_delta(μ, ε)`` = δ (Balle & Wang 2018's analytic Gaussian mechanism), found in log μ
    from μ = 1e-300 (δ(0) ≈ μφ(0), so a δ of 1e-12 at ε = 0 needs μ near 2.5e-12).

    Parameters
    ----------
    epsilon : float or array_like
        The ε, >= 0.
    delta : float or array_like
        The δ, in (0, 1); the two broadcast (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The largest μ.

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(gdp_mu_for_epsilon_delta(1.0, 1e-5), 4)
    0.2681
    """
    return _each(_gdp_mu_for_epsilon_delta, epsilon, delta)


def _gdp_mu_for_epsilon_delta(epsilon: float, delta: float) -> float:
    """``gdp_mu_for_epsilon_delta`` of single values."""
    e, d = nonnegative("epsilon", epsilon), open_unit("delta", delta)
    # δ(μ, ε) rises to 1 with μ: the upper end starts at μ = 1e3 or √(2ε), where the first term
    # of δ is ½ already (beyond ε ≈ 5e5 the root lies above μ = 1e3), and grows until it passes δ
    log_high = math.log(max(1e3, math.sqrt(2 * e)))
    while gdp_delta(math.exp(log_high), e) <= d:
        log_high += 1.0
    log_mu = optimize.brentq(lambda t: gdp_delta(math.exp(t), e) - d, -690.0, log_high, xtol=1e-15)
    return math.exp(log_mu)


@overload
def gaussian_noise_for_epsilon(epsilon: float, delta: float, sensitivity: float = ...) -> float: ...
@overload
def gaussian_noise_for_epsilon(
    epsilon: float | Many, delta: float | Many, sensitivity: float | Many = ...
) -> float | np.ndarray: ...
def gaussian_noise_for_epsilon(
    epsilon: float | Many, delta: float | Many, sensitivity: float | Many = 1.0
) -> float | np.ndarray:
    """The least Gaussian noise σ that is (ε, δ)-DP on a release of sensitivity Δ (the standard
    calibration; Balle & Wang 2018's analytic Gaussian mechanism): Δ/μ with μ from
    ``gdp_mu_for_epsilon_delta``, moved up until δ(ε), read exactly and as printed, is at most δ.
    (The Laplace mechanism's is its scale Δ/ε, ``laplace.scale``.)

    Parameters
    ----------
    epsilon : float or array_like
        The ε, >= 0.
    delta : float or array_like
        The δ, in (0, 1).
    sensitivity : float or array_like
        The release's sensitivity Δ, > 0; the three broadcast (an array gives an array of its
        shape).

    Returns
    -------
    float or numpy.ndarray
        The least σ.

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(gaussian_noise_for_epsilon(1.0, 1e-5), 4)
    3.7306
    """
    return _each(_gaussian_noise_for_epsilon, epsilon, delta, sensitivity)


def _gaussian_noise_for_epsilon(epsilon: float, delta: float, sensitivity: float = 1.0) -> float:
    """``gaussian_noise_for_epsilon`` of single values."""
    e, d = nonnegative("epsilon", epsilon), open_unit("delta", delta)
    width = positive("sensitivity", sensitivity)
    readings = (
        lambda n: exact_gdp_delta(as_exact(width) / as_exact(n), e),
        lambda n: gdp_delta(width / n, e),
    )
    return safe_side(width / gdp_mu_for_epsilon_delta(e, d), d, readings)


def _model(mechanism: str) -> str:
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {list(MECHANISMS)}, got {mechanism!r}")
    return MECHANISMS[mechanism]


# --- exact readings, and the safe side ----------------------------------------------------------

# the digits of the exact readings: a float's last bit (16 digits) shows with room to spare
EXACT_DIGITS = 40


def as_exact(x: Any) -> Any:
    """A float as the mpmath number of the same value (exact); an mpmath number as it is.

    Parameters
    ----------
    x : float or mpmath.mpf
        The number.

    Returns
    -------
    mpmath.mpf
        The same value in mpmath.

    Examples
    --------
    >>> print(mpmath.nstr(as_exact(0.1), 20))
    0.10000000000000000555
    """
    return x if isinstance(x, mpmath.mpf) else mpmath.mpf(float(x))


def exact_normal_quantile(p: float) -> Any:
    """Φ⁻¹(p) at ``EXACT_DIGITS`` digits: Newton's method on log Φ from scipy's float answer (the
    lower tail taken for p ≤ ½, its mirror above).

    Parameters
    ----------
    p : float
        The probability, in (0, 1).

    Returns
    -------
    mpmath.mpf
        Φ⁻¹(p).

    Examples
    --------
    >>> print(mpmath.nstr(exact_normal_quantile(0.975), 20))
    1.9599639845400538556
    """
    with mpmath.workdps(EXACT_DIGITS):
        q = as_exact(p)
        lower = q <= mpmath.mpf(1) / 2
        tail = q if lower else 1 - q
        start = mpmath.mpf(float(stats.norm.ppf(float(tail))))
        z = mpmath.findroot(lambda z: mpmath.log(mpmath.ncdf(z)) - mpmath.log(tail), start)
        return z if lower else -z


def exact_advantage(g: Guarantee) -> Any:
    """``advantage`` at ``EXACT_DIGITS`` digits (mpmath) for every model but ρ-zCDP; ``g`` may
    carry mpmath parameters (a shift Δ/noise taken exactly).

    Parameters
    ----------
    g : Guarantee
        The guarantee.

    Returns
    -------
    mpmath.mpf
        The advantage.

    Raises
    ------
    ValueError
        If ``g.model`` is ρ-zCDP's or none of ``MODELS``.

    Examples
    --------
    >>> print(mpmath.nstr(exact_advantage(pure(1.0)), 20))
    0.4621171572600097585
    """
    with mpmath.workdps(EXACT_DIGITS):
        if g.model in ("pure", "approximate"):
            e, d = as_exact(g.epsilon), as_exact(g.delta)
            return (mpmath.expm1(e) + 2 * d) / (mpmath.exp(e) + 1)
        if g.model == "gdp":
            return mpmath.erf(as_exact(g.mu) / (2 * mpmath.sqrt(2)))
        if g.model == "laplace":
            return -mpmath.expm1(-as_exact(g.mu) / 2)
    raise ValueError(f"g.model must be one of pure, approximate, gdp, laplace, got {g.model!r}")


def exact_tpr_bound(g: Guarantee, fpr: float) -> Any:
    """``tpr_bound`` at ``EXACT_DIGITS`` digits (mpmath) for every model but ρ-zCDP.

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    fpr : float
        The false-positive rate α, in [0, 1].

    Returns
    -------
    mpmath.mpf
        The largest TPR.

    Raises
    ------
    ValueError
        If ``g.model`` is ρ-zCDP's or none of ``MODELS``.

    Examples
    --------
    >>> print(mpmath.nstr(exact_tpr_bound(gdp(1.0), 0.01), 20))
    0.092362248073693937146
    """
    with mpmath.workdps(EXACT_DIGITS):
        a = as_exact(fpr)
        if g.model in ("pure", "approximate"):
            e, d = as_exact(g.epsilon), as_exact(g.delta)
            return 1 - max(mpmath.mpf(0), 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))
        if g.model == "gdp":
            return mpmath.ncdf(exact_normal_quantile(fpr) + as_exact(g.mu))
        if g.model == "laplace":
            x = (-mpmath.log(2 * a) if a <= 0.5 else mpmath.log(2 * (1 - a))) - as_exact(g.mu)
            return 1 - mpmath.exp(x) / 2 if x < 0 else mpmath.exp(-x) / 2
    raise ValueError(f"g.model must be one of pure, approximate, gdp, laplace, got {g.model!r}")


def exact_reading(g: Guarantee, target: RiskTarget) -> Any:
    """``reading`` at ``EXACT_DIGITS`` digits.

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    target : RiskTarget
        The stated risk.

    Returns
    -------
    mpmath.mpf
        The advantage, or the TPR at the target's FPR.

    Raises
    ------
    ValueError
        If ``g.model`` is ρ-zCDP's or none of ``MODELS``.

    Examples
    --------
    >>> print(mpmath.nstr(exact_reading(gdp(1.0), at_most_advantage(0.25)), 20))
    0.38292492254802620728
    """
    if target.kind == "advantage":
        return exact_advantage(g)
    return exact_tpr_bound(g, target.fpr)


def exact_gdp_delta(mu: Any, epsilon: float) -> Any:
    """``gdp_delta`` at ``EXACT_DIGITS`` digits.

    Parameters
    ----------
    mu : float or mpmath.mpf
        The GDP parameter μ, > 0.
    epsilon : float
        The ε, >= 0.

    Returns
    -------
    mpmath.mpf
        The δ.

    Examples
    --------
    >>> print(mpmath.nstr(exact_gdp_delta(1.0, 1.0), 20))
    0.1269367375066439458
    """
    with mpmath.workdps(EXACT_DIGITS):
        m, e = as_exact(mu), as_exact(epsilon)
        return mpmath.ncdf(m / 2 - e / m) - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)


def safe_side(
    value: float,
    target: float,
    readings: Sequence[Callable[[float], Any]],
    toward: float = math.inf,
) -> float:
    """The float nearest ``value``, moved toward ``toward`` (+∞: more noise; −∞: a smaller ε), at
    which every one of ``readings`` gives a risk of at most ``target``: steps of one unit in the
    last place, doubling, so a closed form's rounding never allows a hair more than the target. The
    readings are the exact one, which bounds the true risk, and the float one the package prints, so
    that neither shows the target exceeded. ``value`` itself when it already meets them.

    Parameters
    ----------
    value : float
        The starting value (a closed form's float).
    target : float
        The largest risk allowed.
    readings : sequence of callable
        Each maps a value to its risk (exact, or as printed).
    toward : float
        +inf to move up (more noise), -inf to move down (a smaller ε).

    Returns
    -------
    float
        The float nearest ``value`` whose every reading is at most ``target``.

    Raises
    ------
    ValueError
        If no value within 1,100 doubling steps meets the target.

    Examples
    --------
    >>> safe_side(1 / 3, 3.0, [lambda n: 1 / as_exact(n)]) == math.nextafter(1 / 3, 1)
    True
    """
    x = float(value)
    step = math.ulp(x) if x != 0 else sys.float_info.min
    with mpmath.workdps(EXACT_DIGITS):
        bound = mpmath.mpf(float(target))
        for _ in range(1100):
            if all(read(x) <= bound for read in readings):
                return x
            x = x + step if toward > 0 else x - step
            step *= 2
    raise ValueError(f"no value near {value!r} meets the target {target!r}")


# --- singling out one of k people: re-identification read off the same curve --------------------

# the models whose worst case among k candidates is known exactly
EXACT_SINGLING_OUT = ("pure", "approximate")


@dataclass(frozen=True)
class SinglingOut:
    """The chance that an attacker picks out, among ``k`` equally likely candidates that are
    pairwise neighbours, the one whose record the release holds (re-identification; attribute
    inference and reconstruction among k values read the same way).

    ``bound`` is 1 − f(1/k) = ``tpr_bound(g, 1/k)``: no attacker does better against any
    mechanism with the guarantee (Hayes, Mahloujifar & Balle 2023; Kulynych et al. 2025, for a
    baseline κ in general: ``tpr_bound(g, κ)``). ``attained`` is what ``attained_by``, a mechanism
    with the guarantee, achieves: the exact worst case where ``exact``, else a lower bound on it.
    ``balle`` is Balle, Cherubin & Hayes (2022)'s older bound where they give one (NaN else).
    ``singling_out`` of an array of k gives ``k``, ``bound``, ``attained`` and ``balle`` as arrays
    of its shape."""

    k: int
    bound: float
    attained: float
    exact: bool
    attained_by: str
    balle: float


def singling_out(g: Guarantee, k: int | Many) -> SinglingOut:
    """``SinglingOut`` for ``g`` among ``k`` ≥ 2 candidates (for an array of k, its ``k``,
    ``bound``, ``attained`` and ``balle`` are arrays of k's shape). Pure ε: the worst case is
    exactly e^ε/(e^ε + k − 1), k-ary randomized response's (sum the DP constraints q_ii ≤ e^ε q_ij
    over the other candidates j); (ε, δ): exactly (e^ε + (k − 1)δ)/(e^ε + k − 1), the same sum with
    δ, attained by k-ary randomized response that reports the truth with that probability. μ-GDP and
    ρ-zCDP (μ = √(2ρ)): the Gaussian mechanism on a regular simplex of pairwise distance μ attains
    ``simplex_gaussian_success``; the exact worst case is open. The Laplace mechanism: Laplace noise
    on the vertices of an L1 simplex of pairwise distance Δ attains ``simplex_laplace_success``
    (each pair's curve lies at or above the Laplace shift's).

    Parameters
    ----------
    g : Guarantee
        The guarantee.
    k : int or array_like
        The number of candidates, at least 2 (an array gives an array of its shape).

    Returns
    -------
    SinglingOut
        The bound, the attained value, whether it is exact and the mechanism attaining it.

    Raises
    ------
    ValueError
        If a number of candidates is not an integer of at least 2.

    Examples
    --------
    >>> round(singling_out(pure(3.0), 10).attained, 4)
    0.6906
    >>> singling_out(pure(3.0), [2, 10]).attained.round(4).tolist()
    [0.9526, 0.6906]
    """
    if not _many(k):
        return _singling_out(g, k)  # type: ignore[arg-type]
    found: list[SinglingOut] = []

    def one(n: int) -> float:
        found.append(_singling_out(g, n))
        return found[-1].bound

    bound = np.asarray(_each(one, k))
    first = found[0] if found else _singling_out(g, 2)  # how it is attained: the same for every k

    def field(name: str) -> np.ndarray:
        return np.array([getattr(f, name) for f in found]).reshape(bound.shape)

    # fields of arrays, as the class says (their annotations are a single k's)
    return SinglingOut(
        field("k"),  # type: ignore[arg-type]
        bound,  # type: ignore[arg-type]
        field("attained"),  # type: ignore[arg-type]
        first.exact,
        first.attained_by,
        field("balle"),  # type: ignore[arg-type]
    )


def _singling_out(g: Guarantee, k: int) -> SinglingOut:
    """``singling_out`` among a single number of candidates."""
    n = candidates(k)
    bound = tpr_bound(g, 1 / n)
    if g.model in EXACT_SINGLING_OUT:
        e, d = g.epsilon, g.delta
        attained = 1.0 if e >= 700 else (math.exp(e) + (n - 1) * d) / (math.exp(e) + n - 1)
        by = "k-ary randomized response (the exact worst case)"
        return SinglingOut(n, bound, attained, True, by, _balle(g, 1 / n))
    if g.model == "laplace":
        by = "Laplace noise on an L1 simplex of pairwise distance Δ"
        return SinglingOut(n, bound, simplex_laplace_success(g.mu, n), False, by, _balle(g, 1 / n))
    mu = g.mu if g.model == "gdp" else gaussian_mu_for_rho(g.rho)
    by = "the Gaussian mechanism on a regular simplex of pairwise distance μ"
    return SinglingOut(n, bound, simplex_gaussian_success(mu, n), False, by, _balle(g, 1 / n))


_LOG_SQRT_2PI = math.log(math.sqrt(2 * math.pi))  # as scipy.stats.norm's


@overload
def simplex_gaussian_success(mu: float, k: int) -> float: ...
@overload
def simplex_gaussian_success(mu: float | Many, k: int | Many) -> float | np.ndarray: ...
def simplex_gaussian_success(mu: float | Many, k: int | Many) -> float | np.ndarray:
    """The chance the best guess is right when Gaussian noise of scale 1 hides which of k points,
    pairwise μ apart (a regular simplex, as k orthogonal points μ/√2 from the origin), was
    released: ∫ φ(y − μ/√2) Φ(y)^(k−1) dy (the largest coordinate wins), by quadrature.

    Parameters
    ----------
    mu : float or array_like
        The pairwise distance μ in noise units, >= 0.
    k : int or array_like
        The number of points, at least 2; the two broadcast (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The chance, in [1/k, 1].

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(simplex_gaussian_success(1.0, 10), 4)
    0.2533
    """
    return _each(_simplex_gaussian_success, mu, k)


def _simplex_gaussian_success(mu: float, k: int) -> float:
    """``simplex_gaussian_success`` of single values."""
    m, n = nonnegative("mu", mu), candidates(k)
    shift = m / math.sqrt(2)

    def density(y: float) -> float:  # stats.norm.logpdf's formula, bit for bit, without its
        z = y - shift  # argument checks: quad calls this thousands of times
        return math.exp(-(z * z) / 2.0 - _LOG_SQRT_2PI + (n - 1) * special.log_ndtr(y))

    # the integrand's mass lies within a few units of its peak, between the shift and the point
    # where Φ(y)^(k−1) rises (about Φ⁻¹(1/k))
    points = sorted({shift, float(stats.norm.isf(1 / n))})
    low, high = min(points) - 12, max(points) + 12
    value, _ = integrate.quad(
        density, low, high, points=points, epsabs=1e-14, epsrel=1e-12, limit=400
    )
    return min(max(float(value), 1 / n), 1.0)


@overload
def simplex_laplace_success(mu: float, k: int) -> float: ...
@overload
def simplex_laplace_success(mu: float | Many, k: int | Many) -> float | np.ndarray: ...
def simplex_laplace_success(mu: float | Many, k: int | Many) -> float | np.ndarray:
    """The chance the best guess is right when independent Laplace noise of scale b hides which of k
    points, pairwise Δ apart in L1 (Δ/2 on their own axis, μ = Δ/b), was released, ties guessed at
    random. With t = μ/2 the score of each axis is its value clipped to [0, t]: the true one sits at
    t with probability ½ and at 0 with ½e^−t, the others at 0 with ½ and at t with p = ½e^−t, so the
    chance is ∫_0^t ½e^(s−t) (1 − ½e^−s)^(k−1) ds + ½ E[1/(1 + Bin(k−1, p))] + ½e^−t (½)^(k−1)/k.

    Parameters
    ----------
    mu : float or array_like
        The shift μ = Δ/b, >= 0.
    k : int or array_like
        The number of points, at least 2; the two broadcast (an array gives an array of its shape).

    Returns
    -------
    float or numpy.ndarray
        The chance, in [1/k, 1].

    Raises
    ------
    ValueError
        If an element is outside its range, or the arrays do not broadcast.

    Examples
    --------
    >>> round(simplex_laplace_success(1.0, 10), 4)
    0.1637
    """
    return _each(_simplex_laplace_success, mu, k)


def _simplex_laplace_success(mu: float, k: int) -> float:
    """``simplex_laplace_success`` of single values."""
    m, n = nonnegative("mu", mu), candidates(k)
    t = m / 2
    if t == 0:
        return 1 / n
    p = 0.5 * math.exp(-t)
    inside, _ = integrate.quad(
        lambda s: 0.5 * math.exp(s - t) * (1 - 0.5 * math.exp(-s)) ** (n - 1),
        0.0,
        t,
        epsabs=1e-14,
        epsrel=1e-12,
        limit=400,
    )
    ties = -math.expm1(n * math.log1p(-p)) / (n * p)  # E[1/(1 + M)], M ~ Bin(k − 1, p)
    return float(inside + 0.5 * ties + p * 0.5 ** (n - 1) / n)


def _balle(g: Guarantee, baseline: float) -> float:
    """Balle, Cherubin & Hayes (2022)'s bounds on success from a baseline κ: e^ε κ for ε-DP (the
    Laplace mechanism at ε = μ), exp(−(√log(1/κ) − √ρ)²) for ρ-zCDP (μ-GDP at ρ = μ²/2) while
    ρ < log(1/κ), 1 beyond; none for (ε, δ)."""
    if g.model in ("pure", "laplace"):
        e = g.epsilon if g.model == "pure" else g.mu
        return 1.0 if e >= 700 else min(1.0, math.exp(e) * baseline)
    if g.model in ("zcdp", "gdp"):
        rho = g.rho if g.model == "zcdp" else g.mu**2 / 2
        log_inverse = math.log(1 / baseline)
        return (
            1.0
            if rho >= log_inverse
            else math.exp(-((math.sqrt(log_inverse) - math.sqrt(rho)) ** 2))
        )
    return math.nan


@overload
def attained_success(mechanism: str, mu: float, k: int) -> float: ...
@overload
def attained_success(mechanism: str, mu: float | Many, k: int | Many) -> float | np.ndarray: ...
def attained_success(mechanism: str, mu: float | Many, k: int | Many) -> float | np.ndarray:
    """What ``mechanism`` ('Gaussian' or 'Laplace') at shift μ = Δ/noise attains singling out one
    of ``k`` (``simplex_gaussian_success``, ``simplex_laplace_success``): a lower bound on the
    worst case of its guarantee.

    Parameters
    ----------
    mechanism : {"Gaussian", "Laplace"}
        The mechanism, by name (``MECHANISMS``).
    mu : float or array_like
        The shift μ = Δ/noise, >= 0.
    k : int or array_like
        The number of candidates, at least 2; the two broadcast (an array gives an array of its
        shape).

    Returns
    -------
    float or numpy.ndarray
        The chance attained.

    Raises
    ------
    ValueError
        If ``mechanism`` is neither "Gaussian" nor "Laplace", or an element is out of range.

    Examples
    --------
    >>> round(attained_success("Gaussian", 2.0, 10), 4)
    0.4792
    """
    return _each(_attained_success, mechanism, mu, k)


def _attained_success(mechanism: str, mu: float, k: int) -> float:
    """``attained_success`` of single values."""
    if _model(mechanism) == "gdp":
        return simplex_gaussian_success(mu, k)
    return simplex_laplace_success(mu, k)


@overload
def noise_for_attained_singling_out(  # type: ignore[overload-overlap]
    mechanism: str, target: RiskTargets, sensitivity: float | Many = ...
) -> np.ndarray: ...
@overload
def noise_for_attained_singling_out(
    mechanism: str, target: RiskTarget, sensitivity: float = ...
) -> float: ...
@overload
def noise_for_attained_singling_out(
    mechanism: str, target: RiskTarget, sensitivity: float | Many = ...
) -> float | np.ndarray: ...
def noise_for_attained_singling_out(
    mechanism: str, target: RiskTarget, sensitivity: float | Many = 1.0
) -> float | np.ndarray:
    """The least noise at which ``mechanism`` on its simplex of k candidates (``attained_success``)
    picks the right one with a chance of at most the target: less than ``noise_for`` asks, as the
    bound covers every mechanism with the guarantee and this is one of them. Found by brentq in
    log μ and moved up until the success, by quadrature (to about 1e-12), is at most the target.

    Parameters
    ----------
    mechanism : {"Gaussian", "Laplace"}
        The mechanism, by name (``MECHANISMS``).
    target : RiskTarget or RiskTargets
        A 'singling_out' risk (``at_most_singling_out``); many give an array of their shape.
    sensitivity : float or array_like
        The release's sensitivity Δ, > 0; broadcast against the targets.

    Returns
    -------
    float or numpy.ndarray
        The least noise.

    Raises
    ------
    ValueError
        If ``mechanism`` is neither "Gaussian" nor "Laplace", the target is not a 'singling_out'
        risk, a sensitivity is not > 0, or no shift up to 1e4 reaches the target.

    Examples
    --------
    >>> round(noise_for_attained_singling_out("Gaussian", at_most_singling_out(0.25, 10)), 4)
    1.0172
    """
    return _each(_noise_for_attained_singling_out, mechanism, target, sensitivity)


def _noise_for_attained_singling_out(
    mechanism: str, target: RiskTarget, sensitivity: float = 1.0
) -> float:
    """``noise_for_attained_singling_out`` of single values."""
    if target.kind != "singling_out":
        raise ValueError(f"target must be a 'singling_out' risk, got {target.kind!r}")
    width, n = positive("sensitivity", sensitivity), target.candidates

    def gap(log_mu: float) -> float:
        return attained_success(mechanism, math.exp(log_mu), n) - target.value

    top = math.log(mu_for(mechanism, target))  # the bound's shift: the attained value is below
    while gap(top) < 0:
        top += 1.0
        if top > math.log(1e4):
            raise ValueError(f"no shift up to 1e4 lets {mechanism} reach {target.describe()}")
    log_mu = optimize.brentq(gap, -30.0, top, xtol=1e-14, rtol=1e-13)
    reading_at = (lambda noise: attained_success(mechanism, width / noise, n),)
    return safe_side(width / math.exp(log_mu), target.value, reading_at)


def __getattr__(name: str) -> Any:
    """The old name ``KINDS`` of ``TARGET_KINDS``, with a notice (calibration's DP-SGD accountant
    reads other kinds of risk)."""
    if name == "KINDS":
        warnings.warn("risk.KINDS is renamed risk.TARGET_KINDS", DeprecationWarning, stacklevel=2)
        return TARGET_KINDS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
