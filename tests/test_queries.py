"""Every query and every adversary missing k = 1, 2 or 3 rows against brute force: the worlds
enumerated, each world's answer from the query's definition, Δf by removing every row of every
world, and the exact ε by bisection on the posterior at the worst response (tests/bruteforce.py).
Small random databases with ties, negative values and outliers; and the counts path against the
expanded column for every query, 0/1 columns (a count of rows meeting a condition) included."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import queries
from choosing_epsilon.papers.lee_clifton_2011 import tabulate
from choosing_epsilon.possible_worlds import epsilon_for_risk
from tests import bruteforce
from tests.examples import examples

QUERIES = ["mean", "sum", "variance", "std", "median", "quantile"]
LEVELS = [0.1, 0.25, 0.5, 0.9]
# small databases: ties (a few distinct values), negatives, and now and then an outlier
values = st.one_of(st.integers(-20, 20), st.sampled_from([-1000, 1000, 0.5, 2.25]))
databases = st.lists(values, min_size=4, max_size=7).map(lambda v: [float(x) for x in v])


def level(query, q):
    return q if query == "quantile" else None


@settings(max_examples=examples(30, 1200), deadline=None)
@given(
    database=databases,
    query=st.sampled_from(QUERIES),
    q=st.sampled_from(LEVELS),
    unknown=st.integers(1, 3),
    position=st.floats(0.05, 0.95),
)
def test_every_query_and_k_match_brute_force(database, query, q, unknown, position):
    n = len(database)
    assume(unknown <= n - 2)
    q = level(query, q)
    worlds = math.comb(n, unknown)
    rho = 1 / worlds + position * (1 - 1 / worlds)
    result = epsilon_for_risk(database, rho, query, unknown=unknown, q=q)
    sensitivity = bruteforce.sensitivity(database, query, unknown, q)
    assert result.sensitivity == pytest.approx(sensitivity, rel=1e-9, abs=1e-9)
    answers = bruteforce.answers(database, query, unknown, q)
    if sensitivity == 0:
        assert math.isinf(result.exact)
        return
    assert result.delta_v == pytest.approx(float(np.ptp(answers)), rel=1e-9, abs=1e-9)
    exact = bruteforce.exact_epsilon(database, rho, query, unknown, q)
    if math.isinf(exact):
        assert math.isinf(result.exact)
    else:
        assert result.exact == pytest.approx(exact, rel=1e-6)
        # and the posterior at the worst response lands on ρ there (Eq. 3)
        assert bruteforce.worst_risk(answers, sensitivity, result.exact) == pytest.approx(
            rho, rel=1e-6
        )
    assert result.upper_bound == pytest.approx(
        bruteforce.upper_bound(database, rho, query, unknown, q), rel=1e-9
    )


@settings(max_examples=100, deadline=None)
@given(
    database=st.one_of(databases, st.lists(st.sampled_from([0.0, 1.0]), min_size=4, max_size=9)),
    query=st.sampled_from(QUERIES),
    q=st.sampled_from(LEVELS),
    unknown=st.integers(1, 2),
    position=st.floats(0.05, 0.95),
)
def test_counts_give_the_expanded_columns_result_for_every_query(
    database, query, q, unknown, position
):
    n = len(database)
    assume(unknown <= n - 2)
    q = level(query, q)
    rho = 1 / math.comb(n, unknown) + position * (1 - 1 / math.comb(n, unknown))
    counted = Counter(database)
    distinct = sorted(counted)
    expanded = epsilon_for_risk(database, rho, query, unknown=unknown, q=q)
    by_counts = epsilon_for_risk(
        distinct, rho, query, counts=[counted[v] for v in distinct], unknown=unknown, q=q
    )
    for field in ("sensitivity", "delta_v", "upper_bound", "exact"):
        a, b = getattr(expanded, field), getattr(by_counts, field)
        assert a == b or a == pytest.approx(b, rel=1e-9, abs=1e-12), field


def test_a_count_of_rows_is_the_sum_of_a_zero_one_column():
    # 3 of 6 rows meet the condition: removing one row changes the count by at most 1
    flags = [1.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    result = epsilon_for_risk(flags, 0.5, "sum")
    assert result.sensitivity == 1.0 and result.delta_v == 1.0
    assert result.exact == pytest.approx(bruteforce.exact_epsilon(flags, 0.5, "sum"), rel=1e-6)


def test_bad_queries_and_unknowns_are_refused_by_name():
    with pytest.raises(ValueError, match="query must be one of"):
        epsilon_for_risk([1, 2, 3, 4], 0.5, "mode")
    with pytest.raises(ValueError, match="q"):
        epsilon_for_risk([1, 2, 3, 4], 0.5, "quantile")
    with pytest.raises(ValueError, match="unknown"):
        epsilon_for_risk([1, 2, 3, 4], 0.5, "mean", unknown=3)
    with pytest.raises(ValueError, match="unknown"):
        queries.check_unknown(True, 10)


def test_the_query_table_and_its_monte_carlo():
    x = [1.0, 2.0, 3.0, 10.0]
    cases = [("variance", None, 1), ("quantile", 0.9, 1), ("mean", None, 2)]
    table = tabulate.query_table(x, 1 / 3, cases)
    for (query, q, k), exact in zip(cases, table["exact ε"]):
        assert exact == epsilon_for_risk(x, 1 / 3, query, unknown=k, q=q).exact
        seen = pw.simulated_worst_posterior(x, query, exact, 4000, np.random.default_rng(1), k, q)
        # at the exact ε no response lifts a world above ρ, and some come within 1e-6 of it
        assert seen <= 1 / 3 * (1 + 1e-9) and seen == pytest.approx(1 / 3, rel=1e-6)
    assert "note" not in table
    # a column too rich for k = 2 says so instead of computing: 5,000 distinct values make
    # 12,502,500 classes, above MAX_CLASSES
    assert queries.count_classes(5000, 2) > queries.MAX_CLASSES
    wide = tabulate.query_table(np.arange(5000.0), 0.5, [("mean", None, 2)])
    assert math.isnan(wide["exact ε"][0]) and "not computed" in wide.note[0]
    assert math.isnan(pw.simulated_worst_posterior(np.arange(100.0), "mean", 1.0, 10, None))
    # three rows leave no world once two are missed and one more removed
    small = tabulate.query_table([1.0, 2.0, 5.0], 0.5, [("mean", None, 1), ("mean", None, 2)])
    assert math.isfinite(small["exact ε"][0]) and "not applicable" in small.note[1]


def _largest_removal_change(query, grid, m, q):
    """The largest change of ``query`` when one row is removed, over every column of m values
    drawn from ``grid`` (brute force)."""
    f = {
        "mean": np.mean,
        "sum": np.sum,
        "variance": np.var,
        "std": np.std,
        "median": np.median,
        "quantile": lambda w: np.quantile(w, q),
    }[query]
    largest = 0.0
    for column in itertools.combinations_with_replacement(grid, m):
        x = np.array(column, dtype=float)
        answer = f(x)
        largest = max(largest, *(abs(answer - f(np.delete(x, j))) for j in range(m)))
    return largest


PUBLIC_CASES = [
    ("mean", None),
    ("sum", None),
    ("variance", None),
    ("std", None),
    ("median", None),
    ("quantile", 0.5),
    ("quantile", 0.9),
]


@pytest.mark.parametrize(("query", "q"), PUBLIC_CASES)
@pytest.mark.parametrize("m", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("bounds", [(0.0, 110.0), (-3.0, 5.0)])
def test_public_sensitivity_bounds_every_column_and_is_attained(query, q, m, bounds):
    lower, upper = bounds
    grid = np.linspace(lower, upper, 7)  # the ends and five values between them
    found = _largest_removal_change(query, grid, m, q)
    bound = queries.public_sensitivity(query, lower, upper, m, q)
    assert found <= bound * (1 + 1e-12)
    if q != 0.9:  # all but a quantile off the middle are attained, by columns of the range's ends
        assert found == pytest.approx(bound, rel=1e-12)


def test_public_sensitivity_refuses_a_range_or_size_it_cannot_use():
    with pytest.raises(ValueError, match="upper > lower"):
        queries.public_sensitivity("mean", 5, 5, 10)
    with pytest.raises(ValueError, match="size must be an integer >= 2"):
        queries.public_sensitivity("mean", 0, 1, 1)


def test_more_classes_than_computed_exactly_are_refused_in_one_line(monkeypatch):
    """Above MAX_CLASSES classes the exact ε is refused, naming the count; at the limit it is
    computed (the limit lowered here to keep the test small)."""
    monkeypatch.setattr(queries, "MAX_CLASSES", 10)
    values = np.arange(11.0)
    with pytest.raises(ValueError, match=r"unknown = 1 on 11 distinct values makes up to 11 "):
        queries.world_classes(values, "mean", counts=np.ones(11, dtype=int))
    assert queries.world_classes(values[:10], "mean", counts=np.ones(10, dtype=int)).n == 10
