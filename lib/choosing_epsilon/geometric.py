"""The geometric mechanism (Kazan & Reiter 2024, Definition 1, Eq. 2): a count released with
two-sided geometric noise of parameter e^{-ε}, which is scipy's discrete Laplace ``dlaplace(ε)``."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from ._validate import positive


def distribution(epsilon: float) -> Any:
    """Eq. (2): the noise distribution, P(k) = (1 − e^{−ε})/(1 + e^{−ε}) e^{−ε|k|}.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    scipy.stats.rv_discrete
        The frozen two-sided geometric distribution, ``scipy.stats.dlaplace(ε)``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite number > 0.
    """
    return stats.dlaplace(positive("epsilon", epsilon))


def noise_sd(epsilon: float) -> float:
    """Sec. 2.1: the noise's standard deviation, √(2e^{−ε})/(1 − e^{−ε}) (the RMSE of the count).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        The standard deviation of the noise.

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite number > 0.
    """
    return float(distribution(epsilon).std())


def prob_exact(epsilon: float) -> float:
    """Table 1: the probability the exact count is released, (1 − e^{−ε})/(1 + e^{−ε}).

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.

    Returns
    -------
    float
        The probability that the noise is 0.

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite number > 0.
    """
    return float(distribution(epsilon).pmf(0))


def prob_below(epsilon: float, k: int) -> float:
    """P(noise ≤ k): the chance the released count is at most the true count plus k.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    k : int
        The count's offset.

    Returns
    -------
    float
        P(noise ≤ k).

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite number > 0.
    """
    return float(distribution(epsilon).cdf(k))


def prob_above(epsilon: float, k: int) -> float:
    """P(noise ≥ k): the chance the released count is at least the true count plus k.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, > 0.
    k : int
        The count's offset.

    Returns
    -------
    float
        P(noise ≥ k).

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite number > 0.
    """
    return float(distribution(epsilon).sf(k - 1))


def release(counts: np.ndarray | int, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """Counts released with geometric noise drawn from ``rng`` (seeded by the caller).

    Parameters
    ----------
    counts : numpy.ndarray or int
        The true counts.
    epsilon : float
        The privacy parameter ε, > 0.
    rng : numpy.random.Generator
        The seeded generator the noise is drawn from.

    Returns
    -------
    numpy.ndarray
        The released counts, of the shape of ``counts``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite number > 0.
    """
    counts = np.asarray(counts)
    noise = distribution(epsilon).rvs(size=counts.shape, random_state=rng)
    return counts + noise
