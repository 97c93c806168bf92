"""Notebook parameters: names, types and ranges, checked in the notebook and by the runner.

papermill injects parameters without checking them: its command line turns ``-p seed 1e3`` into a
float and ``-r`` values into strings, and a misspelled name only warns. Each notebook therefore
validates its parameters by name and type with ``validate``, and
``choosing_epsilon.harness.reproduce`` refuses unknown names before a kernel starts.
"""

from __future__ import annotations

import ast
import dataclasses
import filecmp
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..queries import QUERIES
from .paths import NOTEBOOKS


@dataclass(frozen=True)
class Param:
    """One parameter: its kind and an optional range check with its description."""

    # "int", "float", "str", "name" (text; an integer as typed, -p absent 3, is read as its text),
    # "path", "bool", "list[float]", "list[str]"
    kind: str
    allowed: str = ""
    check: Callable[[Any], bool] | None = None  # called with a value of the declared kind
    paper: object = None  # the value the paper fixes (None: not a paper input, e.g. seed)
    # the committed run's value, where the paper fixes none (None: ``paper``)
    default: object = None

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


def _increasing_pair(v: Any) -> bool:
    return len(v) == 2 and v[0] < v[1]


def _default(param: Param, value: object) -> Param:
    """``param`` with the committed run's value ``value``."""
    return dataclasses.replace(param, default=value)


# Inputs every notebook shares.
# each notebook sets its seed's default with _default
SEED = Param("int", "[0, 2**63)", lambda v: 0 <= v < 2**63)
N_TRIALS = Param("int", "[2, 10**7]", lambda v: 2 <= v <= 10**7)
OUTPUT_DIR = Param("path", "a directory path", _nonempty)

LEE_CLIFTON_2011: dict[str, Param] = {
    "data_path": Param(
        "path", "a CSV file with a 'name' column", _nonempty, paper="../data/students.csv"
    ),
    "attributes": Param(
        "list[str]",
        "a non-empty list of numeric column names",
        _nonempty,
        paper=["absence_days", "school_year"],
    ),
    "absent": Param(
        "name", "a value of the 'name' column", lambda v: len(str(v)) > 0, paper="Terry"
    ),
    "rho": Param("float", "(0, 1)", _unit, paper=1 / 3),
    "epsilons": Param(
        "list[float]",
        "a non-empty list of values > 0",
        _positive_list,
        paper=[5, 2, 1, 0.5, 0.1, 0.01],
    ),
    "fig1_response": Param("float", "any finite number", paper=1),
    "response": Param("float", "any finite number", paper=2.2013),
    "example_epsilon": Param("float", "(0, inf)", _positive, paper=2),
    "example_noise": Param("float", "any finite number", paper=1.1677),
    "year_epsilon": Param("float", "(0, inf)", _positive, paper=0.5),
    "fig2_max_epsilon": Param("float", "(0, inf)", _positive, paper=5),
    "outlier_km": Param("float", "(0, inf)", _positive, paper=400000),
    "alumni_n": Param("int", "[3, 10**7]", lambda v: 3 <= v <= 10**7, default=100000),
    "alumni_rho": Param("float", "(0, 1)", _unit, default=0.01),
    "seed": _default(SEED, 20110901),
    "n_trials": _default(N_TRIALS, 20000),
    "output_dir": OUTPUT_DIR,
}

