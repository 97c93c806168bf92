"""Figure of the synthesis: every method's ε for the survey mean, on three separate ε axes (one
mechanism from public inputs, Lee & Clifton's data-reading bound, and published deployments)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.transforms import blended_transform_factory

from ..figures import centred_text
from ..synthesis import COLUMNS, epsilon_text, has_epsilon

# the columns of the methods kept in the figure's data frame: all but the long "meaning"
FRAME_COLUMNS = [c for c in COLUMNS if c != "meaning"]


def drawable(methods: pd.DataFrame, panel: str) -> pd.DataFrame:
    """The methods of ``panel`` with an ε a log axis can show (finite and > 0), renumbered."""
    shown = (methods.panel == panel) & has_epsilon(methods.epsilon)
    return methods[shown].reset_index(drop=True)


def _bounds_panel(axis: Axes, rows: pd.DataFrame, hollow: bool) -> None:
    """One row per method: ◁ (red) for an upper bound, ▷ (blue) for a lower one, on a log axis; a
    method with no ε to mark (none meets it, or any does) says so in words on its row."""
    marked = has_epsilon(rows.epsilon.to_numpy())
    at_left = blended_transform_factory(axis.transAxes, axis.transData)
    for i, (epsilon, bound) in enumerate(zip(rows.epsilon, rows["bounds ε from"])):
        if not marked[i]:
            text = f"ε {epsilon_text(epsilon)} (see the table)"
            axis.text(0.01, i, text, transform=at_left, va="center", fontsize=8, color="0.3")
            continue
        upper = bound.startswith("upper")
        colour = "tab:red" if upper else "tab:blue"
        face = "none" if hollow else colour
        marker = "<" if upper else ">"
        axis.plot([epsilon], [i], marker=marker, ms=9, ls="none", color=colour, mfc=face, mew=1.8)
    axis.set_yticks(range(len(rows)), rows.method)
    axis.set(ylabel="method", ylim=(-0.7, max(len(rows), 1) - 0.3))
    if marked.any():
        axis.set(xscale="log", xlabel="ε (log scale)")
    else:
        axis.set_xticks([])
        if not len(rows):
            centred_text(axis, "no method to draw: see the table")


def _deployments_panel(axis: Axes, deployments: pd.DataFrame) -> None:
    """The deployments' ε on a log axis, spread apart vertically, marked by whether δ is stated."""
    with_delta = deployments.delta.notna()
    jitter = np.linspace(-0.3, 0.3, len(deployments))
    axis.plot(
        deployments.epsilon[~with_delta], jitter[~with_delta], "o", label="ε-DP (no δ stated)"
    )
    axis.plot(deployments.epsilon[with_delta], jitter[with_delta], "s", label="(ε, δ)-DP")
    axis.set(xscale="log", xlabel="ε (log scale)", yticks=[], ylabel="deployments\n(spread apart)")
    axis.set_title(
        "(c) published deployments, not comparable with (a) or (b)\n"
        "other data, queries and privacy units (not stated)",
        fontsize=9,
    )
    axis.legend(fontsize=8)


def methods_and_deployments(
    methods: pd.DataFrame,
    deployments: pd.DataFrame,
    interval: list[float] | None,
    mechanism: str,
    lee_mechanism: str,
    provenance: str | None = None,
) -> tuple[Figure, pd.DataFrame]:
    """Every method's ε and the deployed ε: (a) the methods bounding the ε of ``mechanism`` from
    public inputs, with the feasible ``interval`` shaded; (b) Lee & Clifton's, hollow on a hatched
    ground because they read the private data; (c) the deployments. ``provenance``, a line under
    the title, says what was read from a data file and what is public. The frame stacks the drawn
    methods and the deployments."""
    panels = {key: methods[methods.panel == key].reset_index(drop=True) for key in ("(a)", "(b)")}
    n_shared = int((methods.panel == "(a)").sum())
    ratios = [n_shared, 2.2, 3]
    fig, (ax, ax_b, ax_r) = plt.subplots(
        3, 1, figsize=(9, 10), gridspec_kw={"height_ratios": ratios}
    )
    _bounds_panel(ax, panels["(a)"], hollow=False)
    _bounds_panel(ax_b, panels["(b)"], hollow=True)
    if interval is not None:
        label = "feasible: above every utility bound, below every privacy bound"
        ax.axvspan(*interval, color="green", alpha=0.12, label=label)
    ax.plot([], [], "<", color="tab:red", label="upper bound (privacy, budget)")
    ax.plot([], [], ">", color="tab:blue", label="lower bound (utility)")
    # where it hides the fewest markers, whatever the parameters
    ax.legend(fontsize=8, loc="best")
    verdict = "" if interval is not None or not len(panels["(a)"]) else ": no ε is feasible"
    ax.set_title(f"(a) one mechanism, every input public{verdict}\n{mechanism}", fontsize=9)
    hatch = Rectangle(
        (0, 0),
        1,
        1,
        transform=ax_b.transAxes,
        hatch="///",
        fill=False,
        edgecolor="0.85",
        zorder=0,
        label="reads the private data",
    )
    ax_b.add_patch(hatch)
    ax_b.plot(
        [],
        [],
        "<",
        color="tab:red",
        mfc="none",
        mew=1.8,
        label="upper bound (privacy) that reads every age",
    )
    ax_b.legend(fontsize=8, loc="best")
    ax_b.set_title(
        "(b) Lee & Clifton: reads the private data (its possible worlds are the survey)\n"
        f"{lee_mechanism}",
        fontsize=9,
    )
    _deployments_panel(ax_r, deployments)
    fig.suptitle("Every method's ε for the survey mean, and ε in deployment")
    if provenance is None:
        fig.subplots_adjust(hspace=0.6, top=0.9)
    else:
        fig.text(0.5, 0.955, provenance, ha="center", va="top", fontsize=9, color="0.3")
        fig.subplots_adjust(hspace=0.6, top=0.87)
    drawn = pd.concat(panels.values(), ignore_index=True)[FRAME_COLUMNS].assign(kind="method")
    deployed = (
        deployments[["Organization", "epsilon"]]
        .rename(columns={"Organization": "method"})
        .assign(kind="deployment", panel="(c)", **{"uses the private data": "not stated"})
    )
    return fig, pd.concat([drawn, deployed], ignore_index=True)
