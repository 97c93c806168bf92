"""mugunthan_poster across its parameters' ranges, as a reader would try them: each case runs
the notebook to the end with strict JSON results and figures the style passes (legends under the
panels, clear of the curves and the t* line), and shows the answer it is about."""

import math

import pandas as pd
import pytest

from choosing_epsilon import confidence as cf
from tests.sweep_run import run


@pytest.mark.notebook
def test_poster_tiny_p_and_distance_with_a_one_element_grid(tmp_path):
    # p = 1e-6, c = 1e-6, p_grid [0.5]: Theorem 3's ε is a million times Theorem 2's
    _, results, captions = run(
        "mugunthan_poster", {"p": 1e-6, "c": 1e-6, "p_grid": [0.5]}, tmp_path
    )
    assert results["epsilon_theorem2"] == pytest.approx(-math.log1p(-1e-6) / 1e-6, rel=1e-12)
    assert results["coverage_theorem2"] == pytest.approx(1e-6, rel=1e-6)
    assert results["epsilon_theorem3"] == pytest.approx(
        cf.theorem3_epsilon(1, 1e-6, 1e-6, m=math.sqrt(2)), rel=1e-9
    )
    assert "c = 1e-06" in captions["coverage_minus_p"]["caption"]


@pytest.mark.notebook
def test_poster_at_the_threshold_with_a_long_grid_and_a_large_delta(tmp_path):
    # p at the Fig. 1 threshold (Theorems 2 and 3 nearly agree), twenty p in the grid, δ = 0.5:
    # panel (b)'s legend once sat on the t* line, panel (a)'s on the Gaussian curves
    grid = [0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    grid += [0.85, 0.9, 0.92, 0.93, 0.95, 0.97, 0.99, 0.995, 0.999, 0.9999]
    params = {"p": 0.9215, "p_grid": grid, "gaussian_delta": 0.5}
    _, results, captions = run("mugunthan_poster", params, tmp_path)
    assert results["epsilon_theorem3"] == pytest.approx(results["epsilon_theorem2"], rel=1e-4)
    assert "at δ = 0.5" in captions["slips_lemma1_theorem3"]["caption"]
    # every p of the grid has its row, and Theorem 3 over-delivers below the threshold only
    table = pd.read_csv(tmp_path / "coverage_by_theorem.csv")
    theorem3 = table[table.theorem == "Theorem 3 (McDiarmid)"].set_index("p")["coverage − p"]
    assert sorted(theorem3.index) == grid
    assert (theorem3[theorem3.index < 0.9215] > 0).all()
    assert (theorem3[theorem3.index > 0.9216] < 0).all()


@pytest.mark.notebook
def test_poster_huge_sensitivity_and_a_tiny_answer(tmp_path):
    # Δ = 1e6, q(D) = 1e-6, w = 0.999, δ = 1e-12, two Monte Carlo draws
    params = {
        "sensitivity": 1e6,
        "query_answer": 1e-6,
        "w": 0.999,
        "gaussian_delta": 1e-12,
        "n_trials": 2,
    }
    _, results, captions = run("mugunthan_poster", params, tmp_path)
    assert results["epsilon_theorem1"] == pytest.approx(
        cf.theorem1_epsilon(1e6, 0.999, 1e-6, 0.9), rel=1e-12
    )
    assert "w·q(D) = 9.99e-07" in captions["coverage_minus_p"]["caption"]
