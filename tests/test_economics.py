import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choosing_epsilon import economics as econ
from choosing_epsilon.papers.hsu_2014 import forensics, scans

P = econ.expected_cost(1274, 0.05)


def brute_force_max_epsilon(p, budget, error, alpha, slide, n_max=400_000):
    """Scan every N: the budget's largest ε for N, kept if the accuracy bound holds there; the
    first N wins."""
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
    # a design with little noise (ε = 20, N = 333): the binomial's lattice puts the maximum off
    # p = 0.5
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


# --- the notebook's tables and scans: the values the notebook computed inline before ------------


def test_participation_table_applies_the_rule_at_each_epsilon():
    eps = [0.01, 0.03, 0.1, 0.5, 1, 2, 3]
    table = forensics.participation_table(eps, P, offer=2.0)
    assert list(table.columns) == ["ε", "e^ε", "payment (e^ε − 1)P, $", "joins for $2?"]
    assert table["payment (e^ε − 1)P, $"].tolist() == [econ.payment(e, P) for e in eps]
    assert table["joins for $2?"].tolist() == [True, True, False, False, False, False, False]
    shown = forensics.readable_cells(table)
    assert shown["payment (e^ε − 1)P, $"].iloc[0] == 0.6402  # 63.7 (e^0.01 - 1), 4 places
    assert shown["joins for $2?"].tolist() == table["joins for $2?"].tolist()  # booleans kept


def test_slide_point_table_shows_the_slides_point_as_text():
    pay, spend = econ.payment(0.03, P), econ.total_cost(0.03, 15000, P)
    bound = econ.accuracy_bound(0.03, 15000, 0.05, True)
    table = forensics.slide_point_table(pay, spend, 30000, bound, 0.1, True)
    values = dict(zip(table.quantity, table.value))
    assert values["payment per participant ($)"] == "1.93995"
    assert values["total cost ($)"] == "29099.31" and values["budget left ($)"] == "900.69"
    assert values["feasible"] == "True"
    tiny = forensics.slide_point_table(pay, spend, 30000, 0.0, 0.1, True)
    assert dict(zip(tiny.quantity, tiny.value))["accuracy bound A(ε, N)"] == "< 1e-300"


def test_feasible_region_curves_are_the_two_constraints():
    region = scans.feasible_region_curves(P, 30000, 0.05, 0.1, True, right=0.05, points=50)
    assert region.epsilon.iloc[-1] == 0.05 and region.epsilon.iloc[0] == pytest.approx(0.001)
    assert np.array_equal(region.n_max_budget, 30000 / (np.expm1(region.epsilon) * P))
    for eps, n in zip(region.epsilon[::10], region.n_min_accuracy[::10]):
        assert n == econ.accuracy_n(eps, 0.05, 0.1, True)


def test_private_vs_non_private_table_matches_the_formulas_and_its_condition():
    errors = [0.01, 0.05, 0.2]
    table = forensics.private_vs_non_private_table(errors, 0.05, 0.25, 2500, 0.002)
    for t, row in zip(errors, table.itertuples(index=False)):
        assert row[1] == econ.sufficient_n(t, 0.05)
        assert row[2] == econ.sufficient_n(t, 0.05) * math.expm1(t / 6) * 0.25
        assert row[3] == econ.non_private_n(t, 0.05)
        assert row[4] == math.log(2 / 0.05) / (2 * t**2)  # Hoeffding
        assert row[5] == econ.chernoff_non_private_n(t, 0.05)
        assert row[6] == econ.non_private_n(t, 0.05) * 0.002 * 2500
    assert forensics.attributed_condition_agrees(table)
    assert not forensics.attributed_condition_agrees(
        table.assign(**{"private cheaper (attributed condition)": [False] * 3})
    )
    off = forensics.private_vs_non_private_table(errors, 0.6, 0.25, 2500, 0.002)
    assert off["non-private N′ (attributed)"].isna().all()
    assert off["private cheaper (attributed condition)"].isna().all()


def test_exact_vs_bound_table_and_its_simulation_check(monkeypatch):
    table = forensics.exact_vs_bound_table(
        0.03, [200, 2000], 0.05, 0.5, 20_000, np.random.default_rng(1)
    )
    assert table.N.tolist() == [200, 2000]
    assert table["exact failure probability"].tolist() == [
        econ.true_failure_probability(0.03, n, 0.05, 0.5) for n in (200, 2000)
    ]
    assert (table["bound A(ε, N)"] > table["exact failure probability"]).all()
    # the same generator gives the same draws as simulate_failure in a loop
    rng = np.random.default_rng(1)
    assert table["Monte Carlo"].tolist() == [
        econ.simulate_failure(0.03, n, 0.05, 0.5, 20_000, rng)[0] for n in (200, 2000)
    ]
    monkeypatch.setattr(forensics, "simulate_failure", lambda *args: (0.9, 0.001))
    with pytest.raises(RuntimeError, match="more than 5 standard errors"):
        forensics.exact_vs_bound_table(0.03, [200], 0.05, 0.5, 20_000, np.random.default_rng(1))


def test_probabilities_shown_names_underflow():
    table = pd.DataFrame({"a": [0.5, 0.0], "b": [0.25, 0.125]})
    shown = forensics.probabilities_shown(table, ["a", "b"], only_underflow=True)
    assert shown.a.tolist() == [0.5, "< 1e-300"] and shown.b.dtype == float
    assert forensics.probabilities_shown(table, ["b"]).b.tolist() == [0.25, 0.125]
    assert table.a.tolist() == [0.5, 0.0]  # a copy


