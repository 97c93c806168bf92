"""The figures of the lee_clifton_2011 notebook: each function draws what its data says, with the
labelled axes and lines the notebook's prose refers to."""

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon.papers.lee_clifton_2011 import figures as plots
from choosing_epsilon.papers.lee_clifton_2011 import tabulate
from choosing_epsilon.plots import figures, style

matplotlib.use("Agg")

ANSWERS = np.array([2.0, 13 / 3, 14 / 3, 5.0])  # the world means of absence days (Sec. 4.1)
SCALE = 17 / 12  # Δf/ε at ε = 2


def labels_of(ax):
    return [line.get_label() for line in ax.get_lines()]


def test_density_labels_name_each_world_and_its_answer():
    assert plots.density_labels(ANSWERS, np.arange(4)) == [
        "ω1, f(ω1)=2",
        "ω2, f(ω2)=4.333",
        "ω3, f(ω3)=4.667",
        "ω4, f(ω4)=5",
    ]
    assert plots.density_labels(ANSWERS, np.array([0, 3])) == ["ω1, f(ω1)=2", "ω4, f(ω4)=5"]


def test_fig1_draws_one_laplace_density_per_world():
    labels = plots.density_labels(ANSWERS, np.arange(4))
    fig, data = plots.fig1_response_distributions(ANSWERS, SCALE, labels, "Fig. 1")
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "noisy response (γ)" and ax.get_ylabel() == "density"
    assert ax.get_title() == "Fig. 1" and labels_of(ax) == labels
    assert list(data.columns) == ["response", *labels]
    # 8.5 scales beyond the extreme answers: [-10, 17] at the paper's parameters (Sec. 4.1)
    assert ax.get_xlim() == pytest.approx((2 - 8.5 * SCALE, 5 + 8.5 * SCALE))
    # each curve peaks at its world's answer with the Laplace density's height 1/(2λ)
    for centre, label in zip(ANSWERS, labels):
        peak = data.loc[data[label].idxmax(), "response"]
        assert peak == pytest.approx(centre) and data[label].max() == pytest.approx(1 / (2 * SCALE))


def test_every_world_has_its_own_dash_and_a_shared_answer_is_drawn_thinner_over_the_first():
    _, ax = matplotlib.pyplot.subplots()
    plots.density_panel(ax, np.array([2.0, 2.0, 3.0, 3.0]), 2.0, ["a", "b", "c", "d"])
    lines = ax.get_lines()
    assert [line.get_linestyle() for line in lines] == ["-", "--", "-.", ":"]
    assert len({line.get_color() for line in lines}) == 4
    widths = [line.get_linewidth() for line in lines]
    assert widths[1] < widths[0] and widths[3] < widths[2] and widths[0] == widths[2]


def test_domain_label_lists_small_domains_and_summarises_large_ones():
    assert plots.domain_label([1, 2, 3, 10]) == "{1, 2, 3, 10}"
    assert plots.domain_label(np.arange(20.0)) == "20 values in [0, 19]"


def fig2(exact_year=1.2, exact_absence=0.4):
    grid = np.linspace(0, 5, 51)
    curves = {
        "school_year": pw.risk_curves([2, 2.5, 2.75, 3], 5 / 6, 1.0, grid),
        "absence_days": pw.risk_curves(ANSWERS, 17 / 6, 3.0, grid),
    }
    domains = {"school_year": "{1, 2, 3, 4}", "absence_days": "{1, 2, 3, 10}"}
    bounds = {"school_year": 0.3379, "absence_days": 0.3829}
    exacts = {"school_year": exact_year, "absence_days": exact_absence}
    return (
        grid,
        curves,
        plots.fig2_risk_upper_bound(grid, curves, domains, bounds, exacts, 1 / 3, 0.25),
    )


def test_fig2_has_a_panel_per_attribute_with_both_curves_and_the_admissible_epsilons():
    _, curves, (fig, data) = fig2()
    assert [ax.get_title("left") for ax in fig.axes] == [
        "(a) school_year: dom(X) = {1, 2, 3, 4}",
        "(b) absence_days: dom(X) = {1, 2, 3, 10}",
    ]
    for ax in fig.axes:
        assert ax.get_xlabel() == "privacy parameter (ε)"
        assert ax.get_ylabel() == "posterior probability of the true world"
        assert ax.get_xlim() == (0, 5)
    assert labels_of(fig.axes[1]) == [
        "β(ω1) at γ = f(ω1), Eq. (3)",
        "upper bound, Eq. (5)",
        "ρ = 0.3333",
        "Eq. (7) ε = 0.3829",
        "exact ε = 0.4000",
    ]
    assert list(data.columns) == ["attribute", "epsilon", "beta_true_world", "upper_bound_eq5"]
    assert data.attribute.unique().tolist() == ["school_year", "absence_days"]
    absence = data[data.attribute == "absence_days"]
    assert absence.beta_true_world.tolist() == curves["absence_days"][0].tolist()


