import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from choosing_epsilon import sensitivity as sens
from tests import bruteforce

values = st.lists(st.integers(-20, 20) | st.sampled_from([500, -500]), min_size=3, max_size=9) | st.lists(
    st.floats(-1e3, 1e3, allow_nan=False), min_size=3, max_size=9
)


@pytest.mark.parametrize("query", ["mean", "median"])
@given(x=values)
def test_world_answers_and_sensitivity_match_enumeration(query, x):
    assert np.allclose(sens.world_answers(x, query), bruteforce.answers(x, query), rtol=1e-12, atol=1e-9)
    assert sens.unbounded_sensitivity(x, query) == pytest.approx(bruteforce.sensitivity(x, query), rel=1e-9, abs=1e-9)


@given(x=values)
def test_bounded_mean_sensitivity_matches_enumeration(x):
    best = max(
        abs(bruteforce.query(w, "mean") - bruteforce.query(w[:t] + [u] + w[t + 1 :], "mean"))
        for w in bruteforce.worlds(x) for t in range(len(w)) for u in x
    )
    assert sens.bounded_sensitivity(x, "mean") == pytest.approx(best, rel=1e-9, abs=1e-9)


@given(x=st.lists(st.integers(-20, 20), min_size=3, max_size=7))
def test_bounded_median_sensitivity_matches_enumeration(x):
    best = max(
        abs(bruteforce.query(w, "median") - bruteforce.query(w[:t] + [u] + w[t + 1 :], "median"))
        for w in bruteforce.worlds(x) for t in range(len(w)) for u in x
    )
    assert sens.bounded_sensitivity(x, "median") == pytest.approx(best)


def test_paper_values():
    absence, year = [1, 2, 3, 10], [1, 2, 3, 4]
    assert sens.unbounded_sensitivity(absence, "mean") == pytest.approx(17 / 6)
    assert sens.unbounded_sensitivity(year, "mean") == pytest.approx(5 / 6)
    # Table 4, worlds without Terry, Pat, Kelly, Chris
    assert list(sens.world_local_sensitivities(absence, "median")[[3, 2, 1, 0]]) == [0.5, 4, 3.5, 3.5]
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
