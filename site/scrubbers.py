"""ε scrubbers: a notebook's figures as frames a reader moves through with a slider.

Each scrubber is a matplotlib ``FuncAnimation`` over one parameter (ε, p, the budget B or the
number of people n), computed by the package at the notebook's committed parameters and drawn on
axes fixed across frames. A notebook may have several, each following one of its figures; they
are known by name (``SCRUBBERS``: a notebook's first one is named after the notebook). ``html``
renders one as an HTML fragment (``HTMLWriter`` with the frames embedded as PNG, a range slider
and buttons; no kernel), deterministic: the writer's random uuid is replaced by an id derived
from the scrubber's name, and the PNG frames carry no metadata.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any, Protocol

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.animation import FuncAnimation, HTMLWriter
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from choosing_epsilon import confidence as cf
from choosing_epsilon import economics as econ
from choosing_epsilon import laplace, risk
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import risk_profiles as rp
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.hsu_2014 import figures as hsu_plots
from choosing_epsilon.papers.hsu_2014 import scans as hsu_scans
from choosing_epsilon.papers.lee_clifton_2011 import figures as lee_plots
from choosing_epsilon.papers.mugunthan_poster import figures as poster_plots
from choosing_epsilon.papers.mugunthan_poster import forensics as poster
from choosing_epsilon.papers.shoaran_2012 import steps as shoaran_steps
from choosing_epsilon.papers.synthesis import figures as synth_plots
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis import run as synthesis_run
from choosing_epsilon.papers.synthesis import synthesis as synth
from choosing_epsilon.plots import style

FRAME_DPI = 90  # small PNG frames: about 580 pixels wide
FPS = 4  # frames per second when played


@dataclass(frozen=True)
class Scrubber:
    """A scrubber: the notebook and figure it accompanies, what its slider moves, its caption and
    how to build its animation."""

    notebook: str  # e.g. "hsu_2014"
    figure: str  # file name in figures/<notebook>/ of the figure it follows on the page
    parameter: str  # what the slider moves, in words with the symbol
    label: str  # one sentence caption shown above the animation
    build: Builder


class ScrubAnimation(FuncAnimation):
    """A ``FuncAnimation`` whose frame i draws the figure at ``values[i]``; ``start`` is the frame
    of the notebook's default value and ``marks`` the artists that move with the value."""

    def __init__(
        self,
        fig: Figure,
        draw: Callable[[int], None],
        values: Sequence[float] | np.ndarray,
        start: int,
        marks: Mapping[str, Line2D],
    ) -> None:
        self.figure = fig
        self.values = [float(v) for v in values]
        self.start = start
        self.marks = dict(marks)
        self._draw_frame_at = draw
        super().__init__(
            fig, self._step, frames=len(self.values), interval=1000 / FPS, repeat=False
        )
        self.draw(start)  # as built, the figure shows the notebook's default

    def _step(self, i: int) -> list[Any]:
        """FuncAnimation's callback: draw frame ``i``."""
        self._draw_frame_at(i)
        return []

    def draw(self, i: int) -> None:
        """Put the figure in the state of frame ``i`` (what the frame shows)."""
        self._draw_frame_at(i)
        # a frame drawn counts as rendered: matplotlib's (private) flag, without which it warns
        # when an animation that was only inspected is deleted
        self._draw_was_started = True

    @property
    def title(self) -> str:
        """The figure's title as the current frame states it."""
        suptitle = self.figure.get_suptitle()
        return suptitle or self.figure.axes[0].get_title()


class Builder(Protocol):
    """Builds a scrubber's animation: at its own number of frames, or at the number given."""

    def __call__(self, count: int | None = None) -> ScrubAnimation: ...


def _style(extra: Mapping[str, Any] | None = None) -> contextlib.AbstractContextManager[None]:
    """The project's matplotlib style (and ``extra``) within a block, the global one untouched."""
    # rc_context's keys are typed as literals
    return matplotlib.rc_context(style.RC | dict(extra or {}))  # type: ignore[arg-type]


def _check_count(count: int) -> int:
    """``count`` if it is a number of frames in [2, 200], else ValueError naming the range."""
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 200:
        raise ValueError(f"frames must be an integer in [2, 200], got {count!r}")
    return count


def grid_through(value: float, low: float, high: float, count: int, log: bool) -> np.ndarray:
    """``count`` values from ``low`` to ``high``, evenly spaced (in log if ``log``), with the node
    nearest ``value`` moved onto it: the notebook's default is always a frame."""
    count = _check_count(count)
    if log:
        nodes = np.geomspace(low, high, count)
        nearest = int(np.argmin(np.abs(np.log(nodes) - math.log(value))))
    else:
        nodes = np.linspace(low, high, count)
        nearest = int(np.argmin(np.abs(nodes - value)))
    nodes[nearest] = value
    return nodes


