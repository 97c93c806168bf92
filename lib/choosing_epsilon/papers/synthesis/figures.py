"""Figure of the synthesis: every method's ε for the survey mean on one log axis, (a) one
mechanism from public inputs and (b) Lee & Clifton's data-reading bound, (c) one risk scale
for every answer and every published deployment, whatever its privacy model: what an attacker
testing one person's presence can do (risk), (d) the noise the mean needs for the risk
the reader states, by the attack-aware and the standard route (calibration), and (e) the chance
to single out one person among 10 or 1,000, bound and attained."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib import ticker
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.transforms import blended_transform_factory

from choosing_epsilon import risk
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis.synthesis import (
    COLUMNS,
    epsilon_text,
    has_epsilon,
    not_applicable_mask,
)
from choosing_epsilon.plots import style
from choosing_epsilon.plots.figures import Caption, centred_text

# the columns of the methods kept in the figure's data frame: all but the long "meaning"
FRAME_COLUMNS = [c for c in COLUMNS if c != "meaning"]
# the columns of a deployment in the figure's data frame, after the methods' columns
DEPLOYMENT_COLUMNS = ["organization", "context", "delta", "model", "unit"]
# a deployment's marker tells its privacy definition; hollow when the noise is added on devices
MODEL_MARKERS = {"ε-DP": "o", "(ε, δ)-DP": "s", "zCDP": "D", "not stated": "^"}
ADVANTAGE_COLOUR = style.PALETTE[0]  # blue: the largest advantage
TPR_COLOUR = style.PALETTE[1]  # orange: the true-positive rate at FPR 1%
ROW_HEIGHT = 0.24  # inches per row of a panel
# panel (c) draws a row's advantage this far above its line and its TPR as far below, so that
# the two stay apart where they coincide (both near 0 or 1): centres 0.1 in apart, markers 0.08
SPLIT = 0.21
MAX_NAMED = 60  # more deployments than this are drawn one row per model, unnamed
SINGLING_OUT_ROWS = 14  # the height of the singling-out panel, in rows
# what the frame keeps of panel (f)
HORIZON_FRAME = [
    "advantage", "unit_period", "units_in_horizon", "advantage_over_horizon",
    "advantage_over_horizon_attained",
]  # fmt: skip
AWARE_COLOUR = style.OKABE_ITO["black"]  # (d): the attack-aware noise, a filled circle
STANDARD_COLOUR = style.OKABE_ITO["reddish purple"]  # (d): the standard route's, a hollow square
TITLE_CHARACTERS = 80  # a panel title's line wraps here, to stay within the figure's width
SUPTITLE_CHARACTERS = 95  # the figure's title, in its larger font, holds this many on a line
CAPTION_CHARACTERS = 400  # the longest caption a reader reads under the figure
# words written on a row stop here, on one line, in whole words: the panel's right half stays
# free for its markers and legend; the table says the rest
NOTE_CHARACTERS = 60
LEGEND_ROWS = 1.6  # the rows of panel (a) its legend takes, below the methods


def _listed(words: Sequence[str]) -> str:
    """``words`` joined as prose: "a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _row_note(text: str) -> str:
    """Words written on a panel's row: one line of at most NOTE_CHARACTERS, cut between words."""
    return registry.in_whole_words(text, NOTE_CHARACTERS)


def _wrapped(title: str, width: int = TITLE_CHARACTERS) -> str:
    """``title`` with each line wrapped to ``width`` characters."""
    return "\n".join(textwrap.fill(line, width) for line in title.split("\n"))


def drawable(methods: pd.DataFrame, panel: str) -> pd.DataFrame:
    """The methods of ``panel`` with an ε a log axis can show (finite and > 0), renumbered."""
    shown = (methods.panel == panel) & has_epsilon(methods.epsilon)
    return methods[shown].reset_index(drop=True)


