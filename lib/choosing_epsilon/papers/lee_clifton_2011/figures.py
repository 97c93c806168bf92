"""Figures of the Lee & Clifton (2011) notebook: each figure function takes computed data and
returns the figure with the data frame drawn in it; each ``*_caption`` function words what its
figure shows, from the same data, so that the caption stays true at any parameters. The tables
they draw from are ``tabulate``."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from choosing_epsilon import laplace
from choosing_epsilon.papers.lee_clifton_2011.tabulate import MAX_WORLDS_SHOWN, as_text
from choosing_epsilon.plots import style
from choosing_epsilon.plots.figures import Caption, centred_text

# a horizontal reference line (ρ, the prior): grey, and dashed unlike any curve of its panel
REFERENCE_DASH = (0, (8, 2))
# how far the density panels reach beyond the extreme answers, in noise scales
REACH = 8.5


def _fixed(value: float) -> str:
    """``value`` to 4 decimals, and ∞ written out."""
    return "∞" if math.isinf(value) else f"{value:.4f}"


def _trend(first: float, last: float) -> str:
    """How a curve goes from ``first`` to ``last``: "rises", "falls" or "stays"."""
    if math.isclose(first, last, rel_tol=1e-9, abs_tol=1e-12):
        return "stays"
    return "rises" if last > first else "falls"


def _and(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def density_labels(answers: np.ndarray, shown: np.ndarray) -> list[str]:
    """The legend entry of each shown world in Figs. 1 and 3: its name and its answer f(ω)."""
    return [f"ω{k + 1}, f(ω{k + 1})={answers[k]:.4g}" for k in shown]


def response_range(centres: np.ndarray, scale: float) -> tuple[float, float]:
    """The noisy responses a density panel spans: 8.5 noise scales beyond the extreme answers."""
    return float(centres.min() - REACH * scale), float(centres.max() + REACH * scale)


def density_panel(
    ax: Axes, centres: np.ndarray, scale: float, labels: Sequence[str]
) -> pd.DataFrame:
    """Draw the Laplace density of each world's response f(ω) + Lap(λ) on ``ax`` (Figs. 1 and 3),
    8.5 scales beyond the extreme answers, each world in its own colour and dash; return the
    curves."""
    low, high = response_range(centres, scale)
    x = np.union1d(np.linspace(low, high, 1201), centres)  # the peaks, at their true height
    data = {"response": x}
    for i, (centre, label) in enumerate(zip(centres, labels)):
        y = laplace.distribution(centre, scale, 1.0).pdf(x)
        data[label] = y
        # a world whose answer an earlier world shares is drawn thinner over it: both stay visible
        twins = int(np.sum(centres[:i] == centre))
        ax.plot(x, y, lw=2.2 - 0.6 * min(twins, 2), label=label)
    ax.set(xlabel="noisy response (γ)", ylabel="density", xlim=(x[0], x[-1]))
    ax.set_ylim(0, 1.15 / (2 * scale))
    # below the panel: up to eight peaks, wherever the worlds' answers fall, leave no free corner
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17), ncols=2)
    return pd.DataFrame(data)


def fig1_response_distributions(
    centres: np.ndarray, scale: float, labels: Sequence[str], title: str
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 1: the response distribution f(ω) + Lap(λ) of each world, one curve per world."""
    fig, ax = plt.subplots()
    data = density_panel(ax, centres, scale, labels)
    ax.set_title(title)
    return fig, data


