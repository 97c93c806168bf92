"""composition: k releases read on the attacker's scale, from both sides.

Above, every composed reading is a bound (the closed forms, dp-accounting's pessimistic estimate,
the textbook rules); below, a mechanism attains it (a seeded Monte Carlo of k-fold randomized
response, of the four-outcome mechanism and of the averaging attacker's test, within a few of its
standard errors), or dp-accounting's optimistic estimate lies under it. k = 1 gives ``risk``'s
readings, and k = 10⁶ keeps its digits. Every inverse meets its target, and a hair less noise
does not.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, special, stats

from choosing_epsilon import composition, risk

FPRS = np.array([1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.9])
# standard errors a Monte Carlo estimate may stray (fixed seed: the verdict is deterministic)
SE = 5.0


@pytest.mark.parametrize(
    "g",
    [risk.pure(1.0), risk.pure(0.01), risk.approximate(1.0, 1e-3), risk.gdp(0.7), risk.zcdp(0.3),
     risk.laplace(0.5)],
    ids=lambda g: g.describe(),
)  # fmt: skip
def test_one_release_gives_the_risk_modules_readings(g):
    c = composition.compose(g, 1)
    assert c.exact
    np.testing.assert_allclose(c.advantage(), risk.advantage(g), rtol=1e-12)
    expected = [risk.tpr_bound(g, float(a)) for a in FPRS]
    np.testing.assert_allclose(c.tpr(FPRS), expected, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(c.tpr_attained(FPRS), expected, rtol=1e-12, atol=1e-15)
    assert c.posterior_after_positive(0.1, 0.01) == pytest.approx(
        risk.posterior_after_positive(g, 0.1, 0.01), rel=1e-12
    )


def test_the_issues_numbers():
    one, ten = composition.compose(risk.pure(1.0), 1), composition.compose(risk.pure(1.0), 10)
    assert round(ten.advantage(), 4) == 0.8696 and round(float(ten.tpr(0.01)), 4) == 0.7634
    assert round(one.advantage(), 4) == 0.4621 and round(float(one.tpr(0.01)), 4) == 0.0272
    # ρ = 0.015: randomized response reads higher than the Gaussian at one release
    rr = risk.pure(composition.zcdp_randomized_response_epsilon(0.015))
    assert round(risk.advantage(rr), 4) == 0.0865  # the issue's 0.0864, truncated
    assert round(risk.advantage(risk.gdp(math.sqrt(0.03))), 3) == 0.069


def _rr_test(epsilon: float, k: int, alpha: float) -> tuple[int, float]:
    """The threshold t and randomisation γ of the most powerful test "J > t" at FPR α, from the
    binomial law of the other world (J ~ Bin(k, 1 − p))."""
    q = 1 - special.expit(epsilon)
    for t in range(k, -2, -1):
        above = stats.binom.sf(t, k, q)
        if above > alpha:
            exact_above = stats.binom.sf(t + 1, k, q) if t + 1 <= k else 0.0
            return t + 1, (alpha - exact_above) / stats.binom.pmf(t + 1, k, q)
    raise AssertionError("no threshold")


@pytest.mark.parametrize(("epsilon", "k"), [(0.5, 10), (0.2, 40), (1.0, 3)])
def test_k_fold_randomized_response_against_its_monte_carlo(epsilon, k):
    """Simulate the mechanism itself, k answers each truthful with probability e^ε/(1 + e^ε),
    and run the curve's own test: its error rates are the curve's, within a few SE."""
    rng = np.random.default_rng(20261202)
    draws, p = 200_000, special.expit(epsilon)
    inside = (rng.random((draws, k)) < p).sum(axis=1)  # truthful answers when the record is in
    outside = (rng.random((draws, k)) >= p).sum(axis=1)  # the same answers when it is out
    c = composition.compose(risk.pure(epsilon), k)
    for alpha in (0.01, 0.1):
        t, gamma = _rr_test(epsilon, k, alpha)
        tpr = np.mean(inside > t) + gamma * np.mean(inside == t)
        fpr = np.mean(outside > t) + gamma * np.mean(outside == t)
        expected = float(c.tpr(alpha))
        assert abs(fpr - alpha) < SE * math.sqrt(alpha * (1 - alpha) / draws)
        assert abs(tpr - expected) < SE * math.sqrt(expected * (1 - expected) / draws)
    gain = np.mean(inside > k / 2) - np.mean(outside > k / 2)
    assert abs(gain - c.advantage()) < SE * math.sqrt(0.5 / draws)


def test_k_fold_four_outcome_mechanism_against_its_monte_carlo():
    """Kairouz, Oh & Viswanath's mechanism: with probability δ a reveal (0 when in, 3 when out),
    else randomized response (1 truthful, 2 not). The best test says "in" on any 0, never on any
    3, else when the truthful answers outnumber the others."""
    rng = np.random.default_rng(55)
    epsilon, delta, k, draws = 0.5, 0.02, 10, 200_000
    p = special.expit(epsilon)

    def outputs(truth_in: bool) -> np.ndarray:
        u, v = rng.random((draws, k)), rng.random((draws, k))
        truthful = v < p
        said_in = truthful if truth_in else ~truthful
        return np.where(u < delta, 0 if truth_in else 3, np.where(said_in, 1, 2))

    def says_in(out: np.ndarray) -> np.ndarray:
        reveal_in, reveal_out = (out == 0).any(axis=1), (out == 3).any(axis=1)
        return reveal_in | (~reveal_out & ((out == 1).sum(axis=1) > (out == 2).sum(axis=1)))

    gain = np.mean(says_in(outputs(True))) - np.mean(says_in(outputs(False)))
    c = composition.compose(risk.approximate(epsilon, delta), k)
    assert abs(gain - c.advantage()) < SE * math.sqrt(0.5 / draws)
    # the reveals alone: above randomized response's curve by at least 1 − (1 − δ)^k
    plain = composition.compose(risk.pure(epsilon), k)
    assert c.advantage() >= plain.advantage() + 0.0
    assert float(c.tpr(0.0)) == pytest.approx(1 - (1 - delta) ** k, rel=1e-12)


@pytest.mark.parametrize("mus", [[0.5] * 10, [0.3, 1.2, 0.1], [2.0] * 1000])
def test_gaussian_dp_composes_in_quadrature(mus):
    c = composition.compose([risk.gdp(m) for m in mus])
    mu = math.sqrt(sum(m * m for m in mus))
    assert c.exact
    np.testing.assert_allclose(c.tpr(FPRS), stats.norm.cdf(stats.norm.ppf(FPRS) + mu), rtol=1e-9)
    assert c.advantage() == pytest.approx(2 * stats.norm.cdf(mu / 2) - 1, rel=1e-9)
    same = composition.compose(risk.gdp(mus[0]), len(mus))
    if len(set(mus)) == 1:
        assert same.advantage() == pytest.approx(c.advantage(), rel=1e-12)


def _pld_pair(g: risk.Guarantee, k: int, step: float = 1e-4):
    return [
        composition.PldCurve(lambda p=pessimistic: composition._pld(g, p, step).self_compose(k))
        for pessimistic in (True, False)
    ]


@pytest.mark.parametrize(
    ("g", "k"),
    [(risk.pure(0.5), 10), (risk.pure(1.0), 50), (risk.approximate(0.5, 1e-3), 10),
     (risk.gdp(0.5), 10)],
    ids=str,
)  # fmt: skip
def test_dp_accounting_brackets_the_exact_composition(g, k):
    exact = composition.compose(g, k)
    assert exact.exact
    upper, lower = _pld_pair(g, k)
    rates = np.array([1e-4, 1e-3, 0.01, 0.1, 0.5])
    tol = 1e-9  # the FFT's last bits
    assert upper.advantage() >= exact.advantage() - tol >= lower.advantage() - 2 * tol
    assert np.all(upper.tpr(rates) >= exact.tpr(rates) - tol)
    assert np.all(exact.tpr(rates) >= lower.tpr(rates) - tol)
    # and the bracket is not vacuous: within 1e-2 of the exact curve at this grid
    assert upper.advantage() - lower.advantage() < 1e-2


def test_the_laplace_bracket_holds_the_exact_one_release_curve_and_the_averaging_test():
    g = risk.laplace(0.5)
    assert composition.compose(g, 1).exact  # one release: the mechanism's own curve
    upper, lower = _pld_pair(g, 1)
    assert upper.advantage() >= risk.advantage(g) - 1e-9 >= lower.advantage() - 2e-9
    exact = np.array([risk.tpr_bound(g, float(a)) for a in FPRS[1:]])
    assert np.all(upper.tpr(FPRS[1:]) >= exact - 1e-9)
    assert np.all(exact >= lower.tpr(FPRS[1:]) - 1e-9)
    for k in (5, 50):
        c = composition.compose(g, k, grid_step=1e-3)
        own = composition.averaging_advantage(0.5, k)
        assert (
            c.advantage() >= own
        )  # the averaging test is one test: the best does at least as well
        assert c.advantage() <= composition.compose(risk.pure(0.5), k).advantage()
        assert 0 <= c.gap() < 1e-3


@pytest.mark.parametrize(("epsilon", "k"), [(0.5, 1), (0.5, 7), (0.1, 100)])
def test_the_averaging_test_against_its_monte_carlo(epsilon, k):
    rng = np.random.default_rng(7)
    draws = 100_000
    b = 1 / epsilon  # Δ = 1
    noise = rng.laplace(0.0, b, size=(draws, k)).mean(axis=1)
    # worlds 0 and 1: say "1" when the mean exceeds 1/2
    gain = np.mean(noise + 1 > 0.5) - np.mean(noise > 0.5)
    value = composition.averaging_advantage(epsilon, k)
    assert abs(gain - value) < SE * math.sqrt(0.5 / draws)
    if k == 1:
        assert value == pytest.approx(risk.advantage(risk.laplace(epsilon)), rel=1e-12)
    # and by another route: P(|G₁ − G₂| < c) by quadrature over G₂ ~ Gamma(k)
    c, gamma = k * epsilon / 2, stats.gamma(k)
    quad, _ = integrate.quad(
        lambda y: (gamma.cdf(y + c) - gamma.cdf(max(y - c, 0.0))) * gamma.pdf(y),
        0, k + 40 * math.sqrt(k) + c, points=[k], epsabs=1e-13, epsrel=1e-12, limit=500,
    )  # fmt: skip
    assert value == pytest.approx(quad, rel=1e-9)


def test_a_million_releases_keep_their_digits():
    k, epsilon = 10**6, 1e-3
    c = composition.compose(risk.pure(epsilon), k)
    # the advantage as a difference of the two binomial tails, computed another way
    p = special.expit(epsilon)
    half = k // 2
    direct = stats.binom.sf(half, k, p) - stats.binom.sf(half, k, 1 - p)
    assert c.advantage() == pytest.approx(direct, rel=1e-10)
    # a vertex deep in the tail: its TPR again from the other law's masses, P(j) = Q(j) e^(ε(2j−k))
    t = int(half + 6.5 * math.sqrt(k) / 2)
    j = np.arange(t + 1, k + 1)
    log_tpr = special.logsumexp(stats.binom.logpmf(j, k, 1 - p) + epsilon * (2 * j - k))
    fpr = stats.binom.sf(t, k, 1 - p)
    assert 1e-12 < fpr < 1e-9
    assert float(c.tpr(fpr)) == pytest.approx(math.exp(log_tpr), rel=1e-9)
    # and the curve is close to its Gaussian limit μ = ε√k (CLT; a check of scale, not of digits)
    assert c.advantage() == pytest.approx(risk.advantage(risk.gdp(1.0)), abs=1e-5)


def test_the_zcdp_bracket():
    rho = 0.015
    rates = np.array([1e-6, 1e-3, 0.01, 0.1, 0.5])
    for k in (1, 10, 365):
        c = composition.compose(risk.zcdp(rho), k)
        upper, lower = c.tpr(rates), c.tpr_attained(rates)
        assert np.all(lower <= upper + 1e-12)
        assert c.advantage_attained() <= c.advantage() + 1e-12
        # above: never above kρ-zCDP read as one release, never below the k-fold Gaussian
        summed = risk.zcdp(k * rho)
        assert np.all(upper <= risk.tpr_bound(summed, rates) * (1 + 1e-12))
        assert c.advantage() <= risk.advantage(summed) * (1 + 1e-12)
        gauss = risk.gdp(math.sqrt(2 * k * rho))
        assert np.all(upper >= risk.tpr_bound(gauss, rates))
        rr = composition.compose(risk.pure(composition.zcdp_randomized_response_epsilon(rho)), k)
        assert np.all(upper >= rr.tpr(rates))
        below = max(rr.advantage(), risk.advantage(gauss))
        assert c.advantage_attained() == (pytest.approx(below, rel=1e-12) if k == 1 else below)
    one = composition.compose(risk.zcdp(rho), 1)
    assert one.gap() == 0
    np.testing.assert_allclose(one.tpr(rates), risk.tpr_bound(risk.zcdp(rho), rates), rtol=1e-12)
    # open beyond one release, by the widths the module's docstring states
    assert round(composition.compose(risk.zcdp(rho), 10).gap(), 3) == 0.048
    assert round(composition.compose(risk.zcdp(rho), 365).gap(), 3) == 0.056


def test_the_f_dp_composition_is_tighter_than_k_rho_where_the_docstring_says():
    """The f-DP route reads lower than kρ at k = 365 (advantage, TPR at FPR 1%), and kρ lower at
    k = 10's TPR at FPR 1%: the bound is the lower of the two at each FPR."""
    rho = 0.015
    many = composition.compose(risk.zcdp(rho), 365)
    assert round(many.advantage(), 3) == 0.958
    assert round(risk.advantage(risk.zcdp(365 * rho)), 3) == 0.992
    assert round(float(many.tpr(0.01)), 3) == 0.959
    assert round(risk.tpr_bound(risk.zcdp(365 * rho), 0.01), 3) == 0.996
    few = composition.compose(risk.zcdp(rho), 10)
    assert float(few.tpr(0.01)) == pytest.approx(risk.tpr_bound(risk.zcdp(10 * rho), 0.01))
    assert round(few.advantage(), 3) == 0.264 < round(risk.advantage(risk.zcdp(10 * rho)), 3)


