"""The runner behind ``make reproduce``: papermill over the notebooks, deterministic outputs.

- ``python -m choosing_epsilon.harness.reproduce``: every notebook, in place, at the paper's values;
- ``python -m choosing_epsilon.harness.reproduce lee_clifton_2011 -p rho 0.25 -o runs/rho``;
- ``python -m choosing_epsilon.harness.reproduce lee_clifton_2011 --help``: the notebook's
  parameters, each with its kind, allowed range, committed value and meaning, from its declaration.

A default run executes each notebook into a temporary file and, if the run succeeds, replaces the
committed notebook and its figures/ only where their content changed beyond the tolerances of
``compare`` (papermill's timings removed), so a rerun on any CPU leaves ``git status`` clean. A
run with other parameters needs ``--output-dir`` (or ``-p output_dir``), which may not be the
repository's root or lie in a folder it tracks (``runs/``, ignored by git, is the place inside a
checkout); several notebooks get a subdirectory each; relative paths are taken from the directory
the runner starts in. Parameter names, types and ranges, input files and the output directory are
checked before a kernel starts. Ctrl-C or SIGTERM stops a run at once: its kernel is shut down,
its staging directory removed, and its output directory left as it was.

The notebooks are the registry's (``papers``); each runs in a kernel of its own (``kernel``), and
a run of every notebook at the defaults rewrites the README's generated tables (``summary``).
"""

from __future__ import annotations

from .interruption import Interrupted, signals_deferred, stop_on_signals

if __name__ == "__main__":  # from the first line on, Ctrl-C or SIGTERM stops the runner quietly
    stop_on_signals()

import argparse
import contextlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import sys
import tempfile
import textwrap
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

import nbformat
import papermill

from . import compare, kernel, outputs, papers, summary
from . import parameters as params
from .paths import NOTEBOOKS, ROOT

VOLATILE = ("start_time", "end_time", "duration")


def notebook_names() -> list[str]:
    """The notebooks of the repository, by name, in alphabetical order (the registry's,
    ``papers.names``)."""
    return papers.names()


def _coalesce_streams(outputs: list) -> list:
    """Merge adjacent stdout (or stderr) outputs: how a print arrives in pieces depends on
    timing, its text does not."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (
            output.get("output_type") == "stream"
            and previous is not None
            and previous.get("output_type") == "stream"
            and previous.get("name") == output.get("name")
        ):
            previous["text"] = "".join(previous["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    return merged


def strip_volatile(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove run timings, timestamps and the kernel's Python version that papermill and nbclient
    write into a notebook, and coalesce streams."""
    for key in VOLATILE:
        nb.metadata.get("papermill", {}).pop(key, None)
    nb.metadata.get("language_info", {}).pop(
        "version", None
    )  # the kernel's Python (3.11, 3.12, 3.13): not a result
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for key in VOLATILE:
            cell.metadata.get("papermill", {}).pop(key, None)
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
    return nb


def _resolved(name: str, given: Mapping[str, object]) -> dict[str, object]:
    """``given`` with path parameters made absolute from the directory the runner was started in."""
    spec = params.SPECS.get(name, {})
    return {
        k: params.as_path(v) if k in spec and spec[k].kind == "path" and isinstance(v, str) else v
        for k, v in given.items()
    }


def normalise(path: Path, name: str) -> None:
    """Rewrite an executed notebook as it is committed: no timings, streams coalesced, no
    temporary paths."""
    nb = strip_volatile(nbformat.read(path, as_version=4))
    nb.metadata.papermill["input_path"] = f"{name}.ipynb"
    nb.metadata.papermill["output_path"] = f"{name}.ipynb"
    nbformat.write(nb, path)


def _merged_output_dir(
    given: dict[str, object], output_dir: str | Path | None
) -> str | Path | None:
    """The output directory given as ``-o`` or as ``-p output_dir`` (taken out of ``given``)."""
    if "output_dir" not in given:
        return output_dir
    named = given.pop("output_dir")
    if output_dir is not None and params.as_path(output_dir) != params.as_path(named):
        raise ValueError(
            f"output_dir: given twice, as -o {str(output_dir)!r} and as -p output_dir {named!r}: "
            "give one"
        )
    return str(named)


