"""The trade-off curve read directly off a dp-accounting privacy loss distribution
(``privacy_loss.pld_tpr``), tested from both sides against curves known in closed form, against
dp-accounting's own δ(ε), and beside riskcal 1.5.1's Algorithm 1, which understates the TPR of
DP-SGD at the paper's setting (the minimal reproduction below)."""

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution
from riskcal.analysis import get_advantage_from_pld, get_beta_from_pld
from scipy import optimize, stats

from choosing_epsilon import calibration as cal
from choosing_epsilon import dpsgd, privacy_loss

FPRS = np.array([1e-9, 1e-6, 1e-4, 0.01, 0.1, 0.5, 0.9])


def test_composed_gaussian_reads_as_its_exact_curve_from_above():
    # 100 steps of σ = 10 compose to μ-GDP with μ = 1: TPR = Φ(Φ⁻¹(α) + 1); the pessimistic
    # (connect-the-dots) distribution may only overstate it, and by its discretisation alone
    pld = privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=10.0, use_connect_dots=True, value_discretization_interval=1e-4
    ).self_compose(100)
    exact = stats.norm.cdf(stats.norm.ppf(FPRS) + 1.0)
    read = privacy_loss.pld_tpr(pld, FPRS)
    assert np.all(read >= exact)
    assert np.all(read - exact <= 2e-7)


def _subsampled_step_exact(q: float, sigma: float, alphas: np.ndarray) -> np.ndarray:
    """One Poisson-subsampled Gaussian step: the least concave majorant of both directions'
    likelihood-ratio tests, each traced exactly by its threshold t."""
    t = np.linspace(-40, 40, 400_001) * sigma
    # with the record (P) against without (Q): accuse when y > t
    fpr_remove = stats.norm.sf(t / sigma)
    tpr_remove = (1 - q) * fpr_remove + q * stats.norm.sf((t - 1) / sigma)
    # the reverse: accuse "without" when y < t
    fpr_add = (1 - q) * stats.norm.cdf(t / sigma) + q * stats.norm.cdf((t - 1) / sigma)
    tpr_add = stats.norm.cdf(t / sigma)
    x = np.concatenate([fpr_remove, fpr_add, [0.0, 1.0]])
    y = np.concatenate([tpr_remove, tpr_add, [0.0, 1.0]])
    order = np.lexsort((-y, x))
    hull_x, hull_y = privacy_loss.upper_hull(x[order], y[order])
    return np.interp(alphas, hull_x, hull_y)


@pytest.mark.parametrize(("q", "sigma"), [(0.5, 1.0), (0.01, 0.7)])
def test_one_subsampled_step_reads_as_its_exact_symmetrised_curve(q, sigma):
    pld = privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=sigma,
        sampling_prob=q,
        use_connect_dots=True,
        value_discretization_interval=1e-4,
    )
    alphas = FPRS[2:]
    exact = _subsampled_step_exact(q, sigma, alphas)
    read = privacy_loss.pld_tpr(pld, alphas)
    assert np.all(read >= exact - 1e-9)  # the exact curve's own grid of thresholds: 1e-9
    assert np.all(read - exact <= 1e-6)


@pytest.fixture(scope="module")
def paper_dpsgd():
    """DP-SGD at Kulynych et al.'s setting (q = 0.001, T = 10,000), σ = 0.9, grid 1e-4."""
    return dpsgd.dpsgd_pld(0.9, 0.001, 10_000)


def test_dpsgd_curve_is_dp_accountings_own_delta_turned_into_a_curve(paper_dpsgd):
    # TPR(α) = inf over ε of δ(ε) + e^ε α (the conjugate of the privacy profile; convex in e^ε, so
    # a bounded scalar search finds it): an independent route through dp-accounting's δ(ε), from
    # above
    top = float(paper_dpsgd.get_epsilon_for_delta(1e-12)) + 1
    for a in (0.001, 0.01, 0.05, 0.1):
        conjugate = optimize.minimize_scalar(
            lambda e, a=a: float(paper_dpsgd.get_delta_for_epsilon(e)) + np.exp(e) * a,
            bounds=(0, top),
            method="bounded",
            options={"xatol": 1e-9},
        ).fun
        read = privacy_loss.pld_tpr(paper_dpsgd, a)
        assert read <= conjugate + 1e-12
        assert read == pytest.approx(conjugate, rel=1e-9)


def test_riskcal_understates_dpsgds_tpr_at_the_papers_setting(paper_dpsgd):
    """The minimal reproduction of riskcal 1.5.1's error: at FPR 0.01 its TPR lies below that of
    a likelihood-ratio test of one direction of the same distribution (with the record against
    without), which no trade-off curve of the mechanism can do; at FPR 1e-4 it returns a TPR below
    the FPR itself. Read directly, the curve also converges as the grid refines (0.0151703 at
    1e-4, 0.0151685 at 3e-5, 0.0151684 at 1e-5) where riskcal's falls (0.014948, 0.012642, 0)."""
    one_direction = privacy_loss.pld_direction_points(paper_dpsgd._pmf_remove)
    at_001 = float(np.interp(0.01, *one_direction))
    riskcal_001 = 1 - float(get_beta_from_pld(paper_dpsgd, alpha=0.01))
    assert at_001 == pytest.approx(0.0151703, abs=1e-7)
    assert riskcal_001 < at_001 - 2e-4
    assert privacy_loss.pld_tpr(paper_dpsgd, 0.01) >= at_001
    assert 1 - float(get_beta_from_pld(paper_dpsgd, alpha=1e-4)) < 1e-4
    assert privacy_loss.pld_tpr(paper_dpsgd, 1e-4) > 1e-4


