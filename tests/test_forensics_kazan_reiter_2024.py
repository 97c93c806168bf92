"""The Kazan & Reiter notebook's tables, computed by the package at the paper's inputs."""

import math
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import risk_profiles as rp
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.kazan_reiter_2024 import forensics as kr


def test_table1_and_table5_at_the_papers_inputs():
    table1_rows = kr.table1([1.5, 3, 6], 0.25, 1, 1)
    assert [round(r["epsilon"], 2) for r in table1_rows] == [0.51, 1.30, 2.04]
    assert [round(r["noise_sd"], 2) for r in table1_rows] == [2.74, 1.02, 0.59]
    table5_rows = kr.table5([0.025, 0.15, 0.3], 0.05, 3, 1)
    assert [round(r["epsilon"], 2) for r in table5_rows] == [1.09, 1.21, 2.10]
    assert [r["on_the_case_boundary"] for r in table5_rows] == [False, True, False]
    claims = kr.agency_claims("t5", table5_rows[:1])
    assert claims["t5_A_prob_exact"] == table5_rows[0]["prob_exact"]
    assert math.isnan(claims["t5_C_epsilon"])


def test_durham_switching_probability_is_one_tenth_at_the_most_aggressive_profile():
    table, target = kr.durham(4012, 6.0, [0.25, 0.5, 1, 2], [1.2, 2, 5], [0, 0.1, 0.25, 0.5], 1)
    assert target == 24 and len(table) == 12
    last = table.iloc[-1]
    assert last.epsilon == pytest.approx(math.log(9)) and last.rmse == pytest.approx(
        0.5303, abs=1e-4
    )
    assert last["switch_0.25"] == pytest.approx(0.1, abs=1e-15)


def test_curve_appends_the_minimum_and_lee_clifton_examples():
    prior = np.linspace(0.01, 1, 50)
    profile = rp.fixed_q_profile(0.1, 1, 3)
    found = rp.minimise(profile, q_range=(1, 1))
    frame = kr.curve(prior, prior, 1.0, profile, "A", found)
    assert frame.minimum.sum() == 1 and frame.epsilon[frame.minimum].item() == found.epsilon
    lc = kr.lee_clifton_examples(pd.read_csv(DATA / "students.csv"), 4, 1 / 3)
    assert lc.lee_clifton_epsilon.min() == pytest.approx(5 / 6 * math.log(1.5))
    assert lc.lee_clifton_epsilon.max() == pytest.approx(4 * math.log(1.5))
    assert kr.lee_clifton_examples(pd.read_csv(DATA / "students.csv"), 10, 0.2).empty


def test_run_profile_refuses_an_unknown_form():
    with pytest.raises(ValueError, match="form must be one of"):
        kr.run_profile("circle", 3, 0.25, 0.05, 1, [0, 1], [0, 1])


def test_curve_puts_the_minimiser_on_the_drawn_grid():
    # the kink of profile (15) at r~ = 100 lies at p = a~/r~ = 0.0025, between grid points
    prior = np.geomspace(0.001, 1, 40)
    profile = rp.fixed_q_profile(0.25, 1, 100)
    found = rp.minimise(profile, q_range=(1, 1))
    frame = kr.curve(prior, prior, 1.0, profile, "A", found)
    line = frame[~frame.minimum]
    assert len(line) == len(prior) + 1 and (line.prior == found.p).any()
    assert line.epsilon.min() == pytest.approx(found.epsilon, rel=1e-9)
    # on the paper's grid the minimiser is a grid point already, and the curve is unchanged
    paper = rp.fixed_q_profile(0.25, 1, 3)
    at = rp.minimise(paper, q_range=(1, 1))
    assert (
        len(kr.curve(np.array([0.05, at.p, 0.5]), np.array([0.05, at.p, 0.5]), 1.0, paper, "B", at))
        == 4
    )


def test_figure1_prior_keeps_the_papers_grid_unless_few_priors_are_bounded():
    paper = rp.fixed_q_profile(0.1, 1, 3)
    assert np.array_equal(kr.figure1_prior(paper, "p", 1.0), np.linspace(0.001, 0.999, 999))
    # r~ = 5000 binds nothing from p = 1/5000 on: the grid ends where epsilon_i is last finite
    large = rp.fixed_q_profile(0.1, 1, 5000)
    grid = kr.figure1_prior(large, "p", 1.0)
    eps = rp.epsilon_grid(grid, 1.0, np.asarray(large(grid, 1.0), dtype=float))
    assert len(grid) == 999 and np.isfinite(eps).sum() >= 900 and grid.max() < 1 / 5000


