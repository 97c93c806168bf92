import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from opendp.accuracy import gaussian_scale_to_accuracy, laplacian_scale_to_accuracy
from scipy import special, stats

from choosing_epsilon import confidence as cf
from choosing_epsilon import risk
from choosing_epsilon.harness.paths import FIGURES
from choosing_epsilon.papers.mugunthan_poster import forensics as poster

probabilities = st.floats(0.01, 0.999)


@given(p1=probabilities, p2=probabilities, c=st.floats(0.1, 100), sens=st.floats(0.01, 10))
def test_theorem2_epsilon_rises_with_p(p1, p2, c, sens):
    lo, hi = sorted((p1, p2))
    assert cf.theorem2_epsilon(sens, c, lo) <= cf.theorem2_epsilon(sens, c, hi)


@given(p=probabilities, c=st.floats(0.1, 100), sens=st.floats(0.01, 10))
def test_theorem2_is_exact_and_agrees_with_opendp(p, c, sens):
    eps = cf.theorem2_epsilon(sens, c, p)
    assert cf.coverage(eps, c, sens) == pytest.approx(p, abs=1e-9)
    assert laplacian_scale_to_accuracy(sens / eps, 1 - p) == pytest.approx(c, rel=1e-9)


@pytest.mark.parametrize("p", [0.3, 0.9, 0.99])
def test_general_theorem2_matches_closed_forms_and_opendp(p):
    assert cf.theorem2_epsilon(1.0, 10.0, p) == pytest.approx(
        cf.theorem2_epsilon(1.0, 10.0, p), rel=1e-9
    )
    eps_gauss = cf.theorem2_epsilon(3.0, 10.0, p, stats.norm)
    assert eps_gauss == pytest.approx(3.0 * stats.norm.ppf((1 + p) / 2) / 10.0, rel=1e-9)
    assert gaussian_scale_to_accuracy(3.0 / eps_gauss, 1 - p) == pytest.approx(10.0, rel=1e-6)


@pytest.mark.parametrize("p", [1e-12, 1e-9, 1e-6, 0.01, 0.3, 0.49, 0.51, 0.9])
def test_coverage_keeps_its_relative_precision_when_small(p):
    # Gaussian noise of σ = 1 covers (−c, c) with probability erf(c/√2): at p = 1e-9 the
    # difference of two CDF values kept seven digits, and Theorem 2's ε inherited the error
    c = math.sqrt(2) * special.erfinv(p)
    assert cf.coverage(1.0, c, 1.0, stats.norm) == pytest.approx(p, rel=1e-12)
    assert cf.coverage(1.0, c, 1.0) == pytest.approx(-math.expm1(-c), rel=1e-12)  # Laplace
    assert cf.theorem2_epsilon(1.0, c, p, stats.norm) == pytest.approx(1.0, rel=1e-12)


def test_quadrature_matches_closed_form():
    for eps in (0.01, 0.3, 5.0):
        assert poster.integrated_coverage(eps, 2.0, 1.0) == pytest.approx(
            1 - math.exp(-2.0 * eps), abs=1e-10
        )


def test_threshold_and_theorem3_failure():
    threshold = poster.ratio_threshold()
    assert threshold == pytest.approx(
        1 - math.exp(-(1 + math.sqrt(1 + 2 * math.log(2)))), abs=1e-12
    )
    assert cf.coverage(cf.theorem3_epsilon(1, 10, 0.9), 10, 1) > 0.9
    assert cf.coverage(cf.theorem3_epsilon(1, 10, 0.99), 10, 1) == pytest.approx(0.9614, abs=1e-4)


