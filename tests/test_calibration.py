"""Calibration to attack risk (Kulynych et al. 2024): the closed forms against riskcal,
dp-accounting and the project's attacker scale, DP-SGD calibration against riskcal's own, and the
stored grid of the notebook: its content addresses and a recomputed sample of its rows."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pandas as pd
import pytest
from dp_accounting.pld import privacy_loss_distribution
from hypothesis import given
from hypothesis import strategies as st
from riskcal.analysis import (
    get_advantage_from_adp,
    get_advantage_from_pld,
    get_beta_from_adp,
    get_beta_from_pld,
    get_epsilon_from_err_rates,
)
from riskcal.calibration.dpsgd import (
    find_noise_multiplier_for_advantage,
    find_noise_multiplier_for_err_rates,
)

from choosing_epsilon import calibration as cal
from choosing_epsilon import dpsgd, privacy_loss, risk
from choosing_epsilon.papers.kulynych_2024 import forensics, precompute
from choosing_epsilon.papers.kulynych_2024.precompute import STORE

DELTA = 1e-5


# --- (ε, δ) read as risk --------------------------------------------------------------------


@given(st.floats(0, 8), st.floats(0, 0.1))
def test_advantage_bound_is_the_attacker_scales_and_riskcals(epsilon, delta):
    ours = risk.advantage(risk.approximate(epsilon, delta))
    assert ours == pytest.approx(get_advantage_from_adp(epsilon, delta), abs=1e-12)
    assert ours == pytest.approx(risk.advantage(risk.approximate(epsilon, delta)))


@given(st.floats(0, 8), st.floats(0, 0.1), st.floats(0, 1))
def test_beta_bound_is_riskcals(epsilon, delta, alpha):
    expected = float(np.atleast_1d(get_beta_from_adp(epsilon, delta, np.array([alpha])))[0])
    assert risk.tradeoff(risk.approximate(epsilon, delta), alpha) == pytest.approx(
        expected, abs=1e-12
    )


@given(st.floats(2e-5, 0.99))
def test_epsilon_for_advantage_gives_back_the_advantage(eta):
    assert risk.advantage(
        risk.approximate(risk.epsilon_for(risk.at_most_advantage(eta), DELTA), DELTA)
    ) == pytest.approx(eta)


@given(st.floats(1e-3, 0.5), st.floats(0.3, 0.99))
def test_epsilon_for_err_rates_is_the_largest_meeting_the_rates(alpha, beta):
    if alpha + beta >= 1 - DELTA:
        return
    eps = risk.epsilon_for(risk.at_most_tpr(1 - beta, alpha), DELTA)
    assert eps == pytest.approx(float(get_epsilon_from_err_rates(DELTA, alpha, beta)))
    assert risk.tradeoff(risk.approximate(eps, DELTA), alpha) == pytest.approx(beta, abs=1e-12)
    assert (
        risk.tradeoff(risk.approximate(eps * 1.001 + 1e-9, DELTA), alpha) < beta
    )  # any larger ε falls short


def test_proposition_33_is_a_lower_bound_that_the_worst_case_attains():
    alphas = np.linspace(0, 0.25, 101)
    exact = forensics.worst_case_gap(0.5, DELTA, alphas)
    stated = np.array([forensics.advantage_calibration_gap(0.5, DELTA, a) for a in alphas])
    assert np.all(stated <= exact + 1e-15)  # Eq. (15) from below
    assert np.max(exact - stated) < 2 * DELTA  # and only δ-close to the attained gap
    assert forensics.advantage_calibration_gap(0.5, DELTA, 0.1) == pytest.approx(0.29999, abs=1e-8)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: risk.at_most_tpr(0.4, 0.5), "max_tpr must exceed fpr"),
        (lambda: risk.noise_for("Gaussian", risk.at_most_tpr(0.5, 0.0)), "fpr"),
        (lambda: risk.noise_for("Gaussian", risk.at_most_advantage(0.5), -1.0), "sensitivity"),
        (lambda: dpsgd.DpsgdSetting(1.5, 10, 1e-5, (0.1,)), "sample_rate"),
        (lambda: dpsgd.DpsgdSetting(0.1, 0, 1e-5, (0.1,)), "num_steps"),
    ],
)
def test_bad_input_is_refused_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_no_epsilon_meets_a_risk_that_zero_already_allows():
    """(0, δ)-DP already allows advantage δ and TPR α + δ: below that, no ε, said as NaN."""
    assert math.isnan(risk.epsilon_for(risk.at_most_advantage(1e-6), 1e-5))
    assert math.isnan(risk.epsilon_for(risk.at_most_tpr(0.5 + 5e-6, 0.5), 1e-5))
    assert risk.epsilon_for(risk.at_most_advantage(2e-5), 1e-5) > 0


# --- the Gaussian mechanism (Appendix G) -------------------------------------------------------


@given(st.floats(0.01, 0.9))
def test_gaussian_advantage_calibration_against_dp_accounting(eta):
    sigma = risk.noise_for("Gaussian", risk.at_most_advantage(eta))
    assert risk.advantage(risk.gdp(1.0 / sigma)) == pytest.approx(eta, rel=1e-12)


@pytest.mark.parametrize("alpha, beta", [(0.01, 0.7), (0.05, 0.5), (0.1, 0.8)])
def test_gaussian_err_rates_calibration_against_riskcal(alpha, beta):
    sigma = risk.noise_for("Gaussian", risk.at_most_tpr(1 - beta, alpha))
    pld = privacy_loss_distribution.from_gaussian_mechanism(
        sigma, value_discretization_interval=1e-4
    )
    assert float(get_beta_from_pld(pld, alpha=alpha)) == pytest.approx(beta, abs=1e-3)
    assert risk.tradeoff(risk.gdp(1.0 / sigma), alpha) == pytest.approx(beta, rel=1e-12)
    eta = risk.advantage(risk.gdp(1.0 / sigma))
    assert float(get_advantage_from_pld(pld)) == pytest.approx(eta, abs=1e-3)


@pytest.mark.parametrize("mu, epsilon", [(0.5, 0.1), (1.0, 1.0), (0.2, 0.0)])
def test_gaussian_delta_against_dp_accounting_and_the_attacker_scale(mu, epsilon):
    pld = privacy_loss_distribution.from_gaussian_mechanism(
        1 / mu, value_discretization_interval=1e-5
    )
    ours = risk.gdp_delta(mu, epsilon)
    assert ours == pytest.approx(float(pld.get_delta_for_epsilon(epsilon)), rel=1e-3, abs=1e-9)
    assert ours == pytest.approx(risk.gdp_delta(mu, epsilon), rel=1e-9)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 4.0])
def test_gaussian_standard_calibration_is_the_smallest_noise(epsilon):
    sigma = risk.gaussian_noise_for_epsilon(epsilon, DELTA)
    assert risk.gdp_delta(1 / sigma, epsilon) == pytest.approx(DELTA, rel=1e-9)
    assert risk.gdp_delta(1 / (sigma * (1 - 1e-6)), epsilon) > DELTA  # less noise: not (ε, δ)


def test_standard_route_needs_more_noise_than_the_attack_aware_for_the_gaussian():
    for eta in (0.01, 0.1, 0.5):
        standard = risk.gaussian_noise_for_epsilon(
            risk.epsilon_for(risk.at_most_advantage(eta), DELTA), DELTA
        )
        assert standard > risk.noise_for("Gaussian", risk.at_most_advantage(eta))


# --- DP-SGD: our calibration against riskcal's ------------------------------------------------

# a coarse privacy-loss grid (1e-2, five times faster to account than 1e-3): the tests below
# compare two routes at one and the same setting (ours and riskcal's, processes and one process),
# which holds at any grid; the committed sample further down recomputes rows at the paper's 1e-4
SMALL = dpsgd.DpsgdSetting(0.1, 10, DELTA, (0.01, 0.1), grid_step=1e-2)


@pytest.fixture(scope="module")
def small_accountant():
    return dpsgd.DpsgdAccountant(SMALL)


def test_dpsgd_advantage_calibration_agrees_with_riskcals(small_accountant):
    ours = small_accountant.calibrate("advantage", 0.1)
    theirs = find_noise_multiplier_for_advantage(
        0.1, SMALL.sample_rate, SMALL.num_steps, SMALL.grid_step, noise_min=0.5, noise_max=4.0
    )
    assert small_accountant.measure("advantage", theirs) <= 0.1 + 1e-3  # riskcal's tolerance
    assert ours == pytest.approx(theirs, rel=2e-2)
    # ours brackets the target from both sides, to its relative tolerance
    assert small_accountant.measure("advantage", ours * (1 + 2 * cal.CALIBRATION_RTOL)) <= 0.1
    assert small_accountant.measure("advantage", ours * (1 - 2 * cal.CALIBRATION_RTOL)) > 0.1


def test_dpsgd_tpr_calibration_agrees_with_riskcals(small_accountant):
    ours = small_accountant.calibrate("tpr", 0.3, 0.1)
    theirs = find_noise_multiplier_for_err_rates(
        0.1, 0.7, SMALL.sample_rate, SMALL.num_steps, SMALL.grid_step, noise_min=0.5, noise_max=4.0
    )
    assert ours == pytest.approx(theirs, rel=2e-2)
    assert small_accountant.measure("tpr", ours * (1 + 2 * cal.CALIBRATION_RTOL), 0.1) <= 0.3
    assert small_accountant.measure("tpr", ours * (1 - 2 * cal.CALIBRATION_RTOL), 0.1) > 0.3


def test_dpsgd_independent_routes_bound_riskcal(small_accountant):
    checks = dpsgd.independent_checks(SMALL, 1.0)
    risks = small_accountant.risks(1.0)
    assert checks["advantage_from_curve"] <= risks.advantage + 1e-9
    assert checks["advantage_from_curve"] == pytest.approx(risks.advantage, abs=2e-3)
    for a, b in zip(SMALL.fprs, risks.betas):
        assert 1 - b <= checks[f"tpr_blackbox_at_{a:g}"] + 1e-9  # Eq. (20) bounds from above
        assert 1 - b == pytest.approx(checks[f"tpr_blackbox_at_{a:g}"], abs=2e-3)


def test_a_predicted_root_is_confirmed_by_a_pair_within_the_tolerance():
    """After the ladder, the search predicts the root and straddles it with two evaluations: once
    the memo holds a bracket narrower than the tolerance, brentq returns without evaluating, and
    the calibration is the bracket's safe end (the smaller risk, the more noise)."""
    accountant = dpsgd.DpsgdAccountant(SMALL)
    sigma = accountant.calibrate("tpr", 0.3, 0.1)
    goal = 0.3 - privacy_loss.ACCOUNTANT_MARGIN
    sigmas = np.array(sorted(accountant.memo))
    tprs = np.array([accountant.measure("tpr", x, 0.1) for x in sigmas])
    below, above = sigmas[tprs > goal].max(), sigmas[tprs <= goal].min()
    assert below < above and (above - below) <= cal.CALIBRATION_RTOL * below
    assert sigma == above
    count = len(accountant.memo)
    assert accountant.calibrate("tpr", 0.3, 0.1) == sigma  # found again from the memo alone
    assert len(accountant.memo) == count