def _new_figure(width: float, height: float, columns: int = 1) -> tuple[Figure, list[Axes]]:
    """A figure outside pyplot (nothing to close, no figure manager) with ``columns`` axes."""
    fig = Figure(figsize=(width, height))
    axes = fig.subplots(1, columns, squeeze=False)[0]
    return fig, list(axes)


def _styled(frames: int) -> Callable[[Callable[[int], ScrubAnimation]], Builder]:
    """A builder of ``frames`` frames unless told otherwise, run under the project's matplotlib
    style without changing the global one."""

    def wrap(builder: Callable[[int], ScrubAnimation]) -> Builder:
        @functools.wraps(builder)
        def build(count: int | None = None) -> ScrubAnimation:
            with _style():
                animation = builder(_check_count(frames if count is None else count))
                style.check(animation.figure)  # its first frame, as drawn
                return animation

        return build

    return wrap


# --- lee_clifton_2011: the adversary's worst-case posterior against ε (Fig. 2) -------------------


@_styled(frames=26)  # ε from 0 in steps of 0.2 at the default right end 5
def lee_clifton_2011(count: int) -> ScrubAnimation:
    """Fig. 2 as ε moves: β(ω1) at its worst response (Eq. 3) and the Eq. (5) bound traced up to
    ε, a panel per attribute, with ρ and the exact ε where β crosses it."""
    v = parameters.committed_values("lee_clifton_2011")
    rho, end = v["rho"], v["fig2_max_epsilon"]
    data = pw.load_database(v["data_path"], v["attributes"], v["absent"])
    order = pw.world_order(list(data.name), v["absent"])
    attributes = v["attributes"]
    # the paper's order: (a) the second attribute, (b) the first
    panels = [attributes[1], attributes[0]] if len(attributes) > 1 else [attributes[0]]
    answers = {a: sens.world_answers(data[a], "mean")[order] for a in panels}
    delta_f = {a: sens.unbounded_sensitivity(data[a], "mean") for a in panels}
    delta_v = {a: float(np.ptp(answers[a])) for a in panels}
    fine = np.linspace(0, end, 501)
    curves = {a: pw.risk_curves(answers[a], delta_f[a], delta_v[a], fine) for a in panels}
    exact = {a: pw.exact_epsilon(answers[a], delta_f[a], rho) for a in panels}
    values = grid_through(v["example_epsilon"], 0.0, end, count, log=False)
    prior = 1 / len(data)
    fig, axes = _new_figure(5.0 * len(panels), 5.4, len(panels))
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
    start = int(np.argmin(np.abs(values - v["example_epsilon"])))
    return ScrubAnimation(fig, draw, values, start, marks)


# --- shoaran_2012: the noise magnitude against its probability (Fig. 1) --------------------------


@_styled(frames=25)
def shoaran_2012(count: int) -> ScrubAnimation:
    """Fig. 1 as ε moves: Eq. (4)'s noise magnitude z against pr at ε, over the fixed curves of
    the notebook's Fig. 1, with the magnitudes exceeded half and 30% of the time marked."""
    v = parameters.committed_values("shoaran_2012")
    sensitivity, epsilon0, shown = v["sensitivity"], v["epsilon"], v["fig1_epsilons"]
    # from half the smallest ε of Fig. 1 to twice its largest, log-spaced
    values = grid_through(
        epsilon0, min(*shown, epsilon0) / 2, max(*shown, epsilon0) * 2, count, log=True
    )
    pr_grid = np.linspace(0.01, 0.99, 197)  # the notebook's grid
    fig, (ax,) = _new_figure(6.4, 4.2)
    references = shoaran_steps.noise_curves(pr_grid, sensitivity, shown)
    for e in shown:
        ax.plot(100 * pr_grid, references[f"z_eps_{e:g}"], color=style.REFERENCE, lw=0.8, alpha=0.5)
    ax.plot(
        [],
        [],
        color=style.REFERENCE,
        lw=0.8,
        alpha=0.5,
        label="Fig. 1's ε = " + ", ".join(f"{e:g}" for e in shown),
    )
    (curve,) = ax.plot([], [], "-", color=style.PALETTE[0], lw=2, label="z at the current ε")
    (points,) = ax.plot([], [], "ko", label="exceeded 50% and 30% of the time")
    top = laplace.noise_at_probability(pr_grid[0], sensitivity, float(values.min()))
    ax.set(
        xlabel="probability that the noise magnitude is at least z (pr, %)",
        ylabel="noise magnitude (z, units of the answer)",
        xlim=(0, 100),
        ylim=(0, 1.05 * top),
    )
    ax.legend(loc="upper right")

    def draw(i: int) -> None:
        epsilon = values[i]
        curve.set_data(
            100 * pr_grid, shoaran_steps.noise_curves(pr_grid, sensitivity, [epsilon]).iloc[:, 1]
        )
        z50 = laplace.noise_at_probability(0.5, sensitivity, epsilon)
        z30 = laplace.noise_at_probability(0.3, sensitivity, epsilon)
        points.set_data([50, 30], [z50, z30])
        ax.set_title(
            f"ε = {epsilon:.3g}: |noise| ≥ {z50:.0f} half the time, ≥ {z30:.0f} 30% of the time "
            f"(Δ(q) = {sensitivity:g})",
        )

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - epsilon0)))
    return ScrubAnimation(fig, draw, values, start, {"noise at 50% and 30%": points})


