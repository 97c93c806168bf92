"""The poster notebook's figures: each function draws the data it is given, labelled, and returns
the frame the notebook saves."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from choosing_epsilon.papers.mugunthan_poster import figures as poster_plots
from choosing_epsilon.papers.mugunthan_poster import forensics as poster
from choosing_epsilon.plots import figures, style


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def labelled_lines(ax):
    return {line.get_label(): line for line in ax.get_lines()}


def test_ratio_figure_draws_fig1_with_its_threshold():
    p = np.linspace(0.001, 0.999, 99)
    threshold = poster.ratio_threshold()
    fig, frame = poster_plots.ratio_figure(p, poster.ratio(p), threshold)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "required confidence (p)"
    assert ax.get_ylabel() == "Theorem 2's privacy parameter\nover Theorem 3's (ε₂ / ε₃)"
    assert ax.get_xlim() == (0, 1)
    lines = labelled_lines(ax)
    np.testing.assert_array_equal(lines["ε₂ / ε₃ (Laplace)"].get_ydata(), poster.ratio(p))
    assert lines[f"ratio = 1 at p = {threshold:.4f}"].get_xdata()[0] == threshold
    assert list(frame.columns) == ["p", "ratio_eps2_over_eps3"] and len(frame) == 99


def test_coverage_minus_p_figure_draws_each_theorem_minus_p():
    p = np.linspace(0.3, 0.999, 30)
    curves = poster.coverage_curves(1, 0.1, 100, 10, p)
    fig, frame = poster_plots.coverage_minus_p_figure(p, curves, 0.92)
    (ax,) = fig.axes
    assert ax.get_ylabel() == "delivered minus required confidence (coverage − p)"
    lines = labelled_lines(ax)
    for label, values in curves.items():
        np.testing.assert_allclose(lines[label].get_ydata(), np.array(values) - p)
    assert "Fig. 1 threshold p = 0.9200" in lines
    assert list(frame.columns) == ["p", *curves]
    np.testing.assert_array_equal(frame["Theorem 3"], curves["Theorem 3"])


def test_slips_figure_has_both_panels_on_log_axes():
    slips = poster.sigma_times_epsilon_curves(1, np.geomspace(0.01, 20, 12), 1e-5)
    tails = poster.theorem3_tail_curves(np.linspace(0.5, 4, 12))
    t_star, p_star = poster.theorem3_tail_crossing()
    fig, frame = poster_plots.slips_figure(slips, tails, t_star, p_star, 1e-5)
    ax_a, ax_b = fig.axes
    assert (ax_a.get_xscale(), ax_b.get_yscale()) == ("log", "log")
    assert ax_a.get_ylabel() == "noise standard deviation\ntimes privacy parameter (σε)"
    assert ax_b.get_xlabel() == "distance in noise standard deviations (t = c/σ)"
    classical = labelled_lines(ax_a)["Gaussian, classical (proven for ε < 1)"]
    assert np.all(classical.get_xdata() < 1)  # drawn only where its proof holds
    assert set(labelled_lines(ax_a)) >= {"Laplace", "Gaussian, analytic (δ = 1e-05)"}
    b_lines = labelled_lines(ax_b)
    assert {"Laplace tail", "Gaussian tail", "Theorem 3's bound 2e^(−t²)"} <= set(b_lines)
    assert f"t* = {t_star:.3f} (p = {p_star:.4f})" in b_lines
    assert list(frame.columns) == [*slips.columns, *tails.columns]


# --- style and captions, at the committed run's inputs and at others ------------------------------


def ratio_case(p):
    threshold = poster.ratio_threshold()
    fig, frame = poster_plots.ratio_figure(p, poster.ratio(p), threshold)
    return fig, poster_plots.ratio_caption(frame, threshold)


def coverage_case(sensitivity, w, query_answer, c, p):
    curves = poster.coverage_curves(sensitivity, w, query_answer, c, p)
    threshold = poster.ratio_threshold()
    fig, frame = poster_plots.coverage_minus_p_figure(p, curves, threshold)
    caption = poster_plots.coverage_minus_p_caption(
        frame, threshold, sensitivity, c, w * query_answer
    )
    return fig, caption


def slips_case(sensitivity, delta, t):
    slips = poster.sigma_times_epsilon_curves(sensitivity, np.geomspace(0.01, 20, 60), delta)
    tails = poster.theorem3_tail_curves(t)
    t_star, p_star = poster.theorem3_tail_crossing()
    fig, _ = poster_plots.slips_figure(slips, tails, t_star, p_star, delta)
    return fig, poster_plots.slips_caption(slips, tails, t_star, p_star, delta)


# each figure at the notebook's inputs, and at others a reader might run (other Δ, c, w, q(D), δ,
# and grids of p and t the committed run does not use)
CASES = {
    "fig1_ratio": (
        lambda: ratio_case(np.linspace(0.001, 0.999, 999)),
        lambda: ratio_case(np.linspace(0.05, 0.6, 50)),
    ),
    "coverage_minus_p": (
        lambda: coverage_case(1, 0.1, 100, 10, np.linspace(0.3, 0.999, 300)),
        lambda: coverage_case(3, 0.5, 7, 2, np.linspace(0.5, 0.99, 40)),
    ),
    "slips_lemma1_theorem3": (
        lambda: slips_case(1, 1e-5, np.linspace(0.5, 4, 200)),
        lambda: slips_case(2.5, 1e-9, np.linspace(0.2, 3, 50)),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("case", [0, 1], ids=["defaults", "other"])
def test_each_figure_keeps_to_the_style_and_has_a_valid_caption(name, case):
    fig, caption = CASES[name][case]()
    figures._log_axes(fig)  # as save_figure does before its check
    assert style.problems(fig) == []
    assert isinstance(caption, figures.Caption)  # built, so one sentence and an alt of its own
    assert figures.sentence_problem(caption.caption) is None
    assert len(caption.caption) <= 400 and 40 <= len(caption.alt) <= 1000


def test_ratio_caption_names_the_grid_it_draws():
    _, default = CASES["fig1_ratio"][0]()
    _, other = CASES["fig1_ratio"][1]()
    assert "passes 1 at p = 0.9215" in default.caption
    # a grid below the threshold: the ratio never reaches 1 there, and the caption says so
    assert "stays on one side of 1, which it passes only at p = 0.9215" in other.caption
    assert "(x axis, 0.05 to 0.6)" in other.alt and "0.05 to 0.6" not in default.alt


def test_coverage_caption_names_the_run_s_parameters_and_what_each_theorem_delivers():
    _, default = CASES["coverage_minus_p"][0]()
    _, other = CASES["coverage_minus_p"][1]()
    assert "Δ = 1, c = 10 and w·q(D) = 10" in default.caption
    assert "Δ = 3, c = 2 and w·q(D) = 3.5" in other.caption
    for caption in (default, other):
        assert "Theorem 2's ε delivers exactly p" in caption.caption
        assert "Theorem 1's (Chebyshev, at its value) more than p" in caption.caption
    # Theorem 3 turns short at the grid point just above Fig. 1's threshold
    p = np.linspace(0.3, 0.999, 300)
    first = p[p > poster.ratio_threshold()][0]
    assert f"Theorem 3's more than p up to p ≈ {first:.3f} and less above it" in default.caption


def test_slips_caption_follows_delta_and_the_tail_grid():
    _, default = CASES["slips_lemma1_theorem3"][0]()
    _, other = CASES["slips_lemma1_theorem3"][1]()
    assert "δ = 1e-05" in default.caption and "δ = 1e-09" in other.caption
    assert f"constant {2.5 * np.sqrt(2):.4g} = √2Δ" in other.caption
    # where the Gaussian tail overtakes 2e^(−t²): 1.8600, the root brentq finds
    assert "the Gaussian tail from t ≈ 1.86," in default.caption
    assert "t from 0.2 to 3" in other.alt


@pytest.mark.parametrize(
    "tail, expected",
    [
        ([0.9, 0.8, 0.1], None),  # ends below the bound
        ([0.5, 0.4, 0.2], None),  # ends on it: not above
        ([0.9, 0.8, 0.7], 0.0),  # above it all along: from the first t
    ],
)
def test_crossing_is_where_the_tail_stays_above_the_bound(tail, expected):
    t = np.array([0.0, 1.0, 2.0])
    bound = np.array([0.6, 0.5, 0.2])
    found = poster_plots._crossing(t, np.array(tail), bound)
    assert found == expected


def test_crossing_interpolates_in_the_log_of_the_ratio():
    t = np.array([1.0, 2.0])
    bound = np.array([1.0, 1.0])
    # log ratio goes from -1 to +3: zero a quarter of the way
    assert poster_plots._crossing(t, np.exp([-1.0, 3.0]), bound) == pytest.approx(1.25)
