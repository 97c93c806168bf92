"""Edge cases of laplace_intro and shoaran_2012: extreme parameters run to the end with honest
output, bad ones are refused."""

import ast
import inspect
import json
import math

import nbformat
import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import laplace, risk
from choosing_epsilon import relative_error as rel
from choosing_epsilon.harness import reproduce
from choosing_epsilon.harness.paths import NOTEBOOKS
from choosing_epsilon.papers.laplace_intro import budget
from tests import bruteforce
from tests.notebook_text import assert_files_bounded, outputs_text, strict_load

PAPER = ([3000.0, 30000.0], [1.0, 1.0], [1.0, 10.0])  # Example 3: answers, sensitivities, index
# no discrepancy: notes record slips in the paper's wording
SHOARAN_OK = {"reproduced", "not applicable", "note"}


def _random_queries(rng, m):
    return rng.uniform(2, 50, m), rng.uniform(0.1, 1.5, m), rng.uniform(0.1, 10, m)


# --- the privacy check of shoaran_2012 (case 4): closed forms against the enumeration oracle ---


@pytest.mark.parametrize("m", [1, 2, 3, 4])
@pytest.mark.parametrize("epsilon", [1e-5, 0.3, 20.0])
def test_diff_worst_case_is_the_enumerated_worst_case(m, epsilon):
    rng = np.random.default_rng(m)
    q, d, g = _random_queries(rng, m)
    for width in (1.0, 5.0, 30.0):
        got = rel.diff_worst_log_ratio(q, d, g, epsilon, width)
        assert got == pytest.approx(
            bruteforce.worst_log_ratio(q, d, g, epsilon, width), rel=1e-9, abs=1e-12
        )


@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_proportional_worst_case_is_the_enumerated_worst_case(m):
    rng = np.random.default_rng(10 + m)
    for _ in range(3):
        q, d, g = _random_queries(rng, m)
        epsilon, width = rng.uniform(0.01, 3), rng.choice([1.0, 5.0, 30.0])
        got, exact = rel.proportional_worst_log_ratio(q, d, g, epsilon, width)
        assert exact
        assert got == pytest.approx(
            bruteforce.worst_log_ratio(q, d, g, epsilon, width, proportional=True), rel=1e-9
        )


def test_beyond_the_enumeration_limit_the_search_is_a_lower_bound_reached_by_a_neighbour():
    rng = np.random.default_rng(3)
    for m in (2, 3, 4):
        q, d, g = _random_queries(rng, m)
        exact, is_exact = rel.proportional_worst_log_ratio(q, d, g, 0.5, 20.0)
        bound, bound_exact = rel.proportional_worst_log_ratio(q, d, g, 0.5, 20.0, max_neighbours=0)
        assert is_exact and not bound_exact
        assert bound <= exact * (1 + 1e-12)
        assert math.isfinite(bound)


def test_a_neighbour_answer_at_or_below_zero_makes_the_proportional_loss_infinite():
    value, exact = rel.proportional_worst_log_ratio(
        [0.5, 30000.0], [1.0, 1.0], [1.0, 10.0], 0.01, 5.0
    )
    assert value == math.inf and exact
    assert (
        bruteforce.worst_log_ratio(
            [0.5, 30000.0], [1.0, 1.0], [1.0, 10.0], 0.01, 5.0, proportional=True
        )
        == math.inf
    )


def test_twenty_queries_are_not_enumerated():
    # 3^20 neighbours: DIFF is summed per query, the proportional value searched
    # (its time: make bench)
    m = 20
    q, d, g = np.tile([3000.0, 30000.0, 300.0], 7)[:m], np.ones(m), np.tile([1.0, 10.0, 0.1], 7)[:m]
    diff = rel.diff_worst_log_ratio(q, d, g, 0.01, 100.0)
    prop, exact = rel.proportional_worst_log_ratio(q, d, g, 0.01, 100.0)
    assert diff == pytest.approx(0.01, rel=1e-9) and not exact and prop > 0.01


