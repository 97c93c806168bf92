"""Figures of the Lee & Clifton (2011) notebook: each function takes computed data and returns the
figure with the data frame drawn in it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .. import laplace
from ..figures import centred_text
from ..possible_worlds import MAX_WORLDS_SHOWN

# a world whose answer an earlier world shares gets the next style: coinciding curves stay visible
STYLES = ("-", "--", ":", "-.")


def density_labels(answers: np.ndarray, shown: np.ndarray) -> list[str]:
    """The legend entry of each shown world in Figs. 1 and 3: its name and its answer f(ω)."""
    return [f"ω{k + 1}, f(ω{k + 1})={answers[k]:.4g}" for k in shown]


def density_panel(
    ax: Axes, centres: np.ndarray, scale: float, labels: Sequence[str], title: str
) -> pd.DataFrame:
    """Draw the Laplace density of each world's response f(ω) + Lap(λ) on ``ax`` (Figs. 1 and 3),
    8.5 scales beyond the extreme answers; return the curves."""
    x = np.linspace(centres.min() - 8.5 * scale, centres.max() + 8.5 * scale, 1201)
    x = np.union1d(x, centres)  # the peaks themselves, so every curve reaches its true height
    data = {"response": x}
    for i, (centre, label) in enumerate(zip(centres, labels)):
        y = laplace.distribution(centre, scale, 1.0).pdf(x)
        data[label] = y
        # earlier worlds with the same answer, hence the same curve
        twins = int(np.sum(centres[:i] == centre))
        ax.plot(x, y, ls=STYLES[twins % len(STYLES)], lw=2.4 - 0.6 * min(twins, 2), label=label)
    ylim = (0, 1.15 / (2 * scale))
    ax.set(
        xlabel="noisy response (γ)", ylabel="density", title=title, xlim=(x[0], x[-1]), ylim=ylim
    )
    ax.legend()
    return pd.DataFrame(data)


def fig1_response_distributions(
    centres: np.ndarray, scale: float, labels: Sequence[str], title: str
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 1: the response distribution f(ω) + Lap(λ) of each world, one curve per world."""
    fig, ax = plt.subplots()
    return fig, density_panel(ax, centres, scale, labels, title)


def domain_label(values: Sequence[float] | np.ndarray) -> str:
    """dom(X) as Fig. 2's titles print it: every value, or for a large database their range."""
    x = np.asarray(values)
    if x.size <= MAX_WORLDS_SHOWN:
        return "{" + ", ".join(f"{v:g}" for v in x) + "}"
    return f"{x.size} values in [{x.min():g}, {x.max():g}]"


def fig2_risk_upper_bound(
    epsilons: np.ndarray,
    curves: Mapping[str, tuple[np.ndarray, np.ndarray]],
    domains: Mapping[str, str],
    bounds: Mapping[str, float],
    exacts: Mapping[str, float],
    rho: float,
    prior: float,
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 2: β(ω1) at its worst response (Eq. 3) and the bound of Eq. (5) against ε, a panel per
    attribute, with ρ and the two admissible ε (Eq. 7 and exact) marked."""
    panels = list(curves)
    size = (5.2 * len(panels), 4.0)
    fig, axes = plt.subplots(1, len(panels), figsize=size, squeeze=False)
    end = float(epsilons[-1])
    frames = []
    for letter, ax, a in zip("ab", axes[0], panels):
        beta1, upper = curves[a]
        ax.plot(epsilons, beta1, label="β(ω1) at γ = f(ω1), Eq. (3)")
        ax.plot(epsilons, upper, "--", label="upper bound, Eq. (5)")
        ax.axhline(rho, color="grey", lw=0.8, label=f"ρ = {rho:.4g}")
        for value, style, label in ((bounds[a], ":", "Eq. (7) ε"), (exacts[a], "-.", "exact ε")):
            if value <= end:
                ax.axvline(value, color="black", ls=style, lw=0.8, label=f"{label} = {value:.4f}")
            elif math.isinf(value):
                ax.plot([], [], " ", label=f"{label} = ∞: the risk never exceeds ρ")
        ax.set(
            xlabel="privacy parameter (ε)",
            ylabel="posterior probability of the true world",
            title=f"({letter}) {a}: dom(X) = {domains[a]}",
            xlim=(0, end),
            ylim=(max(0.0, min(0.2, prior - 0.05)), 1.0),
        )
        ax.legend(fontsize=8, loc="lower right")
        curve = {"epsilon": epsilons, "beta_true_world": beta1, "upper_bound_eq5": upper}
        frames.append(pd.DataFrame({"attribute": a} | curve))
    fig.suptitle("Fig. 2: upper bound on the risk of disclosure by domain")
    return fig, pd.concat(frames, ignore_index=True)


def fig3_mean_vs_median(
    mean: tuple[np.ndarray, float, Sequence[str]],
    median: tuple[np.ndarray, float, Sequence[str]],
    epsilon: float,
    of_n: str = "",
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 3: the world densities for (a) the mean and (b) the median, each given as (answers,
    noise scale, labels); a median scale of 0 says that no noise is needed."""
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.0))
    panel_a = density_panel(ax_a, *mean, f"(a) mean, ε = {epsilon:g}{of_n}")
    centres, scale, labels = median
    if scale > 0:
        panel_b = density_panel(ax_b, centres, scale, labels, f"(b) median, ε = {epsilon:g}{of_n}")
    else:  # no removal moves any world's median: every world answers the same
        text = (
            f"Δf = 0: every world's median is {centres[0]:g}\nand no removal moves it,\n"
            "so the median needs no noise"
        )
        centred_text(ax_b, text)
        ax_b.set(title=f"(b) median, ε = {epsilon:g}", xticks=[], yticks=[])
        panel_b = pd.DataFrame({"response": centres})
    fig.suptitle("Fig. 3: distributions of each possible world for two queries")
    panels = [panel_a.assign(panel="a_mean"), panel_b.assign(panel="b_median")]
    return fig, pd.concat(panels, ignore_index=True)


