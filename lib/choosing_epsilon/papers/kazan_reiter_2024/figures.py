"""Figures of the Kazan & Reiter (2024) notebook: the risk profiles of Figs. 1, 3 and 4 with the ε
each point allows, the Durham County trade-off of Fig. 2 and the two-dimensional profile of
Fig. 5, each with the function that writes its caption and alt text from the data it draws."""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure

from choosing_epsilon.plots import figures, style

_COLOUR_NAMES = {colour: name for name, colour in style.OKABE_ITO.items()}
RISK_LABEL = "largest accepted ratio\nposterior / prior (r*)"
EPSILON_LABEL = "privacy parameter\nallowed there (εᵢ)"


def _series(index: int) -> dict[str, object]:
    return {"color": style.PALETTE[index], "ls": style.LINESTYLES[index]}


def _looks(index: int) -> str:
    return f"{_COLOUR_NAMES[style.PALETTE[index]]} {style.DASH_NAMES[index]}"


def _finite_max(values: np.ndarray) -> float:
    finite = values[np.isfinite(values)]
    return float(finite.max()) if finite.size else float("nan")


def epsilon_cut(minima: Sequence[float], floor: float) -> float:
    """Where an εᵢ axis is cut: ``floor`` (the paper's cut), or higher when a minimum would lie
    above it, so that every marked minimum is inside the axes with room above it."""
    finite = [float(m) for m in minima if np.isfinite(m)]
    highest = max(finite, default=0.0)
    return float(max(floor, math.ceil(highest * 1.25)))


def _legend_beside(ax: Axes, **kwargs: object) -> None:
    """The panel's legend to the right of its axes, where it covers no drawn data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **kwargs)


def profile_pair_figure(
    frames: Sequence[pd.DataFrame], names: Sequence[str], axis_names: Sequence[str]
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 1: for each agency a column, its profile r* above and the εᵢ each prior allows below.

    Each frame has columns ``prior`` (the prior that varies), ``r_star`` and ``epsilon``
    (``inf`` where the profile binds nothing, left out of the drawing) and ``minimum`` (True at
    the prior where εᵢ is smallest). εᵢ is cut at 3 as in the paper, or higher where a minimum
    lies above 3; values above the cut are drawn on it, as the panel's title says.
    """
    fig, axes = plt.subplots(
        2, len(frames), figsize=(6.4, 6.0), squeeze=False, sharex="col", layout="constrained"
    )
    rows = []
    minima = [float(f.epsilon[f.minimum].min()) for f in frames if f.minimum.any()]
    top_cut = epsilon_cut(minima, 3.0)
    for column, (frame, name, axis) in enumerate(zip(frames, names, axis_names, strict=True)):
        top, bottom = axes[0, column], axes[1, column]
        line = frame[~frame.minimum]
        top.plot(line.prior, line.r_star, **_series(0))
        top.set(yscale="log", ylabel=RISK_LABEL)
        style.panel_title(top, column, name)
        shown = line[np.isfinite(line.epsilon)]
        bottom.plot(shown.prior, np.minimum(shown.epsilon, top_cut), label="εᵢ", **_series(0))
        if len(shown):
            bottom.set_xlim(0, float(shown.prior.max()) * 1.02)
        else:
            figures.centred_text(bottom, "no prior is bounded: ε is unlimited")
        low = frame[frame.minimum]
        bottom.plot(
            low.prior, low.epsilon, "o", color=style.UPPER, label="smallest: the recommended ε"
        )
        bottom.set(xlabel=axis, ylabel=EPSILON_LABEL, ylim=(0, top_cut * 1.02))
        above = bool((shown.epsilon > top_cut).any())
        style.panel_title(
            bottom,
            len(frames) + column,
            f"εᵢ above {top_cut:g} drawn at {top_cut:g}" if above else "",
        )
        rows.append(frame.assign(agency=name))
    handles, labels = axes[1, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=2)
    fig.suptitle("Fig. 1: two agencies' risk profiles and the ε they imply")
    return fig, pd.concat(rows, ignore_index=True)


def profile_pair_caption(data: pd.DataFrame) -> figures.Caption:
    """Caption and alt text of ``profile_pair_figure``."""
    parts, alts = [], []
    for name, frame in data.groupby("agency", sort=False):
        low = frame[frame.minimum].iloc[0]
        parts.append(f"{name} ε = {low.epsilon:.2f} at prior {low.prior:.4g}")
        alts.append(
            f"{name}: a blue solid line of r* falling from {frame.r_star.max():.3g} to "
            f"{frame.r_star.min():.3g} on a log scale, and below it εᵢ with its smallest value "
            f"{low.epsilon:.3f} marked by a vermillion dot at prior {low.prior:.4g}"
        )
    return figures.Caption(
        caption="Fig. 1 redrawn from Theorem 2: each profile's ε is the smallest εᵢ along its "
        "curve (" + "; ".join(parts) + "), each minimum marked and the priors where εᵢ is "
        "infinite left out, where the original cuts r* at 30 and εᵢ at 3 and its code draws "
        "Agency 1 at q̃ = 0.999.",
        alt="Four panels, two columns. " + ". ".join(alts) + ".",
    )