# --- mugunthan_poster: the three theorems' ε against p, and their ratio (Fig. 1) -----------------


@_styled(frames=25)  # p from 0.5 to 0.98 in steps of 0.02
def mugunthan_poster(count: int) -> ScrubAnimation:
    """The poster's three ε (Theorems 1-3, Laplace noise) against the confidence p, and Fig. 1's
    ratio ε₂/ε₃, with the current p marked on both."""
    v = parameters.committed_values("mugunthan_poster")
    sensitivity, c, w, answer, p0 = v["sensitivity"], v["c"], v["w"], v["query_answer"], v["p"]
    values = grid_through(p0, 0.5, 0.98, count, log=False)
    fine = np.linspace(0.5, 0.995, 300)

    def epsilons(p: float) -> tuple[float, float, float]:
        """ε₁, ε₂ and ε₃ at confidence p."""
        return (
            cf.theorem1_epsilon(sensitivity, w, answer, p),
            cf.theorem2_epsilon(sensitivity, c, p),
            cf.theorem3_epsilon(sensitivity, c, p),
        )

    curves = np.array([epsilons(p) for p in fine])
    threshold = poster.ratio_threshold()
    fig, (ax, ax_ratio) = _new_figure(10, 4.2, 2)
    names = (
        f"ε₁, Theorem 1 (within w q(D) = {w * answer:g})",
        f"ε₂, Theorem 2 (within c = {c:g})",
        f"ε₃, Theorem 3 (within c = {c:g})",
    )
    dots = []
    for k, name in enumerate(names):
        (line,) = ax.plot(fine, curves[:, k], label=name)
        (dot,) = ax.plot([], [], "o", color=line.get_color(), ms=7)
        dots.append(dot)
    ax.set(
        yscale="log",
        xlabel="required confidence (p)",
        ylabel="privacy parameter the theorem asks for (ε)",
        xlim=(0.5, 1),
    )
    ax.legend(loc="upper left")
    ratio = poster.ratio(fine)
    ax_ratio.plot(fine, ratio, label="ε₂ / ε₃ (Laplace)")
    ax_ratio.axhline(1, color=style.REFERENCE, lw=0.8)
    ax_ratio.axvline(
        threshold, color=style.REFERENCE, ls=":", lw=0.8, label=f"ratio = 1 at p = {threshold:.4f}"
    )
    (ratio_dot,) = ax_ratio.plot([], [], "o", color=style.UPPER, ms=7)
    ax_ratio.set(
        xlabel="required confidence (p)",
        ylabel=poster_plots.RATIO_LABEL,
        xlim=(0.5, 1),
    )
    ax_ratio.legend(loc="upper left")
    cursors = [axis.axvline(p0, color="black", lw=0.8) for axis in (ax, ax_ratio)]

    def draw(i: int) -> None:
        p = values[i]
        now = epsilons(p)
        for dot, e in zip(dots, now):
            dot.set_data([p], [e])
        (r,) = poster.ratio(np.array([p]))
        ratio_dot.set_data([p], [r])
        for cursor in cursors:
            cursor.set_xdata([p, p])
        ax.set_title(f"(a) ε₁ = {now[0]:.3g}, ε₂ = {now[1]:.3g}, ε₃ = {now[2]:.3g}", loc="left")
        verdict = (
            "ε₃ is below the exact ε₂: Theorem 3 under-delivers"
            if r > 1
            else "ε₃ ≥ ε₂: Theorem 3 delivers p"
        )
        ax_ratio.set_title(f"(b) ε₂/ε₃ = {r:.3f}: {verdict}", loc="left")
        fig.suptitle(
            f"p = {p:.3f}: the ε each theorem asks for (Laplace noise, Δ = {sensitivity:g})"
        )

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - p0)))
    marks = {"ε₁": dots[0], "ε₂": dots[1], "ε₃": dots[2], "ε₂/ε₃": ratio_dot}
    return ScrubAnimation(fig, draw, values, start, marks)


