"""Test configuration: nothing a test runs may write into the working tree.

- Property tests check values, not speed (speed is measured by `make bench`).
- ``CHOOSING_EPSILON_OUTPUT_ROOT`` is set before any kernel starts, so a notebook run at its
  default ``output_dir`` (nbval, the determinism tests) writes under a temporary directory
  instead of the committed figures/ (see ``choosing_epsilon.outputs``).
- The session fails if the working tree's ``git status`` (and the content of every file it lists)
  is not the same after the tests as before: on a fresh clone, ``git status --porcelain`` stays empty.
"""

import hashlib
import os
import subprocess
import tempfile

import pytest
from hypothesis import settings

from choosing_epsilon import outputs
from choosing_epsilon.paths import ROOT

settings.register_profile("project", deadline=None)
settings.load_profile("project")

OUTPUT_ROOT = tempfile.mkdtemp(prefix="choosing-epsilon-tests-")
os.environ[outputs.REDIRECT] = OUTPUT_ROOT  # inherited by every kernel nbval and papermill start


def tree_state() -> tuple[bytes, dict[str, str]] | None:
    """git's view of the working tree, with a hash of each listed file; None outside a git checkout."""
    try:
        status = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"], cwd=ROOT,
                                capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    hashes = {}
    for entry in filter(None, status.split(b"\0")):
        path = ROOT / entry[3:].decode()
        if path.is_file():
            hashes[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return status, hashes


def pytest_sessionstart(session):
    session.config.stash[TREE] = tree_state()


def pytest_sessionfinish(session, exitstatus):
    before, after = session.config.stash.get(TREE, None), tree_state()
    if before is None or after is None or before == after:
        return
    changed = sorted(set(before[1].items()) ^ set(after[1].items()))
    lines = {line for line in (before[0] + after[0]).split(b"\0") if line}
    moved = sorted(line.decode() for line in lines if (line in before[0].split(b"\0")) != (line in after[0].split(b"\0")))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = f"FAILED: the tests changed the working tree: {moved or [path for path, _ in changed]}"
    if reporter is not None:
        reporter.write_line(message, red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


TREE = pytest.StashKey()
