"""Lee & Clifton (2011):
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from choosing_epsilon import possible_worlds
from choosing_epsilon.harness import parameters as declare

DECLARED: dict[str, declare.Param] = {
    "data_path": declare.Param(
        "path",
        "a CSV file with a 'name' column",
        declare.is_nonempty,
        paper="../data/students.csv",
        comment_above=(
            "the adversary's database X: a `name` column and numeric attributes (Table 1)"
        ),
    ),
    "attributes": declare.Param(
        "list[str]",
        "a non-empty list of distinct numeric column names",
        lambda v: declare.is_nonempty(v) and declare.is_distinct(v),
        paper=["absence_days", "school_year"],
        comment_above="the first is the paper's main example, the second its comparison",
    ),
    "absent": declare.Param(
        "name",
        "a value of the 'name' column",
        lambda v: len(str(v)) > 0,
        paper="Terry",
        comment="the individual missing from the released database X'",
    ),
    "rho": declare.in_unit(
        paper=1 / 3,
        comment="the largest acceptable posterior belief (risk of disclosure)",
        source="1 / 3",
    ),
    "epsilons": declare.positive_list(
        paper=[5, 2, 1, 0.5, 0.1, 0.01],
        comment="the columns of Tables 2 and 3",
    ),
    "fig1_response": declare.finite_float(
        paper=1,
        comment="Sec. 4.4 reads Fig. 1 at this response: ω1 is the likeliest world",
    ),
    "response": declare.finite_float(paper=2.2013, comment="the noisy response of Sec. 4.4"),
    "example_epsilon": declare.positive_float(
        paper=2,
        comment="the ε of Secs. 4.1 and 4.4, used for Figs. 1 and 3",
    ),
    "example_noise": declare.finite_float(paper=1.1677, comment="the Laplace draw of Sec. 4.1"),
    "year_epsilon": declare.positive_float(
        paper=0.5,
        comment="the ε of Eqs. (10)-(12), for the second attribute",
    ),
    "fig2_max_epsilon": declare.positive_float(paper=5, comment="the right end of Fig. 2's ε axis"),
    "outlier_km": declare.positive_float(
        paper=400000,
        comment="Sec. 1: the astronaut alumni have travelled nearly 400,000 km",
    ),
    "alumni_n": declare.Param(
        "int",
        "[3, 10**7]",
        lambda v: 3 <= v <= 10**7,
        default=100000,
        comment="size of the synthetic alumni database (our choice; the paper gives none)",
    ),
    "alumni_rho": declare.in_unit(
        default=0.01,
        comment="risk threshold for the alumni example (our choice)",
    ),
    "seed": declare.with_default(declare.SEED, 20110901, "seeds every random draw below"),
    "n_trials": declare.with_default(declare.N_TRIALS, 20000, "Monte Carlo responses per ε"),
    "output_dir": declare.output_dir("lee_clifton_2011"),
}


def joint(params: Mapping[str, Any]) -> None:
    """Lee & Clifton's alumni example: a risk threshold the adversary's prior does not exceed."""
    if not params["alumni_rho"] >= 1 / params["alumni_n"]:
        raise ValueError(
            "parameter 'alumni_rho' must lie in [1/alumni_n, 1) = "
            f"[{1 / params['alumni_n']:.6g}, 1) "
            "(the adversary's prior over the alumni_n possible worlds is 1/alumni_n), got "
            f"{params['alumni_rho']!r} with alumni_n = {params['alumni_n']!r}"
        )


def check_inputs(values: Mapping[str, Any]) -> None:
    """Lee & Clifton's database: the file, its ``name`` column, the attributes, ``absent``, and ρ
    ≥ 1/n (the prior)."""
    table = possible_worlds.load_database(
        str(values["data_path"]), list(values["attributes"]), str(values["absent"])
    )
    possible_worlds.check_rho(float(values["rho"]), len(table))
