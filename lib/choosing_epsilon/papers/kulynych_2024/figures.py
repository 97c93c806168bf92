"""Figures of the Kulynych et al. (2024) notebook: the noise of both calibrations (Figs. 2a and 3),
the attack power advantage calibration gives away at low FPR (Figs. 2b and 6), the trade-off curves
of three training runs (Fig. 4) and task accuracy against attack TPR (Fig. 1), each with the
function that writes its caption and alt text from the data it draws."""

from __future__ import annotations

import textwrap
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from choosing_epsilon.plots import figures, style

_COLOUR_NAMES = {colour: name for name, colour in style.OKABE_ITO.items()}
STANDARD = "standard: noise for the (ε, δ) that implies the risk"
AWARE = "attack-aware: noise for the risk itself"


def _series(index: int, marker: str | None = None) -> dict[str, Any]:
    looks: dict[str, Any] = {"color": style.PALETTE[index], "ls": style.LINESTYLES[index]}
    if marker:
        looks["marker"] = marker
    return looks


def _looks(index: int) -> str:
    return f"{_COLOUR_NAMES[style.PALETTE[index]]} {style.DASH_NAMES[index]}"


def noise_figure(table: pd.DataFrame) -> tuple[Figure, pd.DataFrame]:
    """Figs. 2a and 3: the noise multiplier of both calibrations, against the advantage (a) and
    against the TPR at each FPR (b, c, ...). ``table`` is the calibration grid."""
    fprs = sorted(table.loc[table.kind == "tpr", "fpr"].unique())
    fig, axes = plt.subplots(
        1, 1 + len(fprs), figsize=(3.0 * (1 + len(fprs)), 3.4), squeeze=False, layout="constrained"
    )
    parts = [("advantage", None, "attack advantage (η)")]
    parts += [("tpr", a, "attack true-positive rate (1 − β)") for a in fprs]
    for index, (kind, fpr, xlabel) in enumerate(parts):
        ax = axes[0, index]
        rows = (
            table[table.kind == kind]
            if fpr is None
            else table[(table.kind == kind) & (table.fpr == fpr)]
        )
        rows = rows.sort_values("target")
        ax.plot(
            rows.target,
            rows.sigma_standard,
            label=STANDARD if index == 0 else "_s",
            **_series(0, "o"),
        )
        ax.plot(
            rows.target, rows.sigma_aware, label=AWARE if index == 0 else "_a", **_series(1, "s")
        )
        ax.set(xlabel=xlabel, ylabel="noise multiplier (σ)", yscale="log")
        style.plain_log_labels(ax.yaxis)
        title = "advantage" if fpr is None else f"TPR at FPR α = {fpr:g}"
        style.panel_title(ax, index, title)
    fig.legend(loc="outside lower center", ncols=2)
    fig.suptitle("Figs. 2a and 3: DP-SGD noise under both calibrations")
    return fig, table.copy()


def noise_caption(table: pd.DataFrame) -> figures.Caption:
    """Caption and alt text of ``noise_figure``."""
    adv = table[table.kind == "advantage"]
    tpr = table[table.kind == "tpr"]
    best_adv = adv.iloc[int(np.argmax(adv.noise_ratio.to_numpy()))]
    best_tpr = tpr.iloc[int(np.argmax(tpr.noise_ratio.to_numpy()))] if len(tpr) else None
    text = (
        f"Calibrating DP-SGD's noise to the attack risk itself needs up to "
        f"{best_adv.noise_ratio:.2f} times less noise than the standard route for an advantage "
        f"(at η = {best_adv.target:g})"
    )
    if best_tpr is not None:
        text += (
            f" and up to {best_tpr.noise_ratio:.2f} times less for a TPR at a fixed FPR (TPR "
            f"{best_tpr.target:g} at FPR {best_tpr.fpr:g})"
        )
    alt = (
        f"Panels of noise multiplier on a log scale against the target risk: {_looks(0)} "
        f"line with circles for standard calibration lies above the {_looks(1)} line with squares "
        f"for attack-aware calibration in every panel, from σ {table.sigma_aware.min():.3g} to "
        f"{table.sigma_standard.max():.3g}."
    )
    return figures.Caption(caption=text + ".", alt=alt)