@pytest.mark.parametrize(
    ("kind", "target", "fpr"),
    [("advantage", 0.1, None), ("tpr", 0.3, 0.1), ("tpr", 0.05, 0.01), ("epsilon", 1.0, None)],
)
def test_a_dpsgd_calibration_spends_its_tolerance_on_the_safe_side(kind, target, fpr):
    """The σ a search returns allows at most its target less the accountant's margin, read again
    from a privacy loss distribution composed anew (no evaluation remembered): from above. And it
    is no more noise than the tolerance allows: 2 × CALIBRATION_RTOL less noise is above the
    target: from below."""
    sigma = dpsgd.DpsgdAccountant(SMALL).calibrate(kind, target, fpr)
    fresh = dpsgd.DpsgdAccountant(SMALL)
    assert fresh.measure(kind, sigma, fpr) <= target - privacy_loss.ACCOUNTANT_MARGIN
    assert fresh.measure(kind, sigma * (1 - 2 * cal.CALIBRATION_RTOL), fpr) > target


def test_the_ladder_reaches_as_far_as_the_target_asks():
    """The ladder's upper end follows from the target (twice the noise that meets it without
    subsampling), not from a fixed 304: an advantage of 1e-5 at 10 steps of rate 0.1 needs σ near
    1.35e4, found and bracketed from both sides; a target the ladder's lowest rung already meets,
    and one no noise meets, are refused in words."""
    accountant = dpsgd.DpsgdAccountant(SMALL)
    sigma = accountant.calibrate("advantage", 1e-5)
    assert sigma > 304
    assert accountant.measure("advantage", sigma) <= 1e-5 - privacy_loss.ACCOUNTANT_MARGIN
    # (the margin, 1e-7, is 1% of this target: the root is where the advantage is 1e-5 less it)
    less = accountant.measure("advantage", sigma * (1 - 2 * cal.CALIBRATION_RTOL))
    assert less > 1e-5 - privacy_loss.ACCOUNTANT_MARGIN
    with pytest.raises(ValueError, match=r"met at every σ down to 0\.125"):
        accountant.calibrate("advantage", 0.9999)
    with pytest.raises(ValueError, match="target must exceed the accountant's margin"):
        accountant.calibrate("advantage", 1e-7)
    with pytest.raises(ValueError, match="target must exceed fpr"):
        accountant.calibrate("tpr", 0.1, 0.1)


