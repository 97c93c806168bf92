"""The readings of ``choosing_epsilon.risk`` and their inverses take arrays, as ``tradeoff`` does:
an array of rates, priors, shifts, candidates or a target's levels gives an array of its shape
(arguments broadcast as numpy's), each element equal, bit for bit, to the call on that element
alone; a single number gives a float. A bad element is refused as a single value is, with its
position. ``summary`` reads singling out too, checked against the closed forms of pure ε."""

from __future__ import annotations

import math

import numpy as np
import pytest

from choosing_epsilon import risk
from choosing_epsilon.papers.synthesis.parameters import DECLARED as SYNTHESIS

FPRS = np.array([[0.0, 1e-6, 0.001, 0.01], [0.1, 0.3, 0.5, 1.0]])  # a 2-D shape, both ends
GUARANTEES = [
    risk.pure(1.0),
    risk.approximate(0.5, 1e-5),
    risk.zcdp(0.3),
    risk.gdp(1.2),
    risk.laplace(0.7),
]


def one_by_one(function, *args):
    """``function`` called on each element of its broadcast arguments alone: numbers as Python
    numbers, a ``RiskTargets`` as its single targets."""
    spread = [a.targets() if isinstance(a, risk.RiskTargets) else np.asarray(a) for a in args]
    arrays = np.broadcast_arrays(*spread)
    out = np.empty(arrays[0].shape)
    for index in np.ndindex(out.shape):
        values = [a[index] for a in arrays]
        out[index] = function(*[v.item() if isinstance(v, np.generic) else v for v in values])
    return out


def same(result, function, *args):
    """``result`` is an array of the broadcast shape whose every element is the single call's."""
    expected = one_by_one(function, *args)
    assert isinstance(result, np.ndarray) and result.shape == expected.shape
    assert result.dtype == float
    np.testing.assert_array_equal(result, expected)  # equal, not close: the same path


@pytest.mark.parametrize("g", GUARANTEES, ids=lambda g: g.model)
def test_tpr_bound_reads_an_array_of_rates_element_by_element(g):
    same(risk.tpr_bound(g, FPRS), risk.tpr_bound, g, FPRS)
    same(risk.tpr_bound(g, FPRS[1].tolist()), risk.tpr_bound, g, FPRS[1])  # a list too
    # the trade-off curve is the same reading, complemented, to its rounding
    np.testing.assert_allclose(risk.tradeoff(g, FPRS), 1 - risk.tpr_bound(g, FPRS), atol=1e-12)


@pytest.mark.parametrize(
    "g",
    [risk.pure(1e-9), risk.pure(3.0), risk.pure(800.0), risk.approximate(2.0, 0.3)]
    + [risk.gdp(m) for m in (1e-6, 1.0, 40.0)]
    + [risk.laplace(m) for m in (1e-6, 1.0, 60.0)],
    ids=lambda g: g.describe(),
)
def test_the_closed_forms_read_at_once_are_the_single_readings_bit_for_bit(g):
    """``tpr_bound`` reads the closed forms for many rates with numpy at once: the same floats
    as one rate at a time, over rates from the smallest double to 1 (a seeded draw)."""
    rng = np.random.default_rng(20261202)
    fprs = np.concatenate(
        [rng.random(400), 10.0 ** -rng.uniform(0, 300, 200), [0.0, 5e-324, 0.5, 1 - 2**-53, 1.0]]
    )
    one = np.array([risk.tpr_bound(g, float(a)) for a in fprs])
    np.testing.assert_array_equal(risk.tpr_bound(g, fprs), one)


@pytest.mark.parametrize("g", GUARANTEES, ids=lambda g: g.model)
def test_a_single_rate_still_gives_a_float(g):
    assert type(risk.tpr_bound(g, 0.01)) is float
    assert type(risk.tpr_bound(g, np.float64(0.01))) is float
    assert type(risk.tpr_bound(g, np.array(0.01))) is float  # a 0-d array: a float
    assert risk.tpr_bound(g, np.array(0.01)) == risk.tpr_bound(g, 0.01)
    assert risk.tpr_bound(g, np.array([])).shape == (0,)


