"""The synthesis's figure: (a) and (b) on one ε axis, one marker per drawable method, the
feasible interval shaded only when there is one; (c) the risk scale, every method's answer and
every deployment with a stated guarantee, and the data frame the committed run saved."""

import math

import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import Rectangle
from scipy import optimize

from choosing_epsilon import risk
from choosing_epsilon.harness.paths import DATA, FIGURES
from choosing_epsilon.papers.synthesis import figures as plot
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis import synthesis as synth
from choosing_epsilon.plots import style
from tests.test_synthesis import SURVEY, committed_results, default_table


@pytest.fixture(scope="module")
def deployments():
    return registry.read_any(DATA / "deployments_registry", DATA / "epsilon_registry.csv")


@pytest.fixture(scope="module")
def scale(deployments):
    return synth.risk_scale(default_table(), deployments)


def draw(methods, scale, interval, provenance=None):
    return plot.methods_and_deployments(
        methods, scale, interval, SURVEY.mechanism, SURVEY.lee_mechanism, provenance
    )


def test_two_panels_on_one_epsilon_axis_and_the_risk_scale_below(scale):
    methods = default_table()
    interval = committed_results()["feasible_interval"]
    fig, frame = plot.methods_and_deployments(
        methods, scale, interval, SURVEY.mechanism, SURVEY.lee_mechanism, None, calibrated_at()
    )
    ax, ax_b, ax_r, _ax_d, _ax_e, ax_f = fig.axes
    assert ax_f.get_title("left").startswith("(f) the deployments whose unit is a day or a month")
    # panel (f): each time-bounded deployment, one unit and over a year (11 in the registry)
    assert len(ax_f.get_yticks()) == len(plot.over_time(scale)) == 11
    assert style.problems(fig) == []
    assert ax.get_title("left") == f"(a) one mechanism, every input public\n{SURVEY.mechanism}"
    assert " ".join(ax_b.get_title("left").split()).endswith(SURVEY.lee_mechanism)
    assert ax_r.get_title("left").startswith("(c) what an attacker testing one person's presence")
    assert ax.get_shared_x_axes().joined(ax, ax_b)
    assert not ax.get_shared_x_axes().joined(ax, ax_r)
    assert ax_b.get_xscale() == "log" and ax_r.get_xscale() == "linear"
    shared = methods[methods.panel == "(a)"].reset_index(drop=True)
    markers = [line for line in ax.get_lines() if len(line.get_xdata())]
    assert [line.get_xdata()[0] for line in markers] == shared.epsilon.tolist()
    (span,) = [p for p in ax.patches if p.get_label().startswith("feasible")]
    assert isinstance(span, Rectangle)
    assert [span.get_x(), span.get_x() + span.get_width()] == pytest.approx(interval)
    committed = pd.read_csv(FIGURES / "synthesis" / "methods_and_deployments.csv")
    assert list(frame.columns) == list(committed.columns)
    numbers = ["epsilon", "advantage", "tpr_at_fpr_1pct", "accuracy_at_half"]
    for column in numbers:
        assert np.allclose(frame[column], committed[column], rtol=1e-9, equal_nan=True)
    text = ["method", "panel", "kind", "row", "guarantee"]
    pd.testing.assert_frame_equal(frame[text].fillna(""), committed[text].fillna(""))


def test_every_placed_row_has_its_advantage_tpr_and_words(scale):
    fig, _ = draw(default_table(), scale, committed_results()["feasible_interval"])
    ax_r = fig.axes[2]
    rows = plot.placed(scale)
    labels = [t.get_text() for t in ax_r.get_yticklabels()]
    assert len(labels) == len(rows)
    assert all(
        label.endswith(f"({plot.guarantee_text(r)})") for label, r in zip(labels, rows.itertuples())
    )
    points = [line for line in ax_r.get_lines() if len(line.get_xdata())]
    advantages = [p.get_xdata()[0] for p in points if p.get_marker() == "o"]
    rates = [p.get_xdata()[0] for p in points if p.get_marker() == "D"]
    assert advantages == pytest.approx(rows.advantage.tolist(), rel=1e-12)
    assert rates == pytest.approx(rows.tpr_at_fpr_1pct.tolist(), rel=1e-12)
    words = [t.get_text() for t in ax_r.texts]
    assert words == [risk.in_100(a) for a in rows.accuracy_at_half]
    # the methods first, then the deployments from the smallest advantage up
    deployed = rows[rows.kind == "deployment"].advantage.to_numpy()
    assert (rows.kind.iloc[: (rows.kind == "method").sum()] == "method").all()
    assert np.all(np.diff(deployed) >= 0)


