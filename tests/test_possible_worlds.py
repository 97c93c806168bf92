import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.harness.paths import FIGURES
from choosing_epsilon.papers.lee_clifton_2011 import forensics, tabulate
from choosing_epsilon.plots import figures
from tests import bruteforce
from tests.examples import examples

ABSENCE, YEAR = [1, 2, 3, 10], [1, 2, 3, 4]

databases = st.lists(
    st.integers(-30, 30) | st.sampled_from([400, -400, 5000]), min_size=3, max_size=7
) | st.lists(
    st.floats(-100, 100, allow_nan=False).map(lambda v: round(v, 3)), min_size=3, max_size=7
)


@given(
    answers=st.lists(st.floats(-1e4, 1e4), min_size=2, max_size=10),
    gamma=st.floats(-1e5, 1e5),
    eps=st.sampled_from([1e-6, 0.01, 1.0, 10.0, 1000.0]),
    sensitivity=st.floats(1e-3, 10),
)
def test_posterior_is_a_finite_distribution(answers, gamma, eps, sensitivity):
    beta = pw.posterior(answers, gamma, sensitivity, eps)
    assert np.all(np.isfinite(beta)) and np.all(beta >= 0)
    assert beta.sum() == pytest.approx(1.0, abs=1e-12)


def test_posterior_at_epsilon_1000_far_from_every_world():
    # every likelihood underflows to 0 in linear space
    beta = pw.posterior([0.0, 1.0, 2.0], 1e4, 1.0, 1000.0)
    assert (
        np.all(np.isfinite(beta))
        and beta.sum() == pytest.approx(1.0)
        and beta[2] == pytest.approx(1.0)
    )


@given(x=databases, e1=st.floats(1e-3, 50), e2=st.floats(1e-3, 50))
def test_risk_rises_with_epsilon(x, e1, e2):
    a, d = sens.world_answers(x, "mean"), sens.unbounded_sensitivity(x, "mean")
    assume(d > 0)
    lo, hi = sorted((e1, e2))
    assert pw.worst_case_risk(a, d, lo) <= pw.worst_case_risk(a, d, hi) * (1 + 1e-12)
    assert (
        1 / len(x) * (1 - 1e-12)
        <= pw.worst_case_risk(a, d, lo)
        <= pw.risk_upper_bound(len(x), float(np.ptp(a)), d, lo) * (1 + 1e-12)
    )


@settings(max_examples=examples(20, 600), deadline=None)
@given(x=databases, query=st.sampled_from(["mean", "median"]), rho_share=st.floats(0.05, 0.95))
def test_exact_matches_brute_force(x, query, rho_share):
    n = len(x)
    rho = 1 / n + rho_share * (0.97 - 1 / n)  # rho in (1/n, 0.97)
    result = pw.epsilon_for_risk(x, rho, query)
    reference = bruteforce.exact_epsilon(x, rho, query)
    assert result.sensitivity == pytest.approx(
        bruteforce.sensitivity(x, query), rel=1e-9, abs=1e-12
    )
    if math.isinf(reference):
        assert math.isinf(result.exact)
    else:
        assert result.exact == pytest.approx(reference, rel=1e-9)
        assert result.upper_bound == pytest.approx(bruteforce.upper_bound(x, rho, query), rel=1e-9)
        assert result.upper_bound <= result.exact * (1 + 1e-12)


def test_paper_numbers():
    mean = pw.epsilon_for_risk(ABSENCE, 1 / 3, "mean")
    assert (mean.sensitivity, mean.delta_v) == (pytest.approx(17 / 6), pytest.approx(3))
    assert mean.upper_bound == pytest.approx(17 / 18 * math.log(1.5))
    assert pw.epsilon_for_risk(YEAR, 1 / 3, "mean").upper_bound == pytest.approx(
        5 / 6 * math.log(1.5)
    )
    median = pw.epsilon_for_risk(ABSENCE, 1 / 3, "median")
    assert median.upper_bound == pytest.approx(4 * math.log(1.5))
    assert median.exact == pytest.approx(4 * math.log(2), rel=1e-12)
    a = sens.world_answers(ABSENCE, "mean")[[3, 2, 1, 0]]
    assert pw.posterior(a, 2.2013, 17 / 6, 2)[0] == pytest.approx(0.6180, abs=5e-5)
    assert pw.worst_case_risk(sens.world_answers(YEAR, "mean"), 5 / 6, 0.5) == pytest.approx(
        0.3292, abs=5e-5
    )


