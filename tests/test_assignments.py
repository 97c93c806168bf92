"""The assignments tool: nbgrader instructor and student copies of the notebooks' exercises.

Without a kernel: on a small fixture notebook (``fixtures/assignments/course.json``, a notebook
under another extension so that nbval does not run it) and on every committed notebook, the
copies keep the stubs, place the markers, read the points from the tags, leave no solution or
hidden test in the student copy, and malformed input is refused in one line. With a kernel
(marked ``notebook``): the instructor copy earns every point and the blank student copy none.
"""

import copy
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import psutil
import pytest
from nbgrader.nbgraderformat import MetadataValidator

from choosing_epsilon.harness import kernel, parameters, reproduce
from choosing_epsilon.harness.paths import NOTEBOOKS, ROOT
from tests.runner_process import descendants, ended, start_in_group, stop

sys.path.insert(0, str(ROOT / "tools"))
import assignments as A

FIXTURES = Path(__file__).parent / "fixtures" / "assignments"
COURSE = FIXTURES / "course.json"
NAMES = reproduce.notebook_names()


def fixture() -> nbformat.NotebookNode:
    return nbformat.read(COURSE, as_version=4)


def committed(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def tagged(nb, tag):
    return [(i, c) for i, c in enumerate(nb.cells) if tag in c.metadata.get("tags", [])]


def solution_body(cell) -> list[str]:
    """The lines of a solution cell after its stub (what the student copy must not contain)."""
    lines = cell.source.split("\n")
    if cell.cell_type == "markdown":
        return lines[1:]
    n = 0
    while n < len(lines) and lines[n].lstrip().startswith("#"):
        n += 1
    return lines[n:]


def hidden_lines(cell) -> list[str]:
    """The lines between the hidden-test markers of a grader cell."""
    inside, found = False, []
    for line in cell.source.split("\n"):
        if line.strip() == A.BEGIN_HIDDEN:
            inside = True
        elif line.strip() == A.END_HIDDEN:
            inside = False
        elif inside:
            found.append(line)
    return found


def visible_lines(cell) -> list[str]:
    """The lines of a grader cell outside its hidden-test region (markers excluded)."""
    inside, kept = False, []
    for line in cell.source.split("\n"):
        if line.strip() in (A.BEGIN_HIDDEN, A.END_HIDDEN):
            inside = line.strip() == A.BEGIN_HIDDEN
        elif not inside:
            kept.append(line)
    return kept


def distinctive(lines, nb, exclude) -> list[str]:
    """Lines worth searching for: at least 6 characters once stripped, and found in no cell of
    ``nb`` outside the cells ``exclude`` (so their absence from the student copy says something)."""
    elsewhere = "\n".join(c.source for i, c in enumerate(nb.cells) if i not in exclude)
    return [
        line.strip()
        for line in lines
        if len(line.strip()) >= 6 and line.strip() not in elsewhere and line.strip() != "```"
    ]


def printed_lines(cell) -> list[str]:
    """The lines a code cell printed or displayed as text."""
    text = ""
    for output in cell.get("outputs", []):
        text += "".join(output.get("text", "")) + "".join(
            output.get("data", {}).get("text/plain", "")
        )
    return text.split("\n")


def student_text(nb) -> str:
    """Everything a student copy shows: every cell's source and outputs, as text."""
    return "\n".join(c.source + "\n" + json.dumps(c.get("outputs", [])) for c in nb.cells)


def check_copies(nb, name):
    """The properties both the fixture and every notebook must have; returns the two copies."""
    instructor = A.instructor_copy(nb, name)
    student = A.student_copy(instructor)
    MetadataValidator().validate_nb(instructor)  # nbgrader's own schema checks
    MetadataValidator().validate_nb(student)
    assert len(student.cells) == len(instructor.cells) == len(nb.cells)
    ids = [c.metadata["nbgrader"]["grade_id"] for c in instructor.cells if "nbgrader" in c.metadata]
    assert len(ids) == len(set(ids)), f"{name}: grade ids repeat: {ids}"
    exercise = {
        i
        for i, c in enumerate(nb.cells)
        if {"solution", "grader"} & set(c.metadata.get("tags", []))
    }
    for i, cell in enumerate(nb.cells):
        tags = cell.metadata.get("tags", [])
        meta = instructor.cells[i].metadata.get("nbgrader")
        points = [int(t[7:]) for t in tags if re.fullmatch(r"points-\d+", t)]
        if i not in exercise:
            assert meta is None
            assert student.cells[i].source == cell.source, f"{name} cell {i} changed"
            assert student.cells[i].get("outputs") == cell.get("outputs"), f"{name} cell {i}"
            continue
        assert meta["schema_version"] == 3
        if "solution" in tags:
            body = solution_body(cell)
            stub = cell.source.split("\n")[: len(cell.source.split("\n")) - len(body)]
            # the instructor copy: the stub, the marker, the unchanged solution, the end marker
            assert instructor.cells[i].source.split("\n") == [
                *stub,
                A.BEGIN_SOLUTION,
                *"\n".join(body).strip("\n").split("\n"),
                A.END_SOLUTION,
            ]
            assert meta["solution"] and not meta["locked"]
            if cell.cell_type == "code":
                assert stub and all(s.lstrip().startswith("#") for s in stub)
                assert student.cells[i].source == "\n".join([*stub, "raise NotImplementedError()"])
                assert not meta["grade"]
            else:
                # the question, then a paragraph saying where the answer goes
                assert student.cells[i].source.rstrip("\n") == f"{stub[0]}\n{A.TEXT_STUB}"
                assert meta["grade"] and meta["points"] == (points[0] if points else 0)
        else:
            assert meta["grade"] and meta["locked"] and not meta["solution"]
            assert meta["points"] == points[0] and points[0] in (1, 2, 3)
            assert instructor.cells[i].source == cell.source
            assert A.BEGIN_HIDDEN not in student.cells[i].source
            assert student.cells[i].source == "\n".join(visible_lines(cell))
        if cell.cell_type == "code":
            assert student.cells[i].outputs == [] and student.cells[i].execution_count is None
    assert_no_leaks(nb, name, student)
    return instructor, student


def assert_no_leaks(nb, name, student):
    """No line of a solution or hidden test, nor a line a solution printed, in the student copy
    (unless ``nb`` shows it outside the exercise cells too), and no nbgrader marker."""
    exercise = {
        i
        for i, c in enumerate(nb.cells)
        if {"solution", "grader"} & set(c.metadata.get("tags", []))
    }
    text = student_text(student)
    for marker in A.DELIMITERS:
        assert marker not in text, f"{name}: {marker!r} left in the student copy"
    others = "\n".join(
        json.dumps(c.get("outputs", [])) for i, c in enumerate(nb.cells) if i not in exercise
    )
    for i, cell in enumerate(nb.cells):
        secret = solution_body(cell) if "solution" in cell.metadata.get("tags", []) else []
        secret += hidden_lines(cell) if "grader" in cell.metadata.get("tags", []) else []
        leaked = [line for line in distinctive(secret, nb, exercise) if line in text]
        assert leaked == [], f"{name} cell {i}: solution or hidden test left in the student copy"
        printed = [line.strip() for line in printed_lines(cell) if len(line.strip()) >= 10]
        printed = printed if "solution" in cell.metadata.get("tags", []) else []
        leaked = [
            line
            for line in printed
            if json.dumps(line)[1:-1] not in others
            and (line in text or json.dumps(line)[1:-1] in text)
        ]
        assert leaked == [], (
            f"{name} cell {i}: the solution's printed answer is in the student copy"
        )


# --- the fixture -------------------------------------------------------------------------------


def test_fixture_copies():
    nb = fixture()
    instructor, student = check_copies(nb, "course")
    cells = A.exercise_cells(nb, "course")
    assert [(c.index, c.grade_id, c.points) for c in cells] == [
        (5, "ex1_solution", None),
        (6, "ex1_answer", 1),
        (7, "ex1_grader", 2),
        (10, "ex2_solution", None),
        (11, "ex2_answer", None),
        (12, "ex2_grader", 1),
    ]
    assert instructor.cells[5].source == (
        "# assign ex1_scaled: scale times the mean of values\n### BEGIN SOLUTION\n"
        'ex1_scaled = scale * sum(values) / len(values)\nprint(f"scaled mean: {ex1_scaled:.4f}")\n'
        "### END SOLUTION"
    )
    assert student.cells[10].source == (
        "# assign ex2_gap: the largest difference between neighbours\n# (the list is sorted)\n"
        "raise NotImplementedError()"
    )
    assert student.cells[6].source == (
        "*Your answer: why is the scaled mean three times the mean?*\n\n*Write your answer here.*"
    )
    assert student.cells[7].source == "assert isinstance(ex1_scaled, float)\nassert ex1_scaled > 0"
    assert "fmean" not in student_text(student) and "scaled mean: 8" not in student_text(student)
    assert student.cells[2].outputs[0]["text"] == "mean of 3 values: 2.6667\n"  # kept
    assert student.cells[9].source == "ex2_numbers = [1, 4, 6, 13, 14]"  # the given input, kept
    summary = A.summarize(nb, "course")
    assert (summary.exercises, summary.autograded, summary.by_hand) == (2, 3, 1)


@pytest.mark.parametrize(
    "leak",
    [
        "ex1_scaled = scale * sum(values) / len(values)",  # a solution line
        "scaled mean: 8.0000",  # what the solution printed
        "Because the mean is linear: the constant factor comes out of the sum.",  # a written answer
        "assert ex2_gap == sorted(j - i for i, j in zip(ex2_numbers[:-1], ex2_numbers[1:]))[-1]",
    ],
)
def test_the_leak_checks_catch_a_leak(leak):
    nb = fixture()
    student = A.student_copy(A.instructor_copy(nb, "course"))
    assert_no_leaks(nb, "course", student)
    student.cells[-1].source += "\n" + leak  # as if the copy had kept it
    with pytest.raises(AssertionError, match=r"left in the student copy|printed answer"):
        assert_no_leaks(nb, "course", student)


def test_relocate_points_the_parameters_at_the_copys_folder():
    placed, files = A.relocate(fixture(), FIXTURES)
    assert files == {"data/values.csv": (FIXTURES / "values.csv").resolve()}
    assert placed.cells[1].source == (
        "scale = 3  # multiplies the mean\n"
        'data_path = "data/values.csv"  # one column v\n'
        'output_dir = "output"  # where the run writes'
    )


def mutate(change):
    nb = fixture()
    change(nb)
    return nb


def set_tags(index, tags):
    return lambda nb: nb.cells[index].metadata.__setitem__("tags", tags)


def set_source(index, source):
    return lambda nb: setattr(nb.cells[index], "source", source)


def no_exercises(nb):
    del nb.cells[3:]  # the notebook before its exercises


MALFORMED = {
    "grader without points": (
        set_tags(7, ["grader"]),
        r"course: cell 7: a grader cell needs a tag points-N",
    ),
    "grader with 5 points": (set_tags(7, ["grader", "points-5"]), r"cell 7: .*N = 1, 2 or 3"),
    "two points tags": (
        set_tags(12, ["grader", "points-1", "points-2"]),
        r"cell 12: more than one points-N",
    ),
    "solution without comment": (
        set_source(5, "ex1_scaled = scale * sum(values) / len(values)"),
        r"course: cell 5: a solution code cell must start with a comment line",
    ),
    "solution that is only a stub": (
        set_source(5, "# assign ex1_scaled"),
        r"cell 5: .*nothing after its stub",
    ),
    "duplicate heading": (
        set_source(8, "### Exercise 1. Again\n\nAssign `ex2_gap`."),
        r"course: cell 8: duplicate heading 'Exercise 1' \(first at cell 4\)",
    ),
    "no exercises": (no_exercises, r"^course: no exercises \(no cell tagged solution or grader\)$"),
    "answer variable reused": (
        set_source(9, "ex2_numbers = [1, 4, 6, 13, 14]\nex1_scaled = 0.0"),
        r"course: cell 9: assigns 'ex1_scaled', an answer variable of the solution in cell 5",
    ),
    "no answer variable": (
        set_source(10, "# assign the gap\ngap = 7"),
        r"cell 10: the solution of exercise 2 assigns no answer variable ex2_",
    ),
    "hidden test not closed": (
        set_source(12, "assert ex2_gap\n### BEGIN HIDDEN TESTS\nassert ex2_gap == 7"),
        r"course: cell 12: '### BEGIN HIDDEN TESTS' without '### END HIDDEN TESTS'",
    ),
    "marker in prose": (
        set_source(3, "## Exercises\n\n### BEGIN SOLUTION"),
        r"cell 3: 'BEGIN SOLUTION' outside",
    ),
    "solution before a heading": (set_tags(2, ["solution"]), r"cell 2: exercise cell before any"),
    "exercise without grader": (
        lambda nb: nb.cells.pop(12),
        r"cell 8: exercise 2 has no grader cell",
    ),
    "both tags": (set_tags(7, ["grader", "solution", "points-2"]), r"cell 7: tagged both"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_exercises_are_refused_in_one_line(case):
    change, message = MALFORMED[case]
    with pytest.raises(A.ExerciseError, match=message) as refused:
        A.instructor_copy(mutate(change), "course")
    assert "\n" not in str(refused.value)


def test_a_long_solution_may_span_cells():
    def split(nb):
        extra = copy.deepcopy(nb.cells[10])
        extra.source = "# print the gap\nprint(ex2_gap)"
        nb.cells.insert(11, extra)

    cells = A.exercise_cells(mutate(split), "course")
    assert [c.grade_id for c in cells if c.exercise == 2] == [
        "ex2_solution",
        "ex2_solution_2",
        "ex2_answer",
        "ex2_grader",
    ]


# --- the committed notebooks ------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_notebook_copies(name):
    """Every notebook has exercises (a notebook without fails here), and its copies are right."""
    nb = committed(name)
    check_copies(nb, name)
    summary = A.summarize(nb, name)
    assert summary.exercises >= 1 and summary.autograded >= 1


def test_write_puts_both_copies_with_their_inputs(tmp_path):
    out = tmp_path / "assignments"
    summaries = A.write(out)
    assert [s.notebook for s in summaries] == NAMES, "a notebook without exercises was skipped"
    index = (out / "README.md").read_text()
    for s in summaries:
        assert f"| {s.notebook} | {s.exercises} | {s.autograded} | {s.by_hand} |" in index
        for kind in ("instructor", "student"):
            folder = out / kind / s.notebook
            nb = nbformat.read(folder / f"{s.notebook}.ipynb", as_version=4)
            params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
            values = {
                line.split(" = ")[0]: json.loads(line.split(" = ")[1].split("  #")[0])
                for line in params.source.split("\n")
                if re.match(r'^\w+ = ".*"', line)
            }
            assert values["output_dir"] == "output"  # beside the copy, never figures/
            for key, value in values.items():  # input files are copied beside the copy
                assert not value.startswith(".."), f"{kind}/{s.notebook}: {key} = {value!r}"
                if value.startswith("data/"):
                    assert (folder / value).exists(), f"{kind}/{s.notebook}: {key} = {value!r}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["assignments"]  # no stage left


WITH_INPUT_FILES = [n for n in NAMES if A.relocate(committed(n), NOTEBOOKS)[1]]


@pytest.mark.parametrize("name", WITH_INPUT_FILES)
def test_a_copy_runs_at_the_committed_parameters(name, tmp_path, monkeypatch):
    instructor, files = A.relocate(A.instructor_copy(committed(name), name), NOTEBOOKS)
    folder = tmp_path / name
    A._place(instructor, folder, name, files)
    values: dict = {}
    exec(A._parameters_cell(instructor).source, values)
    monkeypatch.chdir(folder)  # where the kernel runs: relative paths are taken from here
    checked = parameters.validate(values, parameters.SPECS[name])
    assert parameters.differ_from_defaults(name, checked) == []


def test_write_replaces_atomically(tmp_path, monkeypatch):
    out = tmp_path / "assignments"
    A.write(out, names=NAMES[:1])
    before = sorted(p.relative_to(out) for p in out.rglob("*"))

    def broken(nb):
        raise RuntimeError("student copy failed")

    monkeypatch.setattr(A, "student_copy", broken)
    with pytest.raises(RuntimeError, match="student copy failed"):
        A.write(out)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["assignments"]


def test_write_refuses_a_directory_it_did_not_make(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert A.main(["write", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --out:") and "did not write" in err and err.count("\n") == 1
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert A.main(["write", "--out", str(tmp_path / "notes.txt")]) == 2
    assert "is a file" in capsys.readouterr().err


def test_grade_refuses_a_missing_file(capsys):
    assert A.main(["grade", "no/such/notebook.ipynb"]) == 2
    assert (
        capsys.readouterr().err == "error: path: 'no/such/notebook.ipynb' is not a notebook file\n"
    )


def test_teaching_lists_the_points_of_every_notebook():
    text = (ROOT / "TEACHING.md").read_text()
    table = A.points_table()
    assert "no exercises yet" not in table
    assert table in text, (
        "TEACHING.md's table of points is out of date: replace it with the output of "
        "`python tools/assignments.py table`"
    )


# --- with a kernel ----------------------------------------------------------------------------


def placed_copies(nb, name, source_dir, out):
    instructor, files = A.relocate(A.instructor_copy(nb, name), source_dir)
    return (
        A._place(instructor, out / "instructor" / name, name, files),
        A._place(A.student_copy(instructor), out / "student" / name, name, files),
    )


@pytest.mark.notebook
def test_fixture_grades(tmp_path):
    instructor, student = placed_copies(fixture(), "course", FIXTURES, tmp_path)
    full = A.grade(instructor, COURSE)
    assert list(full.columns) == A.COLUMNS
    assert full.grade_id.tolist() == ["ex1_grader", "ex2_grader"]
    assert full.points_possible.tolist() == [2, 1] and full.points_earned.tolist() == [2, 1]
    assert full.passed.all() and (full.error == "").all()
    blank = A.grade(student, COURSE)
    assert blank.points_earned.tolist() == [0, 0] and not blank.passed.any()
    assert blank.error.tolist() == [
        "not answered: ex1_scaled is not assigned (NameError: name 'ex1_scaled' is not defined)",
        "not answered: ex2_gap is not assigned (NameError: name 'ex2_gap' is not defined)",
    ]
    # hidden tests count: a wrong answer that passes the visible checks earns nothing
    wrong = nbformat.read(instructor, as_version=4)
    wrong.cells[5].source = wrong.cells[5].source.replace("scale * sum", "2 * scale * sum")
    nbformat.write(wrong, tmp_path / "course.ipynb")
    graded = A.grade(tmp_path / "course.ipynb", COURSE)
    assert graded.points_earned.tolist() == [0, 1]
    assert graded.error[0] == "AssertionError"  # the hidden assert carries no message
    # a student who empties a test cell does not escape it: nbgrader restores the source's
    edited = nbformat.read(student, as_version=4)
    edited.cells[7].source = edited.cells[12].source = "pass"
    nbformat.write(edited, tmp_path / "course.ipynb")
    assert A.grade(tmp_path / "course.ipynb", COURSE).points_earned.tolist() == [0, 0]
    # nor by deleting it: the cell scores nothing, and says so
    complete = nbformat.read(instructor, as_version=4)
    del complete.cells[12]
    nbformat.write(complete, tmp_path / "course.ipynb")
    deleted = A.grade(tmp_path / "course.ipynb", COURSE)
    assert deleted.points_earned.tolist() == [2, 0] and deleted.passed.tolist() == [True, False]
    assert deleted.error[1] == "the test cell is missing from the submission"


@pytest.mark.notebook
def test_a_copy_runs_where_it_is_written(tmp_path):
    from nbclient import NotebookClient

    instructor, _ = placed_copies(fixture(), "course", FIXTURES, tmp_path)
    nb = nbformat.read(instructor, as_version=4)
    NotebookClient(nb, resources={"metadata": {"path": str(instructor.parent)}}).execute()
    assert (instructor.parent / "output" / "mean.txt").read_text() == "2.6667\n"


@pytest.mark.notebook
@pytest.mark.parametrize("name", NAMES)
def test_instructor_earns_every_point_and_the_student_copy_none(name, tmp_path):
    instructor, student = placed_copies(committed(name), name, NOTEBOOKS, tmp_path)
    full = A.grade(instructor)
    assert full.passed.all(), f"{name}: the worked solutions fail:\n{full.to_string()}"
    assert (
        full.points_earned.sum()
        == full.points_possible.sum()
        == A.summarize(committed(name), name).autograded
    )
    blank = A.grade(student)
    failing = blank[blank.passed | (blank.points_earned > 0)]
    assert failing.empty, f"{name}: grader cells pass on the blank copy:\n{failing.to_string()}"
    assert len(blank) == len(full)


def test_grade_takes_the_notebook_a_renamed_copy_answers(monkeypatch, tmp_path, capsys):
    """A submission named alice_synthesis.ipynb is graded against synthesis with --notebook; an
    unknown notebook name is refused by the command line."""
    called = {}

    def fake_grade(path, source=None):
        called.update(path=path, source=source)
        return pd.DataFrame([("ex1_grader", 2.0, 2.0, True, "")], columns=A.COLUMNS)

    monkeypatch.setattr(A, "grade", fake_grade)
    submission = tmp_path / "alice_synthesis.ipynb"
    assert A.main(["grade", str(submission), "--notebook", "synthesis"]) == 0
    assert called == {"path": str(submission), "source": NOTEBOOKS / "synthesis.ipynb"}
    assert "total: 2 of 2 autograded points" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        A.main(["grade", str(submission), "--notebook", "no_such_notebook"])


# --- the kernel: quiet, and stopped with its grading -------------------------------------------

# what a kernel's own log would add to a grading's output: its start-up warning about plain TCP,
# or its notice, from a kernel outliving its grading, that its parent has gone
KERNEL_NOISE = ("IPKernelApp", "WARNING", "without encryption", "Parent appears to have exited")


@pytest.mark.notebook
@pytest.mark.parametrize(
    "transport, quiet", [("ipc", True), ("tcp", True), ("tcp", False)], ids=["ipc", "tcp", "loud"]
)
def test_grading_shows_no_kernel_warning(tmp_path, capfd, monkeypatch, transport, quiet):
    """A real grading of the fixture, its output captured at the file descriptors (the kernel
    writes its log to the stderr it inherits, not to sys.stderr): no kernel warning over IPC
    sockets, nor over TCP (where no short socket path exists), with the kernel's log limited to
    errors. The capture does see the kernel: with its log left at warnings, over TCP, the warning
    is there."""
    if transport == "tcp":
        monkeypatch.setattr(kernel, "_socket_prefix", lambda stack: None)
    if not quiet:
        monkeypatch.setattr(kernel, "QUIET", [])
    instructor, _ = placed_copies(fixture(), "course", FIXTURES, tmp_path)
    capfd.readouterr()
    graded = A.grade(instructor, COURSE)
    out, err = capfd.readouterr()
    assert graded.passed.all()  # the kernel ran every cell
    if quiet:
        assert [n for n in KERNEL_NOISE if n in out + err] == [], out + err
    else:
        assert "Kernel is running over TCP without encryption" in err


def _student_copy(tmp_path: Path, name: str) -> Path:
    A.write(tmp_path / "copies", names=[name])
    return tmp_path / "copies" / "student" / name / f"{name}.ipynb"


@pytest.mark.notebook
def test_the_grading_command_prints_its_table_and_no_kernel_warning(tmp_path):
    """``python tools/assignments.py grade`` on a blank student copy, as a teacher runs it:
    stdout holds the table and the total, stderr nothing at all."""
    student = _student_copy(tmp_path, "laplace_intro")
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "assignments.py"), "grade", str(student)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert [n for n in KERNEL_NOISE if n in run.stdout] == [], run.stdout
    assert run.stdout.splitlines()[-1].startswith("total: 0 of ")


@pytest.mark.notebook
@pytest.mark.skipif(sys.platform != "linux", reason="signals to a process group, as on Linux")
@pytest.mark.parametrize(
    "sig, to_group",
    [(signal.SIGINT, True), (signal.SIGTERM, True), (signal.SIGTERM, False)],
    ids=["Ctrl-C", "SIGTERM to the group", "SIGTERM to the command"],
)
def test_a_grading_stopped_by_a_signal_stops_cleanly(tmp_path, sig, to_group):
    """Ctrl-C (SIGINT to the terminal's foreground group) or SIGTERM while the kernel runs the
    copy's cells: the command stops with 128 + the signal's number and one line, the kernel is
    gone, and nothing is left in TMPDIR (course, staging directory, kernel sockets or connection
    file). The kernel's output after the command's last line would reach the same pipe."""
    student = _student_copy(tmp_path, "kulynych_2024")
    grading, temporary = start_in_group(
        tmp_path,
        [sys.executable, str(ROOT / "tools" / "assignments.py"), "grade", str(student)],
        # the notebook stages its files inside the temporary course
        "choosing-epsilon-grade-*/stages/choosing-epsilon-*",
    )
    kernels = descendants(grading.pid)
    assert kernels, "no kernel is running"
    stop(grading, sig, to_group)
    out, err = grading.communicate(timeout=60)
    assert grading.returncode == 128 + sig, err
    assert err.splitlines() == [
        f"stopped by {sig.name}: nothing graded or written, no kernel left running"
    ]
    assert out == ""
    psutil.wait_procs(kernels, timeout=10)
    assert all(ended(k) for k in kernels)
    assert not list(temporary.iterdir())