def _pair_curve(p: np.ndarray, q: np.ndarray, alphas: np.ndarray) -> np.ndarray:
    """The exact curve of the discrete pair (P, Q): its outcomes in order of falling P/Q."""
    with np.errstate(divide="ignore"):
        ratio = np.where(q > 0, p / np.where(q > 0, q, 1.0), np.inf)
    order = np.argsort(-ratio, kind="stable")
    fpr = np.concatenate([[0.0], np.cumsum(q[order])])
    tpr = np.concatenate([[0.0], np.cumsum(p[order])])
    return np.interp(alphas, fpr, tpr)


@pytest.mark.parametrize("rho", [0.015, 0.3, 3.0])
def test_the_dominating_pair_lies_above_one_release_and_its_distribution_above_it(rho):
    """From above: the pair's exact curve is on or above ρ-zCDP's exact curve at seeded rates
    between its samples (1e-35 to 1), and dp-accounting's pessimistic distribution of it, read as
    composition reads it, on or above the pair; from below, the pair is near the curve (within 2%
    of T(α) from FPR 1e-10 on, 0.1% from 1e-4), so the bound is not loose by construction."""
    p, q = composition.zcdp_dominating_pair(rho)
    assert np.all(p >= 0) and np.all(q >= 0)
    assert math.fsum(p) == pytest.approx(1.0, abs=1e-14)
    assert math.fsum(q) == pytest.approx(1.0, abs=1e-14)
    rng = np.random.default_rng(55)
    alphas = np.sort(np.concatenate([10 ** rng.uniform(-35, 0, 60), rng.uniform(0, 1, 30)]))
    exact = risk.tpr_bound(risk.zcdp(rho), alphas)
    pair = _pair_curve(p, q, alphas)
    assert np.all(pair >= exact)
    tail, body = alphas >= 1e-10, alphas >= 1e-4
    assert np.all(pair[tail] <= exact[tail] * 1.02)
    assert np.all(pair[body] <= exact[body] * 1.001)
    read = composition.SymmetricPldCurve(lambda: composition._zcdp_pld(rho, 1e-4)).tpr(alphas)
    assert np.all(read >= pair * (1 - 1e-12))