PRIORS = np.array([[0.01], [0.2], [0.5], [0.9]])  # a column: broadcast against a row of rates
POSITIVE_FPRS = np.array([1e-4, 0.01, 0.2, 1.0])


@pytest.mark.parametrize("g", GUARANTEES, ids=lambda g: g.model)
def test_the_posterior_readings_take_arrays_and_broadcast(g):
    result = risk.posterior_after_positive(g, PRIORS, POSITIVE_FPRS)
    assert result.shape == (4, 4)
    same(result, risk.posterior_after_positive, g, PRIORS, POSITIVE_FPRS)
    same(risk.largest_posterior(g, PRIORS), risk.largest_posterior, g, PRIORS)


def test_the_posterior_inverse_takes_arrays():
    thresholds = np.array([0.6, 0.75, 0.99])
    same(risk.epsilon_for_posterior(0.5, thresholds), risk.epsilon_for_posterior, 0.5, thresholds)
    priors = np.array([0.1, 0.3])
    same(risk.epsilon_for_posterior(priors, 0.9), risk.epsilon_for_posterior, priors, 0.9)


def test_the_conversions_take_arrays():
    eps, deltas = np.array([0.0, 0.5, 3.0]), np.array([1e-9, 1e-5, 0.01])
    same(risk.gdp_delta(1.0, eps), risk.gdp_delta, 1.0, eps)
    same(risk.gdp_epsilon(np.array([0.5, 2.0])[:, None], deltas), risk.gdp_epsilon,
         np.array([0.5, 2.0])[:, None], deltas)  # fmt: skip
    same(risk.zcdp_delta(0.5, eps), risk.zcdp_delta, 0.5, eps)
    same(risk.zcdp_epsilon(0.5, deltas), risk.zcdp_epsilon, 0.5, deltas)
    rhos = np.array([0.01, 0.5, 2.0])
    same(risk.gaussian_mu_for_rho(rhos), risk.gaussian_mu_for_rho, rhos)
    same(risk.zcdp_advantage_via_approximate(rhos), risk.zcdp_advantage_via_approximate, rhos)
    same(risk.zcdp_tpr_via_approximate(0.5, FPRS[0]), risk.zcdp_tpr_via_approximate, 0.5,
         FPRS[0])  # fmt: skip
    same(risk.bernoulli_zcdp_rho(0.01, [0.01, 0.05, 0.5]), risk.bernoulli_zcdp_rho, 0.01,
         [0.01, 0.05, 0.5])  # fmt: skip
    same(risk.gdp_mu_for_epsilon_delta(eps, 1e-5), risk.gdp_mu_for_epsilon_delta, eps, 1e-5)
    same(risk.gaussian_noise_for_epsilon(eps, 1e-5, [[1.0], [2.0]]),
         risk.gaussian_noise_for_epsilon, eps, 1e-5, [[1.0], [2.0]])  # fmt: skip


def test_the_singling_out_readings_take_arrays_of_candidates_and_shifts():
    ks, mus = np.array([2, 10, 1000]), np.array([[0.0], [1.0], [3.0]])
    for g in GUARANTEES:
        found = risk.singling_out(g, ks)
        for i, k in enumerate(ks.tolist()):
            one = risk.singling_out(g, k)
            assert (found.k[i], found.bound[i], found.attained[i]) == (k, one.bound, one.attained)
            np.testing.assert_equal(found.balle[i], one.balle)  # NaN where Balle et al. give none
            assert (found.exact, found.attained_by) == (one.exact, one.attained_by)
        same(found.bound, lambda k, g=g: risk.tpr_bound(g, 1 / k), ks)  # the bound is T(1/k)
    same(risk.simplex_gaussian_success(mus, ks), risk.simplex_gaussian_success, mus, ks)
    same(risk.simplex_laplace_success(mus, ks), risk.simplex_laplace_success, mus, ks)
    for mechanism in risk.MECHANISMS:
        same(risk.attained_success(mechanism, mus, 10), risk.attained_success, mechanism, mus, 10)


