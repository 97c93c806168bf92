"""Notebook parameters, declared once: name, kind, range, value and the comment a reader reads.

``SPECS`` holds each notebook's declaration, in the order of its ``parameters`` cell, and that
cell is rendered from it (``parameters_cell``; ``tools/parameters_cell.py --fix`` writes it), so a
default is written in one place; papermill still sees an ordinary cell of assignments.

papermill injects parameters without checking them: its command line turns ``-p seed 1e3`` into a
float and ``-r`` values into strings, and a misspelled name only warns. One function, ``check``,
refuses unknown names, wrong kinds, values out of range and values that break a constraint across
parameters (``JOINT_CHECKS``). ``choosing_epsilon.harness.reproduce`` calls it before a kernel
starts (``check_names``); a notebook's folded set-up cell calls it with its globals and ``In``
(papermill's injected cell) for a run started without the runner.
"""

from __future__ import annotations

import ast
import dataclasses
import filecmp
import json
import math
import os
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..plots.style import MAX_SERIES
from ..queries import QUERIES
from .paths import NOTEBOOKS


@dataclass(frozen=True)
class Param:
    """One parameter, declared once: its kind, an optional range check with its description, its
    value, and how the notebook's parameters cell shows it (``parameters_cell``)."""

    # "int", "float", "str", "name" (text; an integer as typed, -p absent 3, is read as its text),
    # "path", "bool", "list[float]", "list[str]"
    kind: str
    allowed: str = ""
    check: Callable[[Any], bool] | None = None  # called with a value of the declared kind
    paper: object = None  # the value the paper fixes (None: not a paper input, e.g. seed)
    # the committed run's value, where the paper fixes none (None: ``paper``)
    default: object = None
    comment: str = ""  # what the parameters cell says after the value, for a reader
    comment_above: str = ""  # comment lines the cell shows above the parameter (one per line)
    source: str = ""  # the value as the cell writes it, where not its repr (``1 / 3``, ``1e-5``)

    @property
    def committed(self) -> object:
        """The value of the committed run: the paper's, or the notebook's own choice."""
        value = self.paper if self.default is None else self.default
        return as_path(value, NOTEBOOKS) if self.kind == "path" and value is not None else value


def as_path(value: object, base: Path | None = None) -> str:
    """A path parameter as an absolute path: relative paths are taken from ``base`` (default: the
    working directory)."""
    if str(value) == "":
        return ""  # no path: refused by a check where a file is required, "none" where optional
    path = Path(str(value)).expanduser()
    return os.path.abspath(path if base is None or path.is_absolute() else base / path)


def _positive(x: Any) -> bool:
    return x > 0


def _unit(x: Any) -> bool:
    return 0 < x < 1


def _nonempty(v: Any) -> bool:
    return len(v) > 0


def _positive_list(v: Any) -> bool:
    return _nonempty(v) and all(_positive(x) for x in v)


def _unit_list(v: Any) -> bool:
    return _nonempty(v) and all(_unit(x) for x in v)


def _distinct(v: Any) -> bool:
    return len(set(v)) == len(v)


def _distinct_unit_list(v: Any) -> bool:
    return _unit_list(v) and _distinct(v)


def _increasing_pair(v: Any) -> bool:
    return len(v) == 2 and v[0] < v[1]


def _default(param: Param, value: object, comment: str = "") -> Param:
    """``param`` with the committed run's value ``value`` and the cell's ``comment``."""
    return dataclasses.replace(param, default=value, comment=comment)


def _output_dir(
    notebook: str, comment: str = "figures, tables, claims.csv and results.json"
) -> Param:
    """Where ``notebook``'s run writes: its folder of ``figures/`` (from ``notebooks/``)."""
    return Param(
        "path", "a directory path", _nonempty, default=f"../figures/{notebook}", comment=comment
    )


def _in_unit(**declared: Any) -> Param:
    """A number strictly between 0 and 1 (a probability, a rate, a prior)."""
    return Param("float", "(0, 1)", _unit, **declared)


def _positive_float(**declared: Any) -> Param:
    """A number above 0 (an ε, a sensitivity, a cost)."""
    return Param("float", "(0, inf)", _positive, **declared)


def _finite_float(**declared: Any) -> Param:
    """Any finite number (a response, a true answer)."""
    return Param("float", "any finite number", **declared)


def _unit_list_param(**declared: Any) -> Param:
    """A non-empty list of numbers strictly between 0 and 1."""
    return Param("list[float]", "a non-empty list of values in (0, 1)", _unit_list, **declared)


def _positive_list_param(**declared: Any) -> Param:
    """A non-empty list of numbers above 0."""
    return Param("list[float]", "a non-empty list of values > 0", _positive_list, **declared)


# Inputs every notebook shares.
# each notebook sets its seed's default with _default
SEED = Param("int", "[0, 2**63)", lambda v: 0 <= v < 2**63)
N_TRIALS = Param("int", "[2, 10**7]", lambda v: 2 <= v <= 10**7)

