"""dp-accounting's privacy loss distributions (Meiser & Mohammadi 2018; Doroshenko et al. 2022's
connect-the-dots discretisation), built and read without its Python loops: the single step of
DP-SGD (the Poisson-subsampled Gaussian) and its self-composition, δ(ε) and ε(δ), each the same
distribution and the same number as the library's (pinned by tests/test_privacy_loss.py), and the
trade-off curve read directly, both directions' likelihood-ratio tests under their least concave
majorant (Dong, Roth & Su 2022, App. F). The accountants that use them: ``dpsgd`` and
``composition``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._validate import open_unit, positive

# how far below its target a DP-SGD calibration's risk is held, absolute: dp-accounting composes
# the privacy loss distribution by FFT, whose last bits follow the CPU's SIMD code path (measured
# between AVX-512 and numpy's baseline paths: up to 1.3e-8 in a trade-off curve, 1.1e-9 relative in
# ε), so a noise that meets its target less 1e-7 on one CPU meets the target on any other
ACCOUNTANT_MARGIN = 1e-7
# the precision at which an accountant's error rates (FNR, TPR, read off its trade-off curve) are
# reproducible on every CPU, in decimals: about 8 times the code paths' spread above, and far finer
# than the discretisation's own error (at the paper's grid 1e-4, riskcal's curve for a GPT-2 run
# lies up to 1e-2 below the one at 1e-5, on the safe side); its ε, relative, agrees to the 1e-7 of
# ``harness.compare.REL_TOL``
ACCOUNTANT_DECIMALS = 7


def round_reproducibly(rates: float | np.ndarray) -> float | np.ndarray:
    """Error rates read off an accountant's curve, rounded to ``ACCOUNTANT_DECIMALS`` decimals:
    the digits that are the same on every CPU (beyond them the FFT's last bits differ between code
    paths, and a value on a rounding boundary moves by one unit of the last decimal kept)."""
    rounded = np.round(np.asarray(rates, dtype=float), ACCOUNTANT_DECIMALS)
    return float(rounded) if rounded.ndim == 0 else rounded


# --- the trade-off curve of a privacy loss distribution, read directly ----------------------


def pld_direction_points(pmf: Any) -> tuple[np.ndarray, np.ndarray]:
    """The (FPR, TPR) vertices of one direction's likelihood-ratio tests: accusing when the
    privacy loss L exceeds a threshold, the TPR is the mass of {L > t} under the first
    distribution (with the mass at infinity) and the FPR its mass under the second, e^(−l) times
    the first's at each loss l. Both sums run down from the largest loss, where e^(−l) is small:
    the reading is exact for the distribution dp-accounting holds."""
    dense = pmf.to_dense_pmf()
    # the composition's FFT leaves masses of ±1e-25 or so where there are none: a negative one
    # is read as 0 (e^(−l) would blow it up at a very negative loss l)
    probs = np.maximum(np.asarray(dense._probs, dtype=float), 0.0)[::-1]
    # the losses rise with the index: from the largest down is the reverse order
    losses = (dense._lower_loss + np.arange(len(probs) - 1, -1, -1)) * dense._discretization
    fpr = np.concatenate([[0.0], np.cumsum(np.exp(-losses) * probs), [1.0]])
    tpr = dense._infinity_mass + np.concatenate([[0.0], np.cumsum(probs)])
    tpr = np.concatenate([tpr, [1.0]])
    keep = fpr <= 1.0  # a pessimistic distribution's masses may sum a hair above 1
    return fpr[keep], np.minimum(tpr[keep], 1.0)


def _hull_of_chains(
    x1: np.ndarray, y1: np.ndarray, x2: np.ndarray, y2: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled by numba (``_hull_kernel``)
    """Andrew's monotone chain (upper part) over two point sequences, each in ascending x, merged
    as it goes: a point enters after every point of lower x; of points with equal x only the
    highest is kept; a vertex is dropped when it lies on or under the segment joining its
    neighbours (the cross product of the turn is ≥ 0). One pass, O(n)."""
    n1, n2 = len(x1), len(x2)
    hx = np.empty(n1 + n2)
    hy = np.empty(n1 + n2)
    top = 0
    i = j = 0
    while i < n1 or j < n2:
        if j >= n2 or (i < n1 and x1[i] <= x2[j]):
            px, py = x1[i], y1[i]
            i += 1
        else:
            px, py = x2[j], y2[j]
            j += 1
        if top > 0 and hx[top - 1] == px:
            if py <= hy[top - 1]:
                continue
            top -= 1
        while top >= 2:
            ox, oy, ax, ay = hx[top - 2], hy[top - 2], hx[top - 1], hy[top - 1]
            if (ax - ox) * (py - oy) - (ay - oy) * (px - ox) >= 0.0:
                top -= 1
            else:
                break
        hx[top] = px
        hy[top] = py
        top += 1
    return hx[:top].copy(), hy[:top].copy()


@functools.cache
def _hull_kernel() -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """``_hull_of_chains`` compiled by numba (on first use: importing numba takes about a second;
    the compiled code is cached beside the module)."""
    from numba import njit

    return njit(cache=True)(_hull_of_chains)


def upper_hull(
    x: np.ndarray, y: np.ndarray, x2: np.ndarray | None = None, y2: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The vertices of the least concave majorant of the points (x, y), x ascending (of points
    with equal x the highest counts), and of a second such sequence (x2, y2) if given: Andrew's
    monotone chain over the two merged in order, in one pass."""
    empty = np.empty(0)
    arrays = [
        np.ascontiguousarray(a, dtype=float)
        for a in (x, y, empty if x2 is None else x2, empty if y2 is None else y2)
    ]
    for a, b in (arrays[:2], arrays[2:]):
        if len(a) != len(b) or np.any(np.diff(a) < 0):
            raise ValueError("x must ascend and match y in length")
    return _hull_kernel()(*arrays)