def _output_dir(
    name: str, given: dict[str, object], output_dir: str | Path | None
) -> str | Path | None:
    """The run's output directory (``_merged_output_dir``); None for a run in place, which a run
    into ``figures/<name>`` itself also is."""
    output_dir = _merged_output_dir(given, output_dir)
    if output_dir is not None and os.path.realpath(params.as_path(output_dir)) == os.path.realpath(
        outputs.committed(name)
    ):
        return None
    return output_dir


def check_request(name: str, given: Mapping[str, object], output_dir: str | Path | None) -> Path:
    """Refuse an unknown notebook, bad parameters, bad input files or output directory before a
    kernel starts; return its path."""
    source = NOTEBOOKS / f"{name}.ipynb"
    if not source.exists():
        raise ValueError(f"notebook must be one of {notebook_names()}, got {name!r}")
    declared = papermill.inspect_notebook(str(source))
    unknown = sorted(set(given) - set(declared))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {name}; declared: {sorted(declared)}")
    given = _resolved(name, given)
    output_dir = _merged_output_dir(given := dict(given), output_dir)
    if name in params.SPECS:
        params.check_names(name, given)
    changed = params.differ_from_defaults(name, given) if name in params.SPECS else sorted(given)
    if changed and output_dir is None:
        raise ValueError(
            "output_dir (-o) is required when parameters differ from the committed run "
            f"({', '.join(changed)}): "
            f"figures/ holds the run at the default parameters; try -o runs/{name}"
        )
    if output_dir is not None:
        outputs.check_target(Path(os.path.abspath(output_dir)), name, changed)
    if name in params.SPECS:
        params.check_inputs(name, {**params.committed_values(name), **given})
    return source


def run_notebook(
    name: str,
    parameters: Mapping[str, object] | None = None,
    output_dir: str | Path | None = None,
    progress: bool | dict = False,
) -> Path:
    """Execute notebook ``name``: into ``output_dir`` if given, else in place (only at the
    default parameters).

    In place, the notebook and its figures/ are rewritten only where their content changed beyond
    the tolerances of ``compare``: a rerun on another CPU leaves the committed files as they are.
    Nothing reaches the output directory (or figures/) before the whole run has succeeded, and
    then the files and the notebook are moved there together, signals held back meanwhile.
    """
    given = _resolved(name, dict(parameters or {}))
    source = check_request(name, given, output_dir)
    output_dir = _output_dir(name, given, output_dir)
    if output_dir is not None:
        out = Path(os.path.abspath(output_dir))
        given["output_dir"] = str(out)
        target = out / f"{name}.ipynb"
    else:
        given = {}  # in place means the defaults: no injected cell in the committed notebook
        target = source
    with tempfile.TemporaryDirectory(prefix=f"choosing-epsilon-{name}-") as tmp:
        work = Path(tmp)
        scratch = work / f"{name}.ipynb"
        kernel.execute(source, scratch, given, progress, workdir=work)
        normalise(scratch, name)
        handoff = work / kernel.HANDOFF_FILE
        if not handoff.is_file():
            raise RuntimeError(f"{name}: the notebook ended without calling outputs.finish")
        staged = json.loads(handoff.read_text())
        with signals_deferred():
            outputs.deliver(Path(staged["stage"]), Path(staged["target"]))
            compare.replace_if_changed(scratch, target)
    return target


def _run_timed(
    name: str,
    parameters: Mapping[str, object],
    output_dir: str | None,
    position: int,
    progress: bool,
) -> tuple[str, Path, float]:
    """One notebook in a worker process, with its own progress bar line when ``progress``."""
    start = time.perf_counter()
    bar = {"desc": f"{name:<18}", "position": position, "leave": True} if progress else False
    target = run_notebook(name, parameters, output_dir, progress=bar)
    return name, target, time.perf_counter() - start


