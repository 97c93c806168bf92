"""Mugunthan, Xiao & Kagal's poster: the site's scrubber of Fig. 1, the three theorems' ε and
their ratio as the confidence p moves (``plots.scrubber``; the site renders it,
``site/scrubbers.py``).
"""

from __future__ import annotations

import numpy as np

from choosing_epsilon import confidence as cf
from choosing_epsilon.harness import parameters
from choosing_epsilon.papers.mugunthan_poster import figures as poster_plots
from choosing_epsilon.papers.mugunthan_poster import forensics as poster
from choosing_epsilon.plots import scrubber, style


@scrubber.styled(frames=25)  # p from 0.5 to 0.98 in steps of 0.02
def theorems_against_confidence(count: int) -> scrubber.ScrubAnimation:
    """The poster's three ε (Theorems 1-3, Laplace noise) against the confidence p, and Fig. 1's
    ratio ε₂/ε₃, with the current p marked on both."""
    params = parameters.committed_values("mugunthan_poster")
    sensitivity, c, w, answer, p0 = (
        params["sensitivity"],
        params["c"],
        params["w"],
        params["query_answer"],
        params["p"],
    )
    values = scrubber.grid_through(p0, 0.5, 0.98, count, log=False)
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
    fig, (ax, ax_ratio) = scrubber.new_figure(10, 4.2, 2)
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
    return scrubber.ScrubAnimation(fig, draw, values, start, marks)


SCRUBBERS: dict[str, scrubber.Scrubber] = {
    "mugunthan_poster": scrubber.Scrubber(
        figure="fig1_ratio.png",
        parameter="required confidence p",
        label=(
            "Move the confidence p and compare the ε each of the poster's three theorems asks for; "
            "past the dotted line Theorem 3's ε falls below the exact one of Theorem 2."
        ),
        build=theorems_against_confidence,
        opens_at="p",
    ),
}
