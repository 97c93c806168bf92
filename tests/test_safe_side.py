"""Every calibration allows at most the risk the reader stated, never a hair more (issue: a search
tolerance or a closed form's rounding spent on the unsafe side). Each noise (and each ε of the
standard route) is read back at 50 digits with mpmath, a route that shares no code or float
rounding with the calibration, across each target's range; the noise is also at most a few units
in the last place above the exact answer, so the margin is the float's and no more."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from choosing_epsilon import calibration, risk

mpmath.mp.dps = 50
# how many units in the last place the safe side may step beyond the exact answer
ULPS = 64

RISKS = st.floats(1e-9, 1 - 1e-9)
FPRS = st.floats(1e-9, 0.5)


def gaussian_advantage(mu):
    """2Φ(μ/2) − 1, exact."""
    return mpmath.erf(mpmath.mpf(mu) / (2 * mpmath.sqrt(2)))


def gaussian_tpr(mu, fpr):
    """Φ(Φ⁻¹(α) + μ), exact (Φ⁻¹ by mpmath's erfinv)."""
    z = mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(fpr) - 1)
    return mpmath.ncdf(z + mpmath.mpf(mu))


def laplace_advantage(mu):
    return 1 - mpmath.exp(-mpmath.mpf(mu) / 2)


def laplace_tpr(mu, fpr):
    """1 − F(F⁻¹(1 − α) − μ) for the standard Laplace distribution, exact."""
    a = mpmath.mpf(fpr)
    quantile = -mpmath.log(2 * a) if a <= 0.5 else mpmath.log(2 * (1 - a))
    x = quantile - mpmath.mpf(mu)
    return 1 - (mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2)


def gaussian_delta(mu, epsilon):
    """δ(ε) of μ-GDP, Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), exact."""
    m, e = mpmath.mpf(mu), mpmath.mpf(epsilon)
    return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)


def adp_advantage(epsilon, delta):
    e = mpmath.mpf(epsilon)
    return (mpmath.expm1(e) + 2 * mpmath.mpf(delta)) / (mpmath.exp(e) + 1)


def adp_tpr(epsilon, delta, fpr):
    """1 − β(α) of Eq. (5), exact."""
    e, d, a = mpmath.mpf(epsilon), mpmath.mpf(delta), mpmath.mpf(fpr)
    beta = max(0, 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))
    return 1 - beta


def exact(mpf) -> mpmath.mpf:
    return mpmath.mpf(mpf)


def close_above(noise: float, exact_noise) -> bool:
    """``noise`` is at or above the exact answer by at most ULPS units in its last place."""
    return exact(noise) - exact_noise <= ULPS * math.ulp(noise)


# --- the Gaussian mechanism (Kulynych et al., Corollaries G.2 and G.3) -------------------------


@given(RISKS, st.floats(1e-3, 1e3))
def test_gaussian_noise_for_an_advantage_never_allows_more(eta, sensitivity):
    sigma = risk.noise_for("Gaussian", risk.at_most_advantage(eta), sensitivity)
    assert gaussian_advantage(exact(sensitivity) / exact(sigma)) <= eta
    mu = 2 * mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(eta))
    assert close_above(sigma, sensitivity / mu)


@given(FPRS, RISKS, st.floats(1e-3, 1e3))
def test_gaussian_noise_for_a_tpr_never_allows_more(fpr, tpr, sensitivity):
    if not tpr > fpr * (1 + 1e-9):
        return
    beta = 1 - tpr  # the FNR the call states (as a float: the TPR it allows is 1 − β, exactly)
    sigma = risk.noise_for("Gaussian", risk.at_most_tpr(1 - beta, fpr), sensitivity)
    assert gaussian_tpr(exact(sensitivity) / exact(sigma), fpr) <= 1 - exact(beta)
    row = calibration.routes("Gaussian", risk.at_most_tpr(tpr, fpr), sensitivity, 1e-5)
    assert gaussian_tpr(exact(sensitivity) / exact(row.noise_aware), fpr) <= tpr
    assert row.risk_aware <= tpr