LEE_CLIFTON_2011: dict[str, Param] = {
    "data_path": Param(
        "path",
        "a CSV file with a 'name' column",
        _nonempty,
        paper="../data/students.csv",
        comment_above=(
            "the adversary's database X: a `name` column and numeric attributes (Table 1)"
        ),
    ),
    "attributes": Param(
        "list[str]",
        "a non-empty list of distinct numeric column names",
        lambda v: _nonempty(v) and _distinct(v),
        paper=["absence_days", "school_year"],
        comment_above="the first is the paper's main example, the second its comparison",
    ),
    "absent": Param(
        "name",
        "a value of the 'name' column",
        lambda v: len(str(v)) > 0,
        paper="Terry",
        comment="the individual missing from the released database X'",
    ),
    "rho": _in_unit(
        paper=1 / 3,
        comment="the largest acceptable posterior belief (risk of disclosure)",
        source="1 / 3",
    ),
    "epsilons": _positive_list_param(
        paper=[5, 2, 1, 0.5, 0.1, 0.01],
        comment="the columns of Tables 2 and 3",
    ),
    "fig1_response": _finite_float(
        paper=1,
        comment="Sec. 4.4 reads Fig. 1 at this response: ω1 is the likeliest world",
    ),
    "response": _finite_float(paper=2.2013, comment="the noisy response of Sec. 4.4"),
    "example_epsilon": _positive_float(
        paper=2,
        comment="the ε of Secs. 4.1 and 4.4, used for Figs. 1 and 3",
    ),
    "example_noise": _finite_float(paper=1.1677, comment="the Laplace draw of Sec. 4.1"),
    "year_epsilon": _positive_float(
        paper=0.5,
        comment="the ε of Eqs. (10)-(12), for the second attribute",
    ),
    "fig2_max_epsilon": _positive_float(paper=5, comment="the right end of Fig. 2's ε axis"),
    "outlier_km": _positive_float(
        paper=400000,
        comment="Sec. 1: the astronaut alumni have travelled nearly 400,000 km",
    ),
    "alumni_n": Param(
        "int",
        "[3, 10**7]",
        lambda v: 3 <= v <= 10**7,
        default=100000,
        comment="size of the synthetic alumni database (our choice; the paper gives none)",
    ),
    "alumni_rho": _in_unit(
        default=0.01,
        comment="risk threshold for the alumni example (our choice)",
    ),
    "seed": _default(SEED, 20110901, "seeds every random draw below"),
    "n_trials": _default(N_TRIALS, 20000, "Monte Carlo responses per ε"),
    "output_dir": _output_dir("lee_clifton_2011"),
}

HSU_2014: dict[str, Param] = {
    "bad_event_cost": _positive_float(
        paper=1274,
        comment="dollars: the rise in Bob's health insurance premium",
    ),
    "bad_event_probability": _in_unit(
        paper=0.05,
        comment="chance of that rise even if Bob stays out of the study",
    ),
    "budget": _positive_float(
        paper=30000,
        comment="dollars the analyst can pay participants",
    ),
    "error": _in_unit(
        paper=0.05,
        comment="d: the additive error allowed on the estimated fraction (the full paper's T)",
    ),
    "failure_probability": _in_unit(
        paper=0.1,
        comment="T: the slides' accuracy level, the allowed chance of missing by > d",
    ),
    "slide_constants": Param(
        "bool",
        "True or False",
        paper=True,
        comment="True: the slides' rounded 0.0002 and 0.025; False: d²/12 and d/2",
    ),
    "slide_epsilon": _positive_float(paper=0.03, comment="the slides' answer"),
    "slide_n": Param(
        "int", "[1, 10**9]", lambda v: 1 <= v <= 10**9, paper=15000, comment="the slides' answer"
    ),
    "secondary_failure_probability": _in_unit(
        paper=0.05,
        comment="T of the full paper's worked example (secondary source)",
    ),
    "movie_worst_cost": _positive_float(
        paper=2500,
        comment="W: statutory damages in the movie-ratings example (secondary source)",
    ),
    "movie_exposure_probability": _in_unit(
        paper=0.0001,
        comment="chance of that cost, giving the base cost E (secondary)",
    ),
    "movie_exposed_fraction": _in_unit(
        paper=0.002,
        comment="φ: exposed share of a non-private study (secondary source)",
    ),
    "true_fraction": Param(
        "float",
        "[0, 1]",
        lambda v: 0 <= v <= 1,
        default=0.5,
        comment="the true share of smokers for the exact analysis (worst case: see below)",
    ),
    "max_study_size": Param(
        "int",
        "[1, 10**7]",
        lambda v: 1 <= v <= 10**7,
        default=1000000,
        comment="the largest N considered when looking for the cheapest study",
    ),
    "seed": _default(SEED, 20140722, "seeds every random draw below"),
    "n_trials": _default(N_TRIALS, 200000, "Monte Carlo studies for the exact failure probability"),
    "output_dir": _output_dir("hsu_2014"),
}