@given(p=probabilities, w=st.floats(0.01, 0.99), q=st.floats(1, 1e4))
def test_theorem1_value_is_a_lower_bound_that_chebyshev_certifies(p, w, q):
    eps = cf.theorem1_epsilon(1.0, w, q, p)
    assert cf.coverage(eps, w * q, 1.0) >= p - 1e-12  # at the value: Chebyshev's guarantee holds


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cf.theorem2_epsilon(1, 10, 1.0), r"p must lie in \(0, 1\)"),
        (lambda: cf.theorem2_epsilon(1, 10, 0.0), r"p must lie in \(0, 1\)"),
        (lambda: cf.theorem3_epsilon(1, 0, 0.9), "c must be > 0"),
        (lambda: cf.theorem3_epsilon(1, -2, 0.9), "c must be > 0"),
        (lambda: cf.theorem1_epsilon(1, 1.5, 100, 0.9), r"w must lie in \(0, 1\)"),
        (lambda: cf.theorem1_epsilon(1, 0, 100, 0.9), r"w must lie in \(0, 1\)"),
        (lambda: poster.ratio(np.array([0.5, 1.0])), r"p must lie in \(0, 1\)"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- Gaussian mechanism: analytic calibration (Balle & Wang 2018) -------------------------------


def hockey_stick_by_quadrature(sigma, epsilon, sensitivity):
    """δ(ε) straight from its definition: ∫ max(0, φ_σ(x) − e^ε φ_σ(x − Δ)) dx, the integrand
    positive left of x0."""
    from scipy import integrate

    x0 = sensitivity / 2 - epsilon * sigma**2 / sensitivity
    value, _ = integrate.quad(
        lambda x: (
            stats.norm.pdf(x, 0, sigma) - math.exp(epsilon) * stats.norm.pdf(x, sensitivity, sigma)
        ),
        -math.inf,
        x0,
        epsabs=0,
        epsrel=1e-10,
        limit=200,
    )
    return value


@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-9])
@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.5, 0.9, 0.999])
def test_classical_sigma_is_conservative_below_one(epsilon, delta):
    classical, analytic = (
        poster.gaussian_sigma_classical(2.0, epsilon, delta),
        risk.gaussian_noise_for_epsilon(epsilon, delta, 2.0),
    )
    assert analytic < classical
    assert risk.gdp_delta(2.0 / classical, epsilon) < delta
    assert hockey_stick_by_quadrature(classical, epsilon, 2.0) < delta


@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-9])
@pytest.mark.parametrize("epsilon", [0.05, 0.5, 1.0, 1.59, 5.0, 20.0])
def test_analytic_sigma_meets_the_privacy_profile_exactly(epsilon, delta):
    sigma = risk.gaussian_noise_for_epsilon(epsilon, delta, 3.0)
    assert hockey_stick_by_quadrature(sigma, epsilon, 3.0) == pytest.approx(delta, rel=1e-7)
    assert risk.gdp_delta(3.0 / (sigma * 0.999), epsilon) > delta  # the smallest such σ
    assert risk.gdp_epsilon(3.0 / sigma, delta) == pytest.approx(epsilon, rel=1e-10)


@pytest.mark.parametrize("sigma, epsilon", [(0.3, 4.0), (5.0, 0.2), (40.0, 0.01)])
def test_privacy_profile_formula_against_quadrature(sigma, epsilon):
    assert risk.gdp_delta(1.0 / sigma, epsilon) == pytest.approx(
        hockey_stick_by_quadrature(sigma, epsilon, 1.0), rel=1e-8
    )


def test_classical_sigma_fails_for_large_epsilon():
    # beyond its proven range ε < 1 the classical σ is eventually too small: at ε = 20 it is not
    # (ε, δ)-DP
    sigma = poster.gaussian_sigma_classical(1.0, 20.0, 1e-5)
    assert hockey_stick_by_quadrature(sigma, 20.0, 1.0) > 1e-5
    assert risk.gaussian_noise_for_epsilon(20.0, 1e-5, 1.0) > sigma


def test_gaussian_epsilon_is_zero_for_huge_noise():
    # δ(0; σ) = 2Φ(Δ/2σ) − 1 ≈ 4e-11 < δ: the noise is (0, δ)-DP
    assert risk.gdp_epsilon(1.0 / 1e10, 1e-5) == 0.0


@pytest.mark.parametrize("p", [0.3, 0.9, 0.999])
def test_sigma_forms_of_theorems_2_and_3(p):
    s2 = poster.theorem2_sigma_gaussian(10.0, p)
    assert stats.norm.cdf(10.0, scale=s2) - stats.norm.cdf(-10.0, scale=s2) == pytest.approx(
        p, rel=1e-12
    )
    m = math.sqrt(2) * 1.5  # Laplace M for Δ = 1.5: σ3 = M / ε3
    assert poster.theorem3_sigma(10.0, p) == pytest.approx(
        m / cf.theorem3_epsilon(1.5, 10.0, p), rel=1e-12
    )