def _bounds_panel(axis: Axes, rows: pd.DataFrame, hollow: bool) -> None:
    """One row per method: ◁ (vermillion) for an upper bound, ▷ (blue) for a lower one; a method
    with no ε to mark (none meets it, or any does) says so in words on its row, and one that
    does not apply says why."""
    marked = has_epsilon(rows.epsilon.to_numpy())
    left_out = not_applicable_mask(rows).to_numpy()
    at_left = blended_transform_factory(axis.transAxes, axis.transData)
    for i, (epsilon, bound) in enumerate(zip(rows.epsilon, rows["bounds ε from"])):
        if not marked[i]:
            words = f"ε {epsilon_text(epsilon)} (see the table)"
            if left_out[i]:
                words = str(rows.meaning.iloc[i])
            style.note(axis, 0.01, i, _row_note(words), va="center")
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


def guarantee_text(row: Any) -> str:
    """A risk-scale row's guarantee as the figure writes it: "ε = 2", "ε = 4, δ = 1e-07",
    "ρ = 2.63", "μ = 0.5", with ", local" for a local deployment (its ε is per report); "not
    placed" for a method with no ε to read."""
    if row.kind == "method" and not np.isfinite(float(row.advantage)):
        return "not placed"
    if row.model == "zcdp":
        text = f"ρ = {row.rho:g}"
    elif row.model == "gdp":
        text = f"μ = {row.mu:g}"
    elif row.model == "approximate":
        text = f"ε = {row.epsilon:.4g}, δ = {row.delta:.2g}"
    else:
        text = f"ε = {row.epsilon:.4g}"
    return text + (", local" if row.local else "")


def _short(name: str, width: int = 40) -> str:
    """``name`` cut to ``width`` characters with an ellipsis."""
    return name if len(name) <= width else name[: width - 1].rstrip() + "…"


def placed(scale: pd.DataFrame) -> pd.DataFrame:
    """The rows of the risk scale that have a place on it: the methods in their order, then the
    deployments from the smallest advantage to the largest (ties by name), renumbered."""
    on_scale = scale[np.isfinite(scale.advantage.astype(float))]
    methods = on_scale[on_scale.kind == "method"]
    deployed = on_scale[on_scale.kind == "deployment"].sort_values(
        ["advantage", "tpr_at_fpr_1pct", "row"], kind="stable"
    )
    return pd.concat([methods, deployed], ignore_index=True)


def scale_rows(scale: pd.DataFrame) -> pd.DataFrame:
    """The rows of panel (c): every method in its order, those with no place on the scale
    included (their row says why in words), then the deployments that have a place, as
    ``placed`` orders them; renumbered."""
    on_scale = placed(scale)
    methods = scale[scale.kind == "method"]
    return pd.concat([methods, on_scale[on_scale.kind == "deployment"]], ignore_index=True)


def _models_panel(axis: Axes, rows: pd.DataFrame) -> None:
    """Too many deployments to name: one row per model, a marker per deployment at its
    advantage."""
    labels = [
        registry.MODEL_NAMES[m] + (", local" if loc else "")
        for m, loc in zip(rows.model, rows.local)
    ]
    names = sorted(set(labels))
    for i, name in enumerate(names):
        chosen = np.array([label == name for label in labels])
        advantage = rows.advantage[chosen].to_numpy(float)
        axis.plot(
            advantage, np.full(len(advantage), i), marker="o", ms=5, ls="none",
            color=ADVANTAGE_COLOUR, alpha=0.5, mfc="none" if name.endswith("local") else None,
        )  # fmt: skip
    axis.set_yticks(range(len(names)), names)
    axis.set(ylabel="privacy model", ylim=(len(names) - 0.4, -0.6))