def agencies_figure(
    frame: pd.DataFrame, axis: str, title: str, epsilon_top: float = 4.0
) -> tuple[Figure, pd.DataFrame]:
    """Figs. 3 and 4: several agencies' profiles r* against one prior (top) and εᵢ (bottom).

    ``frame`` has columns ``agency``, ``prior``, ``r_star``, ``epsilon`` and ``minimum``; εᵢ
    above ``epsilon_top`` (raised where a minimum lies above it) is drawn at it, as the paper
    cuts at 4. The legend stands beside the panels, over no curve.
    """
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.2, 5.6), sharex=True, layout="constrained")
    epsilon_top = epsilon_cut(frame.epsilon[frame.minimum].tolist(), epsilon_top)
    for index, (name, rows) in enumerate(frame.groupby("agency", sort=False)):
        line = rows[~rows.minimum]
        top.plot(line.prior, line.r_star, label=name, **_series(index))
        shown = line[np.isfinite(line.epsilon)]
        bottom.plot(
            shown.prior, np.minimum(shown.epsilon, epsilon_top), label=name, **_series(index)
        )
        low = rows[rows.minimum]
        bottom.plot(low.prior, low.epsilon, "o", color=style.PALETTE[index], label="_minimum")
    drawn = frame.r_star[~frame.minimum & np.isfinite(frame.r_star)]
    r_low = min(1.0, float(drawn.min())) if len(drawn) else 1.0
    r_high = max(30.0, float(drawn.max()) * 1.3) if len(drawn) else 30.0
    top.set(xscale="log", yscale="log", ylabel=RISK_LABEL, ylim=(r_low, r_high))
    bottom.set(xscale="log", xlabel=axis, ylabel=EPSILON_LABEL, ylim=(0, epsilon_top * 1.02))
    style.panel_title(top, 0, "profiles")
    style.panel_title(bottom, 1, f"the ε each prior allows (cut at {epsilon_top:g}); dots: minima")
    _legend_beside(top)
    fig.suptitle(title)
    return fig, frame


def agencies_caption(frame: pd.DataFrame, figure: str, axis: str) -> figures.Caption:
    """Caption and alt text of ``agencies_figure``."""
    minima = frame[frame.minimum]
    listed = "; ".join(f"{r.agency} {r.epsilon:.2f}" for r in minima.itertuples())
    looks = ", ".join(
        f"{name} {_looks(i)}" for i, name in enumerate(frame.agency.drop_duplicates())
    )
    return figures.Caption(
        caption=f"{figure} redrawn as lines: the smallest εᵢ of each curve is its recommended "
        f"ε ({listed}); the original draws each curve in a facet of its own, the baselines "
        "apart, coloured by εᵢ against a colour bar, where ours overlays the curves and draws εᵢ "
        "in a second panel.",
        alt=f"Two panels against {axis} on a log axis: above, the profiles r* on a log axis; "
        f"below, εᵢ for each; lines {looks}; a dot marks each curve's minimum.",
    )


def durham_figure(frame: pd.DataFrame, deviations: Sequence[float]) -> tuple[Figure, pd.DataFrame]:
    """Fig. 2: for each profile (bars), the probability the release switches the side of the
    target (one bar per deviation), the RMSE of the count and the ε."""
    fig, (top, middle, bottom) = plt.subplots(
        3, 1, figsize=(6.4, 6.4), sharex=True, layout="constrained"
    )
    x = np.arange(len(frame))
    width = 0.8 / len(deviations)
    for index, deviation in enumerate(deviations):
        top.bar(
            x + (index - (len(deviations) - 1) / 2) * width,
            frame[f"switch_{deviation:g}"],
            width,
            color=style.PALETTE[index],
            label=f"{deviation:g} per 1,000",
            hatch=["", "//", "..", "xx", "\\\\", "++"][index % 6],
            edgecolor="white",
        )
    top.set(ylabel="probability the\ndecision changes")
    _legend_beside(top, title="true rate above\ntarget by")
    middle.bar(x, frame.rmse, 0.6, color=style.PALETTE[0])
    middle.set(ylabel="RMSE of the\nnoisy count")
    bottom.bar(x, frame.epsilon, 0.6, color=style.PALETTE[0])
    bottom.set(ylabel="recommended\nprivacy parameter (ε)")
    bottom.set_xticks(x, frame.label, fontsize=style.FONT["legend"])
    bottom.set(xlabel="risk profile: relative bound (r̃, upper line) and absolute bound (ã, lower)")
    for index, ax in enumerate((top, middle, bottom)):
        style.panel_title(ax, index)
    fig.suptitle("Fig. 2: Durham County, the privacy and accuracy of each profile (17)")
    return fig, frame


