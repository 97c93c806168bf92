"""Reference computations written from the paper's definitions, independent of the package.

Worlds are enumerated, the sensitivity is found by removing every row of every world, the
posterior is Definition 3 with plain exponentials, the worst case is searched over a grid of
responses that includes every world answer, and the exact ε is found by bisection.
"""

from __future__ import annotations

import itertools
import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np


def query(values, name: str, q: float | None = None) -> float:
    """The statistic of a list of values, from its definition (NumPy for the variance, the
    standard deviation, with the population divisor, and the quantile's linear interpolation)."""
    ordered = sorted(values)
    if name == "mean":
        return sum(ordered) / len(ordered)
    if name == "sum":
        return math.fsum(ordered)
    if name == "variance":
        return float(np.var(ordered))
    if name == "std":
        return float(np.std(ordered))
    if name == "quantile":
        return float(np.quantile(ordered, q))
    k = len(ordered)
    return ordered[k // 2] if k % 2 else (ordered[k // 2 - 1] + ordered[k // 2]) / 2


def worlds(values, unknown: int = 1) -> list[list[float]]:
    """Every subset of len(values) - unknown rows, as lists of values (for unknown = 1, world j
    misses row j)."""
    rows = range(len(values))
    return [
        [values[j] for j in rows if j not in missing]
        for missing in itertools.combinations(rows, unknown)
    ]


def replaced(world: list[float], t: int, u: float) -> list[float]:
    """``world`` with its element ``t`` replaced by ``u``: a bounded (replace-one) neighbour."""
    return [*world[:t], u, *world[t + 1 :]]


def answers(values, name: str, unknown: int = 1, q: float | None = None) -> np.ndarray:
    return np.array([query(w, name, q) for w in worlds(values, unknown)])


def sensitivity(values, name: str, unknown: int = 1, q: float | None = None) -> float:
    return max(
        abs(query(w, name, q) - query(w[:t] + w[t + 1 :], name, q))
        for w in worlds(values, unknown)
        for t in range(len(w))
    )


def posterior(world_answers: np.ndarray, gamma: float | np.ndarray, scale: float) -> np.ndarray:
    """The posterior over the worlds at a response, or one row per response of an array."""
    log_likelihood = -np.abs(np.asarray(gamma)[..., None] - world_answers) / scale
    weights = np.exp(log_likelihood - log_likelihood.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def worst_risk(world_answers: np.ndarray, sens: float, epsilon: float) -> float:
    scale = sens / epsilon
    span = max(np.ptp(world_answers), 1.0)
    grid = np.concatenate(
        [world_answers, np.linspace(world_answers.min() - span, world_answers.max() + span, 401)]
    )
    return float(posterior(world_answers, grid, scale).max())  # every response at once


def exact_epsilon(values, rho: float, name: str, unknown: int = 1, q: float | None = None) -> float:
    a, sens = answers(values, name, unknown, q), sensitivity(values, name, unknown, q)
    if sens == 0 or worst_risk(a, sens, 1e6) <= rho:
        return math.inf
    lo, hi = 0.0, 1.0
    while worst_risk(a, sens, hi) <= rho:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if worst_risk(a, sens, mid) <= rho:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * hi:
            break
    return lo


def upper_bound(values, rho: float, name: str, unknown: int = 1, q: float | None = None) -> float:
    a, sens = answers(values, name, unknown, q), sensitivity(values, name, unknown, q)
    n, dv = len(a), float(np.ptp(a))
    if dv == 0:
        return math.inf
    return sens / dv * math.log((n - 1) * rho / (1 - rho))


# --- Shoaran et al. Sec. 6: the privacy check by enumerating every neighbour and a grid of outputs


def _laplace_log_density(y: np.ndarray, center: float, scale: float) -> np.ndarray:
    return -np.abs(y - center) / scale - math.log(2 * scale)


def worst_log_ratio(answers, sensitivities, index, epsilon, width, proportional=False, points=2001):
    """Max over all 3^m - 1 shift patterns (0 or ±Δ_i per query) of the joint log-ratio, each
    query on its own grid.

    The grid of query i spans width DIFF scales either side of q_i; scales are α γ_i with
    α = Σ Δ_j/γ_j / ε, and γ = the (neighbour's) answers for the proportional mechanism.
    """
    import itertools

    def scales(gammas):
        alpha = sum(d / g for d, g in zip(sensitivities, gammas)) / epsilon
        return [alpha * g for g in gammas]

    diff = scales(index)
    best = -math.inf
    for shift in itertools.product(*[(-d, 0.0, d) for d in sensitivities]):
        if not any(shift):
            continue
        moved = [q + s for q, s in zip(answers, shift)]
        if proportional and min(moved) <= 0:
            return math.inf
        la, lb = (scales(answers), scales(moved)) if proportional else (diff, diff)
        total = 0.0
        for q, b, s, a_scale, b_scale in zip(answers, moved, diff, la, lb):
            grid = np.concatenate([np.linspace(q - width * s, q + width * s, points), [q, b]])
            grid = grid[(grid >= q - width * s) & (grid <= q + width * s)]
            total += float(
                np.max(
                    _laplace_log_density(grid, q, a_scale) - _laplace_log_density(grid, b, b_scale)
                )
            )
        best = max(best, total)
    return best


# --- Lee & Clifton's exact ε in exact arithmetic: no rounding but the 60 digits of the last step


def rational_exact_epsilon(values, rho: float, name: str) -> Decimal:
    """The largest ε with every world's posterior at its worst response ≤ ρ (Eq. 3), in exact
    arithmetic: world answers and Δf as fractions of the float inputs, the posterior's sums as
    60-digit decimals, the root by bisection to 200 halvings. Decimal('Infinity') when no ε
    exceeds ρ."""
    x = sorted(Fraction(float(v)) for v in values)
    if name == "mean":
        f = lambda w: sum(w) / len(w)  # noqa: E731
    else:
        f = lambda w: (w[(len(w) - 1) // 2] + w[len(w) // 2]) / 2  # noqa: E731  (w sorted)
    answers, local = {}, []
    for v in sorted(set(x)):
        j = x.index(v)
        world = x[:j] + x[j + 1 :]
        answers[v] = f(world)
        local.append(
            max(abs(answers[v] - f(world[:t] + world[t + 1 :])) for t in range(len(world)))
        )
    sens = max(local)
    shared: dict[Fraction, int] = {}
    for v in x:
        shared[answers[v]] = shared.get(answers[v], 0) + 1
    classes = sorted(shared)
    r = Fraction(rho)
    if sens == 0 or r * min(shared.values()) >= 1:
        return Decimal("Infinity")
    with localcontext() as context:
        context.prec = 60
        as_decimal = lambda q: Decimal(q.numerator) / Decimal(q.denominator)  # noqa: E731
        distance = [[as_decimal(abs(a - b) / sens) for b in classes] for a in classes]

        def admissible(eps: Decimal) -> bool:  # every world's Σ_k e^{-ε |f_i - f_k|/Δf} >= 1/ρ
            return all(
                sum(shared[b] * (-eps * d).exp() for b, d in zip(classes, row)) >= 1 / as_decimal(r)
                for row in distance
            )

        lo, hi = Decimal(0), Decimal(1)
        while admissible(hi):
            lo, hi = hi, 2 * hi
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if admissible(mid) else (lo, mid)
        return lo