def pld_tpr(pld: Any, fprs: float | np.ndarray) -> float | np.ndarray:
    """The TPR of the most powerful membership test at each FPR α, read directly off a
    dp-accounting privacy loss distribution: the least concave majorant of both directions'
    likelihood-ratio tests (the symmetrised curve of Dong, Roth & Su, App. F, which riskcal's
    Algorithm 1 also computes), so 1 − TPR is the trade-off curve f(α). The FPR of each test is
    summed from the largest loss down, where it is small, so the reading keeps its precision
    however many steps were composed (riskcal 1.5.1 loses it: tests/test_pld_curve.py)."""
    alphas = np.asarray(fprs, dtype=float)
    if np.any((alphas < 0) | (alphas > 1)):
        raise ValueError(f"fprs must lie in [0, 1], got {fprs!r}")
    points = [pld_direction_points(pmf) for pmf in {id(p): p for p in _pmfs(pld)}.values()]
    hull_x, hull_y = upper_hull(*points[0], *(points[1] if len(points) == 2 else (None, None)))
    values = np.interp(alphas, hull_x, hull_y)
    return float(values) if values.ndim == 0 else values


def pld_deltas(pld: Any, epsilons: np.ndarray) -> np.ndarray:
    """dp-accounting's ``get_delta_for_epsilon`` of a privacy loss distribution at ascending ε:
    δ(ε) = the mass at infinity + Σ over losses l > ε of p(l)·(1 − e^(ε − l)), the larger of the
    two directions. The library sums both masses from the largest loss down in a Python loop
    over the losses; here the same sums, in the same order, are cumulative sums, read at each ε
    (tests/test_privacy_loss.py pins the two equal)."""
    eps = np.asarray(epsilons, dtype=float)
    if eps.ndim != 1 or np.any(np.diff(eps) < 0):
        raise ValueError("epsilons must be a 1-d array in ascending order")
    values = [_pmf_deltas(pmf, eps) for pmf in {id(p): p for p in _pmfs(pld)}.values()]
    return values[0] if len(values) == 1 else np.maximum(values[0], values[1])


