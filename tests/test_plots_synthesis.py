"""The synthesis's figure: three panels on their own ε axes, one marker per drawable method, the
feasible interval shaded only when there is one, and the data frame the committed run saved."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import Rectangle

from choosing_epsilon import registry
from choosing_epsilon import synthesis as synth
from choosing_epsilon.paths import DATA, FIGURES
from choosing_epsilon.plots import synthesis as plot
from tests.test_synthesis import SURVEY, committed_results, default_table


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def deployments():
    return registry.load_registry(DATA / "epsilon_registry.csv")


def draw(methods, deployments, interval):
    return plot.methods_and_deployments(
        methods, deployments, interval, SURVEY.mechanism, SURVEY.lee_mechanism
    )


def test_three_panels_with_a_marker_per_method_and_the_committed_frame(deployments):
    methods = default_table()
    interval = committed_results()["feasible_interval"]
    fig, frame = draw(methods, deployments, interval)
    ax, ax_b, ax_r = fig.axes
    assert fig._suptitle is not None  # matplotlib private: the figure's title
    assert fig._suptitle.get_text() == "Every method's ε for the survey mean, and ε in deployment"
    assert ax.get_title() == f"(a) one mechanism, every input public\n{SURVEY.mechanism}"
    assert ax_b.get_title().endswith(SURVEY.lee_mechanism)
    assert ax_r.get_title().startswith("(c) published deployments")
    for axis in (ax, ax_b, ax_r):
        assert axis.get_xscale() == "log" and axis.get_xlabel() == "ε (log scale)"
    shared = methods[methods.panel == "(a)"].reset_index(drop=True)
    markers = [line for line in ax.get_lines() if len(line.get_xdata())]
    assert [line.get_xdata()[0] for line in markers] == shared.epsilon.tolist()
    assert [t.get_text() for t in ax.get_yticklabels()] == shared.method.tolist()
    assert [m.get_marker() for m in markers] == ["<", ">", ">", ">", ">", "<", "<"]
    (span,) = ax.patches  # the feasible interval, shaded
    assert span.get_label().startswith("feasible")
    assert isinstance(span, Rectangle)
    assert [span.get_x(), span.get_x() + span.get_width()] == pytest.approx(interval)
    hollow = [line for line in ax_b.get_lines() if len(line.get_xdata())]
    assert len(hollow) == 2 and all(line.get_markerfacecolor() == "none" for line in hollow)
    assert any(p.get_hatch() == "///" for p in ax_b.patches)
    dots, squares = ax_r.get_lines()
    assert len(dots.get_xdata()) + len(squares.get_xdata()) == len(deployments) == 27
    assert len(squares.get_xdata()) == deployments.delta.notna().sum()
    committed = pd.read_csv(FIGURES / "synthesis" / "methods_and_deployments.csv")
    assert list(frame.columns) == list(committed.columns)
    assert np.allclose(frame.epsilon, committed.epsilon, rtol=1e-9)
    text = [c for c in committed.columns if c != "epsilon"]
    pd.testing.assert_frame_equal(frame[text].fillna(""), committed[text].fillna(""))


def test_no_interval_no_shading_and_a_method_without_epsilon_says_so(deployments):
    """A method with no ε keeps its row, in words; an infeasible (a) says so in its title."""
    methods = default_table()
    lee = methods.panel == "(b)"
    methods.loc[lee, "epsilon"] = math.nan  # ρ below the prior: no ε for Lee & Clifton
    hsu = methods.method == "Hsu et al., accuracy at N"
    methods.loc[hsu, "epsilon"] = math.nan  # the sampling term alone exceeds α: no ε
    fig, frame = draw(methods, deployments, None)
    ax, ax_b, _ = fig.axes
    assert not any(p.get_label().startswith("feasible") for p in ax.patches)
    assert ax.get_title().startswith("(a) one mechanism, every input public: no ε is feasible")
    assert [t.get_text() for t in ax.texts] == ["ε none: unmet (see the table)"]
    assert [t.get_text() for t in ax_b.texts] == ["ε none: unmet (see the table)"] * 2
    assert [label.get_text() for label in ax.get_yticklabels()] == list(
        methods.method[methods.panel == "(a)"]
    )
    assert ax_b.get_xticks().size == 0
    assert (frame.panel == "(b)").sum() == 2 and frame.epsilon[frame.panel == "(b)"].isna().all()


def test_drawable_keeps_finite_positive_epsilons_in_order():
    methods = synth.methods_table(
        [
            synth.MethodRow(name, eps, "lower (utility)", "(a)", "", "", "no", "")
            for name, eps in [("a", 0.1), ("b", math.nan), ("c", 0.0), ("d", math.inf), ("e", 2)]
        ]
    )
    kept = plot.drawable(methods, "(a)")
    assert kept.method.tolist() == ["a", "e"] and kept.index.tolist() == [0, 1]


def test_a_line_under_the_title_says_what_was_read_from_a_file(deployments):
    methods = default_table()
    interval = committed_results()["feasible_interval"]
    fig, _ = draw(methods, deployments, interval)
    title = "Every method's ε for the survey mean, and ε in deployment"
    # the synthetic survey: as committed, the title alone
    assert fig._suptitle.get_text() == title
    assert [t for t in fig.texts if t is not fig._suptitle] == []
    line = "read from survey.parquet: n = 5,000 rows, and for (b) every value's count"
    fig, frame = plot.methods_and_deployments(
        methods, deployments, interval, SURVEY.mechanism, SURVEY.lee_mechanism, line
    )
    assert fig._suptitle.get_text() == title
    assert [t.get_text() for t in fig.texts if t is not fig._suptitle] == [line]
    assert len(frame) == len(draw(methods, deployments, interval)[1])
