"""Hsu et al. (2014), the paper's own numbers: the slides' tables at their design, the comparison of
private and non-private studies attributed to the full paper, and the exact failure probability
beside the bound, each as a table for the Hsu notebook to show; and the sentences that say what a
search found, or why it found nothing, at the run's parameters.

The mathematics (payments, constraints, the feasible region, exact accuracy) is in ``economics``;
the notebook's scans over ε, p, P and B are in ``scans``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from choosing_epsilon.economics import (
    EXACT_EPSILON_MAX,
    EXACT_EPSILON_MIN,
    StudyDesign,
    accuracy_bound,
    chernoff_non_private_n,
    crossover_error,
    dollars,
    hoeffding_non_private_n,
    non_private_n,
    participates,
    payment,
    private_is_cheaper,
    readable,
    readable_probability,
    simulate_failure,
    sufficient_n,
    true_failure_probability,
)


def participation_table(
    epsilons: Sequence[float], expected_cost: float, offer: float
) -> pd.DataFrame:
    """The participation rule at each ε: e^ε, the payment (e^ε - 1)P, and whether ``offer``
    covers it."""
    return pd.DataFrame(
        {
            "ε": list(epsilons),
            "e^ε": np.exp(epsilons),
            "payment (e^ε − 1)P, $": [payment(e, expected_cost) for e in epsilons],
            f"joins for ${offer:g}?": [participates(offer, e, expected_cost) for e in epsilons],
        }
    )


def readable_cells(table: pd.DataFrame, decimals: int = 4) -> pd.DataFrame:
    """``table`` for display with every float through ``readable`` (small values keep 3
    significant figures)."""
    return table.map(lambda v: readable(v, decimals) if isinstance(v, float) else v)


def slide_point_table(
    pay: float,
    spend: float,
    budget: float,
    bound: float,
    failure_probability: float,
    is_feasible: bool,
) -> pd.DataFrame:
    """A design against both constraints (payment, total cost (e^ε - 1)PN against B, A(ε, N)
    against T), its values as text: pandas would print a tiny value in a mixed column as 0.0."""
    table = pd.DataFrame(
        {
            "quantity": [
                "payment per participant ($)",
                "total cost ($)",
                "budget left ($)",
                "accuracy bound A(ε, N)",
                "room below T",
                "feasible",
            ],
            "value": [
                readable(pay, 5),
                round(spend, 2),
                round(budget - spend, 2),
                readable_probability(bound),
                readable(failure_probability - bound, 6),
                is_feasible,
            ],
        }
    )
    return table.astype({"value": str})


def private_vs_non_private_table(
    errors: Sequence[float],
    failure_probability: float,
    base_cost: float,
    worst_cost: float,
    exposed_fraction: float,
) -> pd.DataFrame:
    """The attributed comparison at each error T: the private study (N = (12/T²) ln(3/α),
    ε = T/6) against a non-private one paying φW to N' = ln(1/(2α))/(8T²), with the Hoeffding and
    Chernoff sizes beside N'; the attributed columns are empty when α ≥ 1/2."""
    quoted = failure_probability < 0.5  # N' is a positive size only then
    return pd.DataFrame(
        {
            "error d": errors,
            "private N": [sufficient_n(t, failure_probability) for t in errors],
            "private cost ($)": [
                sufficient_n(t, failure_probability) * math.expm1(t / 6) * base_cost for t in errors
            ],
            "non-private N′ (attributed)": [
                non_private_n(t, failure_probability) if quoted else math.nan for t in errors
            ],
            "non-private N (Hoeffding)": [
                hoeffding_non_private_n(t, failure_probability) for t in errors
            ],
            "non-private N (Chernoff, as nigoshh)": [
                chernoff_non_private_n(t, failure_probability) for t in errors
            ],
            "non-private cost, attributed N′ ($)": [
                non_private_n(t, failure_probability) * exposed_fraction * worst_cost
                if quoted
                else math.nan
                for t in errors
            ],
            "private cheaper (attributed condition)": [
                private_is_cheaper(t, failure_probability, base_cost, worst_cost, exposed_fraction)
                if quoted
                else None
                for t in errors
            ],
        }
    )


def attributed_condition_agrees(comparison: pd.DataFrame) -> bool:
    """Whether the attributed condition T/6 ≤ ln(1 + ...) says 'cheaper' exactly in the rows of
    ``private_vs_non_private_table`` where the private cost is at most the non-private one."""
    direct = comparison["private cost ($)"] <= comparison["non-private cost, attributed N′ ($)"]
    return bool((direct == comparison["private cheaper (attributed condition)"]).all())


def exact_vs_bound_table(
    epsilon: float,
    sizes: Sequence[int],
    error: float,
    fraction: float,
    n_trials: int,
    rng: np.random.Generator,
    slide_constants: bool = False,
) -> pd.DataFrame:
    """At each N: the bound A(ε, N), the exact failure probability and a Monte Carlo estimate with
    its standard error; raises if the simulation lies more than 5 standard errors from the exact
    value."""
    rows = []
    for n in sizes:
        exact = true_failure_probability(epsilon, n, error, fraction)
        mc, se = simulate_failure(epsilon, n, error, fraction, n_trials, rng)
        if abs(mc - exact) > 5 * max(se, 1 / n_trials):
            raise RuntimeError(
                f"at N = {n} the simulated failure rate {mc:.4g} ± {se:.2g} is more than 5 "
                f"standard errors from the exact {exact:.4g}"
            )
        rows.append(
            {
                "N": n,
                "bound A(ε, N)": accuracy_bound(epsilon, n, error, slide_constants),
                "exact failure probability": exact,
                "Monte Carlo": mc,
                "± s.e.": se,
            }
        )
    return pd.DataFrame(rows)