def test_tied_worlds_never_exceed_rho():
    assert math.isinf(pw.epsilon_for_risk([5, 5, 5, 5], 0.3, "mean").exact)
    # medians 2, 2, 3, 3: every world shares its answer, the worst case tends to 1/2
    assert math.isinf(pw.epsilon_for_risk(ABSENCE, 0.5, "median").exact)
    assert math.isfinite(pw.epsilon_for_risk(ABSENCE, 0.49, "median").exact)


def test_a_risk_that_reaches_rho_only_in_the_limit_does_not_set_epsilon():
    # sorted 0, 5, 5 + 1e-9, 6, 7: the medians of the worlds are 5.5 + 5e-10 (two worlds), 5.5
    # (one) and 5 + 5e-10 (two), Δf = 1/2. At ρ = 1/2 the pairs' posterior tends to 1/2, and equals
    # it in floating point from ε ~ 40 on; the lone world's posterior 1/(1 + 2 e^{-ε d/Δf} + ...),
    # d its gap to the upper pair, passes 1/2 only near ε = ln(2) Δf/d ~ 6.9e8: the answer.
    values = [5.0, 5.0 + 1e-9, 6.0, 7.0, 0.0]
    exact = float(bruteforce.rational_exact_epsilon(values, 0.5, "median"))
    assert exact > 6e8
    assert pw.epsilon_for_risk(values, 0.5, "median").exact == pytest.approx(exact, rel=1e-12)
    counted = pw.epsilon_for_risk(sorted(values), 0.5, "median", counts=[1] * 5)
    assert counted.exact == pytest.approx(exact, rel=1e-12)


def test_paper_binary_search_range_is_a_slip():
    a = sens.world_answers(ABSENCE, "mean")
    bound = pw.epsilon_upper_bound(4, 3, 17 / 6, 1 / 3)
    literal, steps = pw.binary_search_epsilon(a, 17 / 6, 1 / 3, bound, tolerance=1e-10)
    assert literal == pytest.approx(bound, abs=1e-9) and all(s.admissible for s in steps)
    corrected, _ = pw.binary_search_epsilon(a, 17 / 6, 1 / 3, 1.0, tolerance=1e-12)
    assert corrected == pytest.approx(pw.exact_epsilon(a, 17 / 6, 1 / 3), abs=1e-11)


@settings(max_examples=25, deadline=None)
@given(gamma=st.floats(-3, 8), eps=st.sampled_from([0.5, 2.0, 5.0]))
def test_fit_response_recovers_a_known_response(gamma, eps):
    a = np.array([2, 13 / 3, 14 / 3, 5])
    column = pw.posterior(a, gamma, 17 / 6, eps)
    fit = forensics.fit_response(a, column, 17 / 6, eps, tolerance=1e-6)
    assert fit.residual <= 1e-6
    assert fit.lower <= gamma + 1e-4 and gamma - 1e-4 <= fit.upper


@settings(max_examples=examples(12, 600), deadline=None)
@given(
    answers=st.lists(st.integers(0, 40).map(lambda v: v / 8), min_size=2, max_size=6),
    gamma=st.floats(-1, 6),
    noise=st.floats(0, 0.05),
    eps=st.sampled_from([0.01, 0.5, 2.0, 5.0, 40.0]),
    tolerance=st.sampled_from([1e-6, 1e-4, 1e-2, 0.3]),
)
def test_fit_response_skips_only_grid_cells_that_cannot_matter(
    answers, gamma, noise, eps, tolerance
):
    # the pruned grid search gives exactly what scoring every grid point gives
    a, sensitivity, resolution = np.array(answers), 1.5, 1e-3
    column = pw.posterior(a, gamma, sensitivity, eps) + noise * np.cos(np.arange(a.size))
    fit = forensics.fit_response(a, column, sensitivity, eps, tolerance, resolution=resolution)
    lo, hi = a.min() - 10 * resolution, a.max() + 10 * resolution
    grid = np.linspace(lo, hi, int(np.ceil((hi - lo) / resolution)) + 1)
    residual = np.abs(pw.posterior(a, grid, sensitivity, eps) - column).max(axis=1)  # each point
    best = residual.argmin()
    assert fit.residual <= residual[best] * (1 + 1e-9) + forensics.FLAT
    # the canonical choice among equally good responses
    ties = np.flatnonzero(residual <= residual[best] + forensics.FLAT)
    if ties[0] == 0:
        assert fit.response == a.min()
    elif ties[-1] == grid.size - 1:
        assert fit.response == a.max()
    else:
        assert abs(fit.response - grid[ties[0]]) <= grid[1] - grid[0]
    ok = np.flatnonzero(residual <= tolerance)
    if ok.size:
        lower = -math.inf if ok[0] == 0 else grid[ok[0]]
        upper = math.inf if ok[-1] == grid.size - 1 else grid[ok[-1]]
        assert fit.lower == min(lower, fit.response if fit.residual <= tolerance else lower)
        assert fit.upper == max(upper, fit.response if fit.residual <= tolerance else upper)
    elif fit.residual > tolerance:
        assert math.isnan(fit.lower) and math.isnan(fit.upper)


