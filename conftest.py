"""Test configuration, for every pytest run in the repository (also `pytest notebooks/x.ipynb`,
which loads no conftest under tests/): nothing a test runs may write into the working tree.

- Property tests check values, not speed (speed is measured by `make bench`), and draw the same
  examples on every run (hypothesis derandomized); ``make test-explore`` draws new ones.
- ``CHOOSING_EPSILON_OUTPUT_ROOT`` is set before any kernel starts, so a notebook run at its
  default ``output_dir`` (nbval) writes under a temporary directory
  instead of the committed figures/ (see ``choosing_epsilon.harness.outputs``).
- nbval compares a cell's outputs as text, byte for byte; where that fails, the outputs are
  compared again to the tolerances of ``choosing_epsilon.harness.compare`` (a printed number may
  differ in its last digit on another CPU), so nbval holds on any machine but still fails on a
  real change.
- Everything the notebooks write goes under one temporary directory, removed when the session
  ends.
- ``make test`` runs in parallel (pytest-xdist, ``--dist loadfile``): the tests of one file run on
  one worker, in order, so the cells of a notebook, which nbval runs in one kernel, stay together.
  The longest files (``tests/slow.py``'s ``LONGEST``) are handed out first.
- Each notebook runs once at its defaults, under nbval, and that run is also the determinism
  test: its kernel starts with numpy's AVX2 and AVX-512 paths disabled (``NPY_DISABLE_CPU_FEATURES``
  set to those of ``OTHER_CPU`` this CPU has, for the kernel only), so it takes the code paths of
  another CPU than the one that wrote the committed results. nbval compares each cell's outputs
  (to compare's tolerances, see above); after the last cell, "files and notebook as committed"
  checks that the files the run wrote are the committed figures/<notebook>/ and that the notebook
  the run makes (the committed one with the outputs the kernel sent, streams coalesced as the
  runner does) is ``compare.equivalent`` to the committed notebook, figures included (nbval itself
  skips images). A CPU with neither AVX2 nor AVX-512 takes those paths anyway.
- A test that starts a kernel must be marked ``notebook`` (``make test-fast`` deselects those): an
  unmarked test that starts one fails, naming the marker. Those that run a notebook at its
  defaults are also marked ``default_run`` (nbval); every other notebook
  test runs a notebook at other parameters and is marked ``cases`` here: ``make test`` leaves
  those to ``make test-cases``, and CI runs both.
- ``make test-fast`` deselects ``slow``: the tests that ``tests/slow.py`` lists (whole files, or
  functions of a file) are marked so here; a run that deselects them does not import a file that
  holds nothing else. ``make test`` runs them all.
- The session fails if the working tree's ``git status`` (and the content of every file it lists)
  is not the same after the tests as before: on a fresh clone, ``git status --porcelain`` stays
  empty. The one exception: ``make bench`` (the files under tests/benchmarks) writes its
  measurements to figures/benchmarks/ on purpose.
"""

import copy
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import matplotlib
import nbformat
import pytest
from _pytest.mark.expression import Expression
from hypothesis import settings
from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from nbval import plugin as nbval_plugin

from choosing_epsilon.harness import compare, outputs, reproduce
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS, ROOT
from choosing_epsilon.plots import style
from tests.slow import LONGEST, SLOW_FILES, SLOW_TESTS

# The suite's verdict never depends on chance: every property test draws the same examples on every
# run (derandomized, from a hash of the test; no example database replaying earlier failures).
# ``make test-explore`` draws new ones, many more, for developers; a failure found there is added to
# its test as an ``@example``.
settings.register_profile(
    "project", deadline=None, derandomize=True, database=None, print_blob=True
)
settings.register_profile("explore", deadline=None, max_examples=2000, print_blob=True)
settings.load_profile(os.environ.get("CHOOSING_EPSILON_HYPOTHESIS", "project"))

OUTPUT_ROOT = tempfile.mkdtemp(prefix="choosing-epsilon-tests-")
os.environ[outputs.REDIRECT] = OUTPUT_ROOT  # inherited by every kernel nbval and papermill start
# under the suite a figure or caption that departs from the style stops the run (a reader's run
# records it in captions.json instead)
os.environ["CHOOSING_EPSILON_STRICT_FIGURES"] = "1"
# nbval's kernels stage there too
os.environ[outputs.STAGE_ROOT] = os.path.join(OUTPUT_ROOT, "stages")
os.mkdir(os.environ[outputs.STAGE_ROOT])


def _flattened(cell, outputs_, skip):
    """nbval's view of a cell's outputs: (key, sanitized value) pairs, MIME data flattened,
    skipped keys dropped."""
    pairs = []
    for output in nbval_plugin.transform_streams_for_comparison(outputs_):
        for key, value in output.items():
            if key == "data":
                pairs += [(k, cell.sanitize(v)) for k, v in value.items() if k not in skip]
            elif key not in skip:
                pairs.append((key, cell.sanitize(value)))
    return pairs


_strict_compare = nbval_plugin.IPyNbCell.compare_outputs


