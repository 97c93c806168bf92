"""Stopping a run on Ctrl-C (SIGINT) or SIGTERM: cleanly, at once, with nothing half-written.

The runner (``choosing_epsilon.harness.reproduce``) installs ``stop_on_signals`` in its own process
and in each worker process. The first signal raises ``Interrupted`` wherever the process is: the
``with`` blocks it leaves shut the notebook's kernel down and remove the staging directory. A run's
files reach their output directory only once the whole run has succeeded, and that move, like the
kernel's start, runs inside ``signals_deferred``, so no signal cuts it in half. A signal inherited
as ignored (a job started with ``&`` by a script) is handled all the same: whoever sends one means
it."""

from __future__ import annotations

import contextlib
import signal
import threading
import warnings
from collections.abc import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(SystemExit):
    """A run stopped by a signal; its exit status is 128 + the signal's number (130 for Ctrl-C)."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return type(self), (self.signum,)  # across processes with its signal

    @property
    def name(self) -> str:
        """The signal's name (SIGINT or SIGTERM)."""
        return signal.Signals(self.signum).name


def _interrupt(signum: int, frame: object) -> None:
    # a second signal while the first one's clean-up runs would cut it short: from now on a signal
    # does nothing (a Python handler that returns, not SIG_IGN: a signal already received but not
    # yet handled would then raise "Signal ... ignored due to race condition" in the clean-up)
    for s in SIGNALS:
        signal.signal(s, _ignore)
    # a signal between the making of a coroutine and its first step (nbclient's run_sync) leaves
    # it never awaited; its warning at exit says nothing about the run
    warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
    raise Interrupted(signum)


def _ignore(signum: int, frame: object) -> None:
    """A signal after the first: the run is already stopping."""


def stop_on_signals() -> None:
    """Make SIGINT and SIGTERM raise ``Interrupted`` in this process (its main thread)."""
    for s in SIGNALS:
        signal.signal(s, _interrupt)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Defer SIGINT and SIGTERM while a step runs that must not be cut short (a kernel starting,
    a run's results moving into place): a signal that arrives meanwhile takes effect once the
    step is done. (Handlers, not a blocked signal mask: a kernel started meanwhile would inherit
    the mask.)"""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only
        return
    received: list[int] = []
    previous = {s: signal.signal(s, lambda signum, frame: received.append(signum)) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        if received:
            signal.raise_signal(received[0])  # now handled as it would have been