def test_riskcals_advantage_is_dp_accountings_delta_at_zero(paper_dpsgd):
    # Eq. (11): the advantage is δ(0); riskcal's reading of it holds, and is the curve's largest
    # TPR − FPR
    delta_zero = float(paper_dpsgd.get_delta_for_epsilon(0.0))
    assert float(get_advantage_from_pld(paper_dpsgd)) == pytest.approx(delta_zero, rel=1e-12)
    alphas = np.linspace(0, 1, 100_001)
    largest = float(np.max(privacy_loss.pld_tpr(paper_dpsgd, alphas) - alphas))
    assert largest <= delta_zero + 1e-12
    assert largest == pytest.approx(delta_zero, rel=1e-6)


def test_a_fpr_outside_the_unit_interval_is_refused(paper_dpsgd):
    with pytest.raises(ValueError, match="fprs must lie in"):
        privacy_loss.pld_tpr(paper_dpsgd, 1.5)


# --- the grid DP-SGD is accounted on: the paper's 1e-4, or one step's spread where finer --------


def test_the_grid_is_the_papers_until_one_steps_loss_is_narrower():
    """At the paper's setting (p = 0.001) the grid stays 1e-4 for every σ up to 10.02 (1/√ln 1.01;
    every noise of the paper's own grid, up to 7.9); beyond, one step's spread q·√(e^(1/σ²) − 1)."""
    for sigma in (0.3, 1.0, 7.9, 10.02):
        assert dpsgd.dpsgd_grid(sigma, 0.001) == 1e-4
    for sigma in (10.03, 70.0, 1e4):
        spread = 0.001 * np.sqrt(np.expm1(sigma**-2.0))
        assert dpsgd.dpsgd_grid(sigma, 0.001) == pytest.approx(spread, rel=1e-12)
        assert spread < 1e-4
    assert dpsgd.dpsgd_grid(2.0, 0.5, grid_step=1e-2) == 1e-2
    with pytest.raises(ValueError, match="sample_rate"):
        dpsgd.dpsgd_grid(1.0, 1.5)


def _optimistic_epsilon(sigma: float, q: float, steps: int, grid: float, delta: float) -> float:
    """dp-accounting's optimistic estimate (privacy buckets rounded down): a lower bound on ε."""
    pld = privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=sigma,
        sampling_prob=q,
        pessimistic_estimate=False,
        value_discretization_interval=grid,
    ).self_compose(steps)
    return float(pld.get_epsilon_for_delta(delta))


def test_a_grid_coarser_than_one_step_overstates_epsilon_without_bound():
    """At p = 0.0005, T = 20,000, δ = 1e-10, σ = 40 (issue 54's reader): ε lies between
    dp-accounting's optimistic estimate on a grid of a hundredth of one step's spread (below) and
    the pessimistic one (above), which converges from above as the grid refines: on the grid of
    ``dpsgd_grid`` (one spread) it is within 10% of that on a sixteenth of it, and both within
    20% of the lower bound. The paper's grid of 1e-4, eight times coarser than one step's spread
    here, states more than twice as much."""
    q, steps, delta, sigma = 0.0005, 20000, 1e-10, 40.0
    spread = dpsgd.step_spread(sigma, q)
    below = _optimistic_epsilon(sigma, q, steps, spread / 100, delta)
    above = float(dpsgd.dpsgd_pld(sigma, q, steps).get_epsilon_for_delta(delta))
    coarse = float(dpsgd.dpsgd_pld(sigma, q, steps, grid_step=1e-4).get_epsilon_for_delta(delta))
    fine = privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=sigma,
        sampling_prob=q,
        use_connect_dots=True,
        value_discretization_interval=spread / 16,
    ).self_compose(steps)
    converged = float(fine.get_epsilon_for_delta(delta))
    assert below <= converged <= above <= 1.1 * converged
    assert converged <= 1.2 * below
    assert coarse == above  # grid_step is the coarsest grid: dpsgd_pld refines it itself
    paper = privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=sigma,
        sampling_prob=q,
        use_connect_dots=True,
        value_discretization_interval=1e-4,
    ).self_compose(steps)
    assert float(paper.get_epsilon_for_delta(delta)) > 2 * above


def test_the_readers_standard_calibration_is_found_and_bracketed():
    """The calibration that stopped issue 54's reader: ε* = 0.008 at δ = 1e-10 (the later grid's
    advantage 0.004), p = 0.0005, T = 20,000. It needs σ near 47, and the σ found meets it with
    less than 2 × the tolerance to spare, read back from a distribution composed anew."""
    setting = dpsgd.DpsgdSetting(0.0005, 20000, 1e-10, (0.01,))
    sigma = dpsgd.DpsgdAccountant(setting).calibrate("epsilon", 0.008)
    assert 40 < sigma < 60
    dpsgd._composed.cache_clear()
    fresh = dpsgd.DpsgdAccountant(setting)
    assert fresh.measure("epsilon", sigma) <= 0.008 - privacy_loss.ACCOUNTANT_MARGIN
    assert fresh.measure("epsilon", sigma * (1 - 2 * cal.CALIBRATION_RTOL)) > 0.008
