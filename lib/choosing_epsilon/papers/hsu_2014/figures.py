"""Figures of Hsu et al. (2014): the feasible (ε, N) region, the smallest accurate study by the
bound and by the exact failure probability, the exact failure probability against the true
fraction p, and the largest feasible ε against the expected cost P and the budget B; each with
the caption and alt text that describe it at the parameters it was drawn with.

Colours keep the style's roles: the budget, which bounds N from above, is ``style.UPPER``; the
accuracy condition, which bounds N from below, ``style.LOWER``; the feasible region
``style.FEASIBLE``; the exact failure probability orange in every figure; reference lines (the
slides' ε, p = 0.5, the notebook's P) ``style.REFERENCE``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import cast

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from choosing_epsilon.economics import StudyDesign
from choosing_epsilon.economics import dollars as econ_dollars
from choosing_epsilon.papers.hsu_2014.scans import infeasible_budgets, lone_points
from choosing_epsilon.plots import figures, style
from choosing_epsilon.plots.figures import centred_text

P_AXIS = "true fraction of smokers (p)"
EXACT = style.OKABE_ITO["orange"]  # the exact failure probability, in every figure
NOWHERE = "infeasible at every P shown"  # the legend's words for a budget that draws no point


def _money(amount: float) -> str:
    """An amount for a caption in words, "30,000 dollars" or "63.70 dollars": a dollar sign
    would open TeX math in the Markdown that shows the caption."""
    if amount != 0 and abs(amount) < 0.01:
        return f"{amount:.3g} dollars"
    text = f"{amount:,.2f}".removesuffix(".00")
    return f"{text} dollar" if text == "1" else f"{text} dollars"


def _dollar_label(amount: float) -> str:
    """An amount for a legend: to the dollar from $100 ("$16,667"), else to the cent or to 3
    significant figures below one ("$63.70", "$5e-05"): never "$0"."""
    return f"${amount:,.0f}" if abs(amount) >= 100 else econ_dollars(amount)


def _listed(words: Sequence[str]) -> str:
    """``words`` joined as prose: "a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _design_name(name: str) -> str:
    """A design's name without the panel letter the notebook's table gives it."""
    return re.sub(r"^\([a-z]\)\s*", "", name)


def _reference(ax: Axes, x: float, label: str) -> None:
    """A vertical reference line at ``x``: grey and dotted."""
    ax.axvline(x, color=style.REFERENCE, lw=0.9, ls=":", label=label)


def region_top(n_floor: float, slide_n: float) -> float:
    """The top of the region's N axis: four times the larger of the accuracy floor and the
    slides' N, unless that point is far off (over ten times the floor), which would flatten the
    curves; it is then left off the chart."""
    return 4 * max(n_floor, slide_n) if slide_n <= 10 * n_floor else 4 * n_floor


def feasible_region(
    region: pd.DataFrame,
    budget: float,
    failure_probability: float,
    slides: tuple[float, int],
    best: StudyDesign | None,
) -> tuple[Figure, pd.DataFrame]:
    """The budget curve N ≤ B / ((e^ε - 1)P) and the accuracy curve A(ε, N) ≤ T of
    ``scans.feasible_region_curves``, the feasible region between them, the slides' point
    ``slides`` = (ε, N) and the largest feasible ε."""
    eps, n_budget, n_accuracy = region.epsilon, region.n_max_budget, region.n_min_accuracy
    right = float(eps.iloc[-1])
    fig, ax = plt.subplots()
    budget_label = f"budget: N ≤ B / ((e^ε − 1)P), B = {_dollar_label(budget)}"
    ax.plot(eps, n_budget, color=style.UPPER, ls="-", label=budget_label)
    accuracy_label = f"accuracy: A(ε, N) ≤ T = {failure_probability:g}"
    ax.plot(eps, n_accuracy, color=style.LOWER, ls="--", label=accuracy_label)
    inside = n_accuracy <= n_budget
    ax.fill_between(
        eps, n_accuracy, n_budget, where=inside, color=style.FEASIBLE, alpha=0.25, label="feasible"
    )
    slide_epsilon, slide_n = slides
    top = region_top(n_accuracy.min(), slide_n)
    on_chart = slide_epsilon <= right and slide_n <= top
    # off the chart: a hollow star at the nearest edge, its value in the legend
    off_chart = "" if on_chart else " (off the chart)"
    label = f"slides: ε = {slide_epsilon:g}, N = {slide_n:,}{off_chart}"
    ax.plot(
        [min(slide_epsilon, right)],
        [min(slide_n, top)],
        ls="none",
        marker="*",
        color="black",
        mfc="black" if on_chart else "none",
        ms=11,
        clip_on=on_chart,  # at the edge: drawn whole, over the axis
        label=label,
    )
    if best:
        ax.plot(
            [best.epsilon],
            [best.n],
            ls="none",
            marker="o",
            color=style.FEASIBLE,
            mec="black",
            label=f"largest feasible ε = {best.epsilon:.4f}",
        )
    ax.set(
        xlabel="privacy parameter (ε)",
        ylabel="study size (N, participants)",
        ylim=(0, top),
        xlim=(0, right),
        title="Feasible ε and N for accuracy level T and budget B",
    )
    style.legend_below(ax, ncols=2)
    if not inside.any():
        centred_text(ax, "no feasible (ε, N) on this range")
    return fig, region


