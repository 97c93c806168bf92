import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from opendp.accuracy import gaussian_scale_to_accuracy, laplacian_scale_to_accuracy
from scipy import stats

from choosing_epsilon import confidence as cf

probabilities = st.floats(0.01, 0.999)


@given(p1=probabilities, p2=probabilities, c=st.floats(0.1, 100), sens=st.floats(0.01, 10))
def test_theorem2_epsilon_rises_with_p(p1, p2, c, sens):
    lo, hi = sorted((p1, p2))
    assert cf.theorem2_epsilon_laplace(sens, c, lo) <= cf.theorem2_epsilon_laplace(sens, c, hi)


@given(p=probabilities, c=st.floats(0.1, 100), sens=st.floats(0.01, 10))
def test_theorem2_is_exact_and_agrees_with_opendp(p, c, sens):
    eps = cf.theorem2_epsilon_laplace(sens, c, p)
    assert cf.coverage(eps, c, sens) == pytest.approx(p, abs=1e-9)
    assert laplacian_scale_to_accuracy(sens / eps, 1 - p) == pytest.approx(c, rel=1e-9)


@pytest.mark.parametrize("p", [0.3, 0.9, 0.99])
def test_general_theorem2_matches_closed_forms_and_opendp(p):
    assert cf.theorem2_epsilon(1.0, 10.0, p) == pytest.approx(cf.theorem2_epsilon_laplace(1.0, 10.0, p), rel=1e-9)
    eps_gauss = cf.theorem2_epsilon(3.0, 10.0, p, stats.norm)
    assert eps_gauss == pytest.approx(3.0 * stats.norm.ppf((1 + p) / 2) / 10.0, rel=1e-9)
    assert gaussian_scale_to_accuracy(3.0 / eps_gauss, 1 - p) == pytest.approx(10.0, rel=1e-6)


def test_quadrature_matches_closed_form():
    for eps in (0.01, 0.3, 5.0):
        assert cf.integrated_coverage(eps, 2.0, 1.0) == pytest.approx(1 - math.exp(-2.0 * eps), abs=1e-10)


def test_threshold_and_theorem3_failure():
    threshold = cf.ratio_threshold()
    assert threshold == pytest.approx(1 - math.exp(-(1 + math.sqrt(1 + 2 * math.log(2)))), abs=1e-12)
    assert cf.coverage(cf.theorem3_epsilon(1, 10, 0.9), 10, 1) > 0.9
    assert cf.coverage(cf.theorem3_epsilon(1, 10, 0.99), 10, 1) == pytest.approx(0.9614, abs=1e-4)


@given(p=probabilities, w=st.floats(0.01, 0.99), q=st.floats(1, 1e4))
def test_theorem1_value_is_a_lower_bound_that_chebyshev_certifies(p, w, q):
    eps = cf.theorem1_epsilon(1.0, w, q, p)
    assert cf.coverage(eps, w * q, 1.0) >= p - 1e-12  # at the value: Chebyshev's guarantee holds


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cf.theorem2_epsilon_laplace(1, 10, 1.0), r"p must lie in \(0, 1\)"),
        (lambda: cf.theorem2_epsilon_laplace(1, 10, 0.0), r"p must lie in \(0, 1\)"),
        (lambda: cf.theorem3_epsilon(1, 0, 0.9), "c must be > 0"),
        (lambda: cf.theorem3_epsilon(1, -2, 0.9), "c must be > 0"),
        (lambda: cf.theorem1_epsilon(1, 1.5, 100, 0.9), r"w must lie in \(0, 1\)"),
        (lambda: cf.theorem1_epsilon(1, 0, 100, 0.9), r"w must lie in \(0, 1\)"),
        (lambda: cf.ratio(np.array([0.5, 1.0])), r"p must lie in \(0, 1\)"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
