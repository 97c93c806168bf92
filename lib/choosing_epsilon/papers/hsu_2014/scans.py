"""Hsu et al. (2014), the notebook's scans: the feasible region's two edges on a grid of ε, the
smallest accurate study at each ε by both measures, the worst true fraction of each design and the
exact failure probability against it, and the largest feasible ε over expected costs and budgets,
each a table built from ``economics``'s formulas for the notebook to show and plot.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from choosing_epsilon.economics import (
    accuracy_bound,
    accuracy_n,
    largest_feasible_epsilon,
    smallest_true_n,
    true_failure_probability,
    worst_case_fraction,
)


def feasible_region_curves(
    expected_cost: float,
    budget: float,
    error: float,
    failure_probability: float,
    slide_constants: bool,
    right: float,
    points: int = 400,
) -> pd.DataFrame:
    """The two edges of the feasible region on a grid of ε in (0, right]: the budget's
    N_max = B / ((e^ε - 1)P) and the accuracy's smallest N with A(ε, N) ≤ α."""
    eps = np.linspace(right / points, right, points)
    with np.errstate(over="ignore"):  # e^ε beyond a double's range: no participant affordable
        n_budget = budget / (np.expm1(eps) * expected_cost)
    n_accuracy = np.array(
        [accuracy_n(e, error, failure_probability, slide_constants) for e in eps], dtype=float
    )
    return pd.DataFrame({"epsilon": eps, "n_max_budget": n_budget, "n_min_accuracy": n_accuracy})


def study_size_scan(
    epsilons: np.ndarray,
    expected_cost: float,
    error: float,
    failure_probability: float,
    fraction: float,
    slide_constants: bool = False,
) -> pd.DataFrame:
    """At each ε the smallest accurate N and its cost N(e^ε - 1)P, by the exact failure
    probability and by the bound A(ε, N) ≤ α."""
    n_exact = np.array([smallest_true_n(e, error, failure_probability, fraction) for e in epsilons])
    n_bound = np.array(
        [accuracy_n(e, error, failure_probability, slide_constants) for e in epsilons]
    )
    with np.errstate(over="ignore"):  # e^ε beyond a double's range: the cost is ∞
        per_person = np.expm1(epsilons) * expected_cost
    return pd.DataFrame(
        {
            "epsilon": epsilons,
            "n_exact": n_exact,
            "cost_exact": n_exact * per_person,
            "n_bound": n_bound,
            "cost_bound": n_bound * per_person,
        }
    )


def symmetry_gap(epsilon: float, n: int, error: float, fractions: Sequence[float]) -> float:
    """max ``|f(p) - f(1 - p)|`` over ``fractions`` for the exact failure probability f: zero up to
    rounding, since reflecting X to N - X and the noise to its negative swaps p and 1 - p."""
    return max(
        abs(
            true_failure_probability(epsilon, n, error, p)
            - true_failure_probability(epsilon, n, error, 1 - p)
        )
        for p in fractions
    )


def worst_case_table(designs: Mapping[str, tuple[float, int]], error: float) -> pd.DataFrame:
    """For each named design (ε, N): the worst true fraction p, the exact failure probability
    there and at p = 0.5, and their ratio (nan when both underflow)."""
    rows = []
    for name, (eps, n) in designs.items():
        p_worst, f_worst = worst_case_fraction(eps, n, error)
        f_half = true_failure_probability(eps, n, error, 0.5)
        rows.append(
            {
                "design": name,
                "ε": eps,
                "N": n,
                "worst fraction p": p_worst,
                "failure at worst p": f_worst,
                "failure at p = 0.5": f_half,
                "worst / at 0.5": f_worst / f_half if f_half > 0 else math.nan,
            }
        )
    return pd.DataFrame(rows)


def failure_curves(
    designs: Mapping[str, tuple[float, int]], error: float, points: int = 241, steps: int = 6
) -> pd.DataFrame:
    """The exact failure probability against the true fraction p for each named design: the
    first over every p, the others within ``steps`` lattice steps 1/N of p = 1/2; nan where even
    the bound A(ε, N), which holds at every p, underflows."""
    curves = []
    for i, (name, (eps, n)) in enumerate(designs.items()):
        span = (0.0, 1.0) if i == 0 else (max(0.0, 0.5 - steps / n), min(1.0, 0.5 + steps / n))
        ps = np.linspace(*span, points)
        if accuracy_bound(eps, n, error) > 0:
            fs = np.array([true_failure_probability(eps, n, error, p) for p in ps])
        else:
            fs = np.full(ps.size, np.nan)
        curves.append(pd.DataFrame({"design": name, "fraction": ps, "failure_probability": fs}))
    return pd.concat(curves, ignore_index=True)


def max_epsilon_scan(
    costs: np.ndarray,
    budgets: Sequence[float],
    error: float,
    failure_probability: float,
    slide_constants: bool = False,
) -> pd.DataFrame:
    """``largest_feasible_epsilon`` for every expected cost P and budget B (nan where no study is
    feasible)."""
    frames = []
    for b in budgets:
        eps_max = [
            getattr(
                largest_feasible_epsilon(c, b, error, failure_probability, slide_constants),
                "epsilon",
                np.nan,
            )
            for c in costs
        ]
        frames.append(
            pd.DataFrame({"budget": b, "expected_cost": costs, "max_feasible_epsilon": eps_max})
        )
    return pd.concat(frames, ignore_index=True)


def infeasible_budgets(scan: pd.DataFrame) -> list[float]:
    """The budgets B of ``max_epsilon_scan`` at which no expected cost P of the scan is feasible,
    in the scan's order."""
    none = scan.groupby("budget", sort=False).max_feasible_epsilon.apply(lambda e: e.isna().all())
    return [float(b) for b in none.index[none.to_numpy()]]


def lone_points(scan: pd.DataFrame) -> pd.Series:
    """Which points of ``max_epsilon_scan`` are feasible while the neighbouring expected costs P
    of the same budget (one on each side, where there is one) are not: a curve through them has
    no length."""
    feasible = scan.max_feasible_epsilon.notna()
    by_budget = feasible.groupby(scan.budget, sort=False)
    before = by_budget.shift(1, fill_value=False).astype(bool)
    after = by_budget.shift(-1, fill_value=False).astype(bool)
    return feasible & ~before & ~after
