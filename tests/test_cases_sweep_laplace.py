"""A sweep of laplace_intro's parameters across their ranges, each case named for what it probes
and combining parameters that probe different things: every case runs to the end with strict
JSON, no departure from the figure style, and the honest output it is about."""

import json

import pandas as pd
import pytest

from choosing_epsilon.harness import reproduce
from tests.notebook_text import outputs_text, strict_load

NAME = "laplace_intro"


def run(tmp_path, params):
    """Run the notebook at ``params`` (the runner raises unless it ends with exit 0); return its
    output directory, its results and its captions, after checking that results.json is strict
    JSON and that no figure recorded a departure from the style."""
    out = tmp_path / "run"
    reproduce.run_notebook(NAME, params, out)
    results = strict_load((out / "results.json").read_text(encoding="utf-8"))
    captions = json.loads((out / "captions.json").read_text(encoding="utf-8"))
    problems = {name: entry["problems"] for name, entry in captions.items() if "problems" in entry}
    assert problems == {}
    return out, results, captions


@pytest.mark.notebook
def test_few_releases_far_from_zero_no_budget_and_a_wide_age_range(tmp_path):
    """Three releases at ε = 10⁻⁵ of f(D) = 10¹² with Δ = 10⁹: the histogram's bins once fitted
    the releases alone, their bars thousands of times the density's peak, and both legends sat
    over the data; a budget below one release's ε pays for none; an age range of ±10⁹ once
    compared itself with a fixed 0-300 "over-estimate" narrower than itself."""
    params = {
        "f_D": 1e12,
        "sensitivity": 1e9,
        "epsilon": 1e-5,
        "epsilon_high": 0.5,
        "n_runs": 3,
        "budget": 1e-6,
        "age_range": [-1e9, 1e9],
    }
    out, results, captions = run(tmp_path, params)
    assert results["runs_until_budget_exhausted"] == 0
    text = outputs_text(out / f"{NAME}.ipynb")
    assert "the budget is smaller than one release's ε: no release" in text
    # the over-estimated range is this run's widened by the post's factor 300/110 (saved to 10
    # significant digits)
    ages = pd.read_csv(out / "mean_age_sensitivity.csv")
    assert ages["range"].tolist() == ["-1e+09-1e+09", "-1e+09-4.45455e+09"]
    assert ages["sensitivity (ub-lb)/n"].iloc[1] == pytest.approx(
        ages["sensitivity (ub-lb)/n"].iloc[0] * 300 / 110, rel=1e-9
    )
    # e^0.5 to four decimals, not rounded to 1.6
    assert "e^0.5 = 1.6487" in text
    assert "Histogram of 3 releases" in captions["output_perturbation"]["caption"]


@pytest.mark.notebook
def test_noise_below_the_float_spacing_at_f_d_says_why_no_curve_is_drawn(tmp_path):
    """f(D) = −10⁹ with Δ = 10⁻⁶ at ε = 1000: the noise scale 10⁻⁹ lies below the spacing of
    floats at 10⁹ (1.2·10⁻⁷), so the outputs cannot be drawn; the panels once collapsed to a line
    with overlapping tick labels, and now say why. Beside it ε_high = 0.001, where the two
    densities coincide, and f(D) and f(D′), which print alike to six digits, are told apart."""
    params = {"f_D": -1e9, "sensitivity": 1e-6, "epsilon": 1000, "epsilon_high": 0.001}
    out, results, captions = run(tmp_path, params)
    assert results["ratio_bound"] == "inf"
    assert results["ratio_bound_high"] == pytest.approx(1.0010005, rel=1e-6)
    # the releases f(D) + η are rounded to the floats at f(D): their variance is not the noise's,
    # and is not checked against it (the run once stopped there)
    text = outputs_text(out / f"{NAME}.ipynb")
    assert "below 1000 times the spacing of floats at f(D) (1.2e-07): the releases are" in text
    scenarios = captions["scenarios_epsilon_0.5_and_10"]
    assert "At ε = 1000 no curve is drawn" in scenarios["alt"]
    svg = (out / "scenarios_epsilon_0.5_and_10.svg").read_text(encoding="utf-8")
    assert "too few" in svg and "f(D′) = -999999999.999999" in svg