def gap_figure(curves: pd.DataFrame, advantage: float) -> tuple[Figure, pd.DataFrame]:
    """Figs. 2b and 6: how much more TPR an attack has at each FPR after calibrating to the
    advantage η instead of to the (ε, δ) that implies η: for the worst-case mechanism (exact and
    Prop. 3.3's bound), and for the Gaussian mechanism against the curve (ε, δ) states and against
    the curve the standard-calibrated Gaussian has. Columns: fpr, worst_case, bound,
    gaussian_stated, gaussian_exact."""
    fig, ax = plt.subplots(figsize=(5.6, 4.4), layout="constrained")
    ax.plot(curves.fpr, curves.worst_case, label="worst-case (ε, δ) mechanism, exact", **_series(0))
    ax.plot(curves.fpr, curves.bound, label="Proposition 3.3's lower bound", **_series(1))
    ax.plot(
        curves.fpr, curves.gaussian_stated, label="Gaussian, against (ε, δ)'s curve", **_series(2)
    )
    ax.plot(
        curves.fpr, curves.gaussian_exact, label="Gaussian, against its own curve", **_series(3)
    )
    ax.set(
        xlabel="attack false-positive rate (α)",
        ylabel="extra attack true-positive rate (Δβ)",
        xlim=(0, float(curves.fpr.max())),
    )
    fig.legend(loc="outside lower center", ncols=2)  # below the axes: no curve under it
    ax.set_title(f"Figs. 2b and 6: the cost of calibrating to advantage η = {advantage:g}")
    return fig, curves.copy()


def gap_caption(curves: pd.DataFrame, advantage: float, fpr: float) -> figures.Caption:
    """Caption and alt text of ``gap_figure``, reading the curves at FPR ``fpr``."""
    at = curves.iloc[int(np.argmin(np.abs(curves.fpr.to_numpy() - fpr)))]
    return figures.Caption(
        caption=(
            f"Calibrating to advantage {advantage:g} instead of to the (ε, δ) that implies it lets "
            f"an attack at FPR {at.fpr:.3g} gain {at.worst_case:.3f} in TPR against the worst-case "
            f"mechanism, {at.gaussian_stated:.3f} against the Gaussian mechanism's stated (ε, δ) "
            f"curve and {at.gaussian_exact:.3f} against the standard-calibrated Gaussian's own "
            "curve."
        ),
        alt=(
            f"Four curves of extra TPR against FPR from 0 to {curves.fpr.max():.2g}: the "
            f"{_looks(0)} exact worst case and the {_looks(1)} bound fall from "
            f"{curves.worst_case.iloc[0]:.2f}; the {_looks(2)} Gaussian curve against (ε, δ) "
            f"peaks at {curves.gaussian_stated.max():.2f} and the {_looks(3)} Gaussian curve "
            f"against its own curve at {curves.gaussian_exact.max():.2f}."
        ),
    )


def tradeoff_figure(curves: pd.DataFrame) -> tuple[Figure, pd.DataFrame]:
    """Fig. 4: each run's trade-off curve (FNR against FPR) from its own accounting beside the
    curve its (ε, δ) implies, one panel per run. Columns: sigma, test_acc, fpr, fnr_aware,
    fnr_standard."""
    runs = list(curves.groupby("sigma", sort=True))
    fig, axes = plt.subplots(
        1, len(runs), figsize=(3.0 * len(runs), 3.4), squeeze=False, layout="constrained"
    )
    for index, (sigma, run) in enumerate(runs):
        ax = axes[0, index]
        ax.plot(
            run.fpr,
            run.fnr_standard,
            label="from (ε, δ) via Eq. 5" if index == 0 else "_s",
            **_series(0),
        )
        ax.plot(
            run.fpr,
            run.fnr_aware,
            label="the run's own curve (Algorithm 1)" if index == 0 else "_a",
            **_series(1),
        )
        ax.plot(
            [0, 1],
            [1, 0],
            label="perfect privacy" if index == 0 else "_p",
            color=style.REFERENCE,
            ls=":",
        )
        ax.set(
            xlabel="attack false-positive rate (α)",
            ylabel="attack false-negative rate (β)",
            xlim=(0, 1),
            ylim=(0, 1),
        )
        style.panel_title(ax, index, f"σ = {sigma:.4f}, accuracy {run.test_acc.iloc[0]:.3f}")
    fig.legend(loc="outside lower center", ncols=3)
    fig.suptitle("Fig. 4: trade-off curves of three GPT-2 runs")
    return fig, curves.copy()


