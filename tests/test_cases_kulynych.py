"""kulynych_2024 at parameters a reader would try: a DP-SGD grid that is not stored is computed (and
the paper's rows become not applicable), and bad values are refused in one line before a kernel
starts."""

import contextlib
import json
import math
import signal
import sys
import time

import pandas as pd
import psutil
import pytest

from choosing_epsilon import calibration as cal
from choosing_epsilon import dpsgd, privacy_loss
from choosing_epsilon.harness import parameters, reproduce
from choosing_epsilon.harness.paths import PUBLISHED
from choosing_epsilon.papers.kulynych_2024 import forensics
from tests.notebook_text import assert_files_bounded, outputs_text
from tests.runner_process import descendants, ended, start_runner, stop

NAME = "kulynych_2024"
GRID_ROWS = ["sec31_noise_up_to_3p5x", "abstract_noise_up_to_2x"]

# DP-SGD settings a reader tries (issue 54): none is stored, so each run computes its whole grid
# (the later grid's nine advantages too), its calibration to single out one of 10 and riskcal's
# curve beside the direct one
READER_SETTINGS = {
    # ε* = 0.008 (the later grid's advantage 0.004 at δ = 1e-10) needs σ near 47: out of reach of
    # the paper's grid of 1e-4, which is coarser than one step's loss there (dpsgd.dpsgd_grid)
    "small rate, many steps, delta 1e-10": {
        "sample_rate": 0.0005,
        "num_steps": 20000,
        "delta": 1e-10,
        "advantage_targets": [0.05],
        "fpr_targets": [0.01],
        "tpr_targets": [0.2],
    },
    "rate 0.01, 100 steps": {
        "sample_rate": 0.01,
        "num_steps": 100,
        "advantage_targets": [0.1],
        "fpr_targets": [0.05],
        "tpr_targets": [0.3],
    },
    "targets from 0.01 to 0.9 at FPR 0.001": {
        "advantage_targets": [0.01, 0.3],
        "fpr_targets": [0.001],
        "tpr_targets": [0.01, 0.9],
    },
    # ε* = 0.008 needs σ near 470 here: beyond the fixed ladder's 304 of before
    "rate 0.5, 10 steps": {"sample_rate": 0.5, "num_steps": 10},
    "delta 1e-12": {"delta": 1e-12},
}
# dp-accounting's ε at a small δ is not monotone in σ at the search's tolerance. At δ = 1e-12 it
# moves by about 1e-3 relative between neighbouring σ (0.40509 at 0.9998 σ against 0.40547 at
# σ = 1.7552, where the goal is 0.40547); at the first setting's δ = 1e-10 (q = 0.0005,
# T = 20,000), by about 2e-3: ε is 2.9901, 2.9884, 2.9951, 2.9906, 2.9956 and 2.9935 at σ = 0.68839
# and 1 to 5 × 4e-5 below it, and the library's own composition reads the same to 1e-6. So the least
# σ that meets the goal is defined only to that jitter. There the standard route's noise is checked
# on the safe side (the goal met at σ, read anew) and for tightness to JITTERED_SPAN: 1% less noise
# exceeds the goal (at that σ, ε = 3.107 there, 3.7% more, far beyond the jitter), rather than
# 2 × the tolerance less; every other check holds
JITTERY_EPSILON = {"delta 1e-12", "small rate, many steps, delta 1e-10"}
JITTERED_SPAN = 0.01


def _read_back(setting: dpsgd.DpsgdSetting, kind: str, sigma: float, fpr: float | None) -> float:
    """The risk at ``sigma`` from a privacy loss distribution composed anew (nothing kept)."""
    dpsgd._composed.cache_clear()
    return dpsgd.DpsgdAccountant(setting).measure(kind, sigma, fpr)


def _fails_just_below(
    setting: dpsgd.DpsgdSetting, kind: str, sigma: float, fpr: float | None, goal: float
) -> bool:
    """Whether some σ within 2 × the tolerance below ``sigma`` exceeds ``goal``: the noise found
    is no more than needed. Read first at the far end of that span; where the accountant's
    readings are not monotone in σ (ε at δ = 1e-12 moves by about 1e-3 relative between
    neighbouring σ), a smaller σ can meet the goal while one between fails, and the calibration
    returns the least σ above the last that fails, so the span is read at five points."""
    span = 2 * cal.CALIBRATION_RTOL
    return any(
        _read_back(setting, kind, sigma * (1 - span * j / 5), fpr) > goal for j in (5, 1, 2, 3, 4)
    )