def test_fig2_says_so_where_the_exact_epsilon_is_infinite():
    _, _, (fig, _) = fig2(exact_year=math.inf)
    assert "exact ε = ∞: the risk never exceeds ρ" in labels_of(fig.axes[0])


def test_fig3_draws_mean_and_median_panels():
    mean = (ANSWERS, SCALE, plots.density_labels(ANSWERS, np.arange(4)))
    medians = np.array([2.0, 2.0, 3.0, 3.0])
    median = (medians, 2.0, plots.density_labels(medians, np.arange(4)))
    fig, data = plots.fig3_mean_vs_median(mean, median, 2)
    assert [ax.get_title("left") for ax in fig.axes] == ["(a) mean, ε = 2", "(b) median, ε = 2"]
    assert set(data.panel) == {"a_mean", "b_median"}
    assert len(fig.axes[1].get_lines()) == 4


def test_fig3_says_so_where_the_median_needs_no_noise():
    mean = (ANSWERS, SCALE, plots.density_labels(ANSWERS, np.arange(4)))
    median = (np.full(4, 3.0), 0.0, ["a", "b", "c", "d"])
    fig, data = plots.fig3_mean_vs_median(mean, median, 2)
    assert not fig.axes[1].get_lines()
    assert "so the median needs no noise" in fig.axes[1].texts[0].get_text()
    assert data[data.panel == "b_median"].response.tolist() == [3.0] * 4


def test_monte_carlo_figure_shows_simulation_and_exact_curves():
    rng = np.random.default_rng(1)
    epsilons = [2, 0.5]
    simulated = pd.DataFrame(
        [tabulate.adversary_summary(ANSWERS, 17 / 6, e, 500, rng) for e in epsilons]
    )
    fine = np.geomspace(0.25, 4, 20)
    exact = pd.DataFrame(
        {
            "ε": fine,
            "guess right (exact)": [
                pw.guess_success_probability(ANSWERS, 0, 17 / 6, e) for e in fine
            ],
            "worst case, Eq. (3)": [pw.worst_case_risk(ANSWERS, 17 / 6, e) for e in fine],
        }
    )
    fig, data = plots.monte_carlo_figure(simulated, exact, 0.25, 500, "absence_days")
    (ax,) = fig.axes
    assert data is simulated
    assert ax.get_xscale() == "log" and ax.get_ylabel() == "probability"
    assert ax.get_title() == "The adversary on the mean of absence_days"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [
        "Pr(right guess), exact",
        "worst-case posterior, Eq. (3)",
        "mean posterior of ω1 (Monte Carlo)",
        "prior 1/n",
        "Monte Carlo, 500 responses",
    ]


def test_astronaut_figure_marks_the_astronaut_on_log_axes():
    crowd = np.random.default_rng(2).uniform(100, 20000, size=200)
    edge = crowd.max()
    sweep = tabulate.outlier_sweep(crowd, np.geomspace(1, 4e6, 12), 0.01)
    fig, data = plots.astronaut_figure(sweep, edge, 400000, 0.01, 200)
    assert data is sweep
    ax, ax_noise = fig.axes
    for panel in (ax, ax_noise):
        assert panel.get_xscale() == panel.get_yscale() == "log"
        assert panel.get_xlabel() == "distance beyond the farthest other alumnus (km)"
        assert "the astronaut (400,000 km from campus)" in labels_of(panel)
    assert ax.get_ylabel() == "largest admissible privacy parameter (ε, for ρ = 0.01)"
    assert labels_of(ax)[:2] == ["exact ε", "Eq. (7) ε"]
    assert ax_noise.get_ylabel() == "noise scale (Δf/ε, km)"


# --- the project's style and the captions, at the paper's parameters and at others ---------------

YEARS = np.array([2.0, 2.5, 2.75, 3.0])  # the world means of school year (Sec. 5.2)
MEDIANS = np.array([2.0, 2.0, 3.0, 3.0])  # the world medians of absence days (Table 4)
PAPER = {"epsilon": 2.0, "rho": 1 / 3, "n_trials": 500, "alumni_rho": 0.01, "outlier_km": 4e5}
# a smaller ε, a laxer threshold, more trials, another alumni threshold, an outlier in the crowd
OTHER = {"epsilon": 0.5, "rho": 0.5, "n_trials": 800, "alumni_rho": 0.05, "outlier_km": 15000.0}