def tradeoff_caption(curves: pd.DataFrame) -> figures.Caption:
    """Caption and alt text of ``tradeoff_figure``."""
    gap = (curves.fnr_aware - curves.fnr_standard).max()
    return figures.Caption(
        caption=(
            f"Each run's own trade-off curve lies above the curve read from its single (ε, δ), by "
            f"up to {gap:.2f} in false-negative rate: the (ε, δ) reading overstates the attack."
        ),
        alt=(
            f"{curves.sigma.nunique()} panels of FNR against FPR: in each the {_looks(1)} curve of "
            f"the run's own accounting lies above the {_looks(0)} (ε, δ) curve and below the grey "
            "dotted diagonal of perfect privacy."
        ),
    )


def utility_figure(risks: pd.DataFrame) -> tuple[Figure, pd.DataFrame]:
    """Fig. 1: task accuracy against the attack TPR each run's noise allows at each FPR, read by
    standard calibration and by the run's own trade-off curve; a row per task. Columns: task,
    fpr, test_acc, tpr_standard, tpr_aware."""
    tasks = list(dict.fromkeys(risks.task))
    fprs = sorted(risks.fpr.unique())
    fig, axes = plt.subplots(
        len(tasks),
        len(fprs),
        figsize=(3.0 * len(fprs), 3.0 * len(tasks)),
        squeeze=False,
        layout="constrained",
        sharey="row",
    )
    for row, task in enumerate(tasks):
        for column, fpr in enumerate(fprs):
            ax = axes[row, column]
            part = risks[(risks.task == task) & (risks.fpr == fpr)].sort_values("test_acc")
            first = row == 0 and column == 0
            ax.plot(
                part.test_acc * 100,
                part.tpr_standard,
                label="standard calibration" if first else "_s",
                **_series(0, "o"),
            )
            ax.plot(
                part.test_acc * 100,
                part.tpr_aware,
                label="attack-aware calibration" if first else "_a",
                **_series(1, "s"),
            )
            ax.set(xlabel="task accuracy (%)", ylabel=f"{task}:\nattack TPR (1 − β)", ylim=(0, 1))
            style.panel_title(ax, row * len(fprs) + column, f"FPR α = {fpr:g}")
    fig.legend(loc="outside lower center", ncols=2)
    title = "Fig. 1: task accuracy against the attack TPR each run allows"
    # about eleven characters an inch at the title's size: a figure of one column wraps it
    fig.suptitle(textwrap.fill(title, max(30, int(fig.get_figwidth() * 11))))
    return fig, risks.copy()


def utility_caption(risks: pd.DataFrame) -> figures.Caption:
    """Caption and alt text of ``utility_figure``."""
    lower = (risks.tpr_aware <= risks.tpr_standard + 1e-12).mean()
    return figures.Caption(
        caption=(
            f"At every run and FPR the run's own accounting allows a lower attack TPR than its "
            f"(ε, δ) implies ({lower:.0%} of the points), so the same accuracy comes with less "
            "stated risk."
        ),
        alt=(
            f"A grid of panels, one row per task and one column per FPR, TPR against task "
            f"accuracy: the {_looks(1)} attack-aware line with squares lies below the {_looks(0)} "
            "standard line with circles."
        ),
    )
