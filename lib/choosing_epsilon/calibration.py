"""Calibrating noise to an attack risk instead of to ε (Kulynych et al. 2024, "Attack-aware noise
calibration"), by two routes, for one numeric release (Gaussian or Laplace noise) and for DP-SGD.

The *standard* route picks the ε that the (ε, δ) bound turns into the risk (Eq. 8 for the
advantage, Eq. 5 for the true-positive rate at a false-positive rate α; ``risk.epsilon_for``) and
then the least noise with that (ε, δ). The *attack-aware* route asks the mechanism's own trade-off
curve for the risk (Theorem 3.3) and takes the least noise that meets it (Eqs. 13 and 18). For the
Gaussian and the Laplace mechanism both are closed forms (``risk.noise_for``, App. G); for DP-SGD
the curve comes from the privacy loss distribution of dp-accounting (connect-the-dots
discretisation, Doroshenko et al. 2022), read by riskcal, and the noise multiplier is searched for.
Every calibration spends its tolerance on the safe side: the noise returned allows at most the
stated risk.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import optimize, stats

from . import laplace, risk
from ._validate import nonnegative, open_unit, positive

# relative tolerance of every numerical calibration below (scipy's brentq ``rtol``): the noise is
# found to about four significant digits, and the tolerance is spent on the safe side (more noise)
CALIBRATION_RTOL = 1e-4
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


def reproducible(rates: float | np.ndarray) -> float | np.ndarray:
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
    (tests/test_pld_curve.py pins the two equal)."""
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
    deltas = upper[above] - np.exp(eps) * lower[above]
    deltas[np.isposinf(eps)] = pmf._infinity_mass
    return deltas


def pld_epsilon(pld: Any, delta: float) -> float:
    """dp-accounting's ``get_epsilon_for_delta`` of a privacy loss distribution: the least ε ≥ 0
    whose δ(ε) is at most ``delta``, the larger of the two directions (∞ if the mass at infinity
    exceeds δ). The library walks the losses down from the largest in a Python loop until the
    masses above a loss give an ε at or above it; here the same sums, in the same order, are
    cumulative sums and the walk's stopping point is found among them at once (pinned equal to
    the library's by tests/test_pld_curve.py)."""
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


# --- one numeric release, Gaussian or Laplace, by both routes ---------------------------------

# the trade-off curve each mechanism is read by, in words (the table's column "curve")
CURVES = {
    "Gaussian": "G_μ with μ = Δ/σ (Dong, Roth & Su), exact",
    "Laplace": (
        "the Laplace shift's own curve, μ = Δ/b, exact (not pure ε-DP's randomized-response curve)"
    ),
}


def implied_epsilon(mechanism: str, mu: float, delta: float) -> float:
    """The ε that noise with shift μ = Δ/noise would be reported with under standard calibration:
    Δ/b = μ for the Laplace (pure ε-DP), and for the Gaussian the least ε at ``delta`` of the
    analytic Gaussian mechanism (Balle & Wang 2018; ``risk.gdp_epsilon``)."""
    m = positive("mu", mu)
    if mechanism == "Laplace":
        return m
    if mechanism == "Gaussian":
        return risk.gdp_epsilon(m, open_unit("delta", delta))
    raise ValueError(f"mechanism must be one of {list(risk.MECHANISMS)}, got {mechanism!r}")


COLUMNS = [
    "mechanism", "target", "kind", "risk", "fpr", "delta", "sensitivity", "noise_aware",
    "risk_aware", "epsilon_aware", "epsilon_standard", "noise_standard", "noise_ratio",
    "risk_standard", "curve",
]  # fmt: skip


@dataclass(frozen=True)
class Routes:
    """One mechanism calibrated to one risk by both routes: the attack-aware noise, the risk it
    allows on the mechanism's own curve (at most the target: the closed form's rounding is spent
    on the safe side) and the ε it would be reported with, the standard route's ε and noise (∞
    where no ε meets the risk), their ratio, and the risk the standard noise actually allows."""

    mechanism: str
    target: risk.RiskTarget
    delta: float
    sensitivity: float
    noise_aware: float
    risk_aware: float
    epsilon_aware: float
    epsilon_standard: float
    noise_standard: float
    risk_standard: float

    @property
    def noise_ratio(self) -> float:
        """Standard noise over attack-aware noise (∞ where the standard route has none)."""
        return self.noise_standard / self.noise_aware

    def row(self) -> dict[str, object]:
        """The table's row (``COLUMNS``)."""
        return {
            "mechanism": self.mechanism,
            "target": self.target.describe(),
            "kind": self.target.kind,
            "risk": self.target.value,
            "fpr": self.target.fpr,
            "delta": self.delta,
            "sensitivity": self.sensitivity,
            "noise_aware": self.noise_aware,
            "risk_aware": self.risk_aware,
            "epsilon_aware": self.epsilon_aware,
            "epsilon_standard": self.epsilon_standard,
            "noise_standard": self.noise_standard,
            "noise_ratio": self.noise_ratio,
            "risk_standard": self.risk_standard,
            "curve": CURVES[self.mechanism],
        }


