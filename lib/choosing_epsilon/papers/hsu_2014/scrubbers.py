"""Hsu et al. (2014): the site's scrubber of the feasible (ε, N) region as the budget B moves
(``plots.scrubber``; the site renders it, ``site/scrubbers.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from choosing_epsilon import economics as econ
from choosing_epsilon.harness import parameters
from choosing_epsilon.papers.hsu_2014 import figures as hsu_plots
from choosing_epsilon.papers.hsu_2014 import scans
from choosing_epsilon.plots import scrubber, style


def _escaped_dollars(amount: float) -> str:
    """A whole-dollar amount as a figure's text writes it: ``\\$30,000``, escaped, since two dollar
    signs in one text would start matplotlib's mathtext."""
    return f"\\${amount:,.0f}"


@scrubber.styled(frames=27)
def region_against_budget(count: int) -> scrubber.ScrubAnimation:
    """The feasible (ε, N) region between the budget curve N ≤ B/((e^ε − 1)P) and the accuracy
    curve A(ε, N) ≤ T as the budget B moves, with the largest feasible ε and the slides' point."""
    params = parameters.committed_values("hsu_2014")
    cost = econ.expected_cost(params["bad_event_cost"], params["bad_event_probability"])
    budget0, error, alpha = params["budget"], params["error"], params["failure_probability"]
    constants = params["slide_constants"]
    slide_epsilon, slide_n = params["slide_epsilon"], params["slide_n"]
    # from a sixth of the budget (below the cost floor at the slides' values) to three times it,
    # the budgets of the notebook's last figure
    values = scrubber.grid_through(budget0, budget0 / 6, budget0 * 3, count, log=True)
    designs = [econ.largest_feasible_epsilon(cost, b, error, alpha, constants) for b in values]
    widest = max((d.epsilon for d in designs if d is not None), default=slide_epsilon)
    right = 1.25 * max(widest, slide_epsilon)
    # the accuracy edge does not depend on B: the notebook's curves at the default budget
    region = scans.feasible_region_curves(cost, budget0, error, alpha, constants, right)
    eps, n_accuracy = region.epsilon.to_numpy(), region.n_min_accuracy.to_numpy()
    n_floor = float(n_accuracy.min())
    top = hsu_plots.region_top(n_floor, slide_n)
    floor = econ.cost_floor(cost, error, alpha, constants)
    fig, (ax,) = scrubber.new_figure(6.4, 4.2)
    # the notebook's roles: the budget curve vermillion, the accuracy curve blue and dashed
    (budget_line,) = ax.plot(
        [], [], color=style.UPPER, ls="-", label="budget: N ≤ B / ((e^ε − 1)P)"
    )
    ax.plot(eps, n_accuracy, color=style.LOWER, ls="--", label=f"accuracy: A(ε, N) ≤ T = {alpha:g}")
    ax.plot(
        [slide_epsilon],
        [slide_n],
        "k*",
        ms=11,
        label=f"slides: ε = {slide_epsilon:g}, N = {slide_n:,}",
    )
    (best_dot,) = ax.plot(
        [], [], "o", color=style.FEASIBLE, mec="black", label="largest feasible ε"
    )
    ax.fill_between([], [], [], alpha=0.25, color=style.FEASIBLE, label="feasible")
    ax.set(
        xlabel="privacy parameter (ε)",
        ylabel="study size (N, participants)",
        xlim=(0, right),
        ylim=(0, top),
    )
    ax.legend(loc="upper right")
    shading: list[Any] = []

    def draw(i: int) -> None:
        budget = values[i]
        n_budget = budget / (np.expm1(eps) * cost)
        budget_line.set_data(eps, n_budget)
        for patch in shading:
            patch.remove()
        inside = n_accuracy <= n_budget
        shading[:] = [
            ax.fill_between(
                eps, n_accuracy, n_budget, where=inside, alpha=0.25, color=style.FEASIBLE
            )
        ]
        best = designs[i]
        if best is None:
            best_dot.set_data([], [])
            text = f"no study is feasible: B is below the cost floor {_escaped_dollars(floor)}"
        else:
            best_dot.set_data([best.epsilon], [best.n])
            text = f"largest feasible ε = {best.epsilon:.4f} at N = {best.n:,}"
        ax.set_title(f"budget B = {_escaped_dollars(budget)}: {text}")

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - budget0)))
    return scrubber.ScrubAnimation(
        fig, draw, values, start, {"largest feasible ε": best_dot, "budget": budget_line}
    )


SCRUBBERS: dict[str, scrubber.Scrubber] = {
    "hsu_2014": scrubber.Scrubber(
        figure="feasible_region.png",
        parameter="budget B ($)",
        label=(
            "Move the budget B and watch the feasible (ε, N) region between the budget and "
            "accuracy curves grow, and vanish below the cost floor."
        ),
        build=region_against_budget,
        opens_at="budget",
    ),
}