def drawn(epsilon, rho, n_trials, alumni_rho, outlier_km):
    """Every figure of the notebook with its caption, {name: (figure, caption)}."""
    shown = np.arange(4)
    scale = 17 / 6 / epsilon
    labels = plots.density_labels(ANSWERS, shown)
    fig1 = plots.fig1_response_distributions(ANSWERS, scale, labels, "Fig. 1")[0]
    grid = np.linspace(0, 5, 101)
    worlds = {"school_year": (YEARS, 5 / 6, 1.0), "absence_days": (ANSWERS, 17 / 6, 3.0)}
    curves = {a: pw.risk_curves(x, df, dv, grid) for a, (x, df, dv) in worlds.items()}
    bounds = {a: pw.epsilon_upper_bound(4, dv, df, rho) for a, (_, df, dv) in worlds.items()}
    exacts = {a: pw.exact_epsilon(x, df, rho) for a, (x, df, _) in worlds.items()}
    domains = {"school_year": "{1, 2, 3, 4}", "absence_days": "{1, 2, 3, 10}"}
    fig2 = plots.fig2_risk_upper_bound(grid, curves, domains, bounds, exacts, rho, 0.25)[0]
    mean, median = (ANSWERS, scale), (MEDIANS, 4 / epsilon)
    medians = (MEDIANS, 4 / epsilon, plots.density_labels(MEDIANS, shown))
    fig3 = plots.fig3_mean_vs_median((ANSWERS, scale, labels), medians, epsilon)[0]
    rng = np.random.default_rng(3)
    eps = [0.1, epsilon, 5]
    simulated = pd.DataFrame(
        [tabulate.adversary_summary(ANSWERS, 17 / 6, e, n_trials, rng) for e in eps]
    )
    fine = np.geomspace(0.05, 10, 30)
    exact = pd.DataFrame(
        {
            "ε": fine,
            "guess right (exact)": [
                pw.guess_success_probability(ANSWERS, 0, 17 / 6, e) for e in fine
            ],
            "worst case, Eq. (3)": [pw.worst_case_risk(ANSWERS, 17 / 6, e) for e in fine],
        }
    )
    mc = (simulated, exact, 0.25, n_trials, "absence_days")
    crowd = np.random.default_rng(2).uniform(100, 20000, size=199)
    edge = crowd.max()
    sweep = tabulate.outlier_sweep(crowd, np.geomspace(1, 4e6, 12), alumni_rho)
    astronaut = pw.epsilon_for_risk(np.append(crowd, outlier_km), alumni_rho, "mean").exact
    outlier = (sweep, edge, outlier_km, alumni_rho, 200)
    return {
        "fig1": (fig1, plots.fig1_caption("absence_days", epsilon, ANSWERS, scale, shown)),
        "fig2": (fig2, plots.fig2_caption(grid, curves, bounds, exacts, rho, 0.25)),
        "fig3": (fig3, plots.fig3_caption("absence_days", epsilon, mean, median, shown)),
        "monte_carlo": (plots.monte_carlo_figure(*mc)[0], plots.monte_carlo_caption(*mc)),
        "astronaut": (
            plots.astronaut_figure(*outlier)[0],
            plots.astronaut_caption(*outlier, astronaut),
        ),
    }


@pytest.mark.parametrize("setting", [PAPER, OTHER], ids=["paper", "other"])
def test_every_figure_keeps_to_the_style(setting):
    for name, (fig, _) in drawn(**setting).items():
        figures._log_axes(fig)  # as save_figure does before its check
        assert style.problems(fig) == [], name


def test_a_figure_of_one_attribute_has_no_panel_letter_and_keeps_to_the_style():
    grid = np.linspace(0, 5, 51)
    curves = {"school_year": pw.risk_curves(YEARS, 5 / 6, 1.0, grid)}
    fig, _ = plots.fig2_risk_upper_bound(
        grid,
        curves,
        {"school_year": "{1, 2, 3, 4}"},
        {"school_year": 0.34},
        {"school_year": 0.53},
        1 / 3,
        0.25,
    )
    assert fig.axes[0].get_title() == "school_year: dom(X) = {1, 2, 3, 4}"
    assert style.problems(fig) == []


