"""Calibrating noise to an attack risk instead of to ε (Kulynych et al. 2024, "Attack-aware noise
calibration"), by two routes, for one numeric release (Gaussian or Laplace noise).

The *standard* route picks the ε that the (ε, δ) bound turns into the risk (Eq. 8 for the
advantage, Eq. 5 for the true-positive rate at a false-positive rate α; ``risk.epsilon_for``) and
then the least noise with that (ε, δ). The *attack-aware* route asks the mechanism's own trade-off
curve for the risk (Theorem 3.3) and takes the least noise that meets it (Eqs. 13 and 18). For the
Gaussian and the Laplace mechanism both are closed forms (``risk.noise_for``, App. G), checked
here by sampling and by riskcal's reading of dp-accounting's distribution of the Laplace
mechanism; DP-SGD, whose noise is searched for on its privacy loss distribution, is ``dpsgd``.
Every calibration spends its tolerance on the safe side: the noise returned allows at most the
stated risk.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from . import laplace, risk
from ._validate import nonnegative, open_unit, positive

# relative tolerance of every numerical calibration (scipy's brentq ``rtol``; DP-SGD's search in
# ``dpsgd``): the noise is found to about four significant digits, and the tolerance is spent on
# the safe side (more noise)
CALIBRATION_RTOL = 1e-4


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
