import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from choosing_epsilon import risk
from choosing_epsilon.papers.synthesis import registry

epsilons = st.floats(0.001, 50)
deltas = st.floats(0, 0.1)
mus = st.floats(0.01, 8)
rhos = st.floats(0.001, 20)
fprs = st.floats(0, 1)


@given(epsilons)
def test_pure_advantage_is_its_closed_form(eps):
    expected = math.expm1(eps) / (math.exp(eps) + 1)
    assert risk.advantage(risk.pure(eps)) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@given(epsilons, deltas)
def test_approximate_advantage_is_its_closed_form(eps, delta):
    expected = min(1.0, (math.expm1(eps) + 2 * delta) / (math.exp(eps) + 1))
    assert risk.advantage(risk.approximate(eps, delta)) == pytest.approx(
        expected, rel=1e-9, abs=1e-12
    )


@given(mus)
def test_gdp_advantage_is_its_closed_form(mu):
    expected = 2 * stats.norm.cdf(mu / 2) - 1
    assert risk.advantage(risk.gdp(mu)) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@given(epsilons, deltas, fprs)
def test_approximate_tpr_is_kairouz_oh_viswanath(eps, delta, alpha):
    expected = min(1, delta + math.exp(eps) * alpha, 1 - math.exp(-eps) * (1 - delta - alpha))
    assert risk.tpr_bound(risk.approximate(eps, delta), alpha) == pytest.approx(expected, abs=1e-12)


@given(mus, st.floats(1e-6, 1 - 1e-6))
def test_gdp_tpr_is_the_shifted_normal(mu, alpha):
    expected = stats.norm.cdf(stats.norm.ppf(alpha) + mu)
    assert risk.tpr_bound(risk.gdp(mu), alpha) == pytest.approx(expected, rel=1e-12)


@settings(max_examples=25)
@given(rhos)
def test_zcdp_never_promises_more_than_the_gaussian_with_its_rho(rho):
    """Every ρ-zCDP guarantee covers the Gaussian mechanism of the same ρ (μ = √(2ρ)): read
    through its (ε(δ), δ) family, it may not give a smaller advantage or TPR."""
    mu = risk.gaussian_mu_for_rho(rho)
    assert risk.advantage(risk.zcdp(rho)) >= 2 * stats.norm.cdf(mu / 2) - 1 - 1e-12
    for alpha in (0.01, 0.001):
        assert risk.tpr_bound(risk.zcdp(rho), alpha) >= risk.tpr_bound(risk.gdp(mu), alpha) - 1e-12


@settings(max_examples=25)
@given(rhos, st.floats(1e-12, 0.1))
def test_zcdp_epsilon_lies_between_the_gaussian_and_bun_steinke(rho, delta):
    eps = risk.zcdp_epsilon(rho, delta)
    assert eps <= rho + 2 * math.sqrt(rho * math.log(1 / delta)) + 1e-9
    assert eps >= risk.gdp_epsilon(risk.gaussian_mu_for_rho(rho), delta) - 1e-9
    if eps > 0:
        assert risk.zcdp_delta(rho, eps) == pytest.approx(delta, rel=1e-6)


@pytest.mark.parametrize(("rho", "delta"), [(2.56, 1e-10), (0.07, 1e-10), (0.0728, 1e-5)])
def test_zcdp_epsilon_is_opendps_conversion(rho, delta):
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    gaussian = dp.m.make_gaussian(*space, scale=1 / math.sqrt(2 * rho))
    profile = dp.c.make_zCDP_to_approxDP(gaussian).map(1.0)
    assert risk.zcdp_epsilon(rho, delta) == pytest.approx(profile.epsilon(delta), rel=1e-9)


@given(mus, st.floats(0, 30))
def test_gdp_delta_is_the_gaussian_privacy_profile(mu, eps):
    below = stats.norm.cdf(-eps / mu - mu / 2)
    expected = stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * below
    assert risk.gdp_delta(mu, eps) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("eps", [1e3, 1e6, 1e11])
