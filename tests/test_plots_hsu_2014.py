"""The figures of hsu_2014: labelled axes, the lines and markers drawn, and the data frame saved
with them."""

import numpy as np
import pytest

from choosing_epsilon import economics as econ
from choosing_epsilon.papers.hsu_2014 import figures as plots
from choosing_epsilon.papers.hsu_2014 import scans
from choosing_epsilon.plots import figures, style

P = econ.expected_cost(1274, 0.05)
P_AXIS = "true fraction of smokers (p)"


def labels(ax):
    return [line.get_label() for line in ax.get_lines()]


def texts(ax):
    return [text.get_text() for text in ax.texts]


def test_feasible_region_draws_both_constraints_and_the_two_points():
    best = econ.largest_feasible_epsilon(P, 30000, 0.05, 0.1, True)
    region = scans.feasible_region_curves(P, 30000, 0.05, 0.1, True, best.epsilon * 1.6, 60)
    fig, frame = plots.feasible_region(region, 30000, 0.1, (0.03, 15000), best)
    assert frame is region
    (ax,) = fig.axes
    assert ax.get_xlabel() == "privacy parameter (ε)"
    assert ax.get_ylabel() == "study size (N, participants)"
    assert ax.get_title() == "Feasible ε and N for accuracy level T and budget B"
    assert labels(ax) == [
        "budget: N ≤ B / ((e^ε − 1)P), B = $30,000",
        "accuracy: A(ε, N) ≤ T = 0.1",
        "slides: ε = 0.03, N = 15,000",
        f"largest feasible ε = {best.epsilon:.4f}",
    ]
    assert np.array_equal(ax.get_lines()[1].get_ydata(), region.n_min_accuracy)
    assert ax.get_xlim() == (0, region.epsilon.iloc[-1])
    assert ax.get_ylim() == (0, 4 * max(region.n_min_accuracy.min(), 15000))
    assert len(ax.collections) == 1 and not texts(ax)  # the feasible region, filled


def test_feasible_region_without_a_study_says_so_and_moves_a_far_point_off_the_chart():
    region = scans.feasible_region_curves(P, 1, 0.05, 0.1, True, 0.048, 20)
    fig, _ = plots.feasible_region(region, 1, 0.1, (0.03, 10**9), None)
    (ax,) = fig.axes
    assert labels(ax)[-1] == "slides: ε = 0.03, N = 1,000,000,000 (off the chart)"
    assert texts(ax) == ["no feasible (ε, N) on this range"]


def test_study_size_draws_both_measures_on_log_axes():
    scan = scans.study_size_scan(np.geomspace(0.003, 0.9, 5), P, 0.05, 0.1, 0.5, True)
    fig, frame = plots.study_size_exact_vs_bound(scan, 0.03)
    assert frame is scan
    (ax,) = fig.axes
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert ax.get_xlabel() == "privacy parameter (ε)"
    assert ax.get_ylabel() == "smallest accurate study size (N, participants)"
    assert labels(ax) == [
        "smallest N by the bound A(ε, N) ≤ T",
        "smallest N by the exact failure probability at p = 0.5",
        "slides' ε = 0.03",
    ]
    assert np.array_equal(ax.get_lines()[1].get_ydata(), scan.n_exact)


def test_failure_against_p_draws_a_panel_per_design_with_its_worst_case():
    designs = {"(a) slides' design": (0.03, 2000), "(b) exact-accuracy design": (20.0, 333)}
    curves = scans.failure_curves(designs, 0.05, points=21)
    worst = scans.worst_case_table(designs, 0.05)
    fig, frame = plots.failure_vs_true_fraction(curves, worst, designs)
    assert frame is curves
    ax_a, ax_b = fig.axes
    assert {ax.get_xlabel() for ax in fig.axes} == {P_AXIS}
    assert {ax.get_ylabel() for ax in fig.axes} == {"failure probability"}
    assert ax_a.get_title(loc="left") == "(a) slides' design: ε = 0.03, N = 2,000"
    assert ax_b.get_title(loc="left") == "(b) exact-accuracy design: ε = 20, N = 333"
    assert labels(ax_b) == ["exact failure probability", "p = 0.5", "largest (p and 1 − p)"]
    p_worst = worst.iloc[1]["worst fraction p"]
    assert np.allclose(ax_b.get_lines()[2].get_xdata(), [p_worst, 1 - p_worst])