def test_an_advantage_and_a_tpr_that_coincide_stay_apart_and_titles_stay_inside(scale):
    """Where the advantage and the TPR at 1% lie within 0.01 of each other (both near 0 or 1:
    22 rows at the defaults), their markers still do not overlap, and no text leaves the
    figure."""
    fig, _ = draw(default_table(), scale, committed_results()["feasible_interval"])
    ax_r = fig.axes[2]
    fig.canvas.draw()
    rows = plot.placed(scale)
    close = (rows.advantage - rows.tpr_at_fpr_1pct).abs() < 0.01
    assert close.sum() >= 20  # the case the offset is for
    points = [line for line in ax_r.get_lines() if len(line.get_xdata())]
    circles = [p for p in points if p.get_marker() == "o"]
    diamonds = [p for p in points if p.get_marker() == "D"]
    for i in np.flatnonzero(close.to_numpy()):
        centres = [
            ax_r.transData.transform((p.get_xdata()[0], p.get_ydata()[0]))
            for p in (circles[i], diamonds[i])
        ]
        apart = np.hypot(*(centres[0] - centres[1]))
        sizes = (circles[i].get_markersize() + diamonds[i].get_markersize()) / 2
        assert apart >= sizes * fig.dpi / 72, rows.row.iloc[i]  # marker sizes are in points
    renderer = fig.canvas.get_renderer()
    for text in [ax.title for ax in fig.axes] + [ax._left_title for ax in fig.axes]:
        box = text.get_window_extent(renderer)
        assert box.x1 <= fig.bbox.x1 + 0.5 and box.x0 >= fig.bbox.x0 - 0.5, text.get_text()


def test_the_committed_risk_scale_has_the_issues_columns_and_every_row(deployments):
    committed = pd.read_csv(FIGURES / "synthesis" / "risk_scale.csv")
    assert list(committed.columns) == [
        "row", "kind", "model", "local", "epsilon", "delta", "rho", "mu", "advantage",
        "tpr_at_fpr_1pct", "accuracy_at_half", "reading", "single_out_10_bound",
        "single_out_10_attained", "single_out_1000_bound", "single_out_1000_attained",
        "singling_out_reading", "unit_protects", "unit_period", "units_in_horizon",
        "advantage_over_horizon", "advantage_over_horizon_attained",
        "tpr_at_fpr_1pct_over_horizon", "horizon_reading",
    ]  # fmt: skip
    assert (committed.kind == "deployment").sum() == len(deployments)
    # every placed row names its model's exact reading; an unplaced one says why
    placed = committed.advantage.notna()
    assert list(committed.reading[placed]) == [risk.READINGS[m] for m in committed.model[placed]]
    assert committed.reading[~placed].str.startswith("not placed").all()
    methods = default_table()
    assert (committed.kind == "method").sum() == synth.has_epsilon(methods.epsilon).sum()
    assert set(committed.model.dropna()) <= set(risk.MODELS)
    # the closed form of each pure row, and zCDP never below the Gaussian with its ρ
    pure = committed[committed.model == "pure"]
    assert np.allclose(pure.advantage, np.tanh(pure.epsilon / 2), rtol=1e-9)
    zcdp = committed[committed.model == "zcdp"]
    gaussian = [risk.advantage(risk.gdp(risk.gaussian_mu_for_rho(r))) for r in zcdp.rho]
    assert np.all(zcdp.advantage.to_numpy() >= np.array(gaussian) - 1e-12)
    # each zCDP row at the exact reading: randomized response whose KL divergence is ρ
    for rho, adv in zip(zcdp.rho, zcdp.advantage):
        eps = optimize.brentq(lambda e, r=rho: e * np.tanh(e / 2) - r, 1e-9, rho + 40, xtol=1e-14)
        assert adv == pytest.approx(np.tanh(eps / 2), abs=1e-9)