def test_the_dominating_pair_refuses_a_bad_rho():
    with pytest.raises(ValueError, match="rho"):
        composition.zcdp_dominating_pair(0.0)


def test_the_randomized_response_in_the_zcdp_bracket_is_rho_zcdp():
    """From both sides: randomized response at the ε returned meets ρ-zCDP's bounds (the least ρ
    of its test with the largest advantage is ρ), and a hair more ε does not."""
    rho = 0.3
    eps = composition.zcdp_randomized_response_epsilon(rho)
    t = math.tanh(eps / 2)
    assert risk.bernoulli_zcdp_rho((1 - t) / 2, (1 + t) / 2) == pytest.approx(rho, rel=1e-9)
    assert eps * math.tanh(eps / 2) == pytest.approx(rho, rel=1e-12)
    assert eps > math.sqrt(2 * rho)  # beyond the ε = √(2ρ) of the ε²/2 conversion


def test_the_textbook_rules_are_above_the_exact_composition():
    for epsilon in (0.1, 1.0):
        for k in (10, 100, 365):
            exact = composition.compose(risk.pure(epsilon), k)
            basic = composition.basic_composition(risk.pure(epsilon), k)
            advanced = composition.advanced_composition(risk.pure(epsilon), k)
            assert basic.epsilon == pytest.approx(k * epsilon)
            expected = math.sqrt(2 * k * math.log(1e6)) * epsilon + k * epsilon * math.expm1(
                epsilon
            )
            assert advanced.epsilon == pytest.approx(expected, rel=1e-12)
            assert advanced.delta == 1e-6
            for rule in (basic, advanced):
                assert risk.advantage(rule) >= exact.advantage()
                assert risk.tpr_bound(rule, 0.01) >= float(exact.tpr(0.01))
    rows = composition.rules_table(risk.pure(1.0), [10])
    assert rows[0]["advantage"] == pytest.approx(0.8695974631851561, rel=1e-12)