def test_study_size_scan_by_both_measures():
    eps = np.array([0.03, 0.3])
    scan = scans.study_size_scan(eps, P, 0.05, 0.1, 0.5, True)
    assert scan.n_bound.tolist() == [econ.accuracy_n(e, 0.05, 0.1, True) for e in eps]
    assert scan.n_exact.tolist() == [econ.smallest_true_n(e, 0.05, 0.1, 0.5) for e in eps]
    assert np.array_equal(scan.cost_exact, scan.n_exact * np.expm1(eps) * P)
    assert (scan.n_exact < scan.n_bound).all()


def test_worst_case_table_and_symmetry():
    assert scans.symmetry_gap(0.03, 15000, 0.05, (0.1, 0.3, 0.45)) < 1e-12
    designs = {"(a)": (0.03, 15000), "(b)": (20.0, 333)}
    worst = scans.worst_case_table(designs, 0.05)
    assert worst.design.tolist() == ["(a)", "(b)"]
    assert worst.iloc[1]["worst fraction p"] == econ.worst_case_fraction(20.0, 333, 0.05)[0]
    assert worst.iloc[1]["worst / at 0.5"] > 1.1
    shown = forensics.worst_case_shown(worst)
    assert shown["worst fraction p"].tolist() == [round(p, 6) for p in worst["worst fraction p"]]
    gone = scans.worst_case_table({"(a)": (0.03, 10**9)}, 0.99)
    assert math.isnan(gone.iloc[0]["worst / at 0.5"])
    assert forensics.worst_case_shown(gone).iloc[0]["worst / at 0.5"] == "both < 1e-300"


def test_failure_curves_span_and_underflow():
    designs = {"(a)": (0.03, 2000), "(b)": (20.0, 333), "(c)": (0.03, 10**9)}
    curves = scans.failure_curves(designs, 0.05, points=11)
    a, b, c = (curves[curves.design == name] for name in designs)
    assert (a.fraction.min(), a.fraction.max()) == (0.0, 1.0)
    assert b.fraction.min() == pytest.approx(0.5 - 6 / 333)
    assert b.fraction.max() == pytest.approx(0.5 + 6 / 333)
    assert a.failure_probability.tolist()[5] == econ.true_failure_probability(0.03, 2000, 0.05)
    assert curves.loc[curves.design == "(c)"].failure_probability.isna().all()
    assert len(c) == 11


def test_max_epsilon_scan_matches_largest_feasible_epsilon():
    costs = np.array([10.0, P, 5000.0])
    scan = scans.max_epsilon_scan(costs, [10000, 30000], 0.05, 0.1, True)
    assert scan.budget.tolist() == [10000] * 3 + [30000] * 3
    for row in scan.itertuples(index=False):
        best = econ.largest_feasible_epsilon(row.expected_cost, row.budget, 0.05, 0.1, True)
        if best is None:
            assert math.isnan(row.max_feasible_epsilon)
        else:
            assert row.max_feasible_epsilon == best.epsilon
    assert scan.max_feasible_epsilon.isna().sum() >= 1  # P = $5,000 is beyond either budget


@pytest.mark.parametrize(
    ("epsilon", "n", "error", "fraction"),
    [(0.03, 2000, 0.05, 0.5), (0.03, 500, 0.05, 0.2), (6.0, 6, 0.2, 0.42), (1.0, 279, 0.05, 0.0)],
)
def test_every_count_reference_agrees_with_the_truncated_sum(epsilon, n, error, fraction):
    reference = econ.failure_probability_every_count(epsilon, n, error, [fraction, 1 - fraction])
    exact = econ.true_failure_probability(epsilon, n, error, fraction)
    assert reference == pytest.approx([exact, exact], rel=1e-12, abs=1e-300)


def test_every_count_reference_refuses_a_fraction_outside_the_unit_interval():
    with pytest.raises(ValueError, match=r"fractions must lie in \[0, 1\]"):
        econ.failure_probability_every_count(0.03, 100, 0.05, [0.5, 1.5])


def test_a_budget_with_no_feasible_cost_and_a_point_feasible_alone():
    """At an error of 0.001 (the slides' constants) the cost floor P ln(1/T)/(d/2) passes $10,000
    before the smallest P of the scan and $30,000 just after it: one budget has no feasible P,
    another exactly one, whose neighbour is infeasible."""
    costs = np.geomspace(P / 10, P * 10, 41)
    scan = scans.max_epsilon_scan(costs, [10000, 30000, 90000], 0.001, 0.1, True)
    floors = [econ.cost_floor(c, 0.001, 0.1, True) for c in costs[:2]]
    assert 10000 < floors[0] < 30000 < floors[1] < 90000
    assert scans.infeasible_budgets(scan) == [10000.0]
    lone = scan[scans.lone_points(scan)]
    assert lone[["budget", "expected_cost"]].values.tolist() == [[30000, costs[0]]]
    # at the slides' error every budget has a curve of many points, none alone
    wide = scans.max_epsilon_scan(costs, [10000, 30000], 0.05, 0.1, True)
    assert scans.infeasible_budgets(wide) == [] and not scans.lone_points(wide).any()


def test_lone_points_are_feasible_points_between_infeasible_ones():
    scan = pd.DataFrame(
        {
            "budget": [1] * 6 + [2] * 3,
            "expected_cost": [1, 2, 3, 4, 5, 6, 1, 2, 3],
            "max_feasible_epsilon": [0.5, np.nan, 0.4, 0.3, np.nan, 0.1] + [np.nan] * 3,
        }
    )
    lone = [True, False, False, False, False, True] + [False] * 3
    assert scans.lone_points(scan).tolist() == lone
    assert scans.infeasible_budgets(scan) == [2.0]
