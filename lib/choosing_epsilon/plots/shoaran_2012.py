"""Figures of Shoaran, Thomo & Weber (2012): the noise against its probability (Fig. 1) and the
minimum true answer against ε and against the relative-error threshold (Fig. 2)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure


def fig1_noise_vs_probability(
    curves: pd.DataFrame,
    epsilons: Sequence[float],
    epsilon: float,
    z50: float,
    z30: float,
    sensitivity: float,
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 1: Eq. (4)'s noise magnitude z against pr, one curve per ε, with the text's two values
    at ``epsilon`` (exceeded half and 30% of the time) marked."""
    fig, ax = plt.subplots()
    for e in epsilons:
        ax.plot(100 * curves["pr"], curves[f"z_eps_{e:g}"], label=f"ε = {e:g}")
    ax.plot(
        [50, 30], [z50, z30], "ko", label=f"ε = {epsilon:g}: {z50:.0f} at 50%, {z30:.0f} at 30%"
    )
    ax.set(
        xlabel="probability that the noise magnitude is at least z (pr, %)",
        ylabel="noise magnitude (z, units of the answer)",
        title=f"Fig. 1: noise vs probability (Δ(q) = {sensitivity:g})",
        xlim=(0, 100),
        ylim=(0, None),
    )
    ax.legend()
    return fig, curves


def fig2_mta(
    against_epsilon: pd.DataFrame,
    against_re: pd.DataFrame,
    prs: Sequence[float],
    re: float,
    reading_epsilon: float,
    example: tuple[float, float],
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 2: Eq. (6)'s MTA against ε at ``re`` (a), with Example 1 at ``example`` = (ε, MTA)
    marked, and against re at ``reading_epsilon`` (b); both axes logarithmic. The frame stacks
    the two readings."""
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.0))
    for p in prs:
        ax_a.plot(
            against_epsilon["epsilon"], against_epsilon[f"mta_pr_{p:g}"], label=f"pr = {100 * p:g}%"
        )
        ax_b.plot(against_re["re"], against_re[f"mta_pr_{p:g}"], label=f"pr = {100 * p:g}%")
    ax_a.plot([example[0]], [example[1]], "ko", label=f"Example 1: {example[1]:.0f}")
    ax_a.set(
        xscale="log",
        yscale="log",
        xlabel="privacy degree (ε)",
        ylabel="minimum true answer (MTA, units of the answer)",
        title=f"(a) Fig. 2: MTA vs ε (re = {100 * re:g}%)",
    )
    ax_b.set(
        xscale="log",
        yscale="log",
        xlabel="relative-error threshold (re, as a fraction)",
        ylabel="MTA (units of the answer)",
        title=f"(b) second reading: MTA vs re (ε = {reading_epsilon:g})",
    )
    ax_a.legend()
    ax_b.legend()
    frame = pd.concat(
        [against_epsilon.assign(reading="vs_epsilon"), against_re.assign(reading="vs_re")],
        ignore_index=True,
    )
    return fig, frame