def fig1_caption(
    attribute: str, epsilon: float, answers: np.ndarray, scale: float, shown: np.ndarray
) -> Caption:
    """Fig. 1's caption: the worlds' densities, and how far the true world ω1 (``answers[0]``)
    lies from the nearest other world's answer, in noise scales; ``shown`` indexes the drawn."""
    others = np.delete(answers, 0)
    gap = float(np.abs(others - answers[0]).min())
    of_n = f", {len(shown)} of the {len(answers)} drawn" if len(shown) < len(answers) else ""
    caption = (
        f"The response distribution of each possible world for the noisy mean of {attribute} at "
        f"ε = {epsilon:g} (noise scale Δf/ε = {scale:.4g}{of_n}): the true world ω1's answer, "
        f"{answers[0]:.4g}, lies {gap / scale:.3g} noise scales from the nearest other world's, "
        "and the farther apart two worlds' answers lie, the better a response tells them apart."
    )
    centres = answers[shown]
    low, high = response_range(centres, scale)
    shared = len(set(centres.tolist())) < len(centres)
    same = " (worlds with the same answer share one curve, the later drawn thinner)"
    same = same if shared else ""
    alt = (
        f"Line plot of density (0 to {1 / (2 * scale):.3g} at every peak) against the noisy "
        f"response (γ) from {low:.3g} to {high:.3g}: {len(centres)} symmetric, sharply peaked "
        f"Laplace curves, one per world, centred on the answers "
        f"{_and([f'{c:.4g}' for c in centres])}, each in its own colour and dash pattern{same}."
    )
    return Caption(caption=caption, alt=alt)


DOMAIN_CHARACTERS = 24  # a longer list of values would not fit beside its neighbour's title


def domain_label(values: Sequence[float] | np.ndarray) -> str:
    """dom(X) as Fig. 2's titles print it: every value, or for a large database their range."""
    x = np.asarray(values)
    listed = "{" + ", ".join(f"{v:g}" for v in x) + "}"
    if x.size <= MAX_WORLDS_SHOWN and len(listed) <= DOMAIN_CHARACTERS:
        return listed
    return f"{x.size} values in [{x.min():g}, {x.max():g}]"


def _title(ax: Axes, index: int, count: int, text: str) -> None:
    """Title a panel: with its letter in a figure of several panels, without in one of one."""
    if count > 1:
        style.panel_title(ax, index, text)
    else:
        ax.set_title(text)


# a marked ε within this share of Fig. 2's axis is drawn on its left edge, and said to be
EDGE_SHARE = 0.02


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
    for index, (ax, a) in enumerate(zip(axes[0], panels)):
        beta1, upper = curves[a]
        # the exact worst case and its ε in blue, the bound of Eq. (5) and its ε in vermillion
        ax.plot(epsilons, beta1, color=style.LOWER, ls="-", label="β(ω1) at γ = f(ω1), Eq. (3)")
        ax.plot(epsilons, upper, color=style.UPPER, ls="--", label="upper bound, Eq. (5)")
        ax.axhline(rho, color=style.REFERENCE, ls=REFERENCE_DASH, lw=1, label=f"ρ = {rho:.4g}")
        # off the axis both sit at ρ on its right edge: the bound a small filled arrowhead, the
        # exact ε a larger hollow one around it, so that greyscale tells them apart
        marks = (
            (bounds[a], style.UPPER, ":", "Eq. (7) ε", {"ms": 6}),
            (exacts[a], style.LOWER, "-.", "exact ε", {"ms": 12, "mfc": "none", "mew": 1.5}),
        )
        for value, colour, dash, label, arrowhead in marks:
            if value <= end:
                # a line this close to the left edge merges with the axis: the legend says so
                edge = ", at the axis's left edge" if value < EDGE_SHARE * end else ""
                ax.axvline(value, color=colour, ls=dash, lw=1, label=f"{label} = {value:.4f}{edge}")
            elif math.isinf(value):
                ax.plot([], [], " ", label=f"{label} = ∞: the risk never exceeds ρ")
            else:  # beyond the axis: an arrowhead on its right edge, at ρ, says where it lies
                ax.plot(
                    [end],
                    [rho],
                    marker=">",
                    color=colour,
                    ls="none",
                    clip_on=False,
                    label=f"{label} = {value:.4f}, beyond the axis's {end:g} →",
                    **arrowhead,
                )
        ax.set(
            xlabel="privacy parameter (ε)",
            ylabel="posterior probability of the true world",
            xlim=(0, end),
            ylim=(max(0.0, min(0.2, prior - 0.05)), 1.0),
        )
        title = f"{a}: dom(X) = {domains[a]}"
        # a long attribute name puts the domain on a line of its own
        _title(ax, index, len(panels), title if len(title) <= 40 else title.replace(": ", ":\n", 1))
        # below the panel, where it can cover no curve
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17), frameon=False)
        curve = {"epsilon": epsilons, "beta_true_world": beta1, "upper_bound_eq5": upper}
        frames.append(pd.DataFrame({"attribute": a} | curve))
    # above a panel title of two lines (a long attribute name or domain), not over it
    tall = any("\n" in ax.get_title("left") + ax.get_title() for ax in axes[0])
    title = "Fig. 2: upper bound on the risk of disclosure by domain"
    fig.suptitle(title, y=1.04 if tall else 0.98)
    return fig, pd.concat(frames, ignore_index=True)