@given(st.floats(0.0, 20.0), st.sampled_from([1e-12, 1e-8, 1e-5, 1e-2]), st.floats(1e-2, 1e2))
def test_gaussian_noise_for_an_epsilon_delta_never_allows_more(epsilon, delta, sensitivity):
    sigma = risk.gaussian_noise_for_epsilon(epsilon, delta, sensitivity)
    assert gaussian_delta(exact(sensitivity) / exact(sigma), epsilon) <= delta


# --- the Laplace mechanism (calibration.routes) -----------------------------------------------


@given(RISKS, st.floats(1e-3, 1e3))
def test_laplace_noise_for_an_advantage_never_allows_more(eta, sensitivity):
    row = calibration.routes("Laplace", risk.at_most_advantage(eta), sensitivity, 1e-5)
    assert laplace_advantage(exact(sensitivity) / exact(row.noise_aware)) <= eta
    assert row.risk_aware <= eta
    assert close_above(row.noise_aware, sensitivity / (-2 * mpmath.log1p(-mpmath.mpf(eta))))
    # the standard route's b = Δ/ε allows at most its ε
    assert exact(sensitivity) / exact(row.noise_standard) <= exact(row.epsilon_standard)


@given(FPRS, RISKS, st.floats(1e-3, 1e3))
def test_laplace_noise_for_a_tpr_never_allows_more(fpr, tpr, sensitivity):
    if not tpr > fpr * (1 + 1e-9):
        return
    row = calibration.routes("Laplace", risk.at_most_tpr(tpr, fpr), sensitivity, 1e-5)
    assert laplace_tpr(exact(sensitivity) / exact(row.noise_aware), fpr) <= tpr
    assert row.risk_aware <= tpr


@given(RISKS, st.sampled_from([1e-8, 1e-5]), st.floats(1e-3, 1e3))
def test_the_standard_gaussian_noise_never_allows_more_than_its_epsilon_delta(eta, delta, width):
    row = calibration.routes("Gaussian", risk.at_most_advantage(eta), width, delta)
    if math.isinf(row.noise_standard):
        return
    assert gaussian_delta(exact(width) / exact(row.noise_standard), row.epsilon_standard) <= delta


# --- the standard route's ε (Eq. 25 and Algorithm 5) ---------------------------------------------


@given(RISKS, st.sampled_from([0.0, 1e-8, 1e-5, 1e-2]))
def test_the_epsilon_for_an_advantage_never_allows_more(eta, delta):
    if not eta > delta:
        return
    epsilon = risk.epsilon_for(risk.at_most_advantage(eta), delta)
    assert adp_advantage(epsilon, delta) <= eta
    assert risk.advantage(risk.approximate(epsilon, delta)) <= eta


@given(FPRS, RISKS, st.sampled_from([0.0, 1e-8, 1e-5]))
def test_the_epsilon_for_a_tpr_never_allows_more(fpr, tpr, delta):
    if not fpr + (1 - tpr) < 1 - delta:
        return
    beta = 1 - tpr
    epsilon = risk.epsilon_for(risk.at_most_tpr(1 - beta, fpr), delta)
    assert adp_tpr(epsilon, delta, fpr) <= 1 - exact(beta)


# --- the safe side itself ----------------------------------------------------------------------


def test_the_safe_side_moves_only_as_far_as_it_must():
    """A reading 3 units in the last place above its target at the closed form is met after a
    few steps; every reading must be met; a value that already meets them is returned as it is."""
    start = 1.0
    exact_reading = lambda noise: 0.5 + (start + 3 * math.ulp(start) - noise)  # noqa: E731
    moved = risk.safe_side(start, 0.5, [exact_reading])
    assert start < moved <= start + 4 * math.ulp(start)
    assert exact_reading(moved) <= 0.5
    assert risk.safe_side(moved, 0.5, [exact_reading]) == moved
    # a second reading that needs more: both are met
    float_reading = lambda noise: exact_reading(noise - 8 * math.ulp(start))  # noqa: E731
    both = risk.safe_side(start, 0.5, [exact_reading, float_reading])
    assert float_reading(both) <= 0.5 and both > moved
    # toward −∞ for an ε: the value falls
    assert risk.safe_side(2.0, 1.0, [lambda e: e / 2 + 1e-15], toward=-math.inf) < 2.0
    with pytest.raises(ValueError, match="meets the target"):
        risk.safe_side(1.0, 0.5, [lambda noise: 1.0])