@pytest.mark.notebook
@pytest.mark.parametrize("label", list(READER_SETTINGS))
def test_a_readers_dpsgd_setting_runs_and_each_noise_meets_its_target(label, tmp_path):
    """The run ends, computes every row of its grid (none is stored), reports the paper's grid
    claims as not applicable, and each calibration holds: every σ's risk, as the run records it,
    at least the accountant's margin below its target; standard calibration never less noise than
    the attack-aware; and the largest noise of each kind read back from a privacy loss
    distribution composed anew, from both sides (at most the target at σ, above it with
    2 × the tolerance less noise)."""
    params = READER_SETTINGS[label]
    reproduce.run_notebook(NAME, params, tmp_path)
    results = json.loads((tmp_path / "results.json").read_text())
    v = parameters.committed_values(NAME) | params
    setting, wanted = forensics.grid_request(
        v["sample_rate"],
        v["num_steps"],
        v["delta"],
        [*v["advantage_targets"], *v["later_advantage_targets"]],
        v["fpr_targets"],
        v["tpr_targets"],
    )
    grid = pd.read_csv(tmp_path / "dpsgd_calibrations.csv")
    assert results["grid_rows_reused"] == 0
    assert len(grid) == len(wanted)
    margins = forensics.margins(grid)
    assert (margins.aware >= privacy_loss.ACCOUNTANT_MARGIN).all(), margins.aware.min()
    assert (margins.standard >= privacy_loss.ACCOUNTANT_MARGIN).all(), margins.standard.min()
    assert results["smallest_margin_aware"] >= privacy_loss.ACCOUNTANT_MARGIN
    assert (grid.noise_ratio >= 1 - 2 * cal.CALIBRATION_RTOL).all()
    for kind, part in grid.groupby("kind"):
        row = part.loc[part.sigma_aware.idxmax()]
        fpr = None if kind == "advantage" else float(row.fpr)
        goal = row.target - privacy_loss.ACCOUNTANT_MARGIN
        assert _read_back(setting, kind, row.sigma_aware, fpr) <= goal
        assert _fails_just_below(setting, kind, row.sigma_aware, fpr, goal)
        goal = row.epsilon_target - privacy_loss.ACCOUNTANT_MARGIN
        assert _read_back(setting, "epsilon", row.sigma_standard, None) <= goal
        if label not in JITTERY_EPSILON:
            assert _fails_just_below(setting, "epsilon", row.sigma_standard, None, goal)
        else:
            less = row.sigma_standard * (1 - JITTERED_SPAN)
            assert _read_back(setting, "epsilon", less, None) > goal
    singling = results["singling_out"]
    assert singling["sigma_attained"] <= singling["sigma_bound"]
    assert singling["sigma_bound"] <= singling["sigma_standard"] * (1 + 2 * cal.CALIBRATION_RTOL)
    assert singling["success_attained"] <= v["max_singling_out"]
    assert math.isfinite(results["largest_ratio_advantage"]) and results["largest_ratio_tpr"] > 1
    status = pd.read_csv(tmp_path / "claims.csv").set_index("claim_id").status
    assert len(status) == len(pd.read_csv(PUBLISHED / f"{NAME}.csv"))
    assert set(status[GRID_ROWS]) == {"not applicable"}
    assert set(status.drop(GRID_ROWS)) <= {"reproduced", "discrepancy", "note", "not applicable"}
    assert_files_bounded(tmp_path)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"advantage_targets": [1e-6]}, "must exceed delta"),
        ({"gap_fpr": 0.3}, "gap_fpr"),
        ({"sample_rate": 1.5}, "sample_rate"),
        ({"num_steps": 0}, "num_steps"),
    ],
)
def test_bad_values_are_refused_before_a_kernel_starts(params, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        reproduce.check_request(NAME, params, tmp_path)


@pytest.mark.notebook
def test_singling_out_below_chance_is_not_applicable_and_the_rest_runs(tmp_path):
    """A chance to single out one of 2 of at most 0.4 is below a guess at random (1/2): no noise
    meets it, so the section says so and computes nothing; every other section runs as committed
    (the stored grid is reused)."""
    reproduce.run_notebook(NAME, {"singling_out_among": 2, "max_singling_out": 0.4}, tmp_path)
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["singling_out"] == {
        "not_applicable": "a guess at random names the right one of 2 with chance 1/2, whatever "
        "the noise: max_singling_out must exceed 0.5"
    }
    assert results["grid_rows_reused"] > 0
    text = outputs_text(tmp_path / f"{NAME}.ipynb")
    assert "not applicable: a guess at random names the right one of 2" in text
    assert "riskcal reads the TPR " in text  # below the curve, at every FPR of the run


@pytest.mark.notebook
def test_a_target_no_noise_of_the_search_meets_is_not_applicable_and_the_run_ends(tmp_path):
    """One step at sampling rate 0.5 gives an advantage below 0.5 whatever the noise (the record
    is left out half the time), so an advantage of 0.6 is met at every σ down to the least the
    search tries: its row says why it is not applicable, in the grid's table and in results.json,
    and every other row is calibrated as usual."""
    params = {
        "sample_rate": 0.5,
        "num_steps": 1,
        "advantage_targets": [0.05, 0.6],
        "later_advantage_targets": [0.1],
        "tpr_targets": [0.3],
    }
    reproduce.run_notebook(NAME, params, tmp_path)  # raises if the run fails
    results = json.loads((tmp_path / "results.json").read_text())
    why = results["noise_ratio_advantage"]["0.6"]
    assert why.startswith("not applicable: attack-aware calibration: the target is met at every σ")
    assert math.isfinite(results["noise_ratio_advantage"]["0.05"])
    grid = pd.read_csv(tmp_path / "dpsgd_calibrations.csv")
    unmet = grid[grid.not_applicable.notna()]
    assert list(unmet.target) == [0.6] and unmet.sigma_aware.isna().all()
    margins = forensics.margins(grid[grid.not_applicable.isna()])
    assert (margins.aware >= privacy_loss.ACCOUNTANT_MARGIN).all()
    assert (margins.standard >= privacy_loss.ACCOUNTANT_MARGIN).all()
    text = outputs_text(tmp_path / f"{NAME}.ipynb")
    assert "advantage 0.6: not applicable: attack-aware calibration: the target is met" in text


def _pool_workers(pid: int) -> list[psutil.Process]:
    """The processes of the DP-SGD grid's pool (``forensics.compute``, spawned by the kernel)."""
    workers = []
    for child in descendants(pid):
        with contextlib.suppress(psutil.NoSuchProcess):
            if "multiprocessing.spawn" in " ".join(child.cmdline()):
                workers.append(child)
    return workers


@pytest.mark.notebook
@pytest.mark.skipif(sys.platform != "linux", reason="signals to a process group, as on Linux")
@pytest.mark.parametrize(
    "sig, to_group",
    [(signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["Ctrl-C", "SIGTERM to the runner"],
)
def test_a_run_stopped_while_its_grid_is_computed_in_two_processes_stops_them(
    tmp_path, sig, to_group
):
    """Ctrl-C (SIGINT to the terminal's group: runner, kernel and the pool alike) or SIGTERM to
    the runner alone while the kernel and its pool compute a grid that is not stored: the run
    stops with 128 + the signal's number, one line and no traceback, and no process of the run
    (kernel or pool) is left."""
    setting = READER_SETTINGS["rate 0.01, 100 steps"]
    argv = [a for name, value in setting.items() for a in ("-p", name, json.dumps(value))]
    runner, _ = start_runner(tmp_path, [NAME, *argv, "-o", str(tmp_path / "out")])
    deadline = time.monotonic() + 180
    # the kernel computes one chain of the grid and its pool the other
    while not (workers := _pool_workers(runner.pid)):
        assert runner.poll() is None, runner.communicate()
        assert time.monotonic() < deadline, "the grid's second process never started"
        time.sleep(0.1)
    every = descendants(runner.pid)
    stop(runner, sig, to_group)
    _, err = runner.communicate(timeout=60)
    assert runner.returncode == 128 + sig, err
    assert err.strip().splitlines()[-1].startswith(f"stopped by {sig.name}: every kernel shut down")
    assert "Traceback" not in err, err
    _, alive = psutil.wait_procs(every, timeout=30)
    assert not alive, f"left running: {[p.cmdline() for p in alive]}"
    assert all(ended(w) for w in workers)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