@given(p=probabilities, w=st.floats(0.01, 0.99), q=st.floats(1, 1e6), sens=st.floats(0.01, 10))
def test_theorem1_epsilon_reveals_the_query_answer(p, w, q, sens):
    eps = cf.theorem1_epsilon(sens, w, q, p)
    assert poster.theorem1_query_answer(eps, sens, w, p) == pytest.approx(q, rel=1e-12)
    assert cf.theorem1_epsilon(sens, w, q + sens, p) < eps  # a neighbouring count gets another ε


# --- The notebook's tables, against the values the notebook committed at its defaults -------------

# the notebook's defaults: Δ, c, p, w, q(D), p_grid, δ, seed, n_trials
SENS, C, P, W, Q = 1, 10, 0.9, 0.1, 100
P_GRID = [0.5, 0.75, 0.9, 0.95, 0.99, 0.999]
DELTA, SEED, N_TRIALS = 1e-5, 20191111, 200000
COMMITTED = FIGURES / "mugunthan_poster"


def committed(name):
    return pd.read_csv(COMMITTED / f"{name}.csv")


def same_frame(got, name):
    """``got`` matches the committed CSV, written with 10 significant figures."""
    pd.testing.assert_frame_equal(
        got.reset_index(drop=True), committed(name), check_dtype=False, rtol=1e-9, atol=1e-300
    )


@pytest.mark.parametrize("epsilon", [0.01, 0.37, 1.0, 50.0])
def test_laplace_sigma_times_epsilon_is_root_two_delta(epsilon):
    assert poster.laplace_sigma_times_epsilon(2.5, epsilon) == pytest.approx(
        math.sqrt(2) * 2.5, rel=1e-14
    )


def test_theorem_epsilons_name_each_formula_and_its_distance():
    got = poster.theorem_epsilons(SENS, W, Q, C, P)
    assert list(got) == list(poster.THEOREMS)
    assert got["Theorem 1 (Chebyshev)"] == (cf.theorem1_epsilon(SENS, W, Q, P), W * Q)
    assert got["Theorem 2 (exact)"] == (cf.theorem2_epsilon(SENS, C, P), C)
    assert got["Theorem 3 (McDiarmid)"] == (cf.theorem3_epsilon(SENS, C, P), C)


def test_simulated_coverage_draws_laplace_noise_from_the_generator():
    eps = cf.theorem2_epsilon(SENS, C, P)
    noise = stats.laplace(scale=SENS / eps).rvs(size=1000, random_state=np.random.default_rng(3))
    got = poster.simulated_coverage(eps, C, SENS, 1000, np.random.default_rng(3))
    assert got == np.mean(np.abs(noise) < C)
    assert abs(got - P) < 5 * math.sqrt(P * (1 - P) / 1000)


def test_coverage_by_theorem_matches_the_notebook():
    rng = np.random.default_rng(SEED)
    table = poster.coverage_by_theorem(SENS, W, Q, C, P_GRID, N_TRIALS, rng)
    same_frame(table, "coverage_by_theorem")
    verdicts = table.groupby("theorem").verdict.agg(set)
    assert verdicts["Theorem 1 (Chebyshev)"] == {"conservative"}
    assert verdicts["Theorem 2 (exact)"] == {"exact"}
    assert verdicts["Theorem 3 (McDiarmid)"] == {"conservative", "fails"}


def test_coverage_by_theorem_refuses_a_simulation_that_disagrees(monkeypatch):
    monkeypatch.setattr(poster, "simulated_coverage", lambda *args: 0.0)
    with pytest.raises(RuntimeError, match="more than 5 standard errors"):
        poster.coverage_by_theorem(SENS, W, Q, C, [P], 100, np.random.default_rng(0))


def test_coverage_curves_match_the_notebook():
    p = np.linspace(0.3, 0.999, 300)
    curves = poster.coverage_curves(SENS, W, Q, C, p)
    saved = committed("coverage_minus_p")
    assert list(curves) == list(saved.columns[1:])
    for label, values in curves.items():
        np.testing.assert_allclose(values, saved[label], rtol=1e-9)
    np.testing.assert_allclose(curves["Theorem 2"], p, atol=1e-12)  # Theorem 2 is exact
    above = p > poster.ratio_threshold()
    shortfall = np.array(curves["Theorem 3"]) - p
    assert np.all(shortfall[above] < 0) and np.all(shortfall[~above] > 0)