SHOARAN_2012: dict[str, Param] = {
    "epsilon": _positive_float(paper=0.01, comment="the privacy degree of the examples"),
    "pr": _in_unit(
        paper=0.1,
        comment="probability that the noise exceeds z (the examples' 10%)",
    ),
    "re": _positive_float(paper=0.1, comment="relative-error threshold (10%)"),
    "sensitivity": _positive_float(
        paper=1,
        comment="Δ(q) of a count query: the single-query case and Fig. 1",
    ),
    "query_answers": _positive_list_param(
        paper=[3000, 30000],
        comment="q_i(D) of Examples 2 and 3",
    ),
    "query_index": _positive_list_param(
        paper=[1, 10],
        comment="Γ, the DIFF query index of Example 3",
    ),
    "query_sensitivities": _positive_list_param(
        paper=[1, 1],
        comment="Δ(q_i), both counts",
    ),
    "fig1_epsilons": Param(
        "list[float]",
        "three values > 0",
        lambda v: len(v) == 3 and _positive_list(v),
        default=[0.01, 0.02, 0.05],
        comment_above="Fig. 1 curves: the paper names 0.01 only; 0.02 and 0.05 share its scale",
    ),
    "fig2_prs": Param(
        "list[float]",
        "three values in (0, 1)",
        lambda v: len(v) == 3 and _unit_list(v),
        default=[0.1, 0.3, 0.5],
        comment_above=(
            "Fig. 2 curves, unnamed in the paper: the examples' 10% and the 30% and 50% of the "
            "text on Fig. 1"
        ),
    ),
    "fig2_reading_epsilon": _positive_float(
        paper=0.1,
        comment="ε of Fig. 2's second reading (MTA against re)",
    ),
    "seed": _default(SEED, 20120827, "seeds every random draw below"),
    "n_trials": _default(N_TRIALS, 200000, "simulated releases per mechanism"),
    "output_dir": _output_dir("shoaran_2012"),
}

# The poster fixes no values: its claims are checked at these stated defaults, which play the
# paper's part.
MUGUNTHAN_POSTER: dict[str, Param] = {
    "sensitivity": _positive_float(paper=1, comment="Δ"),
    "c": _positive_float(
        paper=10,
        comment="distance within which the noisy answer should fall (Theorems 2 and 3)",
    ),
    "p": _in_unit(paper=0.9, comment="required probability of falling within it"),
    "w": _in_unit(
        paper=0.1,
        comment="Theorem 1's relative tolerance: |A(D) - q(D)| ≤ w q(D)",
    ),
    "query_answer": _positive_float(paper=100, comment="q(D); at the defaults w·q(D) equals c"),
    "p_grid": _unit_list_param(
        paper=[0.5, 0.75, 0.9, 0.95, 0.99, 0.999],
        comment="confidence levels for the coverage analysis",
    ),
    "gaussian_delta": _in_unit(
        default=1e-05,
        comment="δ of the Gaussian mechanism in the Gaussian analysis",
        source="1e-5",
    ),
    "seed": _default(SEED, 20191111, "seeds every random draw below"),
    "n_trials": _default(N_TRIALS, 200000, "Monte Carlo draws per (theorem, p)"),
    "output_dir": _output_dir("mugunthan_poster"),
}

LAPLACE_INTRO: dict[str, Param] = {
    "f_D": _finite_float(
        paper=5,
        comment="the true answer f(D) in the post's Laplace example",
    ),
    "sensitivity": _positive_float(paper=7, comment="Δ(f) in that example"),
    "epsilon": _positive_float(
        paper=0.5,
        comment="the privacy level of the example and of the first scenario",
    ),
    "epsilon_high": _positive_float(paper=10, comment='the second scenario: "no privacy at all"'),
    "age_range": Param(
        "list[float]",
        "[lower, upper] with lower < upper",
        _increasing_pair,
        paper=[0, 110],
        comment="[lb, ub] of an age column, from domain knowledge",
    ),
    "netflix_ratings": Param(
        "int",
        "[1, 10**12]",
        lambda v: 1 <= v <= 10**12,
        paper=10_000_000,
        comment="movie ratings in Netflix's 2006 release, as the post gives them",
        source="10_000_000",
    ),
    "netflix_customers": Param(
        "int",
        "[1, 10**12]",
        lambda v: 1 <= v <= 10**12,
        paper=500_000,
        comment="the customers who gave them, as the post gives them",
        source="500_000",
    ),
    "netflix_ratings_each": Param(
        "list[int]",
        "[fewest, most] with 1 <= fewest <= most",
        lambda v: len(v) == 2 and 1 <= v[0] <= v[1],
        paper=[2, 8],
        comment="the fewest and most ratings per customer, as the post gives them",
    ),
    "n_records": Param(
        "int",
        "[1, 10**9]",
        lambda v: 1 <= v <= 10**9,
        default=1000,
        comment="records whose mean age is released (our choice; the post gives none)",
    ),
    "n_runs": _default(N_TRIALS, 1000, "repeated releases in the averaging attack (our choice)"),
    "budget": _positive_float(
        default=2.0,
        comment="privacy budget ε_t for the dataset (our choice)",
    ),
    "seed": _default(SEED, 20230315, "seeds every random draw below"),
    "output_dir": _output_dir("laplace_intro"),
}

