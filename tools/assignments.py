"""Assignments from the notebooks' exercises: nbgrader instructor and student copies, and grading.

    python tools/assignments.py write [--out DIR]  # every notebook's exercises
    python tools/assignments.py grade PATH.ipynb    # one row per grader cell
    python tools/assignments.py table               # points per notebook

A notebook's ``## Exercises`` follow the conventions of CONTRIBUTING.md: a heading cell
``### Exercise k. Title``, optional inputs, a code cell tagged ``solution`` whose leading comment
lines are the stub a student keeps, optionally a markdown cell tagged ``solution`` whose first line
is the stub (tagged ``points-N`` when it is graded by hand), and a code cell tagged ``grader`` and
``points-N`` whose exact checks sit between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``.

``instructor_copy`` turns such a notebook into an nbgrader *source* notebook (cell metadata of
schema 3, ``### BEGIN SOLUTION`` / ``### END SOLUTION`` after each stub); ``student_copy`` applies
nbgrader's own preprocessors to it (solutions replaced by their stubs, hidden tests removed, the
outputs of exercise cells cleared, the other outputs kept). ``write`` puts both copies of every
notebook, each in a folder of its own with the data files its parameters name, under
``assignments/``; ``grade`` autogrades a copy with nbgrader in a temporary course.
"""

from __future__ import annotations

from choosing_epsilon.harness.interruption import Interrupted, stop_on_signals

if __name__ == "__main__":  # from the first line on, Ctrl-C or SIGTERM stops the command quietly
    stop_on_signals()

import argparse
import ast
import asyncio
import contextlib
import copy
import dataclasses
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import nbformat
import pandas as pd
from nbformat import NotebookNode

from choosing_epsilon.harness import outputs
from choosing_epsilon.harness.kernel import kernel_settings
from choosing_epsilon.harness.paths import NOTEBOOKS, ROOT
from choosing_epsilon.harness.reproduce import notebook_names

SOLUTION, GRADER, PARAMETERS = "solution", "grader", "parameters"
POINTS = re.compile(r"points-(\d+)")
GRADER_POINTS = (1, 2, 3)
ANSWER = re.compile(r"ex\d+_")  # the prefix of answer variables
HEADING = re.compile(r"^###\s+Exercise\s+(\d+)\b")
BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
# the phrases nbgrader looks for (anywhere in a line) to find the regions it clears
DELIMITERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
CODE_STUB = "raise NotImplementedError()"
# what a written answer becomes in the student copy, under its question
TEXT_STUB = "\n*Write your answer here.*"  # a paragraph of its own
SCHEMA_VERSION = 3
OUTPUT_DIR = "output"  # a copy's output_dir, beside the copy
DATA_DIR = "data"  # the input files a copy's parameters name, beside the copy
MARKER = ".choosing-epsilon-assignments"  # marks a directory that ``write`` made
COLUMNS = ["grade_id", "points_possible", "points_earned", "passed", "error"]


class ExerciseError(ValueError):
    """A notebook whose exercise cells break the conventions (the message names the cell)."""


@dataclass(frozen=True)
class Cell:
    """One exercise cell: its index, exercise number, role, points (None: not graded), and its
    rank among the cells of that role in the exercise (a long solution may span cells)."""

    index: int
    exercise: int
    role: str  # "solution" (code), "answer" (markdown solution) or "grader"
    points: int | None
    rank: int = 1

    @property
    def grade_id(self) -> str:
        """The cell's nbgrader grade_id, unique in its notebook: ex4_solution, ex4_solution_2."""
        suffix = f"_{self.rank}" if self.rank > 1 else ""
        return f"ex{self.exercise}_{self.role}{suffix}"


def _tags(cell: NotebookNode) -> list[str]:
    """The tags of ``cell``."""
    return list(cell.get("metadata", {}).get("tags", []))


def _points(cell: NotebookNode, where: str) -> int | None:
    """The N of the cell's ``points-N`` tag, None without one; refuses two such tags."""
    found = [int(m.group(1)) for t in _tags(cell) if (m := POINTS.fullmatch(t))]
    if len(found) > 1:
        raise ExerciseError(f"{where}: more than one points-N tag: {found}")
    return found[0] if found else None


