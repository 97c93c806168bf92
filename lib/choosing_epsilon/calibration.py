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


KINDS = ("advantage", "tpr", "epsilon")
# the root search: a ladder of σ with this many rungs per doubling, 2^(k/8) from 0.125 to 304
RUNGS_PER_OCTAVE = 8
_RUNGS = (-3 * RUNGS_PER_OCTAVE, 66)
# half-width of the pair of evaluations that confirms a predicted root, in units of
# CALIBRATION_RTOL: a pair that straddles the root is a bracket narrower than brentq's tolerance
_PAIR_HALF_WIDTH = 0.4


def rung(k: int) -> float:
    """The k-th σ of the root search's ladder, 2^(k/8) (the same float wherever it is computed)."""
    return float(2.0 ** (k / RUNGS_PER_OCTAVE))


def nearest_rung(sigma: float) -> int:
    """The index of the rung of the ladder nearest to ``sigma`` (in log σ), within its ends."""
    k = round(RUNGS_PER_OCTAVE * math.log2(positive("sigma", sigma)))
    return min(max(k, _RUNGS[0]), _RUNGS[1])


@dataclass
class DpsgdAccountant:
    """Evaluates DP-SGD's risks at a noise multiplier once, and remembers them: every calibration
    of a setting shares the evaluations (one PLD gives the advantage, every β(α) and ε(δ)). The
    last few privacy loss distributions are kept for the independent checks."""

    setting: DpsgdSetting
    memo: dict[float, Risks] = field(default_factory=dict)
    kept: int = 4
    _plds: dict[float, Any] = field(default_factory=dict, repr=False)

    def pld(self, sigma: float):
        """DP-SGD's privacy loss distribution at ``sigma`` (kept from its evaluation if recent)."""
        key = float(sigma)
        if key not in self._plds:
            s = self.setting
            self._plds[key] = dpsgd_pld(key, s.sample_rate, s.num_steps, s.grid_step)
            while len(self._plds) > self.kept:
                del self._plds[next(iter(self._plds))]
        return self._plds[key]

    def risks(self, sigma: float) -> Risks:
        """riskcal's advantage (Eq. 11) and β(α) (Algorithm 1) and dp-accounting's ε(δ)."""
        from riskcal.analysis import get_advantage_from_pld, get_beta_from_pld

        key = float(sigma)
        if key not in self.memo:
            s = self.setting
            pld = self.pld(key)
            betas = np.atleast_1d(get_beta_from_pld(pld, alpha=np.asarray(s.fprs, dtype=float)))
            self.memo[key] = Risks(
                key,
                float(get_advantage_from_pld(pld)),
                tuple(float(b) for b in betas),
                float(pld.get_epsilon_for_delta(s.delta)),
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
        if kind == "advantage":
            mu = 2 * stats.norm.ppf((1 + target) / 2)
        elif kind == "tpr":
            mu = stats.norm.ppf(target) + stats.norm.isf(float(fpr))  # type: ignore[arg-type]
        else:
            mu = risk.gdp_mu_for_epsilon_delta(target, s.delta)
        return clt_sigma(max(float(mu), 1e-6), s.sample_rate, s.num_steps)

    def calibrate(
        self, kind: str, target: float, fpr: float | None = None, start: float | None = None
    ) -> float:
        """Smallest noise multiplier whose risk ``kind`` is at most ``target`` (Eqs. 2, 13, 18),
        to a relative tolerance ``CALIBRATION_RTOL`` spent on the safe side: the σ returned is
        the smallest evaluated one whose risk is at most ``target`` − ``ACCOUNTANT_MARGIN``, so
        it allows no more than the target on any CPU. The search, toward that goal:

        1. a bracket on the ladder 2^(k/8), from the rung nearest ``start`` (by default the
           central-limit guess) outward, with the rung beyond each end (rungs already evaluated,
           for this target or another, cost nothing);
        2. the root predicted by inverse interpolation through the four evaluations nearest the
           target (a cubic in log σ against the risk read as a Gaussian μ, see ``_linearised``),
           and confirmed by a pair of evaluations at ±0.4 × the tolerance around it, repeated
           from the new evaluations if the pair misses;
        3. scipy's brentq on the narrowest bracket found, with ``rtol=CALIBRATION_RTOL``: when the
           pair straddles the root it returns at once, otherwise it finishes the search;
        4. the safe end of the narrowest bracket the evaluations then hold."""
        self.check_kind(kind, fpr)
        target = float(target) - ACCOUNTANT_MARGIN

        def excess(sigma: float) -> float:
            return self.measure(kind, sigma, fpr) - target

        k = nearest_rung(self.guess(kind, target, fpr) if start is None else start)
        lo_k, hi_k = _ladder_bracket(lambda j: excess(rung(j)) > 0, k)
        for j in (lo_k - 1, hi_k + 1):
            if _RUNGS[0] <= j <= _RUNGS[1]:
                excess(rung(j))
        half = _PAIR_HALF_WIDTH * CALIBRATION_RTOL
        for _ in range(3):
            lo, hi = self._bracket(kind, target, fpr, rung(lo_k), rung(hi_k))
            if hi - lo <= 2 * half * lo:
                break
            root = self._predict(kind, target, fpr, lo, hi)
            for sigma in (root * (1 - half), root * (1 + half)):
                if lo < sigma < hi:
                    excess(sigma)
        lo, hi = self._bracket(kind, target, fpr, rung(lo_k), rung(hi_k))
        optimize.brentq(excess, lo, hi, xtol=1e-12, rtol=CALIBRATION_RTOL)
        return self._bracket(kind, target, fpr, rung(lo_k), rung(hi_k))[1]

    def _known(self, kind: str, fpr: float | None) -> tuple[np.ndarray, np.ndarray]:
        sigmas = np.array(sorted(self.memo))
        values = np.array([self.read(self.memo[s], kind, fpr) for s in sigmas])
        return sigmas, values

    def _bracket(
        self, kind: str, target: float, fpr: float | None, lo: float, hi: float
    ) -> tuple[float, float]:
        """The narrowest bracket of the root among the evaluations: the largest σ whose risk
        exceeds the target and the smallest σ that meets it (the ladder's bracket if the
        evaluations are not monotone there)."""
        sigmas, values = self._known(kind, fpr)
        inside = (sigmas >= lo) & (sigmas <= hi)
        sigmas, values = sigmas[inside], values[inside]
        above = sigmas[values > target]
        below = sigmas[values <= target]
        a, b = float(above.max()), float(below.min())
        return (a, b) if a < b else (lo, hi)

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


def _ladder_bracket(needs_more: Callable[[int], bool], k: int) -> tuple[int, int]:
    """Two neighbouring rungs of the ladder with the root between them: strides that double
    from rung ``k`` upward (large σ are cheap) and single rungs downward (each costs more than the
    last), then bisection on the rungs."""
    above = needs_more(k)  # True: more noise is needed
    stride, last = 1, k
    while True:
        j = min(max(last + (stride if above else -stride), _RUNGS[0]), _RUNGS[1])
        if needs_more(j) != above:
            break
        if j in _RUNGS:
            raise ValueError(
                f"the target is not met between σ = {rung(_RUNGS[0])} and {rung(_RUNGS[1]):.0f}"
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
    deltas = np.asarray(pld.get_delta_for_epsilon(eps), dtype=float)
    first = 1 - deltas - np.exp(eps) * a
    second = np.exp(-eps) * (1 - deltas - a)
    return float(np.max(np.maximum(np.maximum(first, second), 0)))


def independent_checks(setting: DpsgdSetting, sigma: float, pld=None) -> dict[str, float]:
    """At ``sigma``, the risks by routes other than the calibration's: the advantage as the largest
    1 − α − β(α) of riskcal's trade-off curve on a grid of 2,001 FPRs (Theorem 3.3's curve, not
    Eq. 11), and each β(α) as dp-accounting's δ(ε) turned into a curve by Eq. (20) on 2,001 ε.
    ``pld``: the privacy loss distribution at ``sigma`` if the caller holds it."""
    from riskcal.analysis import get_beta_from_pld

    if pld is None:
        pld = dpsgd_pld(sigma, setting.sample_rate, setting.num_steps, setting.grid_step)
    alphas = np.linspace(0, 1, 2001)
    curve = np.asarray(get_beta_from_pld(pld, alpha=alphas), dtype=float)
    checks: dict[str, float] = {"advantage_from_curve": float(np.max(1 - alphas - curve))}
    epsilons = np.linspace(0, float(pld.get_epsilon_for_delta(1e-12)), 2001)
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
        k = nearest_rung(accountant.guess(kind, target, fpr))
        ks |= {j for j in range(k - 2, k + 3) if _RUNGS[0] <= j <= _RUNGS[1]}
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