def routes(mechanism: str, target: risk.RiskTarget, sensitivity: float, delta: float) -> Routes:
    """``mechanism`` (Gaussian at δ = ``delta``, Laplace at δ = 0) on a release of sensitivity
    ``sensitivity``, calibrated to ``target`` by both routes (``risk.noise_for`` and
    ``risk.epsilon_for`` then ``laplace.scale`` or ``risk.gaussian_noise_for_epsilon``), each noise
    on the safe side."""
    width = positive("sensitivity", sensitivity)
    model = risk.MECHANISMS[_mechanism(mechanism)]
    d = {"Gaussian": open_unit("delta", delta), "Laplace": 0.0}[mechanism]
    noise_aware = risk.noise_for(mechanism, target, width)
    epsilon = risk.epsilon_for(target, d)
    if math.isnan(epsilon) or epsilon == 0:
        noise_standard = math.inf  # no ε > 0 meets the risk: no finite noise reaches it this way
    else:
        noise_standard = (
            laplace.scale(width, epsilon)
            if mechanism == "Laplace"
            else risk.gaussian_noise_for_epsilon(epsilon, d, width)
        )
    allowed = risk.Guarantee(model, mu=width / noise_standard)
    return Routes(
        mechanism,
        target,
        d,
        width,
        noise_aware,
        risk.reading(risk.Guarantee(model, mu=width / noise_aware), target),
        implied_epsilon(mechanism, width / noise_aware, d),
        epsilon,
        noise_standard,
        risk.reading(allowed, target) if math.isfinite(noise_standard) else math.nan,
    )


def _mechanism(mechanism: str) -> str:
    if mechanism not in risk.MECHANISMS:
        raise ValueError(f"mechanism must be one of {list(risk.MECHANISMS)}, got {mechanism!r}")
    return mechanism


def calibrate(targets: list[risk.RiskTarget], sensitivity: float, delta: float) -> pd.DataFrame:
    """Every mechanism calibrated to every target by both routes, one row each (``COLUMNS``)."""
    rows = [routes(m, t, sensitivity, delta).row() for m in risk.MECHANISMS for t in targets]
    return pd.DataFrame(rows, columns=COLUMNS)


def monte_carlo_risk(
    mechanism: str, mu: float, target: risk.RiskTarget, draws: int, rng: np.random.Generator
) -> tuple[float, float]:
    """The risk ``target`` measured on ``draws`` seeded draws of each hypothesis (noise of scale 1
    shifted by 0, out, and by μ, in) by the test that attains it: the threshold at F⁻¹(1 − α) for
    a TPR at FPR α, at μ/2 for the advantage (both noises are symmetric); with its standard
    error. A check of the curves by sampling."""
    m = nonnegative("mu", mu)
    family = {"Gaussian": stats.norm, "Laplace": stats.laplace}[_mechanism(mechanism)]
    threshold = m / 2 if target.kind == "advantage" else float(family.isf(target.fpr))
    out = np.mean(family.rvs(size=int(draws), random_state=rng) > threshold)
    inside = np.mean(m + family.rvs(size=int(draws), random_state=rng) > threshold)
    if target.kind == "advantage":
        error = math.sqrt((out * (1 - out) + inside * (1 - inside)) / draws)
        return float(inside - out), error
    return float(inside), math.sqrt(inside * (1 - inside) / draws)


def laplace_risk_from_pld(mu: float, target: risk.RiskTarget, grid_step: float = 1e-4) -> float:
    """The risk ``target`` of the Laplace mechanism at shift μ by another route: dp-accounting's
    privacy loss distribution of the Laplace mechanism (pessimistic, discretised on
    ``grid_step``) read by riskcal (get_advantage_from_pld, get_beta_from_pld)."""
    from dp_accounting.pld import privacy_loss_distribution
    from riskcal.analysis import get_advantage_from_pld, get_beta_from_pld

    pld = privacy_loss_distribution.from_laplace_mechanism(
        parameter=1.0,
        sensitivity=positive("mu", mu),
        value_discretization_interval=positive("grid_step", grid_step),
    )
    if target.kind == "advantage":
        return float(get_advantage_from_pld(pld))
    return float(1 - np.atleast_1d(get_beta_from_pld(pld, alpha=np.array([target.fpr])))[0])


# how far the discretised distribution's reading may stray from the exact risk (grid 1e-4)
PLD_TOLERANCE = 1e-4


def pld_reading_text(mu: float, target: risk.RiskTarget) -> str:
    """``laplace_risk_from_pld`` as the notebook prints it, and, where it strays from the risk the
    noise was calibrated to by more than ``PLD_TOLERANCE``, by how much: the reading, not the
    calibration, is then wrong (riskcal on dp-accounting's fine grid misses at shifts of about 30
    and more, e.g. 0.98077 for a TPR of 0.999999 at an FPR of 1e-9; tests/test_calibration.py
    pins it)."""
    reading = laplace_risk_from_pld(mu, target)
    text = f"riskcal on dp-accounting: {reading:.5f}"
    gap = reading - target.value
    if abs(gap) <= PLD_TOLERANCE:
        return text
    return (
        f"{text}, {gap:+.2g} from the target, beyond its discretisation's {PLD_TOLERANCE:g}: the "
        f"library's reading fails at this shift (μ = {mu:.4g}); the sampling and the exact curve "
        "agree"
    )