def test_guess_success_matches_simulation():
    a = sens.world_answers(ABSENCE, "mean")[[3, 2, 1, 0]]
    exact = pw.guess_success_probability(a, 0, 17 / 6, 1.0)
    sim = pw.simulate_adversary(a, 0, 17 / 6, 1.0, 40_000, np.random.default_rng(3))
    assert abs(sim["guess_correct"] - exact) <= 5 * sim["guess_correct_se"]
    assert sim["max_posterior_seen"] <= pw.worst_case_risk(a, 17 / 6, 1.0) * (1 + 1e-12)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: pw.epsilon_for_risk([], 0.4), "values needs at least 1"),
        (lambda: pw.epsilon_for_risk([3.0], 0.4), "values needs at least 3 rows"),
        (lambda: pw.epsilon_for_risk(ABSENCE, 0.0), r"rho must lie in \(0, 1\)"),
        (lambda: pw.epsilon_for_risk(ABSENCE, 1.0), r"rho must lie in \(0, 1\)"),
        (lambda: pw.epsilon_for_risk(ABSENCE, 0.2), r"rho must lie in \[1/n, 1\)"),
        (lambda: pw.epsilon_for_risk(ABSENCE, 0.4, "mode"), "query must be one of"),
        (lambda: pw.posterior([1, 2], 0.0, 1.0, 0.0), "epsilon must be > 0"),
        (lambda: pw.posterior([1, 2], 0.0, 1.0, -2.0), "epsilon must be > 0"),
        (lambda: pw.worst_case_risk([1, 2], 1.0, 0.0), "epsilon must be > 0"),
        (
            lambda: pw.simulate_adversary([1, 2], 0, 1, 1, 0, np.random.default_rng(0)),
            "n_trials must be",
        ),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "content, attributes, absent, message",
    [
        ("name,x\n", ["x"], "a", "at least 3 rows"),
        ("name,x\na,1\n", ["x"], "a", "at least 3 rows"),
        ("name,x\na,1\nb,2\nc,3\n", ["y"], "a", "no column 'y'"),
        ("name,x\na,1\nb,two\nc,3\n", ["x"], "a", "column 'x' must hold a number"),
        ("name,x\na,1\nb,2\nc,3\n", ["x"], "zoe", "absent must be one of"),
        ("id,x\na,1\nb,2\nc,3\n", ["x"], "a", "needs a 'name' column"),
        ("", ["x"], "a", "not a readable CSV"),
    ],
)
def test_load_database_rejects_bad_data(tmp_path, content, attributes, absent, message):
    path = tmp_path / "db.csv"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        pw.load_database(path, attributes, absent)


def test_load_database_missing_file(tmp_path):
    with pytest.raises(ValueError, match="data_path: no such file"):
        pw.load_database(tmp_path / "nope.csv", ["x"], "a")


