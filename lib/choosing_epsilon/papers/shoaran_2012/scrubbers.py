"""Shoaran, Thomo & Weber (2012): the site's ε scrubber of Fig. 1, the noise magnitude against
its probability as ε moves (``plots.scrubber``; the site renders it, ``site/scrubbers.py``).
"""

from __future__ import annotations

import numpy as np

from choosing_epsilon import laplace
from choosing_epsilon.harness import parameters
from choosing_epsilon.papers.shoaran_2012 import steps
from choosing_epsilon.plots import scrubber, style


@scrubber.styled(frames=25)
def noise_against_probability(count: int) -> scrubber.ScrubAnimation:
    """Fig. 1 as ε moves: Eq. (4)'s noise magnitude z against pr at ε, over the fixed curves of
    the notebook's Fig. 1, with the magnitudes exceeded half and 30% of the time marked."""
    params = parameters.committed_values("shoaran_2012")
    sensitivity, epsilon0, shown = params["sensitivity"], params["epsilon"], params["fig1_epsilons"]
    # from half the smallest ε of Fig. 1 to twice its largest, log-spaced
    values = scrubber.grid_through(
        epsilon0, min(*shown, epsilon0) / 2, max(*shown, epsilon0) * 2, count, log=True
    )
    pr_grid = np.linspace(0.01, 0.99, 197)  # the notebook's grid
    fig, (ax,) = scrubber.new_figure(6.4, 4.2)
    references = steps.noise_curves(pr_grid, sensitivity, shown)
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
            100 * pr_grid, steps.noise_curves(pr_grid, sensitivity, [epsilon]).iloc[:, 1]
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
    return scrubber.ScrubAnimation(fig, draw, values, start, {"noise at 50% and 30%": points})


SCRUBBERS: dict[str, scrubber.Scrubber] = {
    "shoaran_2012": scrubber.Scrubber(
        figure="fig1_noise_vs_probability.png",
        parameter="privacy degree ε",
        label=(
            "Move ε and watch the noise magnitude exceeded with each probability shrink as 1/ε, "
            "over the fixed curves of Fig. 1."
        ),
        build=noise_against_probability,
        opens_at="epsilon",
    ),
}
