"""kazan_reiter_2024 at the parameters a reader would try: each runs to the end with honest output
(paper rows not applicable, the run's own profile solved), and bad values are refused in one line
before a kernel starts."""

import math

import numpy as np
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
    assert set(status) == {"reproduced", "below resolution", "discrepancy", "note"}
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
    # a slip in the wording is still shown, computed at this run's inputs and labelled so
    assert status["s5_durham_below_10pct"] == "note"
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
        "two_dimensional_r_tilde": 100.0,
        "two_dimensional_a_tilde": 0.99,
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
            r"'table1_r_tildes' must be in a list of 1 to 4 values > 1",
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


# --- cases a reader tries: every figure drawn, every answer in view, strict JSON ----------------


def _run_clean(tmp_path, params):
    """Run at ``params`` (the suite is strict: a figure or caption off the style stops the run)
    and return results.json and captions.json, both parsed with NaN and Infinity refused."""
    reproduce.run_notebook(NAME, params, tmp_path)
    results = _results(tmp_path)
    captions = strict_load((tmp_path / "captions.json").read_text())
    assert {name for name, entry in captions.items() if "problems" in entry} == set()
    assert "Traceback" not in outputs_text(tmp_path / f"{NAME}.ipynb")
    return results, captions


def _figure_data(out, name):
    return pd.read_csv(out / f"{name}.csv")


@pytest.mark.notebook
@pytest.mark.parametrize(
    "r_tildes",
    [[100.0], [1.5, 1000.0]],
    ids=["one_agency_at_r100", "agencies_at_r1_5_and_r1000"],
)
def test_table1_relative_bounds_so_large_a_baseline_binds_nothing_at_p_001(tmp_path, r_tildes):
    """At r̃ ≥ 100 the constant baseline binds nothing on most of Fig. 3's priors (r̃ ≥ 1/p): its
    εᵢ curve was empty, shared dash and marker with another empty one, and the colour-scale
    reading divided by zero; each minimum is now on its curve, inside the axes."""
    results, captions = _run_clean(tmp_path, {"table1_r_tildes": r_tildes})
    got = {row["r_tilde"]: row["epsilon"] for row in results["table1"]}
    for r in r_tildes:
        assert got[r] == pytest.approx(rp.fixed_q_epsilon(0.25, 1.0, r))
    data = _figure_data(tmp_path, "fig3_table1_profiles")
    minima = data[data.minimum]
    assert len(minima) == len(r_tildes)
    for row in minima.itertuples():
        curve = data[(data.agency == row.agency) & ~data.minimum]
        # the minimiser is a point of the drawn curve, and the curve reaches below it
        assert (curve.prior == row.prior).any() and curve.prior.min() < row.prior
        assert row.epsilon == pytest.approx(curve.epsilon.min())
        assert f"{row.agency} {row.epsilon:.2f}" in captions["fig3_table1_profiles"]["caption"]


@pytest.mark.notebook
def test_table5_one_tiny_absolute_bound_under_a_huge_relative_bound(tmp_path):
    """r̃ = 5000, ã = 0.001: Fig. 4's minimum (ε ≈ 8.5) lies far above the paper's cut at 4 and
    at q below its grid's 0.01, and Fig. 1's curves exist only below p, q of about 0.003, where
    the paper's grid 0.001, ..., 0.999 holds almost no point: the cut rises above every minimum,
    the grids reach below them, and Fig. 1 is drawn on priors up to where εᵢ is finite."""
    params = {"table5_r_tilde": 5000.0, "table5_a_tildes": [0.001]}
    results, captions = _run_clean(tmp_path, params)
    expected = rp.fixed_p_epsilon(0.001, 0.05, 5000.0)
    assert results["table5"][0]["epsilon"] == pytest.approx(expected)
    fig4 = _figure_data(tmp_path, "fig4_table5_profiles")
    low = fig4[fig4.minimum].iloc[0]
    assert low.epsilon == pytest.approx(expected)
    assert fig4[~fig4.minimum].prior.min() < low.prior
    assert f"agency A (ã = 0.001) {expected:.2f}" in captions["fig4_table5_profiles"]["caption"]
    fig1 = _figure_data(tmp_path, "fig1_profiles")
    for _, frame in fig1.groupby("agency"):
        finite = frame[~frame.minimum & np.isfinite(frame.epsilon)]
        assert len(finite) >= 100  # a curve, not a lone dot
        low = frame[frame.minimum].iloc[0]
        assert finite.epsilon.min() == pytest.approx(low.epsilon, rel=1e-6)


@pytest.mark.notebook
def test_two_dimensional_run_profile_has_no_closed_form_and_says_so(tmp_path):
    """Table 4 has no closed form for profile (33): results.json held a bare NaN, and the cell
    printed "closed form (Table 4): nan"; now null, and the sentence says there is none."""
    results, _ = _run_clean(tmp_path, {"profile": "two_dimensional"})
    assert results["epsilon_closed_form"] is None
    assert results["epsilon"] == pytest.approx(rp.epsilon_at(1.0, 0.25 / 3, 3.0), abs=1e-9)
    text = outputs_text(tmp_path / f"{NAME}.ipynb")
    assert "closed form (Table 4): none (Table 4 has no closed form for it)" in text
    assert "closed form (Table 4): nan" not in text


@pytest.mark.notebook
def test_durham_relative_bound_just_above_one_is_computed_exactly(tmp_path):
    """r̃ = 1.0001: limit_denominator(1000) turned it into 1 and the note said the switching
    probability is 1/2 "(not below 0.5)"; from the decimal as given it is 5000/10001, and both
    Durham slips are still shown, computed at the run's inputs and labelled so."""
    _run_clean(tmp_path, {"durham_r_tildes": [1.0001]})
    claims = pd.read_csv(tmp_path / "claims.csv").set_index("claim_id")
    below = claims.loc["s5_durham_below_10pct"]
    assert below.status == "note"
    assert "this run's inputs, not the paper's" in below.note
    assert "r~ = 10001/10000" in below.note and "5000/10001" in below.note
    # e^-ε = (1 − 1/2)/(1.0001 − 1/2) and one count above the threshold: α/(1 + α)
    alpha = 0.5 / 0.5001
    assert below.reproduced == pytest.approx(alpha / (1 + alpha), rel=1e-12)
    a0 = claims.loc["s5_durham_a0_constant"]
    assert a0.status == "note" and "this run's first r~" in a0.note
    assert a0.reproduced == pytest.approx(math.log(1.0001))


@pytest.mark.notebook
def test_two_dimensional_figure_with_the_minimum_below_the_papers_grid(tmp_path):
    """The two-dimensional profile at r̃ = 100, ã = 0.99: the minimiser q = ã/r̃ = 0.0099 lies
    below Fig. 5's grid from 0.01, and r* ≥ 100 everywhere left the colour map cut at 100 a
    single colour (a blank panel)."""
    params = {"two_dimensional_r_tilde": 100.0, "two_dimensional_a_tilde": 0.99}
    _, captions = _run_clean(tmp_path, params)
    data = _figure_data(tmp_path, "fig5_two_dimensional")
    assert data.q.min() < 0.99 / 100 < data.q.max()
    assert "up to 1000 (yellow)" in captions["fig5_two_dimensional"]["alt"]