SYNTHESIS: dict[str, Param] = {
    "data_path": Param(
        "path",
        "empty (the synthetic survey), a CSV file, a Parquet file or a glob of Parquet files",
        lambda v: True,
        default="",
        comment="a CSV or Parquet file (or glob) holding the data; empty: the synthetic survey",
    ),
    "column": Param(
        "name",
        "a numeric column of data_path",
        lambda v: len(str(v)) > 0,
        default="age",
        comment="the numeric column of data_path whose mean is released",
    ),
    "n_people": Param(
        "int",
        "[3, 10**7]",
        lambda v: 3 <= v <= 10**7,
        default=20000,
        comment="participants in the synthetic survey",
    ),
    "value_range": Param(
        "list[float]",
        "[lower, upper] with lower < upper: the column's public range",
        _increasing_pair,
        default=[0, 110],
        comment="the column's public range, known before the data: it fixes Δ",
    ),
    "observed_ages": Param(
        "list[float]",
        "[youngest, oldest] inside value_range",
        lambda v: len(v) == 2 and v[0] <= v[1],
        default=[18, 90],
        comment="the synthetic ages are whole years spread evenly over this range",
    ),
    "mean_lower_bound": Param(
        "float",
        "any finite number (Shoaran et al.'s method applies where max(lower end of value_range, "
        "mean_lower_bound) is positive and at most the upper end)",
        default=18.0,
        comment="Shoaran et al.: public lower bound of the mean age (never from the data)",
    ),
    "rho": _in_unit(
        default=0.002,
        comment="Lee & Clifton: largest acceptable posterior on who is absent (the prior is 1/n)",
    ),
    "lee_clifton_query": Param(
        "str",
        "one of " + ", ".join(QUERIES),
        lambda v: v in QUERIES,
        default="mean",
        comment="... for the release of: mean, sum, variance, std, median, quantile",
    ),
    "lee_clifton_q": Param(
        "float",
        "(0, 1), read with lee_clifton_query quantile",
        _unit,
        default=0.9,
        comment='... the level of the quantile (read with lee_clifton_query "quantile" only)',
    ),
    "bad_event_cost": _positive_float(
        default=1274,
        comment="Hsu et al.: the cost of the bad event, as in their study",
    ),
    "bad_event_probability": _in_unit(
        default=0.05, comment="its probability without participating"
    ),
    "budget": _positive_float(default=30000, comment="dollars to pay the participants"),
    "error_years": _positive_float(
        default=5,
        comment="Hsu et al.: the mean age must be within this many years ...",
    ),
    "failure_probability": _in_unit(default=0.1, comment="... except with this probability"),
    "relative_error": _positive_float(
        default=0.05,
        comment="Shoaran et al.: relative-error target re",
    ),
    "pr": _in_unit(default=0.1, comment="... met with probability 1 - pr"),
    "c_years": _positive_float(
        default=1,
        comment="poster: the noise stays within c years ...",
    ),
    "p": _in_unit(default=0.95, comment="... with probability p"),
    "prior": _in_unit(
        default=0.5,
        comment="Bayesian reading: the adversary's prior that a given person took part",
    ),
    "posterior_threshold": _in_unit(
        default=0.75, comment="... and the posterior it must not exceed"
    ),
    "max_advantage": _in_unit(
        default=0.25,
        comment="hypothesis testing: largest acceptable TPR - FPR of any membership test",
    ),
    "max_tpr": Param(
        "float",
        "(0, 1) (the calibration to a TPR applies above at_fpr)",
        _unit,
        default=0.1,
        comment="calibrating to risk: largest acceptable TPR of a membership test ...",
    ),
    "at_fpr": Param(
        "float",
        "(0, 1) (the calibration to a TPR applies below max_tpr)",
        _unit,
        default=0.01,
        comment="... whose false-positive rate is this (below max_tpr)",
    ),
    "gaussian_delta": _in_unit(
        default=1e-05,
        comment="δ of the Gaussian mechanism's (ε, δ) on the standard route",
    ),
    "kr_r_tilde": Param(
        "float",
        "(0, inf) (Kazan & Reiter's Theorem 4 applies above 1)",
        _positive,
        default=3.0,
        comment="Kazan & Reiter: posterior-to-prior ratio allowed where the prior is not small",
    ),
    "registry_path": Param(
        "path",
        "a folder of the deployments registry's YAML files, or an older-format registry CSV",
        _nonempty,
        default="../data/deployments_registry",
        comment="deployments: the registry's YAML folder, or a CSV",
    ),
    "seed": _default(SEED, 20261122, "seeds the synthetic ages and the sampling checks"),
    "output_dir": _output_dir("synthesis", "figures, tables and results.json"),
}

PROFILE_FORMS = ("constant", "fixed_q", "fixed_p", "box", "two_dimensional")


def _above_one(x: Any) -> bool:
    return x > 1


def _prior_in_unit(x: Any) -> bool:
    return 0 < x <= 1


def _unit_pair(v: Any) -> bool:
    return len(v) == 2 and 0 <= v[0] <= v[1] <= 1 and v[1] > 0