def test_gaussian_coverage_analytic_uses_the_analytic_sigma():
    sigma = risk.gaussian_noise_for_epsilon(0.5, DELTA, SENS)
    assert poster.gaussian_coverage_analytic(0.5, 99.0, C, SENS, DELTA) == pytest.approx(
        stats.norm.cdf(C, scale=sigma) - stats.norm.cdf(-C, scale=sigma), rel=1e-12
    )
    # ε = 0: the σ asked for is already (0, δ)-DP, and its own coverage is returned
    assert poster.gaussian_coverage_analytic(0.0, 4.0, C, SENS, DELTA) == pytest.approx(
        1 - 2 * stats.norm.sf(C / 4.0), rel=1e-15
    )


def test_gaussian_theorems_table_matches_the_notebook():
    table = poster.gaussian_theorems_table(SENS, C, P_GRID, DELTA)
    same_frame(table, "gaussian_theorems")
    np.testing.assert_allclose(table["coverage at ε2"], P_GRID, rtol=1e-9)  # Theorem 2 is exact
    assert table["ε2 classical valid (< 1)"].tolist() == [True] * 4 + [False] * 2


def test_classical_vs_analytic_table_matches_the_notebook():
    table = poster.classical_vs_analytic_table(SENS, [0.5, 1.0, 2.0, 5.0, 10.0, 20.0], DELTA)
    same_frame(table, "gaussian_classical_vs_analytic")
    assert table["(ε, δ)-DP"].tolist() == [True] * 4 + [False] * 2


def test_lemma1_table_matches_the_notebook():
    table = poster.lemma1_table(SENS, [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0], DELTA)
    same_frame(table, "lemma1_sigma_times_epsilon")
    assert table.columns[2] == "σε Gaussian, analytic (δ = 1e-05)"


def test_slip_curves_match_the_notebook():
    slips = poster.sigma_times_epsilon_curves(SENS, np.geomspace(0.01, 20, 60), DELTA)
    tails = poster.theorem3_tail_curves(np.linspace(0.5, 4, 200))
    same_frame(pd.concat([slips, tails], axis=1), "slips_lemma1_theorem3")


def test_tail_crossing_is_the_ratio_threshold():
    t_star, p_star = poster.theorem3_tail_crossing()
    assert p_star == pytest.approx(poster.ratio_threshold(), abs=1e-12)
    assert math.exp(-math.sqrt(2) * t_star) == pytest.approx(2 * math.exp(-(t_star**2)), rel=1e-12)
    tails = poster.theorem3_tail_curves([t_star - 0.1, t_star + 0.1])
    assert (tails.laplace > tails.theorem3_bound).tolist() == [False, True]


def test_laplace_log10_tail_without_underflow():
    got = poster.laplace_log10_tail([10.0, 1e4], 0.25, 1.0)
    assert got[0] == pytest.approx(math.log10(math.exp(-2.5)), rel=1e-12)
    assert got[1] == pytest.approx(-2500 / math.log(10), rel=1e-12)  # e^-2500 underflows
    eps3 = cf.theorem3_epsilon(1, 10, 0.9)
    far = np.array([10.0, 100.0, 1000.0])
    np.testing.assert_allclose(  # scipy's log survival function where it does not underflow
        poster.laplace_log10_tail(far, eps3, 1),
        (math.log(2) + stats.laplace.logsf(far, scale=1 / eps3)) / math.log(10),
        rtol=1e-14,
    )
    with pytest.raises(ValueError, match="distances must be >= 0"):
        poster.laplace_log10_tail([-1.0], 0.25, 1.0)


def test_a_positive_probability_of_missing_is_never_written_as_zero():
    """At p = 0.99 Theorem 1's failure probability at ε1 is about 7e-07: four decimals would print
    0.0000 under prose that says it is positive."""
    assert poster.miss_text(0.0512345) == "0.0512"
    assert poster.miss_text(7.2123e-07) == "7.21e-07"
    assert poster.miss_text(4.9e-5) == "4.9e-05" and poster.miss_text(5e-5) == "0.0001"
    assert poster.miss_text(0.0) == "0"