def test_a_bracket_ends_at_the_least_noise_beyond_the_last_that_fails():
    """Readings that jitter (ε at δ = 1e-12 does, within the tolerance) leave a σ that meets the
    target below one that fails: the bracket is the last failing σ and the least σ above it that
    meets the target, so the answer is safe and tight, not the ladder's far rung."""
    accountant = dpsgd.DpsgdAccountant(SMALL)
    for sigma, eps in [(1.0, 0.5), (1.1, 0.39), (1.2, 0.41), (1.3, 0.38), (1.5, 0.3)]:
        accountant.memo[sigma] = dpsgd.Risks(sigma, 0.0, (0.0, 0.0), eps)
    assert accountant._bracket("epsilon", 0.4, None, 0.0, 2.0) == (1.2, 1.3)
    assert accountant._bracket("epsilon", 0.2, None, 0.0, 2.0) is None


def test_the_ladder_refuses_a_target_beyond_its_ends():
    accountant = dpsgd.DpsgdAccountant(SMALL)
    with pytest.raises(ValueError, match="kind must be"):
        accountant.calibrate("accuracy", 0.1)
    with pytest.raises(ValueError, match="fpr must be one of"):
        accountant.calibrate("tpr", 0.3, 0.2)


def test_a_target_beyond_the_ladder_is_a_row_not_applicable(monkeypatch):
    """A target that no σ up to the ladder's top meets (the top held at σ = 2 here; an advantage
    of 0.004 at q = 0.1 and 5 steps needs σ near 50) stops neither the grid nor the other
    targets: its row holds no number and says why, and results.json's ratio reads "not
    applicable: <why>"."""
    monkeypatch.setattr(dpsgd, "top_rung", lambda enough: 8)  # the ladder ends at σ = 2^(8/8) = 2
    setting = dpsgd.DpsgdSetting(0.1, 5, DELTA, (0.1,), grid_step=1e-2)
    with pytest.raises(dpsgd.OutOfReach, match="not met by σ up to 2,"):
        dpsgd.DpsgdAccountant(setting).calibrate("advantage", 0.004)
    rows = forensics.compute(setting, [("advantage", 0.004, None), ("advantage", 0.3, None)])
    grid, unmet = forensics.split_unmet(pd.DataFrame(rows))
    assert list(unmet.target) == [0.004] and list(grid.target) == [0.3]
    assert (
        unmet.drop(columns=["kind", "target", "epsilon_target", "not_applicable"])
        .isna()
        .all(axis=None)
    )
    assert unmet.not_applicable.iloc[0].startswith("attack-aware calibration: the target is not")
    assert (forensics.margins(grid) >= privacy_loss.ACCOUNTANT_MARGIN).all(axis=None)
    ratios = forensics.ratio_results(grid, unmet, "advantage")
    assert ratios["0.004"] == "not applicable: " + unmet.not_applicable.iloc[0]
    assert ratios["0.3"] == grid.noise_ratio.iloc[0]
    assert forensics.unmet_lines(unmet) == [
        "advantage 0.004: not applicable: " + unmet.not_applicable.iloc[0]
    ]


