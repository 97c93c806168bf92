"""The runner started as a terminal starts it (a process group of its own), for the tests that
stop a run with a signal, and what is left of its processes."""

import os
import pathlib
import subprocess
import sys
import time

import psutil

from choosing_epsilon.harness.paths import ROOT


def descendants(pid: int) -> list[psutil.Process]:
    """Every process below ``pid`` (kernels, their pools), none once it has ended."""
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def start_in_group(
    tmp_path, command: list[str], started: str
) -> tuple[subprocess.Popen, pathlib.Path]:
    """``command`` in a process group of its own (as a terminal starts it), its temporary files
    under tmp_path/tmp; returns it and that folder once a path matching the glob ``started``
    exists there (where the kernel stages its files: it is running its cells)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(temporary)},
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not list(temporary.glob(started)):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the notebook's cells never started"
        time.sleep(0.05)
    return process, temporary


def start_runner(tmp_path, argv: list[str]) -> tuple[subprocess.Popen, pathlib.Path]:
    """The runner on ``argv`` (``start_in_group``), once its kernel has begun the cells."""
    command = [sys.executable, "-m", "choosing_epsilon.harness.reproduce", *argv]
    return start_in_group(tmp_path, command, "choosing-epsilon-*/choosing-epsilon-*")


def stop(process: subprocess.Popen, sig: int, to_group: bool) -> None:
    """Send ``sig`` as a terminal's Ctrl-C does, to the whole process group (``to_group``), or as
    a kill does, to the command alone."""
    if to_group:
        os.killpg(process.pid, sig)
    else:
        process.send_signal(sig)


def ended(process: psutil.Process) -> bool:
    """Whether ``process`` has ended (gone, or a zombie not yet reaped)."""
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