KAZAN_REITER_2024: dict[str, Param] = {
    # Fig. 3 draws two lines an agency (its profile and its baseline), Fig. 4 one an agency and one
    # baseline: the style tells MAX_SERIES lines apart, so at most 4 and 7 agencies
    "table1_r_tildes": Param(
        "list[float]",
        f"a list of 1 to {MAX_SERIES // 2} values > 1",
        lambda v: 1 <= len(v) <= MAX_SERIES // 2 and all(x > 1 for x in v),
        paper=[1.5, 3, 6],
        comment_above=(
            "Table 1 (Example 1, profile (15)): agencies A, B, C's relative bounds r̃, their ã and q̃"
        ),
    ),
    "table1_a_tilde": _in_unit(paper=0.25),
    "table1_q_tilde": Param("float", "(0, 1]", _prior_in_unit, paper=1),
    "table5_a_tildes": Param(
        "list[float]",
        f"a list of 1 to {MAX_SERIES - 1} values in (0, 1)",
        lambda v: 1 <= len(v) <= MAX_SERIES - 1 and _unit_list(v),
        paper=[0.025, 0.15, 0.3],
        comment_above=(
            "Table 5 (Example 2, profile (16)): absolute bounds ã of agencies A, B, C, the "
            "surveyed share p̃, r̃"
        ),
    ),
    "table5_p_tilde": Param("float", "(0, 1]", _prior_in_unit, paper=0.05),
    "table5_r_tilde": Param("float", "(1, inf)", _above_one, paper=3),
    "fig1_a_tilde": _in_unit(
        paper=0.1,
        comment="Fig. 1's absolute bound (its r̃, q̃, p̃: table5_r_tilde, table1_q_tilde, ...)",
    ),
    "smaller_p_tildes": _unit_list_param(
        paper=[0.005, 0.0005],
        comment="App. C.2's smaller surveyed shares, agency A's ã",
    ),
    "two_dimensional_a_tilde": _in_unit(
        paper=0.25, comment="App. C.3, profile (33): max{ã/(pq), r̃}"
    ),
    "two_dimensional_r_tilde": Param("float", "(1, inf)", _above_one, paper=3),
    "durham_births": Param(
        "int",
        "[1, 10**9]",
        lambda v: 1 <= v <= 10**9,
        paper=4012,
        comment="Example 3: live births in Durham County, 2020 (public)",
    ),
    "durham_target_rate": Param(
        "float",
        "(0, 1000)",
        lambda v: 0 < v < 1000,
        paper=6.0,
        comment="the target: infant deaths per 1,000 live births",
    ),
    "durham_deviations": _positive_list_param(
        paper=[0.25, 0.5, 1, 2],
        comment="hypothetical true rates above the target, per 1,000",
    ),
    "durham_r_tildes": Param(
        "list[float]",
        "a non-empty list of values > 1",
        lambda v: _nonempty(v) and all(x > 1 for x in v),
        paper=[1.2, 2, 5],
        comment="profile (17)",
    ),
    "durham_a_tildes": Param(
        "list[float]",
        "a non-empty list of values in [0, 1)",
        lambda v: _nonempty(v) and all(0 <= x < 1 for x in v),
        paper=[0, 0.1, 0.25, 0.5],
    ),
    "durham_max_switch": _in_unit(
        paper=0.1,
        comment="the agency's goal for the switching probability",
    ),
    "lc_n": Param(
        "int",
        "[2, 10**9]",
        lambda v: 2 <= v <= 10**9,
        paper=4,
        comment="App. D.1: Lee & Clifton's population size",
    ),
    "lc_a_tilde": Param(
        "float",
        "(1/lc_n, 1)",
        _unit,
        paper=1 / 3,
        comment="and their bound on the posterior",
        source="1 / 3",
    ),
    "sensitivity": Param(
        "int",
        "[1, 10**6] (counts: an integer)",
        lambda v: 1 <= v <= 10**6,
        paper=1,
        comment="of the released counts (the geometric mechanism's noise has parameter e^(-ε/Δ))",
    ),
    "profile": Param(
        "name",
        "one of " + ", ".join(PROFILE_FORMS),
        lambda v: str(v) in PROFILE_FORMS,
        default="fixed_q",
        comment="this run's own profile: constant, fixed_q, fixed_p, box or two_dimensional",
    ),
    "profile_r_tilde": Param(
        "float", "(1, inf)", _above_one, default=3, comment="its relative bound r̃"
    ),
    "profile_a_tilde": _in_unit(
        default=0.25,
        comment="its absolute bound ã (fixed_q, fixed_p, two_dimensional)",
    ),
    "profile_p_tilde": Param(
        "float", "(0, 1]", _prior_in_unit, default=0.05, comment="its p̃ (fixed_p)"
    ),
    "profile_q_tilde": Param(
        "float", "(0, 1]", _prior_in_unit, default=1, comment="its q̃ (fixed_q)"
    ),
    "box_p_range": Param(
        "list[float]",
        "[lower, upper] with 0 <= lower <= upper <= 1, upper > 0",
        _unit_pair,
        default=[0, 1],
        comment="the box profile's range of p",
    ),
    "box_q_range": Param(
        "list[float]",
        "[lower, upper] with 0 <= lower <= upper <= 1, upper > 0",
        _unit_pair,
        default=[0, 1],
        comment="and of q",
    ),
    "n_draws": _default(N_TRIALS, 400000, "Monte Carlo draws per check"),
    "seed": _default(SEED, 20241210, "seeds every random draw below"),
    "output_dir": _output_dir("kazan_reiter_2024"),
}


def _kazan_reiter_joint(v: Mapping[str, Any]) -> None:
    """Kazan & Reiter's parameters that constrain one another."""
    if not v["lc_a_tilde"] > 1 / v["lc_n"]:
        raise ValueError(
            f"parameter 'lc_a_tilde' must exceed the prior 1/lc_n = {1 / v['lc_n']:.6g} (a bound "
            f"below the prior allows no release), got {v['lc_a_tilde']!r}"
        )


