"""Singling out one of k under DP-SGD (Kulynych et al.'s notebook, beyond the paper): the k-ary
randomized response found under a privacy profile, tested from both sides against profiles whose
answer is known; the noise by the attained value against the noise by the bound; the stored row
read back."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from choosing_epsilon import calibration as cal
from choosing_epsilon import dpsgd, privacy_loss, risk
from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.kulynych_2024 import forensics

STEP = dpsgd.PROFILE_STEP


def krr_profile(epsilon: float, k: int, x: np.ndarray) -> np.ndarray:
    """A pair of k-ary randomized response's outputs: the hockey-stick divergence at e^x, summed
    over its k outcomes (the truth, the other candidate's, and k − 2 others)."""
    z = math.exp(epsilon) + k - 1
    truth = np.maximum(math.exp(epsilon) - np.exp(x), 0)
    other = np.maximum(1 - np.exp(x + epsilon), 0)
    rest = (k - 2) * np.maximum(1 - np.exp(x), 0)
    return (truth + other + rest) / z


def gdp_profile(mu: float, x: np.ndarray) -> np.ndarray:
    """δ(x) of μ-GDP, Φ(−x/μ + μ/2) − e^x Φ(−x/μ − μ/2), vectorised."""
    return stats.norm.cdf(-x / mu + mu / 2) - np.exp(x) * stats.norm.cdf(-x / mu - mu / 2)


@pytest.mark.parametrize(("epsilon", "k"), [(0.3, 2), (1.0, 10), (3.0, 1000)])
def test_randomized_response_under_its_own_profile_is_found_from_below(epsilon, k):
    grid = np.arange(0, epsilon + 1, STEP)
    found, ran_out = dpsgd.randomized_response_within(grid, krr_profile(epsilon, k, grid), k)
    assert not ran_out
    assert epsilon - 2 * STEP <= found <= epsilon + 1e-12


@pytest.mark.parametrize(("mu", "k"), [(0.5, 10), (1.0, 10), (2.0, 1000)])
def test_randomized_response_under_a_gaussian_curve_lies_under_it_and_no_more(mu, k):
    grid = np.arange(0, 12, STEP)
    deltas = gdp_profile(mu, grid)
    found, _ = dpsgd.randomized_response_within(grid, deltas, k)
    fine = np.arange(0, found + 0.01, 1e-5)
    exact = gdp_profile(mu, fine)
    # from above: the profile of k-RR at the ε found lies under the Gaussian's at every 1e-5
    assert np.all(krr_profile(found, k, fine) <= exact + 1e-15)
    # from below: 2 steps more and it crosses it
    assert np.any(krr_profile(found + 2 * STEP, k, fine) > exact)
    # what it attains is below what the bound allows any mechanism with the guarantee
    attained = dpsgd.randomized_response_success(found, k)
    assert attained <= risk.singling_out(risk.Guarantee("gdp", mu=mu), k).bound


def test_randomized_response_success_is_its_closed_form():
    assert dpsgd.randomized_response_success(1.0, 10) == pytest.approx(math.e / (math.e + 9))
    assert dpsgd.randomized_response_success(0.0, 7) == pytest.approx(1 / 7)


def test_a_profile_that_does_not_start_at_zero_is_refused():
    with pytest.raises(ValueError, match="epsilons must rise from 0"):
        dpsgd.randomized_response_within(np.array([0.1, 0.2]), np.array([0.1, 0.05]), 10)


# a coarse privacy-loss grid (1e-2) and few steps: the search's logic, not the paper's numbers
SMALL = dpsgd.DpsgdSetting(0.1, 10, 1e-5, (0.1,), grid_step=1e-2)


def test_attained_noise_lies_below_the_bounds_and_brackets_its_target():
    bound = dpsgd.DpsgdAccountant(SMALL).calibrate("tpr", 0.3, 0.1)
    sigma, success = dpsgd.sigma_for_attained_singling_out(SMALL, 0.3, 10, bound)
    assert sigma <= bound
    assert success < 0.3
    eps_target = math.log(0.3 * 9 / 0.7)  # k-RR at a chance of 0.3 among 10
    grid = np.arange(0, eps_target + 2 * STEP, STEP)
    for s, under in ((sigma, False), (sigma * (1 - 2 * cal.CALIBRATION_RTOL), True)):
        pld = dpsgd.dpsgd_pld(s, SMALL.sample_rate, SMALL.num_steps, SMALL.grid_step)
        found, _ = dpsgd.randomized_response_within(grid, pld.get_delta_for_epsilon(grid), 10)
        assert (found >= eps_target) == under  # with less noise, k-RR at 0.3 lies under the curve


def test_no_noise_singles_out_below_chance():
    with pytest.raises(ValueError, match="max_success must exceed 1/k"):
        dpsgd.sigma_for_attained_singling_out(SMALL, 0.1, 10, 1.0)
    reason = forensics.singling_out_request(0.001, 100, 1e-5, 10, 0.1)
    assert reason == (
        "a guess at random names the right one of 10 with chance 1/10, whatever the noise: "
        "max_singling_out must exceed 0.1"
    )


def test_the_stored_calibration_keeps_to_its_target_and_agrees_with_the_grid():
    """The committed row: the bound's σ allows at most the chance stated (its TPR at FPR 1/k),
    the attained value's σ attains less, and the two straddle nothing they should not; at k = 10
    and a chance of 0.2 the bound is Fig. 3's TPR 0.2 at FPR 0.1, whose stored σ it matches to
    the search's tolerance."""
    params = parameters.committed_values("kulynych_2024")
    request = forensics.singling_out_request(
        params["sample_rate"],
        params["num_steps"],
        params["delta"],
        params["singling_out_among"],
        params["max_singling_out"],
    )
    store = DATA / "kulynych_2024" / "dpsgd_singling_out.json"
    stored = forensics.load(store)
    row_key = forensics._singling_out_key(*request)
    assert set(stored) == {row_key}, (
        "rerun `python -m choosing_epsilon.papers.kulynych_2024.precompute`"
    )
    row = stored[row_key]
    gamma, fpr = params["max_singling_out"], 1 / params["singling_out_among"]
    assert row[f"tpr_aware_at_{fpr:g}"] <= gamma - privacy_loss.ACCOUNTANT_MARGIN
    assert row["success_attained"] < gamma
    assert row["success_attained"] <= row["success_bound_at_sigma_attained"]
    assert row["success_attained_at_sigma_aware"] <= row[f"tpr_aware_at_{fpr:g}"]
    assert row["sigma_attained"] <= row["sigma_aware"]
    grid = forensics.load(DATA / "kulynych_2024" / "dpsgd_calibrations.json").values()
    (same,) = [r for r in grid if r["kind"] == "tpr" and r["fpr"] == fpr and r["target"] == gamma]
    assert row["sigma_aware"] == pytest.approx(same["sigma_aware"], rel=2 * cal.CALIBRATION_RTOL)


def test_at_another_delta_the_bound_and_attained_noise_of_the_stored_row_are_kept(tmp_path):
    """Neither the bound's noise (the TPR at FPR 1/k) nor the attained one depends on δ: a run at
    another δ keeps them from the row stored at the paper's δ, and searches the standard route."""
    setting, wanted = forensics.singling_out_request(0.1, 10, 1e-5, 10, 0.2)
    store = tmp_path / "singling.json"
    first, how = forensics.singling_out_calibration(setting, wanted, store)
    assert how == "computed"
    forensics.write(pd.DataFrame([first]), store)
    other = dataclasses.replace(setting, delta=1e-9)
    row, how = forensics.singling_out_calibration(other, wanted, store)
    assert how == "computed" and row["key"] != first["key"]
    for name in ("sigma_aware", "sigma_attained", "success_attained"):
        assert row[name] == first[name]
    assert row["sigma_standard"] > first["sigma_standard"]
    assert row["epsilon_attained"] > first["epsilon_attained"]  # the same noise, a smaller δ