def _compare_to_tolerance(self, test, ref, skip_compare=None):
    """nbval's comparison, then, if it fails, the same outputs compared by content (see the
    module docstring)."""
    if _strict_compare(self, test, ref, skip_compare):
        return True
    skip = skip_compare or self.parent.skip_compare
    expected, got = _flattened(self, ref, skip), _flattened(self, test, skip)
    by_key = lambda pairs: sorted(pairs, key=lambda pair: pair[0])  # noqa: E731  (order kept within a key)
    if [k for k, _ in by_key(expected)] != [k for k, _ in by_key(got)]:
        return False
    if all(
        compare._json_equivalent(a, b, key)
        for (key, a), (_, b) in zip(by_key(expected), by_key(got))
    ):
        self.comparison_traceback = []
        return True
    return False


nbval_plugin.IPyNbCell.compare_outputs = _compare_to_tolerance


OTHER_CPU = ("X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR")  # numpy's AVX2 and AVX-512 code paths


def other_cpu_features() -> list[str]:
    """The features of OTHER_CPU this machine has (and has not been told to leave unused):
    disabling them makes numpy take the paths of an older CPU."""
    from numpy._core._multiarray_umath import __cpu_features__

    return [f for f in OTHER_CPU if __cpu_features__.get(f)]


_start_kernel = nbval_plugin.IPyNbFile.setup


def _start_kernel_on_another_cpu(self):
    """nbval's kernel, started with this CPU's AVX2 and AVX-512 paths disabled (see the module
    docstring); the tests' own processes keep them."""
    disabled = other_cpu_features()
    with pytest.MonkeyPatch.context() as patch:
        if disabled:
            patch.setenv("NPY_DISABLE_CPU_FEATURES", " ".join(disabled))
        _start_kernel(self)


nbval_plugin.IPyNbFile.setup = _start_kernel_on_another_cpu

_coalesce_streams = nbval_plugin.coalesce_streams
_run_cell = nbval_plugin.IPyNbCell.runtest
_sent: list[list] = []  # while nbval runs a cell: the outputs its kernel sent, as sent


def _coalesce_keeping_what_was_sent(outputs):
    """nbval's merge of a cell's streams (all of one name into one, in place); the first call of a
    cell's run, on the outputs the kernel sent, keeps a copy of them first."""
    if not _sent:
        _sent.append(copy.deepcopy(list(outputs)))
    return _coalesce_streams(outputs)


def _run_cell_keeping_its_outputs(self):
    """nbval's run of a cell; the outputs the kernel sent are kept on the notebook's collector
    for "files and notebook as committed"."""
    _sent.clear()
    try:
        _run_cell(self)
    finally:
        if _sent:
            if not hasattr(self.parent, "sent_outputs"):
                self.parent.sent_outputs = {}
            self.parent.sent_outputs[self.cell_num] = _sent.pop()


nbval_plugin.coalesce_streams = _coalesce_keeping_what_was_sent
nbval_plugin.IPyNbCell.runtest = _run_cell_keeping_its_outputs