def _scale_panel(axis: Axes, scale: pd.DataFrame) -> None:
    """Every method's answer and every deployment with a stated guarantee, one row each: the
    attacker's largest advantage (filled circle, a little above the row's line) and its TPR at
    FPR 1% (hollow diamond, a little below it, so that the two stay apart where they coincide),
    and at the right the accuracy of a guess at prior ½ in words."""
    rows = scale_rows(scale)
    deployed = rows[rows.kind == "deployment"]
    if len(deployed) > MAX_NAMED:
        _models_panel(axis, deployed)
        return
    at_left = axis.get_yaxis_transform()
    for i, row in enumerate(rows.itertuples()):
        advantage, tpr = float(row.advantage), float(row.tpr_at_fpr_1pct)  # type: ignore[arg-type]
        if not np.isfinite(advantage):  # a method with no ε to read: why, in words
            why = str(row.reading).removeprefix("not placed: ")
            style.note(axis, 0.01, i, _row_note(why), va="center", transform=at_left)
            continue
        axis.plot([advantage], [i - SPLIT], "o", ms=6, color=ADVANTAGE_COLOUR, mfc=(
            "none" if row.local else ADVANTAGE_COLOUR))  # fmt: skip
        axis.plot([tpr], [i + SPLIT], "D", ms=5, color=TPR_COLOUR, mfc="none", mew=1.2)
        words = risk.in_100(float(row.accuracy_at_half))  # type: ignore[arg-type]
        style.note(axis, 1.01, i, words, va="center", transform=axis.get_yaxis_transform())
        axis.texts[-1].set_clip_on(False)
    labels = [f"{_short(str(row.row))} ({guarantee_text(row)})" for row in rows.itertuples()]
    axis.set_yticks(range(len(rows)), labels)
    methods = int((rows.kind == "method").sum())
    if 0 < methods < len(rows):
        axis.axhline(methods - 0.5, color=style.REFERENCE, lw=1)
    axis.plot([], [], "o", color=ADVANTAGE_COLOUR, label="largest advantage (TPR − FPR), upper")
    axis.plot([], [], "D", color=TPR_COLOUR, mfc="none", label="TPR at FPR 1%, lower")
    if rows.local.any():
        axis.plot([], [], "o", color=ADVANTAGE_COLOUR, mfc="none", label="local: ε per report")
    axis.legend(loc="best", title="what the attacker can do")
    axis.set(ylabel="answer or deployment", ylim=(len(rows) - 0.4, -0.6))


def _singling_out_panel(axis: Axes, scale: pd.DataFrame) -> None:
    """Every row with a place on the scale at its largest advantage (x) and its chance to single
    out one of 10 (circles) and of 1,000 (squares) people (y, log scale): the bound 1 − f(1/k)
    filled, what a named mechanism with the guarantee attains hollow, joined by a grey line; the
    worst case lies on that line. Dotted: a blind guess, 1/k."""
    rows = placed(scale)
    advantage = rows.advantage.to_numpy(float)
    for k, marker, colour in ((10, "o", ADVANTAGE_COLOUR), (1000, "s", TPR_COLOUR)):
        bound = rows[f"single_out_{k}_bound"].to_numpy(float)
        attained = rows[f"single_out_{k}_attained"].to_numpy(float)
        axis.vlines(advantage, attained, bound, color=style.REFERENCE, lw=0.6, alpha=0.6)
        axis.plot(advantage, bound, marker, ms=5, ls="none", color=colour,
                  label=f"one of {k:,}: bound 1 − f(1/{k:,})")  # fmt: skip
        axis.plot(advantage, attained, marker, ms=5, ls="none", color=colour, mfc="none",
                  label=f"one of {k:,}: attained by a mechanism")  # fmt: skip
        axis.axhline(1 / k, color=style.REFERENCE, lw=1, ls=":")
        # below the line, where no marker is ever drawn (no guarantee lets a guess do worse)
        style.note(axis, 0.25, 1 / k, f"blind guess, 1/{k:,}", va="top",
                   transform=axis.get_yaxis_transform())  # fmt: skip
    # in the margin at the left, which this panel (no row names) leaves free: never over a marker
    axis.legend(loc="upper right", bbox_to_anchor=(-0.14, 1.0), title="single out one among k")
    axis.set(xlim=(-0.01, 1.01), yscale="log", ylim=(5e-4, 1.5))
    axis.set(xlabel="largest membership advantage (TPR − FPR)", ylabel="chance (log scale)")
    axis.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: f"{y:g}"))


