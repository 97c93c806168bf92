"""Where a notebook run writes: a fresh staging directory, moved into ``output_dir`` only on
success.

A notebook calls ``start`` before it writes anything and ``finish`` as its last step. In between,
every file goes to a temporary directory, so a run that fails leaves ``output_dir`` as it was: no
mixture of stale and new files. ``finish`` rewrites a file only where its content changed beyond
the tolerances of ``compare``, so rerunning the default parameters on any CPU leaves the
committed ``figures/`` untouched, and removes files an earlier run wrote that this one did not.

The committed ``figures/<notebook>`` holds the run at the notebook's default parameters; a run with
any other parameter is refused there, and every run is refused in the repository's root and in every
folder it tracks (``paths.TRACKED_FOLDERS``): inside a checkout, runs go to ``runs/``, which git
ignores. Under the runner (``choosing_epsilon.harness.reproduce``), ``finish`` leaves the staged
files where they are and names them in the file ``$CHOOSING_EPSILON_HANDOFF``: the runner moves them
with the notebook once the whole run has succeeded, so an interrupted run changes nothing. Tests and
benchmarks set the environment variable ``CHOOSING_EPSILON_OUTPUT_ROOT``: the default ``output_dir``
then goes to ``$CHOOSING_EPSILON_OUTPUT_ROOT/<notebook>`` instead, and the working tree is never
written."""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ..plots import figures
from . import compare
from . import parameters as params
from .paths import FIGURES, ROOT, RUNS, TRACKED_FOLDERS

REDIRECT = "CHOOSING_EPSILON_OUTPUT_ROOT"
# where staging directories go (the runner removes it after each run)
STAGE_ROOT = "CHOOSING_EPSILON_STAGE_ROOT"
# the file in which ``finish`` tells the runner where a successful run's files are staged
HANDOFF = "CHOOSING_EPSILON_HANDOFF"
# the files the last run wrote to a directory outside figures/
MANIFEST = ".choosing-epsilon-run.json"
_STAGES: dict[Path, Path] = {}


def committed(notebook: str) -> Path:
    """The committed results of ``notebook``: figures/<notebook>."""
    return FIGURES / notebook


def target_dir(output_dir: str | Path, notebook: str) -> Path:
    """``output_dir`` as an absolute path, redirected under $CHOOSING_EPSILON_OUTPUT_ROOT when
    that is set."""
    target = Path(os.path.abspath(Path(output_dir).expanduser()))
    root = os.environ.get(REDIRECT)
    if root and target == committed(notebook):
        return Path(root).resolve() / notebook
    return target


def _shown(path: Path) -> str:
    """``path`` as a reader would type it: relative to the working directory inside the
    repository, else as given."""
    inside = Path.cwd().resolve().is_relative_to(Path(os.path.realpath(ROOT)))
    return os.path.relpath(path) if inside else str(path)


def check_target(target: Path, notebook: str, changed: list[str]) -> None:
    """Refuse a file as output directory, the repository's root and its tracked folders (but
    figures/<notebook> at the committed parameters), each in one line that names output_dir (-o)."""
    instead = (
        "choose a directory outside the repository's folders, e.g. "
        f"-o {_shown(RUNS / notebook)} (ignored by git)"
    )
    if target.exists() and not target.is_dir():  # a file, such as .git in a git worktree
        raise ValueError(f"output_dir (-o): {str(target)!r} is a file, not a directory: {instead}")
    real, root = Path(os.path.realpath(target)), Path(os.path.realpath(ROOT))
    if real == Path(os.path.realpath(committed(notebook))):
        if changed:
            raise ValueError(
                f"output_dir (-o): {_shown(target)!r} holds the committed run at the default "
                f"parameters, and these differ ({', '.join(changed)}): {instead}"
            )
        return
    if real == root:
        raise ValueError(
            f"output_dir (-o): {_shown(target)!r} is the repository's root, whose files are "
            f"tracked: {instead}"
        )
    for folder in (*TRACKED_FOLDERS, ".git"):
        if real.is_relative_to(root / folder):
            raise ValueError(
                f"output_dir (-o): {_shown(target)!r} lies in {folder}/, one of the repository's "
                f"own folders (a run writes there only to figures/{notebook} at the committed "
                f"parameters): {instead}"
            )


def start(output_dir: str | Path, notebook: str, values: Mapping[str, object]) -> Path:
    """Check ``output_dir`` for a run of ``notebook`` with parameters ``values``; return a fresh
    staging directory."""
    target = target_dir(output_dir, notebook)
    check_target(target, notebook, params.differ_from_defaults(notebook, values))
    stage = Path(
        tempfile.mkdtemp(
            prefix=f"choosing-epsilon-{notebook}-", dir=os.environ.get(STAGE_ROOT) or None
        )
    )
    _STAGES[stage] = target
    figures.write_into(stage)  # show and show_table save there
    return stage


def finish(stage: Path) -> list[str]:
    """Move a successful run's files from ``stage`` into its output directory; return the names
    written or removed (none under the runner, which moves them itself: ``HANDOFF``)."""
    target = _STAGES.pop(Path(stage))
    figures.write_into(None)
    handoff = os.environ.get(HANDOFF)
    if handoff:
        Path(handoff).write_text(json.dumps({"stage": str(stage), "target": str(target)}))
        return []
    return deliver(Path(stage), target)


def deliver(stage: Path, target: Path) -> list[str]:
    """Move the files of ``stage`` into ``target``, rewriting only those whose content changed and
    removing those an earlier run wrote there but this one did not; return the names changed."""
    manifest = target / MANIFEST
    inside_figures = target.is_relative_to(FIGURES)
    stale: set[str] | None = None
    if not inside_figures:
        stale = set(json.loads(manifest.read_text())) if manifest.is_file() else set()
    changed = compare.sync(stage, target, stale)
    if not inside_figures:
        written = sorted(
            p.relative_to(stage).as_posix() for p in Path(stage).rglob("*") if p.is_file()
        )
        manifest.write_text(json.dumps(written, indent=0) + "\n")
    shutil.rmtree(stage, ignore_errors=True)
    return changed


def strict_json(value: object) -> object:
    """``value`` with every float JSON cannot hold replaced: NaN (no value, not applicable) by
    null, ±∞ by the strings "inf" and "-inf"; dicts, lists and tuples recursively."""
    if isinstance(value, Mapping):
        return {key: strict_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [strict_json(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def write_results(results: Mapping[str, object], output_dir: str | Path) -> str:
    """Write ``results`` to ``output_dir``/results.json as strict JSON (``strict_json``: no NaN
    or Infinity, which strict parsers such as jq or a browser refuse), keys sorted; return the
    text written."""
    text = json.dumps(strict_json(results), indent=2, sort_keys=True, allow_nan=False) + "\n"
    (Path(output_dir) / "results.json").write_text(text)
    return text