def test_the_caption_follows_the_interval_and_the_scale(scale):
    interval = committed_results()["feasible_interval"]
    words = plot.caption(20000, interval, scale)
    assert f"[{interval[0]:.3g}, {interval[1]:.3g}]" in words.caption
    placed = scale[(scale.kind == "deployment") & scale.advantage.notna()]
    assert f"{len(placed)} of {(scale.kind == 'deployment').sum()} published" in words.caption
    none = plot.caption(200, None, scale)
    assert "no ε meets every bound" in none.caption
    assert "shaded green" not in none.alt and "shaded green" in words.alt


def test_no_interval_no_shading_and_a_method_without_epsilon_says_so(deployments):
    """A method with no ε keeps its row in (a) and (b), in words, and in (c), where it has no
    place on the scale: its row there says why (the scale's row too), none is dropped."""
    methods = default_table()
    methods.loc[methods.panel == "(b)", "epsilon"] = math.nan
    methods.loc[methods.method == "Hsu et al., accuracy at N", "epsilon"] = math.nan
    scale = synth.risk_scale(methods, deployments)
    fig, frame = draw(methods, scale, None)
    ax, ax_b, ax_r, _ax_e, _ax_f = fig.axes
    assert not any(p.get_label().startswith("feasible") for p in ax.patches)
    assert ax.get_title("left").startswith(
        "(a) one mechanism, every input public: no ε is feasible"
    )
    assert [t.get_text() for t in ax.texts] == ["ε none: unmet (see the table)"]
    assert [t.get_text() for t in ax_b.texts] == ["ε none: unmet (see the table)"] * 2
    assert style.problems(fig) == []
    rows = scale[scale.kind == "method"]
    assert rows.row.tolist() == methods.method.tolist()
    assert rows.advantage.notna().sum() == synth.has_epsilon(methods.epsilon).sum() == 7
    assert set(rows.reading[rows.advantage.isna()]) == {"not placed: no ε meets the requirement"}
    # in (c), the three rows say so in words, where the others have their marks
    said = [t.get_text() for t in ax_r.texts if t.get_text() == "no ε meets the requirement"]
    assert len(said) == 3
    labels = [t.get_text() for t in ax_r.get_yticklabels()]
    assert labels[:2] == [f"{m} (not placed)" for m in methods.method[:2]]
    assert (frame[frame.panel == "(c)"].kind == "method").sum() == 10


def test_drawable_keeps_finite_positive_epsilons_in_order():
    methods = synth.methods_table(
        [
            synth.MethodRow(name, eps, "lower (utility)", "(a)", "", "", "no", "")
            for name, eps in [("a", 0.1), ("b", math.nan), ("c", 0.0), ("d", math.inf), ("e", 2)]
        ]
    )
    kept = plot.drawable(methods, "(a)")
    assert kept.method.tolist() == ["a", "e"] and kept.index.tolist() == [0, 1]


def test_the_line_of_an_own_data_run_clears_panel_as_title(scale):
    """With a file's provenance under the title (a 50,000-row Parquet of incomes), no two texts
    overlap: the line used to be drawn over panel (a)'s title."""
    methods = default_table()
    interval = committed_results()["feasible_interval"]
    line = "read from incomes.parquet: n = 50,000 rows, and for (b) every value's count"
    fig, _ = draw(methods, scale, interval, line)
    assert [t.get_text() for t in fig.texts if t is not fig._suptitle] == [line]
    assert style.overlapping_texts(fig) == []
    two_lines = line + "\nand a second line of provenance"
    fig, _ = draw(methods, scale, interval, two_lines)
    assert style.overlapping_texts(fig) == []


