"""The noise one numeric release needs for a stated attack risk, Gaussian or Laplace, by two routes
(Kulynych et al. 2024, Sec. 3): *attack-aware*, from the mechanism's own trade-off curve, and
*standard*, through the ε (and δ) whose worst-case curve (Kairouz, Oh & Viswanath's, Eq. 5 of the
paper) meets the risk, then the least noise with that (ε, δ).

The risk is a largest advantage η (TPR − FPR of any membership test) or a largest TPR t at a
false-positive rate α. A release f(D) + noise with sensitivity Δ is read by the curve of the two
noise distributions shifted by Δ:

- Gaussian noise σ: Dong, Roth & Su's G_μ with μ = Δ/σ, T(α) = Φ(Φ⁻¹(α) + μ);
- Laplace noise b: the Laplace location family's own curve with μ = Δ/b,
  T(α) = 1 − F(F⁻¹(1 − α) − μ), F the standard Laplace distribution function (a shift of a
  log-concave density has a monotone likelihood ratio, so by Neyman and Pearson's lemma the
  threshold tests are the best ones), *not* the
  randomized-response curve of pure ε-DP at ε = Δ/b, which lies above it: the two agree where
  α ≤ ½ and T(α) ≤ ½ (the Laplace tails hold the extreme likelihood ratio e^ε) and differ in
  between, so calibrating a Laplace release to a TPR at a small FPR saves no noise, and to an
  advantage it does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import pandas as pd
from scipy import special, stats

from . import attack_risk, calibration
from ._validate import closed_unit, nonnegative, open_unit, positive, unit_rates

MECHANISMS = ("Gaussian", "Laplace")
# the trade-off curve each mechanism is read by, in words (the table's column "curve")
CURVES = {
    "Gaussian": "G_μ with μ = Δ/σ (Dong, Roth & Su), exact",
    "Laplace": (
        "the Laplace shift's own curve, μ = Δ/b, exact (not pure ε-DP's randomized-response curve)"
    ),
}
KINDS = ("advantage", "tpr")


# --- the Laplace mechanism's trade-off curve ---------------------------------------------------


def laplace_tpr(mu: float, fpr: float | np.ndarray) -> float | np.ndarray:
    """The largest TPR at false-positive rate α between Laplace(0, 1) and Laplace(μ, 1):
    1 − F(F⁻¹(1 − α) − μ), by the threshold test (the best one: Neyman-Pearson)."""
    m = nonnegative("mu", mu)
    a = unit_rates("fpr", fpr)
    value = stats.laplace.sf(stats.laplace.isf(a) - m)
    return float(value) if value.ndim == 0 else value


def laplace_advantage(mu: float) -> float:
    """The largest advantage between Laplace(0, 1) and Laplace(μ, 1): their total variation
    distance, 1 − e^(−μ/2) (the threshold test at μ/2)."""
    return float(-math.expm1(-nonnegative("mu", mu) / 2))


def exact_laplace_advantage(mu: float) -> Any:
    """1 − e^(−μ/2) at ``calibration.EXACT_DIGITS`` digits."""
    with mpmath.workdps(calibration.EXACT_DIGITS):
        return -mpmath.expm1(-calibration.as_exact(mu) / 2)


def exact_laplace_tpr(mu: float, fpr: float) -> Any:
    """1 − F(F⁻¹(1 − α) − μ) at ``calibration.EXACT_DIGITS`` digits, F the standard Laplace
    distribution function (F⁻¹(1 − α) = −log 2α for α ≤ ½, log 2(1 − α) above)."""
    with mpmath.workdps(calibration.EXACT_DIGITS):
        a = calibration.as_exact(fpr)
        x = (-mpmath.log(2 * a) if a <= 0.5 else mpmath.log(2 * (1 - a))) - calibration.as_exact(mu)
        return 1 - mpmath.exp(x) / 2 if x < 0 else mpmath.exp(-x) / 2


def exact_risk(mechanism: str, mu: float, target: RiskTarget) -> Any:
    """The risk ``target`` measures at shift μ, read exactly (mpmath): what a calibration's float
    is checked against."""
    if mechanism == "Gaussian":
        if target.kind == "advantage":
            return calibration.exact_gaussian_advantage(mu)
        return calibration.exact_gaussian_tpr(mu, target.fpr)
    if target.kind == "advantage":
        return exact_laplace_advantage(mu)
    return exact_laplace_tpr(mu, target.fpr)


def laplace_mu_for_advantage(advantage: float) -> float:
    """The shift μ = Δ/b at which the Laplace mechanism allows advantage η: −2 ln(1 − η)."""
    return -2 * math.log1p(-open_unit("advantage", advantage))


def laplace_mu_for_err_rates(fpr: float, tpr: float) -> float:
    """The shift μ = Δ/b at which the Laplace mechanism's best test at FPR α has TPR t:
    F⁻¹(1 − α) + F⁻¹(t), F the standard Laplace distribution function."""
    a, t = _err_rates(fpr, tpr)
    return float(stats.laplace.isf(a) + stats.laplace.ppf(t))


# --- the Gaussian mechanism, in μ (calibration.py's closed forms, as shifts) --------------------


def gaussian_mu_for_advantage(advantage: float) -> float:
    """The μ = Δ/σ at which the Gaussian mechanism allows advantage η: 2Φ⁻¹((1 + η)/2), written
    2√2 erf⁻¹(η) to keep its digits at η near 0 (Kulynych et al., Corollary G.2)."""
    return float(2 * math.sqrt(2) * special.erfinv(open_unit("advantage", advantage)))


def gaussian_mu_for_err_rates(fpr: float, tpr: float) -> float:
    """The μ = Δ/σ at which the Gaussian mechanism's best test at FPR α has TPR t:
    Φ⁻¹(1 − α) + Φ⁻¹(t) (Kulynych et al., Corollary G.3)."""
    a, t = _err_rates(fpr, tpr)
    return float(stats.norm.isf(a) + stats.norm.ppf(t))


def _err_rates(fpr: float, tpr: float) -> tuple[float, float]:
    a, t = open_unit("fpr", fpr), open_unit("tpr", tpr)
    if not t > a:
        raise ValueError(
            f"tpr must exceed fpr = {a!r} (a test with TPR ≤ FPR learns nothing: no finite noise "
            f"is needed to allow it, and none reaches it below), got {tpr!r}"
        )
    return a, t


# --- a stated risk ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RiskTarget:
    """The attack risk a reader accepts: ``kind`` 'advantage' (``value`` = η) or 'tpr'
    (``value`` = t at false-positive rate ``fpr``)."""

    kind: str
    value: float
    fpr: float = math.nan

    def __post_init__(self) -> None:
        if self.kind == "advantage":
            open_unit("advantage", self.value)
        elif self.kind == "tpr":
            _err_rates(self.fpr, self.value)
        else:
            raise ValueError(f"kind must be one of {list(KINDS)}, got {self.kind!r}")

    def describe(self) -> str:
        """The risk in a line: "advantage ≤ 0.25", "TPR ≤ 0.1 at FPR 0.01"."""
        if self.kind == "advantage":
            return f"advantage ≤ {self.value:g}"
        return f"TPR ≤ {self.value:g} at FPR {self.fpr:g}"


def advantage(max_advantage: float) -> RiskTarget:
    """The risk "no test gains more than ``max_advantage`` = TPR − FPR"."""
    return RiskTarget("advantage", max_advantage)


def tpr_at_fpr(max_tpr: float, fpr: float) -> RiskTarget:
    """The risk "no test with false-positive rate ``fpr`` has a TPR above ``max_tpr``"."""
    return RiskTarget("tpr", max_tpr, fpr)


def risk_of(mechanism: str, mu: float, target: RiskTarget) -> float:
    """The risk ``target`` measures, read on ``mechanism``'s own curve at shift μ: riskcal's
    closed forms for the Gaussian (get_advantage_from_gdp, get_beta_from_gdp), the Laplace
    curve's for the Laplace."""
    from riskcal.analysis import get_advantage_from_gdp, get_beta_from_gdp

    m = nonnegative("mu", mu)
    if mechanism == "Gaussian":
        if target.kind == "advantage":
            return float(get_advantage_from_gdp(m))
        return float(1 - get_beta_from_gdp(m, target.fpr))
    if mechanism == "Laplace":
        if target.kind == "advantage":
            return laplace_advantage(m)
        return float(laplace_tpr(m, target.fpr))
    raise ValueError(f"mechanism must be one of {list(MECHANISMS)}, got {mechanism!r}")