def fig2_caption(
    epsilons: np.ndarray,
    curves: Mapping[str, tuple[np.ndarray, np.ndarray]],
    bounds: Mapping[str, float],
    exacts: Mapping[str, float],
    rho: float,
    prior: float,
) -> Caption:
    """Fig. 2's caption: for each attribute, the largest ε within ρ by the bound and exactly."""
    panels = list(curves)
    pairs = [f"{_fixed(bounds[a])} against {_fixed(exacts[a])} for {a}" for a in panels]
    caption = (
        f"The true world's posterior at its worst response (Eq. 3) and its upper bound (Eq. 5) as "
        f"ε grows, for {_and(panels)}: the largest ε that keeps the risk within ρ = {rho:.4g} is, "
        f"by the bound and exactly, {_and(pairs)}, the bound erring on the safe side."
    )
    end = float(epsilons[-1])
    low = max(0.0, min(0.2, prior - 0.05))
    ends = [
        f"{'(' + chr(ord('a') + i) + ') ' if len(panels) > 1 else ''}{a}: "
        f"{curves[a][0][-1]:.3f} and {curves[a][1][-1]:.3f}"
        for i, a in enumerate(panels)
    ]
    alt = (
        f"{'Two panels, one per attribute, each' if len(panels) > 1 else 'One panel'} plotting "
        f"the posterior probability of the true world ({low:g} to 1) against the privacy parameter "
        f"ε from 0 to {end:g}: a solid blue curve for the worst case and a dashed vermillion curve "
        f"on or above it for the bound, both starting at the prior 1/n = {prior:.4g} and reaching "
        f"at ε = {end:g} the values {'; '.join(ends)}. A grey horizontal line marks "
        f"ρ = {rho:.4g}, and vertical lines mark the Eq. (7) ε (dotted) and the exact ε "
        "(dash-dot) where they fall on the axis; one beyond it is an arrowhead on the right edge."
    )
    beyond = [
        f"the {name} ε for {a}, {_fixed(value)}"
        for a in panels
        for name, value in (("Eq. (7)", bounds[a]), ("exact", exacts[a]))
        if end < value < math.inf
    ]
    if beyond:
        off_axis = f"past the axis's ε = {end:g} lie {_and(beyond)}, each an arrowhead at the edge"
        caption = f"{caption[:-1]}; {off_axis}."
    return Caption(caption=caption, alt=alt)


