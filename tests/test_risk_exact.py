"""The attacker scale is the exact worst case, tested from both sides for every model.

From above, by what proves each bound: every mechanism with the guarantee, tested by the
Neyman–Pearson lemma (``neyman_pearson_tpr``, written here from its statement), stays at or below
it. From below, by a mechanism that has the guarantee and attains it: randomized response (pure
ε), Kairouz, Oh & Viswanath's four-outcome mechanism ((ε, δ)), the Gaussian mechanism (μ-GDP) and,
for ρ-zCDP, the two-outcome mechanism (Bernoulli(T) against Bernoulli(α)) whose Rényi divergences
are computed here directly, on a dense grid of orders: it is ρ-zCDP at the scale's T(α), and no
longer so 1e-6 above it.
"""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from choosing_epsilon import risk
from tests.examples import examples

# orders a > 1 at which a pair's Rényi divergences are computed directly
ORDERS = 1 + np.geomspace(1e-6, 1e5, 20001)


def neyman_pearson_tpr(p_in: np.ndarray, p_out: np.ndarray, alpha: float) -> float:
    """The most powerful test at false-positive rate α between two discrete distributions: say
    "in" on outcomes in decreasing order of p_in/p_out, the last one with the probability that
    spends exactly α (Neyman–Pearson lemma)."""
    with np.errstate(divide="ignore"):
        ratio = np.where(p_out > 0, p_in / np.where(p_out > 0, p_out, 1), np.inf)
    order = np.argsort(-ratio, kind="stable")
    tpr, spent = 0.0, 0.0
    for i in order:
        if p_out[i] == 0:
            tpr += p_in[i]  # free: never said of a person who is out
            continue
        take = min(1.0, (alpha - spent) / p_out[i])
        if take <= 0:
            break
        tpr += take * p_in[i]
        spent += take * p_out[i]
    return min(tpr, 1.0)


def renyi(p: np.ndarray, q: np.ndarray, orders: np.ndarray = ORDERS) -> np.ndarray:
    """D_a(p‖q) at each order a > 1, directly: log(Σ p^a q^(1−a))/(a − 1), written as
    log1p(Σ p (e^((a−1) l) − 1))/(a − 1) with l = log(p/q) where that is exact to the last bits
    (a near 1), in log space where (a − 1) l is large."""
    log_ratio = np.log1p((p - q) / q)  # exact where p and q are close
    x = (orders[:, None] - 1) * log_ratio[None, :]
    with np.errstate(over="ignore"):
        near = np.log1p((p[None, :] * np.expm1(np.minimum(x, 50))).sum(axis=1))
    far = np.logaddexp.reduce(np.log(p)[None, :] + x, axis=1)
    return np.where(np.abs(x).max(axis=1) < 1, near, far) / (orders - 1)


def pair_rho(alpha: float, tpr: float) -> float:
    """The largest D_a/a of the two-outcome pair over the grid, both directions."""
    gap = tpr - alpha
    p, q = np.array([tpr, (1 - alpha) - gap]), np.array([alpha, 1 - alpha])
    return float(max((renyi(p, q) / ORDERS).max(), (renyi(q, p) / ORDERS).max()))


