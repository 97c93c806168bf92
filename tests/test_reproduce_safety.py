"""A run never writes into the repository's own folders, and Ctrl-C or SIGTERM stops it cleanly.

Refusals come before a kernel starts, in one line naming output_dir (-o), for every folder the
repository tracks, whether the directory is given as -o or as -p output_dir. An interrupted run
shuts its kernel down, removes its staging directory and leaves -o as it was.
"""

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from choosing_epsilon.harness import kernel, outputs, reproduce
from choosing_epsilon.harness.paths import ROOT, TRACKED_FOLDERS
from tests.runner_process import descendants, ended, start_runner


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def test_the_tracked_folders_are_those_git_tracks():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = {line.split("/")[0] for line in git("ls-files").splitlines() if "/" in line}
    assert set(TRACKED_FOLDERS) == tracked


def run_main(capsys, *argv):
    code = reproduce.main(list(argv))
    return code, capsys.readouterr().err.strip()


# every top-level folder, the root, folders deep inside, figures/ itself and another notebook's
PLACES = [
    *TRACKED_FOLDERS,
    ".",
    ".git",
    "lib/choosing_epsilon",
    "notebooks/new",
    "figures",
    "figures/hsu_2014",
    "figures/laplace_intro/sub",
]


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("how", ["-o", "-p output_dir"])
@pytest.mark.parametrize("params", [[], ["-p", "epsilon", "1.0"]], ids=["defaults", "epsilon 1"])
def test_no_run_writes_into_a_folder_the_repository_tracks(capsys, monkeypatch, place, how, params):
    monkeypatch.chdir(ROOT)
    before = git("status", "--porcelain", "--untracked-files=all")
    where = ["-o", place] if how == "-o" else ["-p", "output_dir", place]
    code, err = run_main(capsys, "laplace_intro", *params, *where)
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("error: output_dir (-o): ") and "runs/laplace_intro" in err, err
    assert git("status", "--porcelain", "--untracked-files=all") == before


@pytest.mark.parametrize("how", ["-o", "-p output_dir"])
def test_a_run_at_other_parameters_is_refused_in_its_notebooks_figures(capsys, monkeypatch, how):
    monkeypatch.chdir(ROOT / "notebooks")  # relative to where the command is typed
    where = (
        ["-o", "../figures/laplace_intro"]
        if how == "-o"
        else ["-p", "output_dir", "../figures/laplace_intro"]
    )
    code, err = run_main(capsys, "laplace_intro", "-p", "epsilon", "1.0", *where)
    assert code == 2 and "holds the committed run at the default parameters" in err
    assert "(epsilon)" in err and "-o ../runs/laplace_intro" in err, err


def test_figures_of_the_notebook_at_its_defaults_is_the_run_in_place():
    assert reproduce._output_dir("laplace_intro", {}, ROOT / "figures" / "laplace_intro") is None
    given = {"output_dir": "figures/laplace_intro"}
    assert reproduce._output_dir("laplace_intro", given, None) is None and given == {}


def test_the_output_directory_is_given_once(capsys, tmp_path):
    code, err = run_main(
        capsys, "laplace_intro", "-o", str(tmp_path / "a"), "-p", "output_dir", str(tmp_path / "b")
    )
    assert code == 2 and "output_dir: given twice" in err
    assert not list(tmp_path.iterdir())


def test_outside_the_repository_and_under_runs_a_run_is_allowed(tmp_path):
    for place in (tmp_path / "mine", ROOT / "runs" / "laplace_intro", ROOT / "other"):
        outputs.check_target(place, "laplace_intro", ["epsilon"])  # no error


# --- interrupting a run


@pytest.mark.notebook
@pytest.mark.skipif(sys.platform != "linux", reason="signals to a process group, as on Linux")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_stops_and_leaves_nothing_behind(tmp_path, sig):
    out = tmp_path / "out"
    out.mkdir()
    (out / "earlier.json").write_text('{"an earlier run": 1}')
    runner, temporary = start_runner(
        tmp_path, ["laplace_intro", "-p", "epsilon", "1.0", "-o", str(out)]
    )
    kernels = descendants(runner.pid)
    assert kernels, "no kernel is running"
    os.killpg(runner.pid, sig)  # what Ctrl-C does (SIGINT to the foreground group), or a kill
    _, err = runner.communicate(timeout=60)
    # stopped, not finished: a run that went on would end with 0 and its files in out
    assert runner.returncode == 128 + sig, err
    assert err.strip().splitlines()[-1].startswith(f"stopped by {sig.name}: every kernel shut down")
    psutil.wait_procs(kernels, timeout=10)
    assert all(ended(k) for k in kernels)
    assert sorted(p.name for p in out.iterdir()) == ["earlier.json"]
    assert (out / "earlier.json").read_text() == '{"an earlier run": 1}'
    assert not list(temporary.iterdir())  # no staging directory, no kernel connection file


@pytest.mark.notebook
@pytest.mark.skipif(sys.platform != "linux", reason="signals to a process group, as on Linux")
def test_sigterm_to_the_runner_alone_stops_every_worker(tmp_path):
    # two notebooks in two worker processes; the signal reaches the runner only, which passes it on
    names = ["laplace_intro", "mugunthan_poster"]
    runner, temporary = start_runner(
        tmp_path, [*names, "-j", "2", "-p", "seed", "3", "-o", str(tmp_path / "out")]
    )
    kernels = descendants(runner.pid)
    runner.send_signal(signal.SIGTERM)
    _, err = runner.communicate(timeout=60)
    assert runner.returncode == 128 + signal.SIGTERM, err
    psutil.wait_procs(kernels, timeout=10)
    assert all(ended(k) for k in kernels)
    finished = [n for n in names if (tmp_path / "out" / n / f"{n}.ipynb").exists()]
    for name in set(names) - set(finished):  # a notebook that had not finished wrote nothing
        assert not (tmp_path / "out" / name).exists()
    assert not list(temporary.iterdir())
    shutil.rmtree(tmp_path / "out", ignore_errors=True)


