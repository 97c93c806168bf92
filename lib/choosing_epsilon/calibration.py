"""Calibrating noise to an attack risk instead of to ε (Kulynych et al. 2024, "Attack-aware noise
calibration"): the Gaussian mechanism in closed form, DP-SGD through its privacy loss distribution.

Two routes to the noise that keeps a membership attack below a stated risk. The *standard* route
picks the ε that the (ε, δ) bound turns into that risk (Eq. 8 for the advantage, Eq. 5 for the
true-positive rate at a false-positive rate α) and then the smallest noise with ε(δ) ≤ ε. The
*attack-aware* route asks the mechanism's own trade-off curve for the risk (Theorem 3.3) and takes
the smallest noise that meets it (Eqs. 13 and 18). For the Gaussian mechanism both are closed
forms (Appendix G); for DP-SGD the curve comes from the privacy loss distribution of
dp-accounting (connect-the-dots discretisation, Doroshenko et al. 2022), read by riskcal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from ._validate import closed_unit, nonnegative, open_unit, positive

# relative tolerance of every numerical calibration below (scipy's brentq ``rtol``): the noise is
# found to about four significant digits
CALIBRATION_RTOL = 1e-4


# --- (ε, δ) read as attack risk (Propositions 2.1 and 2.2) -------------------------------------


def advantage_bound(epsilon: float, delta: float) -> float:
    """Largest advantage an (ε, δ)-DP mechanism allows, (e^ε − 1 + 2δ)/(e^ε + 1) (Eq. 8)."""
    e = nonnegative("epsilon", epsilon)
    d = closed_unit("delta", delta)
    return float((math.expm1(e) + 2 * d) / (math.exp(e) + 1))


def beta_bound(epsilon: float, delta: float, alpha: float | np.ndarray) -> float | np.ndarray:
    """Smallest false-negative rate at false-positive rate α under (ε, δ)-DP (Eq. 5)."""
    e = nonnegative("epsilon", epsilon)
    d = closed_unit("delta", delta)
    a = np.asarray(alpha, dtype=float)
    if np.any((a < 0) | (a > 1)):
        raise ValueError(f"alpha must lie in [0, 1], got {alpha!r}")
    value = np.maximum.reduce(
        [np.zeros_like(a), 1 - d - math.exp(e) * a, math.exp(-e) * (1 - d - a)]
    )
    return float(value) if value.ndim == 0 else value


def epsilon_for_advantage(advantage: float, delta: float) -> float:
    """The ε at which Eq. (8) allows exactly the advantage η: log((1 + η − 2δ)/(1 − η)) (Eq. 25)."""
    eta = open_unit("advantage", advantage)
    d = closed_unit("delta", delta)
    if not eta > d:
        raise ValueError(
            f"advantage must exceed delta = {d!r} (at ε = 0, (0, δ)-DP already allows advantage "
            "δ), "
            f"got {advantage!r}"
        )
    return math.log((1 + eta - 2 * d) / (1 - eta))


def epsilon_for_err_rates(alpha: float, beta: float, delta: float) -> float:
    """The largest ε whose (ε, δ) curve (Eq. 5) still has false-negative rate β at α (Alg. 5)."""
    a = open_unit("alpha", alpha)
    b = open_unit("beta", beta)
    d = closed_unit("delta", delta)
    if not a + b < 1 - d:
        raise ValueError(
            f"alpha + beta must be < 1 − delta = {1 - d!r} (else no ε ≥ 0 meets it), "
            f"got alpha = {alpha!r}, beta = {beta!r}"
        )
    return max(math.log((1 - d - b) / a), math.log((1 - d - a) / b))


def advantage_calibration_gap(advantage: float, delta: float, alpha: float) -> float:
    """Lower bound on the rise in attack power at FPR α from calibrating to advantage instead of
    to (ε, δ) for the same advantage: η − δ + 2αη/(η − 1) (Proposition 3.3, Eq. 15)."""
    eta = open_unit("advantage", advantage)
    d = closed_unit("delta", delta)
    a = closed_unit("alpha", alpha)
    return eta - d + 2 * a * eta / (eta - 1)


def worst_case_gap(advantage: float, delta: float, alpha: float | np.ndarray) -> np.ndarray:
    """The exact gap f_standard(α) − f_adv(α) for the four-outcome mechanism of the proof of
    Proposition 3.3, whose trade-off curve is Eq. (5) itself: (ε*, δ) against (0, η)."""
    eps = epsilon_for_advantage(advantage, delta)
    return np.asarray(beta_bound(eps, delta, alpha)) - np.asarray(beta_bound(0.0, advantage, alpha))


# --- the Gaussian mechanism in closed form (Appendix G) ----------------------------------------


def gaussian_mu(sigma: float, sensitivity: float = 1.0) -> float:
    """μ = Δ₂/σ: the Gaussian mechanism of noise σ is μ-GDP (Proposition G.1)."""
    return positive("sensitivity", sensitivity) / positive("sigma", sigma)


def gaussian_advantage(mu: float) -> float:
    """Advantage of the μ-GDP Gaussian mechanism, 2Φ(μ/2) − 1 (Eq. 50)."""
    m = nonnegative("mu", mu)
    return float(special.erf(m / (2 * math.sqrt(2))))


def gaussian_beta(mu: float, alpha: float | np.ndarray) -> float | np.ndarray:
    """False-negative rate of the best test at FPR α, Φ(Φ⁻¹(1 − α) − μ) (Eq. 49)."""
    m = nonnegative("mu", mu)
    a = np.asarray(alpha, dtype=float)
    if np.any((a < 0) | (a > 1)):
        raise ValueError(f"alpha must lie in [0, 1], got {alpha!r}")
    value = stats.norm.cdf(stats.norm.isf(a) - m)
    return float(value) if value.ndim == 0 else value


def gaussian_delta(mu: float, epsilon: float) -> float:
    """δ(ε) of the μ-GDP Gaussian mechanism, Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) (Eq. 48)."""
    m = positive("mu", mu)
    e = nonnegative("epsilon", epsilon)
    first = special.log_ndtr(m / 2 - e / m)
    second = e + special.log_ndtr(-m / 2 - e / m)
    return float(np.exp(first) * -np.expm1(second - first))


def gaussian_sigma_for_advantage(advantage: float, sensitivity: float = 1.0) -> float:
    """Noise of the Gaussian mechanism at advantage η, Δ₂/(2Φ⁻¹((η + 1)/2)) (Corollary G.2)."""
    eta = open_unit("advantage", advantage)
    return positive("sensitivity", sensitivity) / (2 * stats.norm.ppf((eta + 1) / 2))


def gaussian_sigma_for_err_rates(alpha: float, beta: float, sensitivity: float = 1.0) -> float:
    """Noise of the Gaussian mechanism whose best test at FPR α misses with probability β,
    Δ₂/(Φ⁻¹(1 − α) − Φ⁻¹(β)) (Corollary G.3)."""
    a = open_unit("alpha", alpha)
    b = open_unit("beta", beta)
    if not a + b < 1:
        raise ValueError(f"alpha + beta must be < 1, got alpha = {alpha!r}, beta = {beta!r}")
    return positive("sensitivity", sensitivity) / (stats.norm.isf(a) - stats.norm.ppf(b))


def gaussian_sigma_for_epsilon_delta(
    epsilon: float, delta: float, sensitivity: float = 1.0
) -> float:
    """Smallest Gaussian noise that is (ε, δ)-DP, solving Eq. (48) for μ (Balle & Wang 2018)."""
    e = nonnegative("epsilon", epsilon)
    d = open_unit("delta", delta)
    mu = optimize.brentq(lambda m: gaussian_delta(m, e) - d, 1e-9, 1e3, xtol=1e-14, rtol=1e-14)
    return positive("sensitivity", sensitivity) / mu


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


def dpsgd_pld(sigma: float, sample_rate: float, num_steps: int, grid_step: float = 1e-4):
    """The privacy loss distribution of DP-SGD (Poisson-subsampled Gaussian, add/remove, composed
    ``num_steps`` times), as riskcal builds it (dp-accounting, connect-the-dots)."""
    from dp_accounting.pld import privacy_loss_distribution

    return privacy_loss_distribution.from_gaussian_mechanism(
        standard_deviation=positive("sigma", sigma),
        sampling_prob=open_unit("sample_rate", sample_rate),
        use_connect_dots=True,
        value_discretization_interval=positive("grid_step", grid_step),
    ).self_compose(int(num_steps))


@dataclass(frozen=True)
class Risks:
    """What one noise multiplier allows: advantage, FNR at each FPR, and ε at the setting's δ."""

    sigma: float
    advantage: float
    betas: tuple[float, ...]
    epsilon: float