# --- DP-SGD: the privacy loss distribution and the risks it gives (Section 3) ------------------


@dataclass(frozen=True)
class DpsgdSetting:
    """DP-SGD's fixed inputs: Poisson sampling rate, steps, the δ of standard calibration and the
    discretisation of the privacy loss (riskcal's and the paper's default 1e-4)."""

    sample_rate: float
    num_steps: int
    delta: float
    fprs: tuple[float, ...]
    grid_step: float = 1e-4

    def __post_init__(self) -> None:
        open_unit("sample_rate", self.sample_rate)
        if not isinstance(self.num_steps, (int, np.integer)) or self.num_steps < 1:
            raise ValueError(f"num_steps must be an integer >= 1, got {self.num_steps!r}")
        open_unit("delta", self.delta)
        for a in self.fprs:
            open_unit("fpr", a)
        positive("grid_step", self.grid_step)


def step_spread(sigma: float, sample_rate: float) -> float:
    """The spread of one DP-SGD step's privacy loss, q·√(e^(1/σ²) − 1): the standard deviation of
    the likelihood ratio of the subsampled Gaussian less 1 (the χ² divergence's root, the scale
    the central-limit theorem of Bu et al. 2020 composes)."""
    q, s = open_unit("sample_rate", sample_rate), positive("sigma", sigma)
    exponent = s**-2
    return q * math.sqrt(math.expm1(exponent)) if exponent < 700 else math.inf  # e^700: overflow


def dpsgd_grid(sigma: float, sample_rate: float, grid_step: float = 1e-4) -> float:
    """The discretisation of DP-SGD's privacy loss at ``sigma``: ``grid_step`` (riskcal's and the
    paper's 1e-4), or one step's spread (``step_spread``) where that is finer. A grid coarser than
    one step's loss makes the composed distribution wider than the mechanism's, on the safe side
    but without bound: ε then falls as σ^(-1/2) instead of 1/σ (at p = 0.0005, T = 20,000,
    δ = 1e-10, σ = 40: ε = 0.0231 at 1e-4 against 0.0093 at 1e-5), and a small ε* is out of
    reach. Its error in ε is about 0.08 × (grid / spread)² relative (8% where the two are equal,
    as at the switch; 0.5% at a quarter), so the paper's grid is kept wherever it already resolves
    one step (σ up to 10.02 at the paper's setting), and the results there are the paper's
    accountant's."""
    return min(positive("grid_step", grid_step), step_spread(sigma, sample_rate))


def dpsgd_pld(sigma: float, sample_rate: float, num_steps: int, grid_step: float = 1e-4):
    """The privacy loss distribution of DP-SGD (Poisson-subsampled Gaussian, add/remove, composed
    ``num_steps`` times), as riskcal builds it (dp-accounting, connect-the-dots), on the grid
    ``dpsgd_grid``: ``grid_step``, or finer where one step's loss is narrower than it. The last
    ``PLDS_KEPT`` distributions are kept: every reading at one σ (the risks of a calibration, its
    independent checks, the chance to single out) shares one composition."""
    if not isinstance(num_steps, (int, np.integer)) or num_steps < 1:
        raise ValueError(f"num_steps must be an integer >= 1, got {num_steps!r}")
    return _composed(
        float(positive("sigma", sigma)),
        float(open_unit("sample_rate", sample_rate)),
        int(num_steps),
        dpsgd_grid(sigma, sample_rate, grid_step),
    )


# how many composed privacy loss distributions ``dpsgd_pld`` keeps (each up to ~20 MB at σ ≈ 0.3)
PLDS_KEPT = 8


@functools.lru_cache(maxsize=PLDS_KEPT)
def _composed(sigma: float, sample_rate: float, num_steps: int, grid: float) -> Any:
    return pld_self_compose(subsampled_gaussian_pld(sigma, sample_rate, grid), num_steps)


# the mass the composition may drop from each tail (dp-accounting's default for self_compose)
TAIL_MASS_TRUNCATION = 1e-15


