"""Figures of the Mugunthan, Xiao & Kagal poster notebook: Fig. 1 (the ratio ε₂/ε₃), what each
theorem's ε delivers, and two of the poster's slips (Lemma 1 and Theorem 3's tail bound), each
with the function that writes its caption and alt text from the data it draws."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from choosing_epsilon.plots import figures, style

# the k-th series of a panel: its colour and dash from the style's cycle, and their names in words
_COLOUR_NAMES = {colour: name for name, colour in style.OKABE_ITO.items()}
# the three theorems keep the same colour and dash in every figure
THEOREM_SERIES = {1: 0, 2: 1, 3: 2}
GAUSSIAN_CLASSICAL_DASH = ":"  # the classical Gaussian line shares the Gaussian colour, dotted
# axis labels too long for the height of one panel, on two lines
RATIO_LABEL = "Theorem 2's privacy parameter\nover Theorem 3's (ε₂ / ε₃)"
SIGMA_EPSILON_LABEL = "noise standard deviation\ntimes privacy parameter (σε)"
TAIL_LABEL = "probability the noise lies\nbeyond it (Pr(|X| ≥ tσ))"


def _series(index: int) -> dict[str, Any]:
    """Colour and dash of the ``index``-th series of the style's cycle, as plot keywords."""
    return {"color": style.PALETTE[index], "ls": style.LINESTYLES[index]}


def _looks(index: int) -> str:
    """The ``index``-th series' colour and dash in words, for an alt text."""
    return f"{_COLOUR_NAMES[style.PALETTE[index]]} {style.DASH_NAMES[index]}"


def ratio_figure(
    p: Sequence[float] | np.ndarray, ratio: Sequence[float] | np.ndarray, threshold: float
) -> tuple[Figure, pd.DataFrame]:
    """The poster's Fig. 1: ε₂/ε₃ against p for Laplace noise, with the p where it equals 1."""
    frame = pd.DataFrame({"p": p, "ratio_eps2_over_eps3": ratio})
    fig, ax = plt.subplots()
    ax.axhline(1, color=style.REFERENCE, lw=0.8)
    ax.plot(frame.p, frame.ratio_eps2_over_eps3, label="ε₂ / ε₃ (Laplace)", **_series(0))
    ax.axvline(
        threshold, color=style.REFERENCE, ls=":", lw=1, label=f"ratio = 1 at p = {threshold:.4f}"
    )
    ax.set(
        xlabel="required confidence (p)",
        ylabel=RATIO_LABEL,
        title="Fig. 1: ratio of Theorem 2's and Theorem 3's ε, Laplace noise",
        xlim=(0, 1),
    )
    style.legend_below(ax, ncols=2)
    return fig, frame


def ratio_caption(frame: pd.DataFrame, threshold: float) -> figures.Caption:
    """Caption and alt text of ``ratio_figure``, from the frame it draws."""
    p, ratio = frame.p.to_numpy(), frame.ratio_eps2_over_eps3.to_numpy()
    trend = "grows" if np.all(np.diff(ratio) > 0) else "varies"
    inside = p.min() <= threshold <= p.max()
    where = (
        f"passes 1 at p = {threshold:.4f}, above which Theorem 3's ε is the smaller of the two"
        if inside
        else f"stays on one side of 1, which it passes only at p = {threshold:.4f}"
    )
    caption = (
        f"The poster's Fig. 1 redrawn for Laplace noise: Theorem 2's ε over Theorem 3's {trend} "
        f"with the required confidence p and {where}, whatever the sensitivity Δ and distance c."
    )
    alt = (
        f"Line chart of the ratio ε₂/ε₃ (y axis, {ratio.min():.3g} to {ratio.max():.3g}) against "
        f"the required confidence p (x axis, {p.min():g} to {p.max():g}): one {_looks(0)} curve "
        f"{'rises' if trend == 'grows' else 'moves'} from {ratio[0]:.3g} at p = {p[0]:g} to "
        f"{ratio[-1]:.3g} at p = {p[-1]:g}, with a grey horizontal line at 1 and a grey dotted "
        f"vertical line at p = {threshold:.4f}, where the ratio equals 1."
    )
    return figures.Caption(caption=caption, alt=alt)


