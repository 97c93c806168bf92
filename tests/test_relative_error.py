import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from opendp.accuracy import accuracy_to_laplacian_scale, laplacian_scale_to_accuracy

from choosing_epsilon import laplace
from choosing_epsilon import relative_error as rel
from choosing_epsilon.papers.shoaran_2012 import steps

lists = st.integers(1, 6).flatmap(
    lambda m: st.tuples(
        st.lists(st.floats(0.1, 100), min_size=m, max_size=m),
        st.lists(st.floats(0.01, 1000), min_size=m, max_size=m),
    )
)


def test_paper_examples():
    assert laplace.noise_at_probability(0.1, 1, 0.01) == pytest.approx(100 * math.log(10))
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
    z = laplace.noise_at_probability(pr, sens, eps)
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
        (lambda: laplace.noise_at_probability(0, 1, 0.01), r"pr must lie in \(0, 1\)"),
        (lambda: laplace.noise_at_probability(1.2, 1, 0.01), r"pr must lie in \(0, 1\)"),
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


# --- the notebook's steps, at the paper's parameters: the values the notebook printed and saved ---

SIMULATION_SEED = 20120827  # the notebook's seed: its simulation is the first draw of the run


def test_noise_curves_are_equation_4_per_epsilon():
    curves = steps.noise_curves([0.01, 0.5, 0.3], 1, [0.01, 0.05])
    assert list(curves.columns) == ["pr", "z_eps_0.01", "z_eps_0.05"]
    assert curves["z_eps_0.01"].tolist() == pytest.approx([460.5170186, 69.31471806, 120.3972804])
    assert curves["z_eps_0.05"].tolist() == pytest.approx(
        [laplace.noise_at_probability(p, 1, 0.05) for p in (0.01, 0.5, 0.3)]
    )


def test_the_two_readings_of_figure_2_are_one_curve():
    against_eps = steps.mta_against_epsilon([0.001, 0.01], 1, [0.1, 0.5], 0.1)
    assert list(against_eps.columns) == ["epsilon", "mta_pr_0.1", "mta_pr_0.5"]
    assert against_eps["mta_pr_0.1"].tolist() == pytest.approx([23025.85093, 2302.585093])
    against_re = steps.mta_against_re([0.01, 0.1, 1.0], 1, 0.1, [0.1, 0.5])
    assert list(against_re.columns) == ["re", "mta_pr_0.1", "mta_pr_0.5"]
    # at ε = 0.1 and re = 0.01 the product is Example 1's ε·re = 0.001: the same MTA
    assert against_re["mta_pr_0.1"].iloc[0] == pytest.approx(rel.mta(1, 0.01, 0.1, 0.1))
    steps.check_second_reading(against_re, 1, 0.1, 0.1, 0.1)
    wrong = against_re.assign(**{"mta_pr_0.1": against_re["mta_pr_0.1"] * 1.01})
    with pytest.raises(RuntimeError, match=r"Eq\. \(6\) is mis-implemented"):
        steps.check_second_reading(wrong, 1, 0.1, 0.1, 0.1)


def test_first_two_gives_nan_for_a_missing_second_query():
    assert steps.first_two(np.array([110.0, 1100.0])) == (110.0, 1100.0)
    first, second = steps.first_two([2532.8])
    assert first == 2532.8 and math.isnan(second)


def test_diff_budgets_are_checked_to_add_up_to_epsilon():
    steps.check_diff_budgets(rel.diff_epsilons([1, 1], [1, 10], 0.01), 0.01)
    with pytest.raises(RuntimeError, match=r"add up to 0\.011, not ε = 0\.01"):
        steps.check_diff_budgets([0.01, 0.001], 0.01)


def test_example_3_table():
    scales = rel.diff_scales([1, 1], [1, 10], 0.01)
    noise = scales * math.log(10)
    mtas = rel.diff_mtas([1, 1], [1, 10], 0.01, 0.1, 0.1)
    errors = rel.relative_error(noise, [3000.0, 30000.0])
    eps = rel.diff_epsilons([1, 1], [1, 10], 0.01)
    table = steps.diff_table([3000.0, 30000.0], [1, 10], scales, eps, noise, mtas, errors)
    assert list(table.columns) == [
        "q_i(D)",
        "γ_i",
        "λ_i",
        "ε_i",
        "z_i at pr",
        "MTA_i",
        "RE_i at z_i",
        "answer ≥ MTA",
    ]
    assert table["γ_i"].dtype.kind == "i"  # the index as given: printed 1 and 10, not 1.0
    assert table["ε_i"].tolist() == pytest.approx([0.009090909091, 0.0009090909091])
    assert table["z_i at pr"].tolist() == pytest.approx([253.2843602, 2532.843602])
    assert table["RE_i at z_i"].tolist() == pytest.approx([0.08442812008] * 2)
    assert table["answer ≥ MTA"].tolist() == [True, True]


def test_simulation_table_reproduces_the_notebook_counts():
    mechanisms = {"uniform": np.array([200.0, 200.0]), "DIFF": np.array([110.0, 1100.0])}
    table = steps.simulation_table(
        [3000.0, 30000.0], mechanisms, 0.1, 0.1, 200_000, np.random.default_rng(SIMULATION_SEED)
    )
    assert table.mechanism.tolist() == ["uniform", "uniform", "DIFF", "DIFF"]
    assert table["within re (simulated)"].tolist() == [0.776785, 1.0, 0.9335, 0.934125]
    assert table["within re (exact)"].tolist() == pytest.approx(
        [0.7768698399, 0.9999996941, 0.9346025968, 0.9346025968]
    )
    assert table["answer ≥ MTA"].tolist() == [False, True, True, True]
    assert (table["promised at the MTA"] == 0.9).all()


def test_simulation_table_refuses_a_count_that_does_not_match_its_probability():
    # scales ten times too large for their label: the exact probability is right, the draws are not
    class Misdrawn(np.random.Generator):
        def laplace(self, loc=0.0, scale=1.0, size=None):
            return super().laplace(loc, 10 * scale, size)

    with pytest.raises(RuntimeError, match=r"uniform, q = 3000: .* the simulation does not match"):
        steps.simulation_table(
            [3000.0], {"uniform": [200.0]}, 0.1, 0.1, 20_000, Misdrawn(np.random.PCG64(1))
        )


def test_privacy_loss_table_and_its_summary():
    table = steps.privacy_loss_table([3000.0, 30000.0], [1, 1], [1, 10], 0.01)
    assert table["grid half-width (scales)"].tolist() == [5, 20, 100]
    assert table["worst ln-ratio, DIFF"].tolist() == pytest.approx([0.01] * 3, rel=1e-9)
    assert table["worst ln-ratio, proportional"].tolist() == pytest.approx(
        [0.01136672277, 0.01636672277, 0.04303338943]
    )
    assert set(table["proportional worst case"]) == {"exact"}
    assert steps.privacy_loss_summary(table, 0.01) == (
        "DIFF: worst ln-ratio 0.01 ≤ ε = 0.01; proportional: 4.30334 × ε on the widest grid, "
        "growing with the grid"
    )


def test_privacy_loss_summary_says_when_proportional_noise_vanishes():
    table = steps.privacy_loss_table([0.5, 30000.0], [1, 1], [1, 10], 1000.0)
    assert np.isinf(table["worst ln-ratio, proportional"]).all()
    assert steps.privacy_loss_summary(table, 1000.0).endswith(
        "\na neighbour's answer q_i - Δ(q_i) is ≤ 0: noise proportional to it vanishes, "
        "and no ε bounds a noiseless release"
    )
