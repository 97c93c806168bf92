"""Singling out one of k candidates (re-identification, attribute inference, reconstruction among k
values), read off each guarantee's trade-off curve, tested from both sides: the bound 1 − f(1/k)
never below what a mechanism with the guarantee attains, the exact worst case of pure ε and of
(ε, δ) attained by k-ary randomized response and never exceeded by random mechanisms read at their
own ε and δ, the simplex mechanisms' chances against closed forms, quadrature and seeded sampling.
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution
from hypothesis import given, settings
from hypothesis import strategies as st
from riskcal.analysis import get_beta_from_pld
from scipy import stats

from choosing_epsilon import risk

KS = st.integers(2, 1000)


# --- the table, k = 10 --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("guarantee", "bound", "attained"),
    [
        (risk.pure(1.0), 0.2718, 0.2320),
        (risk.pure(3.0), 0.9552, 0.6906),
        (risk.gdp(1.0), 0.3891, 0.2533),
        (risk.gdp(2.0), 0.7638, 0.4792),
    ],
    ids=lambda v: v.describe() if isinstance(v, risk.Guarantee) else None,
)
def test_the_table_of_ten_candidates(guarantee, bound, attained):
    found = risk.singling_out(guarantee, 10)
    assert found.bound == pytest.approx(bound, abs=5e-5)
    assert found.attained == pytest.approx(attained, abs=5e-5)
    assert found.bound - found.attained > 0.1 or guarantee.model == "pure"


# --- pure ε and (ε, δ): the exact worst case ------------------------------------------------------


def randomized_response(epsilon: float, delta: float, k: int) -> np.ndarray:
    """k-ary randomized response that reports the truth with (e^ε + (k − 1)δ)/(e^ε + k − 1): row i
    the output distribution on input i."""
    truth = (math.exp(epsilon) + (k - 1) * delta) / (math.exp(epsilon) + k - 1)
    other = (1 - truth) / (k - 1)
    return np.full((k, k), other) + np.eye(k) * (truth - other)


def delta_at(mechanism: np.ndarray, epsilon: float) -> float:
    """The least δ at which a mechanism with finitely many outputs (rows: inputs) is (ε, δ)-DP
    for every ordered pair of inputs: Σ_o max(0, P_i(o) − e^ε P_j(o)), the largest over pairs."""
    k = mechanism.shape[0]
    return max(
        float(np.sum(np.maximum(0.0, mechanism[i] - math.exp(epsilon) * mechanism[j])))
        for i, j in itertools.permutations(range(k), 2)
    )


def best_guess(mechanism: np.ndarray) -> float:
    """The chance the best guess of the input is right, the inputs equally likely: the largest
    entry of each output's column, summed, over k."""
    return float(np.sum(mechanism.max(axis=0)) / mechanism.shape[0])


@given(st.floats(0.0, 8.0), st.sampled_from([0.0, 1e-6, 1e-3, 0.05]), st.integers(2, 12))
def test_randomized_response_attains_the_exact_worst_case(epsilon, delta, k):
    """From below: k-ary randomized response has the guarantee and attains the value."""
    mechanism = randomized_response(epsilon, delta, k)
    assert delta_at(mechanism, epsilon) <= delta + 1e-12
    guarantee = risk.pure(epsilon) if delta == 0 else risk.approximate(epsilon, delta)
    found = risk.singling_out(guarantee, k)
    assert found.exact
    assert best_guess(mechanism) == pytest.approx(found.attained, rel=1e-12)
    assert found.attained <= found.bound + 1e-12