def coverage_minus_p_figure(
    p: Sequence[float] | np.ndarray, curves: Mapping[str, Sequence[float]], threshold: float
) -> tuple[Figure, pd.DataFrame]:
    """Coverage minus p against p for each theorem's ε (``curves``: coverage by label, in the
    order of Theorems 1, 2 and 3), with the Fig. 1 threshold."""
    p = np.asarray(p, dtype=float)
    frame = pd.DataFrame({"p": p} | dict(curves))
    fig, ax = plt.subplots()
    ax.axhline(0, color=style.REFERENCE, lw=0.8)
    for index, (label, values) in enumerate(curves.items()):
        ax.plot(p, np.array(values) - p, label=label, **_series(index))
    ax.axvline(
        threshold,
        color=style.REFERENCE,
        ls=":",
        lw=1,
        label=f"Fig. 1 threshold p = {threshold:.4f}",
    )
    ax.set(
        xlabel="required confidence (p)",
        ylabel="delivered minus required confidence (coverage − p)",
        title="What each theorem's ε delivers (Laplace noise)",
    )
    style.legend_below(ax, ncols=2)
    return fig, frame


def _against_p(p: np.ndarray, margin: np.ndarray, tolerance: float = 1e-9) -> str:
    """How a coverage compares with the p it was asked for, in words: ``margin`` is coverage − p."""
    above, below = margin > tolerance, margin < -tolerance
    if not above.any() and not below.any():
        return "exactly p"
    if not below.any():
        return "more than p"
    if not above.any():
        return "less than p"
    first_below = int(np.argmax(below))
    if not above[first_below:].any() and not below[:first_below].any():
        return f"more than p up to p ≈ {p[first_below]:.3f} and less above it"
    return "more than p at some p and less at others"


def _path(p: np.ndarray, margin: np.ndarray, tolerance: float = 1e-9) -> str:
    """The course of one coverage − p curve in words, for an alt text."""
    if np.all(np.abs(margin) <= tolerance):
        return f"lies on 0 (within {tolerance:g})"
    text = f"goes from {margin[0]:.3f} at p = {p[0]:.3g} to {margin[-1]:.3f} at p = {p[-1]:.3g}"
    low = int(np.argmin(margin))
    if 0 < low < len(margin) - 1:
        text += f", lowest {margin[low]:.3f} at p = {p[low]:.3g}"
    return text


def coverage_minus_p_caption(
    frame: pd.DataFrame, threshold: float, sensitivity: float, c: float, distance_1: float
) -> figures.Caption:
    """Caption and alt text of ``coverage_minus_p_figure``, from the frame it draws and the run's
    Δ, c and Theorem 1's distance w·q(D)."""
    p = frame.p.to_numpy()
    labels = list(frame.columns[1:])
    margins = {label: frame[label].to_numpy() - p for label in labels}
    said = {label: _against_p(p, margins[label]) for label in labels}
    t1, t2, t3 = (said[label] for label in labels)
    caption = (
        f"For Laplace noise with Δ = {sensitivity:g}, c = {c:g} and w·q(D) = {distance_1:g}, "
        f"Theorem 2's ε delivers {t2}, Theorem 1's (Chebyshev, at its value) {t1} and "
        f"Theorem 3's {t3}; the dotted line marks Fig. 1's threshold p = {threshold:.4f}."
    )
    lowest = min(float(m.min()) for m in margins.values())
    highest = max(float(m.max()) for m in margins.values())
    courses = "; ".join(
        f"the {_looks(index)} curve of {label} {_path(p, margins[label])}"
        for index, label in enumerate(labels)
    )
    alt = (
        f"Line chart of delivered minus required confidence (y axis, {lowest:.3f} to "
        f"{highest:.3f}, grey line at 0) against the required confidence p (x axis, {p[0]:.3g} "
        f"to {p[-1]:.3g}), with a grey dotted vertical line at p = {threshold:.4f}: {courses}."
    )
    return figures.Caption(caption=caption, alt=alt)


def slips_figure(
    slips: pd.DataFrame, tails: pd.DataFrame, t_star: float, p_star: float, delta: float
) -> tuple[Figure, pd.DataFrame]:
    """Two panels: (a) Lemma 1's σε against ε (``slips``); (b) the Laplace and Gaussian tails
    against Theorem 3's bound 2e^(−t²) (``tails``), with the crossing t*."""
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4))
    eps = slips.epsilon
    ax_a.plot(eps, slips.sigma_eps_laplace, label="Laplace", **_series(0))
    gaussian = _series(1)
    ax_a.plot(
        eps,
        slips.sigma_eps_gaussian_analytic,
        label=f"Gaussian, analytic (δ = {delta:g})",
        **gaussian,
    )
    proven = eps < 1
    if proven.any():
        ax_a.plot(
            eps[proven],
            slips.sigma_eps_gaussian_classical[proven],
            color=gaussian["color"],
            ls=GAUSSIAN_CLASSICAL_DASH,
            label="Gaussian, classical (proven for ε < 1)",
        )
    ax_a.set(
        xscale="log",
        xlabel="privacy parameter (ε)",
        ylabel=SIGMA_EPSILON_LABEL,
    )
    style.panel_title(ax_a, 0, "Lemma 1: is σε a constant?")
    style.legend_below(ax_a)
    lines = (("laplace", "Laplace tail", 0), ("gaussian", "Gaussian tail", 1))
    for column, label, index in lines:
        ax_b.plot(tails.t, tails[column], label=label, **_series(index))
    ax_b.plot(
        tails.t,
        tails.theorem3_bound,
        label="Theorem 3's bound 2e^(−t²)",
        **_series(THEOREM_SERIES[3]),
    )
    ax_b.axvline(
        t_star, color=style.REFERENCE, ls=":", lw=1, label=f"t* = {t_star:.3f} (p = {p_star:.4f})"
    )
    ax_b.set(
        yscale="log",
        xlabel="distance in noise standard deviations (t = c/σ)",
        ylabel=TAIL_LABEL,
    )
    style.panel_title(ax_b, 1, "Theorem 3's bound against the true tails")
    style.legend_below(ax_b, ncols=2)
    return fig, pd.concat([slips, tails], axis=1)


