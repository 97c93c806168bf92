"""The restated public replication of Lee & Clifton's search: with its two world-counting defects
switched off it computes Eq. (3) over every world, each defect does what the notebook says it
does, and on the notebook's three databases it returns what the published notebook's own
functions returned when run (outside this repository) at commit 965016e."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon.papers.lee_clifton_2011 import replication as rep

# the published functions (binary_search_epsilon with posterior_bound_type "tight"), run once on
# each database with the column as listed: the ε they returned, to every printed digit
PUBLISHED_RUNS = [
    ((100, 20, 25, 30, 35), 1 / 3, 3.2745856852002744),
    ((10, 10, 50, 50), 0.6, 1.0986123327594526),
    ((10, 50, 10, 50), 0.6, 10.30885234841632),
    ((1, 2, 3, 10), 1 / 3, 0.43171996782769506),  # Table 1's absence days, Chris first
]

columns = st.lists(st.integers(-20, 20), min_size=3, max_size=7).map(
    lambda v: np.array(v, dtype=float)
)


@pytest.mark.parametrize(("values", "rho", "returned"), PUBLISHED_RUNS)
def test_the_restatement_returns_what_the_published_functions_returned(values, rho, returned):
    assert rep.replication_epsilon(values, rho).epsilon == pytest.approx(returned, rel=1e-12)


def test_the_last_listed_world_misses_the_first_listed_row():
    worlds = rep.listed_worlds([7, 1, 2, 3])
    np.testing.assert_array_equal(worlds[-1], [1, 2, 3])
    np.testing.assert_array_equal(worlds[0], [7, 1, 2])


@settings(max_examples=60, deadline=None)
@given(columns, st.floats(0.05, 5), st.sampled_from(["mean", "sum", "variance", "median"]))
def test_without_the_two_defects_its_risk_is_eq3_over_every_world(values, epsilon, query):
    sensitivity, _ = rep.replication_sensitivities(values, query)
    if sensitivity == 0:
        return
    f = rep._statistic(query, None)
    answers = np.array([f(np.delete(values, j)) for j in range(values.size)])
    found = rep.replication_risk(
        values, epsilon, query, skip_last_world=False, drop_equal_worlds=False
    )
    assert found == pytest.approx(pw.worst_case_risk(answers, sensitivity, epsilon), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(columns, st.floats(0.05, 5))
def test_each_defect_only_ever_raises_or_lowers_the_risk_one_way(values, epsilon):
    sensitivity, _ = rep.replication_sensitivities(values, "mean")
    if sensitivity == 0:
        return
    full = rep.replication_risk(values, epsilon, skip_last_world=False, drop_equal_worlds=False)
    skipped = rep.replication_risk(values, epsilon, skip_last_world=True, drop_equal_worlds=False)
    dropped = rep.replication_risk(values, epsilon, skip_last_world=False, drop_equal_worlds=True)
    assert skipped <= full * (1 + 1e-12)  # a world left out of the maximum
    assert dropped >= full * (1 - 1e-12)  # terms left out of denominators


def test_the_skipped_world_makes_the_answer_unsafe_and_counting_it_repairs_it():
    values, rho = (100, 20, 25, 30, 35), 1 / 3
    found = rep.replication_epsilon(values, rho)
    exact = pw.epsilon_for_risk(list(values), rho).exact
    assert rep.true_risk(values, found.epsilon) > 0.85 > rho
    repaired = rep.replication_epsilon(values, rho, skip_last_world=False).epsilon
    # 25 halvings of [0, ε_top] find the root to within ε_top / 2^25
    assert abs(repaired - exact) <= found.ceiling / 2**25


def test_two_equal_worlds_give_ln3_where_any_epsilon_is_safe():
    values, rho = (10, 10, 50, 50), 0.6
    assert math.isinf(pw.epsilon_for_risk(list(values), rho).exact)
    found = rep.replication_epsilon(values, rho)
    # its posterior 1 / (1 + 2 e^-ε) reaches 0.6 at ε = ln 3
    assert abs(found.epsilon - math.log(3)) <= found.ceiling / 2**25


def test_where_the_risk_never_reaches_rho_it_returns_its_ceiling():
    values, rho = (10, 50, 10, 50), 0.6
    found = rep.replication_epsilon(values, rho)
    assert found.ceiling == pytest.approx(math.log(3 * 0.9999 / 0.0001))
    assert found.epsilon == pytest.approx(found.ceiling * (1 - 2**-25), rel=1e-12)
    assert rep.true_risk(values, found.epsilon) < rho


def test_listing_the_most_exposed_row_first_changes_its_answer_on_table_1():
    table = rep.listing_table([1, 2, 3, 10], 1 / 3)
    as_listed, moved = table.to_dict("records")
    assert moved["values"] == "10, 1, 2, 3"
    assert as_listed["replication's ε"] == pytest.approx(as_listed["exact ε"], rel=1e-6)
    assert moved["true risk at the replication's ε"] > 1 / 3


def test_worlds_all_alike_give_what_its_division_gives():
    assert math.isinf(rep.replication_epsilon([6, 5, 6, 6], 0.5, "median").epsilon)
    assert math.isnan(rep.replication_epsilon([3, 3, 3, 3], 0.5).epsilon)


def test_too_many_rows_are_refused_in_one_line():
    with pytest.raises(ValueError, match="at most 12 rows"):
        rep.replication_epsilon(np.arange(13.0), 0.5)


@pytest.mark.parametrize("unit", [1, 200, 1000, 1e-3])
def test_the_most_exposed_row_does_not_depend_on_the_columns_units(unit):
    assert rep.most_exposed_row(np.array([1, 2, 3, 10]) * unit) == 3
    assert rep.most_exposed_row(np.array([35000, 42000, 51000, 120000]) * unit / 1000) == 3


def test_a_finite_exact_epsilon_above_its_ceiling_also_comes_back_as_the_ceiling():
    values, rho = (10, 50.5, 10, 50), 0.6
    found = rep.replication_epsilon(values, rho, skip_last_world=False, drop_equal_worlds=False)
    exact = pw.epsilon_for_risk(list(values), rho).exact
    assert found.ceiling < exact < math.inf
    assert found.epsilon == pytest.approx(found.ceiling * (1 - 2**-25), rel=1e-12)
