"""A column given as distinct values and counts: the same ε as the expanded column, at any n."""

import dataclasses
import math
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import queries
from choosing_epsilon import sensitivity as sens
from tests import bruteforce

FIELDS = ("n", "sensitivity", "delta_v", "upper_bound", "exact")

# ages, heights or small scores with ties, and a few far values (outliers on either side)
crowd = st.integers(0, 30).map(float) | st.floats(0, 200).map(lambda v: round(v, 2))
far = st.sampled_from([400.0, -350.0, 5000.0, 12345.5])
columns = st.dictionaries(crowd | far, st.integers(1, 50), min_size=1, max_size=12).filter(
    lambda d: sum(d.values()) >= 3
)


def close(a: float, b: float) -> bool:
    """Equal to 1e-9 relative; an infinite or zero value must be matched exactly."""
    if not (math.isfinite(a) and math.isfinite(b)) or b == 0:
        return a == b
    return abs(a - b) <= 1e-9 * abs(b)


# A column on which the two paths once parted by 1.2e-9 at ε ~ 1e6: the world missing the one 0 and
# the worlds missing a 0.02 give means 0.02/34 apart, near values of 12345.5, and that gap sets ε.
# Taken as the difference of two rounded means it carried the rounding of their sum (the expanded
# path was 1.2e-9 off, the counts path 5e-11); taken from the values' own gap, both are exact.
PARTED = {0.0: 1, 0.02: 17, 12345.5: 17}


@pytest.mark.parametrize("query", ["mean", "median"])
@given(column=columns, position=st.floats(0, 0.999))
@example(column=PARTED, position=0.5)  # found by a random run: 1.2e-9 apart before the gaps' fix
def test_counts_give_the_expanded_columns_result(query, column, position):
    values, counts = np.array(list(column)), np.array(list(column.values()))
    expanded = np.repeat(values, counts)
    n = expanded.size
    rho = 1 / n + position * (1 - 1 / n)  # from the prior 1/n to near 1
    got = pw.epsilon_for_risk(values, rho, query, counts=counts)
    want = pw.epsilon_for_risk(expanded, rho, query)
    assert got.n == want.n == n and got.query == query
    for field in FIELDS[1:]:
        assert close(getattr(got, field), getattr(want, field)), (field, got, want)


def test_the_column_that_parted_the_paths_gives_the_exact_epsilon_both_ways():
    values, counts = np.array(list(PARTED)), np.array(list(PARTED.values()))
    expanded = np.repeat(values, counts)
    rho = 1 / 35 + 0.5 * (1 - 1 / 35)
    got = pw.epsilon_for_risk(values, rho, "mean", counts=counts)
    want = pw.epsilon_for_risk(expanded, rho, "mean")
    assert got.exact > 9e5 and close(got.exact, want.exact)
    exact = float(bruteforce.rational_exact_epsilon(expanded, rho, "mean"))
    assert got.exact == pytest.approx(exact, rel=1e-12)
    assert want.exact == pytest.approx(exact, rel=1e-12)


# small columns whose worlds can be enumerated in exact arithmetic: ties, near ties and outliers
small = st.dictionaries(
    st.sampled_from([0.0, 1e-9, 0.02, 1.0, 5.0, 5.000000001, 7.0, 12345.5, -350.0]),
    st.integers(1, 4),
    min_size=2,
    max_size=5,
).filter(lambda d: 3 <= sum(d.values()) <= 12)


@pytest.mark.parametrize("query", ["mean", "median"])
@settings(max_examples=30)
# ρ at least 1e-6 above 1/n: at ρ = 1/n itself the answer (0, or ∞ where all worlds tie) turns on
# the last bit of the float ρ, which exact arithmetic reads literally
@given(column=small, position=st.floats(1e-6, 0.999))
def test_both_paths_give_the_epsilon_of_exact_arithmetic(query, column, position):
    values, counts = np.array(list(column)), np.array(list(column.values()))
    expanded = np.repeat(values, counts)
    rho = 1 / expanded.size + position * (1 - 1 / expanded.size)
    exact = float(bruteforce.rational_exact_epsilon(expanded, rho, query))
    for result in (
        pw.epsilon_for_risk(values, rho, query, counts=counts),
        pw.epsilon_for_risk(expanded, rho, query),
    ):
        if math.isinf(exact):
            assert math.isinf(result.exact)
        else:
            # brentq stops at 1e-13 relative; near ε = 0 (ρ within rounding of 1/n) the risk's own
            # rounding moves ε by ~1e-16 of its natural unit Δf/Δv (Eq. 7)
            unit = result.sensitivity / result.delta_v
            assert result.exact == pytest.approx(exact, rel=1e-12, abs=1e-12 * unit)


