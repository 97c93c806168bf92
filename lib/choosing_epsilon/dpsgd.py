"""DP-SGD's accountant (Kulynych et al. 2024, Section 3): the privacy loss distribution of the
Poisson-subsampled Gaussian composed over the steps (``privacy_loss``, on a grid that resolves one
step), the risks it gives at a noise multiplier (riskcal's advantage, the TPR read directly off the
trade-off curve at each FPR, ε at δ), the least noise that meets a stated risk (a search spent on
the safe side), the independent checks of each answer, and the noise for a chance to single out
one of k by the attained value (k-ary randomized response under the curve).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize

from . import risk
from ._validate import candidates, open_unit, positive
from .calibration import CALIBRATION_RTOL
from .privacy_loss import (
    ACCOUNTANT_MARGIN,
    pld_deltas,
    pld_epsilon,
    pld_self_compose,
    pld_tpr,
    subsampled_gaussian_pld,
)


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


@dataclass(frozen=True)
class Risks:
    """What one noise multiplier allows: advantage, FNR at each FPR, and ε at the setting's δ."""

    sigma: float
    advantage: float
    betas: tuple[float, ...]
    epsilon: float


MEASURED_KINDS = ("advantage", "tpr", "epsilon")
# the root search: a ladder of σ with this many rungs per doubling, 2^(k/8) from 0.125 up to 304
# or to twice the noise that meets the target without subsampling, if that is more
# (``DpsgdAccountant.enough``)
RUNGS_PER_OCTAVE = 8
_RUNGS = (-3 * RUNGS_PER_OCTAVE, 66)
# half-width of the pair of evaluations that confirms a predicted root, in units of
# CALIBRATION_RTOL: a pair that straddles the root is a bracket narrower than brentq's tolerance
_PAIR_HALF_WIDTH = 0.4


class OutOfReach(ValueError):
    """A target the search meets at no σ of its ladder, or at every one: met down to the least
    noise searched (a target that loose asks for no calibration), or not met up to the top
    (``top_rung``). The message says which; a grid reports such a target as not applicable."""


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
        if kind not in MEASURED_KINDS:
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
        if kind == "epsilon":
            mu = risk.gdp_mu_for_epsilon_delta(target, self.setting.delta)
        else:
            mu = risk.mu_for("Gaussian", _risk_target(kind, target, fpr))
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


def _risk_target(kind: str, value: float | np.ndarray, fpr: float | None) -> risk.RiskTarget:
    """A risk ``kind`` ('advantage' or 'tpr', at ``fpr``) of ``value`` as the risk module states
    it."""
    if kind == "advantage":
        return risk.at_most_advantage(value)
    return risk.at_most_tpr(value, float(fpr))  # type: ignore[arg-type]


def _linearised(kind: str, values: np.ndarray, fpr: float | None) -> np.ndarray:
    """A risk read as the log of the μ of a Gaussian mechanism with that risk (App. G: advantage
    2Φ(μ/2) − 1, TPR Φ(Φ⁻¹(α) + μ); ``risk.mu_for``), or log ε: nearly linear in log σ for
    DP-SGD, which the central-limit theorem makes about μ-GDP with μ ≈ q√T·√(e^(1/σ²) − 1). A
    risk that no Gaussian μ > 0 has (an advantage of 0 or 1, a TPR at α or 1) is NaN."""
    values = np.asarray(values, dtype=float)
    if kind == "epsilon":
        mu = values
    else:
        mu = np.full(values.shape, np.nan)
        inside = (values > (0.0 if kind == "advantage" else float(fpr))) & (values < 1)  # type: ignore[arg-type]
        if inside.any():
            mu[inside] = risk.mu_for("Gaussian", _risk_target(kind, values[inside], fpr))
    with np.errstate(invalid="ignore"):
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
            raise OutOfReach(
                f"the target is met at every σ down to {rung(_RUNGS[0])}, the least noise "
                "searched: a target this loose needs no calibration here"
            )
        if j == top and above:
            raise OutOfReach(
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
    bounds = np.log((np.exp(x[:-1]) + (candidates(k) - 1) * d[1:]) / (1 - d[1:]))
    best = float(bounds[0])
    for i in range(1, len(bounds)):
        if x[i] >= best:
            return best, False
        best = min(best, float(bounds[i]))
    return best, True


def randomized_response_success(epsilon: float, k: int) -> float:
    """k-ary randomized response's chance of naming the right one of k, e^ε/(e^ε + k − 1): the
    exact worst case under ε-DP (``risk.singling_out``)."""
    return risk.singling_out(risk.pure(epsilon), candidates(k)).attained


def attained_singling_out(pld: Any, k: int) -> float:
    """The chance to single out one of k that a mechanism with DP-SGD's guarantee (the curve of
    ``pld``) attains: k-ary randomized response at the largest ε that lies under the curve
    (``randomized_response_within``, on a grid of ``PROFILE_STEP`` widened until the ε is found)."""
    n = candidates(k)
    top = pld_epsilon(pld, 1e-12) + 1.0
    while True:
        grid = np.arange(0.0, top + PROFILE_STEP, PROFILE_STEP)
        eps, ran_out = randomized_response_within(grid, pld_deltas(pld, grid), n)
        if not ran_out:
            return randomized_response_success(eps, n)
        top *= 2


def sigma_for_attained_singling_out(
    setting: DpsgdSetting, max_success: float, k: int, start: float
) -> tuple[float, float]:
    """The least DP-SGD noise multiplier at which no k-ary randomized response with a chance
    above ``max_success`` is found under the curve (``randomized_response_within``): with less
    noise, a mechanism with the same guarantee singles out one of k with a chance above it,
    whatever the bound says. Found in log σ from ``start`` (the bound's noise, at or above the
    answer) by brentq to ``CALIBRATION_RTOL``, spent on the safe side: the σ returned is the
    smallest evaluated whose attained chance is below ``max_success``. Returns σ and that chance."""
    n = candidates(k)
    gamma = open_unit("max_success", max_success)
    if gamma <= 1 / n:
        raise ValueError(f"max_success must exceed 1/k = {1 / n:g}, got {max_success!r}")
    # k-RR's ε at that chance: its posterior at the prior 1/k (imported here, as it brings numba)
    from .possible_worlds import bounded_guarantee

    eps_gamma = bounded_guarantee(n, gamma)
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