def test_colour_scales_of_a_baseline_that_binds_nothing_at_p_001():
    scales = kr.figure3_colour_scales([1.5, 100, 1000], 0.25)
    assert math.isfinite(scales["fig3_baseline1_left_epsilon"]["value"])
    for k in (2, 3):  # r~ >= 1/0.01: the baseline's epsilon_i at p = 0.01 is infinite
        row = scales[f"fig3_baseline{k}_left_epsilon"]
        assert row["value"] == math.inf and row["slip"] is None


def test_exact_text_writes_short_fractions_and_summarises_long_ones():
    """α^k/(1 + α) at thousands of births above the threshold is a fraction of thousands of digits
    (Python refuses to print an int past 4,300): its float and its size are shown instead."""
    _, _, alpha, steps, switch = kr.exact_switching(0.5, 5, 4013, 4012)
    assert (kr.exact_text(alpha), steps, kr.exact_text(switch)) == ("1/9", 1, "1/10")
    *_, steps, switch = kr.exact_switching(0.5, 5, 3_600_000 + 7_200, 3_600_000)
    assert switch == Fraction(1, 9) ** 7_200 / (1 + Fraction(1, 9))  # still exact underneath
    digits = math.floor(math.log10(switch.denominator)) + 1  # 10 · 9^7199
    text = kr.exact_text(switch)
    shown = int(re.search(r"about ([0-9,]+) digits", text).group(1).replace(",", ""))
    assert steps == 7_200 and text.startswith("below 1e-308 (a fraction")
    assert 0 <= shown - digits <= 1


@pytest.mark.parametrize("count", [20, 24, 25, 31])
def test_switching_is_the_chance_of_landing_across_the_threshold(count):
    """Summed from the two-sided geometric pmf P(z) = (1 − α)/(1 + α) α^|z|: the release lands on
    the other side of the threshold 24 from the true count, above it for a count at or below."""
    alpha = 1 / 9
    z = np.arange(-400, 401)
    pmf = (1 - alpha) / (1 + alpha) * alpha ** np.abs(z)
    released = count + z
    across = released <= 24 if count > 24 else released > 24
    assert kr.switching(math.log(9), count, 24) == pytest.approx(pmf[across].sum(), rel=1e-12)
    *_, steps, exact = kr.exact_switching(0.5, 5, count, 24)
    assert float(exact) == pytest.approx(pmf[across].sum(), rel=1e-12)
    assert steps == (count - 24 if count > 24 else 25 - count)


def test_a_deviation_under_one_birth_switches_less_at_larger_epsilon():
    """At 4,012 births a rate 0.1 per 1,000 above the target rounds onto the threshold (24): the
    switch is the release rising above it, rarer the larger ε, never the P(noise ≤ 0) that rose
    with ε."""
    frame, threshold = kr.durham(4012, 6.0, [0.1, 0.25], [1.2, 2, 5], [0, 0.5], 1)
    assert threshold == round(6.1 * 4.012) == 24
    ordered = frame.sort_values("epsilon")
    assert ordered["switch_0.1"].is_monotonic_decreasing
    assert (ordered["switch_0.1"] < 0.5).all()


def test_a_share_from_too_few_releases_gets_no_z():
    """With 2 draws a row can keep 1 release above the threshold, a share of 0 or 1 with standard
    error 0: its z was ±∞ and the summary's largest |z| inf. Such a row now has no z and the
    summary says how many rows went unchecked."""
    profile = rp.constant_profile(3.0)
    cases = [("few", math.log(3.0), 0.5, 0.5, profile), ("many", math.log(3.0), 0.5, 0.5, profile)]
    rng = np.random.default_rng(0)
    table = kr.monte_carlo(cases[:1], 2, rng)
    assert table.releases_used.iloc[0] < kr.MIN_RELEASES and table.z.isna().all()
    table = pd.concat([table, kr.monte_carlo(cases[1:], 20_000, rng)], ignore_index=True)
    assert math.isfinite(table.z.iloc[1])
    summary = kr.monte_carlo_summary(table)
    assert summary.startswith(f"largest |z| of the simulation: {abs(table.z.iloc[1]):.2f} (1 of 2")
    assert "fewer than 30 usable releases: no z, not checked" in summary


def test_the_crossing_is_named_by_the_way_the_noise_must_go():
    assert kr.crossing(25, 24) == (1, False) and kr.crossing_text(25, 24) == "P(noise ≤ −1)"
    assert kr.crossing(24, 24) == (1, True) and kr.crossing_text(24, 24) == "P(noise ≥ 1)"
    assert kr.crossing(20, 24) == (5, True) and kr.crossing_text(31, 24) == "P(noise ≤ −7)"