def probabilities_shown(
    table: pd.DataFrame, columns: Sequence[str], only_underflow: bool = False
) -> pd.DataFrame:
    """A copy of ``table`` for display with ``columns`` through ``readable_probability``; with
    ``only_underflow``, only those columns holding a probability that underflowed to 0."""
    shown = table.copy()
    for col in columns:
        if not only_underflow or (shown[col] == 0).any():
            shown[col] = [readable_probability(v) for v in shown[col]]
    return shown


def worst_case_shown(worst: pd.DataFrame) -> pd.DataFrame:
    """``worst_case_table`` for display: probabilities that underflowed named, ratio and
    fractions rounded."""
    shown = probabilities_shown(worst, ["failure at worst p", "failure at p = 0.5"])
    shown["worst / at 0.5"] = [
        readable(v, 6) if math.isfinite(v) else "both < 1e-300" for v in shown["worst / at 0.5"]
    ]
    return shown.astype({"worst fraction p": float}).round({"ε": 6, "worst fraction p": 6})


def largest_feasible_text(best: StudyDesign | None, budget: float, floor_cost: float) -> str:
    """The largest feasible ε by the bound and where it is reached, or why no design is feasible
    (the budget does not exceed the cost floor)."""
    if best is None:
        return (
            f"no (ε, N) meets both constraints: the budget {dollars(budget)} does not exceed "
            f"the cost floor P ln(1/T)/(d/2) = {dollars(floor_cost)}, "
            "below which no study is both accurate and affordable"
        )
    return (
        f"largest feasible ε = {best.epsilon:.6f} at N = {best.n}: "
        f"payment ${best.payment:.4f}, total ${best.total_cost:,.2f}, "
        f"A = {best.accuracy_bound:.6f}"
    )


def cheapest_study_text(
    cheap: StudyDesign | None, max_study_size: int, n_sampling: float, floor_cost: float
) -> str:
    """The cheapest accurate study up to ``max_study_size`` participants, or why there is none (the
    sampling term alone exceeds T below ``n_sampling`` = ln(2/T)/c_s), and the cost floor it
    falls towards."""
    if cheap is None:
        found = (
            f"no accurate study has N ≤ {max_study_size:,}: the sampling term alone exceeds α "
            f"below N = ln(2/T)/c_s = {n_sampling:,.0f}"
        )
    else:
        found = (
            f"cheapest study with N ≤ {max_study_size:,}: N = {cheap.n:,}, "
            f"ε = {cheap.epsilon:.3g}, total {dollars(cheap.total_cost)}"
        )
    return (
        f"{found}\nthe cost falls towards P ln(1/T) / (d/2) = {dollars(floor_cost)} "
        "as N grows without bound"
    )


def crossover_text(
    failure_probability: float, base_cost: float, worst_cost: float, exposed_fraction: float
) -> str:
    """Up to which error d the private study is the cheaper one in the attributed comparison, or
    that the comparison does not apply (its non-private size is positive only for T < 1/2)."""
    if failure_probability >= 0.5:
        return (
            f"T = {failure_probability:g} ≥ 1/2: the attributed non-private size "
            "ln(1/(2T))/(8d²) is not positive, so the comparison is not applicable\n"
            f"no crossover: the attributed comparison is not applicable at "
            f"T = {failure_probability:g}"
        )
    crossover = crossover_error(failure_probability, base_cost, worst_cost, exposed_fraction)
    if crossover >= 1:
        return (
            "in the movie example the private study is cheaper for every error d in (0, 1) "
            f"(the condition holds up to d = {crossover:.3g})"
        )
    return (
        f"in the movie example the private study is cheaper for every error d below {crossover:.3f}"
    )


def largest_epsilon_text(exact_best: StudyDesign | None, best: StudyDesign | None) -> str:
    """The largest ε the budget pays for with the exact accuracy beside the one with the bound,
    saying when the exact search stopped at the upper end of its scan."""
    if exact_best is None:
        exact_text = f"no ε ≥ {EXACT_EPSILON_MIN:g} with the exact accuracy"
    else:
        # a design at the scan's upper end: the budget may afford a larger ε still
        at_least = "at least " if exact_best.epsilon >= EXACT_EPSILON_MAX else ""
        exact_text = (
            f"{at_least}{exact_best.epsilon:.4f} at N = {exact_best.n:,} with the exact accuracy "
            f"(failure probability {exact_best.accuracy_bound:.4f})"
        )
    bound_text = (
        "no ε with the bound"
        if best is None
        else f"{best.epsilon:.4f} at N = {best.n:,} with the bound"
    )
    return f"largest ε the budget pays for: {exact_text}, against {bound_text}"


def sufficiency_text(worst_failure: float, bound: float) -> str:
    """Whether the printed condition is sufficient at the slides' design: the largest exact
    failure probability over every true fraction against the bound."""
    return (
        "at the slides' design the exact failure probability is at most "
        f"{readable_probability(worst_failure)} over all p, against the bound "
        f"{readable_probability(bound)}: the printed condition is "
        f"{'indeed' if worst_failure <= bound else 'NOT'} sufficient there"
    )


def worst_design_text(row: pd.Series, failure_probability: float) -> str:
    """A design's failure probability at its worst true fraction against p = 0.5, and whether T
    still holds there (``row``: a row of ``scans.worst_case_table``)."""
    met = "still met" if row["failure at worst p"] <= failure_probability else "EXCEEDED"
    return (
        f"exact-accuracy design: failure {row['failure at worst p']:.6f} at "
        f"p = {row['worst fraction p']:.5f} against {row['failure at p = 0.5']:.6f} at p = 0.5; "
        f"T = {failure_probability:g} is {met} at the worst p"
    )
