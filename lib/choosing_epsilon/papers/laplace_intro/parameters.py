"""The Laplace introduction:
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from choosing_epsilon.harness import parameters as declare

# the largest noise scale the Laplace introduction draws with (Δ/ε, and (ub − lb)/ε for input
# perturbation): the fourth power of the scale, in the standard error of a sample variance, and
# sums of 10⁷ such terms stay finite doubles (below about 1.8e308)
MAX_NOISE_SCALE = 1e70


DECLARED: dict[str, declare.Param] = {
    "f_D": declare.finite_float(
        paper=5,
        comment="the true answer f(D) in the post's Laplace example",
    ),
    "sensitivity": declare.positive_float(paper=7, comment="Δ(f) in that example"),
    "epsilon": declare.positive_float(
        paper=0.5,
        comment="the privacy level of the example and of the first scenario",
    ),
    "epsilon_high": declare.positive_float(
        paper=10, comment='the second scenario: "no privacy at all"'
    ),
    "age_range": declare.Param(
        "list[float]",
        "[lower, upper] with lower < upper",
        declare.is_increasing_pair,
        paper=[0, 110],
        comment="[lb, ub] of an age column, from domain knowledge",
    ),
    "netflix_ratings": declare.Param(
        "int",
        "[1, 10**12]",
        lambda v: 1 <= v <= 10**12,
        paper=10_000_000,
        comment="movie ratings in Netflix's 2006 release, as the post gives them",
        source="10_000_000",
    ),
    "netflix_customers": declare.Param(
        "int",
        "[1, 10**12]",
        lambda v: 1 <= v <= 10**12,
        paper=500_000,
        comment="the customers who gave them, as the post gives them",
        source="500_000",
    ),
    "netflix_ratings_each": declare.Param(
        "list[int]",
        "[fewest, most] with 1 <= fewest <= most",
        lambda v: len(v) == 2 and 1 <= v[0] <= v[1],
        paper=[2, 8],
        comment="the fewest and most ratings per customer, as the post gives them",
    ),
    "n_records": declare.Param(
        "int",
        "[1, 10**9]",
        lambda v: 1 <= v <= 10**9,
        default=1000,
        comment="records whose mean age is released (our choice; the post gives none)",
    ),
    "n_runs": declare.with_default(
        declare.N_TRIALS, 1000, "repeated releases in the averaging attack (our choice)"
    ),
    "budget": declare.positive_float(
        default=2.0,
        comment="privacy budget ε_t for the dataset (our choice)",
    ),
    "releases_read": declare.Param(
        "list[int]",
        "increasing integers in [1, 10**5]",
        lambda v: len(v) > 0 and all(1 <= x <= 10**5 for x in v) and list(v) == sorted(set(v)),
        default=[1, 2, 5, 10, 20, 50, 100, 200, 500],
        comment="numbers of releases at which the averaging attack is read exactly (our choice)",
    ),
    "averaging_risk": declare.in_unit(
        default=0.5,
        comment="the advantage whose crossing the averaging figure marks (our choice)",
    ),
    "seed": declare.with_default(declare.SEED, 20230315, "seeds every random draw below"),
    "output_dir": declare.output_dir("laplace_intro"),
}


def joint(params: Mapping[str, Any]) -> None:
    """The Laplace introduction's noise scales: finite fourth moments."""
    (lb, ub) = params["age_range"]
    scales = [
        ("sensitivity", params["sensitivity"], "epsilon"),
        ("age_range", ub - lb, "epsilon"),  # input perturbation: one value's scale (ub − lb)/ε
        ("sensitivity", params["sensitivity"], "epsilon_high"),
    ]
    for spread_name, spread, name in scales:
        scale = spread / params[name]
        if not scale <= MAX_NOISE_SCALE:
            raise ValueError(
                f"parameters '{spread_name}' and '{name}' set the noise scale {scale:.3g}, "
                f"which must be at most {MAX_NOISE_SCALE:g} (its fourth power a finite float): "
                f"raise {name} to at least {spread / MAX_NOISE_SCALE:.3g}, got {name} = "
                f"{params[name]!r}"
            )