@pytest.mark.notebook
@pytest.mark.skipif(os.name != "posix", reason="IPC sockets are Unix sockets")
def test_a_run_prints_nothing_a_reader_did_not_ask_for_and_leaves_no_socket():
    """The kernel runs over IPC sockets in a directory of its own (in TMPDIR when it is short):
    no warning from the kernel's start-up on the runner's stderr, and the directory is gone when
    the run ends."""
    import tempfile

    with tempfile.TemporaryDirectory(dir="/tmp") as short:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "choosing_epsilon.harness.reproduce",
                "shoaran_2012",
                "-o",
                str(Path(short) / "out"),
            ],
            cwd=ROOT,
            env={**os.environ, "TMPDIR": short},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        assert "WARNING" not in run.stderr and "IPKernelApp" not in run.stderr, run.stderr
        assert [p.name for p in Path(short).iterdir()] == ["out"]


def test_without_a_short_socket_path_the_kernel_runs_over_tcp_with_errors_only(monkeypatch):
    import contextlib

    monkeypatch.setattr(kernel, "_socket_prefix", lambda stack: None)
    with contextlib.ExitStack() as stack:
        manager, arguments = kernel._kernel(stack)
        directory = Path(manager.connection_file).parent
        assert directory.name.startswith("choosing-epsilon-kernel-")
        assert (directory.stat().st_mode & 0o777) == 0o700
    assert manager.transport == "tcp" and "--IPKernelApp.log_level=ERROR" in arguments
    assert not directory.exists()  # with the connection file in it


def test_the_kernel_runs_over_ipc_where_a_short_socket_path_exists():
    import contextlib

    with contextlib.ExitStack() as stack:
        manager, arguments = kernel._kernel(stack)
        # the connection file beside the sockets, in the directory the run removes
        assert Path(manager.connection_file).parent == Path(manager.ip).parent
    assert manager.transport == "ipc" and "--IPKernelApp.log_level=ERROR" in arguments
    assert not Path(manager.ip).parent.exists()


def test_the_socket_directory_is_private_and_short_and_removed(tmp_path):
    import contextlib

    with contextlib.ExitStack() as stack:
        prefix = kernel._socket_prefix(stack)
        assert prefix is not None
        directory = Path(prefix).parent
        assert directory.is_dir() and (directory.stat().st_mode & 0o777) == 0o700
        assert len(os.fsencode(prefix)) + len("-65535") < kernel.SOCKET_PATH_BYTES
    assert not directory.exists()


@pytest.mark.notebook
@pytest.mark.parametrize("transport", ["ipc", "tcp"])
def test_a_run_leaves_nothing_in_tmpdir_even_when_jupyter_client_keeps_its_files(
    tmp_path, monkeypatch, transport
):
    """jupyter_client removes the kernel's connection file when it shuts the kernel down; a run
    that stopped at an unlucky moment once found it still in TMPDIR (CI, SIGTERM). Here its
    clean-up removes nothing at all, and the run still leaves TMPDIR as it found it."""
    import tempfile

    import nbformat
    from jupyter_client.manager import AsyncKernelManager

    temporary = tmp_path / "t"  # short: the sockets go in TMPDIR itself
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    monkeypatch.setattr(AsyncKernelManager, "cleanup_connection_file", lambda self: None)
    monkeypatch.setattr(AsyncKernelManager, "cleanup_ipc_files", lambda self: None)
    if transport == "tcp":
        monkeypatch.setattr(kernel, "_socket_prefix", lambda stack: None)
    notebook = tmp_path / "one.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")]), notebook)
    work = tmp_path / "work"
    work.mkdir()
    kernel.execute(notebook, work / "one.ipynb", workdir=work)
    assert nbformat.read(work / "one.ipynb", as_version=4).cells[0].outputs  # the kernel ran it
    assert not list(temporary.iterdir())


@pytest.mark.notebook
@pytest.mark.parametrize(
    "transport, quiet", [("ipc", True), ("tcp", True), ("tcp", False)], ids=["ipc", "tcp", "loud"]
)
def test_a_runner_run_shows_no_kernel_warning(tmp_path, capfd, monkeypatch, transport, quiet):
    """A run of the runner's own ``execute``, its output captured at the file descriptors (the
    kernel's log goes to the stderr it inherits): no kernel warning over IPC sockets, nor over
    TCP with the kernel's log limited to errors. The capture does see the kernel: with its log
    left at warnings, over TCP, the warning is there."""
    import nbformat

    if transport == "tcp":
        monkeypatch.setattr(kernel, "_socket_prefix", lambda stack: None)
    if not quiet:
        monkeypatch.setattr(kernel, "QUIET", [])
    notebook = tmp_path / "one.ipynb"
    cell = nbformat.v4.new_code_cell("print(1 + 1)")
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), notebook)
    work = tmp_path / "work"
    work.mkdir()
    capfd.readouterr()
    kernel.execute(notebook, work / "one.ipynb", workdir=work)
    out, err = capfd.readouterr()
    ran = nbformat.read(work / "one.ipynb", as_version=4).cells[0].outputs
    assert ran and ran[0]["text"] == "2\n"  # the kernel ran the cell
    noise = ("IPKernelApp", "WARNING", "without encryption", "Parent appears to have exited")
    if quiet:
        assert [n for n in noise if n in out + err] == [], out + err
    else:
        assert "Kernel is running over TCP without encryption" in err
