import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choosing_epsilon import economics as econ

P = econ.expected_cost(1274, 0.05)


def brute_force_max_epsilon(p, budget, error, alpha, slide, n_max=400_000):
    """Scan every N: the budget's largest ε for N, kept if the accuracy bound holds there; the first N wins."""
    n = np.arange(1, n_max + 1, dtype=float)
    c_s = float(f"{error**2 / 12:.0e}") if slide else error**2 / 12
    eps = np.log1p(budget / (p * n))
    ok = 2 * np.exp(-c_s * n) + np.exp(-(error / 2) * n * eps) <= alpha
    if not ok.any():
        return None, None
    i = int(np.argmax(ok))
    return float(eps[i]), int(n[i])


def test_slides_numbers():
    assert pytest.approx(63.7) == P
    assert econ.payment(0.03, P) == pytest.approx(1.93995, abs=1e-5)
    assert econ.bound_constants(0.05, True) == (0.0002, 0.025)
    assert econ.accuracy_bound(0.03, 15000, 0.05, True) == pytest.approx(0.0996, abs=5e-5)
    assert econ.feasible(0.03, 15000, P, 30000, 0.05, 0.1, True)


@pytest.mark.parametrize("slide", [True, False])
@pytest.mark.parametrize("budget", [30000, 12000, 80000])
def test_largest_feasible_epsilon_matches_a_scan_of_every_n(slide, budget):
    best = econ.largest_feasible_epsilon(P, budget, 0.05, 0.1, slide)
    eps, n = brute_force_max_epsilon(P, budget, 0.05, 0.1, slide)
    assert best is not None and best.n == n
    assert best.epsilon == pytest.approx(eps, rel=1e-12)
    assert econ.feasible(best.epsilon, best.n, P, budget, 0.05, 0.1, slide)


def test_no_study_below_the_cost_floor():
    floor = econ.cost_floor(P, 0.05, 0.1, True)
    assert econ.largest_feasible_epsilon(P, floor * 0.99, 0.05, 0.1, True) is None
    assert econ.largest_feasible_epsilon(P, floor * 1.01, 0.05, 0.1, True) is not None


@settings(max_examples=40, deadline=None)
@given(b1=st.floats(6000, 1e6), b2=st.floats(6000, 1e6), cost=st.floats(10, 100))
def test_feasible_region_grows_with_the_budget(b1, b2, cost):
    lo, hi = sorted((b1, b2))
    small = econ.largest_feasible_epsilon(cost, lo, 0.05, 0.1, False)
    large = econ.largest_feasible_epsilon(cost, hi, 0.05, 0.1, False)
    if small is not None:
        assert large is not None and large.epsilon >= small.epsilon
        assert econ.feasible(
            small.epsilon, small.n, cost, hi, 0.05, 0.1, False
        )  # what B allows, B' > B allows


@given(e1=st.floats(1e-6, 10), e2=st.floats(1e-6, 10), cost=st.floats(0.01, 1e4))
def test_payment_rises_with_epsilon(e1, e2, cost):
    lo, hi = sorted((e1, e2))
    assert econ.payment(lo, cost) <= econ.payment(hi, cost)
    assert econ.participates(econ.payment(hi, cost), lo, cost)


def test_true_failure_probability_against_simulation():
    exact = econ.true_failure_probability(0.03, 2000, 0.05, 0.5)
    mc, se = econ.simulate_failure(0.03, 2000, 0.05, 0.5, 100_000, np.random.default_rng(11))
    assert abs(mc - exact) <= 5 * se
    assert exact < econ.accuracy_bound(0.03, 2000, 0.05)  # the bound bounds


def test_smallest_true_n_meets_alpha():
    n = econ.smallest_true_n(0.03, 0.05, 0.1)
    assert (
        econ.true_failure_probability(0.03, n, 0.05)
        <= 0.1
        < econ.true_failure_probability(0.03, n - 1, 0.05)
    )


def test_secondary_source_examples():
    assert econ.sufficient_n(0.05, 0.05) == pytest.approx(19652.85, abs=0.01)
    assert econ.max_base_cost(30000, 0.05, 0.05) == pytest.approx(182.4, abs=0.05)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: econ.expected_cost(1274, 1.5), r"bad_event_probability must lie in \(0, 1\)"),
        (lambda: econ.expected_cost(1274, 0), r"bad_event_probability must lie in \(0, 1\)"),
        (lambda: econ.expected_cost(-5, 0.1), "bad_event_cost must be > 0"),
        (lambda: econ.within_budget(0.1, 10, P, -30000), "budget must be > 0"),
        (lambda: econ.largest_feasible_epsilon(P, -1, 0.05, 0.1), "budget must be > 0"),
        (lambda: econ.accuracy_bound(0.1, 100, 0.0), r"error must lie in \(0, 1\)"),
        (lambda: econ.accuracy_bound(0.1, 100, -0.05), r"error must lie in \(0, 1\)"),
        (lambda: econ.accuracy_n(0.1, 0.05, 1.0), r"failure_probability must lie in \(0, 1\)"),
        (lambda: econ.payment(0, P), "epsilon must be > 0"),
        (lambda: econ.total_cost(0.1, 0, P), "n must be >= 1"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_worst_case_fraction_is_the_maximum_of_a_fine_scan():
    # a design with little noise (ε = 20, N = 333): the binomial's lattice puts the maximum off p = 0.5
    p, value = econ.worst_case_fraction(20, 333, 0.05)
    scan = np.linspace(0.45, 0.55, 4001)
    values = [econ.true_failure_probability(20, 333, 0.05, q) for q in scan]
    assert value >= max(values) - 1e-12
    assert abs(p - 0.5) > 1e-3 and value > 1.1 * econ.true_failure_probability(20, 333, 0.05, 0.5)
    assert econ.true_failure_probability(20, 333, 0.05, 1 - p) == pytest.approx(
        value, rel=1e-9
    )  # symmetric about 1/2


def test_worst_case_fraction_at_the_slides_design_is_one_half():
    p, value = econ.worst_case_fraction(0.03, 15000, 0.05)
    assert p == pytest.approx(0.5, abs=1e-6)
    assert value == pytest.approx(econ.true_failure_probability(0.03, 15000, 0.05, 0.5), rel=1e-9)
    assert value < econ.accuracy_bound(0.03, 15000, 0.05, True)


def test_chernoff_non_private_n():
    n = econ.chernoff_non_private_n(0.05, 0.05)
    assert n == pytest.approx(4426.66, abs=0.01)
    assert 2 * math.exp(-n * 0.05**2 / 3) == pytest.approx(0.05)