def test_the_grid_in_processes_equals_the_grid_in_one(tmp_path):
    """forensics.compute in two processes (two chains, or a shared sweep of the ladder) returns
    the rows of the serial route, to the calibration's tolerance."""
    setting = dpsgd.DpsgdSetting(0.1, 5, DELTA, (0.1,), grid_step=1e-2)
    wanted = [("advantage", 0.1, None), ("tpr", 0.3, 0.1), ("tpr", 0.4, 0.1)]
    serial = forensics.compute(setting, wanted, workers=1)
    for parallel in (
        forensics.compute(setting, wanted, workers=2),  # two chains, a reader's run
        forensics.compute(setting, wanted, workers=2, sweep=True),  # the precompute's
    ):
        for a, b in zip(serial, parallel):
            assert a["sigma_aware"] == pytest.approx(b["sigma_aware"], rel=cal.CALIBRATION_RTOL)
            assert a["sigma_standard"] == pytest.approx(
                b["sigma_standard"], rel=cal.CALIBRATION_RTOL
            )
    for row in serial:
        one = dpsgd.standard_and_aware(
            dpsgd.DpsgdAccountant(setting),
            row["kind"],
            row["target"],
            None if row["kind"] == "advantage" else row["fpr"],
        )
        assert one["sigma_aware"] == pytest.approx(row["sigma_aware"], rel=cal.CALIBRATION_RTOL)


