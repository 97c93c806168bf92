"""The figures of the lee_clifton_2011 notebook: each function draws what its data says, with the
labelled axes and lines the notebook's prose refers to."""

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon.plots import lee_clifton_2011 as plots

matplotlib.use("Agg")

ANSWERS = np.array([2.0, 13 / 3, 14 / 3, 5.0])  # the world means of absence days (Sec. 4.1)
SCALE = 17 / 12  # Δf/ε at ε = 2


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    matplotlib.pyplot.close("all")


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


def test_worlds_that_share_an_answer_are_drawn_in_other_styles():
    _, ax = matplotlib.pyplot.subplots()
    plots.density_panel(ax, np.array([2.0, 2.0, 3.0, 3.0]), 2.0, ["a", "b", "c", "d"], "(b)")
    assert [line.get_linestyle() for line in ax.get_lines()] == ["-", "--", "-", "--"]


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
    assert [ax.get_title() for ax in fig.axes] == [
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
    assert [ax.get_title() for ax in fig.axes] == ["(a) mean, ε = 2", "(b) median, ε = 2"]
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
    simulated = pd.DataFrame([pw.adversary_summary(ANSWERS, 17 / 6, e, 500, rng) for e in epsilons])
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
        "mean posterior of ω1 (MC)",
        "prior 1/n",
        "Monte Carlo, 500 responses",
    ]


def test_astronaut_figure_marks_the_astronaut_on_log_axes():
    crowd = np.random.default_rng(2).uniform(100, 20000, size=200)
    edge = crowd.max()
    sweep = pw.outlier_sweep(crowd, np.geomspace(1, 4e6, 12), 0.01)
    fig, data = plots.astronaut_figure(sweep, edge, 400000, 0.01, 200)
    assert data is sweep
    ax, ax_noise = fig.axes
    for panel in (ax, ax_noise):
        assert panel.get_xscale() == panel.get_yscale() == "log"
        assert panel.get_xlabel() == "distance beyond the farthest other alumnus (km)"
        assert "the astronaut, 400,000 km" in labels_of(panel)
    assert ax.get_ylabel() == "admissible ε at ρ = 0.01"
    assert labels_of(ax)[:2] == ["exact ε", "Eq. (7) ε"]
    assert ax_noise.get_ylabel() == "noise scale Δf/ε (km)"