HSU_2014: dict[str, Param] = {
    "bad_event_cost": Param("float", "(0, inf)", _positive, paper=1274),
    "bad_event_probability": Param("float", "(0, 1)", _unit, paper=0.05),
    "budget": Param("float", "(0, inf)", _positive, paper=30000),
    "error": Param("float", "(0, 1)", _unit, paper=0.05),
    "failure_probability": Param("float", "(0, 1)", _unit, paper=0.1),
    "slide_constants": Param("bool", "True or False", paper=True),
    "slide_epsilon": Param("float", "(0, inf)", _positive, paper=0.03),
    "slide_n": Param("int", "[1, 10**9]", lambda v: 1 <= v <= 10**9, paper=15000),
    "secondary_failure_probability": Param("float", "(0, 1)", _unit, paper=0.05),
    "movie_worst_cost": Param("float", "(0, inf)", _positive, paper=2500),
    "movie_exposure_probability": Param("float", "(0, 1)", _unit, paper=0.0001),
    "movie_exposed_fraction": Param("float", "(0, 1)", _unit, paper=0.002),
    "true_fraction": Param("float", "[0, 1]", lambda v: 0 <= v <= 1, default=0.5),
    "max_study_size": Param("int", "[1, 10**7]", lambda v: 1 <= v <= 10**7, default=1000000),
    "seed": _default(SEED, 20140722),
    "n_trials": _default(N_TRIALS, 200000),
    "output_dir": OUTPUT_DIR,
}

SHOARAN_2012: dict[str, Param] = {
    "epsilon": Param("float", "(0, inf)", _positive, paper=0.01),
    "pr": Param("float", "(0, 1)", _unit, paper=0.1),
    "re": Param("float", "(0, inf)", _positive, paper=0.1),
    "sensitivity": Param("float", "(0, inf)", _positive, paper=1),
    "query_answers": Param(
        "list[float]", "a non-empty list of values > 0", _positive_list, paper=[3000, 30000]
    ),
    "query_index": Param(
        "list[float]", "a non-empty list of values > 0", _positive_list, paper=[1, 10]
    ),
    "query_sensitivities": Param(
        "list[float]", "a non-empty list of values > 0", _positive_list, paper=[1, 1]
    ),
    "fig1_epsilons": Param(
        "list[float]",
        "three values > 0",
        lambda v: len(v) == 3 and _positive_list(v),
        default=[0.01, 0.02, 0.05],
    ),
    "fig2_prs": Param(
        "list[float]",
        "three values in (0, 1)",
        lambda v: len(v) == 3 and _unit_list(v),
        default=[0.1, 0.3, 0.5],
    ),
    "fig2_reading_epsilon": Param("float", "(0, inf)", _positive, paper=0.1),
    "seed": _default(SEED, 20120827),
    "n_trials": _default(N_TRIALS, 200000),
    "output_dir": OUTPUT_DIR,
}

# The poster fixes no values: its claims are checked at these stated defaults, which play the
# paper's part.
MUGUNTHAN_POSTER: dict[str, Param] = {
    "sensitivity": Param("float", "(0, inf)", _positive, paper=1),
    "c": Param("float", "(0, inf)", _positive, paper=10),
    "p": Param("float", "(0, 1)", _unit, paper=0.9),
    "w": Param("float", "(0, 1)", _unit, paper=0.1),
    "query_answer": Param("float", "(0, inf)", _positive, paper=100),
    "p_grid": Param(
        "list[float]",
        "a non-empty list of values in (0, 1)",
        _unit_list,
        paper=[0.5, 0.75, 0.9, 0.95, 0.99, 0.999],
    ),
    "gaussian_delta": Param("float", "(0, 1)", _unit, default=1e-05),
    "seed": _default(SEED, 20191111),
    "n_trials": _default(N_TRIALS, 200000),
    "output_dir": OUTPUT_DIR,
}

LAPLACE_INTRO: dict[str, Param] = {
    "f_D": Param("float", "any finite number", paper=5),
    "sensitivity": Param("float", "(0, inf)", _positive, paper=7),
    "epsilon": Param("float", "(0, inf)", _positive, paper=0.5),
    "epsilon_high": Param("float", "(0, inf)", _positive, paper=10),
    "age_range": Param(
        "list[float]", "[lower, upper] with lower < upper", _increasing_pair, paper=[0, 110]
    ),
    "netflix_ratings": Param("int", "[1, 10**12]", lambda v: 1 <= v <= 10**12, paper=10_000_000),
    "netflix_customers": Param("int", "[1, 10**12]", lambda v: 1 <= v <= 10**12, paper=500_000),
    "netflix_ratings_each": Param(
        "list[int]",
        "[fewest, most] with 1 <= fewest <= most",
        lambda v: len(v) == 2 and 1 <= v[0] <= v[1],
        paper=[2, 8],
    ),
    "n_records": Param("int", "[1, 10**9]", lambda v: 1 <= v <= 10**9, default=1000),
    "n_runs": _default(N_TRIALS, 1000),
    "budget": Param("float", "(0, inf)", _positive, default=2.0),
    "seed": _default(SEED, 20230315),
    "output_dir": OUTPUT_DIR,
}

