"""Figures of the Mugunthan, Xiao & Kagal poster notebook: Fig. 1 (the ratio ε₂/ε₃), what each
theorem's ε delivers, and two of the poster's slips (Lemma 1 and Theorem 3's tail bound)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure


def ratio_figure(
    p: Sequence[float] | np.ndarray, ratio: Sequence[float] | np.ndarray, threshold: float
) -> tuple[Figure, pd.DataFrame]:
    """The poster's Fig. 1: ε₂/ε₃ against p for Laplace noise, with the p where it equals 1."""
    frame = pd.DataFrame({"p": p, "ratio_eps2_over_eps3": ratio})
    fig, ax = plt.subplots()
    ax.plot(frame.p, frame.ratio_eps2_over_eps3, label="ε₂ / ε₃ (Laplace)")
    ax.axhline(1, color="grey", lw=0.8)
    ax.axvline(threshold, color="black", ls=":", lw=0.8, label=f"ratio = 1 at p = {threshold:.4f}")
    ax.set(
        xlabel="required confidence (p)",
        ylabel="Theorem 2's ε over Theorem 3's (ε₂ / ε₃)",
        title="Fig. 1: ratio of Theorem 2's and Theorem 3's ε, Laplace noise",
        xlim=(0, 1),
    )
    ax.legend()
    return fig, frame


def coverage_minus_p_figure(
    p: Sequence[float] | np.ndarray, curves: Mapping[str, Sequence[float]], threshold: float
) -> tuple[Figure, pd.DataFrame]:
    """Coverage minus p against p for each theorem's ε (``curves``: coverage by label), with the
    Fig. 1 threshold."""
    p = np.asarray(p, dtype=float)
    frame = pd.DataFrame({"p": p} | dict(curves))
    fig, ax = plt.subplots()
    for label, values in curves.items():
        ax.plot(p, np.array(values) - p, label=label)
    ax.axhline(0, color="grey", lw=0.8)
    ax.axvline(threshold, color="black", ls=":", lw=0.8, label=f"p = {threshold:.4f}")
    ax.set(
        xlabel="required confidence (p)",
        ylabel="delivered minus required confidence (coverage − p)",
        title="What each formula delivers (Laplace noise)",
    )
    ax.legend(fontsize=8)
    return fig, frame


def slips_figure(
    slips: pd.DataFrame, tails: pd.DataFrame, t_star: float, p_star: float, delta: float
) -> tuple[Figure, pd.DataFrame]:
    """Two panels: (a) Lemma 1's σε against ε (``slips``); (b) the Laplace and Gaussian tails
    against Theorem 3's bound 2e^(−t²) (``tails``), with the crossing t*."""
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4))
    eps = slips.epsilon
    ax_a.plot(eps, slips.sigma_eps_laplace, label="Laplace")
    ax_a.plot(eps, slips.sigma_eps_gaussian_analytic, label=f"Gaussian, analytic (δ = {delta:g})")
    proven = eps < 1
    ax_a.plot(
        eps[proven],
        slips.sigma_eps_gaussian_classical[proven],
        ls="--",
        label="Gaussian, classical (proven for ε < 1)",
    )
    ax_a.set(
        xscale="log",
        xlabel="privacy loss (ε)",
        ylabel="noise standard deviation times privacy loss (σε)",
        title="(a) Lemma 1: is σε a constant?",
    )
    ax_a.legend(fontsize=8)
    lines = (
        ("laplace", "Laplace tail", "-"),
        ("gaussian", "Gaussian tail", "-"),
        ("theorem3_bound", "Theorem 3's bound 2e^(−t²)", ":"),
    )
    for column, label, style in lines:
        ax_b.plot(tails.t, tails[column], label=label, ls=style)
    ax_b.axvline(
        t_star, color="black", ls=":", lw=0.8, label=f"t* = {t_star:.3f} (p = {p_star:.4f})"
    )
    ax_b.set(
        yscale="log",
        xlabel="distance in noise standard deviations (t = c/σ)",
        ylabel="probability the noise lies beyond it (Pr(|X| ≥ tσ))",
        title="(b) Theorem 3's bound against the true tails",
    )
    ax_b.legend(fontsize=8)
    return fig, pd.concat([slips, tails], axis=1)
