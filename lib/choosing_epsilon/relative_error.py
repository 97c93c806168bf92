"""Shoaran, Thomo & Weber (2012): relative error, the minimum true answer, and the DIFF mechanism.

A release q(D) + Lap(λ) has relative error |noise| / q(D). The noise exceeds z with probability
pr = e^{-z/λ} (Eq. 3), so with probability 1 - pr the relative error stays below re whenever
q(D) ≥ MTA = -λ ln(pr) / re (Eq. 6). For m queries the standard mechanism gives every query the
scale Σ Δ(q_i)/ε; DIFF instead gives query i the scale λ_i = α γ_i for a query index γ (Eq. 7), with
α = (1/ε) Σ Δ(q_i)/γ_i (Eq. 8) so that the per-query budgets ε_i = Δ(q_i)/λ_i add up to ε.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import laplace
from ._validate import finite_array, open_unit, positive, positive_array


def noise_at_probability(pr: float, sensitivity: float, epsilon: float) -> float:
    """Eq. (4): z = -(Δ/ε) ln(pr), the noise magnitude exceeded with probability pr."""
    return laplace.noise_at_probability(pr, sensitivity, epsilon)


def relative_error(noise: float | np.ndarray, true_answer: float | np.ndarray) -> np.ndarray:
    """Eq. (2)/(5): RE = |noise| / q(D), for positive true answers."""
    answers = np.asarray(true_answer, dtype=float)
    if np.any(~np.isfinite(answers)) or np.any(answers <= 0):
        raise ValueError(f"true_answer must be > 0 (allowed range (0, inf)), got {true_answer!r}")
    return np.abs(np.asarray(noise, dtype=float)) / answers


def mta(sensitivity: float, epsilon: float, pr: float, re: float) -> float:
    """Eq. (6): MTA = -Δ ln(pr) / (ε re), the smallest answer kept within relative error re with probability 1 - pr."""
    return noise_at_probability(pr, sensitivity, epsilon) / positive("re", re)


def uniform_scale(sensitivities: Sequence[float], epsilon: float) -> float:
    """Sec. 5: the one scale Σ Δ(q_i)/ε that the standard mechanism gives every query."""
    return float(np.sum(positive_array("sensitivities", sensitivities))) / positive("epsilon", epsilon)


def diff_alpha(sensitivities: Sequence[float], index: Sequence[float], epsilon: float) -> float:
    """Eq. (8): α = (1/ε) Σ Δ(q_i)/γ_i."""
    deltas, gammas = _pair(sensitivities, index)
    return float(np.sum(deltas / gammas)) / positive("epsilon", epsilon)


def diff_scales(sensitivities: Sequence[float], index: Sequence[float], epsilon: float) -> np.ndarray:
    """Eq. (7): λ_i = α γ_i."""
    _, gammas = _pair(sensitivities, index)
    return diff_alpha(sensitivities, index, epsilon) * gammas


def diff_epsilons(sensitivities: Sequence[float], index: Sequence[float], epsilon: float) -> np.ndarray:
    """ε_i = Δ(q_i)/λ_i: each query's share of the budget; they add up to ε (Sec. 6)."""
    deltas, _ = _pair(sensitivities, index)
    return deltas / diff_scales(sensitivities, index, epsilon)


def diff_mtas(sensitivities: Sequence[float], index: Sequence[float], epsilon: float, pr: float, re: float) -> np.ndarray:
    """Eq. (10): MTA_i = -γ_i (Σ Δ(q_j)/γ_j) ln(pr) / (ε re)."""
    scales = diff_scales(sensitivities, index, epsilon)
    return scales * -np.log(open_unit("pr", pr)) / positive("re", re)


def diff_release(answers: Sequence[float], sensitivities: Sequence[float], index: Sequence[float], epsilon: float,
                 rng: np.random.Generator, size: int | None = None) -> np.ndarray:
    """DIFF as a mechanism: q_i(D) + Lap(λ_i) for every query, ``size`` independent releases (rows)."""
    q = finite_array("answers", answers)
    scales = diff_scales(sensitivities, index, epsilon)
    if q.size != scales.size:
        raise ValueError(f"answers and index must have the same length, got {q.size} and {scales.size}")
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    shape = (q.size,) if size is None else (int(size), q.size)
    return q + rng.laplace(0.0, 1.0, size=shape) * scales


def log_likelihood_ratio(outputs: np.ndarray, answers_a: Sequence[float], answers_b: Sequence[float],
                         scales_a: Sequence[float], scales_b: Sequence[float]) -> np.ndarray:
    """ln Pr[outputs | D_a] / Pr[outputs | D_b] for independent Laplace releases (rows of ``outputs``)."""
    y = np.atleast_2d(np.asarray(outputs, dtype=float))
    qa, qb = finite_array("answers_a", answers_a), finite_array("answers_b", answers_b)
    la, lb = positive_array("scales_a", scales_a), positive_array("scales_b", scales_b)
    log_a = -np.abs(y - qa) / la - np.log(2 * la)
    log_b = -np.abs(y - qb) / lb - np.log(2 * lb)
    return np.sum(log_a - log_b, axis=1)


def proportional_scales(answers: Sequence[float], sensitivities: Sequence[float], epsilon: float) -> np.ndarray:
    """Scales proportional to the true answers (Xiao et al.'s Proportional, as described): DIFF with γ = q(D)."""
    return diff_scales(sensitivities, positive_array("answers", answers), epsilon)


def _pair(sensitivities: Sequence[float], index: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    deltas = positive_array("sensitivities", sensitivities)
    gammas = finite_array("index", index)
    if gammas.size != deltas.size:
        raise ValueError(f"index and sensitivities must have the same length, got {gammas.size} and {deltas.size}")
    return deltas, positive_array("index", gammas)


def check_queries(answers: Sequence[float], index: Sequence[float], sensitivities: Sequence[float]) -> None:
    """Validate a multi-query setting: equal lengths, positive answers, index values and sensitivities."""
    q, gammas, deltas = (np.asarray(v, dtype=float) for v in (answers, index, sensitivities))
    if not (q.size == gammas.size == deltas.size):
        raise ValueError(
            f"query_answers, query_index and query_sensitivities must have the same length, got {q.size}, {gammas.size} and {deltas.size}"
        )
    for name, values in (("query_answers", q), ("query_index", gammas), ("query_sensitivities", deltas)):
        if values.size == 0 or np.any(~np.isfinite(values)) or np.any(values <= 0):
            raise ValueError(f"{name} must hold values > 0 (allowed range (0, inf)), got {values.tolist()}")


def epsilon_for_mta(sensitivity: float, true_answer: float, pr: float, re: float) -> float:
    """The smallest ε whose MTA (Eq. 6) does not exceed the true answer: Δ ln(1/pr) / (re q(D))."""
    return noise_at_probability(pr, sensitivity, 1.0) / (positive("re", re) * positive("true_answer", true_answer))