@pytest.mark.parametrize("gamma, eps", [(2.3943, 2.0), (3.5, 1.0), (1.0, 5.0), (6.0, 0.1)])
def test_matching_responses_hold_the_response_and_only_matching_ones(gamma, eps):
    answers = sens.world_answers(ABSENCE, "mean")[::-1]  # 2, 13/3, 14/3, 5
    column = pw.posterior(answers, gamma, 17 / 6, eps)
    intervals = forensics.matching_responses(answers, column, 17 / 6, eps, 5e-5)
    assert any(lo <= gamma <= hi for lo, hi in intervals)
    for (
        lo,
        hi,
    ) in intervals:  # every end sits where the residual reaches the tolerance (or is a flat tail)
        for end in (lo, hi):
            if math.isfinite(end):
                assert np.abs(
                    pw.posterior(answers, end, 17 / 6, eps) - column
                ).max() == pytest.approx(5e-5, abs=1e-9)
    probe = np.linspace(-1, 8, 9001)
    inside = np.abs(pw.posterior(answers, probe, 17 / 6, eps) - column).max(axis=1) <= 5e-5
    in_intervals = np.zeros(probe.size, bool)
    for lo, hi in intervals:
        in_intervals |= (probe >= lo) & (probe <= hi)
    assert np.array_equal(inside, in_intervals)


def test_table3_column_matches_half_the_responses_and_the_probability_matches_simulation():
    answers = sens.world_answers(ABSENCE, "mean")[::-1]
    column = [0.6825, 0.1315, 0.1039, 0.0821]  # Table 3, epsilon = 2
    intervals = forensics.matching_responses(answers, column, 17 / 6, 2.0, 5e-5)
    assert intervals[0][0] == -math.inf and len(intervals) == 1
    p = forensics.response_probability(intervals, 2.0, 17 / 6, 2.0)
    assert 0.5 < p < 0.501
    draws = 2.0 + np.random.default_rng(7).laplace(scale=17 / 12, size=200_000)
    hit = np.abs(pw.posterior(answers, draws, 17 / 6, 2.0) - column).max(axis=1) <= 5e-5
    assert hit.mean() == pytest.approx(p, abs=5 * math.sqrt(p * (1 - p) / draws.size))
    assert forensics.matching_responses(answers, [0.9, 0.1, 0.0, 0.0], 17 / 6, 2.0, 5e-5) == []
    with pytest.raises(ValueError, match="one value per world"):
        forensics.matching_responses(answers, [*column[:3], 0.0, 0.0], 17 / 6, 2.0, 5e-5)


# --- the notebook's tables and notes: the values lee_clifton_2011 committed ----------------------

PAPER = FIGURES / "lee_clifton_2011"
DATABASE = Path(__file__).parents[1] / "data" / "students.csv"
MEANS = np.array([2.0, 13 / 3, 14 / 3, 5.0])  # world means of absence days, true world first
EPSILONS = [5, 2, 1, 0.5, 0.1, 0.01]
NAMES = ["Chris", "Kelly", "Pat", "Terry"]
ORDER = pw.world_order(NAMES, "Terry")  # [3, 2, 1, 0]


def committed_claims():
    return pd.read_csv(PAPER / "claims.csv").set_index("claim_id")


def same_as_committed(table, name, tmp_path):
    """The table as the notebook saves it is the committed one: its text, and its numbers to
    1e-6 (the alumni's exact ε differs in the ninth digit between a kernel and plain Python)."""
    saved = pd.read_csv(figures.save_table(table, name, tmp_path))
    committed = pd.read_csv(PAPER / f"{name}.csv")
    pd.testing.assert_frame_equal(saved, committed, rtol=1e-6, atol=1e-12)
    return True


def paper_fits():
    claims = committed_claims()
    return {
        (t, e): forensics.fit_column(
            MEANS, forensics.published_column(claims.published, t, e), 17 / 6, e, 5e-5
        )
        for t in (2, 3)
        for e in EPSILONS
    }


def test_worlds_are_labelled_by_their_values_or_by_who_is_absent():
    shown = np.arange(4)
    assert tabulate.world_members(ABSENCE, NAMES, ORDER, shown) == [
        "{1, 2, 3}",
        "{1, 2, 10}",
        "{1, 3, 10}",
        "{2, 3, 10}",
    ]
    assert tabulate.world_members(ABSENCE, NAMES, ORDER, np.array([0, 3]), limit=3) == [
        "X − Terry",
        "X − Chris",
    ]
    table = pd.DataFrame({"name": NAMES, "absence_days": ABSENCE, "school_year": YEAR})
    listing = tabulate.world_listing(table, ["absence_days", "school_year"], ORDER, shown)
    assert listing.world.tolist() == ["ω1", "ω2", "ω3", "ω4"]
    assert listing.absent.tolist() == ["Terry", "Pat", "Kelly", "Chris"]
    assert listing.school_year.tolist() == ["{1, 2, 3}", "{1, 2, 4}", "{1, 3, 4}", "{2, 3, 4}"]
    large = tabulate.world_listing(table, ["absence_days"], ORDER, shown, limit=3)
    assert large["absence_days of the absent row"].tolist() == [10, 3, 2, 1]


