"""The blog post's two tables of the Laplace mechanism at work: input perturbation's releases
against their predictions, and the densities of A(D) and A(D′) with the privacy loss between them
(the post's Eq. 2)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from choosing_epsilon._validate import finite_array
from choosing_epsilon.laplace import (
    check_privacy_loss,
    distribution,
    input_perturbation,
    log_density_ratio,
    scale,
)


def input_perturbation_table(
    values: Sequence[float] | np.ndarray,
    noise_scale: float,
    rng: np.random.Generator,
    runs: int,
) -> pd.DataFrame:
    """The mean and the sample variance of ``runs`` input-perturbed releases, each averaged and set
    against its prediction: f(D) for the mean, s² + 2b² for the variance (the post's claim that
    input perturbation, like Eq. 1, leaves the release's mean at f(D)).

    Parameters
    ----------
    values : sequence of float or numpy.ndarray
        The input values, finite.
    noise_scale : float
        The Laplace scale b of the noise on each value, > 0.
    rng : numpy.random.Generator
        The seeded generator the noise is drawn from.
    runs : int
        How many releases of each statistic, at least 1.

    Returns
    -------
    pandas.DataFrame
        One row per statistic (mean, sample variance): f(D), the average release, the prediction,
        the standard error and the z-score between them.

    Raises
    ------
    ValueError
        As ``input_perturbation``.
    """
    x = finite_array("values", values)
    statistics: dict[str, Callable[[np.ndarray], np.ndarray]] = {
        "mean": lambda v: v.mean(axis=1),
        "sample variance": lambda v: v.var(axis=1, ddof=1),
    }
    rows = []
    # at ε near 1e-150 the noise variance 2b² exceeds a float: shown as inf, not raised
    with np.errstate(over="ignore", invalid="ignore"):
        for name, statistic in statistics.items():
            noisy = input_perturbation(x, statistic, noise_scale, rng, runs)
            true = float(statistic(x[None, :])[0])
            # E[s²(x + η)] = s²(x) + Var(η), Var(η) = 2b²
            predicted = true if name == "mean" else true + 2 * np.float64(noise_scale) ** 2
            se = noisy.std(ddof=1) / math.sqrt(runs)
            rows.append(
                {
                    "statistic f": name,
                    "f(D)": true,
                    "average release": noisy.mean(),
                    "average - f(D)": noisy.mean() - true,
                    "prediction": predicted,
                    "standard error": se,
                    "z (average vs prediction)": (noisy.mean() - predicted) / se,
                }
            )
    return pd.DataFrame(rows).set_index("statistic f")


def neighbour_densities(
    center: float, neighbour_center: float, sensitivity: float, epsilon: float, points: int = 2001
) -> pd.DataFrame:
    """The densities of A(D) and A(D′) and the privacy loss ln(p_D(a)/p_D′(a)) on a grid over
    both (the ratio the post's Eq. 2 bounds by e^ε), the loss checked to lie within ±ε.

    The grid runs from one sensitivity and six noise scales below ``center`` to as far above
    ``neighbour_center``, and holds both centres, where the densities peak.

    Parameters
    ----------
    center : float
        The true answer on D.
    neighbour_center : float
        The true answer on the neighbour D′.
    sensitivity : float
        The sensitivity Δf, > 0.
    epsilon : float
        The privacy parameter ε, > 0.
    points : int
        The points of the grid (both centres are added).

    Returns
    -------
    pandas.DataFrame
        Columns ``epsilon``, ``a``, ``density_D``, ``density_D_prime`` and ``ln_ratio``.

    Raises
    ------
    RuntimeError
        If the privacy loss leaves [-ε, ε] by more than its round-off.
    ValueError
        If ``sensitivity`` or ``epsilon`` is not a finite number > 0.
    """
    lam = scale(sensitivity, epsilon)
    low = center - sensitivity - 6 * lam
    high = neighbour_center + sensitivity + 6 * lam
    a = np.union1d(np.linspace(low, high, points), [center, neighbour_center])
    loss = log_density_ratio(a, center, neighbour_center, sensitivity, epsilon)
    check_privacy_loss(loss, a, center, neighbour_center, sensitivity, epsilon)
    return pd.DataFrame(
        {
            "epsilon": epsilon,
            "a": a,
            "density_D": distribution(center, sensitivity, epsilon).pdf(a),
            "density_D_prime": distribution(neighbour_center, sensitivity, epsilon).pdf(a),
            "ln_ratio": loss,
        }
    )