SYNTHESIS: dict[str, Param] = {
    "data_path": Param(
        "path",
        "empty (the synthetic survey), a CSV file, a Parquet file or a glob of Parquet files",
        lambda v: True,
        default="",
    ),
    "column": Param(
        "name", "a numeric column of data_path", lambda v: len(str(v)) > 0, default="age"
    ),
    "n_people": Param("int", "[3, 10**7]", lambda v: 3 <= v <= 10**7, default=20000),
    "value_range": Param(
        "list[float]",
        "[lower, upper] with lower < upper: the column's public range",
        _increasing_pair,
        default=[0, 110],
    ),
    "observed_ages": Param(
        "list[float]",
        "[youngest, oldest] inside value_range",
        lambda v: len(v) == 2 and v[0] <= v[1],
        default=[18, 90],
    ),
    "mean_lower_bound": Param(
        "float", "(0, inf), at most the upper end of value_range", _positive, default=18.0
    ),
    "rho": Param("float", "(0, 1)", _unit, default=0.002),
    "lee_clifton_query": Param(
        "str", "one of " + ", ".join(QUERIES), lambda v: v in QUERIES, default="mean"
    ),
    "lee_clifton_q": Param(
        "float", "(0, 1), read with lee_clifton_query quantile", _unit, default=0.9
    ),
    "bad_event_cost": Param("float", "(0, inf)", _positive, default=1274),
    "bad_event_probability": Param("float", "(0, 1)", _unit, default=0.05),
    "budget": Param("float", "(0, inf)", _positive, default=30000),
    "error_years": Param("float", "(0, inf)", _positive, default=5),
    "failure_probability": Param("float", "(0, 1)", _unit, default=0.1),
    "relative_error": Param("float", "(0, inf)", _positive, default=0.05),
    "pr": Param("float", "(0, 1)", _unit, default=0.1),
    "c_years": Param("float", "(0, inf)", _positive, default=1),
    "p": Param("float", "(0, 1)", _unit, default=0.95),
    "prior": Param("float", "(0, 1)", _unit, default=0.5),
    "posterior_threshold": Param("float", "(0, 1)", _unit, default=0.75),
    "max_advantage": Param("float", "(0, 1)", _unit, default=0.25),
    "max_tpr": Param("float", "(at_fpr, 1)", _unit, default=0.1),
    "at_fpr": Param("float", "(0, max_tpr)", _unit, default=0.01),
    "gaussian_delta": Param("float", "(0, 1)", _unit, default=1e-05),
    "kr_r_tilde": Param("float", "(1, inf)", lambda x: x > 1, default=3.0),
    "registry_path": Param(
        "path",
        "a folder of the deployments registry's YAML files, or an older-format registry CSV",
        _nonempty,
        default="../data/deployments_registry",
    ),
    "seed": _default(SEED, 20261122),
    "output_dir": OUTPUT_DIR,
}

PROFILE_FORMS = ("constant", "fixed_q", "fixed_p", "box", "two_dimensional")


def _above_one(x: Any) -> bool:
    return x > 1


def _prior_in_unit(x: Any) -> bool:
    return 0 < x <= 1


def _unit_pair(v: Any) -> bool:
    return len(v) == 2 and 0 <= v[0] <= v[1] <= 1 and v[1] > 0