def test_largest_posterior_is_basic_compositions():
    c = composition.compose(risk.pure(0.3), 20)
    assert c.largest_posterior(0.1) == risk.largest_posterior(risk.pure(6.0), 0.1)
    # randomized response reaches it: all 20 answers truthful has likelihood ratio e^(kε)
    assert composition.compose(risk.gdp(1.0), 3).largest_posterior(0.1) == 1.0


def test_singling_out_on_the_composed_curve():
    c = composition.compose(risk.gdp(0.8), 9)
    out = c.singling_out(10)
    assert out.bound == pytest.approx(risk.tpr_bound(risk.gdp(2.4), 0.1), rel=1e-12)
    assert out.attained == pytest.approx(risk.simplex_gaussian_success(2.4, 10), rel=1e-12)
    assert 0.1 < out.attained <= out.bound
    pure = composition.compose(risk.pure(0.5), 10).singling_out(5)
    assert pure.bound == pytest.approx(
        float(composition.compose(risk.pure(0.5), 10).tpr(0.2)), rel=1e-12
    )


TARGETS = [
    risk.at_most_advantage(0.25),
    risk.at_most_tpr(0.1, 0.01),
    risk.at_most_singling_out(0.3, 10),
]


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.describe())
@pytest.mark.parametrize("k", [1, 10, 365])
def test_epsilon_per_release_from_both_sides(target, k):
    eps = composition.epsilon_per_release(target, k)

    def read(e):
        c = composition.compose(risk.pure(e), k)
        return c.advantage() if target.kind == "advantage" else float(c.tpr(target.fpr))

    assert read(eps) <= target.value
    assert read(eps * (1 + 1e-9)) > target.value
    if k == 1:
        assert eps == pytest.approx(risk.epsilon_for(target), rel=1e-12)