@pytest.mark.parametrize("epsilon", [1e-5, 1e-3, 20.0, 1000.0])
def test_diff_stays_within_epsilon_up_to_roundoff_at_extreme_epsilon(epsilon):
    # case 3: at ε = 1e-5 the terms |y - q|/λ are 10^7 times ε, so a fixed relative tolerance on
    # ε fails by round-off alone
    for width in (5, 20, 100):
        worst = rel.diff_worst_log_ratio(*PAPER, epsilon, width)
        slack = rel.roundoff_bound(*PAPER, epsilon, width)
        assert worst <= epsilon + slack
        assert slack < 1e-10 * max(epsilon, width)
        # the plateau |y - q| ≥ Δ lies inside the interval
        if 5 * rel.diff_scales(PAPER[1], PAPER[2], epsilon).min() >= 1:
            assert worst == pytest.approx(epsilon, rel=1e-6)


def test_simulated_counts_do_not_depend_on_the_chunk_size():
    answers, scales = np.array([3000.0, 30000.0]), np.array([110.0, 1100.0])
    whole = np.random.default_rng(5).laplace(0.0, 1.0, size=(5000, 2)) * scales
    expected = np.sum(np.abs(answers + whole - answers) <= 0.1 * answers, axis=0)
    for rows in (1, 7, 2**18):
        got = rel.within_relative_error(
            answers, scales, 0.1, 5000, np.random.default_rng(5), chunk_rows=rows
        )
        assert got.tolist() == expected.tolist()


def test_an_implausible_simulation_is_reported_not_asserted():
    rel.check_simulated(930, 1000, 0.9346, "ok")
    with pytest.raises(
        RuntimeError,
        match=r"DIFF: 500 of 1000 releases within re, but the exact probability is 0.9346",
    ):
        rel.check_simulated(500, 1000, 0.9346, "DIFF")


# --- laplace_intro's package pieces (cases 2 and 5) ---


def test_e_to_a_large_epsilon_is_inf_or_a_power_of_ten_not_an_overflow():
    assert (
        laplace.exp_or_inf(10) == pytest.approx(math.exp(10))
        and laplace.exp_or_inf(1000) == math.inf
    )
    assert laplace.exp_text(1000) == "1.9701 × 10^434"  # e^1000 = 10^(1000 / ln 10) = 10^434.294...
    assert laplace.exp_text(-1000) == "5.0760 × 10^-435"
    assert laplace.exp_text(10, ",.1f") == "22,026.5"


@pytest.mark.parametrize("epsilon", [1e-5, 1e-3, 0.5, 20.0, 1000.0])
def test_privacy_loss_check_passes_the_mechanism_and_refuses_a_wrong_loss(epsilon):
    lam = laplace.scale(7, epsilon)
    x = np.linspace(5 - 7 - 6 * lam, 12 + 7 + 6 * lam, 2001)
    loss = laplace.log_density_ratio(x, 5, 12, 7, epsilon)
    laplace.check_privacy_loss(loss, x, 5, 12, 7, epsilon)
    with pytest.raises(RuntimeError, match="exceeds epsilon"):
        laplace.check_privacy_loss(loss * (1 + 1e-6), x, 5, 12, 7, epsilon)


def test_a_budget_larger_than_the_releases_simulated():
    # case 1: ⌊2 / 0.001⌋ = 2000 releases are paid for; an accountant charged for 3 refuses nothing
    assert budget.releases_within(2.0, 0.001) == 2000
    accountant = budget.PrivacyAccountant(2.0)
    for _ in range(3):
        accountant.spend(0.001)
    assert accountant.remaining == pytest.approx(1.997) and accountant.can_spend(0.001)


def test_posterior_bound_at_a_huge_epsilon_is_one_without_overflow():
    assert risk.largest_posterior(risk.pure(1000.0), 0.01) == 1.0


# --- no bare assert on a path a reader reaches (case 5) ---


@pytest.mark.parametrize("name", ["laplace_intro", "shoaran_2012"])
def test_notebooks_have_no_bare_assert(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            tree = ast.parse(cell.source)
            assert not [n for n in ast.walk(tree) if isinstance(n, ast.Assert)], cell.source[:200]


@pytest.mark.parametrize("module", [laplace, budget, rel, risk])
def test_modules_have_no_bare_assert(module):
    tree = ast.parse(inspect.getsource(module))
    assert not [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Assert)]


