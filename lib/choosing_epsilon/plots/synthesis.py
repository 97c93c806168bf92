"""Figure of the synthesis: every method's ε for the survey mean and the ε of published
deployments, on one shared log axis: (a) one mechanism from public inputs, (b) Lee & Clifton's
data-reading bound, (c) the deployments, each named, with its privacy model and unit. A grey band
in every panel spans the ε the deployments use."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle
from matplotlib.transforms import blended_transform_factory

from ..harness.figures import Caption, centred_text
from ..registry import UNIT_NOT_STATED
from ..synthesis import COLUMNS, epsilon_text, has_epsilon
from . import style

# the columns of the methods kept in the figure's data frame: all but the long "meaning"
FRAME_COLUMNS = [c for c in COLUMNS if c != "meaning"]
# the columns of a deployment in the figure's data frame, after the methods' columns
DEPLOYMENT_COLUMNS = ["organization", "context", "delta", "model", "unit"]
# a deployment's marker tells its privacy definition; hollow when the noise is added on devices
MODEL_MARKERS = {"ε-DP": "o", "(ε, δ)-DP": "s", "zCDP": "D", "not stated": "^"}
BAND_COLOUR = "0.88"
ROW_HEIGHT = 0.24  # inches per row of a panel
MAX_NAMED = 60  # more deployments than this are drawn one row per model, unnamed


def drawable(methods: pd.DataFrame, panel: str) -> pd.DataFrame:
    """The methods of ``panel`` with an ε a log axis can show (finite and > 0), renumbered."""
    shown = (methods.panel == panel) & has_epsilon(methods.epsilon)
    return methods[shown].reset_index(drop=True)


def _bounds_panel(axis: Axes, rows: pd.DataFrame, hollow: bool) -> None:
    """One row per method: ◁ (vermillion) for an upper bound, ▷ (blue) for a lower one; a method
    with no ε to mark (none meets it, or any does) says so in words on its row."""
    marked = has_epsilon(rows.epsilon.to_numpy())
    at_left = blended_transform_factory(axis.transAxes, axis.transData)
    for i, (epsilon, bound) in enumerate(zip(rows.epsilon, rows["bounds ε from"])):
        if not marked[i]:
            style.note(axis, 0.01, i, f"ε {epsilon_text(epsilon)} (see the table)", va="center")
            axis.texts[-1].set_transform(at_left)
            continue
        upper = bound.startswith("upper")
        colour = style.UPPER if upper else style.LOWER
        face = "none" if hollow else colour
        marker = "<" if upper else ">"
        axis.plot([epsilon], [i], marker=marker, ms=9, ls="none", color=colour, mfc=face, mew=1.8)
    axis.set_yticks(range(len(rows)), rows.method)
    axis.set(ylabel="method", ylim=(max(len(rows), 1) - 0.3, -0.7))
    if not len(rows):
        centred_text(axis, "no method to draw: see the table")


def model_marker(model: str) -> tuple[str, bool]:
    """The marker of a deployment's ``model`` ("ε-DP", "(ε, δ)-DP, local", ...) and whether it
    is hollow (local differential privacy)."""
    definition = model.removesuffix(", local").strip()
    return MODEL_MARKERS.get(definition, "^"), model.endswith(", local")


def ordered(deployments: pd.DataFrame) -> pd.DataFrame:
    """The deployments from the smallest ε to the largest (ties by label), renumbered."""
    return deployments.sort_values(["epsilon", "label"], kind="stable").reset_index(drop=True)


def _models_panel(axis: Axes, deployments: pd.DataFrame) -> None:
    """Too many deployments to name: one row per model, a marker per deployment at its ε."""
    models = sorted(deployments.model.unique())
    for i, model in enumerate(models):
        marker, local = model_marker(model)
        epsilons = deployments.epsilon[deployments.model == model].to_numpy(float)
        axis.plot(
            epsilons, np.full(len(epsilons), i), marker=marker, ms=5, ls="none", color="black",
            mfc="none" if local else "black", alpha=0.5,
        )  # fmt: skip
    axis.set_yticks(range(len(models)), models)
    axis.set(ylabel="privacy model", ylim=(len(models) - 0.4, -0.6))


def _deployments_panel(axis: Axes, deployments: pd.DataFrame) -> None:
    """One row per deployment, named by its label: its ε marked by its model's marker (hollow
    when local), and its privacy unit written beside it (grey when the unit is not stated)."""
    if len(deployments) > MAX_NAMED:
        _models_panel(axis, deployments)
        return
    rows = ordered(deployments)
    columns = zip(rows.epsilon.astype(float), rows.model.astype(str), rows.unit.astype(str))
    for i, (epsilon, model, unit) in enumerate(columns):
        marker, local = model_marker(model)
        axis.plot(
            [epsilon], [i], marker=marker, ms=6, ls="none", color="black",
            mfc="none" if local else "black", mew=1.2,
        )  # fmt: skip
        grey = "black" if unit != UNIT_NOT_STATED else "0.5"
        style.note(axis, epsilon * 1.25, i, unit, va="center", color=grey)
    axis.set_yticks(range(len(rows)), rows.label)
    axis.set(ylabel="deployment", ylim=(len(rows) - 0.4, -0.6))
    for model, marker in MODEL_MARKERS.items():
        if rows.model.str.startswith(model).any():
            label = "zCDP (drawn at its (ε, δ))" if model == "zCDP" else model
            axis.plot([], [], marker=marker, ls="none", color="black", label=label)
    if rows.model.str.endswith("local").any():
        on_devices = "local: noise added on devices (hollow),\nwhere the cited document says so"
        axis.plot([], [], marker="o", ls="none", color="black", mfc="none", label=on_devices)
    # the largest ε come last, so the bottom left corner is free whatever the registry
    axis.legend(loc="lower left", title="privacy model", title_fontsize=style.FONT["legend"])


def methods_and_deployments(
    methods: pd.DataFrame,
    deployments: pd.DataFrame,
    interval: list[float] | None,
    mechanism: str,
    lee_mechanism: str,
    provenance: str | None = None,
) -> tuple[Figure, pd.DataFrame]:
    """Every method's ε and the deployed ε on one log axis: (a) the methods bounding the ε of
    ``mechanism`` from public inputs, with the feasible ``interval`` shaded; (b) Lee & Clifton's,
    hollow on a hatched ground because they read the private data; (c) the deployments, named,
    with model and unit. A grey band in every panel spans the deployments' ε. ``provenance``, a
    line under the title, says what was read from a data file and what is public. The frame
    stacks the drawn methods and every deployment."""
    panels = {key: methods[methods.panel == key].reset_index(drop=True) for key in ("(a)", "(b)")}
    named = len(deployments) <= MAX_NAMED
    rows = [
        max(len(panels["(a)"]), 1),
        max(len(panels["(b)"]), 1),
        len(deployments) if named else deployments.model.nunique(),
    ]
    height = 2.6 + ROW_HEIGHT * sum(rows) + 0.9 * 3
    fig, (ax, ax_b, ax_r) = plt.subplots(
        3,
        1,
        figsize=(10, height),
        sharex=True,
        gridspec_kw={"height_ratios": [r + 3 for r in rows]},
    )
    band = (float(deployments.epsilon.min()), float(deployments.epsilon.max()))
    for axis in (ax, ax_b, ax_r):
        axis.axvspan(*band, color=BAND_COLOUR, zorder=0, lw=0)
        axis.tick_params(labelbottom=True)
    _bounds_panel(ax, panels["(a)"], hollow=False)
    _bounds_panel(ax_b, panels["(b)"], hollow=True)
    _deployments_panel(ax_r, deployments)
    if interval is not None:
        label = "feasible: above every utility bound, below every privacy bound"
        ax.axvspan(*interval, color=style.FEASIBLE, alpha=0.25, label=label, lw=0)
    ax.plot([], [], "<", color=style.UPPER, label="upper bound (privacy, budget)")
    ax.plot([], [], ">", color=style.LOWER, label="lower bound (utility)")
    handles, labels = ax.get_legend_handles_labels()
    band_key = Patch(
        facecolor=BAND_COLOUR,
        edgecolor="0.5",
        label=f"ε of the deployments in (c), not comparable: {band[0]:g} to {band[1]:g}",
    )
    # where it hides the fewest markers, whatever the parameters
    ax.legend([*handles, band_key], [*labels, band_key.get_label()], loc="best")
    verdict = "" if interval is not None or not len(panels["(a)"]) else ": no ε is feasible"
    style.panel_title(ax, 0, f"one mechanism, every input public{verdict}\n{mechanism}")
    hatch = Rectangle(
        (0, 0), 1, 1, transform=ax_b.transAxes, hatch="///", fill=False, edgecolor="0.8",
        zorder=0, label="reads the private data",
    )  # fmt: skip
    ax_b.add_patch(hatch)
    ax_b.plot(
        [], [], "<", color=style.UPPER, mfc="none", mew=1.8,
        label="upper bound (privacy) that reads every value",
    )  # fmt: skip
    ax_b.legend(loc="best")
    style.panel_title(
        ax_b,
        1,
        "Lee & Clifton: reads the private data (its possible worlds are the survey)\n"
        f"{lee_mechanism}",
    )
    style.panel_title(
        ax_r,
        2,
        "published deployments: other data, queries and privacy units, not comparable with "
        "(a) or (b)"
        + ("" if named else f"\n{len(deployments)} deployments, too many to name: see the table"),
    )
    ax_r.set(xscale="log", xlabel="privacy parameter (ε, log scale)")
    marked = np.concatenate(
        [
            methods.epsilon[has_epsilon(methods.epsilon)].to_numpy(),
            deployments.epsilon.to_numpy(),
        ]
    )
    ax_r.set_xlim(marked.min() / 2, marked.max() * 6)  # room for the units' words on the right
    fig.suptitle("Every method's ε for the survey mean, and ε in deployment", y=1 - 0.2 / height)
    top = 1 - 0.75 / height
    if provenance is not None:
        fig.text(0.5, 1 - 0.5 / height, provenance, ha="center", va="top", color="0.3",
                 fontsize=style.FONT["note"])  # fmt: skip
        top -= 0.25 / height
    bottom, gap = 0.6 / height, 0.95  # inches between panels, for their two-line titles
    axes_height = (height * (top - bottom) - 2 * gap) / 3
    fig.subplots_adjust(top=top, bottom=bottom, left=0.33, right=0.97, hspace=gap / axes_height)
    drawn = pd.concat(panels.values(), ignore_index=True)[FRAME_COLUMNS].assign(kind="method")
    deployed = (
        ordered(deployments)
        .rename(columns={"label": "method", "Organization": "organization", "Context": "context"})
        [["method", "epsilon", *DEPLOYMENT_COLUMNS]]
        .assign(kind="deployment", panel="(c)", **{"uses the private data": "not stated"})
    )  # fmt: skip
    return fig, pd.concat([drawn, deployed], ignore_index=True)


def caption(n_people: int, interval: list[float] | None, deployments: pd.DataFrame) -> Caption:
    """The caption and alt text of ``methods_and_deployments``."""
    low, high = deployments.epsilon.min(), deployments.epsilon.max()
    stated = int((deployments.unit != UNIT_NOT_STATED).sum())
    if interval is None:
        verdict = "no ε meets every bound of panel (a)"
    else:
        low_a, high_a = interval
        verdict = f"the ε that meet every bound of panel (a) lie in [{low_a:.3g}, {high_a:.3g}]"
    text = (
        f"For the mean of {n_people:,} survey values, {verdict}, drawn on one axis with the ε "
        f"of {len(deployments)} published deployments ({low:g} to {high:g}, grey band), which "
        f"protect other data, queries and privacy units and are not comparable with it; "
        + (
            f"the registry gives the privacy unit of {stated} of them."
            if stated
            else "the registry gives the privacy unit of none of them."
        )
    )
    alt = (
        "Three panels share one logarithmic ε axis. Panel (a) marks each method's bound on ε "
        "for the survey's mechanism, left-pointing for upper and right-pointing for lower "
        + (
            "bounds, with the feasible interval shaded green; "
            if interval is not None
            else "bounds; "
        )
        + "panel (b) marks Lee and Clifton's two hollow upper bounds on a hatched ground; panel "
        + (
            f"(c) lists the {len(deployments)} deployments by name from the smallest ε to the "
            "largest, each with a marker for its privacy model and its privacy unit written "
            "beside it."
            if len(deployments) <= MAX_NAMED
            else f"(c) marks the {len(deployments)} deployments' ε on one row per privacy model."
        )
        + " A grey band in every panel spans the deployments' ε."
    )
    return Caption(caption=text, alt=alt)