def test_standard_and_aware_row(small_accountant):
    row = dpsgd.standard_and_aware(small_accountant, "tpr", 0.3, 0.1)
    assert row["sigma_standard"] >= row["sigma_aware"]
    assert row["epsilon_standard"] == pytest.approx(row["epsilon_target"], rel=1e-3)
    assert row["tpr_aware_at_0.1"] == pytest.approx(0.3, abs=1e-3)
    assert row["tpr_standard_at_0.1"] <= 0.3


# --- the stored grid: content addresses, reuse, and a recomputed sample ------------------------


def test_the_key_moves_with_every_input_and_version(monkeypatch):
    base = forensics.key(SMALL, "tpr", 0.3, 0.1)
    assert base == forensics.key(SMALL, "tpr", 0.3, 0.1)
    assert base != forensics.key(SMALL, "tpr", 0.3, 0.05)
    assert base != forensics.key(
        dpsgd.DpsgdSetting(0.1, 11, DELTA, (0.01, 0.1), grid_step=1e-3), "tpr", 0.3, 0.1
    )
    monkeypatch.setattr(forensics, "versions", lambda: {"riskcal": "0.0"})
    assert base != forensics.key(SMALL, "tpr", 0.3, 0.1)


def test_stored_rows_are_reused_and_missing_ones_computed(tmp_path):
    setting = dpsgd.DpsgdSetting(0.1, 5, DELTA, (0.1,), grid_step=1e-2)
    store = tmp_path / "grid.json"
    wanted = [("advantage", 0.1, None)]
    first, counts = forensics.calibrations(setting, wanted, store)
    assert counts == {"reused": 0, "computed": 1, "aware_reused": 0}
    assert forensics.write(first, store) is True
    assert forensics.write(first, store) is False  # unchanged: the file is left as it was
    again, counts = forensics.calibrations(setting, [*wanted, ("tpr", 0.3, 0.1)], store)
    assert counts == {"reused": 1, "computed": 1, "aware_reused": 0}
    assert again.sigma_aware.iloc[0] == first.sigma_aware.iloc[0]


