"""Lee & Clifton (2011): the site's ε scrubber of Fig. 2, the adversary's worst-case posterior
as ε moves (``plots.scrubber``; the site renders it, ``site/scrubbers.py``).
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.lines import Line2D

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.harness import parameters
from choosing_epsilon.papers.lee_clifton_2011 import figures as lee_plots
from choosing_epsilon.plots import scrubber, style


@scrubber.styled(frames=26)  # ε from 0 in steps of 0.2 at the default right end 5
def posterior_against_epsilon(count: int) -> scrubber.ScrubAnimation:
    """Fig. 2 as ε moves: β(ω1) at its worst response (Eq. 3) and the Eq. (5) bound traced up to
    ε, a panel per attribute, with ρ and the exact ε where β crosses it."""
    params = parameters.committed_values("lee_clifton_2011")
    rho, end = params["rho"], params["fig2_max_epsilon"]
    data = pw.load_database(params["data_path"], params["attributes"], params["absent"])
    order = pw.world_order(list(data.name), params["absent"])
    attributes = params["attributes"]
    # the paper's order: (a) the second attribute, (b) the first
    panels = [attributes[1], attributes[0]] if len(attributes) > 1 else [attributes[0]]
    answers = {a: sens.world_answers(data[a], "mean")[order] for a in panels}
    delta_f = {a: sens.unbounded_sensitivity(data[a], "mean") for a in panels}
    delta_v = {a: float(np.ptp(answers[a])) for a in panels}
    fine = np.linspace(0, end, 501)
    curves = {a: pw.risk_curves(answers[a], delta_f[a], delta_v[a], fine) for a in panels}
    exact = {a: pw.exact_epsilon(answers[a], delta_f[a], rho) for a in panels}
    values = scrubber.grid_through(params["example_epsilon"], 0.0, end, count, log=False)
    prior = 1 / len(data)
    fig, axes = scrubber.new_figure(5.0 * len(panels), 5.4, len(panels))
    moving: dict[str, tuple[Line2D, Line2D, Line2D, Line2D, Line2D]] = {}
    marks: dict[str, Line2D] = {}
    for letter, ax, a in zip("ab", axes, panels):
        beta, upper = curves[a]
        # the notebook's Fig. 2 roles: the exact worst case blue, the bound of Eq. (5) vermillion
        ax.plot(fine, beta, color=style.LOWER, alpha=0.2)
        ax.plot(fine, upper, "--", color=style.UPPER, alpha=0.2)
        (trace,) = ax.plot(
            [], [], "-", color=style.LOWER, label="worst-case posterior β(ω1), Eq. (3)"
        )
        (trace_bound,) = ax.plot([], [], "--", color=style.UPPER, label="upper bound, Eq. (5)")
        (dot,) = ax.plot([], [], "o", color=style.LOWER, ms=7)
        (dot_bound,) = ax.plot([], [], "o", color=style.UPPER, ms=5)
        cursor = ax.axvline(0, color="black", lw=0.8)
        ax.axhline(
            rho, color=style.REFERENCE, lw=0.8, ls=lee_plots.REFERENCE_DASH,
            label=f"threshold ρ = {rho:.4g}",
        )  # fmt: skip
        if exact[a] <= end:
            ax.axvline(
                exact[a],
                color=style.LOWER,
                ls="-.",
                lw=0.8,
                label=f"β crosses ρ at ε = {exact[a]:.4f}",
            )
        else:
            crossing = "never" if math.isinf(exact[a]) else f"at ε = {exact[a]:.4g}"
            ax.plot([], [], " ", label=f"β crosses ρ {crossing}")
        ax.set(
            xlabel="privacy parameter (ε)",
            ylabel="posterior probability of the true world",
            xlim=(0, end),
            ylim=(max(0.0, min(0.2, prior - 0.05)), 1.0),
        )
        # under the panel: the frames move the data through every corner of it
        style.legend_below(ax)
        moving[a] = (trace, trace_bound, dot, dot_bound, cursor)
        marks[f"posterior {a}"], marks[f"bound {a}"] = dot, dot_bound
        ax.set_title(f"({letter}) mean of {a}", loc="left")

    def draw(i: int) -> None:
        epsilon = values[i]
        seen = fine <= epsilon
        for letter, ax, a in zip("ab", axes, panels):
            (beta_now,), (upper_now,) = pw.risk_curves(
                answers[a], delta_f[a], delta_v[a], [epsilon]
            )
            trace, trace_bound, dot, dot_bound, cursor = moving[a]
            beta, upper = curves[a]
            trace.set_data(np.append(fine[seen], epsilon), np.append(beta[seen], beta_now))
            trace_bound.set_data(np.append(fine[seen], epsilon), np.append(upper[seen], upper_now))
            dot.set_data([epsilon], [beta_now])
            dot.set_color(style.UPPER if beta_now > rho else style.LOWER)
            dot_bound.set_data([epsilon], [upper_now])
            cursor.set_xdata([epsilon, epsilon])
            side = "above" if beta_now > rho else "within"
            ax.set_title(f"({letter}) mean of {a}: β(ω1) = {beta_now:.3f}, {side} ρ", loc="left")
        fig.suptitle(f"ε = {epsilon:.2f}: the adversary's worst-case posterior on who is absent")

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - params["example_epsilon"])))
    return scrubber.ScrubAnimation(fig, draw, values, start, marks)


SCRUBBERS: dict[str, scrubber.Scrubber] = {
    "lee_clifton_2011": scrubber.Scrubber(
        figure="fig2_risk_upper_bound.png",
        parameter="privacy parameter ε",
        label=(
            "Move ε and watch the adversary's worst-case posterior on the absent person's world "
            "rise from the prior 1/n and cross the threshold ρ, below its upper bound of Eq. (5)."
        ),
        build=posterior_against_epsilon,
        opens_at="example_epsilon",
    ),
}