def tree_state() -> tuple[bytes, dict[str, str]] | None:
    """git's view of the working tree, with a hash of each listed file; None outside a git
    checkout."""
    try:
        status = subprocess.run(
            ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    hashes = {}
    for entry in filter(None, status.split(b"\0")):
        path = ROOT / entry[3:].decode()
        if path.is_file():
            hashes[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return status, hashes


def _is_worker(config) -> bool:
    """Whether this process is an xdist worker (the controller alone checks the working tree)."""
    return hasattr(config, "workerinput")


def pytest_sessionstart(session):
    if not _is_worker(session.config):
        session.config.stash[TREE] = tree_state()


class CommittedFiles(pytest.Item):
    """After nbval has run a notebook at its defaults (on another CPU's code paths): the files the
    run wrote (under the redirected output root) are the committed figures/<notebook>/, and the
    notebook the run makes is the committed notebook, both to compare's tolerances."""

    def runtest(self):
        name = self.path.stem
        written = Path(OUTPUT_ROOT) / name
        if not written.is_dir():
            raise AssertionError(f"{name}: the nbval run wrote no output directory")
        differ = compare.differences(written, FIGURES / name, ignore=frozenset({outputs.MANIFEST}))
        if differ:
            raise AssertionError(f"{name}: files differ from the committed figures/: {differ}")
        committed = NOTEBOOKS / f"{name}.ipynb"
        executed = Path(OUTPUT_ROOT) / "executed" / f"{name}.ipynb"
        executed.parent.mkdir(exist_ok=True)
        notebook = self.executed_notebook(committed)
        nbformat.write(notebook, executed)
        if not compare.equivalent(executed, committed):
            expected = nbformat.read(committed, as_version=4)
            differ = [
                (number, [output.get("output_type") for output in cell.outputs])
                for number, (cell, reference) in enumerate(zip(notebook.cells, expected.cells))
                if not compare._json_equivalent(cell, reference)
            ]
            raise AssertionError(
                f"{name}: the notebook nbval ran differs from the committed one in cells "
                f"(index, outputs): {differ}"
            )

    def executed_notebook(self, committed: Path) -> nbformat.NotebookNode:
        """The committed notebook with each code cell's outputs replaced by those its kernel sent
        under nbval, streams coalesced as the runner does (``reproduce.strip_volatile``). A result's
        ``execution_count`` is the kernel's counter, which nbval's kernel does not keep as the
        runner's does (nbval compares none): it is the cell's, as in a run by the runner."""
        nb = nbformat.read(committed, as_version=4)
        sent = getattr(self.parent, "sent_outputs", {})
        code = [cell for cell in nb.cells if cell.cell_type == "code"]
        missing = [number for number in range(len(code)) if number not in sent]
        if missing:
            raise AssertionError(f"{committed.stem}: cells {missing} did not run to the end")
        for number, cell in enumerate(code):
            cell.outputs = [nbformat.from_dict(output) for output in sent[number]]
            for output in cell.outputs:
                if output.output_type == "execute_result":
                    output.execution_count = cell.execution_count
        return reproduce.strip_volatile(nb)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: files and notebook as committed"


def _deselects_slow(config) -> bool:
    """Whether the run's ``-m`` expression leaves out a test marked ``slow`` (make test-fast)."""
    expression = config.getoption("markexpr")
    return bool(expression) and not Expression.compile(expression).evaluate(
        lambda name, **_: name == "slow"
    )


def pytest_ignore_collect(collection_path, config):
    """A file of slow tests only is not imported where they are deselected: it costs seconds."""
    if collection_path.name in SLOW_FILES and _deselects_slow(config):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    extended = []
    for index, item in enumerate(items):
        extended.append(item)
        if item.path.name in SLOW_FILES or getattr(item, "originalname", item.name) in (
            SLOW_TESTS.get(item.path.name, ())
        ):
            item.add_marker(pytest.mark.slow)
        if not isinstance(item, nbval_plugin.IPyNbCell):
            if item.get_closest_marker("notebook") and not item.get_closest_marker("default_run"):
                item.add_marker(pytest.mark.cases)  # a run at other parameters: make test-cases
        else:  # nbval's cells run a notebook too, at its defaults
            item.add_marker(pytest.mark.notebook)
            item.add_marker(pytest.mark.default_run)
            following = items[index + 1] if index + 1 < len(items) else None
            if getattr(following, "parent", None) is not item.parent:  # its last cell
                check = CommittedFiles.from_parent(
                    item.parent, name="files and notebook as committed"
                )
                check.add_marker(pytest.mark.notebook)
                check.add_marker(pytest.mark.default_run)
                extended.append(check)
    rank = {name: place for place, name in enumerate(LONGEST)}  # the longest files first
    items[:] = sorted(extended, key=lambda item: rank.get(item.path.name, len(LONGEST)))


@pytest.fixture(autouse=True)
def _project_style():
    """Every test draws in the project's style, as the notebooks do (``figures.use_style``), and
    leaves matplotlib's settings as it found them, with no figure left open."""
    with matplotlib.rc_context(style.RC):
        yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture(autouse=True)
def _kernels_only_in_notebook_tests(request, monkeypatch):
    """Fail an unmarked test as soon as it starts a kernel: ``-m "not notebook"`` must run none."""
    if request.node.get_closest_marker("notebook") is None:

        def refuse(*args, **kwargs):
            raise RuntimeError(
                f"{request.node.nodeid} starts a kernel: mark it @pytest.mark.notebook"
            )

        monkeypatch.setattr(LocalProvisioner, "launch_kernel", refuse)


def _runs_benchmarks(config) -> bool:
    """Whether this session runs ``make bench``'s files, which write figures/benchmarks/."""
    return any("tests/benchmarks" in str(arg) for arg in config.args)


def pytest_sessionfinish(session, exitstatus):
    # what the notebooks wrote: nothing is left in the temporary directory
    shutil.rmtree(OUTPUT_ROOT, ignore_errors=True)
    if _is_worker(session.config):
        return
    before, after = session.config.stash.get(TREE, None), tree_state()
    if before is None or after is None or before == after:
        return
    # make bench writes its measurements to figures/benchmarks/ on purpose: only there
    measured = "figures/benchmarks/" if _runs_benchmarks(session.config) else None
    changed = sorted(
        (path, digest)
        for path, digest in set(before[1].items()) ^ set(after[1].items())
        if measured is None or measured not in path
    )
    lines = {line for line in (before[0] + after[0]).split(b"\0") if line}
    moved = sorted(
        line.decode()
        for line in lines
        if (line in before[0].split(b"\0")) != (line in after[0].split(b"\0"))
        and (measured is None or measured not in line.decode())
    )
    if not changed and not moved:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = (
        f"FAILED: the tests changed the working tree: {moved or [path for path, _ in changed]}"
    )
    if reporter is not None:
        reporter.write_line(message, red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


TREE = pytest.StashKey()