def _pmf_deltas(pmf: Any, eps: np.ndarray) -> np.ndarray:
    from dp_accounting.pld import pld_pmf

    if not isinstance(pmf, pld_pmf.DensePLDPmf):  # a sparse one is small: the library's own
        return np.asarray(pmf.get_delta_for_epsilon(eps), dtype=float)
    probs = pmf._probs[::-1]
    losses = (np.arange(len(probs)) + pmf._lower_loss) * pmf._discretization
    upper = np.cumsum(np.concatenate([[pmf._infinity_mass], probs]))
    lower = np.cumsum(np.concatenate([[0.0], probs * np.exp(-losses[::-1])]))
    above = len(probs) - np.searchsorted(losses, eps, side="right")  # how many losses exceed ε
    with np.errstate(invalid="ignore", over="ignore"):  # at ε = ∞: the mass at infinity, below
        deltas = upper[above] - np.exp(eps) * lower[above]
    deltas[np.isposinf(eps)] = pmf._infinity_mass
    return deltas


def pld_epsilon(pld: Any, delta: float) -> float:
    """dp-accounting's ``get_epsilon_for_delta`` of a privacy loss distribution: the least ε ≥ 0
    whose δ(ε) is at most ``delta``, the larger of the two directions (∞ if the mass at infinity
    exceeds δ). The library walks the losses down from the largest in a Python loop until the
    masses above a loss give an ε at or above it; here the same sums, in the same order, are
    cumulative sums and the walk's stopping point is found among them at once (pinned equal to
    the library's by tests/test_privacy_loss.py)."""
    d = float(delta)
    values = [_pmf_epsilon(pmf, d) for pmf in {id(p): p for p in _pmfs(pld)}.values()]
    return max(values)


def _pmf_epsilon(pmf: Any, delta: float) -> float:
    from dp_accounting.pld import pld_pmf

    if not isinstance(pmf, pld_pmf.DensePLDPmf):
        return float(pmf.get_epsilon_for_delta(delta))
    if pmf._infinity_mass > delta:
        return math.inf
    probs = pmf._probs[::-1]
    n = len(probs)
    top = (pmf._lower_loss + n - 1) * pmf._discretization
    # the losses as the library counts them down: the top less the grid step, n − 1 times
    losses = np.cumsum(np.concatenate([[top], np.full(n - 1, -pmf._discretization)]))
    upper = np.cumsum(np.concatenate([[pmf._infinity_mass], probs]))  # [k]: the masses above
    lower = np.cumsum(np.concatenate([[0.0], np.exp(-losses) * probs]))  # loss k, before it
    with np.errstate(divide="ignore", invalid="ignore"):
        at = np.log((upper[:n] - delta) / lower[:n])  # the ε the masses above give
        stops = (upper[:n] > delta) & (lower[:n] > 0) & (at >= losses)
    ends = (upper[1:] >= delta) & (lower[1:] == 0)  # a loss so large that e^(−l) is 0
    stop = int(np.argmax(stops)) if stops.any() else n
    end = int(np.argmax(ends)) if ends.any() else n
    if end < stop:
        return max(0.0, float(losses[end]))
    mass_upper, mass_lower = float(upper[stop]), float(lower[stop])
    if mass_upper <= mass_lower + delta:
        return 0.0
    return math.log((mass_upper - delta) / mass_lower)


def _pmfs(pld: Any) -> tuple[Any, Any]:
    """The two directions of a dp-accounting privacy loss distribution (remove, add)."""
    return pld._pmf_remove, pld._pmf_add


# --- building them: one step of DP-SGD and its composition --------------------------------------

# the mass the composition may drop from each tail (dp-accounting's default for self_compose)
TAIL_MASS_TRUNCATION = 1e-15


def pld_self_compose(pld: Any, num_times: int) -> Any:
    """dp-accounting's ``pld.self_compose(num_times)``: each direction's masses convolved with
    themselves by FFT, the result kept between Chernoff bounds on its tails (40 moment-generating
    orders, ``common.compute_self_convolve_bounds``) and the truncated mass counted at infinity.
    The library spends most of the time in those bounds (40 calls of scipy's logsumexp over the
    whole distribution); here each moment is one exponential and one dot product, the bounds
    rounded as the library rounds them, and the FFT is the library's, taken on the real half
    spectrum (the distributions agree: tests/test_privacy_loss.py)."""
    from dp_accounting.pld import privacy_loss_distribution

    if not isinstance(num_times, (int, np.integer)) or num_times < 1:
        raise ValueError(f"num_times must be an integer >= 1, got {num_times!r}")
    unique = {id(p): p for p in _pmfs(pld)}.values()  # one if symmetric
    pmfs = [_pmf_self_compose(pmf, int(num_times)) for pmf in unique]
    return privacy_loss_distribution.PrivacyLossDistribution(*pmfs)