def monte_carlo_figure(
    simulated: pd.DataFrame, exact: pd.DataFrame, prior: float, n_trials: int, attribute: str
) -> tuple[Figure, pd.DataFrame]:
    """The simulated adversary (``adversary_summary`` rows) beside the exact chance of a right guess
    and the worst-case posterior of Eq. (3) (``exact``: columns ε and those two)."""
    fig, ax = plt.subplots()
    ax.plot(exact["ε"], exact["guess right (exact)"], label="Pr(right guess), exact")
    ax.errorbar(
        simulated["ε"],
        simulated["guess right (MC)"],
        yerr=2 * simulated["± s.e."],
        fmt="o",
        label=f"Monte Carlo, {n_trials} responses",
    )
    ax.plot(exact["ε"], exact["worst case, Eq. (3)"], "--", label="worst-case posterior, Eq. (3)")
    ax.plot(
        simulated["ε"], simulated["mean posterior of ω1"], "s", label="mean posterior of ω1 (MC)"
    )
    ax.axhline(prior, color="grey", lw=0.8, label="prior 1/n")
    ax.set(
        xscale="log",
        xlabel="privacy parameter (ε)",
        ylabel="probability",
        title=f"The adversary on the mean of {attribute}",
        ylim=(0, 1.02),
    )
    ax.legend(fontsize=8)
    return fig, simulated


def astronaut_figure(
    sweep: pd.DataFrame, edge: float, outlier_km: float, rho: float, alumni_n: int
) -> tuple[Figure, pd.DataFrame]:
    """The admissible ε (Eq. 7 and exact) and the noise scale Δf/ε as one outlier moves beyond the
    farthest other alumnus at ``edge`` km (``outlier_sweep``)."""
    excess = sweep.beyond_farthest_other_km.to_numpy()
    fig, (ax, ax_noise) = plt.subplots(1, 2, figsize=(11, 4))
    ax.plot(excess, sweep.epsilon_exact, label="exact ε")
    ax.plot(excess, sweep.epsilon_upper_bound, "--", label="Eq. (7) ε")
    noise = "noise scale Δf/ε at the exact ε"
    ax_noise.plot(excess, sweep.noise_scale_km, color="tab:green", label=noise)
    for panel in (ax, ax_noise):
        if outlier_km > edge:
            astronaut = f"the astronaut, {outlier_km:,.0f} km"
            panel.axvline(outlier_km - edge, color="grey", ls=":", label=astronaut)
        xlabel = "distance beyond the farthest other alumnus (km)"
        panel.set(xscale="log", yscale="log", xlabel=xlabel)
        panel.legend(fontsize=8)
    title = f"One outlier among {alumni_n:,} alumni (the others within {edge:,.0f} km)"
    ax.set(ylabel=f"admissible ε at ρ = {rho:g}", title=title)
    ax_noise.set(ylabel="noise scale Δf/ε (km)", title="the noise it forces on the released mean")
    return fig, sweep
