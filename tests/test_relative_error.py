import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from opendp.accuracy import accuracy_to_laplacian_scale, laplacian_scale_to_accuracy

from choosing_epsilon import relative_error as rel

lists = st.integers(1, 6).flatmap(
    lambda m: st.tuples(
        st.lists(st.floats(0.1, 100), min_size=m, max_size=m),
        st.lists(st.floats(0.01, 1000), min_size=m, max_size=m),
    )
)


def test_paper_examples():
    assert rel.noise_at_probability(0.1, 1, 0.01) == pytest.approx(100 * math.log(10))
    assert rel.mta(1, 0.01, 0.1, 0.1) == pytest.approx(1000 * math.log(10))
    assert rel.uniform_scale([1, 1], 0.01) == pytest.approx(200)
    assert rel.diff_alpha([1, 1], [1, 10], 0.01) == pytest.approx(110)
    assert np.allclose(rel.diff_scales([1, 1], [1, 10], 0.01), [110, 1100])
    assert np.allclose(
        rel.diff_mtas([1, 1], [1, 10], 0.01, 0.1, 0.1), [2532.84, 25328.44], atol=0.01
    )


@given(pair=lists, eps=st.floats(1e-3, 10))
def test_diff_budgets_add_up_to_epsilon(pair, eps):
    deltas, index = pair
    assert rel.diff_epsilons(deltas, index, eps).sum() == pytest.approx(eps, rel=1e-9)


@given(pair=lists, eps=st.floats(1e-3, 10), pr=st.floats(1e-6, 0.999), re=st.floats(1e-3, 1))
def test_one_query_diff_is_equation_6(pair, eps, pr, re):
    deltas, index = pair
    assert rel.diff_mtas(deltas[:1], index[:1], eps, pr, re)[0] == pytest.approx(
        rel.mta(deltas[0], eps, pr, re), rel=1e-9
    )


@given(sens=st.floats(0.01, 100), eps=st.floats(1e-3, 10), pr=st.floats(1e-6, 0.999))
def test_noise_conversions_agree_with_opendp(sens, eps, pr):
    scale = sens / eps
    z = rel.noise_at_probability(pr, sens, eps)
    assert z == pytest.approx(laplacian_scale_to_accuracy(scale, pr), rel=1e-9)
    assert accuracy_to_laplacian_scale(z, pr) == pytest.approx(scale, rel=1e-9)


def test_diff_release_is_seeded_and_scaled():
    a = rel.diff_release(
        [3000, 30000], [1, 1], [1, 10], 0.01, np.random.default_rng(5), size=100_000
    )
    b = rel.diff_release(
        [3000, 30000], [1, 1], [1, 10], 0.01, np.random.default_rng(5), size=100_000
    )
    assert np.array_equal(a, b)
    noise = np.abs(a - [3000, 30000])
    assert np.mean(noise >= [253.28, 2532.84], axis=0) == pytest.approx([0.1, 0.1], abs=0.006)


def test_diff_privacy_loss_is_at_most_epsilon_and_proportional_exceeds_it():
    q, deltas, eps = np.array([3000.0, 30000.0]), [1, 1], 0.01
    scales = rel.diff_scales(deltas, [1, 10], eps)
    outputs = np.column_stack([np.linspace(0, 6000, 301), np.linspace(20000, 40000, 301)])
    for shift in ([1, 1], [-1, 1], [1, 0], [0, -1]):
        assert rel.log_likelihood_ratio(outputs, q, q + shift, scales, scales).max() <= eps * (
            1 + 1e-9
        )
    prop = rel.log_likelihood_ratio(
        outputs * 10,
        q,
        q + 1,
        rel.proportional_scales(q, deltas, eps),
        rel.proportional_scales(q + 1, deltas, eps),
    )
    assert prop.max() > eps


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rel.check_queries([3000, 30000], [1], [1, 1]), "must have the same length"),
        (
            lambda: rel.check_queries([3000, 30000], [1, 0], [1, 1]),
            r"query_index must hold values > 0",
        ),
        (
            lambda: rel.check_queries([3000, 30000], [1, -10], [1, 1]),
            r"query_index must hold values > 0",
        ),
        (lambda: rel.diff_scales([1, 1], [1, 0], 0.01), "index must hold values > 0"),
        (lambda: rel.diff_scales([1, 1], [1], 0.01), "same length"),
        (lambda: rel.noise_at_probability(0, 1, 0.01), r"pr must lie in \(0, 1\)"),
        (lambda: rel.noise_at_probability(1.2, 1, 0.01), r"pr must lie in \(0, 1\)"),
        (lambda: rel.mta(1, 0.01, 0.1, 0), "re must be > 0"),
        (lambda: rel.relative_error(5, 0), "true_answer must be > 0"),
        (
            lambda: rel.diff_release([1, 2, 3], [1, 1], [1, 1], 0.1, np.random.default_rng(0)),
            "same length",
        ),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