# --- hsu_2014: the feasible (ε, N) region as the budget moves ------------------------------------


def dollars(amount: float) -> str:
    """A whole-dollar amount as a figure's text writes it: ``\\$30,000``, escaped, since two dollar
    signs in one text would start matplotlib's mathtext."""
    return f"\\${amount:,.0f}"


@_styled(frames=27)
def hsu_2014(count: int) -> ScrubAnimation:
    """The feasible (ε, N) region between the budget curve N ≤ B/((e^ε − 1)P) and the accuracy
    curve A(ε, N) ≤ T as the budget B moves, with the largest feasible ε and the slides' point."""
    v = parameters.committed_values("hsu_2014")
    cost = econ.expected_cost(v["bad_event_cost"], v["bad_event_probability"])
    budget0, error, alpha = v["budget"], v["error"], v["failure_probability"]
    constants = v["slide_constants"]
    slide_epsilon, slide_n = v["slide_epsilon"], v["slide_n"]
    # from a sixth of the budget (below the cost floor at the slides' values) to three times it,
    # the budgets of the notebook's last figure
    values = grid_through(budget0, budget0 / 6, budget0 * 3, count, log=True)
    designs = [econ.largest_feasible_epsilon(cost, b, error, alpha, constants) for b in values]
    widest = max((d.epsilon for d in designs if d is not None), default=slide_epsilon)
    right = 1.25 * max(widest, slide_epsilon)
    # the accuracy edge does not depend on B: the notebook's curves at the default budget
    region = hsu_scans.feasible_region_curves(cost, budget0, error, alpha, constants, right)
    eps, n_accuracy = region.epsilon.to_numpy(), region.n_min_accuracy.to_numpy()
    n_floor = float(n_accuracy.min())
    top = hsu_plots.region_top(n_floor, slide_n)
    floor = econ.cost_floor(cost, error, alpha, constants)
    fig, (ax,) = _new_figure(6.4, 4.2)
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
            text = f"no study is feasible: B is below the cost floor {dollars(floor)}"
        else:
            best_dot.set_data([best.epsilon], [best.n])
            text = f"largest feasible ε = {best.epsilon:.4f} at N = {best.n:,}"
        ax.set_title(f"budget B = {dollars(budget)}: {text}")

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - budget0)))
    return ScrubAnimation(
        fig, draw, values, start, {"largest feasible ε": best_dot, "budget": budget_line}
    )


# --- synthesis: every method's ε for the survey as the number of people moves --------------------


