"""Shoaran, Thomo & Weber (2012): relative error, the minimum true answer, and the DIFF mechanism.

A release q(D) + Lap(λ) has relative error ``|noise| / q(D)``. The noise exceeds z with probability
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

Floats = Sequence[float] | np.ndarray  # one value per query: a list, or an array


def relative_error(noise: float | np.ndarray, true_answer: float | np.ndarray) -> np.ndarray:
    """Eq. (2)/(5): RE = ``|noise| / q(D)``, for positive true answers.

    Parameters
    ----------
    noise : float or numpy.ndarray
        The noise added to each answer.
    true_answer : float or numpy.ndarray
        The true answers q(D), > 0.

    Returns
    -------
    numpy.ndarray
        The relative error of each release.

    Raises
    ------
    ValueError
        If a true answer is not a finite number > 0.
    """
    answers = np.asarray(true_answer, dtype=float)
    if np.any(~np.isfinite(answers)) or np.any(answers <= 0):
        raise ValueError(f"true_answer must be > 0 (allowed range (0, inf)), got {true_answer!r}")
    return np.abs(np.asarray(noise, dtype=float)) / answers


def mta(sensitivity: float, epsilon: float, pr: float, re: float) -> float:
    """Eq. (6): MTA = -Δ ln(pr) / (ε re), the smallest answer kept within relative error re with
    probability 1 - pr.

    Parameters
    ----------
    sensitivity : float
        The query's sensitivity Δ, > 0.
    epsilon : float
        The privacy parameter ε, > 0.
    pr : float
        The probability that the relative error exceeds re, in (0, 1).
    re : float
        The relative error, > 0.

    Returns
    -------
    float
        The minimum true answer MTA.

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return laplace.noise_at_probability(pr, sensitivity, epsilon) / positive("re", re)


def uniform_scale(sensitivities: Floats, epsilon: float) -> float:
    """Sec. 5: the one scale Σ Δ(q_i)/ε that the standard mechanism gives every query.

    Parameters
    ----------
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    epsilon : float
        The total privacy parameter ε, > 0.

    Returns
    -------
    float
        The Laplace scale of every query (``laplace.scale`` of the summed sensitivities).

    Raises
    ------
    ValueError
        If a sensitivity is not > 0 or ``epsilon`` is not a finite number > 0.
    """
    return laplace.scale(float(np.sum(positive_array("sensitivities", sensitivities))), epsilon)


def diff_alpha(sensitivities: Floats, index: Floats, epsilon: float) -> float:
    """Eq. (8): α = (1/ε) Σ Δ(q_i)/γ_i.

    Parameters
    ----------
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.

    Returns
    -------
    float
        The factor α of DIFF's scales.

    Raises
    ------
    ValueError
        If a sensitivity or an index value is not > 0, the two differ in length, or ``epsilon`` is
        not a finite number > 0.
    """
    deltas, gammas = _pair(sensitivities, index)
    return float(np.sum(deltas / gammas)) / positive("epsilon", epsilon)


def diff_scales(sensitivities: Floats, index: Floats, epsilon: float) -> np.ndarray:
    """Eq. (7): λ_i = α γ_i.

    Parameters
    ----------
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.

    Returns
    -------
    numpy.ndarray
        Each query's Laplace scale λ_i.

    Raises
    ------
    ValueError
        If a sensitivity or an index value is not > 0, the two differ in length, or ``epsilon`` is
        not a finite number > 0.
    """
    _, gammas = _pair(sensitivities, index)
    return diff_alpha(sensitivities, index, epsilon) * gammas


def diff_epsilons(sensitivities: Floats, index: Floats, epsilon: float) -> np.ndarray:
    """ε_i = Δ(q_i)/λ_i: each query's share of the budget; they add up to ε (Sec. 6).

    Parameters
    ----------
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.

    Returns
    -------
    numpy.ndarray
        Each query's ε_i.

    Raises
    ------
    ValueError
        If a sensitivity or an index value is not > 0, the two differ in length, or ``epsilon`` is
        not a finite number > 0.
    """
    deltas, _ = _pair(sensitivities, index)
    return deltas / diff_scales(sensitivities, index, epsilon)