def fig3_mean_vs_median(
    mean: tuple[np.ndarray, float, Sequence[str]],
    median: tuple[np.ndarray, float, Sequence[str]],
    epsilon: float,
    of_n: str = "",
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 3: the world densities for (a) the mean and (b) the median, each given as (answers,
    noise scale, labels); a median scale of 0 says that no noise is needed."""
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.0))
    panel_a = density_panel(ax_a, *mean)
    style.panel_title(ax_a, 0, f"mean, ε = {epsilon:g}{of_n}")
    centres, scale, labels = median
    if scale > 0:
        panel_b = density_panel(ax_b, centres, scale, labels)
        style.panel_title(ax_b, 1, f"median, ε = {epsilon:g}{of_n}")
    else:  # no removal moves any world's median: every world answers the same
        text = (
            f"Δf = 0: every world's median is {centres[0]:g}\nand no removal moves it,\n"
            "so the median needs no noise"
        )
        centred_text(ax_b, text)
        ax_b.set(xticks=[], yticks=[])
        style.panel_title(ax_b, 1, f"median, ε = {epsilon:g}")
        panel_b = pd.DataFrame({"response": centres})
    fig.suptitle("Fig. 3: distributions of each possible world for two queries")
    panels = [panel_a.assign(panel="a_mean"), panel_b.assign(panel="b_median")]
    return fig, pd.concat(panels, ignore_index=True)


def _span(answers: np.ndarray, scale: float) -> float:
    """How far apart the extreme world answers lie, in noise scales."""
    return float(np.ptp(answers)) / scale


def fig3_caption(
    attribute: str,
    epsilon: float,
    mean: tuple[np.ndarray, float],
    median: tuple[np.ndarray, float],
    shown: np.ndarray,
) -> Caption:
    """Fig. 3's caption: how many noise scales the world answers span under the mean and under
    the median, each given as (every world's answer, noise scale), a median scale of 0 meaning
    that no noise is needed; ``shown`` indexes the worlds drawn."""
    (mean_answers, mean_scale), (median_answers, median_scale) = mean, median
    span_mean = _span(mean_answers, mean_scale)
    distinct = len(set(median_answers.tolist()))
    worlds = f"the {len(median_answers)} worlds share {distinct} distinct medians"
    if median_scale > 0:
        span_median = _span(median_answers, median_scale)
        if math.isclose(span_median, span_mean, rel_tol=1e-9):
            verdict = "as well"
        else:
            verdict = "less" if span_median < span_mean else "more"
        finding = (
            f"the world answers span {span_mean:.3g} noise scales under the mean and "
            f"{span_median:.3g} under the median, and {worlds}, so a response separates the "
            f"worlds {verdict} under the median"
        )
    else:
        finding = (
            f"the world answers span {span_mean:.3g} noise scales under the mean, while every "
            f"world's median is {median_answers[0]:g}, so the median needs no noise"
        )
    of_n = (
        f", {len(shown)} of the {len(mean_answers)} worlds drawn"
        if len(shown) < len(mean_answers)
        else ""
    )
    caption = (
        f"The response distribution of each possible world for (a) the mean and (b) the median of "
        f"{attribute} at ε = {epsilon:g}{of_n}: {finding}."
    )
    means, medians = mean_answers[shown], median_answers[shown]
    low, high = response_range(means, mean_scale)
    if median_scale > 0:
        median_low, median_high = response_range(medians, median_scale)
        shared = len(set(medians.tolist())) < len(medians)
        over = ", the second of each pair with the same median drawn thinner over the first"
        over = over if shared else ""
        panel_b = (
            f"(b) {len(medians)} curves over {median_low:.3g} to {median_high:.3g}, centred on "
            f"the medians {_and([f'{c:.4g}' for c in medians])} with peaks "
            f"{1 / (2 * median_scale):.3g}, each world in its own colour and dash{over}"
        )
    else:
        panel_b = "(b) no curve but a sentence saying that the median needs no noise"
    alt = (
        f"Two panels of density against the noisy response (γ): (a) {len(means)} Laplace curves "
        f"over {low:.3g} to {high:.3g}, centred on the means {_and([f'{c:.4g}' for c in means])} "
        f"with peaks {1 / (2 * mean_scale):.3g}; {panel_b}."
    )
    return Caption(caption=caption, alt=alt)


def monte_carlo_figure(
    simulated: pd.DataFrame, exact: pd.DataFrame, prior: float, n_trials: int, attribute: str
) -> tuple[Figure, pd.DataFrame]:
    """The simulated adversary (``adversary_summary`` rows) beside the exact chance of a right guess
    and the worst-case posterior of Eq. (3) (``exact``: columns ε and those two)."""
    fig, ax = plt.subplots()
    guess, posterior = style.LOWER, style.UPPER
    ax.plot(
        exact["ε"],
        exact["guess right (exact)"],
        color=guess,
        ls="-",
        label="Pr(right guess), exact",
    )
    ax.errorbar(
        simulated["ε"],
        simulated["guess right (MC)"],
        yerr=2 * simulated["± s.e."],
        fmt="o",
        color=guess,
        mfc="none",
        label=f"Monte Carlo, {n_trials:,} responses",
    )
    worst = "worst-case posterior, Eq. (3)"
    ax.plot(exact["ε"], exact["worst case, Eq. (3)"], color=posterior, ls="--", label=worst)
    mean = "mean posterior of ω1 (Monte Carlo)"
    ax.plot(simulated["ε"], simulated["mean posterior of ω1"], "s", color=posterior, label=mean)
    ax.axhline(prior, color=style.REFERENCE, ls=REFERENCE_DASH, lw=1, label="prior 1/n")
    ax.set(
        xscale="log",
        xlabel="privacy parameter (ε)",
        ylabel="probability",
        title=f"The adversary on the mean of {attribute}",
        ylim=(0, 1.02),
    )
    # below the panel: its curves and markers run anywhere between the prior and 1
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17), ncols=2)
    return fig, simulated


def monte_carlo_caption(
    simulated: pd.DataFrame, exact: pd.DataFrame, prior: float, n_trials: int, attribute: str
) -> Caption:
    """The Monte Carlo figure's caption: at the largest simulated ε, how often the best guess is
    right beside the true world's mean and worst-case posterior."""
    top = simulated.iloc[int(np.argmax(simulated["ε"].to_numpy()))]
    caption = (
        f"A simulated adversary against the noisy mean of {attribute} ({n_trials:,} responses per "
        f"ε): at ε = {top['ε']:g} its best guess is right in {top['guess right (MC)']:.1%} of the "
        f"responses and the true world's posterior averages {top['mean posterior of ω1']:.3f}, "
        f"against a worst case (Eq. 3) of {top['worst case, Eq. (3)']:.3f} and a prior of "
        f"{prior:.4g}, while at the smallest ε drawn, {exact['ε'].iloc[0]:.3g}, the best guess is "
        f"still right with probability {exact['guess right (exact)'].iloc[0]:.3f}."
    )
    first, last = exact.iloc[0], exact.iloc[-1]
    right = exact["guess right (exact)"]
    worst = exact["worst case, Eq. (3)"]
    alt = (
        f"Probability (0 to 1) against the privacy parameter ε on a log axis from "
        f"{first['ε']:.3g} to {last['ε']:.3g}: the exact chance of a right guess (solid blue line) "
        f"{_trend(right.iloc[0], right.iloc[-1])} from {right.iloc[0]:.3f} to {right.iloc[-1]:.3f} "
        f"with the simulated hit rates (hollow circles, ±2 standard errors) on it, and the "
        f"worst-case posterior (dashed vermillion line) {_trend(worst.iloc[0], worst.iloc[-1])} "
        f"from {worst.iloc[0]:.3f} to {worst.iloc[-1]:.3f} with the simulated mean posteriors "
        f"(filled squares) on or below it. A grey horizontal line marks the prior 1/n = "
        f"{prior:.4g}."
    )
    return Caption(caption=caption, alt=alt)


def astronaut_figure(
    sweep: pd.DataFrame, edge: float, outlier_km: float, rho: float, alumni_n: int
) -> tuple[Figure, pd.DataFrame]:
    """The admissible ε (Eq. 7 and exact) and the noise scale Δf/ε as one outlier moves beyond the
    farthest other alumnus at ``edge`` km (``outlier_sweep``)."""
    excess = sweep.beyond_farthest_other_km.to_numpy()
    fig, (ax, ax_noise) = plt.subplots(1, 2, figsize=(11, 4))
    ax.plot(excess, sweep.epsilon_exact, color=style.LOWER, ls="-", label="exact ε")
    ax.plot(excess, sweep.epsilon_upper_bound, color=style.UPPER, ls="--", label="Eq. (7) ε")
    noise = "noise scale Δf/ε at the exact ε"
    ax_noise.plot(excess, sweep.noise_scale_km, color=style.LOWER, ls="-", label=noise)
    for panel in (ax, ax_noise):
        if outlier_km > edge:
            astronaut = f"the astronaut ({outlier_km:,.0f} km from campus)"
            panel.axvline(outlier_km - edge, color=style.REFERENCE, ls=":", label=astronaut)
        xlabel = "distance beyond the farthest other alumnus (km)"
        panel.set(xscale="log", yscale="log", xlabel=xlabel)
        # below the panel: the curves fill its upper corners at one end of the sweep or the other
        panel.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17), frameon=False)
    fig.suptitle(f"One outlier among {alumni_n:,} alumni (the others within {edge:,.0f} km)")
    style.panel_title(ax, 0, "the largest admissible ε")
    ax.set(ylabel=f"largest admissible privacy parameter (ε, for ρ = {rho:g})")
    style.panel_title(ax_noise, 1, "the noise it forces on the released mean")
    ax_noise.set(ylabel="noise scale (Δf/ε, km)")
    return fig, sweep