KAZAN_REITER_2024: dict[str, Param] = {
    "table1_r_tildes": Param(
        "list[float]",
        "a non-empty list of values > 1",
        lambda v: _nonempty(v) and all(x > 1 for x in v),
        paper=[1.5, 3, 6],
    ),
    "table1_a_tilde": Param("float", "(0, 1)", _unit, paper=0.25),
    "table1_q_tilde": Param("float", "(0, 1]", _prior_in_unit, paper=1),
    "table5_a_tildes": Param(
        "list[float]", "a non-empty list of values in (0, 1)", _unit_list, paper=[0.025, 0.15, 0.3]
    ),
    "table5_p_tilde": Param("float", "(0, 1]", _prior_in_unit, paper=0.05),
    "table5_r_tilde": Param("float", "(1, inf)", _above_one, paper=3),
    "fig1_a_tilde": Param("float", "(0, 1)", _unit, paper=0.1),
    "c2_p_tildes": Param(
        "list[float]", "a non-empty list of values in (0, 1)", _unit_list, paper=[0.005, 0.0005]
    ),
    "twod_a_tilde": Param("float", "(0, 1)", _unit, paper=0.25),
    "twod_r_tilde": Param("float", "(1, inf)", _above_one, paper=3),
    "durham_births": Param("int", "[1, 10**9]", lambda v: 1 <= v <= 10**9, paper=4012),
    "durham_target_rate": Param("float", "(0, 1000)", lambda v: 0 < v < 1000, paper=6.0),
    "durham_deviations": Param(
        "list[float]", "a non-empty list of values > 0", _positive_list, paper=[0.25, 0.5, 1, 2]
    ),
    "durham_r_tildes": Param(
        "list[float]",
        "a non-empty list of values > 1",
        lambda v: _nonempty(v) and all(x > 1 for x in v),
        paper=[1.2, 2, 5],
    ),
    "durham_a_tildes": Param(
        "list[float]",
        "a non-empty list of values in [0, 1)",
        lambda v: _nonempty(v) and all(0 <= x < 1 for x in v),
        paper=[0, 0.1, 0.25, 0.5],
    ),
    "durham_max_switch": Param("float", "(0, 1)", _unit, paper=0.1),
    "lc_n": Param("int", "[2, 10**9]", lambda v: 2 <= v <= 10**9, paper=4),
    "lc_a_tilde": Param("float", "(1/lc_n, 1)", _unit, paper=1 / 3),
    "sensitivity": Param(
        "int", "[1, 10**6] (counts: an integer)", lambda v: 1 <= v <= 10**6, paper=1
    ),
    "profile": Param(
        "name",
        "one of " + ", ".join(PROFILE_FORMS),
        lambda v: str(v) in PROFILE_FORMS,
        default="fixed_q",
    ),
    "profile_r_tilde": Param("float", "(1, inf)", _above_one, default=3),
    "profile_a_tilde": Param("float", "(0, 1)", _unit, default=0.25),
    "profile_p_tilde": Param("float", "(0, 1]", _prior_in_unit, default=0.05),
    "profile_q_tilde": Param("float", "(0, 1]", _prior_in_unit, default=1),
    "box_p_range": Param(
        "list[float]",
        "[lower, upper] with 0 <= lower <= upper <= 1, upper > 0",
        _unit_pair,
        default=[0, 1],
    ),
    "box_q_range": Param(
        "list[float]",
        "[lower, upper] with 0 <= lower <= upper <= 1, upper > 0",
        _unit_pair,
        default=[0, 1],
    ),
    "n_draws": _default(N_TRIALS, 400000),
    "seed": _default(SEED, 20241210),
    "output_dir": OUTPUT_DIR,
}


def _kazan_reiter_joint(v: Mapping[str, Any]) -> None:
    """Kazan & Reiter's parameters that constrain one another."""
    if not v["lc_a_tilde"] > 1 / v["lc_n"]:
        raise ValueError(
            f"parameter 'lc_a_tilde' must exceed the prior 1/lc_n = {1 / v['lc_n']:.6g} (a bound "
            f"below the prior allows no release), got {v['lc_a_tilde']!r}"
        )