def test_at_another_delta_the_attack_aware_noise_of_a_stored_row_is_read_not_searched(tmp_path):
    """The attack-aware noise depends on the privacy loss distribution alone, not on δ: a run at
    another δ takes it from the row stored at the committed δ (and reads the risks there anew),
    and searches only the standard route, which moves with δ."""
    setting = dpsgd.DpsgdSetting(0.1, 5, DELTA, (0.1,), grid_step=1e-2)
    store = tmp_path / "grid.json"
    wanted = [("advantage", 0.1, None), ("tpr", 0.3, 0.1)]
    stored, _ = forensics.calibrations(setting, wanted, store)
    forensics.write(stored, store)
    other = dataclasses.replace(setting, delta=1e-9)
    table, counts = forensics.calibrations(other, wanted, store)
    assert counts == {"reused": 0, "computed": 2, "aware_reused": 2}
    assert forensics.provenance_text(table, counts) == (
        "2 targets: 0 stored rows reused, 2 computed\n"
        "  2 of them take the attack-aware noise of a row stored at the paper's δ"
    )
    assert list(table.sigma_aware) == list(stored.sigma_aware)
    assert (table.sigma_standard > stored.sigma_standard).all()  # a smaller δ asks more noise
    assert (forensics.margins(table) >= privacy_loss.ACCOUNTANT_MARGIN).all(axis=None)
    searched = pd.DataFrame(forensics.compute(other, wanted))
    assert list(searched.sigma_aware) == pytest.approx(list(table.sigma_aware), rel=2e-4)


def committed_grid():
    setting, wanted = precompute.committed_grid()
    return setting, wanted, forensics.load(STORE)


def test_the_committed_grid_holds_every_target_under_todays_key():
    setting, wanted, stored = committed_grid()
    keys = [forensics.key(setting, *w) for w in wanted]
    assert set(keys) == set(stored), (
        "rerun `python -m choosing_epsilon.papers.kulynych_2024.precompute`"
    )
    assert json.loads(STORE.read_text())["versions"] == forensics.versions()


def test_every_stored_calibration_allows_at_most_its_target():
    """Every stored row's attack-aware σ keeps its risk (advantage, or TPR at its FPR) at least the
    accountant's margin below the target, and every standard σ its ε below ε*: never above, so
    never above on another CPU either (its last bits differ by far less than the margin)."""
    _, _, stored = committed_grid()
    margins = forensics.margins(pd.DataFrame(list(stored.values())))
    assert len(margins) == len(stored)
    assert (margins.aware >= privacy_loss.ACCOUNTANT_MARGIN).all(), margins.aware.min()
    assert (margins.standard >= privacy_loss.ACCOUNTANT_MARGIN).all(), margins.standard.min()
    # and conservative by no more than the search's tolerance allows (see the bracket tests)
    assert margins.aware.max() < 1e-3


def _stored_keys() -> list[str]:
    return sorted(forensics.load(STORE))


@pytest.mark.cases
@pytest.mark.parametrize("key", _stored_keys())
def test_a_stored_calibration_recomputed_allows_at_most_its_target(key):
    """Each stored row recomputed from a privacy loss distribution composed anew at its σ (the
    paper's 10,000 steps, grid 1e-4): the attack-aware σ allows at most the target, the standard
    σ at most ε*, on this CPU's code path (slow: make test-cases)."""
    setting, _, stored = committed_grid()
    row = stored[key]
    fpr = row["fpr"] if row["kind"] == "tpr" else None
    accountant = dpsgd.DpsgdAccountant(setting)
    assert accountant.measure(row["kind"], row["sigma_aware"], fpr) <= row["target"]
    assert accountant.measure("epsilon", row["sigma_standard"]) <= row["epsilon_target"]