def _stub_length(cell: NotebookNode) -> int:
    """How many leading lines of a solution cell are its stub: the comment lines of a code cell,
    the first line of a markdown cell."""
    lines = cell.source.split("\n")
    if cell.cell_type == "markdown":
        return 1
    n = 0
    while n < len(lines) and lines[n].lstrip().startswith("#"):
        n += 1
    return n


def _assigned(source: str) -> set[str]:
    """The names a cell's code assigns at any level (unparsable code: none)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def exercise_cells(nb: NotebookNode, name: str) -> list[Cell]:
    """The solution and grader cells of ``nb``, checked against the conventions; refuses a
    malformed notebook in one line naming the notebook, the cell and what is wrong."""
    cells: list[Cell] = []
    exercise: int | None = None
    headings: dict[int, int] = {}
    for index, cell in enumerate(nb.cells):
        where = f"{name}: cell {index}"
        tags = _tags(cell)
        heading = HEADING.match(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            exercise = int(heading.group(1))
            if exercise in headings:
                raise ExerciseError(
                    f"{where}: duplicate heading 'Exercise {exercise}' (first at cell "
                    f"{headings[exercise]})"
                )
            headings[exercise] = index
        marked = [d for d in DELIMITERS if d in cell.source]
        if SOLUTION in tags and GRADER in tags:
            raise ExerciseError(f"{where}: tagged both solution and grader")
        if SOLUTION not in tags and GRADER not in tags:
            if marked:
                raise ExerciseError(f"{where}: '{marked[0]}' outside a solution or grader cell")
            continue
        if exercise is None:
            raise ExerciseError(f"{where}: exercise cell before any '### Exercise k.' heading")
        points = _points(cell, where)
        if GRADER in tags:
            cells.append(_grader_cell(cell, index, exercise, points, where))
        else:
            cells.append(_solution_cell(cell, index, exercise, points, where))
    if not cells:
        raise ExerciseError(f"{name}: no exercises (no cell tagged solution or grader)")
    _check_exercises(nb, name, cells, headings)
    return cells


def _grader_cell(
    cell: NotebookNode, index: int, exercise: int, points: int | None, where: str
) -> Cell:
    """A grader cell, checked: code, points-N with N in 1-3, balanced hidden-test markers."""
    if cell.cell_type != "code":
        raise ExerciseError(f"{where}: a grader cell must be a code cell")
    if points not in GRADER_POINTS:
        raise ExerciseError(
            f"{where}: a grader cell needs a tag points-N with N = 1, 2 or 3 (tags: {_tags(cell)})"
        )
    _check_region(cell.source, BEGIN_HIDDEN, END_HIDDEN, where)
    if any(d in cell.source for d in DELIMITERS[:2]):
        raise ExerciseError(f"{where}: solution markers in a grader cell")
    return Cell(index, exercise, GRADER, points)


def _solution_cell(
    cell: NotebookNode, index: int, exercise: int, points: int | None, where: str
) -> Cell:
    """A solution cell, checked: a stub, a worked solution after it, no markers of its own."""
    if any(d in cell.source for d in DELIMITERS):
        raise ExerciseError(f"{where}: a solution cell may not contain nbgrader's markers")
    stub = _stub_length(cell)
    lines = cell.source.split("\n")
    if cell.cell_type == "code":
        if stub == 0:
            raise ExerciseError(
                f"{where}: a solution code cell must start with a comment line saying what to write"
            )
        if points is not None:
            raise ExerciseError(f"{where}: points-N on a solution code cell (grader cells score)")
    elif cell.cell_type != "markdown":
        raise ExerciseError(f"{where}: a solution cell must be code or markdown")
    if not "".join(lines[stub:]).strip():
        raise ExerciseError(f"{where}: a solution cell with nothing after its stub")
    role = SOLUTION if cell.cell_type == "code" else "answer"
    return Cell(index, exercise, role, points)


def _check_region(source: str, begin: str, end: str, where: str) -> None:
    """Refuse unbalanced or nested ``begin``/``end`` marker lines."""
    inside = False
    for line in source.split("\n"):
        if line.strip() == begin:
            if inside:
                raise ExerciseError(f"{where}: nested '{begin}'")
            inside = True
        elif line.strip() == end:
            if not inside:
                raise ExerciseError(f"{where}: '{end}' without '{begin}'")
            inside = False
        elif begin.lstrip("# ") in line or end.lstrip("# ") in line:
            raise ExerciseError(f"{where}: a marker must stand alone on its line: {line.strip()!r}")
    if inside:
        raise ExerciseError(f"{where}: '{begin}' without '{end}'")


def _check_exercises(
    nb: NotebookNode, name: str, cells: list[Cell], headings: dict[int, int]
) -> None:
    """Each exercise has a code solution and a grader (cells of one role numbered in order), its
    solution assigns an answer variable ``exK_...``, and no other cell assigns that variable."""
    ranks: dict[tuple[int, str], int] = {}
    for position, cell in enumerate(cells):
        key = (cell.exercise, cell.role)
        ranks[key] = ranks.get(key, 0) + 1
        cells[position] = dataclasses.replace(cell, rank=ranks[key])
    for exercise, index in headings.items():
        for role in (SOLUTION, GRADER):
            if (exercise, role) not in ranks:
                raise ExerciseError(f"{name}: cell {index}: exercise {exercise} has no {role} cell")
    answers = {
        c.index: {n for n in _assigned(nb.cells[c.index].source) if ANSWER.match(n)}
        for c in cells
        if c.role == SOLUTION
    }
    for exercise in headings:
        prefix = f"ex{exercise}_"
        solutions = [c.index for c in cells if c.role == SOLUTION and c.exercise == exercise]
        if not any(n.startswith(prefix) for i in solutions for n in answers[i]):
            raise ExerciseError(
                f"{name}: cell {solutions[0]}: the solution of exercise {exercise} assigns no "
                f"answer variable {prefix}..."
            )
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or index in answers:
            continue
        reused = sorted(
            (n, i) for i, names in answers.items() for n in names & _assigned(cell.source)
        )
        if reused:
            variable, solution = reused[0]
            raise ExerciseError(
                f"{name}: cell {index}: assigns {variable!r}, an answer variable of the solution "
                f"in cell {solution}"
            )
    for i, names in answers.items():
        for j, others in answers.items():
            if i < j and names & others:
                raise ExerciseError(
                    f"{name}: cell {j}: assigns {sorted(names & others)[0]!r}, also assigned by "
                    f"the solution in cell {i}"
                )


def _nbgrader_metadata(cell: Cell) -> dict[str, object]:
    """The nbgrader metadata (schema 3) of an exercise cell."""
    graded = cell.role != SOLUTION
    meta: dict[str, object] = {
        "grade": graded,
        "grade_id": cell.grade_id,
        "locked": cell.role == GRADER,
        "schema_version": SCHEMA_VERSION,
        "solution": cell.role != GRADER,
        "task": False,
    }
    if graded:
        # a written answer without points-N is shown to the grader but scores nothing
        meta["points"] = cell.points if cell.points is not None else 0
    return meta


def instructor_copy(nb: NotebookNode, name: str) -> NotebookNode:
    """``nb`` as an nbgrader source notebook: exercise cells carry nbgrader metadata and solution
    markers after their stubs; the rest, outputs included, is unchanged."""
    copied = copy.deepcopy(nb)
    for cell in exercise_cells(copied, name):
        source = copied.cells[cell.index]
        if cell.role != GRADER:
            lines = source.source.split("\n")
            stub = _stub_length(source)
            body = "\n".join(lines[stub:]).strip("\n")
            source.source = "\n".join([*lines[:stub], BEGIN_SOLUTION, body, END_SOLUTION])
        source.metadata["nbgrader"] = _nbgrader_metadata(cell)
    return copied


def student_copy(instructor: NotebookNode) -> NotebookNode:
    """The student version of an instructor copy, made by nbgrader's preprocessors: cells locked,
    solutions replaced by their stubs (plus ``raise NotImplementedError()`` in code), hidden tests
    removed, checksums computed, and the outputs of the exercise cells cleared."""
    from nbgrader.preprocessors import (  # type: ignore[import-untyped, unused-ignore]
        CheckCellMetadata,
        ClearHiddenTests,
        ClearOutput,
        ClearSolutions,
        ComputeChecksums,
        LockCells,
    )

    nb = copy.deepcopy(instructor)
    resources: dict[str, object] = {}
    steps = [
        LockCells(),
        ClearSolutions(code_stub={"python": CODE_STUB}, text_stub=TEXT_STUB),
        ClearHiddenTests(),
        ComputeChecksums(),
        CheckCellMetadata(),
    ]
    for step in steps:
        nb, resources = step.preprocess(nb, resources)
    clear = ClearOutput()
    for index, cell in enumerate(nb.cells):
        if "nbgrader" in cell.metadata and cell.cell_type == "code":
            nb.cells[index], resources = clear.preprocess_cell(cell, resources, index)
    return nb


def _parameters_cell(nb: NotebookNode) -> NotebookNode | None:
    """The cell tagged ``parameters``, if any."""
    return next((c for c in nb.cells if PARAMETERS in _tags(c)), None)


def _with_values(source: str, values: dict[str, str]) -> str:
    """A parameters cell's source with the string values of some names replaced (comments
    kept)."""
    lines = source.split("\n")
    for node in reversed(ast.parse(source).body):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in values
        ):
            value = node.value
            row = value.lineno - 1
            if value.end_lineno != value.lineno:
                raise ExerciseError(f"parameter {node.targets[0].id!r} spans several lines")
            new = json.dumps(values[node.targets[0].id])
            line = lines[row]
            lines[row] = line[: value.col_offset] + new + line[value.end_col_offset or 0 :]
    return "\n".join(lines)


def relocate(nb: NotebookNode, source_dir: Path) -> tuple[NotebookNode, dict[str, Path]]:
    """``nb`` made to run from a folder of its own: ``output_dir`` set to ``output`` beside it, and
    every string parameter naming a file or a folder of files (relative to ``source_dir``) set to
    ``data/<name>``.

    Returns the notebook and the files to copy, by their path relative to the copy's folder.
    """
    relocated = copy.deepcopy(nb)
    cell = _parameters_cell(relocated)
    if cell is None:
        return relocated, {}
    values: dict[str, str] = {}
    files: dict[str, Path] = {}
    for node in ast.parse(cell.source).body:
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            continue
        variable, value = node.targets[0].id, node.value.value
        if variable == "output_dir":
            values[variable] = OUTPUT_DIR
        elif (source_dir / value).is_file():
            target = f"{DATA_DIR}/{Path(value).name}"
            if target in files and files[target] != (source_dir / value).resolve():
                raise ExerciseError(f"parameter {variable!r}: two input files named {target!r}")
            files[target] = (source_dir / value).resolve()
            values[variable] = target
        elif value and (source_dir / value).is_dir():  # a folder of inputs (a registry)
            target = f"{DATA_DIR}/{Path(value).name}"
            for inner in sorted((source_dir / value).iterdir()):
                if inner.is_file():
                    files[f"{target}/{inner.name}"] = inner.resolve()
            values[variable] = target
    cell.source = _with_values(cell.source, values)
    return relocated, files


def _place(nb: NotebookNode, folder: Path, stem: str, files: dict[str, Path]) -> Path:
    """Write ``nb`` as ``folder/<stem>.ipynb`` with its input files; return the notebook's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for relative, source in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, folder / relative)
    path = folder / f"{stem}.ipynb"
    nbformat.write(nb, path)
    return path


