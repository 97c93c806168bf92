"""The package's input checks (``_validate``): each passes a value in its range through as a float
and refuses one outside it with an error naming the parameter and the range, at the edges too."""

import math

import numpy as np
import pytest

from choosing_epsilon import _validate


@pytest.mark.parametrize(
    ("check", "inside", "outside", "message"),
    [
        (_validate.positive, [1e-300, 2, np.float32(0.5)], [0, -1.0], r"be > 0 \(allowed range"),
        (_validate.nonnegative, [0, 3.5, np.int64(7)], [-1e-300, -2], r"be >= 0 \(allowed range"),
        (_validate.open_unit, [1e-12, 0.5, 1 - 1e-12], [0, 1, 1.5], r"lie in \(0, 1\)"),
        (_validate.closed_unit, [0, 0.5, 1], [-1e-12, 1 + 1e-12], r"lie in \[0, 1\]"),
    ],
)
def test_a_scalar_in_range_passes_as_a_float_and_one_outside_is_named(
    check, inside, outside, message
):
    for value in inside:
        result = check("rho", value)
        assert isinstance(result, float) and result == float(value)
    for value in outside:
        with pytest.raises(ValueError, match=rf"^rho must {message}"):
            check("rho", value)


@pytest.mark.parametrize("value", [True, "1", None, [1.0], math.nan, math.inf, -math.inf])
def test_real_refuses_what_is_not_a_finite_number(value):
    with pytest.raises(ValueError, match=r"^epsilon must be (a real number|finite)"):
        _validate.real("epsilon", value)


def test_unit_rates_keep_their_shape_and_refuse_a_rate_outside_the_unit_interval():
    rates = _validate.unit_rates("fpr", [[0.0, 0.5], [1.0, 0.25]])
    assert rates.shape == (2, 2) and rates.dtype == float
    assert _validate.unit_rates("fpr", 0.1).shape == ()
    with pytest.raises(ValueError, match=r"^fpr must lie in \[0, 1\]"):
        _validate.unit_rates("fpr", [0.5, 1.01])


def test_arrays_are_one_dimensional_finite_and_long_enough():
    assert _validate.finite_array("data", [1, 2.5]).tolist() == [1.0, 2.5]
    for values, message in [
        (["a", "b"], "a sequence of real numbers"),
        ([[1.0, 2.0]], "one-dimensional"),
        ([1.0], "at least 2 values"),
        ([1.0, math.nan], "only finite numbers"),
    ]:
        with pytest.raises(ValueError, match=rf"^data (must|needs) .*{message}"):
            _validate.finite_array("data", values, min_size=2)
    assert _validate.positive_array("scales", [0.1, 3]).tolist() == [0.1, 3.0]
    with pytest.raises(ValueError, match=r"^scales must hold values > 0"):
        _validate.positive_array("scales", [0.1, 0.0])


def test_candidates_are_integers_from_two():
    assert _validate.candidates(2) == 2 and _validate.candidates(np.int64(10)) == 10
    assert type(_validate.candidates(np.int64(10))) is int
    for value in (1, 0, -3, 2.0, True, "3", None):
        with pytest.raises(ValueError, match=r"^k must be an integer >= 2 \(candidates"):
            _validate.candidates(value)