@_styled(frames=25)
def synthesis(count: int) -> ScrubAnimation:
    """Every method's ε for the survey mean as the number of people n moves, with the feasible
    interval of the one mechanism of panel (a).

    The slider moves n rather than ρ: n sets the sensitivity (ub − lb)/n of the released mean and
    the number of people Hsu et al. pay, so it moves every method's ε (Hsu et al.'s budget and
    accuracy, Shoaran et al., the poster's two theorems, Lee & Clifton's two) but the two readings
    of ε alone (posterior bound, hypothesis testing), and with them whether a feasible ε exists.
    ρ would move Lee & Clifton's two rows only, which bound another release and leave panel (a)'s
    interval as it is (unless ρ falls below the prior 1/n, where no ε meets it).
    """
    v = parameters.committed_values("synthesis")
    n0 = v["demo_n_people"]
    grid = grid_through(n0, n0 / 100, n0 * 50, count, log=True)
    values = np.unique(np.maximum(np.round(grid), 3)).astype(int)  # whole people, at least 3
    tables = [synthesis_run.methods_at(demo_n_people=int(n)) for n in values]
    methods = list(tables[0].method)
    positive = np.concatenate([t.epsilon[synth.has_epsilon(t.epsilon)] for t in tables])
    low, high = positive.min() / 2, positive.max() * 2
    first = tables[0]
    fig, (ax,) = _new_figure(8.0, 5.0)
    markers: dict[str, Line2D] = {}
    notes = {}
    for row, method in enumerate(methods):
        upper = first["bounds ε from"].iloc[row].startswith("upper")
        colour = style.UPPER if upper else style.LOWER
        face = "none" if first.panel.iloc[row] == "(b)" else colour
        (markers[method],) = ax.plot(
            [], [], "<" if upper else ">", ms=9, color=colour, mfc=face, mew=1.8
        )
        notes[method] = style.note(ax, high, row, "", ha="right", va="center", color="black")
    ax.plot([], [], "<", color=style.UPPER, label="upper bound (privacy, budget)")
    ax.plot([], [], ">", color=style.LOWER, label="lower bound (utility)")
    ax.plot(
        [],
        [],
        "<",
        color=style.UPPER,
        mfc="none",
        mew=1.8,
        label="Lee & Clifton: reads every value",
    )
    ax.set_yticks(range(len(methods)), methods)
    ax.set(
        xscale="log",
        xlim=(low, high),
        ylim=(len(methods) - 0.5, -0.5),
        ylabel="method",
        xlabel="privacy parameter (ε, log scale)",
    )
    ax.legend(loc="upper left")
    shading: list[Any] = []

    def draw(i: int) -> None:
        table = tables[i]
        for row, method in enumerate(methods):
            epsilon = float(table.epsilon.iloc[row])
            drawable = bool(synth.has_epsilon(epsilon))
            markers[method].set_data([epsilon] if drawable else [], [row] if drawable else [])
            notes[method].set_text("" if drawable else synth.epsilon_text(epsilon))
        for patch in shading:
            patch.remove()
        window = synth.feasibility(table)
        shading.clear()
        if window.interval is not None:
            lo, hi = window.interval
            shading.append(
                ax.axvspan(max(lo, low), min(hi, high), color=style.FEASIBLE, alpha=0.25)
            )
            text = f"feasible ε of panel (a) in [{lo:.3g}, {hi:.3g}]"
        elif window.unmet:
            # the methods' authors, each once: "Lee & Clifton, exact" → "Lee & Clifton"
            authors = list(dict.fromkeys(method.split(",")[0] for method in window.unmet))
            text = f"no feasible ε: no ε meets the requirement of {' or '.join(authors)}"
        else:
            text = "no feasible ε: the utility bounds exceed the privacy and budget bounds"
        fig.suptitle(f"n = {values[i]:,} people: {text}")

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - n0)))
    return ScrubAnimation(fig, draw, values, start, markers)


# --- synthesis_risk_scale: one pure ε on the risk scale of panel (c), among the deployments ------

RISK_SCALE_EPSILONS = (0.01, 20.0)  # the slider's ε, log-spaced: from almost no leak to certainty


@functools.cache
def deployments_scale() -> pd.DataFrame:
    """The deployments' rows of the synthesis's risk scale (``synth.risk_scale`` at the committed
    parameters, the registry read as the notebook reads it); those that state no guarantee the
    scale can read have no advantage."""
    v = parameters.committed_values("synthesis")
    deployments = registry.read_any(v["registry_path"], DATA / "epsilon_registry.csv")
    scale = synth.risk_scale(synthesis_run.methods_at(), deployments)
    return scale[scale.kind == "deployment"].reset_index(drop=True)


def _rate(value: float) -> str:
    """A rate or advantage in [0, 1] to three decimals, or "above 0.999" where that would read 1
    (no finite ε makes a test certain)."""
    return f"{value:.3f}" if value < 0.9995 else "above 0.999"