def aware_mu(mechanism: str, target: RiskTarget) -> float:
    """The largest shift μ = Δ/noise whose own curve meets ``target`` exactly: the attack-aware
    calibration (Kulynych et al., Eqs. 13 and 18, in closed form for both mechanisms)."""
    if mechanism == "Gaussian":
        if target.kind == "advantage":
            return gaussian_mu_for_advantage(target.value)
        return gaussian_mu_for_err_rates(target.fpr, target.value)
    if mechanism == "Laplace":
        if target.kind == "advantage":
            return laplace_mu_for_advantage(target.value)
        return laplace_mu_for_err_rates(target.fpr, target.value)
    raise ValueError(f"mechanism must be one of {list(MECHANISMS)}, got {mechanism!r}")


def standard_epsilon(target: RiskTarget, delta: float) -> float:
    """The ε at which (ε, δ)-DP's worst-case curve (Eq. 5) allows exactly ``target``: Eq. (25)
    for an advantage, riskcal's get_epsilon_from_err_rates for a TPR at an FPR (the paper's
    Algorithm 5); NaN where no ε ≥ 0 does, since (0, δ)-DP already allows advantage δ and TPR
    α + δ."""
    from riskcal.analysis import get_epsilon_from_err_rates

    d = closed_unit("delta", delta)
    if d >= 1:
        raise ValueError(f"delta must lie in [0, 1), got {delta!r}")
    if target.kind == "advantage":
        if not target.value > d:
            return math.nan
        return calibration.epsilon_for_advantage(target.value, d)
    if not target.value > target.fpr + d:
        return math.nan
    return float(get_epsilon_from_err_rates(d, target.fpr, 1 - target.value))