def feasible_region_caption(
    region: pd.DataFrame,
    budget: float,
    failure_probability: float,
    slides: tuple[float, int],
    best: StudyDesign | None,
    *,
    expected_cost: float,
) -> figures.Caption:
    """The caption and alt text of ``feasible_region`` drawn with the same arguments, at the
    expected cost ``expected_cost`` (P) of the region's budget curve."""
    slide_epsilon, slide_n = slides
    eps, n_budget, n_accuracy = region.epsilon, region.n_max_budget, region.n_min_accuracy
    right, n_floor = float(eps.iloc[-1]), float(n_accuracy.min())
    top = region_top(n_floor, slide_n)
    terms = (
        f"a budget of B = {_money(budget)}, an expected cost of P = {_money(expected_cost)} "
        f"to each person who does not take part, and the accuracy level T = "
        f"{failure_probability:g}"
    )
    slides_text = f"the slides' answer ε = {slide_epsilon:g}, N = {slide_n:,}"
    if best is None:
        caption = (
            f"No study design (ε, N) meets both {terms}: the accuracy curve stays above the "
            f"budget curve, so {slides_text} cannot be met either."
        )
    else:
        caption = (
            f"The study designs (ε, N) that meet both {terms} lie between the budget and accuracy "
            f"curves, up to the largest feasible ε = {best.epsilon:.4f} at N = {best.n:,}, "
            f"beside {slides_text}."
        )
    shaded = (
        "the band where the accuracy curve lies below the budget curve is shaded as feasible"
        if (n_accuracy <= n_budget).any()
        else "nothing is shaded, since the accuracy curve lies above the budget curve throughout"
    )
    off = (
        ""
        if slide_epsilon <= right and slide_n <= top
        else ", off the chart: a hollow star at its edge"
    )
    dot = "" if best is None else f", and a dot the largest feasible ε, {best.epsilon:.4f}"
    alt = (
        f"Line chart of the study size N, from 0 to {top:,.0f}, against the privacy parameter ε, "
        f"from 0 to {right:.3g}: the budget's largest N (solid) falls as ε grows, to "
        f"{float(n_budget.iloc[-1]):,.0f} at the right edge, and the accuracy's smallest N "
        f"(dashed) falls steeply and levels off at {n_floor:,.0f}; {shaded}; a star marks the "
        f"slides' point (ε = {slide_epsilon:g}, N = {slide_n:,}{off}){dot}."
    )
    return figures.Caption(caption=caption, alt=alt)