def pld_self_compose(pld: Any, num_times: int) -> Any:
    """dp-accounting's ``pld.self_compose(num_times)``: each direction's masses convolved with
    themselves by FFT, the result kept between Chernoff bounds on its tails (40 moment-generating
    orders, ``common.compute_self_convolve_bounds``) and the truncated mass counted at infinity.
    The library spends most of the time in those bounds (40 calls of scipy's logsumexp over the
    whole distribution); here each moment is one exponential and one dot product, the bounds
    rounded as the library rounds them, and the FFT is the library's own (the distributions agree:
    tests/test_pld_curve.py)."""
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
    convolved = np.real(fft.ifft(fft.fft(probs, fast) ** num_times))
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
    moment-generating function Σ p_i e^(i·o) (shifted by its largest exponent among the nonzero
    masses, as logsumexp does), turned into a Chernoff bound on each tail of the n-fold sum."""
    n = len(probs)
    upper, lower = (n - 1) * num_times, 0
    nonzero = np.flatnonzero(probs)
    if tail == 0 or not len(nonzero):
        return lower, upper
    index = np.arange(n, dtype=float)
    for k in [*range(-20, 0), *range(1, 21)]:
        order = k / n
        top = float(nonzero[-1] if order > 0 else nonzero[0])  # the largest exponent i·o
        log_mgf = top * order + math.log(float(np.dot(probs, np.exp((index - top) * order))))
        bound = (num_times * log_mgf + math.log(2 / tail)) / order
        if not math.isfinite(bound):
            continue
        if order > 0:
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
    whole grid at once (tests/test_pld_curve.py pins the two equal)."""
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


@dataclass(frozen=True)
class Risks:
    """What one noise multiplier allows: advantage, FNR at each FPR, and ε at the setting's δ."""

    sigma: float
    advantage: float
    betas: tuple[float, ...]
    epsilon: float


KINDS = ("advantage", "tpr", "epsilon")
# the root search: a ladder of σ with this many rungs per doubling, 2^(k/8) from 0.125 up to 304
# or to twice the noise that meets the target without subsampling, if that is more
# (``DpsgdAccountant.enough``)
RUNGS_PER_OCTAVE = 8
_RUNGS = (-3 * RUNGS_PER_OCTAVE, 66)
# half-width of the pair of evaluations that confirms a predicted root, in units of
# CALIBRATION_RTOL: a pair that straddles the root is a bracket narrower than brentq's tolerance
_PAIR_HALF_WIDTH = 0.4


def rung(k: int) -> float:
    """The k-th σ of the root search's ladder, 2^(k/8) (the same float wherever it is computed)."""
    return float(2.0 ** (k / RUNGS_PER_OCTAVE))


def nearest_rung(sigma: float, top: int = _RUNGS[1]) -> int:
    """The index of the rung of the ladder nearest to ``sigma`` (in log σ), within its ends (the
    upper one ``top``)."""
    k = round(RUNGS_PER_OCTAVE * math.log2(positive("sigma", sigma)))
    return min(max(k, _RUNGS[0]), top)


def top_rung(enough: float) -> int:
    """The ladder's upper end for a target met for certain at ``enough``: the rung at or above
    twice it, and never below 304 (rung 66)."""
    return max(_RUNGS[1], math.ceil(RUNGS_PER_OCTAVE * math.log2(2 * positive("enough", enough))))


