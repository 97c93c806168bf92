"""The figures of shoaran_2012: labelled axes, one line per curve, and the data frame saved with
them."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import relative_error as rel
from choosing_epsilon.plots import shoaran_2012 as plot


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_figure_1_draws_a_curve_per_epsilon_and_marks_the_two_values():
    curves = rel.noise_curves(np.linspace(0.01, 0.99, 11), 1, [0.01, 0.02, 0.05])
    fig, frame = plot.fig1_noise_vs_probability(curves, [0.01, 0.02, 0.05], 0.01, 69.3, 120.4, 1)
    assert frame is curves
    (ax,) = fig.axes
    assert ax.get_xlabel() == "probability that the noise magnitude is at least z (pr, %)"
    assert ax.get_ylabel() == "noise magnitude (z, units of the answer)"
    assert ax.get_title() == "Fig. 1: noise vs probability (Δ(q) = 1)"
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["ε = 0.01", "ε = 0.02", "ε = 0.05", "ε = 0.01: 69 at 50%, 120 at 30%"]
    first = ax.get_lines()[0]
    assert np.allclose(first.get_xdata(), 100 * curves["pr"])
    assert np.allclose(first.get_ydata(), curves["z_eps_0.01"])
    assert ax.get_xlim() == (0, 100) and ax.get_ylim()[0] == 0


def test_figure_2_draws_both_readings_on_log_axes_and_stacks_their_data():
    prs = [0.1, 0.3, 0.5]
    against_eps = rel.mta_against_epsilon(np.geomspace(0.001, 1, 7), 1, prs, 0.1)
    against_re = rel.mta_against_re(np.geomspace(0.01, 1, 5), 1, 0.1, prs)
    fig, frame = plot.fig2_mta(against_eps, against_re, prs, 0.1, 0.1, (0.01, 2302.6))
    ax_a, ax_b = fig.axes
    assert (ax_a.get_xlabel(), ax_a.get_ylabel()) == (
        "privacy degree (ε)",
        "minimum true answer (MTA, units of the answer)",
    )
    assert ax_b.get_xlabel() == "relative-error threshold (re, as a fraction)"
    assert ax_a.get_title() == "(a) Fig. 2: MTA vs ε (re = 10%)"
    assert ax_b.get_title() == "(b) second reading: MTA vs re (ε = 0.1)"
    assert {ax.get_xscale() for ax in fig.axes} == {ax.get_yscale() for ax in fig.axes} == {"log"}
    curve_labels = ["pr = 10%", "pr = 30%", "pr = 50%"]
    assert [line.get_label() for line in ax_a.get_lines()] == [*curve_labels, "Example 1: 2303"]
    assert [line.get_label() for line in ax_b.get_lines()] == curve_labels
    assert frame.reading.tolist() == ["vs_epsilon"] * 7 + ["vs_re"] * 5
    assert list(frame.columns) == [
        "epsilon",
        "mta_pr_0.1",
        "mta_pr_0.3",
        "mta_pr_0.5",
        "reading",
        "re",
    ]
    pd.testing.assert_frame_equal(
        frame.iloc[7:][["re", "mta_pr_0.1"]].reset_index(drop=True),
        against_re[["re", "mta_pr_0.1"]],
    )