KULYNYCH_2024: dict[str, Param] = {
    "sample_rate": _in_unit(paper=0.001, comment="DP-SGD's Poisson sampling rate p (Sec. 3.1)"),
    "num_steps": Param(
        "int", "[1, 10**6]", lambda v: 1 <= v <= 10**6, paper=10000, comment="DP-SGD's steps T"
    ),
    "delta": _in_unit(
        paper=1e-5,
        comment="δ* of standard calibration, and of the (ε, δ) read off each run (App. H.2)",
        source="1e-5",
    ),
    # the authors' script of the paper's time (riskcal b7c9eeb, 2 July, and a1792ad, 14 August
    # 2024) calibrates np.logspace from 0.001 to 0.05 (5 points) and np.linspace from 0.05 to 0.25
    # (5), and its Fig. 2a draws those with adv >= 0.01: these, as numpy computes them, 0.05 and
    # 0.15 once (its 0.049999999999999996 and 0.15000000000000002 are one unit in the last place
    # from them)
    "advantage_targets": Param(
        "list[float]",
        "a non-empty list of distinct values in (delta, 1)",
        _distinct_unit_list,
        paper=[0.018803015465431967, 0.05, 0.1, 0.15, 0.2, 0.25],
        comment="Fig. 2a's η*: the authors' grid of the paper's time, as drawn (η* ≥ 0.01)",
    ),
    # the same script from riskcal d7fb0f0 (16 August 2024) on: np.logspace from 0.004 to 0.05 and
    # the same np.linspace, every point drawn
    "later_advantage_targets": Param(
        "list[float]",
        "a list of distinct values in (delta, 1), maybe empty",
        lambda v: all(_unit(x) for x in v) and _distinct(v),
        paper=[
            0.004000000000000001,
            0.007521206186172788,
            0.01414213562373095,
            0.026591479484724942,
            0.05,
            0.1,
            0.15,
            0.2,
            0.25,
        ],
        comment="the authors' later grid (Fig. 2a's η* from 16 August 2024): a second reading",
    ),
    # each target a row or a column of the tables: listed once
    "fpr_targets": Param(
        "list[float]",
        "a non-empty list of distinct values in (0, 1)",
        _distinct_unit_list,
        paper=[0.01, 0.05, 0.1],
        comment="Fig. 3's FPRs α*, also Fig. 1's",
    ),
    "tpr_targets": Param(
        "list[float]",
        "a non-empty list of distinct values in (0, 1), one above fpr_targets[0] + delta",
        _distinct_unit_list,
        paper=[0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5],
        comment="Fig. 3's TPRs 1 − β*",
    ),
    "gap_advantage": Param(
        "float", "(delta, 1)", _unit, paper=0.5, comment="Prop. 3.3's example: the advantage η*"
    ),
    "gap_fpr": Param(
        "float",
        "(0, (1 - gap_advantage)/2)",
        _unit,
        paper=0.1,
        comment="and the FPR α it reads the gap at",
    ),
    "workers": Param(
        "int",
        "[1, 8]",
        lambda v: 1 <= v <= 8,
        default=1,
        comment="processes for the calibrations a run must compute (none at the defaults)",
    ),
    "seed": _default(SEED, 20240702, "seeds the Monte Carlo test of the Gaussian mechanism"),
    "n_trials": _default(N_TRIALS, 200000, "draws per hypothesis in that test"),
    "output_dir": _output_dir("kulynych_2024"),
}


def _kulynych_joint(v: Mapping[str, Any]) -> None:
    """Kulynych et al.'s parameters that constrain one another."""
    advantages = [*v["advantage_targets"], *v["later_advantage_targets"], v["gap_advantage"]]
    low = [a for a in advantages if not a > v["delta"]]
    if low:
        raise ValueError(
            "parameters 'advantage_targets', 'later_advantage_targets' and 'gap_advantage' must "
            "exceed delta = "
            f"{v['delta']!r} "
            f"((0, δ)-DP already allows advantage δ), got {low!r}"
        )
    floor = v["fpr_targets"][0] + v["delta"]
    if not any(t > floor for t in v["tpr_targets"]):
        raise ValueError(
            f"parameter 'tpr_targets' needs a value above fpr_targets[0] + delta = {floor:.6g} "
            "(the Monte Carlo check calibrates to it; (0, δ)-DP already allows a TPR of "
            f"FPR + δ), got {v['tpr_targets']!r}"
        )
    if not v["gap_fpr"] < (1 - v["gap_advantage"]) / 2:
        raise ValueError(
            f"parameter 'gap_fpr' must be below (1 - gap_advantage)/2 = "
            f"{(1 - v['gap_advantage']) / 2:.6g} (Proposition 3.3), got {v['gap_fpr']!r}"
        )


# the largest noise scale the Laplace introduction draws with (Δ/ε, and (ub − lb)/ε for input
# perturbation): the fourth power of the scale, in the standard error of a sample variance, and
# sums of 10⁷ such terms stay finite doubles (below about 1.8e308)
MAX_NOISE_SCALE = 1e70


def _laplace_joint(v: Mapping[str, Any]) -> None:
    """The Laplace introduction's noise scales: finite fourth moments."""
    (lb, ub) = v["age_range"]
    scales = [
        ("sensitivity", v["sensitivity"], "epsilon"),
        ("age_range", ub - lb, "epsilon"),  # input perturbation: one value's scale (ub − lb)/ε
        ("sensitivity", v["sensitivity"], "epsilon_high"),
    ]
    for spread_name, spread, name in scales:
        scale = spread / v[name]
        if not scale <= MAX_NOISE_SCALE:
            raise ValueError(
                f"parameters '{spread_name}' and '{name}' set the noise scale {scale:.3g}, "
                f"which must be at most {MAX_NOISE_SCALE:g} (its fourth power a finite float): "
                f"raise {name} to at least {spread / MAX_NOISE_SCALE:.3g}, got {name} = "
                f"{v[name]!r}"
            )