def test_failure_against_p_with_one_design_and_an_underflow():
    designs = {"(a) slides' design": (0.03, 10**9)}
    curves = scans.failure_curves(designs, 0.99, points=5)
    worst = scans.worst_case_table(designs, 0.99)
    fig, _ = plots.failure_vs_true_fraction(curves, worst, designs)
    ax_a, ax_b = fig.axes
    assert texts(ax_a) == ["below 1e-300\nat every p"]
    assert labels(ax_a) == ["p = 0.5", "largest (p and 1 − p)"]
    assert texts(ax_b) == ["no exact-accuracy design on this budget"]
    assert ax_b.get_title(loc="left") == "(b) exact-accuracy design"


def test_max_epsilon_draws_a_curve_per_budget():
    scan = scans.max_epsilon_scan(np.geomspace(P / 10, P * 10, 5), [10000, 30000], 0.05, 0.1, True)
    fig, frame = plots.max_epsilon_vs_cost_and_budget(scan, P)
    assert frame is scan
    (ax,) = fig.axes
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() == "expected cost of not participating (P, dollars)"
    assert ax.get_ylabel() == "largest feasible privacy parameter (ε)"
    assert labels(ax) == ["B = $10,000", "B = $30,000", "P = $63.70"]
    assert np.array_equal(
        ax.get_lines()[1].get_ydata(),
        scan[scan.budget == 30000].max_feasible_epsilon,
        equal_nan=True,
    )
    assert not texts(ax)


def test_max_epsilon_says_when_nothing_is_feasible():
    scan = scans.max_epsilon_scan(np.array([P / 2, P, 2 * P]), [1.0, 2.0, 3.0], 0.05, 0.1, True)
    fig, _ = plots.max_epsilon_vs_cost_and_budget(scan, P)
    assert texts(fig.axes[0]) == ["no study is feasible\nfor any P and B shown"]
    # three budgets drawn nowhere: each keeps its own dash in the legend, and says why
    assert labels(fig.axes[0])[:3] == [
        f"B = ${b:.2f}: infeasible at every P shown" for b in (1, 2, 3)
    ]
    figures._log_axes(fig)
    assert style.problems(fig) == []


def test_max_epsilon_marks_a_budget_feasible_nowhere_and_a_point_feasible_alone():
    """At d = 0.001 no P shown is feasible with B = $10,000, and only the smallest with $30,000:
    the first line drew nothing and the second one point, which a line cannot show (the style
    check found it "wholly outside the axes"). The legend now says which budget is infeasible,
    the lone point is a dot, and the captions say both."""
    costs = np.geomspace(P / 10, P * 10, 41)
    scan = scans.max_epsilon_scan(costs, [10000, 30000, 90000], 0.001, 0.1, True)
    fig, _ = plots.max_epsilon_vs_cost_and_budget(scan, P)
    (ax,) = fig.axes
    figures._log_axes(fig)
    assert style.problems(fig) == []
    assert labels(ax) == [
        "B = $10,000: infeasible at every P shown",
        "B = $30,000 (a dot: feasible at that P alone)",
        "B = $90,000",
        "P = $63.70",
    ]
    nowhere, alone, curve = ax.get_lines()[:3]
    assert np.isnan(nowhere.get_ydata()).all()  # drawn nowhere, its colour and dash in the legend
    assert alone.get_marker() == "o" and alone.get_markevery() == [0]
    assert curve.get_marker() in ("None", "none", "")
    words = plots.max_epsilon_vs_cost_and_budget_caption(
        scan, P, failure_probability=0.1, error=0.001
    )
    assert "and none at any P with B = 10,000 dollars)" in words.caption
    assert "B = 10,000 dollars has no point, its legend entry marked infeasible" in words.alt
    assert (
        "B = 30,000 dollars is feasible at isolated costs only, a dot each: 6.3e-05 at P = 6.37"
        in (words.alt)
    )
    assert words.problems() == []


# --- style and captions, at the slides' parameters and at others ---------------------------------


def drawn(cost, budget, error, alpha):
    """Each figure of the notebook and its caption, computed as the notebook computes them at
    expected cost ``cost``, budget ``budget``, error ``error`` and accuracy level ``alpha``."""
    best = econ.largest_feasible_epsilon(cost, budget, error, alpha, True)
    right = (best.epsilon if best else 0.03) * 1.6
    region = scans.feasible_region_curves(cost, budget, error, alpha, True, right, 60)
    region_args = (region, budget, alpha, (0.03, 15000), best)
    scan = scans.study_size_scan(np.geomspace(0.003, 0.9, 5), cost, error, alpha, 0.5, True)
    designs = {"(a) slides' design": (0.03, 15000)}
    exact = econ.largest_feasible_epsilon_exact(cost, budget, error, alpha)
    if exact is not None:
        designs["(b) exact-accuracy design"] = (exact.epsilon, exact.n)
    curves = scans.failure_curves(designs, error, points=21)
    worst = scans.worst_case_table(designs, error)
    costs = np.geomspace(cost / 10, cost * 10, 5)
    budgets = [budget / 3, budget, budget * 3]
    by_cost = scans.max_epsilon_scan(costs, budgets, error, alpha, True)
    keywords = {"failure_probability": alpha, "error": error}
    return {
        "feasible_region": (
            plots.feasible_region(*region_args)[0],
            plots.feasible_region_caption(*region_args, expected_cost=cost),
        ),
        "study_size_exact_vs_bound": (
            plots.study_size_exact_vs_bound(scan, 0.03)[0],
            plots.study_size_exact_vs_bound_caption(scan, 0.03, **keywords, true_fraction=0.5),
        ),
        "failure_vs_true_fraction": (
            plots.failure_vs_true_fraction(curves, worst, designs)[0],
            plots.failure_vs_true_fraction_caption(curves, worst, designs, error=error),
        ),
        "max_epsilon_vs_cost_and_budget": (
            plots.max_epsilon_vs_cost_and_budget(by_cost, cost)[0],
            plots.max_epsilon_vs_cost_and_budget_caption(by_cost, cost, **keywords),
        ),
    }