@dataclass
class DpsgdAccountant:
    """Evaluates DP-SGD's risks at a noise multiplier once, and remembers them: every calibration
    of a setting shares the evaluations (one PLD gives the advantage, every β(α) and ε(δ))."""

    setting: DpsgdSetting
    memo: dict[float, Risks] = field(default_factory=dict)

    def risks(self, sigma: float) -> Risks:
        """riskcal's advantage (Eq. 11) and β(α) (Algorithm 1) and dp-accounting's ε(δ)."""
        from riskcal.analysis import get_advantage_from_pld, get_beta_from_pld

        key = float(sigma)
        if key not in self.memo:
            s = self.setting
            pld = dpsgd_pld(key, s.sample_rate, s.num_steps, s.grid_step)
            betas = np.atleast_1d(get_beta_from_pld(pld, alpha=np.asarray(s.fprs, dtype=float)))
            self.memo[key] = Risks(
                key,
                float(get_advantage_from_pld(pld)),
                tuple(float(b) for b in betas),
                float(pld.get_epsilon_for_delta(s.delta)),
            )
        return self.memo[key]

    def measure(self, kind: str, sigma: float, fpr: float | None = None) -> float:
        """The risk ``kind`` at ``sigma``: 'advantage', 'tpr' (at ``fpr``) or 'epsilon'."""
        r = self.risks(sigma)
        if kind == "advantage":
            return r.advantage
        if kind == "epsilon":
            return r.epsilon
        if kind == "tpr":
            if fpr not in self.setting.fprs:
                raise ValueError(f"fpr must be one of {self.setting.fprs}, got {fpr!r}")
            return 1 - r.betas[self.setting.fprs.index(fpr)]
        raise ValueError(f"kind must be 'advantage', 'tpr' or 'epsilon', got {kind!r}")

    def calibrate(
        self, kind: str, target: float, fpr: float | None = None, start: float | None = None
    ) -> float:
        """Smallest noise multiplier whose risk ``kind`` is at most ``target`` (Eqs. 2, 13, 18):
        a bracket on a fixed ladder of σ (factor 2^(1/4)) searched outward from ``start`` (by
        default the central-limit guess, ``clt_sigma``), then scipy's brentq to
        ``CALIBRATION_RTOL``."""
        if start is None:
            s = self.setting
            if kind == "advantage":
                mu = 2 * stats.norm.ppf((1 + target) / 2)
            elif kind == "tpr":
                mu = stats.norm.ppf(target) + stats.norm.isf(float(fpr))  # type: ignore[arg-type]
            else:
                mu = 1 / gaussian_sigma_for_epsilon_delta(target, s.delta)
            start = clt_sigma(max(mu, 1e-6), s.sample_rate, s.num_steps)
        return _calibrate(lambda s: self.measure(kind, s, fpr) - target, start)


