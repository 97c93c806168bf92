"""The synthesis notebook's plumbing: its parameters read into the package's calls
(``synthesis.methods_for``, ``synthesis.noise_for_risk_table``), the answer computed at once so
that it can open the notebook, the table of methods at the declared defaults with some changed,
and what results.json holds. The mathematics is ``choosing_epsilon.papers.synthesis.synthesis``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from choosing_epsilon import risk
from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis import synthesis as synthesis
from choosing_epsilon.papers.synthesis.synthesis import Column, Feasibility, Survey

__all__ = [
    "OLDER_REGISTRY",
    "deployments",
    "inapplicable_risks",
    "methods_at",
    "noise_for_risk_table",
    "read_survey",
    "results",
    "risk_targets",
    "survey_and_methods",
    "the_answer",
]

NOTEBOOK = "synthesis"
OLDER_REGISTRY = DATA / "epsilon_registry.csv"
"""OpenDP's older registry: labels, and an ε or unit where a record of the new one states none."""
# the parameters that the table of methods reads (``synthesis.methods_for``'s keywords)
METHOD_INPUTS = (
    "value_range", "mean_lower_bound", "rho", "lee_clifton_query", "lee_clifton_q",
    "bad_event_cost", "bad_event_probability", "budget", "error_years", "failure_probability",
    "relative_error", "pr", "c_years", "p", "prior", "posterior_threshold", "max_advantage",
    "kr_r_tilde",
)  # fmt: skip


def survey_and_methods(v: Mapping[str, Any]) -> tuple[Survey, pd.DataFrame]:
    """The survey and the table of methods at the validated parameters ``v``, from one read of
    the data."""
    return synthesis.methods_for(read_survey(v), **{name: v[name] for name in METHOD_INPUTS})


def methods_at(**changes: Any) -> pd.DataFrame:
    """The table of methods at the declared defaults with ``changes`` (by name): the notebook's
    steps at once, to set the survey at other inputs beside it in one kernel."""
    spec = parameters.SPECS[NOTEBOOK]
    unknown = sorted(set(changes) - set(spec))
    if unknown:
        raise ValueError(f"synthesis has no parameter {unknown[0]!r}; its parameters: {list(spec)}")
    v = parameters.committed_values(NOTEBOOK)
    v.update(parameters.check(NOTEBOOK, changes, partial=True))  # joint checks included
    return survey_and_methods(v)[1]


def deployments(v: Mapping[str, Any]) -> pd.DataFrame:
    """The registry of deployments at ``registry_path``, the older registry filling in."""
    return registry.read_any(v["registry_path"], OLDER_REGISTRY)


def _stated(v: Mapping[str, Any]) -> tuple[Any, ...]:
    """The risks the reader states, in ``synthesis.risk_targets``'s order."""
    names = ["max_advantage", "max_tpr", "at_fpr", "max_singling_out", "singling_out_among"]
    return tuple(v[name] for name in names)


def risk_targets(v: Mapping[str, Any]) -> list[risk.RiskTarget]:
    """The attack risks the reader accepts at the parameters ``v`` (``synthesis.risk_targets``)."""
    return synthesis.risk_targets(*_stated(v))


def inapplicable_risks(v: Mapping[str, Any]) -> dict[str, str]:
    """The stated risks at the parameters ``v`` that no calibration applies to, each with the
    reason (``synthesis.inapplicable_risks``)."""
    return synthesis.inapplicable_risks(*_stated(v)[1:])


def noise_for_risk_table(survey: Survey, v: Mapping[str, Any]) -> pd.DataFrame:
    """``synthesis.noise_for_risk_table`` at the risks and δ of the parameters ``v``."""
    return synthesis.noise_for_risk_table(survey, risk_targets(v), v["gaussian_delta"])


def the_answer(v: Mapping[str, Any]) -> str:
    """``synthesis.answer_in_short`` at the run's parameters ``v`` (every parameter of the
    notebook, by name, as the set-up cell validated them): the table of methods as the notebook's
    steps build it, and the registry's deployments on the scale, computed at once so that the
    answer can open the notebook."""
    survey, methods = survey_and_methods(v)
    deployed = deployments(v)
    scale = synthesis.risk_scale(methods, deployed)
    calibrated = noise_for_risk_table(survey, v)
    window = synthesis.feasibility(methods)
    skipped = inapplicable_risks(v)
    return synthesis.answer_in_short(window, scale, deployed, survey, calibrated, skipped)


def results(
    methods: pd.DataFrame,
    window: Feasibility,
    delta: float,
    delta_lc: float,
    mean_floor: float,
    data: Column | None = None,
    lee_statistic: str = "mean",
    calibrated: pd.DataFrame | None = None,
    skipped: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """What results.json holds: every finite ε > 0, the feasible interval, which methods share
    panel (a) and which read the private data, the public inputs Δ and L, and what does not
    apply at these parameters (each method, and each stated risk of ``skipped``, with the
    reason); with ``data`` read from a file, what was read from it; with ``calibrated``
    (``noise_for_risk_table``), the noise for each stated risk by both routes."""
    finite = methods[synthesis.has_epsilon(methods.epsilon)]
    reads = ~methods["uses the private data"].str.startswith("no")
    read: dict[str, object] = {}
    if calibrated is not None:
        kept = [c for c in calibrated.columns if c != "curve"]
        read["noise_for_risk"] = calibrated[kept].to_dict(orient="records")
    if data is not None and data.source:
        read["data"] = {
            "source": data.source,
            "column": data.name,
            "n": data.n,
            "distinct_values": int(data.values.size),
        }
    return read | {
        "recommendations": dict(zip(finite.method, map(float, finite.epsilon))),
        "feasible": window.feasible,
        "feasible_interval": window.interval,
        "shared_axis": sorted(methods.method[methods.panel == "(a)"]),
        "uses_private_data": sorted(methods.method[reads]),
        "sensitivity": delta,
        "sensitivity_lee_clifton": delta_lc,
        "statistic_lee_clifton": lee_statistic,
        "mean_lower_bound": mean_floor,
        "not_applicable": synthesis.not_applicable(methods)
        | {f"calibration to {target}": why for target, why in (skipped or {}).items()},
    }


def check_registry(values: Mapping[str, Any]) -> None:
    """The registry of deployments: a folder of its YAML files, or a CSV file with its columns."""
    path = Path(str(values["registry_path"]))
    if path.is_dir():
        registry.load_deployments(path)
        return
    if not path.is_file():
        raise ValueError(f"registry_path: no such file or folder {str(path)!r}")
    registry.load_registry(path)


def read_survey(values: Mapping[str, Any]) -> Column:
    """The private data at the synthesis's parameters ``values``, every input checked (the
    runner's check before a kernel starts): the synthetic survey, or the column of ``data_path``
    as distinct values and counts (``synthesis.column_from_file``), refused in one line if any
    value lies outside the public range. The public lower bound of the mean is Shoaran et al.'s
    alone: where it is not positive or lies above the range, their row says it does not apply."""
    (lb, ub) = values["value_range"]
    path, name = str(values.get("data_path", "")), str(values.get("column", "age"))
    observed = values["observed_ages"]
    if not path and not lb <= observed[0] <= observed[1] <= ub:
        raise ValueError(
            f"observed_ages must lie inside value_range {values['value_range']}, got {observed}"
        )
    if not path:
        ages = synthesis.synthetic_ages(values["n_people"], observed, values["seed"])
        return synthesis.survey_column(ages)
    return synthesis.column_from_file(path, name, values["value_range"])
