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
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
from scipy import optimize, special, stats

from ._validate import closed_unit, nonnegative, open_unit, positive, unit_rates

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


def safe_side(
    value: float,
    target: float,
    readings: Sequence[Callable[[float], Any]],
    toward: float = math.inf,
) -> float:
    """The float nearest ``value``, moved toward ``toward`` (+∞: more noise; −∞: a smaller ε), at
    which every one of ``readings`` gives a risk of at most ``target``: steps of one unit in the
    last place, doubling, so a closed form's rounding never allows a hair more than the target.
    The readings are the exact one (mpmath, ``EXACT_DIGITS``), which bounds the true risk, and the
    float ones the package prints, so that neither shows the target exceeded. ``value`` itself
    when it already meets them."""
    x = float(value)
    step = math.ulp(x) if x != 0 else sys.float_info.min
    with mpmath.workdps(EXACT_DIGITS):
        bound = mpmath.mpf(float(target))
        for _ in range(1100):
            if all(read(x) <= bound for read in readings):
                return x
            x = x + step if toward > 0 else x - step
            step *= 2
    raise ValueError(f"no value near {value!r} meets the target {target!r}")


# --- exact readings, which check a closed form's float on the safe side -------------------------

# the digits of the exact readings: a float's last bit (16 digits) shows with room to spare
EXACT_DIGITS = 40


def as_exact(x: Any) -> Any:
    """A float as the mpmath number of the same value (exact); an mpmath number as it is."""
    return x if isinstance(x, mpmath.mpf) else mpmath.mpf(float(x))


def exact_normal_quantile(p: float) -> Any:
    """Φ⁻¹(p) at ``EXACT_DIGITS`` digits: Newton's method on log Φ from scipy's float answer (the
    lower tail taken for p ≤ ½, its mirror above)."""
    with mpmath.workdps(EXACT_DIGITS):
        q = as_exact(p)
        lower = q <= mpmath.mpf(1) / 2
        tail = q if lower else 1 - q
        start = mpmath.mpf(float(stats.norm.ppf(float(tail))))
        z = mpmath.findroot(lambda z: mpmath.log(mpmath.ncdf(z)) - mpmath.log(tail), start)
        return z if lower else -z


def exact_gaussian_advantage(mu: float) -> Any:
    """2Φ(μ/2) − 1 = erf(μ/(2√2)) at ``EXACT_DIGITS`` digits."""
    with mpmath.workdps(EXACT_DIGITS):
        return mpmath.erf(as_exact(mu) / (2 * mpmath.sqrt(2)))


def exact_gaussian_tpr(mu: float, alpha: float) -> Any:
    """Φ(Φ⁻¹(α) + μ), the μ-GDP curve's TPR at FPR α, at ``EXACT_DIGITS`` digits."""
    with mpmath.workdps(EXACT_DIGITS):
        return mpmath.ncdf(exact_normal_quantile(alpha) + as_exact(mu))


def exact_gaussian_delta(mu: float, epsilon: float) -> Any:
    """δ(ε) of μ-GDP, Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) (Eq. 48), at ``EXACT_DIGITS`` digits."""
    with mpmath.workdps(EXACT_DIGITS):
        m, e = as_exact(mu), as_exact(epsilon)
        return mpmath.ncdf(m / 2 - e / m) - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)


def exact_advantage_bound(epsilon: float, delta: float) -> Any:
    """(e^ε − 1 + 2δ)/(e^ε + 1) (Eq. 8) at ``EXACT_DIGITS`` digits."""
    with mpmath.workdps(EXACT_DIGITS):
        e = as_exact(epsilon)
        return (mpmath.expm1(e) + 2 * as_exact(delta)) / (mpmath.exp(e) + 1)


