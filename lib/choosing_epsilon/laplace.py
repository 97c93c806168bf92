"""The Laplace mechanism: noise of scale Δ/ε, its tails and quantiles, seeded sampling,
privacy-loss ratios.

Sampling, densities and distribution functions come from ``scipy.stats.laplace``. One exception:
its ``logpdf`` is the logarithm of ``pdf``, which loses precision in the subnormal range and is
-inf beyond about 745 noise scales, so posteriors at large ε need the log-density written out
(``log_density``); the tests check it against scipy wherever scipy's value is exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
from scipy import stats

from ._validate import finite_array, open_unit, positive, real


def scale(sensitivity: float, epsilon: float, safe_side: bool = True) -> float:
    """Noise scale λ = Δf/ε of the Laplace mechanism (Dwork et al. 2006; Lee & Clifton Sec. 3),
    the float at or above Δf/ε: rounded to nearest it can fall a hair below, and the noise would
    then allow a hair more than ε (Δf/λ read exactly, in fractions). With ``safe_side`` false, the
    float nearest Δf/ε: the nominal scale a reading of Lap(Δf/ε) noise takes, where neither side is
    safer.

    Parameters
    ----------
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.
    safe_side : bool
        Round up to the float at or above Δf/ε (the default, a release's noise), or to the nearest.

    Returns
    -------
    float
        The noise scale λ.

    Raises
    ------
    ValueError
        If ``sensitivity`` or ``epsilon`` is not a finite number > 0.
    """
    width, eps = positive("sensitivity", sensitivity), positive("epsilon", epsilon)
    value = width / eps
    while safe_side and Fraction(width) > Fraction(value) * Fraction(eps):
        value = math.nextafter(value, math.inf)
    return value


def distribution(center: float, sensitivity: float, epsilon: float):
    """The response distribution f(X) + Lap(Δf/ε) as a frozen ``scipy.stats.laplace``.

    Parameters
    ----------
    center : float
        The true answer f(X), finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    scipy.stats.rv_continuous
        The frozen Laplace distribution of the response.

    Raises
    ------
    ValueError
        If ``center`` is not finite, or ``sensitivity`` or ``epsilon`` not a finite number > 0.
    """
    return stats.laplace(loc=real("center", center), scale=scale(sensitivity, epsilon))


def release(
    true_answer: float,
    sensitivity: float,
    epsilon: float,
    rng: np.random.Generator,
    size: int | None = None,
) -> float | np.ndarray:
    """Noisy answer(s) f(X) + Lap(Δf/ε) drawn from the seeded generator ``rng``.

    Parameters
    ----------
    true_answer : float
        The true answer f(X), finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.
    rng : numpy.random.Generator
        The seeded generator the noise is drawn from.
    size : int, optional
        How many answers to draw (one, as a float, by default).

    Returns
    -------
    float or numpy.ndarray
        The noisy answer, or ``size`` of them.

    Raises
    ------
    ValueError
        If ``rng`` is not a ``numpy.random.Generator``, ``true_answer`` is not finite, or
        ``sensitivity`` or ``epsilon`` is not a finite number > 0.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    loc, lam = real("true_answer", true_answer), scale(sensitivity, epsilon)
    if size is None:  # one draw, as a scalar
        return stats.laplace.rvs(loc=loc, scale=lam, random_state=rng)
    return stats.laplace.rvs(loc=loc, scale=lam, size=size, random_state=rng)


def noise_at_probability(pr: float, sensitivity: float, epsilon: float) -> float:
    """The magnitude z with Pr(``|η|`` ≥ z) = pr, i.e. z = -(Δ/ε) ln pr.

    Parameters
    ----------
    pr : float
        The probability that the noise's magnitude reaches z, in (0, 1).
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        The magnitude z.

    Raises
    ------
    ValueError
        If ``pr`` lies outside (0, 1), or ``sensitivity`` or ``epsilon`` is not a finite number > 0.
    """
    p = open_unit("pr", pr)
    return float(stats.laplace.isf(p / 2, scale=scale(sensitivity, epsilon)))


def log_density(
    y: float | np.ndarray, center: float | np.ndarray, sensitivity: float, epsilon: float
) -> np.ndarray:
    """ln of the Lap(Δ/ε) density of response y around ``center``: ``-|y - c|/λ - ln 2λ``, finite
    at any distance.

    Parameters
    ----------
    y : float or numpy.ndarray
        The responses.
    center : float or numpy.ndarray
        The centre c of the noise (the true answer), broadcast against ``y``.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    numpy.ndarray
        The log-density at each response.

    Raises
    ------
    ValueError
        If ``sensitivity`` or ``epsilon`` is not a finite number > 0.
    """
    lam = scale(sensitivity, epsilon)
    return -np.abs(np.asarray(y, dtype=float) - np.asarray(center, dtype=float)) / lam - np.log(
        2 * lam
    )


def log_survival(threshold: float, center: float, sensitivity: float, epsilon: float) -> float:
    """ln Pr[f + η > t], finite far into the tail (scipy's laplace.logsf underflows there).

    Beyond the centre the tail mass of a Laplace law equals λ times its density, so
    ln Pr = logpdf(t) + ln λ there, and ln(1 - λ·pdf(t)) on the other side.

    Parameters
    ----------
    threshold : float
        The threshold t, finite.
    center : float
        The true answer f, finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        ln Pr[f + η > t].

    Raises
    ------
    ValueError
        If ``threshold`` or ``center`` is not finite, or ``sensitivity`` or ``epsilon`` not a
        finite number > 0.
    """
    t, c, lam = real("threshold", threshold), real("center", center), scale(sensitivity, epsilon)
    # the log of the smaller tail at t
    log_far = float(log_density(t, c, sensitivity, epsilon)) + np.log(lam)
    return log_far if t >= c else float(np.log1p(-np.exp(log_far)))


def tail_ratio(
    threshold: float, center_a: float, center_b: float, sensitivity: float, epsilon: float
) -> float:
    """Pr[f_a + η > t] / Pr[f_b + η > t]: the ratio Definition 1 bounds by e^ε (Lee & Clifton
    Sec. 4.1).

    Parameters
    ----------
    threshold : float
        The threshold t, finite.
    center_a, center_b : float
        The true answers f_a and f_b of two neighbouring databases, finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        The ratio of the two tail probabilities (inf beyond the float range).

    Raises
    ------
    ValueError
        If an argument is not finite, or ``sensitivity`` or ``epsilon`` not > 0.
    """
    a = log_survival(threshold, center_a, sensitivity, epsilon)
    b = log_survival(threshold, center_b, sensitivity, epsilon)
    return exp_or_inf(a - b)  # inf beyond the float range (a large ε), not an overflow


def log_density_ratio(
    outputs: np.ndarray, center_a: float, center_b: float, sensitivity: float, epsilon: float
) -> np.ndarray:
    """Privacy loss ln(p_a(y)/p_b(y)) at each output y; ε-DP bounds it by ε when ``|a - b|`` ≤ Δ.

    Parameters
    ----------
    outputs : numpy.ndarray
        The outputs y, finite.
    center_a, center_b : float
        The true answers a and b of two neighbouring databases, finite.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    numpy.ndarray
        The privacy loss at each output.

    Raises
    ------
    ValueError
        If an output or a centre is not finite, or ``sensitivity`` or ``epsilon`` not > 0.
    """
    y = finite_array("outputs", np.atleast_1d(outputs))
    a, b, lam = real("center_a", center_a), real("center_b", center_b), scale(sensitivity, epsilon)
    # the normalisers ln 2λ cancel: subtracting two log-densities would lose a loss far below
    # ln 2λ (ε near 1e-200)
    return (np.abs(y - b) - np.abs(y - a)) / lam


_LOG_MAX = float(np.log(np.finfo(float).max))  # e^x overflows a float beyond this (about 709.78)


def exp_or_inf(x: float) -> float:
    """e^x (the ratio bound e^ε of ε-DP) as a float, inf where it exceeds the float range instead
    of an OverflowError.

    Parameters
    ----------
    x : float
        The exponent.

    Returns
    -------
    float
        e^x, or inf where it exceeds the float range.
    """
    x = float(x)
    return float(np.exp(x)) if x <= _LOG_MAX else float("inf")


def exp_text(x: float, spec: str = ".4g") -> str:
    """e^x as text formatted with ``spec``; outside the float range as m × 10^k, computed from
    x / ln 10.

    Parameters
    ----------
    x : float
        The exponent, finite.
    spec : str
        The format specification of a number within the float range.

    Returns
    -------
    str
        e^x as text.

    Raises
    ------
    ValueError
        If ``x`` is not a finite number.
    """
    x = real("x", x)
    if -700 <= x <= _LOG_MAX:
        return format(float(np.exp(x)), spec)
    exponent = x / np.log(10)
    k = int(np.floor(exponent))
    return f"{10 ** (exponent - k):.4f} × 10^{k}"


def check_privacy_loss(
    loss: np.ndarray,
    outputs: np.ndarray,
    center_a: float,
    center_b: float,
    sensitivity: float,
    epsilon: float,
) -> None:
    """Raise if any privacy loss ln(p_a(y)/p_b(y)) leaves [-ε, ε] by more than the round-off of
    its terms ``|y - c|/λ + ln 2λ``.

    Parameters
    ----------
    loss : numpy.ndarray
        The privacy losses, one per output (``log_density_ratio``).
    outputs : numpy.ndarray
        The outputs y at which they were computed.
    center_a, center_b : float
        The true answers of the two neighbouring databases.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.

    Raises
    ------
    RuntimeError
        If a loss exceeds ε by more than its round-off.
    ValueError
        If ``sensitivity`` or ``epsilon`` is not a finite number > 0.
    """
    lam = scale(sensitivity, epsilon)
    y = np.asarray(outputs, dtype=float)
    terms = (
        np.abs(y - center_a) + np.abs(y - center_b) + abs(center_a - center_b)
    ) / lam + 2 * abs(np.log(2 * lam))
    slack = 4 * np.finfo(float).eps * (terms + 1) + 1e-12 * epsilon
    excess = np.abs(np.asarray(loss, dtype=float)) - epsilon - slack
    if np.any(excess > 0):
        worst = int(np.argmax(excess))
        raise RuntimeError(
            f"privacy loss {float(np.ravel(loss)[worst])!r} at output "
            f"{float(np.ravel(y)[worst])!r} exceeds epsilon = {epsilon!r}: "
            "the Laplace mechanism is mis-specified"
        )


def input_perturbation(
    values: Sequence[float] | np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray],
    noise_scale: float,
    rng: np.random.Generator,
    runs: int,
) -> np.ndarray:
    """``runs`` releases of statistic(x + η), η ~ Lap(noise_scale) added to every input value
    (input perturbation).

    ``statistic`` maps an array of shape (runs, n) to one value per row (e.g.
    ``lambda x: x.mean(axis=1)``).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The input values, finite.
    statistic : callable
        Maps an array of shape (runs, n) to one value per row.
    noise_scale : float
        The Laplace scale b of the noise on each value, > 0.
    rng : numpy.random.Generator
        The seeded generator the noise is drawn from.
    runs : int
        How many releases, at least 1.

    Returns
    -------
    numpy.ndarray
        The ``runs`` released values.

    Raises
    ------
    ValueError
        If the values are not finite, ``rng`` is not a generator, ``runs`` is not an integer of at
        least 1, or ``noise_scale`` not a finite number > 0.
    """
    x = finite_array("values", values)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if isinstance(runs, bool) or not isinstance(runs, (int, np.integer)) or runs < 1:
        raise ValueError(f"runs must be an integer >= 1, got {runs!r}")
    noise = stats.laplace.rvs(
        scale=positive("noise_scale", noise_scale), size=(int(runs), x.size), random_state=rng
    )
    return np.asarray(statistic(x[None, :] + noise), dtype=float)


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def ratio_label(log_ratio: float, digits: int = 3) -> str:
    """e^x as a short plain-text tick label, from x alone (no overflow): a decimal between 10⁻³
    and 10⁴, else m×10ᵏ.

    Near 1 the label keeps enough digits to tell e^x from 1 (e^0.001 is 1.001, not 1).

    Parameters
    ----------
    log_ratio : float
        The exponent x, finite.
    digits : int
        The significant digits of the label.

    Returns
    -------
    str
        The label.

    Raises
    ------
    ValueError
        If ``log_ratio`` is not a finite number.
    """
    x = real("log_ratio", log_ratio)
    if x == 0:
        return "1"
    # e^x = 1 + x to within x²: written as 1 ± |x|, which a float next to 1 cannot show
    if abs(x) < 1e-6:
        return ("1 + " if x > 0 else "1 − ") + _power_of_ten(math.log10(abs(x)), digits)
    exponent = x / math.log(10)
    if -3 <= exponent < 4:
        significant = max(digits, math.ceil(-math.log10(abs(x))) + 2)
        label = format(math.exp(x), f".{significant}g")
        if "e" not in label:  # just below 10⁻³ or 10⁴, rounding may still ask for an exponent
            return label
    return _power_of_ten(exponent, digits)


def _power_of_ten(exponent: float, digits: int) -> str:
    """10^exponent as m×10ᵏ in plain text, with ``digits`` significant digits."""
    k = math.floor(exponent)
    mantissa = 10 ** (exponent - k)
    if round(mantissa, digits - 1) >= 10:  # 9.999 rounds up to the next power of ten
        mantissa, k = mantissa / 10, k + 1
    return f"{mantissa:.{digits - 1}f}×10{str(k).translate(_SUPERSCRIPTS)}"