@_styled(frames=25)  # ε from 0.01 to 20, log-spaced, through the posterior bound's log 3
def synthesis_risk_scale(count: int) -> ScrubAnimation:
    """A pure ε moved along panel (c)'s risk scale: (a) the attacker's trade-off curve at ε, the
    least false-negative rate of any membership test at each false-positive rate, and (b) its
    largest advantage and TPR at FPR 1% among the deployments' stated guarantees.

    It opens at the ε of the synthesis's posterior bound (the notebook's prior ½ and posterior
    threshold ¾ give ε = log 3), a method's answer that the notebook's own parameters fix, rather
    than at a round ε = 1 that no method gives.
    """
    v = parameters.committed_values("synthesis")
    epsilon0 = synth.posterior_epsilon(v["prior"], v["posterior_threshold"])
    values = grid_through(epsilon0, *RISK_SCALE_EPSILONS, count, log=True)
    deployed = deployments_scale()
    placed = deployed[deployed.advantage.notna()]
    unstated = len(deployed) - len(placed)
    advantages = placed.advantage.to_numpy(float)
    local = placed.local.astype(bool).to_numpy()
    blue, orange = synth_plots.ADVANTAGE_COLOUR, synth_plots.TPR_COLOUR
    fig, (ax_t, ax_s) = _new_figure(10.0, 6.2, 2)
    # (a) the trade-off curve, with the diagonal of a test that learns nothing
    ax_t.plot(
        [0, 1], [1, 0], color=style.REFERENCE, ls="--", lw=0.8,
        label="no privacy loss: FNR = 1 − FPR",
    )  # fmt: skip
    (curve,) = ax_t.plot([], [], color=blue, ls="-", label="least FNR of any test at this ε")
    (equal,) = ax_t.plot([], [], "o", color=blue, ms=7, label="FNR = FPR: advantage 1 − 2 FPR")
    (at_1pct,) = ax_t.plot(
        [], [], "D", color=orange, mfc="none", mew=1.5, ms=7, label="at FPR 1%: FNR = 1 − TPR"
    )
    ax_t.set(
        xlabel="false-positive rate of a membership test (FPR)",
        ylabel="false-negative rate (FNR = 1 − TPR)",
        xlim=(-0.02, 1.02),
        ylim=(-0.02, 1.02),
        aspect="equal",
    )
    style.legend_below(ax_t)
    style.panel_title(ax_t, 0, "what any membership test can reach at ε")
    # (b) the deployments, fixed and faint, and every pure ε as a dotted path
    ax_s.plot(
        advantages[~local], placed.tpr_at_fpr_1pct[~local], "o", color=blue, alpha=0.35, ms=6,
        label=f"a deployment's stated guarantee ({int((~local).sum())})",
    )  # fmt: skip
    ax_s.plot(
        advantages[local], placed.tpr_at_fpr_1pct[local], "o", color=blue, mfc="none",
        alpha=0.5, ms=6, label=f"local: its ε per report ({int(local.sum())})",
    )  # fmt: skip
    path = [risk.pure(e) for e in np.geomspace(*RISK_SCALE_EPSILONS, 200)]
    ax_s.plot(
        [risk.advantage(g) for g in path], [risk.tpr_bound(g, 0.01) for g in path],
        color=style.REFERENCE, ls=":", lw=1, label="pure ε from 0.01 to 20",
    )  # fmt: skip
    cursor = ax_s.axvline(0, color="black", lw=0.8)
    (now,) = ax_s.plot([], [], "*", color=style.UPPER, mec="black", ms=14, label="this ε")
    ax_s.set(
        xlabel="attacker's largest advantage (TPR − FPR)",
        ylabel="true-positive rate at 1% false positives (TPR)",
        xlim=(-0.02, 1.02),
        ylim=(-0.02, 1.02),
        aspect="equal",
    )
    style.legend_below(ax_s)
    style.panel_title(ax_s, 1, "ε among the deployments' stated guarantees")

    def draw(i: int) -> None:
        epsilon = values[i]
        g = risk.pure(epsilon)
        advantage, tpr = risk.advantage(g), risk.tpr_bound(g, 0.01)
        crossing = (1 - advantage) / 2  # the FPR where FNR = FPR
        fprs = np.union1d(np.linspace(0, 1, 201), [crossing, 0.01])
        curve.set_data(fprs, risk.tradeoff(g, fprs))
        equal.set_data([crossing], [crossing])
        at_1pct.set_data([0.01], [1 - tpr])
        cursor.set_xdata([advantage, advantage])
        now.set_data([advantage], [tpr])
        larger = int((advantages > advantage).sum())
        allow = "allows" if larger == 1 else "allow"
        which = " (posterior bound)" if epsilon == epsilon0 else ""
        fig.suptitle(
            f"ε = {epsilon:.4g}{which}: advantage {_rate(advantage)}, TPR at 1% FPR {_rate(tpr)}, "
            f"a guess at prior ½ right {risk.in_100(risk.accuracy_from_advantage(advantage))}\n"
            f"{larger} of the {len(advantages)} deployments that state a guarantee {allow} a "
            f"larger advantage ({unstated} state none)"
        )

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - epsilon0)))
    marks = {"advantage": now, "FNR = FPR": equal, "FPR 1%": at_1pct}
    return ScrubAnimation(fig, draw, values, start, marks)


# --- kazan_reiter_2024: the ε each prior allows as the absolute bound ã moves (Figs. 1 and 3) -----


