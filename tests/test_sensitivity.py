import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from choosing_epsilon import sensitivity as sens
from tests import bruteforce

values = st.lists(
    st.integers(-20, 20) | st.sampled_from([500, -500]), min_size=3, max_size=9
) | st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=3, max_size=9)


@pytest.mark.parametrize("query", ["mean", "median"])
@given(x=values)
def test_world_answers_and_sensitivity_match_enumeration(query, x):
    assert np.allclose(
        sens.world_answers(x, query), bruteforce.answers(x, query), rtol=1e-12, atol=1e-9
    )
    assert sens.unbounded_sensitivity(x, query) == pytest.approx(
        bruteforce.sensitivity(x, query), rel=1e-9, abs=1e-9
    )


@given(x=values)
def test_bounded_mean_sensitivity_matches_enumeration(x):
    best = max(
        abs(bruteforce.query(w, "mean") - bruteforce.query(bruteforce.replaced(w, t, u), "mean"))
        for w in bruteforce.worlds(x)
        for t in range(len(w))
        for u in x
    )
    assert sens.bounded_sensitivity(x, "mean") == pytest.approx(best, rel=1e-9, abs=1e-9)


@given(x=st.lists(st.integers(-20, 20), min_size=3, max_size=7))
def test_bounded_median_sensitivity_matches_enumeration(x):
    best = max(
        abs(
            bruteforce.query(w, "median") - bruteforce.query(bruteforce.replaced(w, t, u), "median")
        )
        for w in bruteforce.worlds(x)
        for t in range(len(w))
        for u in x
    )
    assert sens.bounded_sensitivity(x, "median") == pytest.approx(best)


def test_paper_values():
    absence, year = [1, 2, 3, 10], [1, 2, 3, 4]
    assert sens.unbounded_sensitivity(absence, "mean") == pytest.approx(17 / 6)
    assert sens.unbounded_sensitivity(year, "mean") == pytest.approx(5 / 6)
    # Table 4, worlds without Terry, Pat, Kelly, Chris
    assert list(sens.world_local_sensitivities(absence, "median")[[3, 2, 1, 0]]) == [
        0.5,
        4,
        3.5,
        3.5,
    ]
    assert list(sens.world_answers(absence, "median")[[3, 2, 1, 0]]) == [2, 2, 3, 3]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: sens.world_answers([], "mean"), "values needs at least 1"),
        (lambda: sens.world_answers([1.0], "mean"), "values needs at least 3 rows"),
        (lambda: sens.world_answers([1, 2], "mean"), "values needs at least 3 rows"),
        (lambda: sens.world_answers([1, 2, float("inf")], "mean"), "only finite"),
        (lambda: sens.world_answers(["a", "b", "c"], "mean"), "sequence of real numbers"),
        (lambda: sens.world_answers([1, 2, 3], "mode"), "query must be one of"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("lb, ub", [(0.0, 110.0), (-3.0, 5.0)])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_mean_sensitivity_brute_force_matches_the_formulas(lb, ub, n):
    grid = np.linspace(lb, ub, 5)
    replace = sens.mean_sensitivity_brute_force(grid, (n, n), "replace one")
    assert replace == pytest.approx(sens.mean_sensitivity(lb, ub, n), rel=1e-12)
    add_remove = sens.mean_sensitivity_brute_force(grid, (n, n + 2), "add or remove one")
    assert add_remove == pytest.approx(sens.mean_sensitivity_add_remove(lb, ub, n), rel=1e-12)
    assert add_remove == pytest.approx((ub - lb) / (n + 1), rel=1e-12)


def test_add_remove_sensitivity_differs_from_replace_one_for_ages():
    ages = np.linspace(0, 110, 6)
    assert sens.mean_sensitivity_brute_force(ages, (3, 3), "replace one") == pytest.approx(110 / 3)
    assert sens.mean_sensitivity_brute_force(ages, (1, 4), "add or remove one") == pytest.approx(
        55.0
    )
    # interior values never give the worst case: the brute force finds it among the range's ends
    assert sens.mean_sensitivity_brute_force(
        np.array([0.0, 110.0]), (1, 4), "add or remove one"
    ) == pytest.approx(55.0)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: sens.mean_sensitivity_brute_force([0, 1], (0, 2), "replace one"), "sizes must be"),
        (lambda: sens.mean_sensitivity_brute_force([0, 1], (3, 2), "replace one"), "sizes must be"),
        (
            lambda: sens.mean_sensitivity_brute_force([0, 1], (1, 2), "bounded"),
            "neighbours must be one of",
        ),
        (
            lambda: sens.mean_sensitivity_brute_force(np.arange(100), (1, 10), "replace one"),
            "datasets to enumerate",
        ),
        (lambda: sens.mean_sensitivity_add_remove(1, 1, 1), "upper must exceed lower"),
        (lambda: sens.mean_sensitivity_add_remove(0, 1, 0), "smallest must be an integer >= 1"),
    ],
)
def test_mean_sensitivity_helpers_refuse_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
