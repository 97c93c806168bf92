"""shoaran_2012 across its parameters' ranges, as a reader would try them: each case runs the
notebook to the end with strict JSON results and figures the style passes, and shows the answer
it is about (Example 1's dot on the drawn range, curves decades apart on a log axis)."""

import math

import pandas as pd
import pytest

from tests.sweep_run import run


@pytest.mark.notebook
def test_shoaran_tiny_epsilon_pr_and_re(tmp_path):
    # ε = pr = re = 1e-6: Example 1's ε lay a thousand times left of Fig. 2(a)'s curves
    params = {"epsilon": 1e-6, "pr": 1e-6, "re": 1e-6, "n_trials": 2}
    _, results, _ = run("shoaran_2012", params, tmp_path)
    mta = -math.log(1e-6) / (1e-6 * 1e-6)  # Eq. (6) with Δ = 1
    assert results["single"]["mta"] == pytest.approx(mta, rel=1e-12)
    drawn = pd.read_csv(tmp_path / "fig2_mta.csv")
    epsilons = drawn[drawn.reading == "vs_epsilon"].epsilon
    assert epsilons.min() <= 1e-6 <= epsilons.max()


@pytest.mark.notebook
def test_shoaran_curves_decades_apart_and_huge_parameters(tmp_path):
    # Fig. 1 with ε from 1e-4 to 1000 at Δ = 1e6: on a linear axis every curve but one, and the
    # two marked magnitudes, lay on the x axis; Example 1 at ε = 1000 lay far right of Fig. 2(a)
    params = {
        "fig1_epsilons": [0.0001, 1, 1000],
        "fig2_prs": [1e-6, 0.5, 0.999999],
        "fig2_reading_epsilon": 10000,
        "epsilon": 1000,
        "pr": 0.999999,
        "re": 1000,
        "sensitivity": 1e6,
    }
    _, results, captions = run("shoaran_2012", params, tmp_path)
    assert results["single"]["mta"] == pytest.approx(-1e6 * math.log(0.999999) / 1e6, rel=1e-9)
    assert captions["fig1_noise_vs_probability"]["alt"].startswith(
        "Line chart of the noise magnitude z (y axis, logarithmic"
    )
    drawn = pd.read_csv(tmp_path / "fig2_mta.csv")
    assert drawn[drawn.reading == "vs_epsilon"].epsilon.max() >= 1000


@pytest.mark.notebook
def test_shoaran_one_query_and_repeated_curves(tmp_path):
    # three equal ε and three equal pr (coinciding curves that differ in dash), one query
    params = {
        "fig1_epsilons": [0.01, 0.01, 0.01],
        "fig2_prs": [0.1, 0.1, 0.1],
        "query_answers": [5],
        "query_index": [1],
        "query_sensitivities": [1],
    }
    _, results, captions = run("shoaran_2012", params, tmp_path)
    assert results["uniform"]["scale"] == pytest.approx(100, rel=1e-12)  # Δ/ε of one count
    assert captions["fig1_noise_vs_probability"]["alt"].startswith(
        "Line chart of the noise magnitude z (y axis, linear from 0"
    )