SLIDES = {"cost": P, "budget": 30000, "error": 0.05, "alpha": 0.1}
# a dearer participant, a larger budget, a looser error and accuracy level
OTHER = {"cost": 100.0, "budget": 50000, "error": 0.1, "alpha": 0.2}


@pytest.mark.parametrize("setting", [SLIDES, OTHER], ids=["slides", "other"])
def test_every_figure_keeps_to_the_style(setting):
    for name, (fig, _) in drawn(**setting).items():
        figures._log_axes(fig)  # as save_figure does before its check
        assert style.problems(fig) == [], name


def test_every_caption_is_valid_and_follows_the_parameters():
    slides, other = drawn(**SLIDES), drawn(**OTHER)
    for name in slides:
        for caption in (slides[name][1], other[name][1]):
            assert isinstance(caption, figures.Caption), name
            # the rules save_figure and tests/test_plots_figures_captions.py apply
            assert figures.sentence_problem(caption.caption) is None, name
            assert len(caption.caption) <= 400 and 40 <= len(caption.alt) <= 1000, name
            assert "$" not in caption.caption + caption.alt, name  # Markdown would read TeX
        assert slides[name][1] != other[name][1], f"{name}: the caption ignores the parameters"
    # each names a parameter that changed, in the words of its sentence
    assert "B = 50,000 dollars" in other["feasible_region"][1].caption
    assert "P = 100 dollars" in other["feasible_region"][1].caption
    assert "T = 0.2 with error d = 0.1" in other["study_size_exact_vs_bound"][1].caption
    assert "by more than d = 0.1:" in other["failure_vs_true_fraction"][1].caption
    assert "16,667, 50,000 and 150,000 dollars" in (
        other["max_epsilon_vs_cost_and_budget"][1].caption
    )


def test_captions_give_the_drawn_numbers():
    best = econ.largest_feasible_epsilon(P, 30000, 0.05, 0.1, True)
    captions = {name: caption for name, (_, caption) in drawn(**SLIDES).items()}
    region = captions["feasible_region"]
    assert f"largest feasible ε = {best.epsilon:.4f} at N = {best.n:,}" in region.caption
    scan = scans.study_size_scan(np.geomspace(0.003, 0.9, 5), P, 0.05, 0.1, 0.5, True)
    ratio = scan.n_bound / scan.n_exact
    assert f"{ratio.min():.3g} to {ratio.max():.3g} times" in (
        captions["study_size_exact_vs_bound"].caption
    )
    # at the slides' P the marked values are the scan's, one per budget
    at_p = econ.largest_feasible_epsilon(P, 10000, 0.05, 0.1, True).epsilon
    assert f"it is {at_p:#.3g}, " in captions["max_epsilon_vs_cost_and_budget"].caption


def test_captions_say_when_nothing_is_feasible():
    captions = {name: caption for name, (_, caption) in drawn(P, 1.0, 0.05, 0.1).items()}
    assert captions["feasible_region"].caption.startswith("No study design (ε, N) meets both")
    assert "no exact-accuracy design fits the budget" in (
        captions["failure_vs_true_fraction"].caption
    )
    assert captions["max_epsilon_vs_cost_and_budget"].caption.startswith("No study is feasible")


def test_failure_caption_names_an_underflow():
    designs = {"(a) slides' design": (0.03, 10**9)}
    curves = scans.failure_curves(designs, 0.99, points=5)
    worst = scans.worst_case_table(designs, 0.99)
    caption = plots.failure_vs_true_fraction_caption(curves, worst, designs, error=0.99)
    assert "(ε = 0.03, N = 1,000,000,000) it lies below 1e-300 at every p" in caption.caption