def exact_tpr_bound(epsilon: float, delta: float, alpha: float) -> Any:
    """1 − β(α) of Eq. (5), the largest TPR at FPR α under (ε, δ)-DP, at ``EXACT_DIGITS``
    digits."""
    with mpmath.workdps(EXACT_DIGITS):
        e, d, a = as_exact(epsilon), as_exact(delta), as_exact(alpha)
        return 1 - max(mpmath.mpf(0), 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))


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
    a = unit_rates("alpha", alpha)
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
    epsilon = math.log((1 + eta - 2 * d) / (1 - eta))
    readings = (lambda e: exact_advantage_bound(e, d), lambda e: advantage_bound(max(e, 0.0), d))
    return safe_side(epsilon, eta, readings, toward=-math.inf)


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
    epsilon = max(math.log((1 - d - b) / a), math.log((1 - d - a) / b))
    # the FNR β(α) the ε allows is at least β: TPR − 1 at most −β
    readings = (
        lambda e: exact_tpr_bound(e, d, a) - 1,
        lambda e: -float(beta_bound(max(e, 0.0), d, a)),
    )
    return safe_side(epsilon, -b, readings, toward=-math.inf)


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
    a = unit_rates("alpha", alpha)
    value = stats.norm.cdf(stats.norm.isf(a) - m)
    return float(value) if value.ndim == 0 else value


def gaussian_delta(mu: float, epsilon: float) -> float:
    """δ(ε) of the μ-GDP Gaussian mechanism, Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) (Eq. 48)."""
    m = positive("mu", mu)
    e = nonnegative("epsilon", epsilon)
    first = special.log_ndtr(m / 2 - e / m)
    if first == -math.inf:
        return 0.0  # both terms underflow: μ far below ε
    second = e + special.log_ndtr(-m / 2 - e / m)
    return float(np.exp(first) * -np.expm1(second - first))


def gaussian_sigma_for_advantage(advantage: float, sensitivity: float = 1.0) -> float:
    """Noise of the Gaussian mechanism at advantage η, Δ₂/(2Φ⁻¹((η + 1)/2)) (Corollary G.2)."""
    eta = open_unit("advantage", advantage)
    width = positive("sensitivity", sensitivity)
    sigma = width / (2 * math.sqrt(2) * float(special.erfinv(eta)))
    readings = (
        lambda s: exact_gaussian_advantage(as_exact(width) / as_exact(s)),
        lambda s: gaussian_advantage(width / s),
    )
    return safe_side(sigma, eta, readings)


def gaussian_sigma_for_err_rates(alpha: float, beta: float, sensitivity: float = 1.0) -> float:
    """Noise of the Gaussian mechanism whose best test at FPR α misses with probability β,
    Δ₂/(Φ⁻¹(1 − α) − Φ⁻¹(β)) (Corollary G.3)."""
    a = open_unit("alpha", alpha)
    b = open_unit("beta", beta)
    if not a + b < 1:
        raise ValueError(f"alpha + beta must be < 1, got alpha = {alpha!r}, beta = {beta!r}")
    width = positive("sensitivity", sensitivity)
    sigma = width / float(stats.norm.isf(a) - stats.norm.ppf(b))
    # the FNR at α is at least β: TPR − 1 at most −β
    readings = (
        lambda s: exact_gaussian_tpr(as_exact(width) / as_exact(s), a) - 1,
        lambda s: -float(gaussian_beta(width / s, a)),
    )
    return safe_side(sigma, -b, readings)


def gaussian_sigma_for_epsilon_delta(
    epsilon: float, delta: float, sensitivity: float = 1.0
) -> float:
    """Smallest Gaussian noise that is (ε, δ)-DP, solving Eq. (48) for μ (Balle & Wang 2018)."""
    e = nonnegative("epsilon", epsilon)
    d = open_unit("delta", delta)
    # in log μ, from μ = 1e-300 (δ(ε) ≈ μφ(0) at ε = 0, so a δ of 1e-12 needs μ near 2.5e-12)
    log_mu = optimize.brentq(
        lambda t: gaussian_delta(math.exp(t), e) - d, -690.0, math.log(1e3), xtol=1e-15
    )
    width = positive("sensitivity", sensitivity)
    readings = (
        lambda s: exact_gaussian_delta(as_exact(width) / as_exact(s), e),
        lambda s: gaussian_delta(width / s, e),
    )
    return safe_side(width / math.exp(log_mu), d, readings)


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
            mu = 1 / gaussian_sigma_for_epsilon_delta(target, s.delta)
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
    """The ε* of standard calibration for a target at the setting's δ (Eq. 25 or Algorithm 5)."""
    if kind == "advantage":
        return epsilon_for_advantage(target, setting.delta)
    if kind == "tpr":
        if fpr is None:
            raise ValueError("fpr must be given for a TPR target")
        return epsilon_for_err_rates(fpr, 1 - target, setting.delta)
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