def test_epsilon_per_release_with_delta():
    target = risk.at_most_advantage(0.25)
    eps = composition.epsilon_per_release(target, 10, delta=1e-3)
    c = composition.compose(risk.approximate(eps, 1e-3), 10)
    assert (
        c.advantage()
        <= 0.25
        < composition.compose(risk.approximate(eps * (1 + 1e-9), 1e-3), 10).advantage()
    )
    # 300 releases at (0, 1e-3) already allow 1 − 0.999^300 > 0.25: no ε does
    assert math.isnan(composition.epsilon_per_release(target, 300, delta=1e-3))


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.describe())
@pytest.mark.parametrize("k", [1, 10, 365])
def test_gaussian_noise_per_release_from_both_sides(target, k):
    sigma = composition.gaussian_noise_per_release(target, k, sensitivity=2.0)
    read = lambda s: risk.reading(risk.gdp(math.sqrt(k) * 2.0 / s), target)  # noqa: E731
    assert read(sigma) <= target.value
    assert read(sigma * (1 - 1e-9)) > target.value
    if k == 1:
        assert sigma == risk.noise_for("Gaussian", target, 2.0)


@pytest.mark.parametrize("target", TARGETS[:2], ids=lambda t: t.describe())
@pytest.mark.parametrize("k", [1, 10])
def test_laplace_noise_per_release_from_both_sides(target, k):
    b = composition.laplace_noise_per_release(target, k)

    def read(scale):
        c = composition.compose(risk.laplace(1 / scale), k, grid_step=1e-3)
        return c.advantage() if target.kind == "advantage" else float(c.tpr(target.fpr))

    assert read(b) <= target.value
    assert read(b * (1 - 1e-5)) > target.value
    # at least one release's exact noise, and at most basic composition's k-fold of it, but for
    # the pessimistic grid's excess (at 1e-3, under 1e-3 of the noise at one release)
    single = risk.noise_for("Laplace", target)
    assert single <= b <= k * single * (1 + 1e-3)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="k must be an integer"):
        composition.compose(risk.pure(1.0), 0)
    with pytest.raises(ValueError, match="k must be 1"):
        composition.compose([risk.pure(1.0)], 2)
    with pytest.raises(ValueError, match="guarantees"):
        composition.compose([])
    with pytest.raises(ValueError, match="guarantees: ρ-zCDP"):
        composition.compose([risk.zcdp(0.1), risk.pure(1.0)])
    with pytest.raises(ValueError, match="delta_prime"):
        composition.advanced_composition(risk.pure(1.0), 3, delta_prime=0.0)
    with pytest.raises(ValueError, match=r"g\.model"):
        composition.advanced_composition(risk.gdp(1.0), 3)
    with pytest.raises(ValueError, match="n must be"):
        composition.compose(risk.pure(1.0), 2).singling_out(1)
    with pytest.raises(ValueError, match="epsilon"):
        composition.averaging_advantage(0.0, 3)
    with pytest.raises(ValueError, match="delta"):
        composition.epsilon_per_release(risk.at_most_advantage(0.2), 3, delta=1.0)