@pytest.mark.parametrize(
    ("released", "lines"),
    [
        ("the survey mean", 1),
        ("the mean of income", 1),
        ("the mean of " + "x" * 60, 2),
        ("the mean of " + "a long column name " * 6 + "in dollars", 3),
    ],
)
def test_the_title_names_the_released_statistic_and_breaks_where_long(scale, released, lines):
    """A reader's column is named in the title, not called the survey mean; a title too long
    for one line breaks in two, and its provenance line and every text stay clear and inside."""
    line = "read from incomes.csv: n = 3,000 rows, and for (b) every value's count"
    fig, _ = plot.methods_and_deployments(
        default_table(),
        scale,
        committed_results()["feasible_interval"],
        SURVEY.mechanism,
        SURVEY.lee_mechanism,
        None if released == "the survey mean" else line,
        released=released,
    )
    title = fig._suptitle.get_text()
    assert title.replace("\n", " ") == (
        f"Every method's ε for {released}, and what an attacker can do at it and in deployment"
    )
    assert title.count("\n") + 1 == lines
    assert style.problems(fig) == []


def test_a_registry_too_long_to_name_is_drawn_one_row_per_model(deployments):
    """300 deployments: panel (c) keeps a readable height, one row per model, every one marked."""
    many = pd.concat([deployments] * 8, ignore_index=True)[:300]
    many = many.assign(label=[f"deployment {i}" for i in range(300)])
    scale = synth.risk_scale(default_table(), many)
    fig, _frame = draw(default_table(), scale, committed_results()["feasible_interval"])
    ax_r = fig.axes[2]
    assert style.problems(fig) == []
    assert fig.get_size_inches()[1] < 17  # (a) to (c) within 14 in, and (e)'s fixed 3.5 in
    placed = scale[(scale.kind == "deployment") & scale.advantage.notna()]
    marked = sum(len(line.get_xdata()) for line in ax_r.get_lines())
    assert marked == len(placed) and "too many to name" in ax_r.get_title("left")
    words = plot.caption(20000, None, scale)
    assert "one row per privacy model" in words.alt


# --- panel (d): the noise for the stated risk by both routes ---------------------------------


def calibrated_at(**changes):
    from choosing_epsilon.harness import parameters
    from choosing_epsilon.papers.synthesis import run as synthesis_run

    return synthesis_run.noise_for_risk_table(
        SURVEY, parameters.committed_values("synthesis") | changes
    )


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"max_advantage": 1e-6, "max_tpr": 0.0100001},
        {"max_advantage": 0.999999, "max_tpr": 0.999999},
    ],
    ids=["defaults", "risks near 0", "risks near 1"],
)
def test_panel_d_marks_both_routes_and_their_ratio(scale, changes):
    calibrated = calibrated_at(**changes)
    fig, frame = plot.methods_and_deployments(
        default_table(), scale, committed_results()["feasible_interval"], SURVEY.mechanism,
        SURVEY.lee_mechanism, None, calibrated,
    )  # fmt: skip
    assert style.problems(fig) == []
    ax_d = fig.axes[3]
    assert ax_d.get_title("left").startswith("(d) the mean's noise for the risk you state")
    assert ax_d.get_xscale() == "log" and "years" in ax_d.get_xlabel()
    points = [line for line in ax_d.get_lines() if len(line.get_xdata()) == 1]
    aware = [p.get_xdata()[0] for p in points if p.get_marker() == "o"]
    standard = [p.get_xdata()[0] for p in points if p.get_marker() == "s"]
    assert aware == pytest.approx(calibrated.noise_aware.tolist(), rel=1e-12)
    finite = calibrated.noise_standard[np.isfinite(calibrated.noise_standard)]
    assert standard == pytest.approx(finite.tolist(), rel=1e-12)
    low, high = ax_d.get_xlim()
    assert low < min(aware + standard) and max(aware + standard) < high  # every marker shown
    words = [t.get_text() for t in ax_d.texts]
    assert words == [plot.ratio_text(r) for r in calibrated.noise_ratio]
    assert list(frame[frame.panel == "(d)"].noise_ratio) == list(calibrated.noise_ratio)
    words = plot.caption(20000, committed_results()["feasible_interval"], scale, calibrated)
    assert words.problems() == []
    assert "(d) gives the noise meeting each stated risk" in words.caption
    assert len(words.caption) <= 400


def test_panel_d_says_where_the_standard_route_has_no_noise():
    assert plot.ratio_text(math.inf) == "standard: none"
    assert plot.ratio_text(1.0000000000000002) == "× 1 (the same)"
    assert plot.ratio_text(4.394188) == "× 4.39"
    strict = calibrated_at(max_advantage=1e-6)
    assert strict.noise_standard.iloc[0] == math.inf
    words = plot.caption(20000, None, default_scale(), strict).caption
    finite = strict.noise_ratio[np.isfinite(strict.noise_ratio)]
    assert f"needing {finite.min():.3g} to {finite.max():.3g} times as much; (e)" in words