def test_table_cells_are_read_by_name_in_any_case():
    table = pd.DataFrame({"name": NAMES, "absence_days": ABSENCE})
    assert forensics.table_cell(table, "terry", "absence_days") == 10.0
    assert forensics.table_cell(table, "TERRY", "absence_days") == 10.0
    assert math.isnan(forensics.table_cell(table, "robin", "absence_days"))
    assert math.isnan(forensics.table_cell(table, "terry", "height"))


def test_swapped_digits_find_the_printed_numerator():
    assert forensics.swapped_digits("0.3062") == [0.0362, 0.3602, 0.3026]
    assert 0.3602 in forensics.swapped_digits("0.3062")
    assert forensics.swapped_digits("1.25") == [1.52]


def test_posterior_tables_are_the_committed_tables_2_and_3(tmp_path):
    labels = tabulate.world_members(ABSENCE, NAMES, ORDER, np.arange(4))
    worst = tabulate.posterior_table(labels, MEANS, 2.0, 17 / 6, EPSILONS, np.arange(4))
    at_response = tabulate.posterior_table(labels, MEANS, 2.2013, 17 / 6, EPSILONS, np.arange(4))
    assert same_as_committed(worst, "table3_posterior_worst_case_response", tmp_path)
    assert same_as_committed(at_response, "table2_posterior_at_response", tmp_path)


def test_fitted_columns_give_the_committed_recovery_and_table_2_checks(tmp_path):
    fits = paper_fits()
    assert same_as_committed(forensics.recovery_table(fits, 5e-5), "response_recovery", tmp_path)
    claims = committed_claims()
    t2 = {e: fit for (t, e), fit in fits.items() if t == 2}
    checks = forensics.table_checks(t2, claims.published, 5e-5, 2, EPSILONS)
    assert len(checks) == 24
    for claim, check in checks.items():
        row = claims.loc[claim]
        assert check.value == pytest.approx(row.reproduced, abs=1e-15)
        if row.status == "fitted":
            assert row.note == f"{check.fitted}; residual {abs(check.value - row.published):.1e}"
            assert check.slip is None and check.explanation is None
        else:
            assert row.status == "discrepancy" and check.fitted is None
            assert check.explanation == row.note and check.slip == pytest.approx(row.slip_value)
    # no fitted column: every cell is nan, to be recorded as not applicable
    unfitted = forensics.table_checks({}, claims.published, 5e-5, 2, EPSILONS)
    assert all(math.isnan(c.value) and c.fitted is None for c in unfitted.values())


def test_table_3_is_fitted_at_the_flat_tail_of_the_exact_means():
    """Every Table 3 column is matched, with the exact means, by every response below f(ω1) = 2;
    its cells are the posterior there, recorded as fitted with the note the ledger keeps."""
    fits = paper_fits()
    claims = committed_claims()
    t3 = {e: fit for (t, e), fit in fits.items() if t == 3}
    assert all(fit.exact_fit.lower == -math.inf for fit in t3.values())
    checks = forensics.tail_checks(t3, MEANS, 17 / 6, claims.published, 3, EPSILONS)
    assert len(checks) == 24
    for claim, check in checks.items():
        row = claims.loc[claim]
        e = float(claim.split("_")[1][3:])
        k = int(claim[-1]) - 1
        assert check.value == pytest.approx(pw.posterior(MEANS, 2.0, 17 / 6, e)[k], abs=1e-15)
        assert check.value == pytest.approx(row.reproduced, abs=1e-15)
        assert abs(check.value - row.published) <= 5e-5 * (1 + 1e-9)
        assert row.status == "fitted" and check.slip is None and check.explanation is None
        assert row.note == f"{check.fitted}; residual {abs(check.value - row.published):.1e}"
        assert "gamma <= 2.0000" in check.fitted and "exact world means" in check.fitted
    # no fitted column, or a column the tail does not match: nan, which the ledger refuses
    assert all(
        math.isnan(c.value)
        for c in forensics.tail_checks({}, MEANS, 17 / 6, claims.published, 3, EPSILONS).values()
    )
    t2 = {e: fit for (t, e), fit in fits.items() if t == 2}
    interior = forensics.tail_checks(t2, MEANS, 17 / 6, claims.published, 2, [2])
    assert all(math.isnan(c.value) and c.fitted is None for c in interior.values())