@pytest.mark.parametrize("query", ["mean", "median"])
@given(column=columns)
def test_counted_worlds_are_the_expanded_worlds(query, column):
    values, counts = np.array(list(column)), np.array(list(column.values()))
    expanded = np.repeat(values, counts)
    scale = float(np.max(np.abs(values))) or 1.0
    # each class of worlds (those missing one value) stands for as many worlds as rows hold it:
    # repeated so, the classes' answers and local sensitivities are the n worlds' of the column
    classes = queries.world_classes(values, query, counts)
    _, sorted_counts = sens.check_counts(values, counts)  # by ascending value, as the classes
    assert classes.weight.tolist() == sorted_counts[classes.missing[:, 0]].tolist()
    weights = classes.weight.astype(int)
    for by_class, per_world in (
        (classes.answer, sens.world_answers(expanded, query)),
        (classes.local_sensitivity, sens.world_local_sensitivities(expanded, query)),
    ):
        repeated = np.sort(np.repeat(by_class, weights))
        assert np.allclose(repeated, np.sort(per_world), rtol=1e-12, atol=1e-13 * scale)
    assert close(classes.sensitivity * classes.unit, sens.unbounded_sensitivity(expanded, query))


@given(column=columns, seed=st.integers(0, 2**32 - 1))
def test_the_order_of_the_distinct_values_does_not_matter(column, seed):
    values, counts = np.array(list(column)), np.array(list(column.values()))
    order = np.random.default_rng(seed).permutation(values.size)
    for query in ("mean", "median"):
        assert pw.epsilon_for_risk(values, 0.5, query, counts=counts) == pw.epsilon_for_risk(
            values[order], 0.5, query, counts=counts[order]
        )


@given(
    values=st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=20, unique=True),
    counts=st.lists(st.integers(1, 2**45), min_size=20, max_size=20),
)
def test_the_weighted_sum_is_exact(values, counts):
    v, c = np.array(values), np.array(counts[: len(values)], dtype=np.int64)
    exact = sum(Fraction(x) * int(k) for x, k in zip(values, c.tolist(), strict=True))
    assert sens.exact_weighted_sum(v, c) == float(exact)


def _timed(function, *args, **kwargs):
    function(*args, **kwargs)  # the risk kernel is compiled (numba) on first use
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


# Two values at a billion rows, where the worst case has a closed form. With answers a (c_a worlds)
# and b (c_b worlds) |a - b| = Δv apart, the worst-case posterior at ε is 1 / (c_min + c_max
# e^{-ε Δv/Δf}) (the answer fewer worlds share is the worst), so it equals ρ at
# ε = (Δf/Δv) ln(c_max / (1/ρ - c_min)) when 1/ρ > c_min. Expanding these columns would take 8 GB;
# the call reads two values and two counts, and its time bound (a second) is far above what it
# takes and far below what any pass over 10^9 rows would.
BILLION = 10**9


def test_mean_at_a_billion_rows_matches_its_closed_form():
    zeros, ones, rho = 6 * 10**8, 4 * 10**8, 2e-9
    result, seconds = _timed(pw.epsilon_for_risk, [0, 1], rho, "mean", counts=[zeros, ones])
    n = BILLION
    # worlds missing a 0 answer ones/(n-1), missing a 1 (ones-1)/(n-1): Δv = 1/(n-1); the widest
    # local sensitivity is the world missing a 1, its mean (ones-1)/(n-1) is zeros/(n-1) from 1,
    # and one more row removed moves it by that over n-2
    delta_f = zeros / ((n - 1) * (n - 2))
    delta_v = 1 / (n - 1)
    assert result.n == n and seconds < 1.0
    assert result.sensitivity == pytest.approx(delta_f, rel=1e-12)
    assert result.delta_v == pytest.approx(delta_v, rel=1e-12)
    assert result.upper_bound == pytest.approx(
        delta_f / delta_v * math.log((n - 1) * rho / (1 - rho)), rel=1e-12
    )
    assert result.exact == pytest.approx(
        delta_f / delta_v * math.log(zeros / (1 / rho - ones)), rel=1e-12
    )


