"""The synthesis's figure: three panels on one ε axis, one marker per drawable method, the
feasible interval shaded only when there is one, every deployment named with its model and unit,
and the data frame the committed run saved."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import Rectangle

from choosing_epsilon import registry
from choosing_epsilon import synthesis as synth
from choosing_epsilon.harness.paths import DATA, FIGURES
from choosing_epsilon.plots import style
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


def test_three_panels_on_one_axis_with_a_marker_per_method_and_the_committed_frame(deployments):
    methods = default_table()
    interval = committed_results()["feasible_interval"]
    fig, frame = draw(methods, deployments, interval)
    ax, ax_b, ax_r = fig.axes
    assert style.problems(fig) == []
    assert fig._suptitle is not None  # matplotlib private: the figure's title
    assert fig._suptitle.get_text() == "Every method's ε for the survey mean, and ε in deployment"
    assert ax.get_title("left") == f"(a) one mechanism, every input public\n{SURVEY.mechanism}"
    assert ax_b.get_title("left").endswith(SURVEY.lee_mechanism)
    assert ax_r.get_title("left").startswith("(c) published deployments")
    # one ε axis: the three panels share it, and only the bottom one names it
    assert ax.get_shared_x_axes().joined(ax, ax_r) and ax.get_shared_x_axes().joined(ax_b, ax_r)
    assert ax_r.get_xscale() == "log" and ax_r.get_xlabel() == "privacy parameter (ε, log scale)"
    shared = methods[methods.panel == "(a)"].reset_index(drop=True)
    markers = [line for line in ax.get_lines() if len(line.get_xdata())]
    assert [line.get_xdata()[0] for line in markers] == shared.epsilon.tolist()
    assert [t.get_text() for t in ax.get_yticklabels()] == shared.method.tolist()
    assert [m.get_marker() for m in markers] == ["<", ">", ">", ">", ">", "<", "<"]
    feasible = [p for p in ax.patches if p.get_label().startswith("feasible")]
    (span,) = feasible
    assert isinstance(span, Rectangle)
    assert [span.get_x(), span.get_x() + span.get_width()] == pytest.approx(interval)
    # the band of the deployed ε, in every panel
    low, high = deployments.epsilon.min(), deployments.epsilon.max()
    for axis in (ax, ax_b, ax_r):
        bands = [p for p in axis.patches if p.get_facecolor()[:3] == (0.88, 0.88, 0.88)]
        assert len(bands) == 1
        assert [bands[0].get_x(), bands[0].get_x() + bands[0].get_width()] == pytest.approx(
            [low, high]
        )
    hollow = [line for line in ax_b.get_lines() if len(line.get_xdata())]
    assert len(hollow) == 2 and all(line.get_markerfacecolor() == "none" for line in hollow)
    assert any(p.get_hatch() == "///" for p in ax_b.patches)
    committed = pd.read_csv(FIGURES / "synthesis" / "methods_and_deployments.csv")
    assert list(frame.columns) == list(committed.columns)
    assert np.allclose(frame.epsilon, committed.epsilon, rtol=1e-9)
    text = [c for c in committed.columns if c not in ("epsilon", "delta")]
    pd.testing.assert_frame_equal(frame[text].fillna(""), committed[text].fillna(""))


def test_every_deployment_is_named_with_its_model_and_unit(deployments):
    """Each registry row has its row in panel (c), from the smallest ε to the largest: its label
    on the axis, its model's marker (hollow when local) at its ε, and its unit beside it."""
    fig, _ = draw(default_table(), deployments, committed_results()["feasible_interval"])
    ax_r = fig.axes[2]
    rows = deployments.sort_values(["epsilon", "label"], kind="stable").reset_index(drop=True)
    assert [t.get_text() for t in ax_r.get_yticklabels()] == rows.label.tolist()
    points = [line for line in ax_r.get_lines() if len(line.get_xdata())]
    assert len(points) == len(deployments) == 27
    shapes = {"ε-DP": "o", "(ε, δ)-DP": "s", "zCDP": "D", "not stated": "^"}
    for i, (line, row) in enumerate(zip(points, rows.itertuples())):
        assert (line.get_xdata()[0], line.get_ydata()[0]) == (row.epsilon, i)
        assert line.get_marker() == shapes[row.model.removesuffix(", local")]
        assert (line.get_markerfacecolor() == "none") == row.model.endswith(", local")
    units = [t.get_text() for t in ax_r.texts]
    assert units == rows.unit.tolist()
    assert 0 < sum(unit != "unit not stated" for unit in units) < len(units)


def test_every_registry_row_is_in_the_committed_figure_data_with_label_model_and_unit(deployments):
    committed = pd.read_csv(FIGURES / "synthesis" / "methods_and_deployments.csv", dtype=str)
    deployed = committed[committed.kind == "deployment"].set_index("method")
    assert len(deployed) == len(deployments)
    for row in deployments.itertuples():
        assert row.label in deployed.index, f"{row.label} is not in the figure's data"
        drawn = deployed.loc[row.label]
        assert (drawn.organization, drawn.context) == (row.Organization, row.Context)
        assert (drawn.model, drawn.unit) == (row.model, row.unit)
        assert float(drawn.epsilon) == pytest.approx(row.epsilon, rel=1e-9)


def test_the_caption_follows_the_interval_and_the_registry(deployments):
    interval = committed_results()["feasible_interval"]
    words = plot.caption(20000, interval, deployments)
    assert f"[{interval[0]:.3g}, {interval[1]:.3g}]" in words.caption
    assert "27 published deployments (0.2 to 49.95" in words.caption
    assert "the registry gives the privacy unit of 5 of them." in words.caption
    assert "not comparable" in words.caption
    none = plot.caption(200, None, deployments.head(3))
    assert "no ε meets every bound" in none.caption and "3 published" in none.caption
    assert "the privacy unit of none of them." in none.caption  # the first three state none
    assert "shaded green" not in none.alt and "shaded green" in words.alt


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
    assert ax.get_title("left").startswith(
        "(a) one mechanism, every input public: no ε is feasible"
    )
    assert [t.get_text() for t in ax.texts] == ["ε none: unmet (see the table)"]
    assert [t.get_text() for t in ax_b.texts] == ["ε none: unmet (see the table)"] * 2
    assert [label.get_text() for label in ax.get_yticklabels()] == list(
        methods.method[methods.panel == "(a)"]
    )
    assert style.problems(fig) == []
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


def test_a_registry_too_long_to_name_is_drawn_one_row_per_model(deployments):
    """300 deployments: panel (c) keeps a readable height, one row per model, every ε marked."""
    many = pd.concat([deployments] * 12, ignore_index=True)[:300]
    many = many.assign(label=[f"deployment {i}" for i in range(300)])
    fig, frame = draw(default_table(), many, committed_results()["feasible_interval"])
    ax_r = fig.axes[2]
    assert style.problems(fig) == []
    assert fig.get_size_inches()[1] < 12
    models = sorted(many.model.unique())
    assert [t.get_text() for t in ax_r.get_yticklabels()] == models
    marked = sum(len(line.get_xdata()) for line in ax_r.get_lines())
    assert marked == 300 and "too many to name" in ax_r.get_title("left")
    assert (frame.kind == "deployment").sum() == 300
    words = plot.caption(20000, None, many)
    assert "one row per privacy model" in words.alt