def _pmf_self_compose(pmf: Any, num_times: int) -> Any:
    from dp_accounting.pld import pld_pmf
    from scipy import fft

    if not isinstance(pmf, pld_pmf.DensePLDPmf):  # a sparse one is small: the library's own
        return pmf.self_compose(num_times, TAIL_MASS_TRUNCATION)
    probs = pmf._probs
    lower_bound, upper_bound = _self_convolve_bounds(probs, num_times, TAIL_MASS_TRUNCATION)
    length = upper_bound - lower_bound + 1
    fast = fft.next_fast_len(max(length, len(probs)))
    # the masses are real: the half spectrum (rfft) holds the transform, and the power, the
    # costliest step, is taken on half as many points as the library's full fft
    convolved = fft.irfft(fft.rfft(probs, fast) ** num_times, fast)
    convolved = np.roll(convolved, -lower_bound)[:length]
    infinity = TAIL_MASS_TRUNCATION - math.expm1(num_times * math.log1p(-pmf._infinity_mass))
    return pld_pmf.DensePLDPmf(
        pmf._discretization,
        pmf._lower_loss * num_times + lower_bound,
        np.array(convolved),
        infinity,
        pmf._pessimistic_estimate,
    )


def _self_convolve_bounds(probs: np.ndarray, num_times: int, tail: float) -> tuple[int, int]:
    """``common.compute_self_convolve_bounds``: for each order o = ±1..20 / n, the log of the
    moment-generating function Σ p_i e^(i·o), shifted by its largest exponent among the nonzero
    masses as logsumexp does, turned into a Chernoff bound on each tail of the n-fold sum and
    rounded outward as the library rounds it. The weights e^((i − i*)·k/n) of order k are those of
    order 1 raised to the k-th power, one product per order instead of an exponential: they agree
    with the library's to a few units in the last place, far below the distance of a bound from
    the next integer (tests/test_privacy_loss.py checks the bounds equal)."""
    n = len(probs)
    upper, lower = (n - 1) * num_times, 0
    nonzero = np.flatnonzero(probs)
    if tail == 0 or not len(nonzero):
        return lower, upper
    offset = math.log(2 / tail)
    index = np.arange(n, dtype=float)
    for sign, top in ((1, int(nonzero[-1])), (-1, int(nonzero[0]))):
        step = np.exp((index - top) * (sign / n))  # e^((i − i*)·o) at o = ±1/n
        weighted = np.array(probs, dtype=float)
        for k in range(1, 21):
            weighted *= step
            order = sign * k / n
            log_mgf = top * order + math.log(float(weighted.sum()))
            bound = (num_times * log_mgf + offset) / order
            if not math.isfinite(bound):
                continue
            if sign > 0:
                upper = min(upper, math.ceil(bound))
            else:
                lower = max(lower, math.floor(bound))
    return lower, upper


def subsampled_gaussian_pld(sigma: float, sample_rate: float, grid: float = 1e-4) -> Any:
    """One step of DP-SGD, the Poisson-subsampled Gaussian mechanism (sensitivity 1, add/remove),
    as dp-accounting's ``from_gaussian_mechanism(sigma, sampling_prob=sample_rate,
    use_connect_dots=True, value_discretization_interval=grid)`` builds it (pessimistic
    connect-the-dots, Doroshenko et al. 2022): the same grid of losses and the same masses, which
    the library computes from δ(ε) at each point of the grid by a Python loop over the inverse of
    the privacy loss (about 165,000 points at σ = 0.4, a second), here the same formulas on the
    whole grid at once (tests/test_privacy_loss.py pins the two equal)."""
    from dp_accounting.pld import privacy_loss_distribution, privacy_loss_mechanism

    s, q = positive("sigma", sigma), open_unit("sample_rate", sample_rate)
    d = positive("grid", grid)
    pmfs = []
    for adjacency in (
        privacy_loss_mechanism.AdjacencyType.REMOVE,
        privacy_loss_mechanism.AdjacencyType.ADD,
    ):
        loss = privacy_loss_mechanism.GaussianPrivacyLoss(
            s, sampling_prob=q, adjacency_type=adjacency
        )
        bounds = loss.connect_dots_bounds()
        upper = math.ceil(bounds.epsilon_upper / d)
        lower = math.floor(bounds.epsilon_lower / d)
        deltas = _subsampled_gaussian_deltas(
            loss, np.arange(lower, upper + 1) * d, adjacency.name == "ADD"
        )
        pmfs.append(_connect_dots_pmf(d, lower, upper, deltas))
    return privacy_loss_distribution.PrivacyLossDistribution(*pmfs)