def default_scale():
    deployments = registry.read_any(DATA / "deployments_registry", DATA / "epsilon_registry.csv")
    return synth.risk_scale(default_table(), deployments)


def test_a_calibration_row_names_its_delta_without_rounding_it_to_one():
    """Panel (d) wrote δ = 0.999 as "δ = 1" (two significant figures): a δ of 1 allows anything."""
    from types import SimpleNamespace

    row = SimpleNamespace(mechanism="Gaussian", target="advantage ≤ 0.25", delta=0.999)
    assert plot.calibration_label(row) == "Gaussian σ, advantage ≤ 0.25 (δ = 0.999)"
    row.delta = 1e-05
    assert plot.calibration_label(row).endswith("(δ = 1e-05)")


def test_what_does_not_apply_is_marked_with_its_reason_in_every_panel():
    """Shoaran et al. at L = 0 and a TPR risk at its FPR do not apply: (a) and (c) say why on the
    method's row, (d) has a row for the risk saying why, the caption names both; nothing of it
    departs from the style, and nothing is dropped silently."""
    from choosing_epsilon.harness import parameters
    from choosing_epsilon.papers.synthesis import run as synthesis_run

    v = parameters.committed_values("synthesis") | {"lower_bound": 0.0, "max_tpr": 0.01}
    survey, methods = synthesis_run.survey_and_methods(v)
    window = synth.feasibility(methods)
    scale = synth.risk_scale(methods, synthesis_run.deployments(v))
    calibrated = synthesis_run.noise_for_risk_table(survey, v)
    skipped = synthesis_run.inapplicable_risks(v)
    fig, frame = plot.methods_and_deployments(
        methods, scale, window.interval, survey.mechanism, survey.lee_mechanism, None,
        calibrated, survey.unit, skipped,
    )  # fmt: skip
    ax, _ax_b, ax_r, ax_d, _ax_e, _ax_f = fig.axes
    assert style.problems(fig) == []
    why = synth.not_applicable(methods)[SHOARAN]
    # on one line, its first words: what to give; the table says the rest
    note = registry.in_whole_words(f"not applicable: {why}", plot.NOTE_CHARACTERS)
    assert note.startswith("not applicable: L = 0: give lower_bound") and "\n" not in note
    assert [t.get_text() for t in ax.texts] == [note]
    shoaran = methods.method[methods.panel == "(a)"].tolist().index(SHOARAN)
    assert ax.texts[0].get_position()[1] == shoaran  # on its own row
    assert note in [t.get_text() for t in ax_r.texts]
    labels = [t.get_text() for t in ax_r.get_yticklabels()]
    assert labels[methods.method.tolist().index(SHOARAN)].endswith("(not placed)")
    assert (frame[frame.panel == "(c)"].row == SHOARAN).sum() == 1
    # (d): the two advantage rows, then the risk that does not apply, in words
    (target, reason) = next(iter(skipped.items()))
    assert [t.get_text() for t in ax_d.get_yticklabels()][-1] == target
    said = ax_d.texts[-1].get_text()
    shown = registry.in_whole_words(f"not applicable: {reason}", plot.NOTE_CHARACTERS)
    assert said == shown and said.startswith("not applicable: a test accusing at random")
    one = plot.caption(survey.n_people, window.interval, scale, calibrated, [SHOARAN])
    assert "lie in [0.0165, 0.0233] (Shoaran et al. does not apply);" in one.caption
    # both, by name, would pass 400 characters: how many, and where to look
    left_out = [*window.not_applicable, *skipped]
    words = plot.caption(survey.n_people, window.interval, scale, calibrated, left_out)
    assert "(2 do not apply: see the figure);" in words.caption
    for caption in (one, words):
        assert caption.problems() == [] and len(caption.caption) <= 400
        assert len(caption.alt) <= 1000
    assert "A row without a marker says in words why." in words.alt


SHOARAN = "Shoaran et al., MTA ≤ public lower bound of the mean"
