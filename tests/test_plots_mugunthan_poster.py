"""The poster notebook's figures: each function draws the data it is given, labelled, and returns
the frame the notebook saves."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from choosing_epsilon import confidence as cf
from choosing_epsilon.plots import mugunthan_poster as poster_plots


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def labelled_lines(ax):
    return {line.get_label(): line for line in ax.get_lines()}


def test_ratio_figure_draws_fig1_with_its_threshold():
    p = np.linspace(0.001, 0.999, 99)
    threshold = cf.ratio_threshold()
    fig, frame = poster_plots.ratio_figure(p, cf.ratio(p), threshold)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "required confidence (p)"
    assert ax.get_ylabel() == "Theorem 2's ε over Theorem 3's (ε₂ / ε₃)"
    assert ax.get_xlim() == (0, 1)
    lines = labelled_lines(ax)
    np.testing.assert_array_equal(lines["ε₂ / ε₃ (Laplace)"].get_ydata(), cf.ratio(p))
    assert lines[f"ratio = 1 at p = {threshold:.4f}"].get_xdata()[0] == threshold
    assert list(frame.columns) == ["p", "ratio_eps2_over_eps3"] and len(frame) == 99


def test_coverage_minus_p_figure_draws_each_theorem_minus_p():
    p = np.linspace(0.3, 0.999, 30)
    curves = cf.coverage_curves(1, 0.1, 100, 10, p)
    fig, frame = poster_plots.coverage_minus_p_figure(p, curves, 0.92)
    (ax,) = fig.axes
    assert ax.get_ylabel() == "delivered minus required confidence (coverage − p)"
    lines = labelled_lines(ax)
    for label, values in curves.items():
        np.testing.assert_allclose(lines[label].get_ydata(), np.array(values) - p)
    assert "p = 0.9200" in lines
    assert list(frame.columns) == ["p", *curves]
    np.testing.assert_array_equal(frame["Theorem 3"], curves["Theorem 3"])


def test_slips_figure_has_both_panels_on_log_axes():
    slips = cf.sigma_times_epsilon_curves(1, np.geomspace(0.01, 20, 12), 1e-5)
    tails = cf.theorem3_tail_curves(np.linspace(0.5, 4, 12))
    t_star, p_star = cf.theorem3_tail_crossing()
    fig, frame = poster_plots.slips_figure(slips, tails, t_star, p_star, 1e-5)
    ax_a, ax_b = fig.axes
    assert (ax_a.get_xscale(), ax_b.get_yscale()) == ("log", "log")
    assert ax_a.get_ylabel() == "noise standard deviation times privacy loss (σε)"
    assert ax_b.get_xlabel() == "distance in noise standard deviations (t = c/σ)"
    classical = labelled_lines(ax_a)["Gaussian, classical (proven for ε < 1)"]
    assert np.all(classical.get_xdata() < 1)  # drawn only where its proof holds
    assert set(labelled_lines(ax_a)) >= {"Laplace", "Gaussian, analytic (δ = 1e-05)"}
    b_lines = labelled_lines(ax_b)
    assert {"Laplace tail", "Gaussian tail", "Theorem 3's bound 2e^(−t²)"} <= set(b_lines)
    assert f"t* = {t_star:.3f} (p = {p_star:.4f})" in b_lines
    assert list(frame.columns) == [*slips.columns, *tails.columns]