def _has_horizon_panel(scale: pd.DataFrame) -> bool:
    """Whether the figure has panel (f): deployments few enough to name, some with a period."""
    deployed = scale[(scale.kind == "deployment") & np.isfinite(scale.advantage.astype(float))]
    return len(deployed) <= MAX_NAMED and bool(len(over_time(scale)))


def _per_year(period: str) -> float:
    return float(registry.PERIODS_PER_YEAR[period])


def over_time(scale: pd.DataFrame) -> pd.DataFrame:
    """The deployments whose privacy unit has a period of time and whose guarantee has a place on
    the scale, from the smallest advantage over the horizon to the largest, renumbered."""
    timed = scale[(scale.kind == "deployment") & (scale.units_in_horizon.astype(float) > 1)]
    timed = timed[np.isfinite(timed.advantage.astype(float))]
    return timed.sort_values(["advantage_over_horizon", "row"], kind="stable").reset_index(
        drop=True
    )


def _horizon_panel(axis: Axes, rows: pd.DataFrame, horizon: str) -> None:
    """Each deployment of ``rows`` (``over_time``): its advantage for one unit (a filled circle)
    and over the horizon (a filled square: the bound; hollow: what a composed mechanism attains,
    where the two differ), joined by a grey line; the legend in a band below the last row."""
    columns = ["advantage", "advantage_over_horizon", "advantage_over_horizon_attained"]
    for i, (one, bound, attained) in enumerate(rows[columns].to_numpy(float)):
        axis.plot([one, bound], [i, i], color=style.REFERENCE, lw=1, ls="-")
        axis.plot([one], [i], "o", ms=6, color=ADVANTAGE_COLOUR)
        axis.plot([bound], [i], "s", ms=7, color=TPR_COLOUR)
        if not np.isclose(attained, bound, rtol=0, atol=5e-4):
            axis.plot([attained], [i], "s", ms=7, color=TPR_COLOUR, mfc="none", mew=1.4)
    labels = [
        f"{_short(str(r.row))} ({guarantee_text(r)} per {r.unit_period})" for r in rows.itertuples()
    ]
    axis.set_yticks(range(len(rows)), labels)
    axis.plot([], [], "o", ms=6, color=ADVANTAGE_COLOUR, label="one unit, as stated")
    axis.plot([], [], "s", ms=7, color=TPR_COLOUR, label=f"over {horizon}: bound")
    axis.plot([], [], "s", ms=7, color=TPR_COLOUR, mfc="none", mew=1.4,
              label=f"over {horizon}: attained, where below the bound")  # fmt: skip
    axis.set(xlim=(-0.01, 1.01), ylim=(len(rows) - 0.3 + LEGEND_ROWS, -0.7))
    axis.set(xlabel="largest membership advantage (TPR − FPR)", ylabel="deployment and its unit")
    axis.legend(loc="lower center", ncols=3)


def calibration_label(row: Any) -> str:
    """A row of panel (d): the mechanism, its noise's symbol and the stated risk, "Gaussian σ,
    advantage ≤ 0.25" (with the δ of its standard route)."""
    if row.mechanism == "Gaussian":
        return f"Gaussian σ, {row.target} (δ = {row.delta:.6g})"
    return f"Laplace b, {row.target}"


def ratio_text(ratio: float) -> str:
    """Panel (d)'s words at the right of a row: the standard noise over the attack-aware."""
    if ratio == float("inf"):
        return "standard: none"
    if abs(ratio - 1) < 5e-5:
        return "× 1 (the same)"
    return f"× {ratio:.3g}"


