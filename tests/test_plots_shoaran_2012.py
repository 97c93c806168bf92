"""The figures of shoaran_2012: labelled axes, one line per curve, the data frame saved with
them, the project's style at the paper's and at other parameters, and captions that follow the
parameters."""

import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import laplace
from choosing_epsilon import relative_error as rel
from choosing_epsilon.papers.shoaran_2012 import figures as plot
from choosing_epsilon.papers.shoaran_2012 import steps
from choosing_epsilon.plots import figures, style


def test_figure_1_draws_a_curve_per_epsilon_and_marks_the_two_values():
    curves = steps.noise_curves(np.linspace(0.01, 0.99, 11), 1, [0.01, 0.02, 0.05])
    fig, frame = plot.fig1_noise_vs_probability(curves, [0.01, 0.02, 0.05], 0.01, 69.3, 120.4, 1)
    assert frame is curves
    (ax,) = fig.axes
    assert ax.get_xlabel() == "probability that the noise magnitude is at least z (pr, %)"
    assert ax.get_ylabel() == "noise magnitude (z, units of the answer)"
    assert ax.get_title() == "Fig. 1: noise magnitude against its probability (Δ(q) = 1)"
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["ε = 0.01", "ε = 0.02", "ε = 0.05", "ε = 0.01: 69 at 50%, 120 at 30%"]
    first = ax.get_lines()[0]
    assert np.allclose(first.get_xdata(), 100 * curves["pr"])
    assert np.allclose(first.get_ydata(), curves["z_eps_0.01"])
    assert ax.get_xlim() == (0, 100) and ax.get_ylim()[0] == 0


def test_figure_2_draws_both_readings_on_log_axes_and_stacks_their_data():
    prs = [0.1, 0.3, 0.5]
    against_eps = steps.mta_against_epsilon(np.geomspace(0.001, 1, 7), 1, prs, 0.1)
    against_re = steps.mta_against_re(np.geomspace(0.01, 1, 5), 1, 0.1, prs)
    fig, frame = plot.fig2_mta(against_eps, against_re, prs, 0.1, 0.1, (0.01, 2302.6))
    ax_a, ax_b = fig.axes
    assert (ax_a.get_xlabel(), ax_a.get_ylabel()) == (
        "privacy parameter (ε)",
        "minimum true answer (units of the answer)",
    )
    assert ax_b.get_xlabel() == "relative-error threshold (re, as a fraction)"
    assert ax_a.get_title(loc="left") == "(a) Fig. 2: minimum true answer (MTA), re = 10%"
    assert ax_b.get_title(loc="left") == "(b) second reading: MTA against re, ε = 0.1"
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


# the paper's parameters, and another set: other ε, Δ, pr, re and curves
SETTINGS = {
    "paper": {
        "epsilon": 0.01,
        "pr": 0.1,
        "re": 0.1,
        "sensitivity": 1.0,
        "epsilons": [0.01, 0.02, 0.05],
        "prs": [0.1, 0.3, 0.5],
        "reading_epsilon": 0.1,
    },
    "other": {
        "epsilon": 2.5,
        "pr": 0.2,
        "re": 0.05,
        "sensitivity": 3.0,
        "epsilons": [0.5, 1.0, 4.0],
        "prs": [0.05, 0.2, 0.6],
        "reading_epsilon": 0.7,
    },
}


def _figure_1(s):
    curves = steps.noise_curves(np.linspace(0.01, 0.99, 21), s["sensitivity"], s["epsilons"])
    z50 = laplace.noise_at_probability(0.5, s["sensitivity"], s["epsilon"])
    z30 = laplace.noise_at_probability(0.3, s["sensitivity"], s["epsilon"])
    return (curves, s["epsilons"], s["epsilon"], z50, z30, s["sensitivity"])


def _figure_2(s):
    against_eps = steps.mta_against_epsilon(
        np.geomspace(0.001, 1, 9), s["sensitivity"], s["prs"], s["re"]
    )
    against_re = steps.mta_against_re(
        np.geomspace(0.01, 1, 9), s["sensitivity"], s["reading_epsilon"], s["prs"]
    )
    example = (s["epsilon"], rel.mta(s["sensitivity"], s["epsilon"], s["pr"], s["re"]))
    return (against_eps, against_re, s["prs"], s["re"], s["reading_epsilon"], example)


def _drawn_problems(fig):
    figures._log_axes(fig)  # as save_figure does before its check
    fig.canvas.draw()
    return style.problems(fig)


@pytest.mark.parametrize("setting", SETTINGS, ids=list(SETTINGS))
def test_both_figures_keep_to_the_style(setting):
    s = SETTINGS[setting]
    fig1, _ = plot.fig1_noise_vs_probability(*_figure_1(s))
    assert _drawn_problems(fig1) == []
    fig2, _ = plot.fig2_mta(*_figure_2(s))
    assert _drawn_problems(fig2) == []
    # curves at different ε (Fig. 1) and pr (Fig. 2) differ in dash as well as in colour
    for ax in [*fig1.axes, *fig2.axes]:
        curves = [line for line in ax.get_lines() if line.get_label().startswith(("ε", "pr"))]
        dashes = {str(line._dash_pattern) for line in curves[:3]}
        assert len(curves[:3]) == 3 and len(dashes) == 3


@pytest.mark.parametrize("setting", SETTINGS, ids=list(SETTINGS))
def test_captions_are_valid_and_follow_the_parameters(setting):
    s = SETTINGS[setting]
    one = plot.fig1_caption(*_figure_1(s))
    two = plot.fig2_caption(*_figure_2(s), example_pr=s["pr"], sensitivity=s["sensitivity"])
    for caption in (one, two):
        assert isinstance(caption, figures.Caption)
        # the rules captions.json is checked against
        assert len(caption.caption) <= 400 and 40 <= len(caption.alt) <= 1000
        assert f"Δ(q) = {s['sensitivity']:g}" in caption.caption
    for e in s["epsilons"]:
        assert f"{e:g}" in one.caption and f"{e:g} (" in one.alt
    z50 = laplace.noise_at_probability(0.5, s["sensitivity"], s["epsilon"])
    assert f"at ε = {s['epsilon']:g}." in one.caption and plot._amount(z50) in one.alt
    assert f"re = {100 * s['re']:g}% (a)" in two.caption
    assert f"ε = {s['reading_epsilon']:g} (b)" in two.caption
    assert f"pr = {100 * s['pr']:g}%)" in two.caption
    for p in s["prs"]:
        assert f"{100 * p:g}%" in two.caption


def test_the_other_setting_changes_every_parameter_a_caption_names():
    paper, other = SETTINGS["paper"], SETTINGS["other"]
    assert all(paper[key] != other[key] for key in paper)
    one = plot.fig1_caption(*_figure_1(paper))
    assert one != plot.fig1_caption(*_figure_1(other))
    assert "ε = 0.01, 0.02 and 0.05 at Δ(q) = 1 (the paper's text names only ε = 0.01)" in (
        one.caption
    )
    assert "the dots mark the magnitudes, 69 and 120, exceeded" in one.caption