def test_every_caption_is_valid_and_follows_the_parameters():
    paper, other = drawn(**PAPER), drawn(**OTHER)
    for name in paper:
        for caption in (paper[name][1], other[name][1]):
            assert isinstance(caption, figures.Caption), name
            # the rules save_figure and tests/test_plots_figures_captions.py apply
            assert figures.sentence_problem(caption.caption) is None, name
            assert len(caption.caption) <= 400 and 40 <= len(caption.alt) <= 1000, name
            assert "$" not in caption.caption + caption.alt and "inf" not in caption.caption
        assert paper[name][1] != other[name][1], f"{name}: the caption ignores the parameters"
    # each names the parameter that changed
    assert "at ε = 0.5 (noise scale Δf/ε = 5.667)" in other["fig1"][1].caption
    assert "within ρ = 0.5 is" in other["fig2"][1].caption
    assert "of absence_days at ε = 0.5:" in other["fig3"][1].caption
    assert "(800 responses per ε)" in other["monte_carlo"][1].caption
    astronaut = other["astronaut"][1].caption
    assert "at ρ = 0.05 (exact)" in astronaut and "at 15,000 km lies within the crowd" in astronaut
    assert "for the astronaut at 400,000 km" in paper["astronaut"][1].caption


def test_captions_give_the_drawn_numbers():
    paper = drawn(**PAPER)
    # Fig. 2: the admissible ε of each attribute by the bound (Eq. 7) and exactly
    bound = pw.epsilon_upper_bound(4, 3.0, 17 / 6, 1 / 3)
    exact = pw.exact_epsilon(ANSWERS, 17 / 6, 1 / 3)
    assert f"{bound:.4f} against {exact:.4f} for absence_days" in paper["fig2"][1].caption
    # Fig. 1: ω1 at 2 lies (13/3 - 2) / (17/12) noise scales from the nearest other answer
    assert f"lies {(13 / 3 - 2) / (17 / 12):.3g} noise scales" in paper["fig1"][1].caption
    # Fig. 3: the medians span 1 / 2 noise scales, the means 3 / (17/12)
    caption = paper["fig3"][1].caption
    assert f"span {3 / (17 / 12):.3g} noise scales under the mean and 0.5 under" in caption
    assert "share 2 distinct medians, so a response separates the worlds less" in caption


def test_fig3_caption_says_so_where_the_median_needs_no_noise():
    caption = plots.fig3_caption(
        "absence_days", 2, (ANSWERS, 17 / 12), (np.full(4, 3.0), 0.0), np.arange(4)
    )
    assert "every world's median is 3, so the median needs no noise" in caption.caption
    assert "no curve but a sentence" in caption.alt


def test_an_infinite_exact_epsilon_is_written_out_in_the_caption():
    grid, curves, _ = fig2(exact_year=math.inf)
    bounds = {"school_year": 0.3379, "absence_days": 0.3829}
    exacts = {"school_year": math.inf, "absence_days": 0.4}
    caption = plots.fig2_caption(grid, curves, bounds, exacts, 1 / 3, 0.25).caption
    assert "0.3379 against ∞ for school_year" in caption


def test_fig2_says_where_an_epsilon_beyond_its_axis_lies():
    # a 40-row class whose exact ε (8.1) lies beyond the axis's 5: an arrowhead on the right edge
    # at ρ names it in the legend, and the caption says so; the legend sits below the panel
    eps = np.linspace(0, 5, 51)
    curve = (np.linspace(0.025, 0.12, 51), np.linspace(0.025, 0.99, 51))
    fig, _ = plots.fig2_risk_upper_bound(
        eps, {"a": curve}, {"a": "40 values"}, {"a": 1.8}, {"a": 8.1167}, 1 / 3, 1 / 40
    )
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "exact ε = 8.1167, beyond the axis's 5 →" in labels
    (arrow,) = [line for line in ax.lines if line.get_marker() == ">"]
    assert arrow.get_xydata().tolist() == [[5.0, 1 / 3]] and not arrow.get_clip_on()
    legend_box = ax.get_legend().get_window_extent(fig.canvas.get_renderer())
    assert legend_box.y1 < ax.get_window_extent().y0  # below the axes: it covers no curve
    caption = plots.fig2_caption(eps, {"a": curve}, {"a": 1.8}, {"a": 8.1167}, 1 / 3, 1 / 40)
    assert "past the axis's ε = 5 lie the exact ε for a, 8.1167" in caption.caption
    matplotlib.pyplot.close(fig)
