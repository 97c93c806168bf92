"""Kazan & Reiter (2024):
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from choosing_epsilon.harness import parameters as declare
from choosing_epsilon.plots.style import MAX_SERIES

PROFILE_FORMS = ("constant", "fixed_q", "fixed_p", "box", "two_dimensional")


def _above_one(x: Any) -> bool:
    return x > 1


def _prior_in_unit(x: Any) -> bool:
    return 0 < x <= 1


def _unit_pair(v: Any) -> bool:
    return len(v) == 2 and 0 <= v[0] <= v[1] <= 1 and v[1] > 0


DECLARED: dict[str, declare.Param] = {
    # Fig. 3 draws two lines an agency (its profile and its baseline), Fig. 4 one an agency and one
    # baseline: the style tells MAX_SERIES lines apart, so at most 4 and 7 agencies
    "table1_r_tildes": declare.Param(
        "list[float]",
        f"a list of 1 to {MAX_SERIES // 2} values > 1",
        lambda v: 1 <= len(v) <= MAX_SERIES // 2 and all(x > 1 for x in v),
        paper=[1.5, 3, 6],
        comment_above=(
            "Table 1 (Example 1, profile (15)): agencies A, B, C's relative bounds r̃, their ã and q̃"
        ),
    ),
    "table1_a_tilde": declare.in_unit(paper=0.25),
    "table1_q_tilde": declare.Param("float", "(0, 1]", _prior_in_unit, paper=1),
    "table5_a_tildes": declare.Param(
        "list[float]",
        f"a list of 1 to {MAX_SERIES - 1} values in (0, 1)",
        lambda v: 1 <= len(v) <= MAX_SERIES - 1 and declare.is_unit_list(v),
        paper=[0.025, 0.15, 0.3],
        comment_above=(
            "Table 5 (Example 2, profile (16)): absolute bounds ã of agencies A, B, C, the "
            "surveyed share p̃, r̃"
        ),
    ),
    "table5_p_tilde": declare.Param("float", "(0, 1]", _prior_in_unit, paper=0.05),
    "table5_r_tilde": declare.Param("float", "(1, inf)", _above_one, paper=3),
    "fig1_a_tilde": declare.in_unit(
        paper=0.1,
        comment="Fig. 1's absolute bound (its r̃, q̃, p̃: table5_r_tilde, table1_q_tilde, ...)",
    ),
    "smaller_p_tildes": declare.unit_list(
        paper=[0.005, 0.0005],
        comment="App. C.2's smaller surveyed shares, agency A's ã",
    ),
    "two_dimensional_a_tilde": declare.in_unit(
        paper=0.25, comment="App. C.3, profile (33): max{ã/(pq), r̃}"
    ),
    "two_dimensional_r_tilde": declare.Param("float", "(1, inf)", _above_one, paper=3),
    "durham_births": declare.Param(
        "int",
        "[1, 10**9]",
        lambda v: 1 <= v <= 10**9,
        paper=4012,
        comment="Example 3: live births in Durham County, 2020 (public)",
    ),
    "durham_target_rate": declare.Param(
        "float",
        "(0, 1000)",
        lambda v: 0 < v < 1000,
        paper=6.0,
        comment="the target: infant deaths per 1,000 live births",
    ),
    "durham_deviations": declare.positive_list(
        paper=[0.25, 0.5, 1, 2],
        comment="hypothetical true rates above the target, per 1,000",
    ),
    "durham_r_tildes": declare.Param(
        "list[float]",
        "a non-empty list of values > 1",
        lambda v: declare.is_nonempty(v) and all(x > 1 for x in v),
        paper=[1.2, 2, 5],
        comment="profile (17)",
    ),
    "durham_a_tildes": declare.Param(
        "list[float]",
        "a non-empty list of values in [0, 1)",
        lambda v: declare.is_nonempty(v) and all(0 <= x < 1 for x in v),
        paper=[0, 0.1, 0.25, 0.5],
    ),
    "durham_max_switch": declare.in_unit(
        paper=0.1,
        comment="the agency's goal for the switching probability",
    ),
    "lc_n": declare.Param(
        "int",
        "[2, 10**9]",
        lambda v: 2 <= v <= 10**9,
        paper=4,
        comment="App. D.1: Lee & Clifton's population size",
    ),
    "lc_a_tilde": declare.Param(
        "float",
        "(1/lc_n, 1)",
        declare.is_unit,
        paper=1 / 3,
        comment="and their bound on the posterior",
        source="1 / 3",
    ),
    "sensitivity": declare.Param(
        "int",
        "[1, 10**6] (counts: an integer)",
        lambda v: 1 <= v <= 10**6,
        paper=1,
        comment="of the released counts (the geometric mechanism's noise has parameter e^(-ε/Δ))",
    ),
    "profile": declare.Param(
        "name",
        "one of " + ", ".join(PROFILE_FORMS),
        lambda v: str(v) in PROFILE_FORMS,
        default="fixed_q",
        comment="this run's own profile: constant, fixed_q, fixed_p, box or two_dimensional",
    ),
    "profile_r_tilde": declare.Param(
        "float", "(1, inf)", _above_one, default=3, comment="its relative bound r̃"
    ),
    "profile_a_tilde": declare.in_unit(
        default=0.25,
        comment="its absolute bound ã (fixed_q, fixed_p, two_dimensional)",
    ),
    "profile_p_tilde": declare.Param(
        "float", "(0, 1]", _prior_in_unit, default=0.05, comment="its p̃ (fixed_p)"
    ),
    "profile_q_tilde": declare.Param(
        "float", "(0, 1]", _prior_in_unit, default=1, comment="its q̃ (fixed_q)"
    ),
    "box_p_range": declare.Param(
        "list[float]",
        "[lower, upper] with 0 <= lower <= upper <= 1, upper > 0",
        _unit_pair,
        default=[0, 1],
        comment="the box profile's range of p",
    ),
    "box_q_range": declare.Param(
        "list[float]",
        "[lower, upper] with 0 <= lower <= upper <= 1, upper > 0",
        _unit_pair,
        default=[0, 1],
        comment="and of q",
    ),
    "n_draws": declare.with_default(declare.N_TRIALS, 400000, "Monte Carlo draws per check"),
    "seed": declare.with_default(declare.SEED, 20241210, "seeds every random draw below"),
    "output_dir": declare.output_dir("kazan_reiter_2024"),
}


def joint(params: Mapping[str, Any]) -> None:
    """Kazan & Reiter's parameters that constrain one another."""
    if not params["lc_a_tilde"] > 1 / params["lc_n"]:
        raise ValueError(
            "parameter 'lc_a_tilde' must exceed the prior 1/lc_n = "
            f"{1 / params['lc_n']:.6g} (a bound below the prior allows no release), "
            f"got {params['lc_a_tilde']!r}"
        )