def clt_sigma(mu: float, sample_rate: float, num_steps: int) -> float:
    """The noise at which DP-SGD is about μ-GDP by the central limit theorem of Bu et al. (2020),
    μ ≈ q√T·√(e^(1/σ²) − 1): only a starting point for the exact calibration."""
    ratio = positive("mu", mu) / (open_unit("sample_rate", sample_rate) * math.sqrt(num_steps))
    return 1 / math.sqrt(math.log1p(ratio**2))


_LADDER = 2.0 ** (np.arange(-12, 33) / 4)  # σ from 0.125 to 304, a fixed ladder of brackets


def _calibrate(excess: Callable[[float], float], start: float = 1.0) -> float:
    """Root of a decreasing ``excess``: a bracket of two neighbouring rungs of the ladder, found by
    strides that double from the rung nearest ``start`` (small σ are the costly ones, so the search
    reaches them only when it must), then brentq inside it."""
    i = int(np.argmin(np.abs(np.log(_LADDER) - math.log(positive("start", start)))))
    above = excess(_LADDER[i]) > 0  # True: more noise is needed
    stride, last = 1, i
    while True:
        j = min(max(last + (stride if above else -stride), 0), len(_LADDER) - 1)
        if (excess(_LADDER[j]) > 0) != above:
            break
        if j in (0, len(_LADDER) - 1):
            raise ValueError(
                f"the target is not met between σ = {_LADDER[0]} and {_LADDER[-1]:.0f}"
            )
        # strides double upward only: downward each rung costs more than the last
        last, stride = j, 2 * stride if above else 1
    lo, hi = sorted((last, j))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if excess(_LADDER[mid]) > 0 else (lo, mid)
    return float(
        optimize.brentq(excess, _LADDER[lo], _LADDER[hi], xtol=1e-12, rtol=CALIBRATION_RTOL)
    )