@dataclass(frozen=True)
class Summary:
    """Points of one notebook's exercises: autograded, graded by hand, and the exercise count."""

    notebook: str
    exercises: int
    autograded: int
    by_hand: int


def summarize(nb: NotebookNode, name: str) -> Summary:
    """The exercise count and the points of ``nb``."""
    cells = exercise_cells(nb, name)
    return Summary(
        name,
        len({c.exercise for c in cells}),
        sum(c.points or 0 for c in cells if c.role == GRADER),
        sum(c.points or 0 for c in cells if c.role == "answer"),
    )


TABLE_HEADER = [
    "| notebook | exercises | autograded points | points graded by hand | total |",
    "|---|---:|---:|---:|---:|",
]


def _row(s: Summary) -> str:
    """One notebook's row of the points table."""
    total = s.autograded + s.by_hand
    return f"| {s.notebook} | {s.exercises} | {s.autograded} | {s.by_hand} | {total} |"


def points_table(names: list[str] | None = None) -> str:
    """A Markdown table of the exercises and points of every notebook (or ``names``)."""
    rows = list(TABLE_HEADER)
    for name in names or notebook_names():
        try:
            rows.append(_row(summarize(nbformat.read(NOTEBOOKS / f"{name}.ipynb", 4), name)))
        except ExerciseError as error:
            if "no exercises" not in str(error):
                raise
            rows.append(f"| {name} | no exercises yet | | | |")
    return "\n".join(rows) + "\n"