def _crossing(t: np.ndarray, tail: np.ndarray, bound: np.ndarray) -> float | None:
    """The t from which ``tail`` stays above ``bound``, interpolated linearly in the log of their
    ratio between the two grid points around it (the first t of the grid if it is above there
    already), or None if it ends below."""
    with np.errstate(divide="ignore"):  # a tail that underflows to 0 is -inf: below
        gap = np.log(tail) - np.log(bound)
    if not gap[-1] > 0:
        return None
    below = np.flatnonzero(gap <= 0)
    if not below.size:
        return float(t[0])
    k = below[-1]
    return float(np.interp(0.0, [gap[k], gap[k + 1]], [t[k], t[k + 1]]))


def slips_caption(
    slips: pd.DataFrame, tails: pd.DataFrame, t_star: float, p_star: float, delta: float
) -> figures.Caption:
    """Caption and alt text of ``slips_figure``, from the frames it draws."""
    eps = slips.epsilon.to_numpy()
    laplace = float(slips.sigma_eps_laplace.iloc[0])
    analytic = slips.sigma_eps_gaussian_analytic.to_numpy()
    classical = float(slips.sigma_eps_gaussian_classical.iloc[0])
    t, bound = tails.t.to_numpy(), tails.theorem3_bound.to_numpy()
    gaussian_from = _crossing(t, tails.gaussian.to_numpy(), bound)
    gaussian_text = (
        f"from t ≈ {gaussian_from:.2f}"
        if gaussian_from is not None
        else f"nowhere up to t = {t[-1]:g}"
    )
    caption = (
        f"(a) Lemma 1's σε is the constant {laplace:.4g} = √2Δ for Laplace noise but changes by "
        f"a factor {analytic.max() / analytic.min():.2f} over ε from {eps.min():g} to "
        f"{eps.max():g} for the exact Gaussian mechanism at δ = {delta:g}, and (b) the Laplace "
        f"tail exceeds Theorem 3's bound beyond t* = {t_star:.3f} (p = {p_star:.4f}), the "
        f"Gaussian tail {gaussian_text}, so Lemma 1 holds for Laplace noise only and "
        "Theorem 3 fails at high p."
    )
    classical_text = (
        f" and an {_COLOUR_NAMES[style.PALETTE[1]]} dotted flat line at {classical:.3g} for "
        "the classical Gaussian calibration, drawn only for ε < 1"
        if (eps < 1).any()
        else ""
    )
    crossing = (
        f", crossing below the Laplace tail at the grey dotted vertical line t* = {t_star:.3f}"
        if t[0] < t_star < t[-1]
        else f"; a grey dotted vertical line marks t* = {t_star:.3f}"
    )
    alt = (
        f"Panel (a) plots σε (y axis) against ε on a log x axis from {eps.min():g} to "
        f"{eps.max():g}: a {_looks(0)} flat line at {laplace:.3g} for Laplace noise, an "
        f"{_looks(1)} curve from {analytic[0]:.3g} to {analytic[-1]:.3g} for the analytic Gaussian "
        f"mechanism{classical_text}. Panel (b) plots the probability of noise beyond t standard "
        f"deviations on a log y axis against t from {t[0]:g} to {t[-1]:g}: the {_looks(0)} "
        f"Laplace tail falls as a straight line to {tails.laplace.iloc[-1]:.2g}, the "
        f"{_looks(1)} Gaussian tail bends down to {tails.gaussian.iloc[-1]:.2g}, and the "
        f"{_looks(THEOREM_SERIES[3])} bound falls from {bound[0]:.2g} to {bound[-1]:.2g}{crossing}."
    )
    return figures.Caption(caption=caption, alt=alt)
