"""Figures of the introduction to the Laplace mechanism (notebooks/laplace_intro.ipynb): each
function takes the computed data and returns the figure with the data frame it draws."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib import pyplot as plt
from matplotlib.figure import Figure
from scipy import stats

from .. import laplace

MAX_ROWS = 10_000  # beyond this many rows, the data saved with a figure is thinned or binned


def output_perturbation(
    releases: np.ndarray, center: float, noise_scale: float, max_rows: int = MAX_ROWS
) -> tuple[Figure, pd.DataFrame]:
    """Output perturbation A(D) = f(D) + η (the post's Eq. 1): a histogram of the releases under
    the Laplace density around f(D); the data is every release, or beyond ``max_rows`` the
    histogram."""
    fig, ax = plt.subplots()
    heights, edges, _ = ax.hist(
        releases, bins=60, density=True, alpha=0.5, label=f"{len(releases)} releases A(D)"
    )
    x = np.linspace(center - 8 * noise_scale, center + 8 * noise_scale, 801)
    density = stats.laplace(loc=center, scale=noise_scale).pdf(x)
    ax.plot(x, density, label=f"density of A(D): Laplace({center:g}, {noise_scale:g})")
    ax.axvline(center, color="black", lw=1, label=f"f(D) = {center:g}")
    ax.set(
        xlabel="released value (A(D))",
        ylabel="density",
        title="Output perturbation: A(D) = f(D) + η",
    )
    ax.legend(fontsize=8)
    if len(releases) <= max_rows:
        return fig, pd.DataFrame({"release": releases})
    bins = {"bin_left": edges[:-1], "bin_right": edges[1:], "density": np.asarray(heights)}
    return fig, pd.DataFrame(bins)


def scenarios(
    panels: Sequence[pd.DataFrame], center: float, neighbour_center: float
) -> tuple[Figure, pd.DataFrame]:
    """The post's Figures 3 and 4: for each ε (a frame of ``laplace.neighbour_densities``), the
    densities of A(D) and A(D′) above, and below their ratio on a log scale within e^(±ε) (Eq. 2);
    the data is the frames, one after the other."""
    fig, axes = plt.subplots(
        2,
        len(panels),
        figsize=(11, 6),
        sharex="col",
        gridspec_kw={"height_ratios": [2, 1]},
        layout="constrained",
        squeeze=False,
    )
    letters = "abcdefghijklmnopqrstuvwxyz"
    for col, panel in enumerate(panels):
        eps = float(panel["epsilon"].iloc[0])
        top, bottom = axes[0, col], axes[1, col]
        top.plot(panel["a"], panel["density_D"], color="green", label=f"A(D), f(D) = {center:g}")
        top.plot(
            panel["a"], panel["density_D_prime"], "--", label=f"A(D′), f(D′) = {neighbour_center:g}"
        )
        top.set(ylabel="density", title=f"({letters[col]}) output densities, ε = {eps:g}")
        top.legend(fontsize=8)
        # the log of the ratio: a log axis for the ratio itself, drawable at any ε
        bottom.plot(panel["a"], panel["ln_ratio"], color="purple")
        bottom.set_yticks(
            [-eps, 0, eps], [laplace.ratio_label(-eps), "1", laplace.ratio_label(eps)]
        )
        bottom.set_ylim(-1.3 * eps, 1.3 * eps)
        bottom.set(
            xlabel="output (a)",
            ylabel="density ratio\n(p_D(a)/p_D′(a))",
            title=f"({letters[len(panels) + col]}) their ratio on a log scale, within e^(±ε)",
        )
    return fig, pd.concat(list(panels), ignore_index=True)


def averaging_attack(
    k: np.ndarray,
    running_mean: np.ndarray,
    standard_error: np.ndarray,
    center: float,
    max_rows: int = MAX_ROWS,
) -> tuple[Figure, pd.DataFrame]:
    """The averaging attack: the mean of the first k releases closing in on f(D) within ±2
    standard errors, on a log axis of k; beyond ``max_rows`` releases, about ``max_rows`` values
    of k spaced evenly on that axis are drawn and kept."""
    n = len(k)
    if n <= max_rows:
        drawn = np.arange(n)
    else:
        drawn = np.unique(np.geomspace(1, n, max_rows).round().astype(int)) - 1
    k, running_mean, standard_error = k[drawn], running_mean[drawn], standard_error[drawn]
    fig, ax = plt.subplots()
    ax.plot(k, running_mean, label="mean of the first k releases")
    band = (center - 2 * standard_error, center + 2 * standard_error)
    ax.fill_between(k, *band, alpha=0.2, label="f(D) ± 2 standard errors")
    ax.axhline(center, color="black", lw=1, label=f"f(D) = {center:g}")
    ax.set(
        xscale="log",
        xlabel="number of releases (k)",
        ylabel="estimate of the true answer\n(mean of k releases)",
        title="The averaging attack",
    )
    ax.legend(fontsize=8)
    frame = pd.DataFrame({"k": k, "running_mean": running_mean, "standard_error": standard_error})
    return fig, frame


def privacy_loss(
    releases: np.ndarray, loss: np.ndarray, epsilon: float, max_rows: int = MAX_ROWS
) -> tuple[Figure, pd.DataFrame]:
    """A histogram of the privacy loss ln(p_D(a)/p_D′(a)) at releases a ~ A(D), on [-ε, ε]; the
    data is every release with its loss, or beyond ``max_rows`` every n-th loss."""
    fig, ax = plt.subplots()
    # the loss lies in [-ε, ε] up to round-off (laplace.check_privacy_loss)
    ax.hist(np.clip(loss, -epsilon, epsilon), bins=50, range=(-epsilon, epsilon), density=True)
    ax.set(
        xlabel="privacy loss (ln p_D(a)/p_D′(a))",
        ylabel="density",
        title=f"The privacy loss when a ~ A(D), ε = {epsilon:g}",
    )
    if len(loss) <= max_rows:
        return fig, pd.DataFrame({"release": releases, "privacy_loss": loss})
    return fig, pd.DataFrame({"privacy_loss": loss[:: max(1, len(loss) // max_rows)]})
