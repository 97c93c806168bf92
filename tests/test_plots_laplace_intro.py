"""The figures of notebooks/laplace_intro.ipynb: each returns a figure with labelled axes and the
data frame it draws, thinned or binned past MAX_ROWS rows."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib import pyplot as plt

from choosing_epsilon import laplace
from choosing_epsilon.plots import laplace_intro as plots


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _releases(n, seed=1):
    return laplace.release(5, 7, 0.5, np.random.default_rng(seed), size=n)


def test_output_perturbation_draws_the_releases_and_the_density():
    releases = _releases(1000)
    fig, frame = plots.output_perturbation(releases, 5, 14.0)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "released value (A(D))" and ax.get_ylabel() == "density"
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["1000 releases A(D)", "density of A(D): Laplace(5, 14)", "f(D) = 5"]
    assert len(ax.patches) == 60
    assert list(frame.columns) == ["release"] and np.array_equal(frame.release, releases)


def test_output_perturbation_saves_the_histogram_beyond_max_rows():
    releases = _releases(500)
    _, frame = plots.output_perturbation(releases, 5, 14.0, max_rows=100)
    assert list(frame.columns) == ["bin_left", "bin_right", "density"] and len(frame) == 60
    widths = frame.bin_right - frame.bin_left
    assert (frame.density * widths).sum() == pytest.approx(1.0)


def test_scenarios_has_a_density_and_a_ratio_panel_per_epsilon():
    panels = [laplace.neighbour_densities(5, 12, 7, eps) for eps in (0.5, 10)]
    fig, frame = plots.scenarios(panels, 5, 12)
    assert len(fig.axes) == 4
    titles = [ax.get_title() for ax in fig.axes]
    assert (
        titles[0] == "(a) output densities, ε = 0.5" and titles[1] == "(b) output densities, ε = 10"
    )
    assert titles[2].startswith("(c) their ratio") and titles[3].startswith("(d) their ratio")
    ratio = fig.axes[3]
    assert [t.get_text() for t in ratio.get_yticklabels()] == ["4.54×10⁻⁵", "1", "2.20×10⁴"]
    assert ratio.get_ylabel() == "density ratio\n(p_D(a)/p_D′(a))"
    assert len(fig.axes[0].lines) == 2 and len(ratio.lines) == 1
    pd.testing.assert_frame_equal(frame, pd.concat(panels, ignore_index=True))


def test_averaging_attack_draws_every_k_or_a_log_spaced_thinning():
    releases = _releases(1000)
    k = np.arange(1, 1001)
    running, se = np.cumsum(releases) / k, np.sqrt(2) * 14 / np.sqrt(k)
    fig, frame = plots.averaging_attack(k, running, se, 5)
    (ax,) = fig.axes
    assert ax.get_xscale() == "log" and ax.get_xlabel() == "number of releases (k)"
    assert list(frame.columns) == ["k", "running_mean", "standard_error"] and len(frame) == 1000
    _, thin = plots.averaging_attack(k, running, se, 5, max_rows=50)
    assert thin.k.iloc[0] == 1 and thin.k.iloc[-1] == 1000 and len(thin) <= 50
    assert np.array_equal(thin.running_mean, running[thin.k - 1])


def test_privacy_loss_histogram_and_its_data():
    releases = _releases(1000)
    loss = laplace.log_density_ratio(releases, 5, 12, 7, 0.5)
    fig, frame = plots.privacy_loss(releases, loss, 0.5)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "privacy loss (ln p_D(a)/p_D′(a))" and len(ax.patches) == 50
    assert ax.get_title() == "The privacy loss when a ~ A(D), ε = 0.5"
    assert list(frame.columns) == ["release", "privacy_loss"] and len(frame) == 1000
    _, thin = plots.privacy_loss(releases, loss, 0.5, max_rows=100)
    assert list(thin.columns) == ["privacy_loss"] and len(thin) == 100