@_styled(frames=25)  # ã from 0.01 to 0.9, through the default 0.25
def kazan_reiter_2024(count: int) -> ScrubAnimation:
    """Profile (15) at q = 1 as ã moves: r*(p, 1) = max{ã/p, r̃} and the εᵢ(p, 1) of Theorem 2,
    with the minimum (the recommended ε, Theorem 5) marked and the constant profile's for
    comparison."""
    v = parameters.committed_values("kazan_reiter_2024")
    r_tilde, a0 = float(v["profile_r_tilde"]), float(v["profile_a_tilde"])
    values = grid_through(a0, 0.01, 0.9, count, log=False)
    prior = np.geomspace(1e-3, 1, 400)
    fig, (ax_r, ax_e) = _new_figure(10, 5.0, 2)
    (r_line,) = ax_r.plot([], [], label="profile max{ã/p, r̃}")
    ax_r.axhline(r_tilde, color=style.REFERENCE, lw=0.8, ls="--", label=f"constant r̃ = {r_tilde:g}")
    ax_r.set(
        xscale="log",
        yscale="log",
        xlabel="prior of inclusion (p)",
        ylabel="largest accepted ratio (r*)",
        xlim=(1e-3, 1),
        ylim=(1, 1000),
    )
    style.legend_below(ax_r)
    (e_line,) = ax_e.plot([], [], label="εᵢ(p, 1), Theorem 2")
    (dot,) = ax_e.plot([], [], "o", color=style.UPPER, ms=7, label="smallest: the recommended ε")
    baseline = rp.epsilon_grid(prior, 1.0, np.full_like(prior, r_tilde))
    ax_e.plot(prior, baseline, color=style.REFERENCE, lw=0.8, ls="--", label="constant profile")
    ax_e.set(
        xscale="log",
        xlabel="prior of inclusion (p)",
        ylabel="privacy parameter allowed (εᵢ)",
        xlim=(1e-3, 1),
        ylim=(0, 5),
    )
    style.legend_below(ax_e)

    def draw(i: int) -> None:
        a = float(values[i])
        r_star = np.asarray(rp.fixed_q_profile(a, 1, r_tilde)(prior, 1.0), dtype=float)
        eps = rp.epsilon_grid(prior, 1.0, r_star)
        r_line.set_data(prior, r_star)
        e_line.set_data(prior[np.isfinite(eps)], eps[np.isfinite(eps)])
        best = rp.fixed_q_epsilon(a, 1, r_tilde)
        dot.set_data([a / r_tilde], [best])
        ax_r.set_title(
            f"(a) ã = {a:.3f}: absolute bound below p = ã/r̃ = {a / r_tilde:.3g}", loc="left"
        )
        ax_e.set_title(f"(b) recommended ε = log((r̃ − ã)/(1 − ã)) = {best:.3f}", loc="left")
        fig.suptitle(f"ã = {a:.3f}, r̃ = {r_tilde:g}, q = 1: the ε each prior allows")

    draw(0)
    fig.tight_layout()
    start = int(np.argmin(np.abs(values - a0)))
    return ScrubAnimation(fig, draw, values, start, {"recommended ε": dot})


# --- the registry, rendering and writing ---------------------------------------------------------

SCRUBBERS: dict[str, Scrubber] = {
    "lee_clifton_2011": Scrubber(
        notebook="lee_clifton_2011",
        figure="fig2_risk_upper_bound.png",
        parameter="privacy parameter ε",
        label=(
            "Move ε and watch the adversary's worst-case posterior on the absent person's world "
            "rise from the prior 1/n and cross the threshold ρ, below its upper bound of Eq. (5)."
        ),
        build=lee_clifton_2011,
    ),
    "shoaran_2012": Scrubber(
        notebook="shoaran_2012",
        figure="fig1_noise_vs_probability.png",
        parameter="privacy degree ε",
        label=(
            "Move ε and watch the noise magnitude exceeded with each probability shrink as 1/ε, "
            "over the fixed curves of Fig. 1."
        ),
        build=shoaran_2012,
    ),
    "mugunthan_poster": Scrubber(
        notebook="mugunthan_poster",
        figure="fig1_ratio.png",
        parameter="required confidence p",
        label=(
            "Move the confidence p and compare the ε each of the poster's three theorems asks for; "
            "past the dotted line Theorem 3's ε falls below the exact one of Theorem 2."
        ),
        build=mugunthan_poster,
    ),
    "hsu_2014": Scrubber(
        notebook="hsu_2014",
        figure="feasible_region.png",
        parameter="budget B ($)",
        label=(
            "Move the budget B and watch the feasible (ε, N) region between the budget and "
            "accuracy curves grow, and vanish below the cost floor."
        ),
        build=hsu_2014,
    ),
    "synthesis": Scrubber(
        notebook="synthesis",
        figure="methods_and_deployments.png",
        parameter="number of people n",
        label=(
            "Move the number of people n and watch every method's ε for the survey mean move "
            "with the sensitivity (ub − lb)/n, and the feasible interval open or close."
        ),
        build=synthesis,
    ),
    "kazan_reiter_2024": Scrubber(
        notebook="kazan_reiter_2024",
        figure="fig3_table1_profiles.png",
        parameter="absolute bound ã",
        label=(
            "Move the absolute bound ã and watch the profile's kink at p = ã/r̃ carry the "
            "smallest εᵢ, the recommended ε, above the constant profile's."
        ),
        build=kazan_reiter_2024,
    ),
    "synthesis_risk_scale": Scrubber(
        notebook="synthesis",
        figure="methods_and_deployments.png",
        parameter="privacy parameter ε (pure)",
        label=(
            "Move a pure ε from 0.01 to 20, starting at the posterior bound's ε = log 3, and "
            "watch the attacker's trade-off curve leave the diagonal and its largest advantage "
            "pass the deployments' stated guarantees on panel (c)'s scale."
        ),
        build=synthesis_risk_scale,
    ),
}
"""Every scrubber by name, in the order a page shows those that follow the same figure: a
notebook's first is named after it, the others after it and what they move."""


