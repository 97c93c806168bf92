"""Kazan & Reiter's risk profiles: Theorem 1's bound, Theorem 2's ε, the general solver of
Eq. (13) against Table 4's closed forms, the authors' grid search, and the geometric mechanism."""

import math

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from choosing_epsilon import geometric
from choosing_epsilon import risk_profiles as rp
from tests.examples import examples

priors = st.floats(1e-4, 1.0)
open_priors = st.floats(1e-4, 1 - 1e-4)
bounds = st.floats(1.01, 50.0)
absolutes = st.floats(0.005, 0.95)


def noise_sd_closed(epsilon: float) -> float:
    """√(2α)/(1 − α) with α = e^{−ε}, written with expm1: the geometric noise's standard deviation
    in closed form, a check of scipy's."""
    return math.sqrt(2 * math.exp(-epsilon)) / -math.expm1(-epsilon)


# --- Theorem 1 and Theorem 2 ---------------------------------------------------------------------


@given(p=priors, q=priors, r=bounds)
def test_theorem2_epsilon_makes_theorem1_bound_equal_r_star(p, q, r):
    eps = rp.epsilon_at(p, q, r)
    if math.isinf(eps):
        assert r >= 1 / (p * q) * (1 - 1e-12)  # the bound binds nothing above 1/(pq)
    else:
        assert rp.relative_risk_bound(eps, p, q) == pytest.approx(r, rel=1e-9)


@given(p=priors, q=priors, r=bounds, e1=st.floats(0.01, 5), e2=st.floats(0.01, 5))
def test_theorem1_bound_rises_with_epsilon_and_stays_below_e_2eps(p, q, r, e1, e2):
    lo, hi = sorted((e1, e2))
    assert rp.relative_risk_bound(lo, p, q) <= rp.relative_risk_bound(hi, p, q) * (1 + 1e-12)
    assert rp.relative_risk_bound(hi, p, q) <= math.exp(2 * hi) * (1 + 1e-12)  # Corollary 1


@given(p=open_priors, q=st.one_of(open_priors, st.just(1.0)), r=bounds)
def test_multiplied_out_form_equals_printed_eq12(p, q, r):
    exact, printed = rp.epsilon_at(p, q, r), rp.epsilon_at_printed(p, q, r)
    assume(math.isfinite(printed) and printed > 1e-6)
    assert exact == pytest.approx(printed, rel=1e-7)


def test_corollary2_at_p_equal_one():
    for q, r in [(0.1, 3), (0.5, 1.5), (1 / 12, 3)]:
        assert rp.epsilon_at(1.0, q, r) == pytest.approx(0.5 * math.log((1 - q) / (1 / r - q)))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rp.epsilon_at(0.0, 0.5, 3), r"p must lie in \(0, 1\], got 0.0"),
        (lambda: rp.epsilon_at(0.5, 1.5, 3), r"q must lie in \(0, 1\], got 1.5"),
        (lambda: rp.epsilon_at(0.5, 0.5, 0.9), r"r_star must be >= 1 .*got 0.9"),
        (lambda: rp.relative_risk_bound(-1, 0.5, 0.5), r"epsilon must be > 0"),
        (lambda: rp.fixed_q_epsilon(1.2, 1, 3), r"a_tilde must lie in \(0, 1\), got 1.2"),
        (lambda: rp.fixed_p_epsilon(0.1, 0.05, 1.0), r"r_tilde must be > 1 .*got 1.0"),
        (lambda: rp.point_epsilon(2.0), r"r_prime must lie in \[1, 2\), got 2.0"),
        (lambda: rp.lee_clifton_epsilon(4, 0.2), r"a_tilde must exceed the prior 1/n"),
        (lambda: rp.minimise(lambda p, q: 0.5), r"profile\(.*must be >= 1"),
        (lambda: rp.minimise(lambda p, q: math.nan), r"profile\(.*must be >= 1"),
        # a profile of numbers only (no arrays): each value is checked one at a time
        (lambda: rp.minimise(lambda p, q: 0.5 if p < 0.3 else 2.0), r"profile\(.*must be >= 1"),
        (lambda: rp.minimise(rp.constant_profile(3), p_range=(0.5, 0.2)), r"p_range must"),
        (lambda: rp.grid_search(rp.constant_profile(3), step=0.9), r"step must lie in"),
    ],
)
def test_bad_inputs_name_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- the general solver against Table 4 ----------------------------------------------------------


@settings(max_examples=8)  # each two-dimensional solve takes about a second
@given(r=bounds)
def test_constant_profile_theorem3(r):
    found = rp.minimise(rp.constant_profile(r))
    assert found.epsilon == pytest.approx(rp.constant_epsilon(r), abs=1e-9)


@settings(max_examples=150)
@given(a=absolutes, q=st.one_of(priors, st.just(1.0)), r=bounds)
@example(a=0.25, q=1.0, r=1.5)  # Table 1
@example(a=0.1, q=1 / 3, r=2.0)  # q̃ = 1/(r̃ + 1), the flat case of the proof
@example(a=0.3, q=0.1, r=3.0)  # q̃ = ã/r̃
def test_fixed_q_closed_form_equals_solver(a, q, r):
    assume(a < r * q or q < 1)
    closed = rp.fixed_q_epsilon(a, q, r)
    found = rp.minimise(rp.fixed_q_profile(a, q, r), q_range=(q, q))
    assert found.epsilon == pytest.approx(closed, rel=1e-7, abs=1e-8)


@settings(max_examples=150)
@given(a=absolutes, p=priors, r=bounds)
@example(a=0.15, p=0.05, r=3.0)  # Table 5, agency B: p̃ = ã/r̃ exactly
@example(a=0.025, p=0.0005, r=3.0)  # Appendix C.2
def test_fixed_p_closed_form_equals_solver(a, p, r):
    closed = rp.fixed_p_epsilon(a, p, r)
    found = rp.minimise(rp.fixed_p_profile(a, p, r), p_range=(p, p))
    assert found.epsilon == pytest.approx(closed, rel=1e-7, abs=1e-8)