def study_size_exact_vs_bound(
    design: pd.DataFrame, slide_epsilon: float, true_fraction: float = 0.5
) -> tuple[Figure, pd.DataFrame]:
    """The smallest accurate N against ε by the bound A(ε, N) ≤ T and by the exact failure
    probability at the true fraction ``true_fraction`` (``scans.study_size_scan``), both
    axes logarithmic."""
    fig, ax = plt.subplots()
    ax.plot(
        design.epsilon,
        design.n_bound,
        color=style.LOWER,
        ls="--",
        label="smallest N by the bound A(ε, N) ≤ T",
    )
    ax.plot(
        design.epsilon,
        design.n_exact,
        color=EXACT,
        ls="-",
        label=f"smallest N by the exact failure probability at p = {true_fraction:g}",
    )
    _reference(ax, slide_epsilon, f"slides' ε = {slide_epsilon:g}")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="privacy parameter (ε)",
        ylabel="smallest accurate study size (N, participants)",
        title="How large must the study be?",
    )
    style.legend_below(ax)
    return fig, design


def study_size_exact_vs_bound_caption(
    design: pd.DataFrame,
    slide_epsilon: float,
    *,
    failure_probability: float,
    error: float,
    true_fraction: float,
) -> figures.Caption:
    """The caption and alt text of ``study_size_exact_vs_bound`` drawn with the same arguments,
    for the accuracy level ``failure_probability`` (T), the error ``error`` (d) and the true
    fraction ``true_fraction`` (p) the scan used."""
    ratio = design.n_bound / design.n_exact
    low, high = f"{ratio.min():.3g}", f"{ratio.max():.3g}"
    times = low if low == high else f"{low} to {high}"
    eps_low, eps_high = float(design.epsilon.iloc[0]), float(design.epsilon.iloc[-1])
    caption = (
        f"To meet the accuracy level T = {failure_probability:g} with error d = {error:g}, the "
        f"bound A(ε, N) ≤ T asks for {times} times as many participants as the exact failure "
        f"probability at p = {true_fraction:g} does, over ε from {eps_low:.3g} to "
        f"{eps_high:.3g}: what the analyst pays for designing with the bound."
    )
    first, last = design.iloc[0], design.iloc[-1]
    alt = (
        f"Line chart, both axes logarithmic, of the smallest accurate study size N against the "
        f"privacy parameter ε from {eps_low:.3g} to {eps_high:.3g}: by the bound (dashed) N goes "
        f"from {first.n_bound:,.0f} at the left to {last.n_bound:,.0f} at the right, by the "
        f"exact failure probability (solid) from {first.n_exact:,.0f} to {last.n_exact:,.0f}; a "
        f"dotted vertical line marks the slides' ε = {slide_epsilon:g}."
    )
    return figures.Caption(caption=caption, alt=alt)