def durham_caption(frame: pd.DataFrame, deviation: float, limit: float) -> figures.Caption:
    """Caption and alt text of ``durham_figure``."""
    column = f"switch_{deviation:g}"
    best = frame.iloc[int(np.argmin(frame[column].to_numpy()))]
    return figures.Caption(
        caption=f"Fig. 2 redrawn: at a true rate {deviation:g} per 1,000 above the target, the "
        f"smallest switching probability is {best[column]:.4f}, for r̃ = {best.r_tilde:g}, "
        f"ã = {best.a_tilde:g} (ε = {best.epsilon:.4f}, RMSE {best.rmse:.4f}), against the "
        f"agency's limit {limit:g}, in the original's three panels and order of bars, with "
        "hatching added to tell the deviations apart in greyscale.",
        alt=f"Three bar panels over {len(frame)} profiles labelled by r̃ and ã: switching "
        f"probabilities from {frame[column].max():.3f} down to {best[column]:.3f} at deviation "
        f"{deviation:g}, RMSEs from {frame.rmse.max():.2f} to {frame.rmse.min():.2f}, and ε from "
        f"{frame.epsilon.min():.2f} to {frame.epsilon.max():.2f}.",
    )


def two_dimensional_cuts(r_star: np.ndarray, epsilon: np.ndarray) -> tuple[float, float]:
    """Where Fig. 5 cuts r* and εᵢ: at 100 and 4 as the paper does, or higher where the profile's
    smallest r* or εᵢ would otherwise leave the colour map a single colour."""
    finite_r = r_star[np.isfinite(r_star)]
    r_cut = max(100.0, 10.0 * float(finite_r.min())) if finite_r.size else 100.0
    finite_e = epsilon[np.isfinite(epsilon)]
    e_cut = epsilon_cut([float(finite_e.min())] if finite_e.size else [], 4.0)
    return r_cut, e_cut


def two_dimensional_figure(
    p: np.ndarray,
    q: np.ndarray,
    r_star: np.ndarray,
    epsilon: np.ndarray,
    minimum: tuple[float, float],
) -> tuple[Figure, pd.DataFrame]:
    """Fig. 5: r*(p, q) and εᵢ(p, q) over log axes, each cut as ``two_dimensional_cuts`` says,
    with the minimiser."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.4, 7.2), sharex=True, layout="constrained")
    r_cut, e_cut = two_dimensional_cuts(r_star, epsilon)
    shown_r = np.minimum(r_star, r_cut)
    shown_e = np.minimum(epsilon, e_cut)
    mesh = top.pcolormesh(
        p,
        q,
        shown_r.T,
        norm=LogNorm(float(shown_r.min()), r_cut),
        cmap="cividis",
        label="_r_star",
        rasterized=True,
    )
    fig.colorbar(mesh, ax=top, label="largest accepted ratio (r*)")
    mesh = bottom.pcolormesh(
        p, q, shown_e.T, vmin=0, vmax=e_cut, cmap="cividis", label="_epsilon", rasterized=True
    )
    fig.colorbar(mesh, ax=bottom, label="privacy parameter allowed (εᵢ)")
    for ax in (top, bottom):
        # unclipped: a minimiser on the grid's edge (p = 1 at the paper's values) shows whole
        ax.plot(*minimum, "o", color=style.UPPER, mec="white", label="minimum of εᵢ", clip_on=False)
        ax.set(xscale="log", yscale="log", ylabel="prior of the value (q)")
    bottom.legend(loc="upper left", bbox_to_anchor=(0.0, -0.18), borderaxespad=0.0)
    bottom.set(xlabel="prior of inclusion (p)")
    style.panel_title(top, 0, f"the profile max{{ã/(pq), r̃}}, cut at {r_cut:g}")
    style.panel_title(bottom, 1, f"the ε each (p, q) allows, cut at {e_cut:g}")
    fig.suptitle("Fig. 5: a two-dimensional profile")
    pp, qq = np.meshgrid(p, q, indexing="ij")
    data = pd.DataFrame(
        {"p": pp.ravel(), "q": qq.ravel(), "r_star": r_star.ravel(), "epsilon": epsilon.ravel()}
    )
    return fig, data


def two_dimensional_caption(
    data: pd.DataFrame, found: tuple[float, float, float]
) -> figures.Caption:
    """Caption and alt text of ``two_dimensional_figure``."""
    eps, p, q = found
    r_cut, e_cut = two_dimensional_cuts(data.r_star.to_numpy(), data.epsilon.to_numpy())
    return figures.Caption(
        caption=f"Fig. 5 redrawn: the bounded optimiser's minimum of εᵢ over (p, q) is "
        f"ε = {eps:.4f} at p = {p:.4g}, q = {q:.4g}, marked here where the original marks its "
        f"grid search's minimiser, with infinite εᵢ drawn at the cut of {e_cut:g} where the "
        "original leaves them grey, in one colour map (cividis) for both panels.",
        alt=f"Two heat maps over log axes of p and q from {data.p.min():.2g} to 1: above, r* "
        f"from {data.r_star.min():.3g} (dark blue) up to {r_cut:g} (yellow); below, εᵢ from "
        f"{data.epsilon.min():.3g} (dark) up to the cut at {e_cut:g} (yellow, also where εᵢ is "
        f"infinite); a vermillion dot at p = {p:.3g}, "
        f"q = {q:.3g} marks the minimum.",
    )
