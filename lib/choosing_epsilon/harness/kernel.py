"""One notebook executed in a kernel of its own: the kernel's settings, its start and its shut-down.

``execute`` is papermill's Python API as the runner (``reproduce``) uses it: one kernel, started
by the runner over IPC sockets in a private directory (``kernel_settings``, which other tools
reuse), shut down at once however the run ends, and the notebook written once at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import papermill
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync

from . import outputs
from .interruption import signals_deferred
from .paths import NOTEBOOKS


@contextlib.contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    """Set environment variables for the kernels started inside, and restore them after."""
    previous = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in previous.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


HANDOFF_FILE = "handoff.json"
# as nbclient starts a kernel: its IPython history in memory, not in the user's profile
NO_HISTORY = ["--HistoryManager.hist_file=:memory:"]
# a Unix socket's path holds at most 104 bytes on macOS (108 on Linux), its NUL included; the
# kernel's five sockets are named <prefix>-<number>
SOCKET_PATH_BYTES = 100
# the kernel's connection file (ports or sockets, and the key that signs its messages)
CONNECTION_FILE = "connection.json"


def _private_directory(stack: contextlib.ExitStack, root: str | None = None) -> str:
    """A directory only its owner can open (mode 0700), in ``root`` (default TMPDIR), for a
    kernel's files; ``stack`` removes it with whatever it holds when it closes."""
    directory = tempfile.mkdtemp(prefix="choosing-epsilon-kernel-", dir=root)
    stack.callback(shutil.rmtree, directory, ignore_errors=True)
    return directory


def _socket_prefix(stack: contextlib.ExitStack) -> str | None:
    """A path prefix for the kernel's IPC sockets in a private directory of its own, removed when
    ``stack`` closes; None where no short enough place exists.

    Over IPC the kernel's traffic stays on this machine in files only its owner can open, and the
    kernel starts without ipykernel's warning about unencrypted TCP. The directory is made in
    TMPDIR, or under /tmp where TMPDIR is deep enough (a test's temporary directory) for a socket
    path to exceed its length.
    """
    for root in dict.fromkeys((tempfile.gettempdir(), "/tmp")):
        if not (os.path.isdir(root) and os.access(root, os.W_OK | os.X_OK)):
            continue
        prefix = os.path.join(_private_directory(stack, root), "kernel")
        if len(os.fsencode(prefix)) + len("-65535") < SOCKET_PATH_BYTES:
            return prefix
    return None


# the kernel application's own log (not the notebook's output) limited to errors: its warnings
# are about the kernel's plumbing ("Parent appears to have exited" from a kernel being shut down
# after an interruption), nothing a reader asked for
QUIET = ["--IPKernelApp.log_level=ERROR"]


def kernel_settings(stack: contextlib.ExitStack) -> tuple[dict[str, str], list[str]]:
    """The traits of a quiet kernel manager (``transport`` and ``ip`` over IPC, ``connection_file``
    always) and the arguments to start its kernel with (no history file, an errors-only log), for
    the runner's kernels and any other tool's (nbgrader's, in ``tools/assignments.py``);
    ``stack`` removes the kernel's private directory, with whatever it holds, when it closes.

    The kernel runs over IPC sockets where the platform has a short enough place for them.
    Where it has none, it runs over TCP on the loopback interface (the unencrypted-TCP warning,
    which the quiet log leaves out, is about traffic that never leaves the machine). The kernel's
    connection file goes into the same private directory as its sockets (one of its own where
    there are none): however the run ends, and whatever jupyter_client's own clean-up does,
    nothing of the kernel stays in TMPDIR.
    """
    prefix = _socket_prefix(stack) if os.name == "posix" else None
    arguments = [*NO_HISTORY, *QUIET]
    settings: dict[str, str] = {}
    if prefix is not None:
        directory = os.path.dirname(prefix)
        settings.update(transport="ipc", ip=prefix)
    else:
        directory = _private_directory(stack)
    settings["connection_file"] = os.path.join(directory, CONNECTION_FILE)
    return settings, arguments


def _kernel(stack: contextlib.ExitStack) -> tuple[AsyncKernelManager, list[str]]:
    """The run's kernel manager and the kernel's extra arguments (``kernel_settings``)."""
    settings, arguments = kernel_settings(stack)
    return AsyncKernelManager(kernel_name="python3", **settings), arguments


def execute(
    source: Path,
    target: Path,
    parameters: Mapping[str, object] | None = None,
    progress: bool | dict = False,
    workdir: Path | None = None,
) -> None:
    """papermill's Python API as the runner uses it: one kernel, shut down at once, the notebook
    written once at the end.

    The kernel stages its files in a temporary directory (see ``outputs.start``), removed however
    the run ends. With ``workdir`` it stages them there instead and, rather than moving them into
    its output directory, leaves them for the caller, named in ``workdir/handoff.json``.

    papermill by default rewrites the whole output notebook when every cell starts and ends; for
    a notebook of forty cells and a megabyte of figures that costs over a second of CPU, and
    nobody reads the partial file here (a failed run is discarded anyway).
    """
    with contextlib.ExitStack() as stack:
        if workdir is None:
            stages = stack.enter_context(tempfile.TemporaryDirectory(prefix="choosing-epsilon-"))
            stack.enter_context(_environment({outputs.STAGE_ROOT: stages, outputs.HANDOFF: ""}))
        else:
            handoff = {
                outputs.STAGE_ROOT: str(workdir),
                outputs.HANDOFF: str(workdir / HANDOFF_FILE),
            }
            stack.enter_context(_environment(handoff))
        # the runner starts and owns the kernel, so that it is shut down however the run ends: a
        # signal while it starts waits until it is up (nbclient would start it where a signal could
        # leave it, or its connection file, behind)
        kernel, arguments = _kernel(stack)
        stack.callback(_shut_down, kernel)
        with signals_deferred():
            run_sync(kernel.start_kernel)(cwd=str(NOTEBOOKS), extra_arguments=arguments)
        papermill.execute_notebook(
            str(source),
            str(target),
            parameters=dict(parameters) if parameters else None,
            cwd=str(NOTEBOOKS),
            kernel_name="python3",
            progress_bar=progress,
            request_save_on_cell_execute=False,
            km=kernel,
        )


def _shut_down(kernel: AsyncKernelManager) -> None:
    """Kill a run's kernel at once if it still runs, and remove its connection file."""

    async def shut_down() -> None:
        # the tasks of a run cut short by a signal are cancelled first: none may wake to find its
        # kernel gone and log it
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if kernel.has_kernel:
            await kernel.shutdown_kernel(now=True)
        kernel.cleanup_connection_file()

    run_sync(shut_down)()
