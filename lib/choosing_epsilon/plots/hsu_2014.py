"""Figures of Hsu et al. (2014): the feasible (ε, N) region, the smallest accurate study by the
bound and by the exact failure probability, the exact failure probability against the true
fraction p, and the largest feasible ε against the expected cost P and the budget B."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..economics import StudyDesign
from ..figures import centred_text

P_AXIS = "true fraction of smokers (p)"


def feasible_region(
    region: pd.DataFrame,
    budget: float,
    failure_probability: float,
    slides: tuple[float, int],
    best: StudyDesign | None,
) -> tuple[Figure, pd.DataFrame]:
    """The budget curve N ≤ B / ((e^ε - 1)P) and the accuracy curve A(ε, N) ≤ T of
    ``economics.feasible_region_curves``, the feasible region between them, the slides' point
    ``slides`` = (ε, N) and the largest feasible ε."""
    eps, n_budget, n_accuracy = region.epsilon, region.n_max_budget, region.n_min_accuracy
    right = float(eps.iloc[-1])
    fig, ax = plt.subplots()
    ax.plot(eps, n_budget, label=f"budget: N ≤ B / ((e^ε − 1)P), B = ${budget:,.0f}")
    ax.plot(eps, n_accuracy, label=f"accuracy: A(ε, N) ≤ T = {failure_probability:g}")
    inside = n_accuracy <= n_budget
    ax.fill_between(eps, n_accuracy, n_budget, where=inside, alpha=0.25, label="feasible")
    n_floor = n_accuracy.min()
    slide_epsilon, slide_n = slides
    # a far-off slides' point would flatten the curves: it is then left off the chart
    top = 4 * max(n_floor, slide_n) if slide_n <= 10 * n_floor else 4 * n_floor
    off_chart = "" if slide_epsilon <= right and slide_n <= top else " (off the chart)"
    label = f"slides: ε = {slide_epsilon:g}, N = {slide_n:,}{off_chart}"
    ax.plot([slide_epsilon], [slide_n], "k*", ms=11, label=label)
    if best:
        ax.plot([best.epsilon], [best.n], "ro", label=f"largest feasible ε = {best.epsilon:.4f}")
    ax.set(
        xlabel="privacy parameter (ε)",
        ylabel="study size (N), participants",
        ylim=(0, top),
        xlim=(0, right),
        title="Feasible ε and N for accuracy level T and budget B",
    )
    ax.legend(fontsize=8)
    if not inside.any():
        centred_text(ax, "no feasible (ε, N) on this range")
    return fig, region


def study_size_exact_vs_bound(
    design: pd.DataFrame, slide_epsilon: float
) -> tuple[Figure, pd.DataFrame]:
    """The smallest accurate N against ε by the bound A(ε, N) ≤ T and by the exact failure
    probability (``economics.study_size_scan``), both axes logarithmic."""
    fig, ax = plt.subplots()
    ax.plot(design.epsilon, design.n_bound, label="smallest N by the bound A(ε, N) ≤ T")
    ax.plot(design.epsilon, design.n_exact, label="smallest N by the exact failure probability")
    ax.axvline(slide_epsilon, color="grey", lw=0.8, ls=":", label=f"slides' ε = {slide_epsilon:g}")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="privacy parameter (ε)",
        ylabel="smallest accurate study size (N), participants",
        title="How large must the study be?",
    )
    ax.legend(fontsize=8)
    return fig, design


def failure_vs_true_fraction(
    curves: pd.DataFrame, worst: pd.DataFrame, designs: Mapping[str, tuple[float, int]]
) -> tuple[Figure, pd.DataFrame]:
    """One panel per design (at most two): its curve of ``economics.failure_curves`` with the
    largest value at p and 1 - p from ``economics.worst_case_table``; a missing second design
    is said so in its panel."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for ax, (name, (eps, n)) in zip(axes, designs.items()):
        curve = curves[curves.design == name]
        if curve.failure_probability.notna().any():
            ax.plot(curve.fraction, curve.failure_probability, label="exact failure probability")
        else:  # the bound, which holds at every p, underflows: so does the exact value
            centred_text(ax, "below 1e-300 at every p")
        row = worst[worst.design == name].iloc[0]
        p_worst = row["worst fraction p"]
        ax.axvline(0.5, color="grey", lw=0.8, ls=":", label="p = 0.5")
        largest = [row["failure at worst p"]] * 2
        ax.plot([p_worst, 1 - p_worst], largest, "ro", ms=5, label="largest (p and 1 − p)")
        title = f"{name}: ε = {eps:.3g}, N = {n:,}"
        ax.set(xlabel=P_AXIS, ylabel="failure probability", title=title)
        ax.legend(fontsize=7)
    if len(designs) == 1:
        centred_text(axes[1], "(b) no exact-accuracy design on this budget")
        axes[1].set(xlabel=P_AXIS, ylabel="failure probability", title="(b) exact-accuracy design")
    return fig, curves


def max_epsilon_vs_cost_and_budget(
    scan: pd.DataFrame, expected_cost: float
) -> tuple[Figure, pd.DataFrame]:
    """The largest feasible ε against the expected cost P, one curve per budget B
    (``economics.max_epsilon_scan``), with the notebook's P marked."""
    fig, ax = plt.subplots()
    for budget, curve in scan.groupby("budget", sort=False):
        ax.plot(curve.expected_cost, curve.max_feasible_epsilon, label=f"B = ${budget:,.0f}")
    ax.axvline(expected_cost, color="grey", lw=0.8, ls=":", label=f"P = ${expected_cost:.2f}")
    if np.isnan(scan.max_feasible_epsilon).all():
        centred_text(ax, "no study is feasible for any P and B shown")
    ax.set(
        xscale="log",
        xlabel="expected cost of not participating (P), dollars",
        ylabel="largest feasible privacy parameter (ε)",
        title="The answer moves with P and B (missing: infeasible)",
    )
    ax.legend(fontsize=8)
    return fig, scan