def astronaut_caption(
    sweep: pd.DataFrame,
    edge: float,
    outlier_km: float,
    rho: float,
    alumni_n: int,
    astronaut_epsilon: float,
) -> Caption:
    """The astronaut figure's caption: the exact ε from the edge of the crowd to the far end of
    the sweep, and at the astronaut's distance (``astronaut_epsilon``, computed apart)."""
    first, last = sweep.iloc[0], sweep.iloc[-1]
    noise = sweep.noise_scale_km
    noise_trend = _trend(noise.iloc[0], noise.iloc[-1])
    start = (
        f"{as_text(first.epsilon_exact)} at {first.beyond_farthest_other_km:,.3g} km beyond them"
    )
    if outlier_km > edge:
        to = f"{as_text(astronaut_epsilon)} for the astronaut at {outlier_km:,.0f} km"
    else:
        to = (
            f"{as_text(last.epsilon_exact)} at {last.beyond_farthest_other_km:,.0f} km (an outlier "
            f"at {outlier_km:,.0f} km lies within the crowd, at ε = {as_text(astronaut_epsilon)})"
        )
    caption = (
        f"One of {alumni_n:,} synthetic alumni moved ever farther beyond the others (all within "
        f"{edge:,.0f} km of campus): the largest admissible ε of the released mean at ρ = {rho:g} "
        f"(exact) goes from {start} to {to}, while the noise scale Δf/ε it calls for "
        f"{noise_trend} from {noise.iloc[0]:.2g} km to {noise.iloc[-1]:.3g} km across the sweep."
    )
    exact, bound = sweep.epsilon_exact, sweep.epsilon_upper_bound
    marked = " A dotted vertical line marks the astronaut in both." if outlier_km > edge else ""
    alt = (
        f"Two log-log panels against the distance beyond the farthest other alumnus "
        f"({first.beyond_farthest_other_km:,.3g} to {last.beyond_farthest_other_km:,.0f} km): "
        f"(a) the exact ε (solid blue) {_trend(exact.iloc[0], exact.iloc[-1])} from "
        f"{as_text(exact.iloc[0])} to {as_text(exact.iloc[-1])} while the Eq. (7) ε (dashed "
        f"vermillion) {_trend(bound.iloc[0], bound.iloc[-1])} from {as_text(bound.iloc[0])} to "
        f"{as_text(bound.iloc[-1])}; (b) the noise scale Δf/ε at the exact ε "
        f"{_trend(noise.iloc[0], noise.iloc[-1])} from {noise.iloc[0]:.3g} km to "
        f"{noise.iloc[-1]:.3g} km.{marked}"
    )
    return Caption(caption=caption, alt=alt)