def diff_mtas(
    sensitivities: Floats, index: Floats, epsilon: float, pr: float, re: float
) -> np.ndarray:
    """Eq. (10): MTA_i = -γ_i (Σ Δ(q_j)/γ_j) ln(pr) / (ε re).

    Parameters
    ----------
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.
    pr : float
        The probability that the relative error exceeds re, in (0, 1).
    re : float
        The relative error, > 0.

    Returns
    -------
    numpy.ndarray
        Each query's minimum true answer MTA_i.

    Raises
    ------
    ValueError
        If a sensitivity or an index value is not > 0, the two differ in length, or ``epsilon`` is
        not a finite number > 0.
    """
    scales = diff_scales(sensitivities, index, epsilon)
    return scales * -np.log(open_unit("pr", pr)) / positive("re", re)


def diff_release(
    answers: Floats,
    sensitivities: Floats,
    index: Floats,
    epsilon: float,
    rng: np.random.Generator,
    size: int | None = None,
) -> np.ndarray:
    """DIFF as a mechanism: q_i(D) + Lap(λ_i) for every query, ``size`` independent releases
    (rows).

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D), finite.
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.
    rng : numpy.random.Generator
        The seeded generator the noise is drawn from.
    size : int, optional
        How many releases (rows); one, as a 1-D array, by default.

    Returns
    -------
    numpy.ndarray
        The released answers, of shape (m,) or (size, m).

    Raises
    ------
    ValueError
        If the answers are not finite or their number is not the index's, ``rng`` is not a
        generator, or the sensitivities, the index or ``epsilon`` are out of range.
    """
    q = finite_array("answers", answers)
    scales = diff_scales(sensitivities, index, epsilon)
    if q.size != scales.size:
        raise ValueError(
            f"answers and index must have the same length, got {q.size} and {scales.size}"
        )
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    shape = (q.size,) if size is None else (int(size), q.size)
    return q + rng.laplace(0.0, 1.0, size=shape) * scales


def log_likelihood_ratio(
    outputs: np.ndarray,
    answers_a: Floats,
    answers_b: Floats,
    scales_a: Floats,
    scales_b: Floats,
) -> np.ndarray:
    """ln Pr[outputs | D_a] / Pr[outputs | D_b] for independent Laplace releases (rows of
    ``outputs``).

    Parameters
    ----------
    outputs : numpy.ndarray
        The released answers, one release per row.
    answers_a, answers_b : sequence of float or numpy.ndarray
        The true answers on D_a and on D_b, finite.
    scales_a, scales_b : sequence of float or numpy.ndarray
        The Laplace scales on D_a and on D_b, > 0.

    Returns
    -------
    numpy.ndarray
        The log-likelihood ratio of each release.

    Raises
    ------
    ValueError
        If an answer is not finite or a scale not > 0.
    """
    y = np.atleast_2d(np.asarray(outputs, dtype=float))
    qa, qb = finite_array("answers_a", answers_a), finite_array("answers_b", answers_b)
    la, lb = positive_array("scales_a", scales_a), positive_array("scales_b", scales_b)
    log_a = -np.abs(y - qa) / la - np.log(2 * la)
    log_b = -np.abs(y - qb) / lb - np.log(2 * lb)
    return np.sum(log_a - log_b, axis=1)


def proportional_scales(answers: Floats, sensitivities: Floats, epsilon: float) -> np.ndarray:
    """Scales proportional to the true answers (Xiao et al.'s Proportional, as described): DIFF
    with γ = q(D).

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D), > 0, which serve as the index.
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    epsilon : float
        The total privacy parameter ε, > 0.

    Returns
    -------
    numpy.ndarray
        Each query's scale.

    Raises
    ------
    ValueError
        If an answer or a sensitivity is not > 0, the two differ in length, or ``epsilon`` is not a
        finite number > 0.
    """
    return diff_scales(sensitivities, positive_array("answers", answers), epsilon)


def _pair(sensitivities: Floats, index: Floats) -> tuple[np.ndarray, np.ndarray]:
    """The sensitivities and the query index as positive arrays of the same length."""
    deltas = positive_array("sensitivities", sensitivities)
    gammas = finite_array("index", index)
    if gammas.size != deltas.size:
        raise ValueError(
            "index and sensitivities must have the same length, "
            f"got {gammas.size} and {deltas.size}"
        )
    return deltas, positive_array("index", gammas)


