"""Notebook parameters, declared once: name, kind, range, value and the comment a reader reads.

``SPECS`` holds each notebook's declaration (``papers/<notebook>/parameters.py``), in the order of
its ``parameters`` cell, and that cell is rendered from it (``parameters_cell``;
``tools/parameters_cell.py --fix`` writes it), so a default is written in one place; papermill
still sees an ordinary cell of assignments.

papermill injects parameters without checking them: its command line turns ``-p seed 1e3`` into a
float and ``-r`` values into strings, and a misspelled name only warns. One function, ``check``,
refuses unknown names, wrong kinds, values out of range and values that break a constraint across
parameters (each paper's ``joint``). ``choosing_epsilon.harness.reproduce`` calls it before a kernel
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
import sys
import unicodedata
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from . import papers
from .paths import NOTEBOOKS


@dataclass(frozen=True)
class Param:
    """One parameter, declared once: its kind, an optional range check with its description, its
    value, and how the notebook's parameters cell shows it (``parameters_cell``)."""

    # "int", "float", "str", "name" (text; an integer as typed, -p absent 3, is read as its text),
    # "path", "bool", "list[float]", "list[str]"; a kind ending in "?" also takes None (not given)
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
        """The value of the committed run (the paper's, or the notebook's own choice)."""
        value = self.paper if self.default is None else self.default
        return as_path(value, NOTEBOOKS) if self.kind == "path" and value is not None else value


def as_path(value: object, base: Path | None = None) -> str:
    """A path parameter as an absolute path: relative paths are taken from ``base`` (default: the
    working directory)."""
    if str(value) == "":
        return ""  # no path: refused by a check where a file is required, "none" where optional
    path = Path(str(value)).expanduser()
    return os.path.abspath(path if base is None or path.is_absolute() else base / path)


def is_positive(x: Any) -> bool:
    return x > 0


def is_unit(x: Any) -> bool:
    return 0 < x < 1


def is_nonempty(v: Any) -> bool:
    return len(v) > 0


def is_positive_list(v: Any) -> bool:
    return is_nonempty(v) and all(is_positive(x) for x in v)


def is_unit_list(v: Any) -> bool:
    return is_nonempty(v) and all(is_unit(x) for x in v)


def is_distinct(v: Any) -> bool:
    return len(set(v)) == len(v)


def is_distinct_unit_list(v: Any) -> bool:
    return is_unit_list(v) and is_distinct(v)


def is_increasing_pair(v: Any) -> bool:
    return len(v) == 2 and v[0] < v[1]


def with_default(param: Param, value: object, comment: str = "") -> Param:
    """``param`` with the committed run's value ``value`` and the cell's ``comment``."""
    return dataclasses.replace(param, default=value, comment=comment)


def output_dir(
    notebook: str, comment: str = "figures, tables, claims.csv and results.json"
) -> Param:
    """Where ``notebook``'s run writes: its folder of ``figures/`` (from ``notebooks/``)."""
    return Param(
        "path", "a directory path", is_nonempty, default=f"../figures/{notebook}", comment=comment
    )


def in_unit(**declared: Any) -> Param:
    """A number strictly between 0 and 1 (a probability, a rate, a prior)."""
    return Param("float", "(0, 1)", is_unit, **declared)


def positive_float(**declared: Any) -> Param:
    """A number above 0 (an ε, a sensitivity, a cost)."""
    return Param("float", "(0, inf)", is_positive, **declared)


def finite_float(**declared: Any) -> Param:
    """Any finite number (a response, a true answer)."""
    return Param("float", "any finite number", **declared)


def unit_list(**declared: Any) -> Param:
    """A non-empty list of numbers strictly between 0 and 1."""
    return Param("list[float]", "a non-empty list of values in (0, 1)", is_unit_list, **declared)


def positive_list(**declared: Any) -> Param:
    """A non-empty list of numbers above 0."""
    return Param("list[float]", "a non-empty list of values > 0", is_positive_list, **declared)


# Inputs every notebook shares.
# each notebook sets its seed's default with with_default
SEED = Param("int", "[0, 2**63)", lambda v: 0 <= v < 2**63)
N_TRIALS = Param("int", "[2, 10**7]", lambda v: 2 <= v <= 10**7)
# a re-identification risk: the chance to single out one of k equally likely candidates
MAX_SINGLING_OUT = Param(
    "float", "(0, 1) (the calibration to it applies above 1/singling_out_among)", is_unit
)
SINGLING_OUT_AMONG = Param("int", "[2, 10**9]", lambda v: 2 <= v <= 10**9)


# --- each notebook's declaration, from its paper's folder ---------------------------------------