def _index(summaries: list[Summary], skipped: list[str]) -> str:
    """The text of ``assignments/README.md``: what is where, and the points."""
    lines = [
        "# Assignments",
        "",
        "Written by `make assignments` (`python tools/assignments.py write`)",
        "from `notebooks/`; do not edit, rerun it. See TEACHING.md at the root of the repository.",
        "",
        "- `instructor/<notebook>/<notebook>.ipynb`: the notebook with its worked solutions and",
        "  all tests, as an nbgrader source notebook (copy the folder into a course's `source/`).",
        "- `student/<notebook>/<notebook>.ipynb`: the copy to hand out: solutions replaced by",
        "  their stubs, hidden tests removed; the figures and text before the exercises kept.",
        "- `data/` in a folder: the input files the notebook's parameters name; a run writes its",
        "  figures and tables to `output/` beside the notebook.",
        "",
        *TABLE_HEADER,
        *(_row(s) for s in summaries),
    ]
    if skipped:
        lines += ["", f"Notebooks without exercises (no copies): {', '.join(skipped)}."]
    return "\n".join(lines) + "\n"


def _checked_out(out: Path) -> Path:
    """``out`` as an absolute path, refused if it is a file or a directory ``write`` did not
    make (which it would replace)."""
    out = Path(os.path.abspath(out))
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out: {str(out)!r} is a file, not a directory")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise ValueError(
            f"--out: {str(out)!r} is a non-empty directory this command did not write; "
            "choose another or empty it"
        )
    return out


