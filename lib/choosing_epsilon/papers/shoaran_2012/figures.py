"""Figures of Shoaran, Thomo & Weber (2012): the noise against its probability (Fig. 1) and the
minimum true answer against ε and against the relative-error threshold (Fig. 2), each with the
caption and alt text that describe it at the parameters it was drawn with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from choosing_epsilon.plots import figures, style


def _amount(value: float) -> str:
    """A magnitude as the figures print it: to the unit from 10 to a million, else 3 digits."""
    return f"{value:.0f}" if 10 <= abs(value) < 1e6 else f"{value:.3g}"


def _listed(words: Sequence[str]) -> str:
    """``words`` joined as prose: "a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _percent(fraction: float) -> str:
    """A fraction as a percentage: 0.1 → "10%"."""
    return f"{100 * fraction:g}%"


def _styled(values: Sequence[str]) -> str:
    """Each curve's value with its dash pattern, as prose: "0.01 (solid), 0.02 (dashed)"."""
    names = style.DASH_NAMES
    return _listed([f"{v} ({names[k % len(names)]})" for k, v in enumerate(values)])


def _curve_style(index: int) -> dict[str, Any]:
    """The colour and dash of the ``index``-th curve of a panel, as the style's cycle pairs them."""
    return {
        "color": style.PALETTE[index % len(style.PALETTE)],
        "linestyle": style.LINESTYLES[index % len(style.LINESTYLES)],
    }