def blackbox_beta(pld, alpha: float, epsilons: Sequence[float] | np.ndarray) -> float:
    """A lower bound on the trade-off curve at α from dp-accounting's δ(ε) alone: the sup over a
    grid of ε of Eq. (5) (Appendix A, Eq. 20), independent of riskcal's Algorithm 1."""
    a = open_unit("alpha", alpha)
    eps = np.asarray(epsilons, dtype=float)
    deltas = np.asarray(pld.get_delta_for_epsilon(eps), dtype=float)
    first = 1 - deltas - np.exp(eps) * a
    second = np.exp(-eps) * (1 - deltas - a)
    return float(np.max(np.maximum(np.maximum(first, second), 0)))


def independent_checks(setting: DpsgdSetting, sigma: float) -> dict[str, float]:
    """At ``sigma``, the risks by routes other than the calibration's: the advantage as the largest
    1 − α − β(α) of riskcal's trade-off curve on a grid of 2,001 FPRs (Theorem 3.3's curve, not
    Eq. 11), and each β(α) as dp-accounting's δ(ε) turned into a curve by Eq. (20) on 2,001 ε."""
    from riskcal.analysis import get_beta_from_pld

    pld = dpsgd_pld(sigma, setting.sample_rate, setting.num_steps, setting.grid_step)
    alphas = np.linspace(0, 1, 2001)
    curve = np.asarray(get_beta_from_pld(pld, alpha=alphas), dtype=float)
    checks: dict[str, float] = {"advantage_from_curve": float(np.max(1 - alphas - curve))}
    epsilons = np.linspace(0, float(pld.get_epsilon_for_delta(1e-12)), 2001)
    for a in setting.fprs:
        checks[f"tpr_blackbox_at_{a:g}"] = 1 - blackbox_beta(pld, a, epsilons)
    return checks


def standard_and_aware(
    accountant: DpsgdAccountant, kind: str, target: float, fpr: float | None = None
) -> dict[str, Any]:
    """Both routes to one target: the standard ε and its noise, the attack-aware noise, their
    ratio, and what each noise allows at every FPR of the setting."""
    s = accountant.setting
    if kind == "advantage":
        epsilon = epsilon_for_advantage(target, s.delta)
    elif kind == "tpr":
        if fpr is None:
            raise ValueError("fpr must be given for a TPR target")
        epsilon = epsilon_for_err_rates(fpr, 1 - target, s.delta)
    else:
        raise ValueError(f"kind must be 'advantage' or 'tpr', got {kind!r}")
    sigma_aware = accountant.calibrate(kind, target, fpr)
    # standard calibration never needs less noise than the attack-aware: search upward from it
    sigma_standard = accountant.calibrate("epsilon", epsilon, start=sigma_aware)
    row: dict[str, Any] = {
        "kind": kind,
        "fpr": math.nan if fpr is None else float(fpr),
        "target": float(target),
        "epsilon_target": epsilon,
        "sigma_standard": sigma_standard,
        "sigma_aware": sigma_aware,
        "noise_ratio": sigma_standard / sigma_aware,
    }
    for name, sigma in (("standard", sigma_standard), ("aware", sigma_aware)):
        r = accountant.risks(sigma)
        row[f"advantage_{name}"] = r.advantage
        row[f"epsilon_{name}"] = r.epsilon
        for a, b in zip(s.fprs, r.betas):
            row[f"tpr_{name}_at_{a:g}"] = 1 - b
    row |= {f"{k}_aware": v for k, v in independent_checks(s, sigma_aware).items()}
    return row