def write(out: Path | str = ROOT / "assignments", names: list[str] | None = None) -> list[Summary]:
    """Write the instructor and student copies of every notebook with exercises (or ``names``)
    and an index, into a temporary directory that then replaces ``out``."""
    out = _checked_out(Path(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        summaries, skipped = [], []
        for name in names or notebook_names():
            nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
            try:
                summaries.append(summarize(nb, name))
            except ExerciseError as error:
                if names is None and "no exercises" in str(error):
                    skipped.append(name)
                    continue
                raise
            instructor = instructor_copy(nb, name)
            placed, files = relocate(instructor, NOTEBOOKS)
            _place(placed, stage / "instructor" / name, name, files)
            _place(student_copy(placed), stage / "student" / name, name, files)
        (stage / "README.md").write_text(_index(summaries, skipped))
        (stage / MARKER).write_text("")
        _replace(stage, out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return summaries


def _replace(stage: Path, out: Path) -> None:
    """Move ``stage`` to ``out``, replacing what ``write`` put there before."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
        out.rename(old / out.name)
    stage.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _alembic_head() -> str:
    """The revision of nbgrader's gradebook schema, read in this process."""
    import nbgrader  # type: ignore[import-untyped, unused-ignore]
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(Path(nbgrader.__file__).parent / "alembic")).get_current_head()
    return str(head)


def _cancel_pending() -> None:
    """Cancel the asyncio tasks that a step cut short by a signal left on nbclient's event loop
    (a cell's execution, whose kernel is gone), as the runner does: none may wake to find its
    kernel dead and log it after the command's last line."""
    from jupyter_core.utils import run_sync

    async def cancel() -> None:
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    run_sync(cancel)()


def _passing_interruptions(
    capture_log: Callable[[object], dict[str, object]],
) -> Callable[[object], dict[str, object]]:
    """nbgrader's ``capture_log``, which turns whatever its step raises into a failed result
    (a bare ``except``), letting a signal's ``Interrupted`` through: a grading stopped by Ctrl-C
    or SIGTERM stops, rather than being reported as nbgrader's failure."""

    def capture(app: object) -> dict[str, object]:
        stopped: list[Interrupted] = []
        start = app.start  # type: ignore[attr-defined]

        def started() -> None:
            try:
                start()
            except Interrupted as stop:
                stopped.append(stop)
                _cancel_pending()
                raise

        app.start = started  # type: ignore[attr-defined]
        result = capture_log(app)
        if stopped:
            raise stopped[0]
        return result

    return capture


@contextlib.contextmanager
def _nbgrader_env() -> Iterator[None]:
    """nbgrader's loggers and warnings silenced, and its new gradebook stamped with the schema's
    revision read in this process (nbgrader runs the ``alembic`` command for it, which needs
    the environment's scripts on PATH and takes seconds)."""
    import nbgrader.api  # type: ignore[import-untyped, unused-ignore]
    import nbgrader.apps.api  # type: ignore[import-untyped, unused-ignore]

    loggers = [logging.getLogger(n) for n in ("traitlets", "nbgrader", "NbGraderAPI")]
    levels = [lg.level for lg in loggers]
    original = nbgrader.api.get_alembic_version
    nbgrader.api.get_alembic_version = _alembic_head
    capture_log = nbgrader.apps.api.capture_log
    nbgrader.apps.api.capture_log = _passing_interruptions(capture_log)
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SQLAlchemy's warnings about nbgrader's sessions
            yield
    finally:
        nbgrader.api.get_alembic_version = original
        nbgrader.apps.api.capture_log = capture_log
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def _last_error_line(cell: NotebookNode) -> str:
    """``Name: message`` of the error a code cell raised, '' if none."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            message = f"{output.get('ename', '')}: {output.get('evalue', '')}".strip(": ")
            unanswered = re.fullmatch(r"NameError: name '(ex\d+_\w+)' is not defined", message)
            if unanswered:  # the answer was never assigned: say so in the student's terms
                return f"not answered: {unanswered[1]} is not assigned ({message})"
            return message.strip().split("\n")[-1]
    return ""


def grade(path: Path | str, source: Path | str | None = None) -> pd.DataFrame:
    """Autograde the notebook at ``path`` with nbgrader in a temporary course: one row per grader
    cell (grade_id, points possible and earned, passed, the error's last line).

    The tests come from ``source`` (default: the committed notebook of the same name), so hidden
    tests count and edited grader cells are restored; the parameters cell is the source's too.
    """
    from nbgrader.api import Gradebook  # type: ignore[import-untyped, unused-ignore]
    from nbgrader.apps import NbGraderAPI  # type: ignore[import-untyped, unused-ignore]
    from nbgrader.coursedir import CourseDirectory  # type: ignore[import-untyped, unused-ignore]
    from traitlets.config import Config

    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path: {str(path)!r} is not a notebook file")
    src = Path(source) if source is not None else NOTEBOOKS / f"{path.stem}.ipynb"
    if not src.is_file():
        raise ValueError(
            f"path: no committed notebook {src.name!r} to take the tests from; name the copy "
            f"after one of {notebook_names()}"
        )
    name = src.name.split(".")[0]
    committed = nbformat.read(src, as_version=4)
    graders = [c for c in exercise_cells(committed, name) if c.role == GRADER]
    instructor, files = relocate(instructor_copy(committed, name), src.parent)
    submission = nbformat.read(path, as_version=4)
    parameters, submitted = _parameters_cell(instructor), _parameters_cell(submission)
    if parameters is not None and submitted is not None:
        submitted.source = parameters.source
    with contextlib.ExitStack() as stack:
        course = stack.enter_context(tempfile.TemporaryDirectory(prefix="choosing-epsilon-grade-"))
        stack.enter_context(_nbgrader_env())
        root = Path(course)
        _place(instructor, root / "source" / name, name, files)
        _place(submission, root / "submitted" / "student" / name, name, {})
        # the notebook stages its files inside the course, which goes however grading ends
        (root / "stages").mkdir()
        stack.enter_context(mock.patch.dict(os.environ, {outputs.STAGE_ROOT: str(root / "stages")}))
        config = Config()
        config.CourseDirectory.root = str(root)
        config.CourseDirectory.course_id = "choosing_epsilon"
        config.Exchange.root = str(root / "exchange")
        config.ExecutePreprocessor.timeout = 600
        # the runner's quiet kernel: IPC sockets in a private directory (no unencrypted-TCP
        # warning), an errors-only kernel log, killed at once when grading ends or is stopped
        manager, arguments = kernel_settings(stack)
        for trait, value in manager.items():
            setattr(config.KernelManager, trait, value)
        config.ExecutePreprocessor.extra_arguments = arguments
        config.ExecutePreprocessor.shutdown_kernel = "immediate"
        config.NbGraderAPI.log_level = "ERROR"
        api = NbGraderAPI(CourseDirectory(config=config), config=config)
        for step in (lambda: api.generate_assignment(name), lambda: api.autograde(name, "student")):
            result = step()
            if not result["success"]:
                raise RuntimeError(f"nbgrader failed on {path}: {result.get('log', '')}")
        graded = nbformat.read(root / "autograded" / "student" / name / f"{name}.ipynb", 4)
        errors = {
            c.metadata["nbgrader"]["grade_id"]: _last_error_line(c)
            for c in graded.cells
            if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"
        }
        with Gradebook(f"sqlite:///{root / 'gradebook.db'}", "choosing_epsilon") as gb:
            notebook = gb.find_submission_notebook(name, name, "student")
            scores = {g.name: g.score for g in notebook.grades}
    rows = []
    for cell in sorted(graders, key=lambda c: c.index):
        earned = float(scores.get(cell.grade_id) or 0) if cell.grade_id in errors else 0.0
        error = errors.get(cell.grade_id, "the test cell is missing from the submission")
        possible = float(cell.points or 0)
        rows.append((cell.grade_id, possible, earned, not error and earned == possible, error))
    return pd.DataFrame(rows, columns=COLUMNS)


def main(argv: list[str] | None = None) -> int:
    """The command line: ``write``, ``grade`` or ``table``."""
    parser = argparse.ArgumentParser(prog="python tools/assignments.py")
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="instructor and student copies of every notebook's exercises")
    w.add_argument("--out", default=str(ROOT / "assignments"), help="default: assignments/")
    g = sub.add_parser("grade", help="autograde a copy: one row per grader cell, and the total")
    g.add_argument("path")
    g.add_argument(
        "--notebook",
        choices=notebook_names(),
        help="the notebook the copy answers (default: the file's name, e.g. alice_synthesis.ipynb "
        "needs --notebook synthesis)",
    )
    sub.add_parser("table", help="the exercises and points of every notebook, as Markdown")
    args = parser.parse_args(argv)
    try:
        if args.command == "write":
            start = time.perf_counter()
            summaries = write(Path(args.out))
            seconds = time.perf_counter() - start
            print(f"wrote {len(summaries)} notebooks' copies to {args.out} in {seconds:.1f} s")
        elif args.command == "grade":
            name = args.notebook or Path(args.path).stem
            table = grade(args.path, NOTEBOOKS / f"{name}.ipynb" if args.notebook else None)
            with pd.option_context("display.width", 200, "display.max_colwidth", 80):
                print(table.to_string(index=False))
            by_hand = summarize(nbformat.read(NOTEBOOKS / f"{name}.ipynb", 4), name).by_hand
            print(
                f"total: {table.points_earned.sum():g} of {table.points_possible.sum():g} "
                f"autograded points; {by_hand} points of written answers are graded by hand"
            )
        else:
            print(points_table(), end="")
    except (ExerciseError, ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except Interrupted as stop:
        print(
            f"stopped by {stop.name}: nothing graded or written, no kernel left running",
            file=sys.stderr,
        )
        return int(stop.code)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