@settings(max_examples=examples(10, 250))
@given(
    r=bounds,
    p=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    q=st.tuples(st.floats(0, 1), st.floats(0, 1)),
)
def test_box_closed_form_equals_solver(r, p, q):
    (p0, p1), (q0, q1) = sorted(p), sorted(q)
    assume(p1 > 1e-3 and q1 > 1e-3 and p1 - p0 > 1e-3 and q1 - q0 > 1e-3 and q0 < 1 - 1e-3)
    assume(p0 > 1e-3 or p0 == 0)
    closed = rp.box_epsilon(r, (p0, p1), (q0, q1))
    found = rp.minimise(rp.box_profile(r, (p0, p1), (q0, q1)), (p0, p1), (q0, q1))
    if math.isinf(closed):
        assert math.isinf(found.epsilon) or found.epsilon > 20
    elif p0 == 0 and q0 * (r + 1) > 1:
        # the infimum log r̃ is a limit as p → 0: the solver gets within the slope times 1e-12
        assert found.epsilon == pytest.approx(closed, abs=1e-6)
    else:
        assert found.epsilon == pytest.approx(closed, rel=1e-7, abs=1e-8)


@settings(max_examples=8)
@given(b=st.floats(0.001, 0.9))
def test_difference_profile_eq29(b):
    found = rp.minimise(rp.difference_profile(b))
    assert found.epsilon == pytest.approx(rp.difference_epsilon(b), rel=1e-7)


def test_two_dimensional_profile_of_figure5():
    found = rp.minimise(rp.two_dimensional_profile(0.25, 3))
    assert found.p == pytest.approx(1.0)
    assert found.q == pytest.approx(0.25 / 3, abs=1e-8)
    assert found.epsilon == pytest.approx(0.5 * math.log(11 / 3), abs=1e-8)


def test_point_profile_and_lee_clifton():
    r = 1.5
    point = rp.minimise(lambda p, q: r if (p, q) == (0.5, 1.0) else math.inf, (0.5, 0.5), (1, 1))
    assert point.epsilon == pytest.approx(rp.point_epsilon(r))
    assert rp.lee_clifton_epsilon(4, 1 / 3) == pytest.approx(math.log(1.5))
    assert rp.epsilon_at(1 / 4, 1, 4 / 3) == pytest.approx(math.log(1.5))


def test_a_plain_python_profile_works_in_both_solvers():
    def profile(p, q):  # scalars only: if/else, as a reader would write it
        return max(0.25 / (p * q), 3.0) if q == 1 else math.inf

    assert rp.minimise(profile, q_range=(1, 1)).epsilon == pytest.approx(math.log(2.75 / 0.75))
    assert rp.grid_search(profile).epsilon >= math.log(2.75 / 0.75)


# --- the authors' grid search ---------------------------------------------------------------------


@pytest.mark.parametrize("r", [1.5, 3, 6])
def test_grid_is_above_the_exact_answer_by_less_than_a_step(r):
    exact = rp.fixed_q_epsilon(0.25, 1, r)
    grid = rp.grid_search(rp.fixed_q_profile(0.25, 1, r))
    assert grid.epsilon - exact >= 0
    # ε is increasing in p beyond the minimiser ã/r̃ with slope below r̃/(1 - r̃ p): one step
    slope = 1 / (1 / r - grid.p) + 1 / (1 - grid.p)
    assert grid.epsilon - exact <= slope * 1e-3


# --- the geometric mechanism and the Monte Carlo check --------------------------------------------


@given(eps=st.floats(0.01, 20))
def test_geometric_noise_moments(eps):
    alpha = math.exp(-eps)
    assert geometric.noise_sd(eps) == pytest.approx(math.sqrt(2 * alpha) / (1 - alpha), rel=1e-9)
    assert geometric.noise_sd(eps) == pytest.approx(noise_sd_closed(eps), rel=1e-9)
    assert geometric.prob_exact(eps) == pytest.approx((1 - alpha) / (1 + alpha), rel=1e-12)


def test_geometric_dp_ratio_is_e_to_epsilon():
    noise = geometric.distribution(0.7)
    k = np.arange(-30, 30)
    assert np.allclose(noise.pmf(k) / noise.pmf(k + 1), np.exp(0.7 * np.sign(k + 0.5)))


@given(eps=st.floats(0.05, 4), p=st.floats(0.01, 1), q=st.floats(0.01, 1))
def test_signed_count_reaches_the_theorem1_bound(eps, p, q):
    t = np.arange(-5, 6)
    ratio = rp.signed_count_risk(eps, p, q, t)
    bound = rp.relative_risk_bound(eps, p, q)
    assert np.all(ratio <= bound * (1 + 1e-9))
    assert np.allclose(ratio[t >= 1], bound, rtol=1e-9)


def test_simulation_agrees_with_the_exact_ratio():
    rng = np.random.default_rng(7)
    sim = rp.simulate_signed_count_risk(1.3, 1 / 12, 1.0, 200_000, rng)
    exact = rp.relative_risk_bound(1.3, 1 / 12, 1.0)
    assert abs(sim.ratio - exact) < 5 * sim.standard_error


def test_survey_agency_epsilon_is_theorem4():
    assert rp.survey_agency_epsilon(0.05, 0.15, 3) == pytest.approx(
        rp.fixed_p_epsilon(0.15, 0.05, 3)
    )
    with pytest.raises(ValueError, match="prior must lie in"):
        rp.survey_agency_epsilon(1.0, 0.5)
