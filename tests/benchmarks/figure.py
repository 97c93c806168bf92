"""Figure of the benchmarks: the time of Lee & Clifton's exact ε against the database size,
beside one sort and the brute force."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from choosing_epsilon.plots.figures import Caption


def scaling(table: pd.DataFrame, exponent: float) -> Figure:
    """Seconds against rows n on log axes: ``epsilon_for_risk`` (its fitted growth
    ``exponent``), one ``numpy.sort``, and the brute force where it was timed."""
    fig, ax = plt.subplots()
    ax.plot(table.n, table.seconds, marker="o", label=f"exact ε (growth exponent {exponent:.2f})")
    ax.plot(table.n, table.sort_seconds, marker="s", label="one numpy.sort of the column")
    if "brute_force_seconds" in table:
        brute = table.dropna(subset=["brute_force_seconds"])
        ax.plot(brute.n, brute.brute_force_seconds, marker="^", label="brute force, O(n²) per ε")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="database size (n, rows)",
        ylabel="wall time (seconds)",
        title="Lee & Clifton's exact ε: time against database size",
    )
    ax.legend()
    return fig


def scaling_caption(table: pd.DataFrame, exponent: float) -> Caption:
    """The caption and alt text of ``scaling``."""
    largest = int(table.n.max())
    growth = "not fitted" if math.isnan(exponent) else f"{exponent:.2f}"
    return Caption(
        caption=(
            f"The time of the exact ε of Lee & Clifton's adversary, on databases of up to "
            f"{largest:,} rows, grows as n to the power {growth} from 10⁵ rows on, drawn beside "
            "one sort of the same column and the brute force."
        ),
        alt=(
            "Log-log plot of wall time in seconds against the number of rows, with three "
            "series: the exact ε (circles, solid line), one numpy sort (squares, dashed line) "
            "and the brute force (triangles, dash-dot line), timed on the small databases only."
        ),
    )
