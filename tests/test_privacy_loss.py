"""dp-accounting's privacy loss distributions built and read without its Python loops
(``privacy_loss``): each builder gives the library's own distribution (the same grid of losses,
the same masses, the same mass at infinity, pessimistic), each reading the library's own number,
and the curve's majorant is the least concave one over every test of both directions."""

import numpy as np
import pytest
from dp_accounting.pld import common, pld_pmf, privacy_loss_distribution
from scipy.spatial import ConvexHull

from choosing_epsilon import dpsgd, privacy_loss

# (σ, sampling rate, grid): small σ (a dense grid of ~10^5 points), a large rate, a sparse one,
# a grid finer than the paper's
STEPS = [(0.5, 0.01, 1e-4), (2.0, 0.5, 1e-4), (30.0, 0.01, 1e-4), (5.0, 0.2, 3e-5)]


def _library_step(sigma: float, q: float, grid: float):
    return privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=sigma,
        sampling_prob=q,
        use_connect_dots=True,
        value_discretization_interval=grid,
    )


def _assert_same_distribution(mine, theirs, relative: float = 1.0) -> None:
    """The same grid and masses: each mass within 1e-12, and within ``relative`` × the largest
    mass (the composition, by the half spectrum against the library's full FFT, agrees to about
    1e-15 of it)."""
    for a, b in zip(privacy_loss._pmfs(mine), privacy_loss._pmfs(theirs)):
        assert type(a) is type(b)
        a, b = a.to_dense_pmf(), b.to_dense_pmf()
        assert a._discretization == b._discretization
        assert a._lower_loss == b._lower_loss
        assert len(a._probs) == len(b._probs)
        np.testing.assert_allclose(a._probs, b._probs, rtol=0, atol=1e-12)
        assert np.abs(a._probs - b._probs).max() <= relative * b._probs.max()
        assert a._infinity_mass == pytest.approx(b._infinity_mass, abs=1e-15)
        assert a._pessimistic_estimate and b._pessimistic_estimate


@pytest.mark.parametrize(("sigma", "q", "grid"), STEPS)
def test_one_step_is_dp_accountings_connect_the_dots_distribution(sigma, q, grid):
    _assert_same_distribution(
        privacy_loss.subsampled_gaussian_pld(sigma, q, grid), _library_step(sigma, q, grid)
    )


@pytest.mark.parametrize(("sigma", "q", "steps"), [(0.6, 0.01, 100), (1.0, 0.001, 10_000)])
def test_the_composition_is_dp_accountings_self_composition(sigma, q, steps):
    step = privacy_loss.subsampled_gaussian_pld(sigma, q)
    composed = privacy_loss.pld_self_compose(step, steps)
    _assert_same_distribution(composed, step.self_compose(steps), relative=1e-13)
    for pmf in privacy_loss._pmfs(step):  # the Chernoff bounds on the tails, to the integer
        assert privacy_loss._self_convolve_bounds(
            pmf._probs, steps, privacy_loss.TAIL_MASS_TRUNCATION
        ) == common.compute_self_convolve_bounds(pmf._probs, steps, 1e-15)


@pytest.fixture(scope="module")
def composed():
    """DP-SGD at q = 0.01, 100 steps, σ = 0.7 (dense, both directions), and at σ = 30 (sparse)."""
    return [dpsgd.dpsgd_pld(0.7, 0.01, 100), dpsgd.dpsgd_pld(30.0, 0.01, 100)]


def test_delta_at_many_epsilons_is_dp_accountings(composed):
    for pld in composed:
        epsilons = np.concatenate(
            [np.linspace(0, pld.get_epsilon_for_delta(1e-12) + 1, 501), [np.inf]]
        )
        np.testing.assert_allclose(
            privacy_loss.pld_deltas(pld, epsilons),
            pld.get_delta_for_epsilon(epsilons),
            rtol=1e-12,
            atol=1e-16,
        )
    with pytest.raises(ValueError, match="ascending"):
        privacy_loss.pld_deltas(composed[0], np.array([1.0, 0.5]))


@pytest.mark.parametrize("delta", [1e-12, 1e-10, 1e-5, 0.3, 0.99])
def test_epsilon_at_a_delta_is_dp_accountings(composed, delta):
    for pld in composed:
        assert privacy_loss.pld_epsilon(pld, delta) == pytest.approx(
            pld.get_epsilon_for_delta(delta), rel=1e-12, abs=1e-15
        )


def test_epsilon_is_infinite_where_the_mass_at_infinity_exceeds_delta():
    pmf = pld_pmf.DensePLDPmf(1e-2, -5, np.full(11, 0.09), 0.01, True)
    pld = privacy_loss_distribution.PrivacyLossDistribution(pmf)
    assert privacy_loss.pld_epsilon(pld, 1e-3) == pld.get_epsilon_for_delta(1e-3) == np.inf
    assert privacy_loss.pld_epsilon(pld, 0.5) == pld.get_epsilon_for_delta(0.5) == 0


def test_the_monotone_chain_is_qhulls_majorant_on_points_in_general_position():
    rng = np.random.default_rng(20240702)
    for _ in range(20):
        x = np.sort(rng.uniform(0, 1, 300))
        y = rng.uniform(0, 1, 300)
        hull_x, hull_y = privacy_loss.upper_hull(x, y)
        floor = float(y.min()) - 1.0
        points = np.column_stack([np.r_[x, x[[0, -1]]], np.r_[y, floor, floor]])
        vertices = np.sort(ConvexHull(points).vertices)
        vertices = vertices[vertices < len(x)]
        np.testing.assert_array_equal(hull_x, x[vertices])
        np.testing.assert_array_equal(hull_y, y[vertices])


def test_two_chains_merge_and_the_highest_point_at_a_tie_counts():
    hull_x, hull_y = privacy_loss.upper_hull(
        np.array([0.0, 0.0, 0.5, 1.0]), np.array([0.0, 0.2, 0.6, 1.0]),
        np.array([0.0, 0.25, 0.5, 1.0]), np.array([0.1, 0.5, 0.7, 1.0]),
    )  # fmt: skip
    np.testing.assert_array_equal(hull_x, [0.0, 0.25, 0.5, 1.0])
    np.testing.assert_array_equal(hull_y, [0.2, 0.5, 0.7, 1.0])
    with pytest.raises(ValueError, match="ascend"):
        privacy_loss.upper_hull(np.array([1.0, 0.0]), np.array([0.0, 1.0]))


def test_the_curve_is_never_below_one_directions_tests_at_tiny_fprs():
    """qhull, rounding relative to the unit square, dropped the vertices below FPR 1e-8 or so and
    read the TPR there below one direction's own likelihood-ratio test (4e-5 too low at FPR 1e-15,
    q = 0.01, 100 steps, σ = 0.3), which no curve of the mechanism can be. The monotone chain keeps
    every vertex."""
    pld = dpsgd.dpsgd_pld(0.3, 0.01, 100)
    alphas = np.array([1e-15, 1e-13, 1e-10, 1e-8, 1e-6])
    read = privacy_loss.pld_tpr(pld, alphas)
    for pmf in privacy_loss._pmfs(pld):
        assert np.all(read >= np.interp(alphas, *privacy_loss.pld_direction_points(pmf)))
    assert read[0] == pytest.approx(6.344873e-05, rel=1e-6)
