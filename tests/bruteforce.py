"""Reference computations written from the paper's definitions, independent of the package.

Worlds are enumerated, the sensitivity is found by removing every row of every world, the
posterior is Definition 3 with plain exponentials, the worst case is searched over a grid of
responses that includes every world answer, and the exact ε is found by bisection.
"""

from __future__ import annotations

import math

import numpy as np


def query(values: np.ndarray, name: str) -> float:
    ordered = sorted(values)
    if name == "mean":
        return sum(ordered) / len(ordered)
    k = len(ordered)
    return ordered[k // 2] if k % 2 else (ordered[k // 2 - 1] + ordered[k // 2]) / 2


def worlds(values) -> list[list[float]]:
    return [list(values[:j]) + list(values[j + 1 :]) for j in range(len(values))]


def answers(values, name: str) -> np.ndarray:
    return np.array([query(w, name) for w in worlds(values)])


def sensitivity(values, name: str) -> float:
    return max(abs(query(w, name) - query(w[:t] + w[t + 1 :], name)) for w in worlds(values) for t in range(len(w)))


def posterior(world_answers: np.ndarray, gamma: float, scale: float) -> np.ndarray:
    log_likelihood = -np.abs(gamma - world_answers) / scale
    weights = np.exp(log_likelihood - log_likelihood.max())
    return weights / weights.sum()


def worst_risk(world_answers: np.ndarray, sens: float, epsilon: float) -> float:
    scale = sens / epsilon
    span = max(np.ptp(world_answers), 1.0)
    grid = np.concatenate([world_answers, np.linspace(world_answers.min() - span, world_answers.max() + span, 401)])
    return max(posterior(world_answers, g, scale).max() for g in grid)


def exact_epsilon(values, rho: float, name: str) -> float:
    a, sens = answers(values, name), sensitivity(values, name)
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


def upper_bound(values, rho: float, name: str) -> float:
    a, sens = answers(values, name), sensitivity(values, name)
    n, dv = len(values), float(np.ptp(a))
    if dv == 0:
        return math.inf
    return sens / dv * math.log((n - 1) * rho / (1 - rho))