def _lee_clifton_joint(v: Mapping[str, Any]) -> None:
    """Lee & Clifton's alumni example: a risk threshold the adversary's prior does not exceed."""
    if not v["alumni_rho"] >= 1 / v["alumni_n"]:
        raise ValueError(
            f"parameter 'alumni_rho' must lie in [1/alumni_n, 1) = [{1 / v['alumni_n']:.6g}, 1) "
            "(the adversary's prior over the alumni_n possible worlds is 1/alumni_n), got "
            f"{v['alumni_rho']!r} with alumni_n = {v['alumni_n']!r}"
        )


def _synthesis_joint(v: Mapping[str, Any]) -> None:
    """The synthesis's parameters that constrain one another: the synthetic ages inside the
    public range. A parameter only one method reads (the lower bound of the mean, r̃, the stated
    TPR and its FPR) is refused only where it is no number of its kind; where it rules out its
    method, that method says so in the run and every other one is computed."""
    (lb, ub), observed = v["value_range"], v["observed_ages"]
    if not v["data_path"] and not lb <= observed[0] <= observed[1] <= ub:
        raise ValueError(
            f"parameter 'observed_ages' must lie inside value_range {v['value_range']!r} (the "
            f"synthetic ages are drawn from it), got {observed!r}"
        )


def _shoaran_joint(v: Mapping[str, Any]) -> None:
    """Shoaran et al.'s queries: one answer, index value and sensitivity for each query."""
    lengths = [len(v[name]) for name in ("query_answers", "query_index", "query_sensitivities")]
    if len(set(lengths)) > 1:
        raise ValueError(
            "parameters 'query_answers', 'query_index' and 'query_sensitivities' must have the "
            f"same length (one entry per query), got {lengths[0]}, {lengths[1]} and {lengths[2]}"
        )


# checks across parameters, by notebook: called with every parameter (given or committed)
JOINT_CHECKS: dict[str, Callable[[Mapping[str, Any]], None]] = {
    "synthesis": _synthesis_joint,
    "kazan_reiter_2024": _kazan_reiter_joint,
    "kulynych_2024": _kulynych_joint,
    "shoaran_2012": _shoaran_joint,
    "laplace_intro": _laplace_joint,
    "lee_clifton_2011": _lee_clifton_joint,
}

SPECS: dict[str, dict[str, Param]] = {
    "synthesis": SYNTHESIS,
    "laplace_intro": LAPLACE_INTRO,
    "lee_clifton_2011": LEE_CLIFTON_2011,
    "hsu_2014": HSU_2014,
    "shoaran_2012": SHOARAN_2012,
    "mugunthan_poster": MUGUNTHAN_POSTER,
    "kazan_reiter_2024": KAZAN_REITER_2024,
    "kulynych_2024": KULYNYCH_2024,
}


def _is_kind(value: object, kind: str) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        )
    if kind in ("str", "path"):
        return isinstance(value, str)
    if kind == "name":
        return isinstance(value, (str, int)) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind.startswith("list[") and isinstance(value, (list, tuple)):
        return all(_is_kind(v, kind[5:-1]) for v in value)
    return False


def _kinds_and_ranges(
    values: Mapping[str, object], spec: Mapping[str, Param], partial: bool
) -> dict[str, object]:
    """Each parameter of ``spec`` in ``values`` checked by kind and range, as the notebook uses it
    (a name as text, a list as a list, a path absolute)."""
    missing = [name for name in spec if name not in values]
    if missing and not partial:
        raise ValueError(f"parameters missing: {missing}")
    checked: dict[str, object] = {}
    for name, param in spec.items():
        if name not in values:
            continue
        value = values[name]
        if not _is_kind(value, param.kind):
            raise ValueError(
                f"parameter {name!r} must be of type {param.kind}"
                + (f" ({param.allowed})" if param.allowed else "")
                + f", got {value!r} ({type(value).__name__})"
            )
        if param.check is not None and not param.check(value):
            raise ValueError(f"parameter {name!r} must be in {param.allowed}, got {value!r}")
        checked[name] = (
            str(value)
            if param.kind == "name"
            else list(value)
            if isinstance(value, tuple)
            else as_path(value)
            if param.kind == "path"
            else value
        )
    return checked


def _injected_names(history: Sequence[str]) -> set[str]:
    """The names papermill's injected-parameters cell assigns, found in the kernel's ``In``
    history (interactive sessions have none)."""
    return {
        t.id
        for source in history
        if source.startswith("# Parameters\n")
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }


def check(
    notebook: str,
    values: Mapping[str, object],
    *,
    partial: bool = False,
    history: Sequence[str] = (),
) -> dict[str, object]:
    """The one check of ``notebook``'s parameters, wherever they enter; return them checked.

    In order: the names (with ``partial``, every name in ``values`` must be declared; so must every
    name papermill injected, read from ``history``: plain papermill only warns about a misspelled
    name and runs on with the default), then each value's kind and range, then the checks across
    parameters (``JOINT_CHECKS``), on the committed run's values with these in their place.

    The runner calls it with the values it is given (``partial``) before a kernel starts
    (``check_names``); the notebook's set-up cell with its globals and ``In``, for a run started
    without the runner. Raises ValueError naming the parameter, its value and what is allowed.
    """
    spec = SPECS.get(notebook)
    if spec is None:
        raise ValueError(f"notebook must be one of {sorted(SPECS)}, got {notebook!r}")
    named = set(values) if partial else set()  # a notebook's globals hold more than parameters
    unknown = sorted((named | _injected_names(history)) - set(spec))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {notebook}; known: {sorted(spec)}")
    checked = _kinds_and_ranges(values, spec, partial)
    check_joint(notebook, {**committed_values(notebook), **checked})
    return checked


