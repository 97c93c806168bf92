"""Input files and relations between parameters checked before a kernel starts: the runner
refuses a bad one in one line.

Each check takes a notebook's full parameter values (defaults merged with the given ones, paths
absolute) and raises ``ValueError`` naming the parameter or file and what is allowed. The
notebook runs the same readers, so a run started without the runner fails with the same message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .. import possible_worlds, registry, synthesis
from ..synthesis import Column


def check_database(values: Mapping[str, Any]) -> None:
    """Lee & Clifton's database: the file, its ``name`` column, the attributes, ``absent``, and ρ
    ≥ 1/n (the prior)."""
    table = possible_worlds.load_database(
        str(values["data_path"]), list(values["attributes"]), str(values["absent"])
    )
    possible_worlds.check_rho(float(values["rho"]), len(table))


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


def check_synthesis(values: Mapping[str, Any]) -> None:
    """The synthesis: its ranges and its column (``read_survey``: the file, the column, its values
    inside the public range) and the registry file."""
    read_survey(values)
    check_registry(values)


CHECKS: dict[str, Callable[[Mapping[str, object]], None]] = {
    "lee_clifton_2011": check_database,
    "synthesis": check_synthesis,
}