# --- the notebooks at the extremes ---


def _status(out):
    return pd.read_csv(out / "claims.csv").set_index("claim_id").status


@pytest.mark.notebook
def test_laplace_intro_budget_beyond_the_releases(tmp_path):
    # case 1: ε = 0.001 with a budget of 2 pays for 2000 releases, but only 3 are simulated
    reproduce.run_notebook("laplace_intro", {"epsilon": 0.001, "n_runs": 3}, tmp_path)
    got = strict_load((tmp_path / "results.json").read_text())
    assert got["runs_until_budget_exhausted"] == 2000
    text = outputs_text(tmp_path / "laplace_intro.ipynb")
    assert "the budget pays for 2000 releases; 3 made" in text and "no request refused" in text
    assert "too few for the normal approximation, not checked" in text
    status = _status(tmp_path)
    assert status["sliding_epsilon"] == "not applicable" and status["e_to_10"] == "reproduced"
    # the captions are built from the run's parameters, not copied from the committed run
    captions = json.loads((tmp_path / "captions.json").read_text(encoding="utf-8"))
    assert "ε = 0.001" in captions["output_perturbation"]["caption"]
    assert "of 3 releases" in captions["averaging_attack"]["caption"]


@pytest.mark.notebook
def test_laplace_intro_at_epsilon_high_1000(tmp_path):
    # case 2: e^1000 overflows a float; it is printed as a power of ten and recorded as inf
    reproduce.run_notebook("laplace_intro", {"epsilon_high": 1000.0}, tmp_path)
    got = strict_load((tmp_path / "results.json").read_text())
    assert got["ratio_bound_high"] == "inf" and got["ratio_bound"] == pytest.approx(math.exp(0.5))
    assert "e^1000 = 1.9701 × 10^434" in outputs_text(tmp_path / "laplace_intro.ipynb")
    data = pd.read_csv(tmp_path / "scenarios_epsilon_0.5_and_10.csv")
    high = data[data.epsilon == 1000.0]
    assert high.ln_ratio.max() == pytest.approx(1000.0) and high.ln_ratio.min() == pytest.approx(
        -1000.0
    )
    assert _status(tmp_path)["e_to_10"] == "not applicable"
    # the caption gives the bound e^1000 as a power of ten, as the ratio panel's tick does
    captions = json.loads((tmp_path / "captions.json").read_text(encoding="utf-8"))
    scenarios = captions["scenarios_epsilon_0.5_and_10"]["caption"]
    assert "ε = 1000" in scenarios and f"{laplace.ratio_label(1000.0)} at ε = 1000" in scenarios
    assert_files_bounded(tmp_path)


@pytest.mark.notebook
@pytest.mark.parametrize(
    "params", [{"epsilon": 1e-5, "n_runs": 2, "budget": 1e-5}, {"epsilon": 1000.0, "seed": 0}]
)
def test_laplace_intro_at_extreme_epsilon_and_two_releases(tmp_path, params):
    reproduce.run_notebook("laplace_intro", params, tmp_path)
    got = strict_load((tmp_path / "results.json").read_text())
    assert got["noise_scale"] == pytest.approx(7 / params["epsilon"])
    assert got["runs_until_budget_exhausted"] == budget.releases_within(
        params.get("budget", 2.0), params["epsilon"]
    )
    assert set(_status(tmp_path)) <= {
        "reproduced",
        "not applicable",
        "note",
    }  # slips in the post's wording are shown at any ε


@pytest.mark.notebook
def test_laplace_intro_with_a_million_releases_keeps_its_files_small(tmp_path):
    reproduce.run_notebook("laplace_intro", {"n_runs": 10**6}, tmp_path)
    assert (
        len(pd.read_csv(tmp_path / "output_perturbation.csv")) == 60
    )  # the histogram, not a million rows
    attack = pd.read_csv(tmp_path / "averaging_attack.csv")
    assert attack.k.iloc[0] == 1 and attack.k.iloc[-1] == 10**6 and len(attack) <= 10_000
    assert_files_bounded(tmp_path)