def _calibration_panel(
    axis: Axes, calibrated: pd.DataFrame, skipped: Mapping[str, str] | None = None
) -> None:
    """One row per mechanism and stated risk: the attack-aware noise (filled circle) and the
    standard route's (hollow square) on a log axis of noise, joined by a grey line, and at the
    right how many times the attack-aware noise the standard route needs; below them, a row per
    stated risk that does not apply (``skipped``), saying why."""
    at_right = axis.get_yaxis_transform()
    skipped = skipped or {}
    for i, row in enumerate(calibrated.itertuples()):
        aware, standard = float(row.noise_aware), float(row.noise_standard)  # type: ignore[arg-type]
        if np.isfinite(standard):
            axis.plot([aware, standard], [i, i], color=style.REFERENCE, lw=1, ls="-")
            axis.plot([standard], [i], "s", ms=9, color=STANDARD_COLOUR, mfc="none", mew=1.6)
        axis.plot([aware], [i], "o", ms=6, color=AWARE_COLOUR)
        ratio = float(row.noise_ratio)  # type: ignore[arg-type]
        style.note(axis, 1.01, i, ratio_text(ratio), va="center", transform=at_right)
        axis.texts[-1].set_clip_on(False)
    for k, why in enumerate(skipped.values(), start=len(calibrated)):
        words = _row_note(f"not applicable: {why}")
        style.note(axis, 0.01, k, words, va="center", transform=at_right)
    labels = [calibration_label(r) for r in calibrated.itertuples()] + list(skipped)
    axis.set_yticks(range(len(labels)), labels)
    axis.plot([], [], "o", ms=6, color=AWARE_COLOUR, label="attack-aware: own curve")
    axis.plot(
        [], [], "s", ms=9, color=STANDARD_COLOUR, mfc="none", mew=1.6,
        label="standard route: ε (and δ) first",
    )  # fmt: skip
    # the legend in a band below the last row, where no marker is ever drawn
    axis.legend(loc="lower center", ncols=2)
    noises = calibrated[["noise_aware", "noise_standard"]].to_numpy(float).ravel()
    finite = noises[np.isfinite(noises)]
    low, high = finite.min() / 2, finite.max() * 2
    axis.set(xscale="log", xlim=(low, high), ylim=(len(labels) + 0.5, -0.6))
    axis.set_ylabel("mechanism and risk")
    # ticks at 1, 2 and 5 times a power of ten over a short span, so that at least one is labelled
    # (the span is at least fourfold), and at powers of ten only over a long one
    subs = (1.0, 2.0, 5.0) if high / low < 10**2.5 else (1.0,)
    axis.xaxis.set_major_locator(ticker.LogLocator(subs=subs, numticks=9))
    axis.xaxis.set_major_formatter(ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    axis.xaxis.set_minor_formatter(ticker.NullFormatter())


def methods_and_deployments(
    methods: pd.DataFrame,
    scale: pd.DataFrame,
    interval: list[float] | None,
    mechanism: str,
    lee_mechanism: str,
    provenance: str | None = None,
    calibrated: pd.DataFrame | None = None,
    unit: str = "years",
    skipped: Mapping[str, str] | None = None,
    released: str = "the survey mean",
) -> tuple[Figure, pd.DataFrame]:
    """Every method's ε and what an attacker can do at it and at each deployment: (a) the methods
    bounding the ε of ``mechanism`` from public inputs, with the feasible ``interval`` shaded;
    (b) Lee & Clifton's, hollow on a hatched ground because they read the private data, on one
    log ε axis with (a); (c) the risk scale (``synthesis.risk_scale``): the attacker's advantage
    and TPR at FPR 1% for every answer and deployment, and in words its accuracy at prior ½.
    The title names the statistic ``released`` ("the survey mean", or "the mean of income" for
    a reader's column), broken after its comma where one line would not hold it and wrapped
    to ``SUPTITLE_CHARACTERS``;
    ``provenance``, a line under the title, says what was read from a data file. With
    ``calibrated`` (``synthesis.noise_for_risk_table``), (d): the noise, in ``unit``, that the
    mean needs for each stated risk by both routes, and a row for each stated risk of ``skipped``
    that does not apply, saying why. A method that does not apply, or has no ε to mark, says so in
    words on its row of (a) or (b) and of (c). The frame stacks the drawn methods, the rows of the
    scale drawn in (c) and those of (d)."""
    panels = {key: methods[methods.panel == key].reset_index(drop=True) for key in ("(a)", "(b)")}
    rows_c = scale_rows(scale)
    deployed = rows_c[rows_c.kind == "deployment"]
    named = len(deployed) <= MAX_NAMED
    rows = [
        max(len(panels["(a)"]), 1) + LEGEND_ROWS,
        max(len(panels["(b)"]), 1),
        max(len(rows_c), 1)
        if named
        else len({(m, b) for m, b in zip(deployed.model, deployed.local)}),
    ]
    if calibrated is not None:
        rows.append(len(calibrated) + len(skipped or {}) + 1)  # and a band for the legend
    rows.append(SINGLING_OUT_ROWS)
    timed = over_time(scale) if _has_horizon_panel(scale) else over_time(scale)[:0]
    if len(timed):
        rows.append(len(timed) + LEGEND_ROWS)
    count = len(rows)
    title = f"Every method's ε for {released}, and what an attacker can do at it and in deployment"
    if len(title) > SUPTITLE_CHARACTERS:
        title = _wrapped(title.replace(", and what", ",\nand what", 1), SUPTITLE_CHARACTERS)
    title_lines, lines = title.count("\n"), 0 if provenance is None else provenance.count("\n") + 1
    head = 0.85 + 0.25 * title_lines + (0.25 + 0.2 * lines if lines else 0)  # above (a)'s title
    height = head + 1.9 + ROW_HEIGHT * sum(rows) + 1.1 * count + 1.2 * (count - 3)
    fig = plt.figure(figsize=(10, height))
    grid = fig.add_gridspec(count, 1, height_ratios=[r + 3 for r in rows])
    ax = fig.add_subplot(grid[0])
    ax_b = fig.add_subplot(grid[1], sharex=ax)
    ax_r = fig.add_subplot(grid[2])
    ax.tick_params(labelbottom=True)
    _bounds_panel(ax, panels["(a)"], hollow=False)
    _bounds_panel(ax_b, panels["(b)"], hollow=True)
    _scale_panel(ax_r, scale)
    if interval is not None:
        label = "feasible: above every utility bound, below every privacy bound"
        noted = ~has_epsilon(panels["(a)"].epsilon.to_numpy())
        low, high = interval
        if not noted.any():  # the rows only: the legend's band below stays clear
            count_a = len(panels["(a)"])
            ax.add_patch(
                Rectangle(
                    (low, -0.5), high - low, count_a, color=style.FEASIBLE, alpha=0.25, lw=0,
                    label=label,
                )
            )  # fmt: skip
        else:  # the rows that say their ε in words keep them clear of the shading
            for k, i in enumerate(np.flatnonzero(~noted)):
                ax.add_patch(
                    Rectangle(
                        (low, i - 0.5), high - low, 1.0, color=style.FEASIBLE, alpha=0.25, lw=0,
                        label=label if k == 0 else "_feasible",
                    )
                )  # fmt: skip
    ax.plot([], [], "<", color=style.UPPER, label="upper bound (privacy, budget)")
    ax.plot([], [], ">", color=style.LOWER, label="lower bound (utility)")
    # the legend in a band below the last row, where no marker or note is ever drawn
    ax.set_ylim(max(len(panels["(a)"]), 1) - 0.3 + LEGEND_ROWS, -0.7)
    ax.legend(loc="lower center", ncols=2)
    verdict = "" if interval is not None or not len(panels["(a)"]) else ": no ε is feasible"
    style.panel_title(ax, 0, _wrapped(f"one mechanism, every input public{verdict}\n{mechanism}"))
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
        _wrapped(
            f"Lee & Clifton: reads the private data (its possible worlds are the survey)\n"
            f"{lee_mechanism}"
        ),
    )
    unplaced = int((scale.kind == "deployment").sum()) - len(deployed)
    none = f" ({unplaced} state none: see the table)" if unplaced else ""
    style.panel_title(
        ax_r,
        2,
        _wrapped(
            "what an attacker testing one person's presence can do, at each method's "
            + (
                f"answer and each deployment's stated guarantee{none}\nread exactly, for ε, "
                "(ε, δ) and ρ alike; right: a guess at prior ½, right in 100"
                if named
                else f"answer and {len(deployed)} deployments{none},\ntoo many to name (see "
                "the table); ε, (ε, δ) and ρ read exactly"
            )
        ),
    )
    ax_b.set(xscale="log", xlabel="privacy parameter (ε, log scale)")
    marked = methods.epsilon[has_epsilon(methods.epsilon)].to_numpy()
    if len(marked):
        ax_b.set_xlim(marked.min() / 2, marked.max() * 2)
    ax_r.set(xlim=(-0.01, 1.01), xlabel="attacker's rate or advantage (0 to 1)")
    if calibrated is not None:
        ax_d = fig.add_subplot(grid[3])
        _calibration_panel(ax_d, calibrated, skipped)
        ax_d.set_xlabel(f"noise scale (σ or b, {unit}, log scale)")
        style.panel_title(
            ax_d,
            3,
            _wrapped(
                "the mean's noise for the risk you state: attack-aware or by the standard "
                "route\nright: how many times the attack-aware noise the standard route needs"
            ),
        )
    at_e = count - 2 if len(timed) else count - 1
    ax_e = fig.add_subplot(grid[at_e])
    _singling_out_panel(ax_e, scale)
    style.panel_title(
        ax_e,
        at_e,
        _wrapped(
            "singling out one person among k equally likely candidates, for each row of (c)\n"
            "filled: the bound, which no mechanism with the guarantee exceeds; hollow: what one "
            "attains"
        ),
    )
    if len(timed):
        ax_f = fig.add_subplot(grid[count - 1])
        years = float(timed.units_in_horizon.iloc[0]) / _per_year(timed.unit_period.iloc[0])
        horizon = "a year" if np.isclose(years, 1) else f"{years:g} years"
        _horizon_panel(ax_f, timed, horizon)
        style.panel_title(
            ax_f,
            count - 1,
            _wrapped(
                f"the deployments whose unit is a day or a month, over {horizon}, for a person "
                "who contributes in every unit\nthe guarantees composed: exact for ε and (ε, δ), "
                "a bracket for ρ (bound filled, attained hollow)"
            ),
        )
    fig.suptitle(title, y=1 - 0.2 / height)
    top = 1 - head / height
    if provenance is not None:
        below = (0.5 + 0.25 * title_lines) / height  # under the title's last line
        fig.text(0.5, 1 - below, provenance, ha="center", va="top", color="0.3",
                 fontsize=style.FONT["note"])  # fmt: skip
    bottom, gap = 0.6 / height, 1.2  # inches between panels, for their titles of up to 3 lines
    axes_height = (height * (top - bottom) - (count - 1) * gap) / count
    fig.subplots_adjust(top=top, bottom=bottom, left=0.40, right=0.90, hspace=gap / axes_height)
    drawn = pd.concat(panels.values(), ignore_index=True)[FRAME_COLUMNS].assign(kind="method")
    on_scale = rows_c.assign(
        panel="(c)", guarantee=[guarantee_text(r) for r in rows_c.itertuples()]
    )
    frames = [drawn, on_scale]
    if len(timed):
        frames.append(timed[["row", "kind", *HORIZON_FRAME]].assign(panel="(f)"))
    if calibrated is not None:
        kept = ["mechanism", "target", "noise_aware", "noise_standard", "noise_ratio"]
        frames.append(calibrated[kept].assign(panel="(d)", kind="calibration"))
    return fig, pd.concat(frames, ignore_index=True)


