"""The figures of notebooks/laplace_intro.ipynb: each returns a figure with labelled axes and the
data frame it draws, thinned or binned past MAX_ROWS rows, keeps to the project's style at any
parameters, and has a caption built from the same data that names the parameters it was drawn at."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib import pyplot as plt

from choosing_epsilon import laplace
from choosing_epsilon.papers.laplace_intro import at_work
from choosing_epsilon.papers.laplace_intro import figures as plots
from choosing_epsilon.plots import figures, style


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


@pytest.mark.parametrize(
    ("center", "sensitivity"),
    [(1e300, 7.0), (5.0, 1e-15), (1e16, 7.0)],
    ids=["huge f(D)", "tiny sensitivity", "f(D) where floats step by 2"],
)
def test_output_perturbation_says_so_where_floats_cannot_tell_the_releases_apart(
    center, sensitivity
):
    """Noise far below the spacing of floats at f(D): 60 bins cannot be cut (matplotlib refuses),
    so the panel says why in words and the data keeps every distinct release and its count."""
    scale = laplace.scale(sensitivity, 0.5)
    releases = laplace.release(center, sensitivity, 0.5, np.random.default_rng(1), size=500)
    fig, frame = plots.output_perturbation(releases, center, scale, max_rows=100)
    (ax,) = fig.axes
    assert not ax.patches and not ax.get_lines()
    (note,) = ax.texts
    assert "too few" in note.get_text() and "floating-point steps" in note.get_text()
    assert style.problems(fig) == []
    assert list(frame.columns) == ["release", "count"] and frame["count"].sum() == 500
    caption = plots.output_perturbation_caption(releases, center, sensitivity, 0.5)
    assert caption.caption.startswith("No histogram of 500 releases") and not caption.problems()


def test_output_perturbation_draws_bins_just_inside_the_resolved_range():
    """The panel draws its histogram wherever the range holds enough floats (the other side of
    the bound above): f(D) = 1e12 with Δ/ε = 14 spans 224 in steps of 1.2e-4."""
    releases = laplace.release(1e12, 7, 0.5, np.random.default_rng(1), size=200)
    fig, _ = plots.output_perturbation(releases, 1e12, 14.0)
    (ax,) = fig.axes
    assert len(ax.patches) == 60 and not ax.texts


def test_scenarios_has_a_density_and_a_ratio_panel_per_epsilon():
    panels = [at_work.neighbour_densities(5, 12, 7, eps) for eps in (0.5, 10)]
    fig, frame = plots.scenarios(panels, 5, 12)
    assert len(fig.axes) == 4
    titles = [ax.get_title("left") for ax in fig.axes]
    assert (
        titles[0] == "(a) output densities, ε = 0.5" and titles[1] == "(b) output densities, ε = 10"
    )
    assert titles[2].startswith("(c) their ratio") and titles[3].startswith("(d) their ratio")
    ratio = fig.axes[3]
    assert [t.get_text() for t in ratio.get_yticklabels()] == ["4.54×10⁻⁵", "1", "2.20×10⁴"]
    assert ratio.get_ylabel() == "density ratio, log scale\n(p_D(a)/p_D′(a))"
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


# --- the style and the captions, at the notebook's defaults and at other parameters ---

DEFAULT = {"center": 5.0, "sensitivity": 7.0, "epsilon": 0.5, "epsilon_high": 10.0, "n": 1000}
OTHER = {"center": -3.0, "sensitivity": 2.0, "epsilon": 3.0, "epsilon_high": 1000.0, "n": 40}


def _drawn(p, seed=2):
    """Every figure of the notebook, with its caption, drawn from data computed at ``p``."""
    center, sensitivity, epsilon = p["center"], p["sensitivity"], p["epsilon"]
    neighbour = center + sensitivity
    releases = laplace.release(
        center, sensitivity, epsilon, np.random.default_rng(seed), size=p["n"]
    )
    scale = laplace.scale(sensitivity, epsilon)
    panels = [
        at_work.neighbour_densities(center, neighbour, sensitivity, eps)
        for eps in (epsilon, p["epsilon_high"])
    ]
    k = np.arange(1, p["n"] + 1)
    running, se = np.cumsum(releases) / k, np.sqrt(2) * scale / np.sqrt(k)
    loss = laplace.log_density_ratio(releases, center, neighbour, sensitivity, epsilon)
    return {
        "output_perturbation": (
            plots.output_perturbation(releases, center, scale)[0],
            plots.output_perturbation_caption(releases, center, sensitivity, epsilon),
        ),
        "scenarios": (
            plots.scenarios(panels, center, neighbour)[0],
            plots.scenarios_caption(panels, center, neighbour, sensitivity),
        ),
        "averaging_attack": (
            plots.averaging_attack(k, running, se, center)[0],
            plots.averaging_attack_caption(k, running, se, center),
        ),
        "privacy_loss": (
            plots.privacy_loss(releases, loss, epsilon)[0],
            plots.privacy_loss_caption(loss, epsilon),
        ),
    }


@pytest.mark.parametrize("params", [DEFAULT, OTHER], ids=["defaults", "other"])
def test_every_figure_keeps_to_the_style(params):
    for name, (fig, _) in _drawn(params).items():
        figures._log_axes(fig)  # as save_figure does before its check
        assert style.problems(fig) == [], name
        plt.close(fig)


def test_the_scenarios_panels_are_lettered_and_the_reference_lines_differ_in_dash():
    drawn = _drawn(DEFAULT)
    titles = [ax.get_title("left") for ax in drawn["scenarios"][0].axes]
    assert [t[:4] for t in titles] == ["(a) ", "(b) ", "(c) ", "(d) "]
    (ax,) = drawn["averaging_attack"][0].axes
    mean, reference = ax.get_lines()
    assert mean.get_linestyle() != reference.get_linestyle()


def test_captions_are_valid_and_follow_the_parameters():
    default, other = _drawn(DEFAULT), _drawn(OTHER)
    for name in default:
        caption, changed = default[name][1], other[name][1]
        assert isinstance(caption, figures.Caption) and isinstance(changed, figures.Caption)
        # the rules of a caption are checked again on the text as stored
        assert figures.Caption(caption=changed.caption, alt=changed.alt).problems() == []
        assert caption.caption != changed.caption and caption.alt != changed.alt, name
    assert "ε = 0.5" in default["output_perturbation"][1].caption
    assert "ε = 3" in other["output_perturbation"][1].caption
    assert "Δ(f) = 2" in other["output_perturbation"][1].caption
    assert "40 releases" in other["averaging_attack"][1].caption
    assert "ε = 1000" in other["scenarios"][1].caption
    # e^1000 overflows a float: the bound is written as a power of ten
    assert laplace.ratio_label(1000.0) in other["scenarios"][1].caption
    assert "e^(−ε)/2 = 0.0249" in other["privacy_loss"][1].caption  # e^−3/2 = 0.02489...


def test_the_privacy_loss_alt_text_counts_the_histogram_bins():
    loss = np.array([0.5, 0.5, 0.5, -0.5, 0.0])
    alt = plots.privacy_loss_caption(loss, 0.5).alt
    assert "+ε holds 60.0%" in alt and "−ε 20.0%" in alt and "between them 20.0%" in alt


def test_tables_are_shown_to_a_few_significant_figures_and_saved_at_full_precision(
    tmp_path, capsys
):
    ages = plots.range_table([(0, 110), (0, 300)], [0.11, 0.3], 0.5)
    assert list(ages["range"]) == ["0-110", "0-300"]
    np.testing.assert_allclose(ages["noise scale at ε = 0.5"], [0.22, 0.6], rtol=1e-12)
    np.testing.assert_allclose(ages["noise std (years)"], np.sqrt(2) * np.array([0.22, 0.6]))
    table = plots.neighbour_table(3, (1, 4), (110 / 3, 55.0), (110 / 3, 55.0))
    assert list(table["which formula"]) == ["(ub - lb)/n, n = 3", "(ub - lb)/(m + 1), m = 1"]
    figures.write_into(tmp_path)
    try:
        plots.show_significant(pd.DataFrame({"x": [110 / 3]}), "narrow", 4)
        shown = capsys.readouterr().out
        plots.show_neighbour_sensitivities(table)
    finally:
        figures.write_into(None)
    assert "36.67" in shown and "36.666" not in shown  # four significant figures
    assert pd.read_csv(tmp_path / "narrow.csv")["x"][0] == pytest.approx(110 / 3, rel=1e-9)
    saved = pd.read_csv(tmp_path / "mean_sensitivity_neighbours.csv")
    assert saved["brute force"][0] == pytest.approx(110 / 3, rel=1e-9)  # not rounded to 4


def test_the_input_perturbation_table_is_saved_with_its_index(tmp_path):
    table = pd.DataFrame({"f(D)": [1 / 3]}, index=pd.Index(["mean"], name="statistic f"))
    figures.write_into(tmp_path)
    try:
        plots.show_input_perturbation(table)
    finally:
        figures.write_into(None)
    saved = pd.read_csv(tmp_path / "input_perturbation_mean.csv", index_col=0)
    assert list(saved.index) == ["mean"] and saved["f(D)"].iloc[0] == pytest.approx(1 / 3)