def test_a_target_of_many_levels_is_read_and_inverted_element_by_element():
    advantages = risk.at_most_advantage(np.array([0.05, 0.25, 0.6]))
    tprs = risk.at_most_tpr(np.array([[0.05], [0.3]]), np.array([0.001, 0.01]))  # broadcast
    chances = risk.at_most_singling_out([0.2, 0.5], 10)
    assert isinstance(advantages, risk.RiskTargets) and tprs.shape == (2, 2)
    assert tprs.targets()[1, 0] == risk.at_most_tpr(0.3, 0.001)
    for targets in (advantages, tprs, chances):
        same(risk.epsilon_for(targets), risk.epsilon_for, targets)
        same(risk.epsilon_for(targets, 1e-6), risk.epsilon_for, targets, 1e-6)
        for g in (risk.gdp(1.0), risk.pure(0.5)):
            same(risk.reading(g, targets), risk.reading, g, targets)
        for mechanism in risk.MECHANISMS:
            same(risk.mu_for(mechanism, targets), risk.mu_for, mechanism, targets)
            same(risk.noise_for(mechanism, targets, 3.0), risk.noise_for, mechanism, targets, 3.0)
    same(risk.noise_for("Gaussian", advantages, [1.0, 2.0, 5.0]), risk.noise_for, "Gaussian",
         advantages, [1.0, 2.0, 5.0])  # fmt: skip
    same(risk.noise_for_attained_singling_out("Laplace", chances),
         risk.noise_for_attained_singling_out, "Laplace", chances)  # fmt: skip
    # each calibrated noise allows at most its own level
    noise = risk.noise_for("Gaussian", tprs)
    read = risk.reading(risk.gdp(1.0), risk.at_most_tpr(0.1, 0.01))  # a single target: a float
    assert type(read) is float
    for index in np.ndindex(tprs.shape):
        target = tprs.targets()[index]
        assert risk.reading(risk.gdp(1 / noise[index]), target) <= target.value