def failure_vs_true_fraction(
    curves: pd.DataFrame, worst: pd.DataFrame, designs: Mapping[str, tuple[float, int]]
) -> tuple[Figure, pd.DataFrame]:
    """One panel per design (at most two): its curve of ``scans.failure_curves`` with the
    largest value at p and 1 - p from ``scans.worst_case_table``; a missing second design
    is said so in its panel."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for index, (ax, (name, (eps, n))) in enumerate(zip(axes, designs.items())):
        curve = curves[curves.design == name]
        if curve.failure_probability.notna().any():
            ax.plot(
                curve.fraction,
                curve.failure_probability,
                color=EXACT,
                ls="-",
                label="exact failure probability",
            )
        else:  # the bound, which holds at every p, underflows: so does the exact value
            # at the left, in two lines: the reference line of p = 0.5 runs down the middle
            style.note(ax, 0.03, 0.5, "below 1e-300\nat every p", transform=ax.transAxes,
                       va="center", color="black")  # fmt: skip
        row = worst[worst.design == name].iloc[0]
        p_worst = row["worst fraction p"]
        _reference(ax, 0.5, "p = 0.5")
        largest = [row["failure at worst p"]] * 2
        ax.plot(
            [p_worst, 1 - p_worst],
            largest,
            ls="none",
            marker="o",
            ms=5,
            color="black",
            label="largest (p and 1 − p)",
        )
        style.panel_title(ax, index, f"{_design_name(name)}: ε = {eps:.3g}, N = {n:,}")
        ax.set(xlabel=P_AXIS, ylabel="failure probability")
        style.legend_below(ax, ncols=2)
    if len(designs) == 1:
        centred_text(axes[1], "no exact-accuracy design on this budget")
        style.panel_title(axes[1], 1, "exact-accuracy design")
        axes[1].set(xlabel=P_AXIS, ylabel="failure probability")
    return fig, curves


def failure_vs_true_fraction_caption(
    curves: pd.DataFrame,
    worst: pd.DataFrame,
    designs: Mapping[str, tuple[float, int]],
    *,
    error: float,
) -> figures.Caption:
    """The caption and alt text of ``failure_vs_true_fraction`` drawn with the same arguments,
    for the error ``error`` (d) the curves were computed at."""
    found, panels = [], []
    for index, (name, (eps, n)) in enumerate(designs.items()):
        row = worst[worst.design == name].iloc[0]
        p_worst, f_worst = float(row["worst fraction p"]), float(row["failure at worst p"])
        design = f"at the {_design_name(name)} (ε = {eps:.3g}, N = {n:,})"
        curve = curves[curves.design == name]
        values = curve.failure_probability
        letter = style.letter(index)
        if not (f_worst > 0 and values.notna().any()):
            found.append(f"{design} it lies below 1e-300 at every p")
            panels.append(f"{letter} says it lies below 1e-300 at every p")
            continue
        centre = f"{p_worst:.4g}" == "0.5"  # to the search's precision
        at = "p = 0.5" if centre else f"p = {p_worst:.4g} and {1 - p_worst:.4g}"
        found.append(
            f"{design} it is largest at {at} ({f_worst:.3g}){'' if centre else ', not at 0.5'}"
        )
        dots = "a dot" if centre else "dots"
        panels.append(
            f"{letter} over p from {curve.fraction.min():.3g} to {curve.fraction.max():.3g}, "
            f"a curve from {values.min():.3g} to {values.max():.3g}, with {dots} at its largest "
            f"value, {at}"
        )
    if len(designs) == 1:
        found.append("no exact-accuracy design fits the budget")
        panels.append("(b) says no exact-accuracy design fits the budget")
    caption = (
        "Whether p = 0.5 is the worst true fraction of smokers for the exact chance that the "
        f"private estimate misses p by more than d = {error:g}: {'; '.join(found)}."
    )
    alt = (
        "Two line charts of the exact failure probability against the true fraction of smokers "
        f"p, with a dotted vertical line at p = 0.5: {'; '.join(panels)}."
    )
    return figures.Caption(caption=caption, alt=alt)


def max_epsilon_vs_cost_and_budget(
    scan: pd.DataFrame, expected_cost: float
) -> tuple[Figure, pd.DataFrame]:
    """The largest feasible ε against the expected cost P, one curve per budget B
    (``scans.max_epsilon_scan``), with the notebook's P marked. A budget at which no P shown
    is feasible keeps its entry in the legend, marked so, and draws nothing; a feasible point
    whose neighbours are not (``scans.lone_points``) is a dot on its curve, which alone would
    draw nothing there."""
    fig, ax = plt.subplots()
    infeasible = infeasible_budgets(scan)
    lone = lone_points(scan)
    for budget, curve in scan.groupby("budget", sort=False):
        label = f"B = {_dollar_label(cast(float, budget))}"
        if budget in infeasible:  # no point: its colour and dash in the legend, and why
            ax.plot(curve.expected_cost, curve.max_feasible_epsilon, label=f"{label}: {NOWHERE}")
            continue
        dots = np.flatnonzero(lone[curve.index].to_numpy())
        ax.plot(
            curve.expected_cost,
            curve.max_feasible_epsilon,
            label=label + (" (a dot: feasible at that P alone)" if len(dots) else ""),
            marker="o" if len(dots) else None,
            markevery=dots.tolist() if len(dots) else None,
            clip_on=not len(dots),  # a dot at the axis's end is drawn whole
        )
    _reference(ax, expected_cost, f"P = {_dollar_label(expected_cost)}")
    low, high = float(scan.expected_cost.min()), float(scan.expected_cost.max())
    if np.isnan(scan.max_feasible_epsilon).all():
        # on the side of the panel away from the line of P, in two lines
        left = (
            math.log(expected_cost / low) > math.log(high / expected_cost) if low < high else True
        )
        style.note(
            ax, 0.03 if left else 0.97, 0.5, "no study is feasible\nfor any P and B shown",
            transform=ax.transAxes, ha="left" if left else "right", va="center", color="black",
        )  # fmt: skip
        ax.set_ylim(0, 1)  # no ε to show: the axis starts at 0 rather than around it
    ax.set_xlim(low, high)
    ax.set(
        xscale="log",
        xlabel="expected cost of not participating (P, dollars)",
        ylabel="largest feasible privacy parameter (ε)",
        title="The answer moves with P and B (missing: infeasible)",
    )
    style.legend_below(ax, ncols=2)
    return fig, scan


def max_epsilon_vs_cost_and_budget_caption(
    scan: pd.DataFrame,
    expected_cost: float,
    *,
    failure_probability: float,
    error: float,
) -> figures.Caption:
    """The caption and alt text of ``max_epsilon_vs_cost_and_budget`` drawn with the same
    arguments, for the accuracy level ``failure_probability`` (T) and error ``error`` (d)."""
    # each budget with its curve, in the order drawn
    groups = [(float(b), scan[scan.budget == b]) for b in dict.fromkeys(scan.budget.tolist())]
    budgets = _listed([_dollar_label(b).removeprefix("$") for b, _ in groups]) + " dollars"
    costs = scan.expected_cost
    low, high = _money(float(costs.min())), _money(float(costs.max()))
    setting = f"accuracy level T = {failure_probability:g}, error d = {error:g}"
    if scan.max_feasible_epsilon.isna().all():
        caption = (
            f"No study is feasible for any expected cost P of not participating from {low} to "
            f"{high} with a budget B of {budgets} ({setting})."
        )
    else:
        at_p = [
            curve.max_feasible_epsilon[np.isclose(curve.expected_cost, expected_cost, rtol=1e-9)]
            for _, curve in groups
        ]
        values = (
            ""
            if any(v.empty for v in at_p)
            else f"; at this study's P = {_money(expected_cost)} it is "
            + _listed(["none" if math.isnan(v.iloc[0]) else f"{v.iloc[0]:#.3g}" for v in at_p])
        )
        gaps = (
            ", a curve ending where no study is feasible"
            if scan.max_feasible_epsilon.isna().any()
            else ""
        )
        none = [_dollar_label(b).removeprefix("$") for b in infeasible_budgets(scan)]
        if none:
            gaps += f", and none at any P with B = {_listed(none)} dollars"
        caption = (
            "The largest feasible ε falls as the expected cost P of not participating rises and "
            f"grows with the budget B of {budgets} ({setting}{gaps}){values}."
        )
    described = []
    lone = lone_points(scan)
    for budget, curve in groups:
        shown = curve[curve.max_feasible_epsilon.notna()]
        text = f"B = {_dollar_label(budget).removeprefix('$')} dollars"  # as the legend rounds it
        if shown.empty:
            described.append(f"{text} has no point, its legend entry marked infeasible")
            continue
        dots = shown[lone[shown.index]]
        if len(dots) == len(shown):
            at = _listed([f"{e:.3g} at P = {_money(float(c))}" for c, e in zip(
                dots.expected_cost, dots.max_feasible_epsilon)])  # fmt: skip
            described.append(f"{text} is feasible at isolated costs only, a dot each: {at}")
            continue
        described.append(
            f"{text} goes from {shown.max_feasible_epsilon.iloc[0]:.3g} to "
            f"{shown.max_feasible_epsilon.iloc[-1]:.3g}"
            + (
                f" and stops at P = {_money(float(shown.expected_cost.iloc[-1]))}"
                if len(shown) < len(curve)
                else ""
            )
        )
    alt = (
        "Line chart of the largest feasible privacy parameter ε against the expected cost P on a "
        f"logarithmic axis from {low} to {high}, one curve per budget: {'; '.join(described)}; a "
        f"dotted vertical line marks P = {_money(expected_cost)}."
    )
    return figures.Caption(caption=caption, alt=alt)