def fig1_noise_vs_probability(
    curves: pd.DataFrame,
    epsilons: Sequence[float],
    epsilon: float,
    z50: float,
    z30: float,
    sensitivity: float,
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 1: Eq. (4)'s noise magnitude z against pr, one curve per ε (each its own dash), with
    the text's two values at ``epsilon`` (exceeded half and 30% of the time) marked."""
    fig, ax = plt.subplots()
    for k, e in enumerate(epsilons):
        ax.plot(100 * curves["pr"], curves[f"z_eps_{e:g}"], label=f"ε = {e:g}", **_curve_style(k))
    ax.plot(
        [50, 30],
        [z50, z30],
        "ko",
        label=f"ε = {epsilon:g}: {_amount(z50)} at 50%, {_amount(z30)} at 30%",
    )
    ax.set(
        xlabel="probability that the noise magnitude is at least z (pr, %)",
        ylabel="noise magnitude (z, units of the answer)",
        title=f"Fig. 1: noise magnitude against its probability (Δ(q) = {sensitivity:g})",
        xlim=(0, 100),
    )
    if fig1_log_scale(curves, epsilons, (z50, z30)):
        ax.set_yscale("log")  # curves and dots decades apart: a linear axis flattens the lower
    else:
        ax.set_ylim(0, None)
    style.legend_below(ax, ncols=2)
    return fig, curves


def fig1_log_scale(
    curves: pd.DataFrame, epsilons: Sequence[float], marked: Sequence[float]
) -> bool:
    """Whether Fig. 1 needs a logarithmic z axis: when its curves' tops and the marked values
    lie more than two decades apart, a linear axis from 0 draws the lower ones on the x axis."""
    tops = [float(curves[f"z_eps_{e:g}"].max()) for e in epsilons]
    return max(tops) > 100 * min([*tops, *marked])


def fig1_caption(
    curves: pd.DataFrame,
    epsilons: Sequence[float],
    epsilon: float,
    z50: float,
    z30: float,
    sensitivity: float,
) -> figures.Caption:
    """Fig. 1's caption and alt text, at the ε, Δ and marked values it was drawn with."""
    listed = _listed([f"{e:g}" for e in epsilons])
    top = max(curves[f"z_eps_{e:g}"].max() for e in epsilons)
    low, high = 100 * curves["pr"].min(), 100 * curves["pr"].max()
    return figures.Caption(
        caption=(
            f"Equation (4)'s Laplace noise magnitude z, exceeded with probability pr, drawn for "
            f"ε = {listed} at Δ(q) = {sensitivity:g} (the paper's text names only ε = 0.01), "
            f"depends on ε and Δ(q) but not on the true answer; the dots mark the "
            f"magnitudes, {_amount(z50)} and {_amount(z30)}, exceeded half and 30% of the time at "
            f"ε = {epsilon:g}."
        ),
        alt=(
            f"Line chart of the noise magnitude z (y axis, "
            f"{'logarithmic' if fig1_log_scale(curves, epsilons, (z50, z30)) else 'linear from 0'}"
            f", the curves reaching {_amount(top)}) "
            f"against the probability pr that it is exceeded (x axis, 0 to 100%, curves drawn "
            f"from {low:g}% to {high:g}%), "
            f"one curve per ε: {_styled([f'{e:g}' for e in epsilons])}; each curve falls "
            f"steeply from its top at the smallest pr towards 0 as pr nears 100%, and the larger "
            f"ε, the lower "
            f"the curve. Two black dots at pr = 50% and 30% mark z = {_amount(z50)} and "
            f"{_amount(z30)} for ε = {epsilon:g}."
        ),
    )


def fig2_mta(
    against_epsilon: pd.DataFrame,
    against_re: pd.DataFrame,
    prs: Sequence[float],
    re: float,
    reading_epsilon: float,
    example: tuple[float, float],
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 2: Eq. (6)'s MTA against ε at ``re`` (a), with Example 1 at ``example`` = (ε, MTA)
    marked, and against re at ``reading_epsilon`` (b); both axes logarithmic. The frame stacks
    the two readings."""
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.0))
    for k, p in enumerate(prs):
        label = f"pr = {_percent(p)}"
        column = f"mta_pr_{p:g}"
        ax_a.plot(
            against_epsilon["epsilon"], against_epsilon[column], label=label, **_curve_style(k)
        )
        ax_b.plot(against_re["re"], against_re[column], label=label, **_curve_style(k))
    ax_a.plot([example[0]], [example[1]], "ko", label=f"Example 1: {_amount(example[1])}")
    ax_a.set(
        xscale="log",
        yscale="log",
        xlabel="privacy parameter (ε)",
        ylabel="minimum true answer (units of the answer)",
    )
    style.panel_title(ax_a, 0, f"Fig. 2: minimum true answer (MTA), re = {_percent(re)}")
    ax_b.set(
        xscale="log",
        yscale="log",
        xlabel="relative-error threshold (re, as a fraction)",
        ylabel="minimum true answer (units of the answer)",
    )
    style.panel_title(ax_b, 1, f"second reading: MTA against re, ε = {reading_epsilon:g}")
    style.legend_below(ax_a, ncols=2)
    style.legend_below(ax_b, ncols=2)
    frame = pd.concat(
        [against_epsilon.assign(reading="vs_epsilon"), against_re.assign(reading="vs_re")],
        ignore_index=True,
    )
    return fig, frame


def fig2_caption(
    against_epsilon: pd.DataFrame,
    against_re: pd.DataFrame,
    prs: Sequence[float],
    re: float,
    reading_epsilon: float,
    example: tuple[float, float],
    example_pr: float,
    sensitivity: float,
) -> figures.Caption:
    """Fig. 2's caption and alt text, at the re, ε, pr and Example 1 it was drawn with."""
    listed = _listed([_percent(p) for p in prs])
    columns = [f"mta_pr_{p:g}" for p in prs]

    def span(frame: pd.DataFrame, x: str) -> str:
        """The x range and MTA range of one panel, in words."""
        values = frame[columns].to_numpy()
        return (
            f"{frame[x].min():g} to {frame[x].max():g}, the MTA spanning "
            f"{_amount(values.min())} to {_amount(values.max())}"
        )

    return figures.Caption(
        caption=(
            f"Equation (6)'s minimum true answer (MTA), the smallest answer a release keeps "
            f"within relative error re with probability 1 − pr, for pr = {listed} at "
            f"Δ(q) = {sensitivity:g} (the paper's text names only pr = 10%), falls like 1/ε at "
            f"re = {_percent(re)} (a) and like 1/re at ε = {reading_epsilon:g} (b), since it is "
            f"proportional to 1/(ε re), and the dot is "
            f"Example 1 (ε = {example[0]:g}, pr = {_percent(example_pr)})."
        ),
        alt=(
            f"Two panels with logarithmic axes, each with one straight falling line per pr: "
            f"{_styled([_percent(p) for p in prs])}, the smaller pr the higher. Panel (a) plots "
            f"the MTA against ε from {span(against_epsilon, 'epsilon')}, with a black dot at "
            f"ε = {example[0]:g}, MTA {_amount(example[1])}; panel (b) plots it against re "
            f"from {span(against_re, 're')}."
        ),
    )