def _declaration(notebook: str) -> ModuleType:
    """``choosing_epsilon.papers.<notebook>.parameters``: its ``DECLARED`` parameters, and where
    they constrain one another its ``joint`` check, where an input file must be read its
    ``check_inputs``. Loaded by name, as a plugin: the harness lies below the papers' folders."""
    if notebook not in NOTEBOOK_NAMES:
        raise ValueError(f"notebook must be one of {sorted(NOTEBOOK_NAMES)}, got {notebook!r}")
    return papers.module(notebook, "parameters")


def _paper_check(notebook: str, name: str) -> Callable[[Mapping[str, Any]], None] | None:
    """The paper's ``joint`` or ``check_inputs``, if it has one (a declaration set in ``SPECS``
    has none)."""
    if notebook not in NOTEBOOK_NAMES:
        return None
    return getattr(_declaration(notebook), name, None)


class _Declarations(MutableMapping[str, dict[str, Param]]):
    """Every notebook's declared parameters by notebook name, each read from its paper's folder
    on first use; a declaration set here (a test's) stands beside them until removed."""

    def __init__(self) -> None:
        self._set: dict[str, dict[str, Param]] = {}

    def __getitem__(self, notebook: str) -> dict[str, Param]:
        if notebook in self._set:
            return self._set[notebook]
        if notebook not in NOTEBOOK_NAMES:
            raise KeyError(notebook)
        return _declaration(notebook).DECLARED

    def __setitem__(self, notebook: str, declared: dict[str, Param]) -> None:
        self._set[notebook] = declared

    def __delitem__(self, notebook: str) -> None:
        del self._set[notebook]

    def __iter__(self) -> Iterator[str]:
        return iter([*NOTEBOOK_NAMES, *self._set])

    def __len__(self) -> int:
        return len(NOTEBOOK_NAMES) + len(self._set)


# the notebooks that declare parameters: those of the registry whose folder has a parameters
# module (every one, as tests/test_parameters.py checks)
NOTEBOOK_NAMES = tuple(n for n in papers.names() if papers.has(n, "parameters"))
SPECS = _Declarations()


def check_inputs(notebook: str, values: Mapping[str, object]) -> None:
    """Read and check ``notebook``'s input files at ``values`` (every parameter, given or
    committed), where it has any (the paper's ``check_inputs``): refused in one line."""
    checker = _paper_check(notebook, "check_inputs")
    if checker is not None:
        checker(values)


def _is_kind(value: object, kind: str) -> bool:
    if kind.endswith("?"):  # optional: None says the reader gave no value
        return value is None or _is_kind(value, kind[:-1])
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
        if param.check is not None and value is not None and not param.check(value):
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


def renamed(notebook: str) -> dict[str, str]:
    """``notebook``'s renamed parameters, each old name with its new one (the paper's ``RENAMED``):
    a reader's script that still passes the old name keeps working, with a notice."""
    if notebook not in NOTEBOOK_NAMES:
        return {}
    return dict(getattr(_declaration(notebook), "RENAMED", {}))


def rename_notice(notebook: str, old: str) -> str:
    """The one line that says an old parameter name was read as its new one."""
    new = renamed(notebook)[old]
    return f"note: parameter {old!r} of {notebook} is now called {new!r}; read as such"


def take_renamed(
    notebook: str, values: MutableMapping[str, object], names: Sequence[str] | set[str]
) -> list[str]:
    """Move each old name of ``names`` (``renamed``) found in ``values`` to its new name, in place,
    and return the notices, one line each. Refused where both names are given."""
    notices = []
    for old, new in renamed(notebook).items():
        if old not in names or old not in values:
            continue
        if new in names and new in values:
            raise ValueError(
                f"parameter {new!r} given twice, as {new!r} and by its old name {old!r}: give one"
            )
        values[new] = values.pop(old)
        notices.append(rename_notice(notebook, old))
    return notices


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
    injected = _injected_names(history)
    old_names = injected | (set(values) if partial else set())
    if any(old in old_names for old in renamed(notebook)):
        # an old name a reader's script still passes: its value goes to the new name (in the
        # notebook's globals too, where the cells below read it), with a notice
        given = values if isinstance(values, MutableMapping) else dict(values)
        for notice in take_renamed(notebook, given, old_names):
            print(notice, file=sys.stderr)
        values = given
        injected = {renamed(notebook).get(name, name) for name in injected}
    named = set(values) if partial else set()  # a notebook's globals hold more than parameters
    unknown = sorted((named | injected) - set(spec))
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
    """Refuse values that break a constraint across parameters (the paper's ``joint``)."""
    joint = _paper_check(notebook, "joint")
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
