"""Stopping a run on a signal (``harness.interruption``): the first SIGINT or SIGTERM raises
``Interrupted`` with the exit status a shell expects, later ones do nothing while the run cleans
up, and a step run under ``signals_deferred`` finishes before a signal that arrived during it takes
effect. Each signal is sent to this process by ``os.kill``, as Ctrl-C or ``kill`` would send it."""

import os
import pickle
import signal
import threading
import time
import warnings

import pytest

from choosing_epsilon.harness.interruption import (
    SIGNALS,
    Interrupted,
    signals_deferred,
    stop_on_signals,
)

pytestmark = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="signal handlers are set in the main thread only",
)


@pytest.fixture(autouse=True)
def _handlers_restored():
    """Leave the process's signal handlers and warning filters as the test found them."""
    previous = {s: signal.getsignal(s) for s in SIGNALS}
    with warnings.catch_warnings():
        yield
    for s, handler in previous.items():
        signal.signal(s, handler)


def _send(signum):
    """Send ``signum`` to this process and give its handler the moment it may need to run in the
    main thread (it runs at once when the signal reaches that thread)."""
    os.kill(os.getpid(), signum)
    for _ in range(20):
        time.sleep(0.01)


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_exits_with_128_plus_the_signal(signum, status):
    stop = Interrupted(signum)
    assert isinstance(stop, SystemExit)  # not caught by `except Exception` in a clean-up
    assert not isinstance(stop, Exception)
    assert stop.code == status and stop.signum == signum
    assert stop.name == signal.Signals(signum).name
    # a worker process hands it back to the runner with its signal
    back = pickle.loads(pickle.dumps(stop))
    assert type(back) is Interrupted
    assert (back.signum, back.code, back.name) == (signum, status, stop.name)


@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_the_first_signal_raises_interrupted(signum):
    stop_on_signals()
    with pytest.raises(Interrupted) as stopped:
        _send(signum)
    assert stopped.value.signum == signum
    assert stopped.value.code == 128 + signum


def test_later_signals_leave_the_clean_up_alone():
    stop_on_signals()
    with pytest.raises(Interrupted):
        _send(signal.SIGINT)
    cleaned = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        _send(signum)  # the run is already stopping: nothing is raised
        cleaned.append(signum)
    assert cleaned == [signal.SIGTERM, signal.SIGINT]
    # a handler that returns, not SIG_IGN (see _interrupt), and no longer the one that raises
    for s in SIGNALS:
        handler = signal.getsignal(s)
        assert handler not in (signal.SIG_IGN, signal.SIG_DFL)
        assert handler(s, None) is None  # _interrupt would raise here


def test_a_signal_inherited_as_ignored_stops_the_run_all_the_same():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as a job started with & by a script
    stop_on_signals()
    with pytest.raises(Interrupted) as stopped:
        _send(signal.SIGTERM)
    assert stopped.value.name == "SIGTERM"


def test_the_warning_of_a_coroutine_cut_short_is_silenced_and_no_other():
    warnings.simplefilter("always")
    stop_on_signals()
    with pytest.raises(Interrupted):
        _send(signal.SIGINT)
    with warnings.catch_warnings(record=True) as caught:
        cut_short = "coroutine 'run_sync.<locals>.wrapped' was never awaited"
        warnings.warn(cut_short, RuntimeWarning, stacklevel=1)
        warnings.warn("another runtime warning", RuntimeWarning, stacklevel=1)
    assert [str(w.message) for w in caught] == ["another runtime warning"]


@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_a_signal_inside_the_block_takes_effect_when_it_exits(signum):
    stop_on_signals()
    steps = []
    with pytest.raises(Interrupted) as stopped:
        with signals_deferred():
            _send(signum)
            steps.append("the step ran to its end")
        steps.append("after the block")  # never reached: the signal takes effect at the exit
    assert steps == ["the step ran to its end"]
    assert stopped.value.signum == signum


def test_of_two_signals_inside_the_block_the_first_takes_effect():
    stop_on_signals()
    with pytest.raises(Interrupted) as stopped, signals_deferred():
        _send(signal.SIGTERM)
        _send(signal.SIGINT)
    assert stopped.value.signum == signal.SIGTERM


def test_a_deferred_signal_is_handled_as_it_would_have_been():
    # without stop_on_signals, Python's own SIGINT handler: KeyboardInterrupt, after the step
    signal.signal(signal.SIGINT, signal.default_int_handler)
    steps = []
    with pytest.raises(KeyboardInterrupt), signals_deferred():
        _send(signal.SIGINT)
        steps.append("done")
    assert steps == ["done"]


def test_without_a_signal_the_block_restores_the_handlers_and_raises_nothing():
    stop_on_signals()
    before = {s: signal.getsignal(s) for s in SIGNALS}
    with signals_deferred():
        during = {s: signal.getsignal(s) for s in SIGNALS}
    assert {s: signal.getsignal(s) for s in SIGNALS} == before
    assert all(during[s] is not before[s] for s in SIGNALS)  # deferring handlers meanwhile
    with pytest.raises(Interrupted):  # and they act again once the block is left
        _send(signal.SIGINT)


def test_an_exception_inside_the_block_restores_the_handlers():
    stop_on_signals()
    before = {s: signal.getsignal(s) for s in SIGNALS}
    with pytest.raises(RuntimeError, match="the step failed"), signals_deferred():
        raise RuntimeError("the step failed")
    assert {s: signal.getsignal(s) for s in SIGNALS} == before


def test_in_another_thread_the_block_changes_nothing():
    # signal.signal may be called from the main thread only: outside it the block just runs
    stop_on_signals()
    before = {s: signal.getsignal(s) for s in SIGNALS}
    seen, failed = [], []

    def step():
        try:
            with signals_deferred():
                seen.append({s: signal.getsignal(s) for s in SIGNALS})
        except BaseException as error:
            failed.append(error)

    worker = threading.Thread(target=step)
    worker.start()
    worker.join()
    assert failed == []
    assert seen == [before]