def test_a_flat_tail_stands_for_its_end():
    fits = paper_fits()
    assert (fits[2, 5].relation, fits[2, 5].response) == ("<=", 2.0)
    assert (fits[2, 0.1].relation, fits[2, 0.1].response) == (">=", 5.0)
    assert fits[2, 2].relation == "=" and fits[2, 2].response == pytest.approx(2.3943, abs=1e-4)


def test_confidence_note_is_the_committed_one():
    claims = committed_claims()
    note = forensics.confidence_note(
        0.9705, 0.7705, 0.25, claims.loc["s44_confidence_eps5"].reproduced
    )
    assert note == claims.loc["s44_confidence_eps5"].note


def test_interval_text_writes_infinite_ends():
    assert forensics.interval_text([(-math.inf, 2.0009)]) == "(−∞, 2.0009)"
    assert forensics.interval_text([(1, 2), (3, math.inf)]) == "(1.0000, 2.0000) ∪ (3.0000, ∞)"
    assert forensics.interval_text([]) == "none"


def test_binary_searches_and_risk_at_the_root_are_the_committed_ones():
    committed = pd.read_csv(PAPER / "binary_search_vs_brentq.csv").set_index("attribute")
    for attribute, values in (("absence_days", ABSENCE), ("school_year", YEAR)):
        answers = sens.world_answers(values, "mean")
        sensitivity = sens.unbounded_sensitivity(values, "mean")
        row = committed.loc[attribute]
        end, result, steps = pw.corrected_binary_search(
            answers, sensitivity, 1 / 3, row["Eq. (7) bound"]
        )
        assert end == pytest.approx(row["search range end"], rel=1e-9)
        assert result == pytest.approx(row["corrected search"], rel=1e-9)
        assert len(steps) == 30 and abs(result - row.brentq) < 1e-8
        risk = pw.risk_at(answers, sensitivity, row.brentq)
        assert risk == pytest.approx(row["risk at brentq"], rel=1e-9)
    answers = sens.world_answers(ABSENCE, "median")
    assert pw.risk_at(answers, 4.0, 0.0) == 0.25
    assert pw.risk_at(answers, 4.0, math.inf) == pw.limiting_risk(answers) == 0.5
    with pytest.raises(ValueError, match="never exceeds rho"):
        pw.corrected_binary_search(answers, 4.0, 0.5, 1.0)


def test_risk_curves_are_the_committed_figure_2():
    committed = pd.read_csv(PAPER / "fig2_risk_upper_bound.csv")
    grid = np.linspace(0, 5, 501)
    for attribute, values in (("absence_days", ABSENCE), ("school_year", YEAR)):
        answers = sens.world_answers(values, "mean")[ORDER]  # the true world first
        beta, upper = pw.risk_curves(
            answers, sens.unbounded_sensitivity(values, "mean"), float(np.ptp(answers)), grid
        )
        drawn = committed[committed.attribute == attribute]
        assert beta == pytest.approx(drawn.beta_true_world.to_numpy(), rel=1e-9)
        assert upper == pytest.approx(drawn.upper_bound_eq5.to_numpy(), rel=1e-9)
        assert beta[0] == upper[0] == 0.25


def test_likeliest_range_is_halfway_to_the_next_answer():
    assert pw.likeliest_range(MEANS, 0) == (-math.inf, pytest.approx(19 / 6))
    assert pw.likeliest_range(MEANS, 1) == pytest.approx((19 / 6, 4.5))
    low, high = pw.likeliest_range_on_grid(MEANS, 0)
    assert low == -math.inf and high == pytest.approx(19 / 6, abs=1e-4)
    low, high = pw.likeliest_range_on_grid(MEANS, 3)
    assert low == pytest.approx(29 / 6, abs=1e-4) and high == math.inf