KULYNYCH_2024: dict[str, Param] = {
    "sample_rate": Param("float", "(0, 1)", _unit, paper=0.001),
    "num_steps": Param("int", "[1, 10**6]", lambda v: 1 <= v <= 10**6, paper=10000),
    "delta": Param("float", "(0, 1)", _unit, paper=1e-5),
    "advantage_targets": Param(
        "list[float]",
        "a non-empty list of values in (delta, 1)",
        _unit_list,
        paper=[0.004, 0.00752, 0.0141, 0.0266, 0.05, 0.1, 0.15, 0.2, 0.25],
    ),
    "fpr_targets": Param(
        "list[float]", "a non-empty list of values in (0, 1)", _unit_list, paper=[0.01, 0.05, 0.1]
    ),
    "tpr_targets": Param(
        "list[float]",
        "a non-empty list of values in (0, 1)",
        _unit_list,
        paper=[0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5],
    ),
    "gap_advantage": Param("float", "(delta, 1)", _unit, paper=0.5),
    "gap_fpr": Param("float", "(0, (1 - gap_advantage)/2)", _unit, paper=0.1),
    "workers": Param("int", "[1, 8]", lambda v: 1 <= v <= 8, default=1),
    "seed": _default(SEED, 20240702),
    "n_trials": _default(N_TRIALS, 200000),
    "output_dir": OUTPUT_DIR,
}


def _kulynych_joint(v: Mapping[str, Any]) -> None:
    """Kulynych et al.'s parameters that constrain one another."""
    low = [a for a in [*v["advantage_targets"], v["gap_advantage"]] if not a > v["delta"]]
    if low:
        raise ValueError(
            "parameters 'advantage_targets' and 'gap_advantage' must exceed delta = "
            f"{v['delta']!r} "
            f"((0, δ)-DP already allows advantage δ), got {low!r}"
        )
    if not v["gap_fpr"] < (1 - v["gap_advantage"]) / 2:
        raise ValueError(
            f"parameter 'gap_fpr' must be below (1 - gap_advantage)/2 = "
            f"{(1 - v['gap_advantage']) / 2:.6g} (Proposition 3.3), got {v['gap_fpr']!r}"
        )


def _synthesis_joint(v: Mapping[str, Any]) -> None:
    """The synthesis's parameters that constrain one another."""
    if not v["max_tpr"] > v["at_fpr"]:
        raise ValueError(
            f"parameter 'max_tpr' must be in (at_fpr, 1) = ({v['at_fpr']!r}, 1) (a test whose "
            f"TPR is at most its FPR learns nothing), got {v['max_tpr']!r}"
        )


# checks across parameters, by notebook: called with every parameter (given or committed)
JOINT_CHECKS: dict[str, Callable[[Mapping[str, Any]], None]] = {
    "synthesis": _synthesis_joint,
    "kazan_reiter_2024": _kazan_reiter_joint,
    "kulynych_2024": _kulynych_joint,
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


def validate(
    values: Mapping[str, object], spec: Mapping[str, Param], partial: bool = False
) -> dict[str, object]:
    """Check every parameter of ``spec`` in ``values`` by type and range; return them as a dict.

    With ``partial``, only the names present in ``values`` are checked (the runner's case).
    Raises ValueError naming the parameter, its value and what is allowed.
    """
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


def check_names(notebook: str, given: Mapping[str, object]) -> None:
    """Refuse names the notebook does not declare (papermill would only warn) and values of the
    wrong type."""
    spec = SPECS.get(notebook)
    if spec is None:
        raise ValueError(f"notebook must be one of {sorted(SPECS)}, got {notebook!r}")
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {notebook}; known: {sorted(spec)}")
    validate(given, spec, partial=True)
    check_joint(notebook, {**committed_values(notebook), **given})


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
    history) that the notebook does not declare.

    Plain papermill only warns about a misspelled name and runs on with the default; the notebook
    calls this first so that the mistake stops the run. Interactive sessions have no injected
    cell.
    """
    spec = SPECS[notebook]
    for source in history:
        if not source.startswith("# Parameters\n"):
            continue
        names = {
            t.id
            for node in ast.parse(source).body
            if isinstance(node, ast.Assign)
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        unknown = sorted(names - set(spec))
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {unknown} for {notebook}; known: {sorted(spec)}"
            )


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