def _scrubber(name: str) -> Scrubber:
    """The scrubber named ``name``; ValueError naming the known ones otherwise."""
    if name not in SCRUBBERS:
        raise ValueError(f"name must be one of {sorted(SCRUBBERS)}, got {name!r}")
    return SCRUBBERS[name]


def of_notebook(notebook: str) -> list[str]:
    """The names of notebook ``notebook``'s scrubbers, in the registry's order (empty if none)."""
    return [name for name, scrubber in SCRUBBERS.items() if scrubber.notebook == notebook]


def _render(animation: ScrubAnimation) -> str:
    """The animation as matplotlib's jshtml fragment (``to_jshtml``'s writer, with PNG frames
    saved without metadata)."""
    writer = HTMLWriter(fps=FPS, embed_frames=True, default_mode="once")
    with (
        tempfile.TemporaryDirectory() as tmp,
        _style({"animation.frame_format": "png"}),
    ):
        path = Path(tmp, "scrubber.html")
        animation.save(
            str(path),
            writer=writer,
            dpi=FRAME_DPI,
            savefig_kwargs={"metadata": {"Software": None}},
        )
        return path.read_text(encoding="utf-8")


def element_id(name: str) -> str:
    """The fixed id that replaces HTMLWriter's random uuid in ``name``'s fragment."""
    return f"scrub_{name}"


def _fixed(text: str, name: str, start: int) -> str:
    """The fragment with HTMLWriter's random uuid replaced by ``element_id(name)`` (a regex on the
    output: every id and the JavaScript variable share the uuid), opening at frame ``start``."""
    found = re.search(r'id="_anim_img([0-9a-f]{32})"', text)
    if found is None:
        raise RuntimeError("HTMLWriter's fragment has no _anim_img<uuid> element to rename")
    ident = element_id(name)
    text = text.replace(found.group(1), ident)
    # the frame's alt text: what the reader would see move
    tag = f'<img id="_anim_img{ident}"'
    if tag not in text:
        raise RuntimeError("HTMLWriter's fragment has no <img> frame to describe")
    alt = escape(f"Animated figure, one frame per value of the {SCRUBBERS[name].parameter}: "
                 + SCRUBBERS[name].label, quote=True)  # fmt: skip
    text = text.replace(tag, f'<img alt="{alt}" id="_anim_img{ident}"')
    text = text.replace(
        f'id="_anim_slider{ident}" type="range" class="anim-slider"\n'
        '           name="points" min="0" max="1" step="1" value="0"',
        f'id="_anim_slider{ident}" type="range" class="anim-slider"\n'
        f'           name="points" min="0" max="1" step="1" value="{start}"',
    )
    created = re.search(rf"anim{ident} = new Animation\([^;]*\);", text)
    if created is None:
        raise RuntimeError("HTMLWriter's fragment creates no Animation object to start")
    opening = f"{created.group(0)}\n        anim{ident}.set_frame({start});"
    return text[: created.start()] + opening + text[created.end() :]


def html(name: str, frames: int | None = None) -> str:
    """The jshtml fragment of the scrubber named ``name``, byte-identical from build to build."""
    animation = _scrubber(name).build(frames)
    return _fixed(_render(animation), name, animation.start)


def write_all(out_dir: Path) -> dict[str, Path]:
    """Write ``<name>.html`` for every scrubber into ``out_dir``; return the paths by name."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in SCRUBBERS:
        path = out / f"{name}.html"
        path.write_text(html(name), encoding="utf-8")
        paths[name] = path
    return paths
