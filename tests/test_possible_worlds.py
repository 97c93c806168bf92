import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import sensitivity as sens
from tests import bruteforce

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


@settings(max_examples=60, deadline=None)
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
    fit = pw.fit_response(a, column, 17 / 6, eps, tolerance=1e-6)
    assert fit.residual <= 1e-6
    assert fit.lower <= gamma + 1e-4 and gamma - 1e-4 <= fit.upper


@settings(max_examples=60, deadline=None)
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
    fit = pw.fit_response(a, column, sensitivity, eps, tolerance, resolution=resolution)
    lo, hi = a.min() - 10 * resolution, a.max() + 10 * resolution
    grid = np.linspace(lo, hi, int(np.ceil((hi - lo) / resolution)) + 1)
    residual = np.array([np.abs(pw.posterior(a, g, sensitivity, eps) - column).max() for g in grid])
    best = residual.argmin()
    assert fit.residual <= residual[best] * (1 + 1e-9) + pw.FLAT
    # the canonical choice among equally good responses
    ties = np.flatnonzero(residual <= residual[best] + pw.FLAT)
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
    intervals = pw.matching_responses(answers, column, 17 / 6, eps, 5e-5)
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
    intervals = pw.matching_responses(answers, column, 17 / 6, 2.0, 5e-5)
    assert intervals[0][0] == -math.inf and len(intervals) == 1
    p = pw.response_probability(intervals, 2.0, 17 / 6, 2.0)
    assert 0.5 < p < 0.501
    draws = 2.0 + np.random.default_rng(7).laplace(scale=17 / 12, size=200_000)
    hit = np.abs(pw.posterior(answers, draws, 17 / 6, 2.0) - column).max(axis=1) <= 5e-5
    assert hit.mean() == pytest.approx(p, abs=5 * math.sqrt(p * (1 - p) / draws.size))
    assert pw.matching_responses(answers, [0.9, 0.1, 0.0, 0.0], 17 / 6, 2.0, 5e-5) == []
    with pytest.raises(ValueError, match="one value per world"):
        pw.matching_responses(answers, [*column[:3], 0.0, 0.0], 17 / 6, 2.0, 5e-5)