@dataclass
class DpsgdAccountant:
    """Evaluates DP-SGD's risks at a noise multiplier once, and remembers them: every calibration
    of a setting shares the evaluations (one PLD gives the advantage, every β(α) and ε(δ)). The
    last few privacy loss distributions are kept (``dpsgd_pld``) for the independent checks."""

    setting: DpsgdSetting
    memo: dict[float, Risks] = field(default_factory=dict)

    def pld(self, sigma: float):
        """DP-SGD's privacy loss distribution at ``sigma`` (kept from its evaluation if recent)."""
        s = self.setting
        return dpsgd_pld(float(sigma), s.sample_rate, s.num_steps, s.grid_step)

    def risks(self, sigma: float) -> Risks:
        """riskcal's advantage (Eq. 11), β(α) read directly off the privacy loss distribution
        (``pld_tpr``: riskcal 1.5.1's Algorithm 1 understates the TPR here) and dp-accounting's
        ε(δ)."""
        from riskcal.analysis import get_advantage_from_pld

        key = float(sigma)
        if key not in self.memo:
            s = self.setting
            pld = self.pld(key)
            betas = 1 - np.atleast_1d(pld_tpr(pld, np.asarray(s.fprs, dtype=float)))
            self.memo[key] = Risks(
                key,
                float(get_advantage_from_pld(pld)),
                tuple(float(b) for b in betas),
                pld_epsilon(pld, s.delta),
            )
        return self.memo[key]

    def check_kind(self, kind: str, fpr: float | None = None) -> None:
        """Refuse a risk this accountant does not read: 'advantage', 'tpr' at one of the
        setting's FPRs, or 'epsilon'."""
        if kind not in KINDS:
            raise ValueError(f"kind must be 'advantage', 'tpr' or 'epsilon', got {kind!r}")
        if kind == "tpr" and fpr not in self.setting.fprs:
            raise ValueError(f"fpr must be one of {self.setting.fprs}, got {fpr!r}")

    def read(self, risks: Risks, kind: str, fpr: float | None = None) -> float:
        """The risk ``kind`` of an evaluation: 'advantage', 'tpr' (at ``fpr``) or 'epsilon'."""
        self.check_kind(kind, fpr)
        if kind == "advantage":
            return risks.advantage
        if kind == "epsilon":
            return risks.epsilon
        return 1 - risks.betas[self.setting.fprs.index(fpr)]

    def measure(self, kind: str, sigma: float, fpr: float | None = None) -> float:
        """The risk ``kind`` at ``sigma``: 'advantage', 'tpr' (at ``fpr``) or 'epsilon'."""
        self.check_kind(kind, fpr)
        return self.read(self.risks(sigma), kind, fpr)

    def guess(self, kind: str, target: float, fpr: float | None = None) -> float:
        """The central-limit guess of the noise for a target (``clt_sigma``): where the search
        starts."""
        s = self.setting
        return clt_sigma(self._mu(kind, target, fpr), s.sample_rate, s.num_steps)

    def enough(self, kind: str, target: float, fpr: float | None = None) -> float:
        """A noise multiplier that meets the target for certain: the one at which DP-SGD without
        subsampling (p = 1), T Gaussian steps and so √T/σ-GDP, meets it (subsampling only adds
        privacy). The search's ladder reaches twice this σ, whatever the target."""
        return math.sqrt(self.setting.num_steps) / self._mu(kind, target, fpr)

    def _mu(self, kind: str, target: float, fpr: float | None) -> float:
        """The μ of the Gaussian mechanism whose risk ``kind`` is ``target`` (App. G)."""
        if kind == "advantage":
            mu = 2 * stats.norm.ppf((1 + target) / 2)
        elif kind == "tpr":
            mu = stats.norm.ppf(target) + stats.norm.isf(float(fpr))  # type: ignore[arg-type]
        else:
            mu = risk.gdp_mu_for_epsilon_delta(target, self.setting.delta)
        return max(float(mu), 1e-12)

    def calibrate(
        self, kind: str, target: float, fpr: float | None = None, start: float | None = None
    ) -> float:
        """Smallest noise multiplier whose risk ``kind`` is at most ``target`` (Eqs. 2, 13, 18),
        to a relative tolerance ``CALIBRATION_RTOL`` spent on the safe side: the σ returned is
        the smallest evaluated one whose risk is at most ``target`` − ``ACCOUNTANT_MARGIN``, so
        it allows no more than the target on any CPU. The search, toward that goal:

        1. a bracket on the ladder 2^(k/8), from the rung nearest ``start`` (by default the
           central-limit guess) outward, with the rung beyond each end (rungs already evaluated,
           for this target or another, cost nothing), up to ``top_rung`` (twice the noise that
           meets the target without subsampling); skipped when the evaluations in hand already
           bracket the root within one rung (those of a neighbouring target);
        2. the root predicted by inverse interpolation through the four evaluations nearest the
           target (a cubic in log σ against the risk read as a Gaussian μ, see ``_linearised``),
           and confirmed by a pair of evaluations at ±0.4 × the tolerance around it, repeated
           from the new evaluations if the pair misses;
        3. scipy's brentq on the narrowest bracket found, with ``rtol=CALIBRATION_RTOL``: when the
           pair straddles the root it returns at once, otherwise it finishes the search;
        4. the safe end of the narrowest bracket the evaluations then hold."""
        self.check_kind(kind, fpr)
        floor = ACCOUNTANT_MARGIN + (float(fpr) if kind == "tpr" else 0.0)  # type: ignore[arg-type]
        if not float(target) > floor:
            least = "fpr + " if kind == "tpr" else ""
            raise ValueError(
                f"target must exceed {least}the accountant's margin {ACCOUNTANT_MARGIN:g} (= "
                f"{floor:g}: no noise keeps the risk below it), got {target!r}"
            )
        target = float(target) - ACCOUNTANT_MARGIN

        def excess(sigma: float) -> float:
            return self.measure(kind, sigma, fpr) - target

        known = self._bracket(kind, target, fpr, 0.0, math.inf)
        if known is not None and known[1] <= known[0] * rung(1):
            ends = known  # the evaluations already hold the root within a rung: no ladder
        else:
            top = top_rung(self.enough(kind, target, fpr))
            k = nearest_rung(self.guess(kind, target, fpr) if start is None else start, top)
            lo_k, hi_k = _ladder_bracket(lambda j: excess(rung(j)) > 0, k, top)
            for j in (lo_k - 1, hi_k + 1):
                if _RUNGS[0] <= j <= top:
                    excess(rung(j))
            ends = (rung(lo_k), rung(hi_k))
        half = _PAIR_HALF_WIDTH * CALIBRATION_RTOL
        for _ in range(3):
            lo, hi = self._bracket(kind, target, fpr, *ends) or ends
            if hi - lo <= 2 * half * lo:
                break
            root = self._predict(kind, target, fpr, lo, hi)
            for sigma in (root * (1 - half), root * (1 + half)):
                if lo < sigma < hi:
                    excess(sigma)
        lo, hi = self._bracket(kind, target, fpr, *ends) or ends
        optimize.brentq(excess, lo, hi, xtol=1e-12, rtol=CALIBRATION_RTOL)
        return (self._bracket(kind, target, fpr, *ends) or ends)[1]

    def _known(self, kind: str, fpr: float | None) -> tuple[np.ndarray, np.ndarray]:
        sigmas = np.array(sorted(self.memo))
        values = np.array([self.read(self.memo[s], kind, fpr) for s in sigmas])
        return sigmas, values

    def _bracket(
        self, kind: str, target: float, fpr: float | None, lo: float, hi: float
    ) -> tuple[float, float] | None:
        """The narrowest bracket of the root among the evaluations within [lo, hi]: the largest σ
        whose risk exceeds the target and the smallest σ above it that meets it (where the
        accountant's readings jitter, as ε at δ = 1e-12 does within the tolerance, a σ below the
        last one that fails is no answer); None if the evaluations there hold no such pair."""
        sigmas, values = self._known(kind, fpr)
        inside = (sigmas >= lo) & (sigmas <= hi)
        sigmas, values = sigmas[inside], values[inside]
        above = sigmas[values > target]
        if not len(above):
            return None
        a = float(above.max())
        below = sigmas[(values <= target) & (sigmas > a)]
        return (a, float(below.min())) if len(below) else None

    def _predict(self, kind: str, target: float, fpr: float | None, lo: float, hi: float) -> float:
        """The root predicted from the evaluations: log σ as a polynomial (degree ≤ 3) of the
        linearised risk through the four evaluations nearest the target, at least 2 × the
        tolerance apart in log σ; the geometric middle of the bracket if that falls outside it."""
        sigmas, values = self._known(kind, fpr)
        x = np.log(sigmas)
        y = _linearised(kind, values, fpr)
        y_star = float(_linearised(kind, np.array([target]), fpr)[0])
        usable = np.isfinite(y)
        chosen: list[int] = []
        for i in np.argsort(np.abs(np.where(usable, y - y_star, np.inf))):
            if not usable[i] or len(chosen) == 4:
                break
            if all(abs(x[i] - x[j]) >= 2 * CALIBRATION_RTOL for j in chosen):
                chosen.append(int(i))
        middle = math.sqrt(lo * hi)
        if len(chosen) < 2:
            return middle
        coefficients = np.polyfit(y[chosen], x[chosen], len(chosen) - 1)
        root = float(np.exp(np.polyval(coefficients, y_star)))
        return root if lo < root < hi else middle