def check_queries(answers: Floats, index: Floats, sensitivities: Floats) -> None:
    """Validate a multi-query setting: equal lengths, positive answers, index values and
    sensitivities.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D).
    index : sequence of float or numpy.ndarray
        The query index γ_i.
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i).

    Raises
    ------
    ValueError
        If the three differ in length, or one is empty or holds a value that is not a finite
        number > 0.
    """
    q, gammas, deltas = (np.asarray(v, dtype=float) for v in (answers, index, sensitivities))
    if not (q.size == gammas.size == deltas.size):
        raise ValueError(
            "query_answers, query_index and query_sensitivities must have the same length, "
            f"got {q.size}, {gammas.size} and {deltas.size}"
        )
    for name, values in (
        ("query_answers", q),
        ("query_index", gammas),
        ("query_sensitivities", deltas),
    ):
        if values.size == 0 or np.any(~np.isfinite(values)) or np.any(values <= 0):
            raise ValueError(
                f"{name} must hold values > 0 (allowed range (0, inf)), got {values.tolist()}"
            )


def epsilon_for_mta(sensitivity: float, true_answer: float, pr: float, re: float) -> float:
    """The smallest ε whose MTA (Eq. 6) does not exceed the true answer: Δ ln(1/pr) /
    (re q(D)).

    Parameters
    ----------
    sensitivity : float
        The query's sensitivity Δ, > 0.
    true_answer : float
        The true answer q(D), > 0.
    pr : float
        The probability that the relative error exceeds re, in (0, 1).
    re : float
        The relative error, > 0.

    Returns
    -------
    float
        The smallest ε whose MTA is at most q(D).

    Raises
    ------
    ValueError
        If an argument is outside its range.
    """
    return laplace.noise_at_probability(pr, sensitivity, 1.0) / (
        positive("re", re) * positive("true_answer", true_answer)
    )


# --- the privacy check of Sec. 6: worst privacy loss over outputs and neighbouring databases ---

# enumerate every neighbour of the proportional mechanism up to this many (twelve queries' 3¹²);
# beyond, a coordinate search
EXACT_NEIGHBOURS = 3**12


def max_log_ratio(
    answer_a: np.ndarray,
    answer_b: np.ndarray,
    scale_a: np.ndarray,
    scale_b: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
) -> np.ndarray:
    """Largest ln Lap(y; a, λ_a)/Lap(y; b, λ_b) over y in [low, high] (Eq. (3)'s density):
    piecewise linear, so at an end or a kink.

    Parameters
    ----------
    answer_a, answer_b : numpy.ndarray
        The centres a and b of the two Laplace densities.
    scale_a, scale_b : numpy.ndarray
        Their scales λ_a and λ_b.
    low, high : numpy.ndarray
        The ends of the interval of outputs y; all six broadcast against each other.

    Returns
    -------
    numpy.ndarray
        The largest log-ratio at each element.
    """
    a, b, la, lb, lo, hi = np.broadcast_arrays(
        *(np.asarray(v, dtype=float) for v in (answer_a, answer_b, scale_a, scale_b, low, high))
    )
    candidates = np.stack([lo, hi, np.clip(a, lo, hi), np.clip(b, lo, hi)])
    t = candidates - a  # offsets from a: the terms stay as small as the interval allows
    loss = -np.abs(t) / la + np.abs(t - (b - a)) / lb + (np.log(2 * lb) - np.log(2 * la))
    return loss.max(axis=0)