def gaussian_mu_for_epsilon_delta(epsilon: float, delta: float) -> float:
    """The largest μ = Δ/σ at which the Gaussian mechanism is (ε, δ)-DP: the exact analytic
    Gaussian mechanism (Balle & Wang 2018; ``calibration.gaussian_sigma_for_epsilon_delta`` at
    Δ = 1)."""
    return 1 / calibration.gaussian_sigma_for_epsilon_delta(epsilon, delta, 1.0)


def implied_epsilon(mechanism: str, mu: float, delta: float) -> float:
    """The ε that noise with shift μ = Δ/noise would be reported with under standard calibration:
    Δ/b = μ for the Laplace (pure ε-DP), and for the Gaussian the least ε at ``delta`` of the
    analytic Gaussian mechanism (Balle & Wang 2018; ``attack_risk.gdp_epsilon``)."""
    m = positive("mu", mu)
    if mechanism == "Laplace":
        return m
    if mechanism == "Gaussian":
        return attack_risk.gdp_epsilon(m, open_unit("delta", delta))
    raise ValueError(f"mechanism must be one of {list(MECHANISMS)}, got {mechanism!r}")


# --- both routes for one release ----------------------------------------------------------------

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
    target: RiskTarget
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


def routes(mechanism: str, target: RiskTarget, sensitivity: float, delta: float) -> Routes:
    """``mechanism`` (Gaussian at δ = ``delta``, Laplace at δ = 0) on a release of sensitivity
    ``sensitivity``, calibrated to ``target`` by both routes. Each noise is moved up from its
    closed form, by units in the last place, until its own reading allows at most the target
    (``calibration.safe_side``): the attack-aware noise's risk on the mechanism's curve, the
    standard noise's δ at its ε (Gaussian) or its Δ/b (Laplace)."""
    width = positive("sensitivity", sensitivity)
    d = {"Gaussian": open_unit("delta", delta), "Laplace": 0.0}[_mechanism(mechanism)]
    noise_aware = calibration.safe_side(
        width / aware_mu(mechanism, target),
        target.value,
        (
            lambda n: exact_risk(mechanism, _ratio(width, n), target),
            lambda n: risk_of(mechanism, width / n, target),
        ),
    )
    epsilon = standard_epsilon(target, d)
    if math.isnan(epsilon):
        noise_standard = math.inf  # no ε meets the risk: no finite noise reaches it by this route
    elif mechanism == "Laplace":
        noise_standard = calibration.safe_side(
            width / epsilon, epsilon, (lambda n: _ratio(width, n), lambda n: width / n)
        )
    else:
        noise_standard = calibration.safe_side(
            width / gaussian_mu_for_epsilon_delta(epsilon, d),
            d,
            (
                lambda n: calibration.exact_gaussian_delta(_ratio(width, n), epsilon),
                lambda n: calibration.gaussian_delta(width / n, epsilon),
            ),
        )
    finite = math.isfinite(noise_standard)
    return Routes(
        mechanism,
        target,
        d,
        width,
        noise_aware,
        risk_of(mechanism, width / noise_aware, target),
        implied_epsilon(mechanism, width / noise_aware, d),
        epsilon,
        noise_standard,
        risk_of(mechanism, width / noise_standard, target) if finite else math.nan,
    )


def _ratio(width: float, noise: float) -> Any:
    """Δ/noise, the shift μ, exactly (mpmath)."""
    with mpmath.workdps(calibration.EXACT_DIGITS):
        return calibration.as_exact(width) / calibration.as_exact(noise)


def _mechanism(mechanism: str) -> str:
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {list(MECHANISMS)}, got {mechanism!r}")
    return mechanism


def calibrate(targets: list[RiskTarget], sensitivity: float, delta: float) -> pd.DataFrame:
    """Every mechanism calibrated to every target by both routes, one row each (``COLUMNS``)."""
    rows = [routes(m, t, sensitivity, delta).row() for m in MECHANISMS for t in targets]
    return pd.DataFrame(rows, columns=COLUMNS)


def monte_carlo_risk(
    mechanism: str, mu: float, target: RiskTarget, draws: int, rng: np.random.Generator
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


def laplace_risk_from_pld(mu: float, target: RiskTarget, grid_step: float = 1e-4) -> float:
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


def pld_reading_text(mu: float, target: RiskTarget) -> str:
    """``laplace_risk_from_pld`` as the notebook prints it, and, where it strays from the risk the
    noise was calibrated to by more than ``PLD_TOLERANCE``, by how much: the reading, not the
    calibration, is then wrong (riskcal on dp-accounting's fine grid misses at shifts of about 30
    and more, e.g. 0.98077 for a TPR of 0.999999 at an FPR of 1e-9; tests/test_noise_for_risk.py
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
