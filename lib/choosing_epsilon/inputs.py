"""Input files checked before a kernel starts: the runner refuses a bad one in one line.

Each check takes a notebook's full parameter values (defaults merged with the given ones, paths
absolute) and raises ``ValueError`` naming the parameter or file and what is allowed. The notebook
runs the same readers, so a run started without the runner fails with the same message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from . import possible_worlds, registry


def check_database(values: Mapping[str, object]) -> None:
    """Lee & Clifton's database: the file, its ``name`` column, the attributes, ``absent``, and ρ ≥ 1/n (the prior)."""
    table = possible_worlds.load_database(str(values["data_path"]), list(values["attributes"]), str(values["absent"]))  # type: ignore[arg-type]
    possible_worlds.check_rho(float(values["rho"]), len(table))  # type: ignore[arg-type]


def check_registry(values: Mapping[str, object]) -> None:
    """The registry of deployed ε: the file and its columns."""
    path = Path(str(values["registry_path"]))
    if not path.is_file():
        raise ValueError(f"registry_path: no such file {str(path)!r}")
    registry.load_registry(path)


CHECKS: dict[str, Callable[[Mapping[str, object]], None]] = {
    "lee_clifton_2011": check_database,
    "synthesis": check_registry,
}