@settings(max_examples=60)
@given(st.integers(2, 6), st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_no_mechanism_beats_the_exact_worst_case_at_its_own_epsilon_and_delta(k, outputs, seed):
    """From above: random mechanisms on k inputs, each read at its own ε (the largest log ratio)
    and at a smaller ε with the δ it then needs, never single out better than the worst case."""
    rng = np.random.default_rng(seed)
    mechanism = rng.dirichlet(np.full(outputs, 0.5), size=k)
    mechanism = np.maximum(mechanism, 1e-12)
    mechanism /= mechanism.sum(axis=1, keepdims=True)
    epsilon = float(
        max(np.max(np.log(mechanism[i] / mechanism[j])) for i in range(k) for j in range(k))
    )
    assert best_guess(mechanism) <= risk.singling_out(risk.pure(epsilon), k).attained + 1e-12
    for fraction in (0.0, 0.25, 0.5):
        smaller = fraction * epsilon
        delta = delta_at(mechanism, smaller)
        if delta < 1:
            worst = risk.singling_out(risk.approximate(smaller, delta), k).attained
            assert best_guess(mechanism) <= worst + 1e-12


@given(st.floats(0.0, 10.0), st.floats(0.0, 0.5), KS)
def test_the_worst_case_lies_below_the_curve_s_bound_and_balle_s(epsilon, delta, k):
    found = risk.singling_out(risk.approximate(epsilon, delta), k)
    assert 1 / k - 1e-12 <= found.attained <= found.bound + 1e-12
    pure = risk.singling_out(risk.pure(epsilon), k)
    assert pure.bound <= pure.balle + 1e-12  # e^ε/k, the older bound, is never the tighter


# --- μ-GDP, ρ-zCDP and the Laplace mechanism: a simplex attains, the curve bounds ----------------


@given(st.floats(0.0, 12.0), KS)
def test_the_simplex_gaussian_lies_between_chance_and_the_bound(mu, k):
    found = risk.singling_out(risk.gdp(mu), k)
    assert 1 / k - 1e-12 <= found.attained <= found.bound + 1e-12
    assert found.bound <= found.balle + 1e-12 or math.isnan(found.balle)


@given(st.floats(0.0, 12.0))
def test_two_gaussian_candidates_are_the_membership_test(mu):
    """k = 2: the two points μ apart, guessed at the midpoint: Φ(μ/2), the accuracy at prior ½."""
    assert risk.simplex_gaussian_success(mu, 2) == pytest.approx(stats.norm.cdf(mu / 2), abs=1e-9)
    assert risk.simplex_gaussian_success(mu, 2) == pytest.approx(
        risk.accuracy_at_half(risk.gdp(mu)), abs=1e-9
    )


@settings(max_examples=8)
@given(st.floats(0.05, 6.0), st.sampled_from([3, 10, 100, 1000]))
def test_the_simplex_gaussian_by_quadrature_at_fifty_digits(mu, k):
    mpmath.mp.dps = 50
    shift = mpmath.mpf(mu) / mpmath.sqrt(2)
    exact = mpmath.quad(
        lambda y: mpmath.npdf(y - shift) * mpmath.ncdf(y) ** (k - 1),
        [-mpmath.inf, shift, mpmath.inf],
    )
    assert risk.simplex_gaussian_success(mu, k) == pytest.approx(float(exact), abs=1e-9)


@pytest.mark.parametrize(
    ("mechanism", "mu", "k"),
    [
        ("Gaussian", 1.0, 10),
        ("Gaussian", 2.5, 50),
        ("Laplace", 1.0, 10),
        ("Laplace", 3.0, 5),
        ("Laplace", 0.2, 3),
    ],
)
def test_the_simplex_mechanisms_by_seeded_sampling(mechanism, mu, k):
    """The mechanism itself: noise of scale 1 on k points (orthogonal, pairwise μ apart in L2 for
    the Gaussian, in L1 for the Laplace), the best guess (the largest score, ties at random),
    200,000 seeded draws: within four standard errors."""
    rng = np.random.default_rng(20261128)
    draws = 200_000
    if mechanism == "Gaussian":
        y = rng.standard_normal((draws, k))
        y[:, 0] += mu / math.sqrt(2)
        score = y
    else:
        y = rng.laplace(size=(draws, k))
        y[:, 0] += mu / 2
        score = np.clip(y, 0, mu / 2)
    best = score.max(axis=1, keepdims=True)
    ties = (score == best).sum(axis=1)
    won = np.where(score[:, 0] == best[:, 0], 1 / ties, 0.0)
    found, error = won.mean(), won.std() / math.sqrt(draws)
    assert abs(found - risk.attained_success(mechanism, mu, k)) <= 4 * error


@pytest.mark.parametrize("mu", [0.3, 1.0, 3.0, 8.0])
def test_the_laplace_simplex_keeps_the_laplace_guarantee(mu):
    """Each pair of the L1 simplex differs by μ/2 on two axes: two Laplace shifts of μ/2, whose
    curve (dp-accounting's composition, read by riskcal) lies at or above the single shift's: the
    mechanism has the guarantee whose bound it is compared with."""
    half = privacy_loss_distribution.from_laplace_mechanism(
        parameter=1.0, sensitivity=mu / 2, value_discretization_interval=1e-4
    )
    alphas = np.array([1e-4, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9])
    composed = np.asarray(get_beta_from_pld(half.compose(half), alpha=alphas))
    assert np.all(composed >= risk.tradeoff(risk.laplace(mu), alphas) - 1e-9)


@given(st.floats(0.0, 12.0), KS)
def test_the_laplace_simplex_lies_between_chance_and_the_bound(mu, k):
    found = risk.singling_out(risk.laplace(mu), k)
    assert 1 / k - 1e-12 <= found.attained <= found.bound + 1e-12


@given(st.floats(1e-3, 20.0), KS)
def test_zcdp_reads_through_the_gaussian_it_contains(rho, k):
    found = risk.singling_out(risk.zcdp(rho), k)
    gaussian = risk.singling_out(risk.gdp(math.sqrt(2 * rho)), k)
    assert found.attained == gaussian.attained  # the Gaussian mechanism is ρ-zCDP
    assert gaussian.bound <= found.bound + 1e-9  # the zCDP curve covers more mechanisms
    assert found.bound <= found.balle + 1e-9


# --- the noise for a stated chance ---------------------------------------------------------------


@pytest.mark.parametrize("mechanism", list(risk.MECHANISMS))
@pytest.mark.parametrize(("success", "k"), [(0.5, 10), (0.05, 1000), (0.9, 3)])
def test_the_noise_for_a_stated_chance_from_both_sides(mechanism, success, k):
    target = risk.at_most_singling_out(success, k)
    model = risk.MECHANISMS[mechanism]
    by_bound = risk.noise_for(mechanism, target, 2.0)
    by_attained = risk.noise_for_attained_singling_out(mechanism, target, 2.0)
    bound = risk.singling_out(risk.Guarantee(model, mu=2.0 / by_bound), k).bound
    assert (
        bound <= success
        and risk.singling_out(risk.Guarantee(model, mu=2.0 / (by_bound * (1 - 1e-6))), k).bound
        > success
    )
    attained = risk.attained_success(mechanism, 2.0 / by_attained, k)
    assert attained <= success
    assert risk.attained_success(mechanism, 2.0 / (by_attained * (1 - 1e-6)), k) > success
    assert by_attained < by_bound  # the bound covers every mechanism: it asks for more noise


def test_a_chance_no_better_than_blind_is_refused():
    with pytest.raises(ValueError, match=r"max_success must exceed the chance of a blind guess"):
        risk.at_most_singling_out(0.1, 10)
    with pytest.raises(ValueError, match="k must be an integer >= 2"):
        risk.singling_out(risk.pure(1.0), 1)