def _linearised(kind: str, values: np.ndarray, fpr: float | None) -> np.ndarray:
    """A risk read as the log of the μ of a Gaussian mechanism with that risk (App. G: advantage
    2Φ(μ/2) − 1, TPR Φ(Φ⁻¹(α) + μ)), or log ε: nearly linear in log σ for DP-SGD, which the
    central-limit theorem makes about μ-GDP with μ ≈ q√T·√(e^(1/σ²) − 1)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if kind == "advantage":
            mu = 2 * stats.norm.ppf((1 + values) / 2)
        elif kind == "tpr":
            mu = stats.norm.ppf(values) + stats.norm.isf(float(fpr))  # type: ignore[arg-type]
        else:
            mu = np.asarray(values, dtype=float)
        return np.where(mu > 0, np.log(np.where(mu > 0, mu, 1.0)), np.nan)


def _ladder_bracket(
    needs_more: Callable[[int], bool], k: int, top: int = _RUNGS[1]
) -> tuple[int, int]:
    """Two neighbouring rungs of the ladder with the root between them: strides that double
    from rung ``k`` upward (large σ are cheap) and single rungs downward (each costs more than the
    last), then bisection on the rungs. Refuses a target met at the lowest rung (less noise than
    the ladder holds would do) or not met at the highest, ``top``."""
    above = needs_more(k)  # True: more noise is needed
    stride, last = 1, k
    while True:
        j = min(max(last + (stride if above else -stride), _RUNGS[0]), top)
        if needs_more(j) != above:
            break
        if j == _RUNGS[0] and not above:
            raise ValueError(
                f"the target is met at every σ down to {rung(_RUNGS[0])}, the least noise "
                "searched: a target this loose needs no calibration here"
            )
        if j == top and above:
            raise ValueError(
                f"the target is not met by σ up to {rung(top):.4g}, twice the noise that meets it "
                "without subsampling: the accountant's discretisation is too coarse here"
            )
        last, stride = j, 2 * stride if above else 1
    lo, hi = sorted((last, j))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if needs_more(mid) else (lo, mid)
    return lo, hi


def clt_sigma(mu: float, sample_rate: float, num_steps: int) -> float:
    """The noise at which DP-SGD is about μ-GDP by the central limit theorem of Bu et al. (2020),
    μ ≈ q√T·√(e^(1/σ²) − 1): only a starting point for the exact calibration."""
    ratio = positive("mu", mu) / (open_unit("sample_rate", sample_rate) * math.sqrt(num_steps))
    return 1 / math.sqrt(math.log1p(ratio**2))


def blackbox_beta(pld, alpha: float, epsilons: Sequence[float] | np.ndarray) -> float:
    """A lower bound on the trade-off curve at α from dp-accounting's δ(ε) alone: the sup over a
    grid of ε of Eq. (5) (Appendix A, Eq. 20), independent of riskcal's Algorithm 1."""
    a = open_unit("alpha", alpha)
    eps = np.asarray(epsilons, dtype=float)
    deltas = pld_deltas(pld, eps)
    first = 1 - deltas - np.exp(eps) * a
    second = np.exp(-eps) * (1 - deltas - a)
    return float(np.max(np.maximum(np.maximum(first, second), 0)))


