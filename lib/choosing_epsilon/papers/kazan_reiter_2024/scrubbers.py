"""Kazan & Reiter (2024): the site's scrubber of Figs. 1 and 3, the ε each prior allows as the
absolute bound ã moves (``plots.scrubber``; the site renders it, ``site/scrubbers.py``).
"""

from __future__ import annotations

import numpy as np

from choosing_epsilon import risk_profiles as rp
from choosing_epsilon.harness import parameters
from choosing_epsilon.plots import scrubber, style


@scrubber.styled(frames=25)  # ã from 0.01 to 0.9, through the default 0.25
def epsilon_against_absolute_bound(count: int) -> scrubber.ScrubAnimation:
    """Profile (15) at q = 1 as ã moves: r*(p, 1) = max{ã/p, r̃} and the εᵢ(p, 1) of Theorem 2,
    with the minimum (the recommended ε, Theorem 5) marked and the constant profile's for
    comparison."""
    params = parameters.committed_values("kazan_reiter_2024")
    r_tilde, a0 = float(params["profile_r_tilde"]), float(params["profile_a_tilde"])
    values = scrubber.grid_through(a0, 0.01, 0.9, count, log=False)
    prior = np.geomspace(1e-3, 1, 400)
    fig, (ax_r, ax_e) = scrubber.new_figure(10, 5.0, 2)
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
    return scrubber.ScrubAnimation(fig, draw, values, start, {"recommended ε": dot})


SCRUBBERS: dict[str, scrubber.Scrubber] = {
    "kazan_reiter_2024": scrubber.Scrubber(
        figure="fig3_table1_profiles.png",
        parameter="absolute bound ã",
        label=(
            "Move the absolute bound ã and watch the profile's kink at p = ã/r̃ carry the "
            "smallest εᵢ, the recommended ε, above the constant profile's."
        ),
        build=epsilon_against_absolute_bound,
        opens_at="profile_a_tilde",
    ),
}