def _connect_dots_pmf(grid: float, lower: int, upper: int, deltas: np.ndarray) -> Any:
    """``pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(grid, lower, upper, deltas)``:
    the masses of Algorithm 1 of Doroshenko et al. (2022) from δ at each point of the grid. The
    library passes them through a dictionary of one entry per point on the way to its dense
    form, most of the time it takes; a distribution that is dense there (over
    ``_MAX_PMF_SPARSE_SIZE`` points) is built here from the same masses directly."""
    from dp_accounting.pld import pld_pmf

    values = np.asarray(deltas, dtype=np.float64)
    if upper - lower + 1 <= pld_pmf._MAX_PMF_SPARSE_SIZE or np.any(
        np.diff(values) > pld_pmf._DELTA_DIFF_TOLERANCE
    ):  # small (sparse), or refused by the library
        return pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(grid, lower, upper, values)
    values = np.minimum.accumulate(values)
    steps = np.diff(values)
    probs = np.zeros_like(values)
    probs[0] = 1 - values[0] + steps[0] / math.expm1(grid)
    probs[1:-1] = (steps[1:] - steps[:-1] * math.exp(grid)) / math.expm1(grid)
    probs[-1] = steps[-1] / math.expm1(-grid)
    return pld_pmf.DensePLDPmf(grid, lower, np.maximum(0.0, probs), values[-1], True)


def _subsampled_gaussian_deltas(loss: Any, epsilons: np.ndarray, add: bool) -> np.ndarray:
    """dp-accounting's ``AdditiveNoisePrivacyLoss.get_delta_for_epsilon`` for the subsampled
    Gaussian ``loss`` (sensitivity 1, sampling probability q < 1) on an array of ε: the hockey-stick
    divergence at the largest x whose privacy loss is at least ε, mu_upper's CDF there less e^ε
    times mu_lower's, with the inverse of the privacy loss (``inverse_privacy_loss``: the
    unsubsampled loss log(1 + (e^(±ε) − 1)/q), as ``common.log_a_times_exp_b_plus_c`` computes
    it, turned into x) evaluated on the whole array, in the library's order of operations."""
    q, variance = loss.sampling_prob, loss.standard_deviation**2
    deltas = np.zeros_like(epsilons, dtype=float)
    if add:  # the divergence is 0 from ε = −log(1 − q) on
        inside = epsilons < -math.log1p(-q)
    else:  # and 1 − e^ε up to ε = log(1 − q)
        inside = epsilons > math.log1p(-q)
        deltas[~inside] = -np.expm1(epsilons[~inside])
    eps = epsilons[inside]
    b = -eps if add else eps
    a, c = 1 / q, 1 - 1 / q  # log(a e^b + c) with a > 0 > c: _log_sub(b + log a, log(−c))
    head = b + np.log(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        unsubsampled = np.where(b == 0, np.log(a + c), head + np.log1p(-np.exp(np.log(-c) - head)))
    edge = -math.log(1 - q) if add else math.log(1 - q)
    at_edge = np.abs(eps - edge) <= 1e-9 * np.maximum(np.abs(eps), abs(edge))  # math.isclose
    if add:  # x = 1 + the REMOVE inverse at the unsubsampled loss, −∞ at the edge
        x = 1 + (-0.5 * 1 - (-unsubsampled) * variance / 1)
        x[at_edge] = -math.inf
    else:
        x = -0.5 * 1 - unsubsampled * variance / 1
        x[at_edge] = math.inf
    deltas[inside] = loss.mu_upper_cdf(x) - np.exp(eps + loss.mu_lower_log_cdf(x))
    return np.clip(deltas, 0, 1)
