"""kazan_reiter_2024 at the parameters a reader would try: each runs to the end with honest output
(paper rows not applicable, the run's own profile solved), and bad values are refused in one line
before a kernel starts."""

import math

import pandas as pd
import pytest

from choosing_epsilon import risk_profiles as rp
from choosing_epsilon.harness import reproduce
from choosing_epsilon.harness.paths import FIGURES, PUBLISHED
from tests.notebook_text import assert_files_bounded, outputs_text, strict_load

NAME = "kazan_reiter_2024"
ROWS = len(pd.read_csv(PUBLISHED / f"{NAME}.csv"))


def _status(out):
    return pd.read_csv(out / "claims.csv").set_index("claim_id").status


def _results(out):
    return strict_load((out / "results.json").read_text())


@pytest.mark.notebook
@pytest.mark.parametrize(
    "params, expected",
    [
        # App. C.3's profile with another absolute bound: no closed form, the solver alone
        (
            {"profile": "two_dimensional", "profile_a_tilde": 0.1},
            rp.epsilon_at(1.0, 0.1 / 3, 3.0),
        ),
        ({"profile": "constant", "profile_r_tilde": 1.5}, 0.5 * math.log(1.5)),
        # a census: inclusion known (p̃ = 1), Corollary 2 at q = ã/r̃
        (
            {"profile": "fixed_p", "profile_p_tilde": 1.0, "profile_a_tilde": 0.5},
            0.5 * math.log((3 - 0.5) / (1 - 0.5)),
        ),
        (
            {"profile": "box", "box_p_range": [0, 0.5], "box_q_range": [0.5, 1]},
            rp.box_epsilon(3, (0, 0.5), (0.5, 1)),
        ),
    ],
    ids=["two_dimensional", "constant", "census", "box"],
)
def test_the_runs_own_profile(tmp_path, params, expected):
    reproduce.run_notebook(NAME, params, tmp_path)
    got = _results(tmp_path)
    assert got["profile"] == params["profile"]
    assert got["epsilon"] == pytest.approx(expected, abs=1e-6)
    if params["profile"] != "two_dimensional":
        assert got["epsilon_closed_form"] == pytest.approx(got["epsilon"], abs=1e-6)
    # the paper's rows do not depend on the run's own profile: all still checked at the paper's,
    # with the committed run's verdicts (explained discrepancies included)
    status = _status(tmp_path)
    committed = _status(FIGURES / NAME)
    assert len(status) == ROWS and status.equals(committed)
    assert set(status) == {"reproduced", "discrepancy", "note"}
    assert_files_bounded(tmp_path)


@pytest.mark.notebook
def test_other_agencies_make_the_paper_rows_not_applicable(tmp_path):
    params = {"table1_r_tildes": [2.0], "table5_a_tildes": [0.01], "table1_q_tilde": 0.5}
    reproduce.run_notebook(NAME, params, tmp_path)
    status = _status(tmp_path)
    assert (status.filter(like="t1_") == "not applicable").all()
    assert (status.filter(like="t5_") == "not applicable").all()
    assert status["c3_epsilon"] == "reproduced"  # App. C.3 does not use them
    got = _results(tmp_path)
    assert [row["r_tilde"] for row in got["table1"]] == [2.0]
    assert got["table1"][0]["epsilon"] == pytest.approx(rp.fixed_q_epsilon(0.25, 0.5, 2.0))
    assert got["table5"][0]["epsilon"] == pytest.approx(rp.fixed_p_epsilon(0.01, 0.05, 3))


@pytest.mark.notebook
def test_durham_with_a_small_county_a_coarser_count_and_one_profile(tmp_path):
    params = {
        "durham_a_tildes": [0.0],
        "durham_deviations": [0.1],
        "durham_births": 100,
        "sensitivity": 2,
    }
    reproduce.run_notebook(NAME, params, tmp_path)
    status = _status(tmp_path)
    assert status["s5_durham_epsilon"] == "not applicable"
    assert status["s5_durham_below_10pct"] == "not applicable"
    durham = _results(tmp_path)["durham"]
    assert durham["epsilon"] == pytest.approx(math.log(5))
    # 100 births: the target count is 0 and a rate 6.1 per 1,000 is a count of 1; at Δ = 2 the
    # geometric mechanism adds integer noise of parameter e^(-ε/2), which switches at noise <= -1
    alpha = math.exp(-math.log(5) / 2)
    assert durham["switching_probability"] == pytest.approx(alpha / (1 + alpha))
    assert durham["rmse"] == pytest.approx(math.sqrt(2 * alpha) / (1 - alpha))


@pytest.mark.notebook
def test_extremes_run_to_the_end(tmp_path):
    params = {
        "lc_n": 10,
        "lc_a_tilde": 0.2,
        "table5_p_tilde": 1.0,
        "twod_r_tilde": 100.0,
        "twod_a_tilde": 0.99,
        "profile_r_tilde": 1.0001,
        "durham_r_tildes": [1.0001],
        "profile_q_tilde": 0.01,
        "n_draws": 2,
    }
    reproduce.run_notebook(NAME, params, tmp_path)
    got = _results(tmp_path)
    assert got["lee_clifton_epsilon"] == pytest.approx(math.log(9 * 0.2 / 0.8))
    assert got["epsilon"] == pytest.approx(rp.fixed_q_epsilon(0.25, 0.01, 1.0001))
    status = _status(tmp_path)
    assert status["d1_lee_clifton_lowest"] == "not applicable"  # the students are 4, not 10
    assert "Traceback" not in outputs_text(tmp_path / f"{NAME}.ipynb")


@pytest.mark.parametrize(
    "params, message",
    [
        ({"profile": "circle"}, r"'profile' must be in one of constant, fixed_q"),
        ({"lc_a_tilde": 0.2}, r"'lc_a_tilde' must exceed the prior 1/lc_n = 0.25"),
        ({"lc_n": 2}, r"'lc_a_tilde' must exceed the prior 1/lc_n = 0.5"),
        (
            {"table1_r_tildes": [1.0]},
            r"'table1_r_tildes' must be in a non-empty list of values > 1",
        ),
        ({"durham_a_tildes": [1.0]}, r"'durham_a_tildes' must be in a non-empty list of values in"),
        ({"box_p_range": [0.5, 0.2]}, r"'box_p_range' must be in \[lower, upper\]"),
        ({"profile_r_tilde": 1.0}, r"'profile_r_tilde' must be in \(1, inf\)"),
        ({"table1_q_tilde": 0.0}, r"'table1_q_tilde' must be in \(0, 1\]"),
        ({"sensitivity": 0.5}, r"'sensitivity' must be of type int"),
        ({"n_draws": 1}, r"'n_draws' must be in \[2, 10\*\*7\]"),
        ({"profile_a_tile": 0.3}, r"unknown parameter\(s\) \['profile_a_tile'\]"),
    ],
)
def test_bad_values_are_refused_in_one_line_before_a_kernel_starts(tmp_path, params, message):
    with pytest.raises(ValueError, match=message) as refusal:
        reproduce.run_notebook(NAME, params, tmp_path)
    assert "\n" not in str(refusal.value)
    assert not list(tmp_path.iterdir())
