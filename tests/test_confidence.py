import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from opendp.accuracy import gaussian_scale_to_accuracy, laplacian_scale_to_accuracy
from scipy import stats

from choosing_epsilon import confidence as cf

probabilities = st.floats(0.01, 0.999)


@given(p1=probabilities, p2=probabilities, c=st.floats(0.1, 100), sens=st.floats(0.01, 10))
def test_theorem2_epsilon_rises_with_p(p1, p2, c, sens):
    lo, hi = sorted((p1, p2))
    assert cf.theorem2_epsilon_laplace(sens, c, lo) <= cf.theorem2_epsilon_laplace(sens, c, hi)


@given(p=probabilities, c=st.floats(0.1, 100), sens=st.floats(0.01, 10))
def test_theorem2_is_exact_and_agrees_with_opendp(p, c, sens):
    eps = cf.theorem2_epsilon_laplace(sens, c, p)
    assert cf.coverage(eps, c, sens) == pytest.approx(p, abs=1e-9)
    assert laplacian_scale_to_accuracy(sens / eps, 1 - p) == pytest.approx(c, rel=1e-9)


@pytest.mark.parametrize("p", [0.3, 0.9, 0.99])
def test_general_theorem2_matches_closed_forms_and_opendp(p):
    assert cf.theorem2_epsilon(1.0, 10.0, p) == pytest.approx(
        cf.theorem2_epsilon_laplace(1.0, 10.0, p), rel=1e-9
    )
    eps_gauss = cf.theorem2_epsilon(3.0, 10.0, p, stats.norm)
    assert eps_gauss == pytest.approx(3.0 * stats.norm.ppf((1 + p) / 2) / 10.0, rel=1e-9)
    assert gaussian_scale_to_accuracy(3.0 / eps_gauss, 1 - p) == pytest.approx(10.0, rel=1e-6)


def test_quadrature_matches_closed_form():
    for eps in (0.01, 0.3, 5.0):
        assert cf.integrated_coverage(eps, 2.0, 1.0) == pytest.approx(
            1 - math.exp(-2.0 * eps), abs=1e-10
        )


def test_threshold_and_theorem3_failure():
    threshold = cf.ratio_threshold()
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
        (lambda: cf.theorem2_epsilon_laplace(1, 10, 1.0), r"p must lie in \(0, 1\)"),
        (lambda: cf.theorem2_epsilon_laplace(1, 10, 0.0), r"p must lie in \(0, 1\)"),
        (lambda: cf.theorem3_epsilon(1, 0, 0.9), "c must be > 0"),
        (lambda: cf.theorem3_epsilon(1, -2, 0.9), "c must be > 0"),
        (lambda: cf.theorem1_epsilon(1, 1.5, 100, 0.9), r"w must lie in \(0, 1\)"),
        (lambda: cf.theorem1_epsilon(1, 0, 100, 0.9), r"w must lie in \(0, 1\)"),
        (lambda: cf.ratio(np.array([0.5, 1.0])), r"p must lie in \(0, 1\)"),
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
        cf.gaussian_sigma_classical(2.0, epsilon, delta),
        cf.gaussian_sigma_analytic(2.0, epsilon, delta),
    )
    assert analytic < classical
    assert cf.gaussian_privacy_profile(classical, epsilon, 2.0) < delta
    assert hockey_stick_by_quadrature(classical, epsilon, 2.0) < delta


@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-9])
@pytest.mark.parametrize("epsilon", [0.05, 0.5, 1.0, 1.59, 5.0, 20.0])
def test_analytic_sigma_meets_the_privacy_profile_exactly(epsilon, delta):
    sigma = cf.gaussian_sigma_analytic(3.0, epsilon, delta)
    assert hockey_stick_by_quadrature(sigma, epsilon, 3.0) == pytest.approx(delta, rel=1e-7)
    assert cf.gaussian_privacy_profile(sigma * 0.999, epsilon, 3.0) > delta  # the smallest such σ
    assert cf.gaussian_epsilon_analytic(sigma, 3.0, delta) == pytest.approx(epsilon, rel=1e-10)


@pytest.mark.parametrize("sigma, epsilon", [(0.3, 4.0), (5.0, 0.2), (40.0, 0.01)])
def test_privacy_profile_formula_against_quadrature(sigma, epsilon):
    assert cf.gaussian_privacy_profile(sigma, epsilon, 1.0) == pytest.approx(
        hockey_stick_by_quadrature(sigma, epsilon, 1.0), rel=1e-8
    )


def test_classical_sigma_fails_for_large_epsilon():
    # beyond its proven range ε < 1 the classical σ is eventually too small: at ε = 20 it is not
    # (ε, δ)-DP
    sigma = cf.gaussian_sigma_classical(1.0, 20.0, 1e-5)
    assert hockey_stick_by_quadrature(sigma, 20.0, 1.0) > 1e-5
    assert cf.gaussian_sigma_analytic(1.0, 20.0, 1e-5) > sigma


def test_gaussian_epsilon_is_zero_for_huge_noise():
    # δ(0; σ) = 2Φ(Δ/2σ) − 1 ≈ 4e-11 < δ: the noise is (0, δ)-DP
    assert cf.gaussian_epsilon_analytic(1e10, 1.0, 1e-5) == 0.0


@pytest.mark.parametrize("p", [0.3, 0.9, 0.999])
def test_sigma_forms_of_theorems_2_and_3(p):
    s2 = cf.theorem2_sigma_gaussian(10.0, p)
    assert stats.norm.cdf(10.0, scale=s2) - stats.norm.cdf(-10.0, scale=s2) == pytest.approx(
        p, rel=1e-12
    )
    m = math.sqrt(2) * 1.5  # Laplace M for Δ = 1.5: σ3 = M / ε3
    assert cf.theorem3_sigma(10.0, p) == pytest.approx(
        m / cf.theorem3_epsilon(1.5, 10.0, p), rel=1e-12
    )


@given(p=probabilities, w=st.floats(0.01, 0.99), q=st.floats(1, 1e6), sens=st.floats(0.01, 10))
def test_theorem1_epsilon_reveals_the_query_answer(p, w, q, sens):
    eps = cf.theorem1_epsilon(sens, w, q, p)
    assert cf.theorem1_query_answer(eps, sens, w, p) == pytest.approx(q, rel=1e-12)
    assert cf.theorem1_epsilon(sens, w, q + sens, p) < eps  # a neighbouring count gets another ε
