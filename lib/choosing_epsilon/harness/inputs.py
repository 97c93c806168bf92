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


def check_survey(
    value_range: list[float], observed_ages: list[float], mean_lower_bound: float
) -> None:
    """The synthesis's public age range holds the range the synthetic ages are drawn from and
    bounds the public lower bound of the mean."""
    lb, ub = value_range
    if not lb <= observed_ages[0] <= observed_ages[1] <= ub:
        raise ValueError(
            f"observed_ages must lie inside value_range {value_range}, got {observed_ages}"
        )
    if not 0 < mean_lower_bound <= ub:
        raise ValueError(
            f"mean_lower_bound must lie in (0, {ub:g}] (positive, and not above the age range), "
            f"got {mean_lower_bound!r}"
        )


def check_synthesis(values: Mapping[str, Any]) -> None:
    """The synthesis: its ranges and its column (``synthesis.read_survey``: the file, the column,
    its values inside the public range) and the registry file."""
    synthesis.read_survey(values)
    check_registry(values)


CHECKS: dict[str, Callable[[Mapping[str, object]], None]] = {
    "lee_clifton_2011": check_database,
    "synthesis": check_synthesis,
}
