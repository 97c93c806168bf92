"""The synthesis: the site's two scrubbers of its methods and deployments figure, every method's
ε as the number of people n moves, and one pure ε on the risk scale among the deployments
(``plots.scrubber``; the site renders them, ``site/scrubbers.py``).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from choosing_epsilon import risk
from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.synthesis import figures as synth_plots
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis import run as synthesis_run
from choosing_epsilon.papers.synthesis import synthesis as synth
from choosing_epsilon.plots import scrubber, style


@scrubber.styled(frames=25)
def methods_against_people(count: int) -> scrubber.ScrubAnimation:
    """Every method's ε for the survey mean as the number of people n moves, with the feasible
    interval of the one mechanism of panel (a).

    The slider moves n rather than ρ: n sets the sensitivity (ub − lb)/n of the released mean and
    the number of people Hsu et al. pay, so it moves every method's ε (Hsu et al.'s budget and
    accuracy, Shoaran et al., the poster's two theorems, Lee & Clifton's two) but the two readings
    of ε alone (posterior bound, hypothesis testing), and with them whether a feasible ε exists.
    ρ would move Lee & Clifton's two rows only, which bound another release and leave panel (a)'s
    interval as it is (unless ρ falls below the prior 1/n, where no ε meets it).
    """
    params = parameters.committed_values("synthesis")
    n0 = params["demo_n_people"]
    grid = scrubber.grid_through(n0, n0 / 100, n0 * 50, count, log=True)
    values = np.unique(np.maximum(np.round(grid), 3)).astype(int)  # whole people, at least 3
    tables = [synthesis_run.methods_at(demo_n_people=int(n)) for n in values]
    methods = list(tables[0].method)
    positive = np.concatenate([t.epsilon[synth.has_epsilon(t.epsilon)] for t in tables])
    low, high = positive.min() / 2, positive.max() * 2
    first = tables[0]
    fig, (ax,) = scrubber.new_figure(8.0, 5.0)
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
    return scrubber.ScrubAnimation(fig, draw, values, start, markers)


RISK_SCALE_EPSILONS = (0.01, 20.0)  # the slider's ε, log-spaced: from almost no leak to certainty


@functools.cache
def deployments_scale() -> pd.DataFrame:
    """The deployments' rows of the synthesis's risk scale (``synth.risk_scale`` at the committed
    parameters, the registry read as the notebook reads it); those that state no guarantee the
    scale can read have no advantage."""
    params = parameters.committed_values("synthesis")
    deployments = registry.read_any(params["registry_path"], DATA / "epsilon_registry.csv")
    scale = synth.risk_scale(synthesis_run.methods_at(), deployments)
    return scale[scale.kind == "deployment"].reset_index(drop=True)


def _rate(value: float) -> str:
    """A rate or advantage in [0, 1] to three decimals, or "above 0.999" where that would read 1
    (no finite ε makes a test certain)."""
    return f"{value:.3f}" if value < 0.9995 else "above 0.999"


@scrubber.styled(frames=25)  # ε from 0.01 to 20, log-spaced, through the posterior bound's log 3
def pure_epsilon_on_the_risk_scale(count: int) -> scrubber.ScrubAnimation:
    """A pure ε moved along panel (c)'s risk scale: (a) the attacker's trade-off curve at ε, the
    least false-negative rate of any membership test at each false-positive rate, and (b) its
    largest advantage and TPR at FPR 1% among the deployments' stated guarantees.

    It opens at the ε of the synthesis's posterior bound (the notebook's prior ½ and posterior
    threshold ¾ give ε = log 3), a method's answer that the notebook's own parameters fix, rather
    than at a round ε = 1 that no method gives.
    """
    params = parameters.committed_values("synthesis")
    epsilon0 = synth.posterior_epsilon(params["prior"], params["posterior_threshold"])
    values = scrubber.grid_through(epsilon0, *RISK_SCALE_EPSILONS, count, log=True)
    deployed = deployments_scale()
    placed = deployed[deployed.advantage.notna()]
    unstated = len(deployed) - len(placed)
    advantages = placed.advantage.to_numpy(float)
    local = placed.local.astype(bool).to_numpy()
    blue, orange = synth_plots.ADVANTAGE_COLOUR, synth_plots.TPR_COLOUR
    fig, (ax_t, ax_s) = scrubber.new_figure(10.0, 6.2, 2)
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
    return scrubber.ScrubAnimation(fig, draw, values, start, marks)


SCRUBBERS: dict[str, scrubber.Scrubber] = {
    "synthesis": scrubber.Scrubber(
        figure="methods_and_deployments.png",
        parameter="number of people n",
        label=(
            "Move the number of people n and watch every method's ε for the survey mean move "
            "with the sensitivity (ub − lb)/n, and the feasible interval open or close."
        ),
        build=methods_against_people,
        opens_at="demo_n_people",
    ),
    "synthesis_risk_scale": scrubber.Scrubber(
        figure="methods_and_deployments.png",
        parameter="privacy parameter ε (pure)",
        label=(
            "Move a pure ε from 0.01 to 20, starting at the posterior bound's ε = log 3, and "
            "watch the attacker's trade-off curve leave the diagonal and its largest advantage "
            "pass the deployments' stated guarantees on panel (c)'s scale."
        ),
        build=pure_epsilon_on_the_risk_scale,
    ),
}