def _shifts(sensitivities: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Rows of shifts d_i in {-Δ_i, 0, +Δ_i} for neighbour numbers ``codes``, whose base-3 digits
    0, 1, 2 pick -Δ_i, 0, +Δ_i."""
    digits = (codes[:, None] // 3 ** np.arange(sensitivities.size)) % 3
    return (digits - 1) * sensitivities


def _intervals(
    answers: np.ndarray, sensitivities: np.ndarray, index: np.ndarray, epsilon: float, width: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """DIFF's scales (Eq. (7)) and the outputs searched: ``width`` scales either side of each
    answer."""
    scales = diff_scales(sensitivities, index, epsilon)
    half = positive("width", width) * scales
    return scales, answers - half, answers + half


def diff_worst_log_ratio(
    answers: Floats,
    sensitivities: Floats,
    index: Floats,
    epsilon: float,
    width: float,
) -> float:
    """Worst ln-ratio of DIFF (Eqs. (7)-(8)) over outputs within ``width`` DIFF scales of the
    answers and every neighbour.

    A neighbour moves each answer by 0 or ±Δ(q_i). DIFF's scales do not depend on the data, so the
    joint log-ratio is a sum of per-query terms and its maximum over all 3^m neighbours is the sum
    of per-query maxima.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D), finite.
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.
    width : float
        How many DIFF scales either side of each answer the outputs span, > 0.

    Returns
    -------
    float
        The worst log-ratio found.

    Raises
    ------
    ValueError
        If an answer is not finite, the sensitivities, the index, ``epsilon`` or ``width`` are out
        of range.
    """
    q, deltas = finite_array("answers", answers), positive_array("sensitivities", sensitivities)
    scales, lo, hi = _intervals(q, deltas, np.asarray(index, dtype=float), epsilon, width)
    per_shift = [max_log_ratio(q, q + sign * deltas, scales, scales, lo, hi) for sign in (-1, 1)]
    return float(np.sum(np.maximum(*per_shift)))


def roundoff_bound(
    answers: Floats,
    sensitivities: Floats,
    index: Floats,
    epsilon: float,
    width: float,
) -> float:
    """Bound on the floating-point error of ``diff_worst_log_ratio``: a few ulps of each per-query
    term ``|y - q|/λ_i``.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D) (unused: the bound depends on the scales only).
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.
    width : float
        How many DIFF scales either side of each answer the outputs span, > 0.

    Returns
    -------
    float
        The bound on the round-off.

    Raises
    ------
    ValueError
        If a sensitivity or an index value is not > 0, the two differ in length, or ``epsilon`` is
        not a finite number > 0.
    """
    deltas = positive_array("sensitivities", sensitivities)
    scales = diff_scales(deltas, index, epsilon)
    # the largest |y - q_i|/λ_i and |y - q_i - d_i|/λ_i on the interval
    terms = positive("width", width) + deltas / scales
    return float(np.sum(4 * np.finfo(float).eps * (2 * terms + 1)))


def _proportional_losses(
    q: np.ndarray,
    deltas: np.ndarray,
    epsilon: float,
    lo: np.ndarray,
    hi: np.ndarray,
    shifts: np.ndarray,
) -> np.ndarray:
    """Worst joint ln-ratio of the proportional mechanism for each row of ``shifts`` (neighbour
    answers q + d)."""
    scale_a = proportional_scales(q, deltas, epsilon)
    moved = q + shifts
    alpha_b = np.sum(deltas / moved, axis=1, keepdims=True) / epsilon
    return max_log_ratio(q, moved, scale_a, alpha_b * moved, lo, hi).sum(axis=1)


def proportional_worst_log_ratio(
    answers: Floats,
    sensitivities: Floats,
    index: Floats,
    epsilon: float,
    width: float,
    max_neighbours: int = EXACT_NEIGHBOURS,
) -> tuple[float, bool]:
    """Worst ln-ratio of noise scaled to the answers (DIFF with γ = q(D)) over the same outputs
    and neighbours as DIFF.

    Returns (value, exact). Its scales depend on every answer through α, so the neighbours do not
    separate: all 3^m - 1 are enumerated when there are at most ``max_neighbours``; beyond, a
    coordinate search from the uniform shifts returns a value reached by some neighbour, a lower
    bound on the worst (exact=False). A neighbour answer ≤ 0 would get no noise at all: no ε bounds
    that, and the result is inf.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D), finite.
    sensitivities : sequence of float or numpy.ndarray
        Each query's sensitivity Δ(q_i), > 0.
    index : sequence of float or numpy.ndarray
        The query index γ_i, > 0, one per query.
    epsilon : float
        The total privacy parameter ε, > 0.
    width : float
        How many DIFF scales either side of each answer the outputs span, > 0.
    max_neighbours : int
        The most neighbours enumerated; beyond, the coordinate search.

    Returns
    -------
    value : float
        The worst log-ratio found (inf where a neighbour's answer is ≤ 0).
    exact : bool
        Whether every neighbour was enumerated.

    Raises
    ------
    ValueError
        If the answers and the sensitivities differ in length, or an argument is out of range.
    """
    q, deltas = finite_array("answers", answers), positive_array("sensitivities", sensitivities)
    if q.size != deltas.size:
        raise ValueError(
            f"answers and sensitivities must have the same length, got {q.size} and {deltas.size}"
        )
    _, lo, hi = _intervals(q, deltas, np.asarray(index, dtype=float), epsilon, width)
    if np.any(q - deltas <= 0):
        return float("inf"), True
    m = q.size
    total = 3**m
    if total - 1 <= max_neighbours:
        best = -np.inf
        chunk = max(1, 2**18 // m)
        for start in range(0, total, chunk):
            codes = np.arange(start, min(start + chunk, total))
            codes = codes[codes != (total - 1) // 2]  # all digits 1: no shift, the database itself
            if codes.size:
                best = max(
                    best,
                    float(
                        _proportional_losses(
                            q, deltas, epsilon, lo, hi, _shifts(deltas, codes)
                        ).max()
                    ),
                )
        return best, True
    return _coordinate_search(q, deltas, epsilon, lo, hi), False


def _coordinate_search(
    q: np.ndarray, deltas: np.ndarray, epsilon: float, lo: np.ndarray, hi: np.ndarray
) -> float:
    """Largest joint ln-ratio found by changing one query's shift at a time, from every all-equal
    shift pattern."""

    def value(shift: np.ndarray) -> float:
        return float(_proportional_losses(q, deltas, epsilon, lo, hi, shift[None, :])[0])

    best = -np.inf
    for start in (-1, 0, 1):
        shift = start * deltas.copy()
        if start == 0:
            shift[0] = deltas[0]
        current, improved = value(shift), True
        while improved:
            improved = False
            for i in range(q.size):
                for sign in (-1, 0, 1):
                    trial = shift.copy()
                    trial[i] = sign * deltas[i]
                    if np.any(trial != 0) and (v := value(trial)) > current + 1e-12 * abs(current):
                        shift, current, improved = trial, v, True
        best = max(best, current)
    return best


def within_relative_error(
    answers: Floats,
    scales: Floats,
    re: float,
    n_trials: int,
    rng: np.random.Generator,
    chunk_rows: int = 2**18,
) -> np.ndarray:
    """Per query, how many of ``n_trials`` releases q_i + Lap(λ_i) have relative error ≤ re
    (Eq. (5)), drawn in chunks.

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D), > 0.
    scales : sequence of float or numpy.ndarray
        The Laplace scale λ_i of each query, > 0.
    re : float
        The relative error, > 0.
    n_trials : int
        How many releases, at least 1.
    rng : numpy.random.Generator
        The seeded generator the noise is drawn from.
    chunk_rows : int
        About how many values are drawn at once.

    Returns
    -------
    numpy.ndarray
        Per query, the count of releases within re (int64).

    Raises
    ------
    ValueError
        If an answer, a scale or ``re`` is not > 0, ``rng`` is not a generator, or ``n_trials`` is
        not an integer of at least 1.
    """
    q, lam = positive_array("answers", answers), positive_array("scales", scales)
    threshold = positive("re", re) * q
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if isinstance(n_trials, bool) or not isinstance(n_trials, (int, np.integer)) or n_trials < 1:
        raise ValueError(f"n_trials must be an integer >= 1, got {n_trials!r}")
    counts = np.zeros(q.size, dtype=np.int64)
    rows = max(1, chunk_rows // q.size)
    for start in range(0, int(n_trials), rows):
        releases = q + rng.laplace(0.0, 1.0, size=(min(rows, int(n_trials) - start), q.size)) * lam
        counts += np.sum(np.abs(releases - q) <= threshold, axis=0)
    return counts


def probability_within(answers: Floats, scales: Floats, re: float) -> np.ndarray:
    """Exact Pr(relative error ≤ re) = 1 - e^{-re q_i/λ_i} for a release q_i + Lap(λ_i)
    (Eqs. (3), (5)).

    Parameters
    ----------
    answers : sequence of float or numpy.ndarray
        The true answers q_i(D), > 0.
    scales : sequence of float or numpy.ndarray
        The Laplace scale λ_i of each query, > 0.
    re : float
        The relative error, > 0.

    Returns
    -------
    numpy.ndarray
        Per query, the probability of a relative error ≤ re.

    Raises
    ------
    ValueError
        If an answer, a scale or ``re`` is not > 0.
    """
    q, lam = positive_array("answers", answers), positive_array("scales", scales)
    return -np.expm1(-positive("re", re) * q / lam)


def check_simulated(
    count: int, n_trials: int, probability: float, name: str, level: float = 1e-6
) -> None:
    """Raise if ``count`` successes in ``n_trials`` is implausible for the exact ``probability``
    (exact binomial test).

    Parameters
    ----------
    count : int
        The successes observed.
    n_trials : int
        The trials.
    probability : float
        The exact probability of a success.
    name : str
        What the count is of, for the message.
    level : float
        The p-value below which the count is refused.

    Raises
    ------
    RuntimeError
        If the binomial test's p-value lies below ``level``.
    """
    from scipy import stats

    p_value = stats.binomtest(int(count), int(n_trials), float(probability)).pvalue
    if p_value < level:
        raise RuntimeError(
            f"{name}: {int(count)} of {int(n_trials)} releases within re, but the exact "
            f"probability is {float(probability)!r} (binomial test p = {p_value:.2g} < {level:g}): "
            "the simulation does not match Eq. (3)"
        )