@pytest.mark.notebook
def test_shoaran_at_epsilon_1e_minus_5(tmp_path):
    # case 3: the DIFF privacy check is compared with ε up to the round-off of its terms, not a
    # fixed relative tolerance
    reproduce.run_notebook("shoaran_2012", {"epsilon": 1e-5, "n_trials": 2000}, tmp_path)
    check = pd.read_csv(tmp_path / "privacy_loss_check.csv")
    assert check["worst ln-ratio, DIFF"].to_numpy() == pytest.approx(1e-5, rel=1e-9)
    assert (check["worst ln-ratio, proportional"] > 1e-5).all() and set(
        check["proportional worst case"]
    ) == {"exact"}
    # the "1 − pr percent" note does not depend on ε
    assert {"reproduced", "not applicable"} <= set(_status(tmp_path)) <= SHOARAN_OK
    # the captions speak of the ε of the run: the marked noise is 69315 at ε = 10⁻⁵, not 69
    captions = json.loads((tmp_path / "captions.json").read_text(encoding="utf-8"))
    assert (
        "69315 and 120397, exceeded half and 30% of the time at ε = 1e-05."
        in (captions["fig1_noise_vs_probability"]["caption"])
    )
    assert "Example 1 (ε = 1e-05, pr = 10%)." in captions["fig2_mta"]["caption"]


@pytest.mark.notebook
def test_shoaran_with_twenty_queries_runs_to_the_end(tmp_path):
    # case 4: 3^20 neighbours are not enumerated; DIFF is exact by separability, the proportional
    # value a stated lower bound
    m = 20
    params = {
        "query_answers": np.tile([3000.0, 30000.0, 300.0], 7)[:m].tolist(),
        "query_index": np.tile([1.0, 10.0, 0.1], 7)[:m].tolist(),
        "query_sensitivities": [1.0] * m,
        "n_trials": 2000,
    }
    reproduce.run_notebook("shoaran_2012", params, tmp_path)
    check = pd.read_csv(tmp_path / "privacy_loss_check.csv")
    assert check["worst ln-ratio, DIFF"].to_numpy() == pytest.approx(0.01, rel=1e-9)
    assert set(check["proportional worst case"]) == {"lower bound"}
    assert set(_status(tmp_path)) <= SHOARAN_OK


@pytest.mark.notebook
@pytest.mark.parametrize(
    "params, expect",
    [
        (
            {
                "query_answers": [3000.0],
                "query_index": [1.0],
                "query_sensitivities": [1.0],
                "n_trials": 2,
            },
            "exact",
        ),
        ({"query_answers": [0.5, 30000.0], "epsilon": 1000.0, "n_trials": 2000}, "vanishes"),
    ],
)
def test_shoaran_one_query_and_answers_below_the_sensitivity(tmp_path, params, expect):
    reproduce.run_notebook("shoaran_2012", params, tmp_path)
    status = _status(tmp_path)
    assert set(status) <= SHOARAN_OK and status["example1_mta"] != "discrepancy"
    text = outputs_text(tmp_path / "shoaran_2012.ipynb")
    if expect == "vanishes":
        assert "noise proportional to it vanishes" in text
        assert (
            pd.read_csv(tmp_path / "privacy_loss_check.csv")["worst ln-ratio, proportional"]
            == math.inf
        ).all()


@pytest.mark.parametrize(
    "name, params, message",
    [
        ("laplace_intro", {"n_runs": 1}, r"'n_runs' must be in \[2, 10\*\*7\]"),
        ("laplace_intro", {"epsilon": 0.0}, r"'epsilon' must be in \(0, inf\)"),
        ("shoaran_2012", {"query_answers": []}, r"'query_answers' must be in a non-empty list"),
        ("shoaran_2012", {"pr": 1.0}, r"'pr' must be in \(0, 1\)"),
    ],
)
def test_bad_values_are_refused_in_one_line_before_a_kernel_starts(tmp_path, name, params, message):
    with pytest.raises(ValueError, match=message) as refusal:
        reproduce.run_notebook(name, params, tmp_path)
    assert "\n" not in str(refusal.value)
    assert not list(tmp_path.iterdir())