def independent_checks(setting: DpsgdSetting, sigma: float, pld=None) -> dict[str, float]:
    """At ``sigma``, the risks by routes other than the calibration's: the advantage as the largest
    1 − α − β(α) of the trade-off curve (``pld_tpr``) on a grid of 2,001 FPRs (Theorem 3.3's
    curve, not Eq. 11), and each β(α) as dp-accounting's δ(ε) turned into a curve by Eq. (20) on
    2,001 ε. ``pld``: the privacy loss distribution at ``sigma`` if the caller holds it."""
    if pld is None:
        pld = dpsgd_pld(sigma, setting.sample_rate, setting.num_steps, setting.grid_step)
    alphas = np.linspace(0, 1, 2001)
    curve = 1 - np.asarray(pld_tpr(pld, alphas), dtype=float)
    checks: dict[str, float] = {"advantage_from_curve": float(np.max(1 - alphas - curve))}
    epsilons = np.linspace(0, pld_epsilon(pld, 1e-12), 2001)
    for a in setting.fprs:
        checks[f"tpr_blackbox_at_{a:g}"] = 1 - blackbox_beta(pld, a, epsilons)
    return checks


def standard_epsilon(setting: DpsgdSetting, kind: str, target: float, fpr: float | None) -> float:
    """The ε* of standard calibration for a target at the setting's δ (``risk.epsilon_for``)."""
    if kind == "advantage":
        return risk.epsilon_for(risk.at_most_advantage(target), setting.delta)
    if kind == "tpr":
        if fpr is None:
            raise ValueError("fpr must be given for a TPR target")
        return risk.epsilon_for(risk.at_most_tpr(target, fpr), setting.delta)
    raise ValueError(f"kind must be 'advantage' or 'tpr', got {kind!r}")


def sweep_sigmas(accountant: DpsgdAccountant, roots: Sequence[tuple[str, float, float | None]]):
    """The rungs of the ladder within two of each root's central-limit guess: the evaluations the
    searches for these roots start from, worth computing once (and in parallel) for all."""
    ks: set[int] = set()
    for kind, target, fpr in roots:
        top = top_rung(accountant.enough(kind, target, fpr))
        k = nearest_rung(accountant.guess(kind, target, fpr), top)
        ks |= {j for j in range(k - 2, k + 3) if _RUNGS[0] <= j <= top}
    return [rung(k) for k in sorted(ks)]


def grid_row(
    setting: DpsgdSetting,
    kind: str,
    target: float,
    fpr: float | None,
    aware: Risks,
    standard: Risks,
    checks: dict[str, float],
) -> dict[str, Any]:
    """One target's row: the standard ε and its noise, the attack-aware noise, their ratio, what
    each noise allows at every FPR of the setting, and the independent checks at the
    attack-aware noise."""
    row: dict[str, Any] = {
        "kind": kind,
        "fpr": math.nan if fpr is None else float(fpr),
        "target": float(target),
        "epsilon_target": standard_epsilon(setting, kind, target, fpr),
        "sigma_standard": standard.sigma,
        "sigma_aware": aware.sigma,
        "noise_ratio": standard.sigma / aware.sigma,
    }
    for name, r in (("standard", standard), ("aware", aware)):
        row[f"advantage_{name}"] = r.advantage
        row[f"epsilon_{name}"] = r.epsilon
        for a, b in zip(setting.fprs, r.betas):
            row[f"tpr_{name}_at_{a:g}"] = 1 - b
    return row | {f"{k}_aware": v for k, v in checks.items()}


def standard_and_aware(
    accountant: DpsgdAccountant, kind: str, target: float, fpr: float | None = None
) -> dict[str, Any]:
    """Both routes to one target, in this process: the standard ε and its noise, the attack-aware
    noise, their ratio, and what each noise allows at every FPR of the setting."""
    s = accountant.setting
    epsilon = standard_epsilon(s, kind, target, fpr)
    sigma_aware = accountant.calibrate(kind, target, fpr)
    checks = independent_checks(s, sigma_aware, accountant.pld(sigma_aware))
    sigma_standard = accountant.calibrate("epsilon", epsilon)
    return grid_row(
        s,
        kind,
        target,
        fpr,
        accountant.risks(sigma_aware),
        accountant.risks(sigma_standard),
        checks,
    )


# --- singling out one of k under DP-SGD: the noise by the attained value ------------------------

# the spacing of the privacy profile's points in ε at which a k-ary randomized response is checked
# to lie under DP-SGD's curve (``randomized_response_within``): the check is safe between points
# and costs the ε it gives away, under 1e-3
PROFILE_STEP = 1e-3


