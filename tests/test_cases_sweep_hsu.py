"""hsu_2014 across its parameters' ranges, as a reader would try them: each case runs the notebook
to the end with strict JSON results and figures the style passes, and shows the answer it is
about (a point off the chart drawn at its edge, a search's limit said in words)."""

import pytest

from choosing_epsilon import economics as econ
from tests.sweep_run import run as run_notebook


def run(params: dict, tmp_path) -> tuple[str, dict, dict]:
    return run_notebook("hsu_2014", params, tmp_path)


@pytest.mark.notebook
def test_hsu_huge_budget_and_a_cost_below_a_cent(tmp_path):
    # budget 1e9 at P = 5e-5: the legend covered the budget curve, the scan's P was labelled
    # "P = $0.00", and the exact search's upper end (ε = 20) was printed as the largest ε
    text, results, _ = run({"budget": 1e9, "bad_event_cost": 1e-3}, tmp_path)
    assert results["max_feasible_epsilon"] > econ.EXACT_EPSILON_MAX  # the bound's answer
    assert f"at least {econ.EXACT_EPSILON_MAX:.4f} at N = " in text
    svg = (tmp_path / "max_epsilon_vs_cost_and_budget.svg").read_text(encoding="utf-8")
    assert "P = $5e-05" in svg and "$0.00" not in svg
    assert "B = $1,000,000,000" in svg


@pytest.mark.notebook
def test_hsu_slides_point_far_off_the_chart_at_a_huge_epsilon(tmp_path):
    # ε = 1000, N = 1: the star lay outside the axes, unmarked; e^1000 overflowed math.expm1
    text, results, captions = run({"slide_epsilon": 1000.0, "slide_n": 1, "n_trials": 2}, tmp_path)
    assert results["total_cost_at_slide_point"] == "inf"
    assert "rounded $∞, truncated to the cent $∞" in text
    assert results["feasible_at_slide_point"] is False
    assert "(off the chart)" in (tmp_path / "feasible_region.svg").read_text(encoding="utf-8")
    assert "off the chart: a hollow star at its edge" in captions["feasible_region"]["alt"]


@pytest.mark.notebook
def test_hsu_loose_accuracy_at_a_true_fraction_of_zero(tmp_path):
    # d = 0.99, T = 0.999, exact constants, p = 0: the slides' point left the chart unmarked and
    # the exact curve was labelled "at p = 0.5" whatever p the scan used
    params = {
        "error": 0.99,
        "failure_probability": 0.999,
        "slide_constants": False,
        "true_fraction": 0.0,
    }
    _, _, captions = run(params, tmp_path)
    svg = (tmp_path / "study_size_exact_vs_bound.svg").read_text(encoding="utf-8")
    assert "exact failure probability at p = 0<" in svg and "at p = 0.5" not in svg
    assert "(off the chart)" in (tmp_path / "feasible_region.svg").read_text(encoding="utf-8")
    assert (
        "the exact failure probability at p = 0 does"
        in (captions["study_size_exact_vs_bound"]["caption"])
    )