def test_median_at_a_billion_rows_matches_its_closed_form():
    half, rho = BILLION // 2, 1.5e-9
    result, seconds = _timed(pw.epsilon_for_risk, [0, 1], rho, "median", counts=[half, half])
    # n - 1 rows are odd: a world missing a 0 has median 1, one missing a 1 has median 0 (Δv = 1);
    # removing one more row leaves an even count whose middle pair straddles 0 and 1 in the
    # direction away from the world's median: Δf = 1/2. Both answers have half the worlds:
    # 1/(half (1 + e^{-2ε})) = ρ at ε = ln(1/(1/(half ρ) - 1))/2 = ln(3)/2 for half ρ = 3/4.
    assert result.n == BILLION and seconds < 1.0
    assert (result.sensitivity, result.delta_v) == (0.5, 1.0)
    assert result.upper_bound == pytest.approx(
        0.5 * math.log((BILLION - 1) * rho / (1 - rho)), rel=1e-12
    )
    assert result.exact == pytest.approx(math.log(3) / 2, rel=1e-12)


def test_a_billion_ages_keep_their_worlds_apart():
    # 111 ages with ~9 million rows each and one outlier: the answers of neighbouring ages differ by
    # 1/(n-1) ~ 1e-9 (in standard units, 1/128 of that), which the world means themselves, ~55,
    # hold only to their ulp (7e-15, 1e-5 of a gap); taken less the column's mean, as ε uses them,
    # each gap is kept to 1e-12
    values = np.append(np.arange(111.0), 140.0)
    counts = np.append(np.full(111, 9_009_009), 1)
    n = int(counts.sum())
    classes = queries.world_classes(values, "mean", counts)
    # ascending answers: the worlds missing the largest values first
    gaps = classes.gaps * classes.unit
    assert np.allclose(gaps, np.diff(values)[::-1] / (n - 1), rtol=1e-12, atol=0)
    result = pw.epsilon_for_risk(values, 0.5, "mean", counts=counts)
    # Δv is the outlier's distance from age 0 over n - 1 rows
    assert result.delta_v == pytest.approx(140 / (n - 1), rel=1e-12)


@pytest.mark.parametrize(
    ("values", "counts", "message"),
    [
        ([1, 2, 3], [1, 2], r"counts must be one count per distinct value: 3 values"),
        ([1, 2], [1.5, 2], r"counts must be integers"),
        ([1, 2], ["1", "2"], r"counts must be integers"),
        ([1, 2, 3], [1, 0, 2], r"counts must be >= 1 \(allowed range \[1, 2\*\*53\]\), got 0"),
        ([1, 2, 2], [1, 1, 1], r"values must be distinct .* got 2.0 more than once"),
        ([1, 2], [1, 1], r"counts must sum to at least 3 rows .* got 2"),
        ([1, 2], [2**53, 1], r"counts must sum to at most 2\*\*53"),
        ([1, math.nan], [2, 2], r"values must contain only finite numbers"),
        ([1, 2**60 + 1], [2, 2], r"values: 1152921504606846977 has no exact float64 value"),
    ],
)
def test_bad_counts_are_refused_in_one_line(values, counts, message):
    with pytest.raises(ValueError, match=message) as refusal:
        pw.epsilon_for_risk(values, 0.5, "mean", counts=counts)
    assert "\n" not in str(refusal.value)


def test_rho_and_query_are_checked_against_the_counted_rows():
    with pytest.raises(ValueError, match=r"rho must lie in \[1/n, 1\) = \[0\.01, 1\) for n = 100"):
        pw.epsilon_for_risk([1, 2], 0.005, "mean", counts=[50, 50])
    with pytest.raises(ValueError, match=r"query must be one of"):
        pw.epsilon_for_risk([1, 2], 0.5, "mode", counts=[50, 50])  # type: ignore[arg-type]


def test_one_distinct_value_has_nothing_to_hide():
    result = pw.epsilon_for_risk([7.0], 0.5, "median", counts=[10**9])
    assert dataclasses.astuple(result)[2:7] == (10**9, 0.0, 0.0, math.inf, math.inf)