def randomized_response_within(
    epsilons: np.ndarray, deltas: np.ndarray, k: int
) -> tuple[float, bool]:
    """The largest ε at which k-ary randomized response (the truth with probability
    e^ε/(e^ε + k − 1), each other answer with 1/(e^ε + k − 1)) is at least as private as a
    mechanism with privacy profile δ(x), given at increasing ``epsilons`` from 0: for each pair of
    candidates its profile, (e^ε − e^x)₊/(e^ε + k − 1), must lie under δ(x) at every x ≥ 0 (both
    curves symmetric, so profiles decide). Between points x_i < x_(i+1) it is held under
    δ(x_(i+1)) (δ falls, its profile too), so ε is safe: the largest ε with, for every x_i < ε,
    ε ≤ ln((e^(x_i) + (k − 1) δ(x_(i+1))) / (1 − δ(x_(i+1)))). A negative δ (rounding in the
    accountant) counts as 0. Returns ε and whether the points ran out before it (ε is then the
    last bound found, and only a lower bound of the largest)."""
    x = np.asarray(epsilons, dtype=float)
    d = np.clip(np.asarray(deltas, dtype=float), 0.0, 1.0 - 1e-16)
    if x.ndim != 1 or len(x) < 2 or x[0] != 0 or np.any(np.diff(x) <= 0):
        raise ValueError("epsilons must rise from 0 and hold at least two points")
    bounds = np.log((np.exp(x[:-1]) + (_candidates(k) - 1) * d[1:]) / (1 - d[1:]))
    best = float(bounds[0])
    for i in range(1, len(bounds)):
        if x[i] >= best:
            return best, False
        best = min(best, float(bounds[i]))
    return best, True


def randomized_response_success(epsilon: float, k: int) -> float:
    """k-ary randomized response's chance of naming the right one of k, e^ε/(e^ε + k − 1): the
    exact worst case under ε-DP (``risk.singling_out``)."""
    return risk.singling_out(risk.pure(epsilon), _candidates(k)).attained


def _candidates(k: int) -> int:
    if not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k must be an integer >= 2, got {k!r}")
    return int(k)


def attained_singling_out(pld: Any, k: int) -> float:
    """The chance to single out one of k that a mechanism with DP-SGD's guarantee (the curve of
    ``pld``) attains: k-ary randomized response at the largest ε that lies under the curve
    (``randomized_response_within``, on a grid of ``PROFILE_STEP`` widened until the ε is found)."""
    n = _candidates(k)
    top = pld_epsilon(pld, 1e-12) + 1.0
    while True:
        grid = np.arange(0.0, top + PROFILE_STEP, PROFILE_STEP)
        eps, ran_out = randomized_response_within(grid, pld_deltas(pld, grid), n)
        if not ran_out:
            return randomized_response_success(eps, n)
        top *= 2


def noise_for_attained_singling_out(
    setting: DpsgdSetting, max_success: float, k: int, start: float
) -> tuple[float, float]:
    """The least DP-SGD noise multiplier at which no k-ary randomized response with a chance
    above ``max_success`` is found under the curve (``randomized_response_within``): with less
    noise, a mechanism with the same guarantee singles out one of k with a chance above it,
    whatever the bound says. Found in log σ from ``start`` (the bound's noise, at or above the
    answer) by brentq to ``CALIBRATION_RTOL``, spent on the safe side: the σ returned is the
    smallest evaluated whose attained chance is below ``max_success``. Returns σ and that chance."""
    n = _candidates(k)
    gamma = open_unit("max_success", max_success)
    if gamma <= 1 / n:
        raise ValueError(f"max_success must exceed 1/k = {1 / n:g}, got {max_success!r}")
    eps_gamma = math.log(gamma * (n - 1) / (1 - gamma))  # k-RR's ε at that chance
    grid = np.arange(0.0, eps_gamma + 2 * PROFILE_STEP, PROFILE_STEP)
    found: dict[float, float] = {}  # σ: the largest ε of a k-RR found under its curve

    def gap(log_sigma: float) -> float:  # > 0: no k-RR at that chance lies under the curve
        sigma = float(math.exp(log_sigma))
        if sigma not in found:
            pld = dpsgd_pld(sigma, setting.sample_rate, setting.num_steps, setting.grid_step)
            deltas = pld_deltas(pld, grid)
            found[sigma] = randomized_response_within(grid, deltas, n)[0]
        return eps_gamma - found[sigma]

    step = math.log(2) / RUNGS_PER_OCTAVE
    hi = math.log(positive("start", start))
    while gap(hi) <= 0:
        hi += step
    lo = hi - step
    while gap(lo) > 0:
        hi, lo = lo, lo - step
    if hi - lo > CALIBRATION_RTOL:
        optimize.brentq(gap, lo, hi, xtol=1e-12, rtol=CALIBRATION_RTOL)
    safe = min(s for s, e in found.items() if e < eps_gamma)
    return safe, randomized_response_success(found[safe], n)