def validate(
    values: Mapping[str, object], spec: Mapping[str, Param], partial: bool = False
) -> dict[str, object]:
    """Check every parameter of ``spec`` in ``values`` by type and range; return them as a dict.

    With ``partial``, only the names present in ``values`` are checked. A notebook's own ``spec``
    (``SPECS[notebook]``) goes through ``check``, joint checks included.
    Raises ValueError naming the parameter, its value and what is allowed.
    """
    notebook = next((name for name, declared in SPECS.items() if declared is spec), None)
    if notebook is None:
        return _kinds_and_ranges(values, spec, partial)
    return check(notebook, values, partial=partial)


def check_names(notebook: str, given: Mapping[str, object]) -> None:
    """The runner's check before a kernel starts: ``check`` of the values given (unknown names,
    which papermill would only warn about, kinds, ranges, joint checks)."""
    check(notebook, given, partial=True)


def check_joint(notebook: str, values: Mapping[str, object]) -> None:
    """Refuse values that break a constraint across parameters (``JOINT_CHECKS``)."""
    joint = JOINT_CHECKS.get(notebook)
    if joint is not None:
        joint(values)


def committed_values(notebook: str) -> dict[str, Any]:
    """Every parameter of ``notebook`` at the committed run's value, by name."""
    return {name: p.committed for name, p in SPECS[notebook].items()}


def paper_values(notebook: str) -> dict[str, object]:
    """The inputs the paper fixes, by parameter name: the ledger compares a run's parameters with
    these."""
    return {name: p.committed for name, p in SPECS[notebook].items() if p.paper is not None}


def check_injected(history: Sequence[str], notebook: str) -> None:
    """Refuse names in papermill's injected-parameters cell (found in the kernel's ``In``
    history) that the notebook does not declare: ``check`` with ``history``."""
    check(notebook, {}, partial=True, history=history)


# the longest line a parameters cell shows with its comment beside the value (ruff's line length)
CELL_WIDTH = 100


def display_width(line: str) -> int:
    """The columns ``line`` takes, as ruff counts them (a combining accent, the tilde of r̃, takes
    none)."""
    return sum(0 if unicodedata.combining(c) else 1 for c in line)


def value_text(value: object) -> str:
    """A declared value as the parameters cell writes it (strings in double quotes)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    return repr(value)


def parameters_cell(notebook: str) -> str:
    """The source of ``notebook``'s ``parameters`` cell, rendered from its declaration in
    ``SPECS``: one assignment a parameter, in the declaration's order, its comment beside the
    value (above it where the line would be too long).

    papermill reads the cell as any other (``papermill.inspect_notebook``): names, values and
    comments; ``tools/parameters_cell.py --fix`` writes it into the notebook.
    """
    lines: list[str] = []
    for name, param in SPECS[notebook].items():
        lines += [f"# {line}" for line in param.comment_above.splitlines()]
        value = param.paper if param.default is None else param.default
        assignment = f"{name} = {param.source or value_text(value)}"
        if display_width(assignment) > CELL_WIDTH and isinstance(value, (list, tuple)):
            # as ruff formats a list too long for one line: an element a line
            items = [f"    {value_text(v)}," for v in value]
            assignment = "\n".join([f"{name} = [", *items, "]"])
        if not param.comment:
            lines.append(assignment)
        elif "\n" not in assignment and (
            display_width(f"{assignment}  # {param.comment}") <= CELL_WIDTH
        ):
            lines.append(f"{assignment}  # {param.comment}")
        else:
            lines += [f"# {param.comment}", assignment]
    return "\n".join(lines)


def differ_from_defaults(notebook: str, values: Mapping[str, object]) -> list[str]:
    """The parameters (but output_dir) whose value is not the committed run's: the run's results
    are not figures/'s."""
    spec = SPECS[notebook]
    return sorted(
        name
        for name, value in values.items()
        if name in spec and name != "output_dir" and not same(value, spec[name].committed)
    )


def same(a: object, b: object) -> bool:
    """Equality that treats numbers by value (1 == 1.0, 1/3 to 1e-12), compares sequences
    element-wise, and takes two paths of files (or folders of files) with the same bytes as the
    same input."""
    if isinstance(a, str) and isinstance(b, str) and a != b and os.path.isfile(a):
        return os.path.isfile(b) and filecmp.cmp(a, b, shallow=False)
    if isinstance(a, str) and isinstance(b, str) and a and a != b and os.path.isdir(a):
        # two folders holding the same files with the same bytes (the deployments registry)
        names = sorted(os.listdir(a))
        return (
            os.path.isdir(b)
            and names == sorted(os.listdir(b))
            and filecmp.cmpfiles(a, b, names, shallow=False)[0] == names
        )
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    numbers = (int, float)
    if (
        isinstance(a, numbers)
        and isinstance(b, numbers)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
    ):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    return a == b