def notebook_output_dir(
    output_dir: str | Path | None, name: str, names: Sequence[str]
) -> str | None:
    """Where notebook ``name`` writes when ``names`` are sent to ``output_dir``: a subdirectory
    each when there are several."""
    if output_dir is None:
        return None
    return str(Path(output_dir) / name) if len(names) > 1 else str(output_dir)


# how long the workers of an interrupted run may take to shut their kernels down
STOP_SECONDS = 10.0


def run_all(
    names: Sequence[str],
    parameters: Mapping[str, object] | None = None,
    output_dir: str | Path | None = None,
    jobs: int | None = None,
    progress: bool = False,
) -> list[tuple[str, Path, float]]:
    """Run notebooks in parallel worker processes (one per core by default); each raises as
    ``run_notebook`` does, and a signal stops them all (``interruption``)."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    given = dict(parameters or {})
    out = [notebook_output_dir(output_dir, name, names) for name in names]
    if jobs == 1:
        return [_run_timed(name, given, out[i], i, progress) for i, name in enumerate(names)]
    # the longest first: fewer idle cores at the end
    longest_first = sorted(range(len(names)), key=lambda i: -_code_lines(names[i]))
    done: dict[int, Future] = {}
    with ProcessPoolExecutor(max_workers=jobs, initializer=stop_on_signals) as pool:
        running: set[Future] = set()
        try:
            for i in longest_first:
                # a notebook is handed over only when a worker is free: none waits in the pool's
                # queue, where a signal could no longer cancel it
                while len(running) == jobs:
                    _, running = wait(running, return_when=FIRST_COMPLETED)
                done[i] = pool.submit(_run_timed, names[i], given, out[i], i, progress)
                running.add(done[i])
            wait(running)
        except Interrupted:
            _stop_workers(running)
            raise
    return [done[i].result() for i in range(len(names))]


def _stop_workers(running: set[Future]) -> None:
    """Pass the signal on to every worker (each stops its notebook, as ``run_notebook`` does) and
    wait for them; kill those that take longer than ``STOP_SECONDS``."""
    workers = multiprocessing.active_children()
    for worker in workers:
        with contextlib.suppress(OSError):
            os.kill(worker.pid or 0, signal.SIGTERM)
    wait(running, timeout=STOP_SECONDS)
    for worker in workers:
        worker.join(timeout=0.5)
        if worker.is_alive():
            worker.kill()


def _code_lines(name: str) -> int:
    """How many lines of code notebook ``name`` has: a rough, deterministic proxy for how long it
    runs."""
    cells = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells
    return sum(len(cell.source.splitlines()) for cell in cells if cell.cell_type == "code")


_FRACTION = re.compile(r"\s*([-+]?\d+(?:\.\d*)?)\s*/\s*(\d+(?:\.\d*)?)\s*")


def _parse_value(text: str) -> object:
    """A -p value as people type it: JSON if it parses (numbers, lists, true/false), a fraction
    such as 1/3, True or False as Python writes them, otherwise the string itself."""
    if text.strip() in ("True", "False"):
        return text.strip() == "True"
    fraction = _FRACTION.fullmatch(text)
    if fraction and float(fraction.group(2)) != 0:
        return float(fraction.group(1)) / float(fraction.group(2))
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def stopped(error: papermill.PapermillExecutionError, names: Sequence[str]) -> tuple[str, int]:
    """One line for a run that stopped inside its notebook, not a traceback, and the exit status:
    a ValueError is the notebook refusing its input (2), any other exception a fault, said as
    such (1)."""
    where = f"cell {error.cell_index}" + (f" of {names[0]}" if len(names) == 1 else "")
    if error.ename == "ValueError":
        return f"error: {error.ename}: {error.evalue} ({where})", 2
    return (
        f"error: the run stopped in {where} with {error.ename}: {error.evalue}; the input "
        "passed every check, so this is a fault of the notebook or the package: please report it"
    ), 1


# the width of --help's text, as argparse's: the terminal's, at most 100 columns
HELP_WIDTH = min(shutil.get_terminal_size((100, 24)).columns - 2, 100)


def parameter_help(notebook: str, width: int = HELP_WIDTH) -> str:
    """``notebook``'s parameters as ``NOTEBOOK --help`` lists them, from its declaration
    (``parameters.SPECS``), in the order of its parameters cell: each one's name, kind and
    committed value (the paper's, where the paper fixes it), then its meaning (the cell's
    comment) and its allowed range."""

    def wrapped(text: str) -> list[str]:
        return textwrap.wrap(
            text,
            width,
            initial_indent=" " * 6,
            subsequent_indent=" " * 6,
            break_long_words=False,
            break_on_hyphens=False,
        )

    lines = [
        f"parameters of {notebook} (-p NAME VALUE; a parameter not given keeps the value shown):",
    ]
    for name, param in params.SPECS[notebook].items():
        value = param.paper if param.default is None else param.default
        whose = " (the paper's)" if param.default is None and param.paper is not None else ""
        shown = param.source or params.value_text(value)
        lines.append(f"  {name} ({param.kind}, default {shown}{whose})")
        meaning = " ".join([*param.comment_above.splitlines(), param.comment]).strip()
        lines += wrapped(meaning) if meaning else []
        lines += wrapped(f"allowed: {param.allowed}") if param.allowed else []
    return "\n".join(lines)


def notebooks_help() -> str:
    """The notebooks a run may name, as ``--help`` lists them."""
    names = "\n".join(f"  {name}" for name in notebook_names())
    return f"notebooks:\n{names}\n\nNOTEBOOK --help lists that notebook's parameters."


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m choosing_epsilon.harness.reproduce",
        description=__doc__.split("\n\n")[0],
        add_help=False,  # --help with notebook names lists their parameters
    )
    parser.add_argument(
        "-h",
        "--help",
        action="store_true",
        help="show this help and exit; with notebook names, list their parameters",
    )
    parser.add_argument("notebooks", nargs="*", help="notebook names (default: all)")
    parser.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="a parameter; VALUE is read as JSON when it parses, else as a string",
    )
    parser.add_argument(
        "-o", "--output-dir", help="where a run with other parameters writes (required with -p)"
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=None, help="notebooks run at once (default: one per core)"
    )
    args = parser.parse_args(argv)
    if args.help:
        unknown = sorted(set(args.notebooks) - set(notebook_names()))
        if unknown:
            print(
                f"error: notebook must be one of {notebook_names()}, got {unknown}", file=sys.stderr
            )
            return 2
        helps = [parameter_help(name) for name in args.notebooks] or [notebooks_help()]
        print("\n\n".join([parser.format_help().rstrip(), *helps]))
        return 0
    names = args.notebooks or notebook_names()
    given = {name: _parse_value(value) for name, value in args.parameter}
    try:
        for name in names:  # an old parameter name still works, read as its new one, said once
            for notice in params.take_renamed(name, given, set(given)):
                print(notice, file=sys.stderr)
        args.output_dir = _merged_output_dir(given, args.output_dir)  # -p output_dir is -o
        for (
            name
        ) in names:  # refuse bad names, parameters, files and directories before any kernel starts
            check_request(name, given, notebook_output_dir(args.output_dir, name, names))
        done = run_all(names, given, args.output_dir, jobs=args.jobs, progress=sys.stderr.isatty())
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except papermill.PapermillExecutionError as error:
        message, status = stopped(error, names)
        print(message, file=sys.stderr)
        return status
    except Interrupted as stop:
        print(
            f"stopped by {stop.name}: every kernel shut down; a notebook that had not finished "
            "wrote nothing",
            file=sys.stderr,
        )
        return int(stop.code)  # type: ignore[arg-type]
    for name, target, seconds in done:
        print(
            f"{name}: {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target} "
            f"({seconds:.1f} s)"
        )
    if not given and args.output_dir is None:
        summary.write_all(notebook_names())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
