"""Shoaran, Thomo & Weber (2012), the notebook's steps: the data of Figs. 1 and 2, Example 3's
table of DIFF, the simulated releases of the Beyond section and its check of DIFF's privacy loss,
each built from ``relative_error``'s equations for the notebook to show and plot.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from choosing_epsilon import laplace
from choosing_epsilon._validate import positive_array
from choosing_epsilon.relative_error import (
    Floats,
    check_simulated,
    diff_worst_log_ratio,
    mta,
    probability_within,
    proportional_worst_log_ratio,
    roundoff_bound,
    within_relative_error,
)


def noise_curves(pr_grid: Floats, sensitivity: float, epsilons: Sequence[float]) -> pd.DataFrame:
    """Fig. 1's data: Eq. (4)'s z against pr, one column ``z_eps_<ε>`` per ε."""
    grid = np.asarray(pr_grid, dtype=float)
    curves = {
        f"z_eps_{e:g}": [laplace.noise_at_probability(p, sensitivity, e) for p in grid]
        for e in epsilons
    }
    return pd.DataFrame({"pr": grid} | curves)


def mta_against_epsilon(
    epsilon_grid: Floats, sensitivity: float, prs: Sequence[float], re: float
) -> pd.DataFrame:
    """Fig. 2's data: Eq. (6)'s MTA against ε at a fixed re, one column ``mta_pr_<pr>`` per pr."""
    grid = np.asarray(epsilon_grid, dtype=float)
    curves = {f"mta_pr_{p:g}": [mta(sensitivity, e, p, re) for e in grid] for p in prs}
    return pd.DataFrame({"epsilon": grid} | curves)


def mta_against_re(
    re_grid: Floats, sensitivity: float, epsilon: float, prs: Sequence[float]
) -> pd.DataFrame:
    """Fig. 2's second reading: Eq. (6)'s MTA against re at a fixed ε, one column per pr."""
    grid = np.asarray(re_grid, dtype=float)
    curves = {f"mta_pr_{p:g}": [mta(sensitivity, epsilon, p, r) for r in grid] for p in prs}
    return pd.DataFrame({"re": grid} | curves)


def check_second_reading(
    against_re: pd.DataFrame, sensitivity: float, epsilon: float, pr: float, re: float
) -> None:
    """Raise unless Eq. (6)'s MTA against re at ε equals the MTA against ε·re'/re at re: one
    curve read twice."""
    same_product = [mta(sensitivity, epsilon * r / re, pr, re) for r in against_re["re"]]
    if not np.allclose(against_re[f"mta_pr_{pr:g}"], same_product):
        raise RuntimeError(
            "the MTA against re differs from the MTA against ε at ε·re fixed: "
            "Eq. (6) is mis-implemented"
        )


def first_two(values: Floats) -> tuple[float, float]:
    """The values of the examples' two queries (Examples 2 and 3): nan for a missing second."""
    v = np.asarray(values, dtype=float)
    return float(v[0]), float(v[1]) if v.size > 1 else math.nan


def check_diff_budgets(epsilons: Floats, epsilon: float) -> None:
    """Raise unless DIFF's per-query budgets ε_i add up to ε (Eq. (8) and sequential
    composition)."""
    total = float(np.asarray(epsilons, dtype=float).sum())
    if not math.isclose(total, epsilon, rel_tol=1e-12):
        raise RuntimeError(
            f"DIFF's per-query budgets add up to {total!r}, not ε = {epsilon!r}: "
            "Eq. (8) is mis-implemented"
        )


def diff_table(
    answers: Floats,
    index: Floats,
    scales: Floats,
    epsilons: Floats,
    noise: Floats,
    mtas: Floats,
    relative_errors: Floats,
) -> pd.DataFrame:
    """Example 3 as a table: per query its γ_i, λ_i (Eq. (7)), ε_i, noise at pr, MTA_i (Eq. (10))
    and relative error."""
    q = np.asarray(answers, dtype=float)
    return pd.DataFrame(
        {
            "q_i(D)": q,
            "γ_i": index,
            "λ_i": scales,
            "ε_i": epsilons,
            "z_i at pr": noise,
            "MTA_i": mtas,
            "RE_i at z_i": relative_errors,
            "answer ≥ MTA": q >= np.asarray(mtas, dtype=float),
        }
    )


def simulation_table(
    answers: Floats,
    mechanisms: Mapping[str, Floats],
    re: float,
    pr: float,
    n_trials: int,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """Release the queries ``n_trials`` times under each mechanism's scales and count the relative
    errors within re (Eq. (5)), each count checked against its exact probability."""
    q = positive_array("answers", answers)
    rows = []
    for name, given in mechanisms.items():
        scales = positive_array(f"scales of {name}", given)
        counts = within_relative_error(q, scales, re, n_trials, rng)
        exact = probability_within(q, scales, re)
        for i, qi in enumerate(q):
            check_simulated(counts[i], n_trials, exact[i], f"{name}, q = {qi:g}")
            rows.append(
                {
                    "mechanism": name,
                    "q_i(D)": qi,
                    "λ_i": scales[i],
                    "within re (simulated)": counts[i] / n_trials,
                    "within re (exact)": exact[i],
                    "promised at the MTA": 1 - pr,
                    "answer ≥ MTA": qi >= scales[i] * -math.log(pr) / re,
                }
            )
    return pd.DataFrame(rows)


def privacy_loss_table(
    answers: Floats,
    sensitivities: Floats,
    index: Floats,
    epsilon: float,
    widths: Sequence[float] = (5, 20, 100),
) -> pd.DataFrame:
    """Worst ln-ratio of DIFF and of the proportional mechanism on output grids of several
    half-widths; raises if DIFF exceeds ε (Eqs. (7)-(8)) by more than round-off."""
    rows = []
    for width in widths:
        worst_diff = diff_worst_log_ratio(answers, sensitivities, index, epsilon, width)
        slack = roundoff_bound(answers, sensitivities, index, epsilon, width)
        if worst_diff > epsilon + slack:
            raise RuntimeError(
                f"DIFF's worst ln-ratio {worst_diff!r} exceeds ε = {epsilon!r} by more than "
                f"round-off ({slack:.2g}): Eqs. (7)-(8) are mis-implemented"
            )
        worst_prop, exact = proportional_worst_log_ratio(
            answers, sensitivities, index, epsilon, width
        )
        rows.append(
            {
                "grid half-width (scales)": width,
                "worst ln-ratio, DIFF": worst_diff,
                "worst ln-ratio, proportional": worst_prop,
                "ε": epsilon,
                "proportional worst case": "exact" if exact else "lower bound",
            }
        )
    return pd.DataFrame(rows)


def privacy_loss_summary(table: pd.DataFrame, epsilon: float) -> str:
    """What ``privacy_loss_table`` found, in a sentence: DIFF within ε, the proportional
    mechanism's loss as a multiple of ε."""
    prop = table["worst ln-ratio, proportional"]
    growing = prop.is_monotonic_increasing and prop.iloc[-1] > prop.iloc[0] * (1 + 1e-6)
    text = (
        f"DIFF: worst ln-ratio {table['worst ln-ratio, DIFF'].max():.6g} ≤ ε = {epsilon:g}; "
        f"proportional: {prop.iloc[-1] / epsilon:.6g} × ε on the widest grid"
        + (", growing with the grid" if growing else "")
    )
    if math.isinf(prop.iloc[-1]):
        text += (
            "\na neighbour's answer q_i - Δ(q_i) is ≤ 0: noise proportional to it vanishes, "
            "and no ε bounds a noiseless release"
        )
    return text