def randomized_response(eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Its two outcomes under "in" and "out", each probability computed to its last bits."""
    truth, lie = 1 / (1 + math.exp(-eps)), 1 / (1 + math.exp(eps))
    return np.array([truth, lie]), np.array([lie, truth])


rhos = st.floats(1e-8, 30)
alphas = st.floats(1e-6, 0.999)


# --- pure ε and (ε, δ) -------------------------------------------------------------------------


@given(st.floats(0.01, 20), alphas)
def test_pure_curve_is_attained_by_randomized_response(eps, alpha):
    p_in, p_out = randomized_response(eps)
    bound = risk.tpr_bound(risk.pure(eps), alpha)
    assert neyman_pearson_tpr(p_in, p_out, alpha) == pytest.approx(bound, rel=1e-9, abs=1e-12)
    assert risk.advantage(risk.pure(eps)) == pytest.approx(p_in[0] - p_out[0], abs=1e-12)


@settings(max_examples=examples(30, 2000))
@given(st.floats(0.01, 20), st.floats(0, 0.2), alphas)
def test_approximate_curve_is_attained_by_the_four_outcome_mechanism(eps, delta, alpha):
    """Kairouz, Oh & Viswanath's mechanism: outcome 0 only "in", 3 only "out", 1 and 2 a
    randomized response of the remaining 1 − δ; it is (ε, δ)-DP (its hockey-stick divergence at
    e^ε is δ both ways) and its most powerful test reaches the bound at every α."""
    e = math.exp(eps)
    p_in = np.array([delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0])
    p_out = p_in[::-1].copy()
    for a, b in ((p_in, p_out), (p_out, p_in)):
        assert np.maximum(a - e * b, 0).sum() == pytest.approx(delta, abs=1e-12)
    bound = risk.tpr_bound(risk.approximate(eps, delta), alpha)
    assert neyman_pearson_tpr(p_in, p_out, alpha) == pytest.approx(bound, rel=1e-9, abs=1e-12)
    crossing = max(neyman_pearson_tpr(p_in, p_out, a) - a for a in np.linspace(0, 1, 2001))
    assert risk.advantage(risk.approximate(eps, delta)) >= crossing - 1e-12


@settings(max_examples=30)
@given(st.floats(0.01, 10), st.integers(2, 6), st.integers(0, 2**32 - 1), alphas)
def test_no_pure_epsilon_mechanism_beats_the_curve(eps, outcomes, seed, alpha):
    """Any mechanism is ε-DP at its largest |log likelihood ratio|: a random discrete pair, read
    at that ε, never beats the curve."""
    rng = np.random.default_rng(seed)
    p_out = rng.dirichlet(np.ones(outcomes))
    p_in = p_out * np.exp(rng.uniform(-eps, eps, outcomes))
    p_in /= p_in.sum()
    its_epsilon = float(np.abs(np.log(p_in / p_out)).max())
    tpr = neyman_pearson_tpr(p_in, p_out, alpha)
    assert tpr <= risk.tpr_bound(risk.pure(its_epsilon), alpha) + 1e-12


# --- μ-GDP ---------------------------------------------------------------------------------------


@given(st.floats(0.01, 8), alphas)
def test_gdp_curve_is_the_gaussian_mechanisms_most_powerful_test(mu, alpha):
    """N(μ, 1) against N(0, 1): say "in" above the (1 − α) quantile of N(0, 1)."""
    threshold = stats.norm.isf(alpha)
    attained = stats.norm.sf(threshold - mu)
    assert risk.tpr_bound(risk.gdp(mu), alpha) == pytest.approx(attained, rel=1e-9, abs=1e-15)


# --- ρ-zCDP ---------------------------------------------------------------------------------------


@settings(max_examples=40)
@given(rhos, alphas)
@example(rho=29.0, alpha=0.3546502300449151)  # T an ulp below 1: the root search had no bracket
@example(rho=1.0, alpha=0.32725297896615396)  # 1 − T rounded to 0 in log1p(−v)
def test_zcdp_curve_is_attained_by_a_two_outcome_mechanism_and_nothing_1e6_above(rho, alpha):
    tpr = risk.tpr_bound(risk.zcdp(rho), alpha)
    assert tpr >= alpha
    if tpr < 1:
        # from below: Bernoulli(T) against Bernoulli(α) is ρ-zCDP a millionth of the gap T − α
        # below the scale's T (near T = 1 the least ρ of a pair is so steep in T that the last
        # bits of T move it)
        assert pair_rho(alpha, alpha + (tpr - alpha) * (1 - 1e-6)) <= rho * (1 + 1e-8)
    if tpr + 1e-6 < 1:
        # from above: 1e-6 more breaks some Rényi bound
        assert pair_rho(alpha, tpr + 1e-6) > rho


@settings(max_examples=examples(6, 120))
@given(rhos, alphas)
def test_zcdp_curve_lies_between_the_gaussian_and_the_approximate_family(rho, alpha):
    """The Gaussian mechanism with μ = √(2ρ) is ρ-zCDP, so its curve lies below; the (ε(δ), δ)
    family of Canonne, Kamath & Steinke is a valid bound, so it lies above."""
    exact = risk.tpr_bound(risk.zcdp(rho), alpha)
    gaussian = risk.tpr_bound(risk.gdp(risk.gaussian_mu_for_rho(rho)), alpha)
    assert gaussian <= exact + 1e-12
    assert exact <= risk.zcdp_tpr_via_approximate(rho, alpha) + 1e-12


@settings(max_examples=25)
@given(st.floats(0.01, 5), alphas)
def test_zcdp_curve_bounds_the_laplace_mechanism(scale_inverse, alpha):
    """The Laplace mechanism with ε = Δ/b is ρ-zCDP for ρ its largest RDP(a)/a (Mironov 2017,
    Prop. 6, as dp-accounting computes it; a grid can only understate ρ, which tightens the
    test). Its most powerful test at α, from the density ratio's three regions, stays below."""
    from dp_accounting.rdp.rdp_privacy_accountant import _laplace_rdp

    eps = scale_inverse
    orders = 1 + np.geomspace(1e-4, 1e4, 4001)
    rho = max(_laplace_rdp(eps, float(a)) / a for a in orders)
    # Laplace(1, 1/ε) against Laplace(0, 1/ε), most powerful test "x > t" (ratio rises in x)
    out = stats.laplace(0, 1 / eps)
    t = out.isf(alpha)
    tpr = stats.laplace(1, 1 / eps).sf(t)
    assert tpr <= risk.tpr_bound(risk.zcdp(rho), alpha) + 1e-12


@settings(max_examples=examples(5, 150))
@given(st.floats(1e-4, 30))
def test_zcdp_advantage_is_randomized_response_at_its_kl(rho):
    """From below: randomized response with KL divergence ε tanh(ε/2) = ρ is ρ-zCDP (computed
    directly) and its advantage is the scale's. From above: no point of the exact curve gives
    more (its largest T(α) − α over α, searched numerically)."""
    from scipy import optimize

    adv = risk.advantage(risk.zcdp(rho))
    eps = optimize.brentq(lambda e: e * math.tanh(e / 2) - rho, 1e-9, rho + 40, xtol=1e-14)
    assert adv == pytest.approx(math.tanh(eps / 2), abs=1e-12)
    p_in, p_out = randomized_response(eps)
    largest = max((renyi(p_in, p_out) / ORDERS).max(), (renyi(p_out, p_in) / ORDERS).max())
    assert largest <= rho * (1 + 1e-8)
    grid = np.concatenate([np.geomspace(1e-9, 0.5, 40), [(1 - adv) / 2]])
    best = max(risk.tpr_bound(risk.zcdp(rho), float(a)) - a for a in grid)
    assert best <= adv + 1e-9
    assert best >= adv - 1e-6  # the crossing α = (1 − adv)/2 is on the grid


@pytest.mark.parametrize("rho", [0.015, 0.81, 2.63])
def test_riskcal_agrees_where_it_is_right(rho):
    """riskcal 1.5.1's zCDP advantage and, with a finer order grid than its default, its curve
    at FPR 1% agree with the exact reading to 1e-6 at the registry's ρ."""
    from riskcal.analysis import get_advantage_from_zcdp, get_beta_from_zcdp

    assert get_advantage_from_zcdp(rho) == pytest.approx(risk.advantage(risk.zcdp(rho)), abs=1e-6)
    riskcal_tpr = 1 - get_beta_from_zcdp(rho, 0.01, grid_size=10000)
    assert riskcal_tpr == pytest.approx(risk.tpr_bound(risk.zcdp(rho), 0.01), abs=1e-6)
    assert riskcal_tpr >= risk.tpr_bound(risk.zcdp(rho), 0.01) - 1e-12  # a grid of orders: looser


@pytest.mark.parametrize(("rho", "alpha"), [(0.001, 0.001), (0.001, 0.01), (0.015, 0.001)])
def test_riskcal_returns_the_trivial_curve_at_small_rho(rho, alpha):
    """A minimal reproduction: riskcal 1.5.1's get_beta_from_zcdp says no test at these (ρ, α)
    does better than chance (TPR = FPR), yet the Gaussian mechanism with μ = √(2ρ) is ρ-zCDP and
    does. One order of its grid (a ≈ 105 at ρ = 0.015) returns the trivial curve."""
    from riskcal.analysis import get_beta_from_rdp, get_beta_from_zcdp

    assert 1 - get_beta_from_zcdp(rho, alpha) == pytest.approx(alpha, abs=1e-15)
    gaussian = risk.tpr_bound(risk.gdp(risk.gaussian_mu_for_rho(rho)), alpha)
    assert gaussian > alpha * 1.1
    assert risk.tpr_bound(risk.zcdp(rho), alpha) >= gaussian
    if rho == 0.015 and alpha == 0.001:
        order = 104.75268213
        single = 1 - get_beta_from_rdp(epsilon=rho * order, alpha=alpha, order=order)
        assert single == pytest.approx(alpha, abs=1e-15)


@pytest.mark.parametrize(("rho", "delta"), [(2.63, 1e-10), (0.0728, 1e-5), (15.29, 1e-10)])
def test_zcdp_epsilon_is_dp_accountings_conversion(rho, delta):
    """dp-accounting's RDP-to-(ε, δ) conversion (Canonne, Kamath & Steinke, Prop. 12) on a fine
    grid of orders gives the same ε as the continuous minimum over orders, to the grid's
    precision, and never less."""
    from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

    orders = 1.02 + np.geomspace(1e-3, 1e4, 200001)
    eps, _ = compute_epsilon(orders, rho * orders, delta)
    assert eps == pytest.approx(risk.zcdp_epsilon(rho, delta), rel=1e-6)
    assert eps >= risk.zcdp_epsilon(rho, delta) - 1e-9


def test_bernoulli_zcdp_rho_at_the_edges():
    assert risk.bernoulli_zcdp_rho(0.3, 0.3) == 0
    assert risk.bernoulli_zcdp_rho(0.0, 0.1) == math.inf
    assert risk.bernoulli_zcdp_rho(0.1, 1.0) == math.inf
    # symmetric in the two hypotheses
    assert risk.bernoulli_zcdp_rho(0.1, 0.4) == pytest.approx(risk.bernoulli_zcdp_rho(0.4, 0.1))
    with pytest.raises(ValueError, match="tpr"):
        risk.bernoulli_zcdp_rho(0.1, 1.5)


def _mp_bernoulli_rho(fpr: float, tpr: float) -> float:
    """The largest D_a/a of Bernoulli(T) against Bernoulli(α) either way, at 40 digits: the two
    Kullback-Leibler limits, and each side's grid of orders to 1e14 refined by golden-section
    search, in mpmath (no code shared with the risk module's log moments)."""
    import mpmath

    with mpmath.workdps(40):
        a, t = mpmath.mpf(fpr), mpmath.mpf(tpr)

        def ratio(b: "mpmath.mpf") -> "mpmath.mpf":
            moment = a * (t / a) ** b + (1 - a) * ((1 - t) / (1 - a)) ** b
            return mpmath.log(moment) / (b * (b - 1))

        kl_pq = t * mpmath.log(t / a) + (1 - t) * mpmath.log((1 - t) / (1 - a))
        kl_qp = a * mpmath.log(a / t) + (1 - a) * mpmath.log((1 - a) / (1 - t))
        best = max(kl_pq, kl_qp)
        for side in (1, -1):
            grid = [
                1 + s if side > 0 else -s for s in map(mpmath.mpf, np.geomspace(1e-7, 1e14, 400))
            ]
            values = [ratio(b) for b in grid]
            i = max(range(len(grid)), key=lambda j: values[j])
            if values[i] <= best:
                continue
            low, high = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
            golden = (mpmath.sqrt(5) - 1) / 2
            for _ in range(120):
                c, d = high - golden * (high - low), low + golden * (high - low)
                low, high = (low, d) if ratio(c) > ratio(d) else (c, high)
            best = max(best, values[i], ratio((low + high) / 2))
        return float(best)


@pytest.mark.parametrize(
    ("fpr", "tpr"),
    # where the largest ratio is the Kullback-Leibler limit, the log moment under Q alone read
    # ρ 9.1e-10 too high at (0.4, 0.59) and 7.9e-9 at (0.4, 0.55 − 1 ulp): noise near a = 1
    [
        (0.4, 0.5499999999999999),
        (0.4, 0.59),
        (0.2, 0.79),
        (0.45, 0.5),
        (0.01, 0.1),
        (1e-6, 0.3),
        (0.1, 0.1001),
    ],
)
def test_bernoulli_zcdp_rho_against_forty_digits(fpr, tpr):
    assert risk.bernoulli_zcdp_rho(fpr, tpr) == pytest.approx(
        _mp_bernoulli_rho(fpr, tpr), rel=1e-13
    )


@pytest.mark.parametrize("rho", [1e-4, 0.015, 0.5, 3.0])
def test_zcdp_tpr_rising_is_the_curve_and_refuses_what_it_cannot_bracket(rho):
    """The bracketed roots are the curve's, at every rate of a rising grid that crosses the
    randomized-response point (where the neighbours' brackets stop holding and are not used)."""
    alphas = np.geomspace(1e-30, 0.5, 120)
    exact = np.array([risk._zcdp_tpr.__wrapped__(rho, float(a)) for a in alphas])
    rising = risk.zcdp_tpr_rising(rho, alphas)
    np.testing.assert_allclose(rising - alphas, exact - alphas, rtol=1e-13, atol=0)
    for bad in ([0.2, 0.1], [0.0, 0.1], [0.1, 0.6], [[0.1]]):
        with pytest.raises(ValueError, match="fprs"):
            risk.zcdp_tpr_rising(rho, bad)


def _cks_delta_in_forty_digits(rho: float, epsilon: float) -> float:
    """Canonne, Kamath & Steinke's δ(ε) for ρ-zCDP, inf over orders a > 1 of
    e^((a−1)(aρ−ε)) (1 − 1/a)^(a−1) / a, in mpmath: the log is convex in a, so the infimum is at
    the root of its derivative 2aρ − ρ − ε + log(1 − 1/a), found by bisection on log(a − 1) (no
    code shared with the risk module)."""
    import mpmath

    with mpmath.workdps(40):
        r, e = mpmath.mpf(rho), mpmath.mpf(epsilon)

        def slope(x):
            a = 1 + mpmath.exp(x)
            return 2 * a * r - r - e + mpmath.log(1 - 1 / a)

        low, high = mpmath.mpf(-200), mpmath.mpf(200)
        for _ in range(400):
            middle = (low + high) / 2
            low, high = (middle, high) if slope(middle) < 0 else (low, middle)
        a = 1 + mpmath.exp((low + high) / 2)
        log_delta = (a - 1) * (a * r - e) - mpmath.log(a) + (a - 1) * mpmath.log(1 - 1 / a)
        return float(min(mpmath.mpf(1), mpmath.exp(min(log_delta, 0))))


@pytest.mark.parametrize(
    "rho, epsilon",
    [(1e-6, 0.0), (1e-4, 1e-3), (0.015, 0.0), (0.015, 0.5), (0.5, 3.0), (5.0, 50.0), (0.1, 20.0)],
)
def test_zcdp_delta_is_the_infimum_over_every_order(rho, epsilon):
    """The δ is CKS's at the best order, not at the best of a bounded search: the old search over
    orders up to 2 + 2ε/ρ + 4 missed the optimum where ε is small against ρ, and gave
    δ(0) = 0.0567 at ρ = 1e-6 where the infimum is 0.000858 (valid, but 66 times too loose)."""
    exact = _cks_delta_in_forty_digits(rho, epsilon)
    assert risk.zcdp_delta(rho, epsilon) == pytest.approx(exact, rel=1e-12, abs=1e-300)


def test_zcdp_delta_lies_at_or_below_every_order_of_a_dense_grid():
    # from above: no order of a grid of 20,001 reads a smaller δ than the one returned
    for rho, epsilon in [(1e-6, 0.0), (0.015, 0.5), (0.5, 3.0), (2.0, 0.1)]:
        orders = 1 + np.geomspace(1e-9, 1e9, 20001)
        log_deltas = (
            (orders - 1) * (orders * rho - epsilon)
            - np.log(orders)
            + (orders - 1) * np.log1p(-1 / orders)
        )
        grid_best = min(1.0, float(np.exp(min(log_deltas.min(), 0.0))))
        assert risk.zcdp_delta(rho, epsilon) <= grid_best * (1 + 1e-12)