def test_gdp_mu_for_epsilon_delta_finds_the_root_at_any_epsilon(eps):
    # the search stopped at μ = 1e3 (no root beyond ε ≈ 5e5: the poster at c = 1e-6 asked for
    # ε ≈ 1e11), and δ(μ, ε = 1e3) overflowed on the way at μ near 1e-154
    mu = risk.gdp_mu_for_epsilon_delta(eps, 1e-5)
    assert float(risk.exact_gdp_delta(mu, eps)) == pytest.approx(1e-5, rel=1e-6)
    sigma = risk.gaussian_noise_for_epsilon(eps, 1e-5)
    assert risk.exact_gdp_delta(1 / sigma, eps) <= 1e-5
    assert risk.exact_gdp_delta(1 / (sigma * (1 - 1e-6)), eps) > 1e-5  # and barely so


@pytest.mark.parametrize(("mu", "eps"), [(2.4e-7, 1e3), (3e-7, 1e3), (4.5e-7, 1e3), (0.01, 1e11)])
def test_gdp_delta_of_noise_far_above_epsilon_is_zero_not_an_overflow(mu, eps):
    # δ ≤ Φ(−ε/μ + μ/2), below the smallest double; the two logs of δ's terms (near −1e19 here)
    # differed by rounding alone, by more than e^x can hold, and δ overflowed
    assert risk.gdp_delta(mu, eps) == 0.0


def test_gdp_epsilon_inverts_its_delta():
    eps = risk.gdp_epsilon(0.376, 1e-5)
    assert risk.gdp_delta(0.376, eps) == pytest.approx(1e-5, rel=1e-9)


@given(epsilons)
def test_accuracy_at_half_under_pure_epsilon_is_randomized_responses_truth(eps):
    # randomized response at ε tells the truth with probability e^ε/(1 + e^ε)
    assert risk.accuracy_at_half(risk.pure(eps)) == pytest.approx(
        math.exp(eps) / (1 + math.exp(eps)), rel=1e-9
    )


@given(epsilons, st.floats(0.001, 0.999))
def test_largest_posterior_is_reached_by_a_test(eps, prior):
    g = risk.pure(eps)
    alpha = 1 / (1 + math.exp(eps))  # the kink of the curve, where T(α)/α = e^ε
    assert risk.posterior_after_positive(g, prior, alpha) == pytest.approx(
        risk.largest_posterior(g, prior), rel=1e-9
    )


def test_tradeoff_is_one_minus_tpr_and_decreasing():
    curve = risk.tradeoff(risk.zcdp(0.5), np.linspace(0, 1, 11))
    assert np.all(np.diff(curve) <= 1e-12) and curve[-1] == pytest.approx(0, abs=1e-12)


def test_registry_ui_probability_divides_epsilon_by_e():
    assert registry.registry_ui_truth_probability(1) == pytest.approx(0.591, abs=5e-4)
    assert registry.truth_table((1,)).iloc[0, 2] == pytest.approx(0.731, abs=5e-4)


def test_in_100_never_rounds_to_certainty():
    assert risk.in_100(0.731) == "73 in 100"
    assert risk.in_100(0.9999) == "more than 99 in 100"
    assert risk.in_100(1.0) == "more than 99 in 100"


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: risk.pure(-1), "epsilon"),
        (lambda: risk.approximate(1, 1), "delta"),
        (lambda: risk.zcdp(-1), "rho"),
        (lambda: risk.gdp(math.nan), "mu"),
        (lambda: risk.tpr_bound(risk.pure(1), 1.5), "fpr"),
        (lambda: risk.guarantee("renyi"), "model"),
        (lambda: risk.zcdp_epsilon(1, 0), "delta"),
        (lambda: risk.largest_posterior(risk.pure(1), 1), "prior"),
    ],
)
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_the_old_name_of_the_target_kinds_still_answers_with_a_notice():
    with pytest.warns(DeprecationWarning, match=r"risk\.KINDS is renamed risk\.TARGET_KINDS"):
        assert risk.KINDS == risk.TARGET_KINDS == ("advantage", "tpr", "singling_out")
    with pytest.raises(AttributeError, match="has no attribute 'KIND'"):
        risk.KIND  # noqa: B018