def test_simulated_adversary_and_alumni_are_the_committed_ones(tmp_path):
    # the notebook's generators: the Monte Carlo draws from the seed's stream, the alumni from a
    # stream spawned from it before any draw
    rng = np.random.default_rng(20110901)
    alumni_rng, _ = rng.spawn(2)
    rows = [tabulate.adversary_summary(MEANS, 17 / 6, e, 20000, rng) for e in EPSILONS]
    assert same_as_committed(pd.DataFrame(rows), "monte_carlo_adversary", tmp_path)
    alumni = alumni_rng.uniform(100, 20000, size=100000)
    results = {
        "alumni on Earth only": pw.epsilon_for_risk(alumni, 0.01),
        "one alumnus replaced by an astronaut (400,000 km)": pw.epsilon_for_risk(
            np.append(alumni[:-1], 400000), 0.01
        ),
    }
    comparison = tabulate.epsilon_comparison(results, unit="km")
    assert same_as_committed(comparison, "astronaut_alumni", tmp_path)
    crowd = alumni[:-1]
    excess = np.geomspace(1, 10 * 400000 - crowd.max(), 40)
    assert same_as_committed(
        tabulate.outlier_sweep(crowd, excess, 0.01), "astronaut_outlier", tmp_path
    )


def test_adversary_summary_refuses_a_simulation_that_contradicts_the_exact_values(monkeypatch):
    def lucky(*args, **kwargs):
        return {"guess_correct": 1.0, "guess_correct_se": 0.0, "mean_true_posterior": 0.5}

    monkeypatch.setattr(
        tabulate, "simulate_adversary", lambda *a, **k: lucky() | {"max_posterior_seen": 0.99}
    )
    with pytest.raises(RuntimeError, match=r"exceeds the Eq. \(3\) worst case"):
        tabulate.adversary_summary(MEANS, 17 / 6, 2, 100, np.random.default_rng(0))
    monkeypatch.setattr(
        tabulate, "simulate_adversary", lambda *a, **k: lucky() | {"max_posterior_seen": 0.5}
    )
    with pytest.raises(RuntimeError, match=r"more than 5 s\.e\. from the exact"):
        tabulate.adversary_summary(MEANS, 17 / 6, 2, 100, np.random.default_rng(0))


def test_epsilon_rows_and_results_are_the_committed_ones(tmp_path):
    table = pw.load_database(DATABASE, ["absence_days", "school_year"], "Terry")
    data = {a: table[a] for a in ("absence_days", "school_year")}
    results = {
        a: {q: pw.epsilon_for_risk(v, 1 / 3, q) for q in ("mean", "median")}
        for a, v in data.items()
    }
    rows = [tabulate.epsilon_row(a, r) for a, by in results.items() for r in by.values()]
    assert same_as_committed(pd.DataFrame(rows), "epsilon_by_attribute_and_query", tmp_path)
    summary = {
        a: {q: tabulate.epsilon_summary(r) for q, r in by.items()} for a, by in results.items()
    }
    committed = json.loads((PAPER / "results.json").read_text())["attributes"]
    for attribute, by_query in summary.items():
        for query, values in by_query.items():
            assert values == pytest.approx(committed[attribute][query], rel=1e-12)
    neighbours = [
        tabulate.neighbour_row(a, v, q, 1 / 3) for a, v in data.items() for q in ("mean", "median")
    ]
    assert same_as_committed(pd.DataFrame(neighbours), "neighbour_definitions", tmp_path)
    assert pw.bounded_guarantee(4, 1 / 3) == pytest.approx(math.log(1.5))


def test_epsilon_row_marks_an_infinite_exact_epsilon_and_refuses_one_below_the_bound():
    infinite = pw.epsilon_for_risk(ABSENCE, 0.5, "median")
    assert math.isinf(infinite.exact)
    assert tabulate.epsilon_row("absence_days", infinite)["exact / Eq. (7)"] == math.inf
    broken = dataclasses.replace(infinite, exact=0.1, upper_bound=0.2)
    with pytest.raises(RuntimeError, match=r"lies below the Eq. \(7\) bound"):
        tabulate.epsilon_row("absence_days", broken)