def test_a_target_of_many_levels_is_described_level_by_level_and_kept_read_only():
    targets = risk.at_most_tpr([0.1, 0.2], 0.01)
    assert targets.describe() == "TPR ≤ 0.1 at FPR 0.01; TPR ≤ 0.2 at FPR 0.01"
    assert targets == risk.at_most_tpr(np.array([0.1, 0.2]), [0.01, 0.01])
    assert hash(targets) == hash(risk.at_most_tpr((0.1, 0.2), 0.01))
    assert targets != risk.at_most_tpr([0.1, 0.3], 0.01)
    with pytest.raises(ValueError, match="read-only"):
        targets.value[0] = 0.5  # type: ignore[index]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: risk.tpr_bound(risk.gdp(1.0), [0.1, 1.5]), r"fpr must lie in \[0, 1\], got 1.5"),
        (lambda: risk.tpr_bound(risk.pure(1.0), [[0.1], [-0.2]]), r"got -0.2 .*\(1, 0\)"),
        (lambda: risk.tpr_bound(risk.zcdp(1.0), [0.1, math.nan]), "fpr must be finite, got nan"),
        (lambda: risk.tpr_bound(risk.gdp(1.0), [0.1, "0.2"]), "fpr must be a real number"),
        (lambda: risk.tpr_bound(risk.gdp(1.0), [0.1, True]), "fpr must be a real number"),
        (  # a ragged list: its elements are lists
            lambda: risk.tpr_bound(risk.gdp(1.0), [[0.1], [0.2, 0.3]]),
            r"fpr must be a real number, got \[0.1\] \(list\) \(at position 0",
        ),
        (
            lambda: risk.posterior_after_positive(risk.gdp(1.0), [0.5, 1.0], 0.1),
            r"prior must lie in \(0, 1\), got 1.0",
        ),
        (
            lambda: risk.posterior_after_positive(risk.gdp(1.0), [0.5, 0.2], [0.1, 0.2, 0.3]),
            r"must broadcast to one shape, got shapes \(2,\), \(3,\)",
        ),
        (lambda: risk.largest_posterior(risk.pure(1.0), [0.0]), r"prior must lie in \(0, 1\)"),
        (
            lambda: risk.singling_out(risk.pure(1.0), [10, 1]),
            r"k must be an integer >= 2 \(.*\), got 1 \(at position 1",
        ),
        (lambda: risk.singling_out(risk.pure(1.0), [10.0]), "k must be an integer >= 2"),
        (lambda: risk.simplex_gaussian_success([1.0, -1.0], 10), r"mu must be >= 0 .* got -1.0"),
        (lambda: risk.gdp_delta([1.0, 0.0], 1.0), r"mu must be > 0 \(allowed range \(0, inf\)\)"),
        (
            lambda: risk.at_most_advantage([0.1, 1.2]),
            r"max_advantage must lie in \(0, 1\), got 1.2 \(at position 1 of the array\)",
        ),
        (lambda: risk.at_most_tpr([0.1, 0.2], [0.05, 0.3]), "max_tpr must exceed fpr = 0.3"),
        (lambda: risk.at_most_singling_out([0.5, 0.05], 10), "blind guess among 10"),
        (lambda: risk.epsilon_for(risk.at_most_advantage([0.1]), [0.0, 1.0]), "delta must lie"),
        (
            lambda: risk.noise_for("Gaussian", risk.at_most_advantage([0.1]), [1.0, 0.0]),
            r"sensitivity must be > 0",
        ),
        (lambda: risk.epsilon_for_posterior(0.5, [0.9, 0.4]), "threshold must exceed the prior"),
    ],
)
def test_a_bad_element_is_refused_naming_the_parameter_its_value_and_range(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 1.0, 3.0, 8.0])
@pytest.mark.parametrize("k", [2, 10, 1000])
def test_the_summary_reads_singling_out_as_the_closed_forms_of_pure_epsilon(epsilon, k):
    """Pure ε: the bound 1 − f(1/k) = min(1, e^ε/k, 1 − e^−ε(1 − 1/k)); what k-ary randomized
    response attains, e^ε/(e^ε + k − 1), which is the exact worst case, at or below the bound."""
    found = risk.summary(risk.pure(epsilon), k)
    bound = min(1.0, math.exp(epsilon) / k, 1 - math.exp(-epsilon) * (1 - 1 / k))
    attained = math.exp(epsilon) / (math.exp(epsilon) + k - 1)
    assert found[f"single_out_{k}_bound"] == pytest.approx(bound, rel=1e-14, abs=1e-15)
    assert found[f"single_out_{k}_attained"] == pytest.approx(attained, rel=1e-14)
    assert 1 / k <= found[f"single_out_{k}_attained"] <= found[f"single_out_{k}_bound"] + 1e-15


def test_the_summary_reads_singling_out_among_the_synthesis_default_unless_told():
    assert SYNTHESIS["singling_out_among"].committed == risk.SUMMARY_CANDIDATES
    g = risk.gdp(1.0)
    found = risk.summary(g)
    k = risk.SUMMARY_CANDIDATES
    assert list(found) == [
        "advantage",
        "tpr_at_fpr_1pct",
        "tpr_at_fpr_0.1pct",
        "accuracy_at_half",
        f"single_out_{k}_bound",
        f"single_out_{k}_attained",
    ]
    # μ-GDP: the bound Φ(Φ⁻¹(1/k) + μ), and the Gaussian simplex's chance below it
    assert found[f"single_out_{k}_bound"] == risk.tpr_bound(g, 1 / k)
    assert found[f"single_out_{k}_attained"] == risk.simplex_gaussian_success(1.0, k)
    assert found[f"single_out_{k}_attained"] < found[f"single_out_{k}_bound"]
    assert "single_out_1000_bound" in risk.summary(g, 1000)
    with pytest.raises(ValueError, match="k must be an integer >= 2"):
        risk.summary(g, 1)
