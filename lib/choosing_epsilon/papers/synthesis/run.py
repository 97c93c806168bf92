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
from choosing_epsilon.papers.synthesis.release import ReleaseInputs, release_inputs
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
# the parameters that the table of methods reads (``methods.methods_for``'s keywords)
METHOD_INPUTS = (
    "value_range", "rho", "lee_clifton_query", "lee_clifton_q", "bad_event_cost",
    "bad_event_probability", "budget", "failure_probability", "relative_error", "pr", "p", "prior",
    "posterior_threshold", "max_advantage", "kr_r_tilde", "releases",
)  # fmt: skip


def stated(params: Mapping[str, Any]) -> ReleaseInputs:
    """What the reader states about the release at the parameters ``params``, resolved
    (``release.release_inputs``): the demo's own values without ``data_path``, and on a file only
    what is given or safely derived."""
    return release_inputs(
        from_file=bool(params["data_path"]),
        value_range=params["value_range"],
        max_error=params["max_error"],
        noise_bound=params["noise_bound"],
        lower_bound=params["lower_bound"],
        pays_participants=params["pays_participants"],
        adversary_knows_data=params["adversary_knows_data"],
    )


def survey_and_methods(params: Mapping[str, Any]) -> tuple[Survey, pd.DataFrame]:
    """The survey and the table of methods at the validated parameters ``params``, from one read of
    the data."""
    return _methods_of(read_survey(params), stated(params), params)


def _methods_of(
    data: Column, resolved: ReleaseInputs, params: Mapping[str, Any]
) -> tuple[Survey, pd.DataFrame]:
    """``synthesis.methods_for`` on ``data`` with the reader's inputs ``resolved`` and the
    parameters ``params`` the table reads (``METHOD_INPUTS``)."""
    inputs = {name: params[name] for name in METHOD_INPUTS}
    return synthesis.methods_for(data, stated=resolved, **inputs)


def methods_at(**changes: Any) -> pd.DataFrame:
    """The table of methods at the declared defaults with ``changes`` (by name): the notebook's
    steps at once, to set the survey at other inputs beside it in one kernel."""
    spec = parameters.SPECS[NOTEBOOK]
    changes = dict(changes)
    parameters.take_renamed(NOTEBOOK, changes, set(changes))
    unknown = sorted(set(changes) - set(spec))
    if unknown:
        raise ValueError(f"synthesis has no parameter {unknown[0]!r}; its parameters: {list(spec)}")
    params = parameters.committed_values(NOTEBOOK)
    params.update(parameters.check(NOTEBOOK, changes, partial=True))  # joint checks included
    return survey_and_methods(params)[1]


def deployments(params: Mapping[str, Any]) -> pd.DataFrame:
    """The registry of deployments at ``registry_path``, the older registry filling in."""
    return registry.read_any(params["registry_path"], OLDER_REGISTRY)


def _stated_risks(params: Mapping[str, Any]) -> tuple[Any, ...]:
    """The risks the reader states, in ``synthesis.risk_targets``'s order."""
    names = ["max_advantage", "max_tpr", "at_fpr", "max_singling_out", "singling_out_among"]
    return tuple(params[name] for name in names)


def risk_targets(params: Mapping[str, Any]) -> list[risk.RiskTarget]:
    """The attack risks the reader accepts at the parameters ``params``
    (``synthesis.risk_targets``)."""
    return synthesis.risk_targets(*_stated_risks(params))


def inapplicable_risks(params: Mapping[str, Any]) -> dict[str, str]:
    """The stated risks at the parameters ``params`` that no calibration applies to, each with the
    reason (``synthesis.inapplicable_risks``)."""
    return synthesis.inapplicable_risks(*_stated_risks(params)[1:])


def noise_for_risk_table(survey: Survey, params: Mapping[str, Any]) -> pd.DataFrame:
    """``synthesis.noise_for_risk_table`` at the risks and δ of the parameters ``params``."""
    return synthesis.noise_for_risk_table(survey, risk_targets(params), params["gaussian_delta"])


def the_answer(params: Mapping[str, Any]) -> synthesis.Answer:
    """The answer at the run's parameters ``params`` (every parameter of the notebook, by name, as
    the set-up cell validated them), computed once: the table of methods, its interval, the
    registry's deployments on the risk scale and the noise for each stated risk. The notebook
    opens with its ``markdown`` and its sections show its parts."""
    data, resolved = read_survey(params), stated(params)
    survey, methods = _methods_of(data, resolved, params)
    deployed = deployments(params)
    return synthesis.Answer(
        survey=survey,
        methods=methods,
        window=synthesis.feasibility(methods),
        scale=synthesis.risk_scale(methods, deployed, params["horizon_years"]),
        deployments=deployed,
        calibrated=noise_for_risk_table(survey, params),
        skipped=inapplicable_risks(params),
        stated=resolved,
        data=data,
        releases=params["releases"],
        per_release=(
            synthesis.noise_per_release(survey, risk_targets(params), params["releases"])
            if params["releases"] > 1
            else None
        ),
    )


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
    stated: ReleaseInputs | None = None,
) -> dict[str, object]:
    """What results.json holds: every finite ε > 0, the feasible interval, which methods share
    panel (a) and which read the private data, the public inputs Δ and L, and what does not
    apply at these parameters (each method, and each stated risk of ``skipped``, with the
    reason); with ``data`` read from a file, what was read from it; with ``calibrated``
    (``noise_for_risk_table``), the noise for each stated risk by both routes; with ``stated``,
    what the reader states about the release and where each input not given came from."""
    finite = methods[synthesis.has_epsilon(methods.epsilon)]
    reads = ~methods["uses the private data"].str.startswith("no")
    read: dict[str, object] = {}
    if calibrated is not None:
        kept = [c for c in calibrated.columns if c != "curve"]
        read["noise_for_risk"] = calibrated[kept].to_dict(orient="records")
    if stated is not None:
        read["stated"] = {
            "max_error": stated.max_error,
            "noise_bound": stated.noise_bound,
            "lower_bound": stated.lower_bound,
            "pays_participants": stated.pays_participants,
            "adversary_knows_data": stated.adversary_knows_data,
            "not_given": dict(stated.said),
        }
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
        "lower_bound": mean_floor,
        "premises": synthesis.premises(),
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
    runner's check before a kernel starts): the demo's synthetic survey, or the column of
    ``data_path`` as distinct values and counts (``synthesis.column_from_file``), refused in one
    line if any value lies outside the public range."""
    (lb, ub) = values["value_range"]
    path, name = str(values.get("data_path", "")), str(values.get("column", "age"))
    ages = values["demo_ages"]
    if not path and not lb <= ages[0] <= ages[1] <= ub:
        raise ValueError(
            f"demo_ages must lie inside value_range {values['value_range']}, got {ages}"
        )
    if not path:
        drawn = synthesis.synthetic_ages(values["demo_n_people"], ages, values["seed"])
        return synthesis.survey_column(drawn)
    return synthesis.column_from_file(path, name, values["value_range"])