@pytest.mark.parametrize("kind", ["advantage", "tpr"])
def test_a_committed_calibration_recomputed_brackets_its_target(kind):
    """The sample: the committed row of ``kind`` with the most noise (the cheapest to account),
    its risk recomputed just above and below the stored σ at the paper's 10,000 steps."""
    setting, _, stored = committed_grid()
    rows = [r for r in stored.values() if r["kind"] == kind]
    row = max(rows, key=lambda r: r["sigma_aware"])
    accountant = dpsgd.DpsgdAccountant(setting)
    fpr = row["fpr"] if kind == "tpr" else None
    slack = 2 * cal.CALIBRATION_RTOL
    assert accountant.measure(kind, row["sigma_aware"] * (1 + slack), fpr) <= row["target"]
    assert accountant.measure(kind, row["sigma_aware"] * (1 - slack), fpr) > row["target"]
    # and standard calibration's σ gives its ε* (dp-accounting)
    epsilon = accountant.measure("epsilon", row["sigma_standard"])
    assert epsilon == pytest.approx(row["epsilon_target"], rel=10 * cal.CALIBRATION_RTOL)
    assert math.isclose(row["noise_ratio"], row["sigma_standard"] / row["sigma_aware"])


def test_a_committed_calibration_found_again_from_scratch():
    """The search from scratch (its own ladder, no evaluation shared with other targets) lands on
    the committed noise of the cheapest row (the smallest advantage: the largest σ) to the
    calibration's tolerance, for both routes: the answer does not depend on the search's path."""
    setting, _, stored = committed_grid()
    row = max(
        (r for r in stored.values() if r["kind"] == "advantage"), key=lambda r: r["sigma_aware"]
    )
    aware = dpsgd.DpsgdAccountant(setting).calibrate("advantage", row["target"])
    standard = dpsgd.DpsgdAccountant(setting).calibrate("epsilon", row["epsilon_target"])
    assert aware == pytest.approx(row["sigma_aware"], rel=cal.CALIBRATION_RTOL)
    assert standard == pytest.approx(row["sigma_standard"], rel=cal.CALIBRATION_RTOL)


def test_a_rerun_within_the_calibrations_tolerance_leaves_the_store(tmp_path):
    """make reproduce rewrites the store only when a number moved beyond 10 × the tolerance."""
    store = tmp_path / "grid.json"
    store.write_text(STORE.read_text())
    table = pd.DataFrame([{"key": k, **v} for k, v in forensics.load(store).items()])
    tolerance = 10 * cal.CALIBRATION_RTOL
    nudged = table.assign(sigma_aware=table.sigma_aware * (1 + cal.CALIBRATION_RTOL))
    assert forensics.write(nudged, store, tolerance=tolerance) is False
    moved = table.assign(sigma_aware=table.sigma_aware * (1 + 20 * cal.CALIBRATION_RTOL))
    assert forensics.write(moved, store, tolerance=tolerance) is True


@pytest.mark.parametrize(
    ("ratios", "said"),
    [
        (
            [6.44, 4.0, 3.0, 2.0],
            "the ratio falls as η* grows: 6.44 at η* = 0.004 (the grid's smallest target), 4.00 at "
            "most over Sec. 3.1's range [0.01, 0.25]; it passes 3.5 near η* = ",
        ),
        (
            [2.98, 3.2, 4.4, 4.0],
            "the ratio does not fall steadily as η* grows: 4.40 at η* = 0.1 (not the grid's "
            "smallest target), 4.40 at most over Sec. 3.1's range [0.01, 0.25]; no single η* "
            "where it passes 3.5 (the ratio is not monotone)",
        ),
        ([1.45, 1.3, 1.2, 1.1], "; it stays below 3.5"),
    ],
    ids=["the paper's shape", "rising", "never 3.5"],
)
def test_the_ratio_note_reads_the_run_not_the_papers_grid(ratios, said):
    """Sec. 3.1's note said the ratio falls and passes 3.5 whatever the run found (np.interp clamps
    a ratio that never gets there); it now says what the run's ratios do."""
    grid = pd.DataFrame({"target": [0.004, 0.05, 0.1, 0.25], "noise_ratio": ratios})
    in_text = float(grid[grid.target >= 0.01].noise_ratio.max())
    note = forensics.ratio_trend_note(grid, in_text)
    assert said in note
    if ratios[0] == 6.44:  # between 0.05 (4.0) and 0.1 (3.0), in log η*
        crossing = math.exp(math.log(0.05) + 0.5 * math.log(2))
        assert note.endswith(f"{crossing:.3f}")