def caption(
    n_people: int,
    interval: list[float] | None,
    scale: pd.DataFrame,
    calibrated: pd.DataFrame | None = None,
    left_out: Sequence[str] = (),
) -> Caption:
    """The caption and alt text of ``methods_and_deployments`` (with panel (d) when
    ``calibrated`` is given), naming what does not apply at the run's inputs (``left_out``: the
    methods and the stated risks, by name)."""
    deployed = scale[scale.kind == "deployment"]
    on_scale = deployed[np.isfinite(deployed.advantage.astype(float))]
    if interval is None:
        verdict = "no ε meets every bound of panel (a)"
    else:
        low_a, high_a = interval
        verdict = f"the ε that meet every bound of panel (a) lie in [{low_a:.3g}, {high_a:.3g}]"
    advantage = on_scale.advantage.astype(float)
    spread = (
        f"from {advantage.min():.3g} to {advantage.max():.3g}"
        if len(on_scale)
        else "none of them stating a number"
    )
    cost = ""
    if calibrated is not None:
        ratios = calibrated.noise_ratio.astype(float)
        finite = ratios[np.isfinite(ratios)]
        cost = (
            f"{finite.min():.3g} to {finite.max():.3g} times as much"
            if len(finite)
            else "no finite noise"
        )

    def sentence(said: str) -> str:
        if calibrated is None:
            return (
                f"For the mean of {n_people:,} survey values, {said}; panel (c) reads every "
                f"method's answer and {len(on_scale)} of {len(deployed)} published deployments "
                f"as the largest advantage of an attacker testing one person's presence "
                f"({spread} for the deployments) and its true-positive rate at 1% false "
                "positives, both exact; (d) the chance to single out one of 10 or 1,000."
            )
        return (  # five panels in one sentence of at most 400 characters
            f"For the mean of {n_people:,} survey values, {said}; (c) reads each answer and "
            f"{len(on_scale)} of {len(deployed)} deployments as an exact advantage and TPR at 1% "
            "false positives; (d) gives the noise meeting each stated risk, the standard route "
            f"through ε needing {cost}; (e) the chance to single out one of 10 or 1,000."
        )

    text = sentence(verdict)
    if left_out:  # by name (a method's up to its first comma: "Shoaran et al."), or how many
        names = [name.split(",")[0] for name in left_out]
        does = "does" if len(names) == 1 else "do"
        text = sentence(f"{verdict} ({_listed(names)} {does} not apply)")
        if len(text) > CAPTION_CHARACTERS:
            text = sentence(f"{verdict} ({len(names)} {does} not apply: see the figure)")
    alt = (
        f"{['Four', 'Five', 'Six'][(calibrated is not None) + _has_horizon_panel(scale)]} "
        "panels. (a) and (b) share a log ε axis. Panel (a) marks each "
        "method's bound on ε for the survey's mechanism, pointing left for upper, right for lower "
        + (
            "bounds, with the feasible interval shaded green; "
            if interval is not None
            else "bounds; "
        )
        + "panel (b), Lee and Clifton's two hollow upper bounds, hatched; panel "
        + (
            "(c) lists the answers, then the deployments by advantage (0 to 1): a filled circle "
            "at the largest advantage (hollow if local), a hollow diamond at the true-positive "
            "rate at 1% false positives, at the right a guess's accuracy, in 100."
            if len(on_scale) <= MAX_NAMED
            else f"(c) marks the {len(on_scale)} deployments' advantage on one row per privacy "
            "model."
        )
    )
    if calibrated is not None:
        alt += (
            f" Panel (d) has {len(calibrated)} rows, two per stated risk, on a log noise axis: "
            "a black dot at the attack-aware noise, a hollow purple square at the standard "
            "route's, their ratio at the right."
        )
    last = "(d)" if calibrated is None else "(e)"
    alt += (
        f" Panel {last}: each row's chance to single out one of 10 (circles) or 1,000 (squares) "
        "against its advantage, the bound filled, what is attained hollow."
    )
    timed = over_time(scale)
    if _has_horizon_panel(scale):
        after = "(e)" if calibrated is None else "(f)"
        alt += (
            f" Panel {after}: the {len(timed)} deployments per day or month, a dot at one unit's "
            "advantage, a square at the horizon's (hollow: attained)."
        )
    if left_out:
        alt += " A row without a marker says in words why."
    return Caption(caption=text, alt=alt)
