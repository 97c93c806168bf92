"""make bench: how epsilon_for_risk scales, the Monte Carlo throughput, and make reproduce
against its floor.

Run with `make bench`; nothing here is part of `make test`, and nothing asserts a time. The
measurements are written to figures/benchmarks/ (CSV, and a scaling figure) by the last test.
"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import nbformat
import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon.harness import kernel, reproduce
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS, ROOT
from choosing_epsilon.plots import figures
from tests.benchmarks import figure as bench_plots
from tests.test_test_files import package_modules

# several measurements start kernels (conftest refuses that in a test not marked notebook)
pytestmark = pytest.mark.notebook
OUT = FIGURES / "benchmarks"
RESULTS: dict[str, list[dict]] = {
    "scaling": [],
    "monte_carlo": [],
    "reproduce": [],
    "memory": [],
    "notebook_at_size": [],
    "unique_floor": [],
}
SIZES = [10**3, 3 * 10**3, 10**4, 10**5, 10**6, 10**7]
BRUTE_MAX = 3000


def database(n: int) -> np.ndarray:
    values = np.random.default_rng(n).normal(size=n)
    values[0] = 400.0  # one outlier, as the paper's astronaut alumni
    return values


def brute_force_exact(values: np.ndarray, rho: float) -> float:
    """Every world against every world (O(n^2) per ε), and bisection: the definition, with no
    shortcut."""
    answers = np.array([np.delete(values, j).mean() for j in range(values.size)])
    sens = 0.0
    for j in range(values.size):  # every world Y and every row t of it: |f(Y) - f(Y - t)|
        world = np.delete(values, j)
        without_t = (world.sum() - world) / (
            world.size - 1
        )  # the mean of Y - t, for every t at once
        sens = max(sens, float(np.max(np.abs(world.mean() - without_t))))
    distance = np.abs(answers[:, None] - answers[None, :])

    def risk(eps: float) -> float:
        return float(np.max(1 / np.exp(-eps / sens * distance).sum(axis=1)))

    lo, hi = 0.0, 1.0
    while risk(hi) <= rho:
        lo, hi = hi, 2 * hi
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if risk(mid) <= rho else (lo, mid)
    return lo


@pytest.mark.parametrize("n", SIZES)
def test_epsilon_for_risk_scaling(benchmark, n):
    values = database(n)
    pw.epsilon_for_risk(values[:50], 0.5, "mean")  # compile once, outside the timing
    result = benchmark.pedantic(
        pw.epsilon_for_risk, args=(values, 0.5, "mean"), rounds=3 if n < 10**7 else 1, iterations=1
    )
    sort_time = min(_timed(np.sort, values) for _ in range(3))
    row = {
        "n": n,
        "seconds": benchmark.stats.stats.min,
        "sort_seconds": sort_time,
        "exact": result.exact,
    }
    row["ratio_to_sort"] = row["seconds"] / sort_time
    if n <= BRUTE_MAX:
        start = time.perf_counter()
        reference = brute_force_exact(values, 0.5)
        row["brute_force_seconds"] = time.perf_counter() - start
        row["brute_force_exact"] = reference
        row["relative_difference"] = abs(result.exact - reference) / reference
    RESULTS["scaling"].append(row)


# rounds of the exact ε and of its floor, interleaved: the least of each is the least disturbed
FLOOR_ROUNDS = 7


def test_exact_epsilon_against_the_unique_floor():
    """Lee & Clifton's exact ε for the mean of 10⁶ values in memory against the class building it
    cannot avoid, ``np.unique(values, return_counts=True)`` on the same values: the least wall and
    CPU time of each over interleaved rounds, and their ratio (nothing is asserted)."""
    values = database(10**6)
    pw.epsilon_for_risk(values[:50], 0.5, "mean")  # compile once, outside the timing
    runs = {"exact": [], "unique": []}
    for _ in range(FLOOR_ROUNDS):
        runs["unique"].append(_own_times(np.unique, values, return_counts=True))
        runs["exact"].append(_own_times(pw.epsilon_for_risk, values, 0.5, "mean"))
    row = {"n": values.size, "exact": pw.epsilon_for_risk(values, 0.5, "mean").exact}
    for name, times in runs.items():
        row[f"{name}_seconds"] = min(wall for wall, _ in times)
        row[f"{name}_cpu_seconds"] = min(cpu for _, cpu in times)
    row["ratio"] = row["exact_seconds"] / row["unique_seconds"]
    row["cpu_ratio"] = row["exact_cpu_seconds"] / row["unique_cpu_seconds"]
    RESULTS["unique_floor"].append(row)
    print(json.dumps(row, indent=2))


def _own_times(function, *args, **kwargs) -> tuple[float, float]:
    """Wall and CPU time of this process for one call."""
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    function(*args, **kwargs)
    return time.perf_counter() - start_wall, time.process_time() - start_cpu


MEMORY_SCRIPT = """
from pathlib import Path
from tests.benchmarks.bench_scaling import database
from choosing_epsilon import possible_worlds as pw
values = database({n})
if {call}:
    pw.epsilon_for_risk(values, 0.5, "mean")
# this process's peak resident memory, in kB (ru_maxrss would report the parent's peak if higher)
status = Path("/proc/self/status").read_text().splitlines()
print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
"""


def test_epsilon_for_risk_peak_memory():
    # each in a fresh process, so that the peak is this call's: with the call, and the same process
    # without it
    n = SIZES[-1]
    peak = {}
    for call in (True, False):
        run = subprocess.run(
            [sys.executable, "-c", MEMORY_SCRIPT.format(n=n, call=call)],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        )
        peak[call] = int(run.stdout.split()[-1]) / 1024
    RESULTS["memory"].append(
        {"n": n, "peak_rss_mb": peak[True], "peak_rss_mb_without_the_call": peak[False]}
    )


def test_monte_carlo_throughput(benchmark):
    answers = np.array([2, 13 / 3, 14 / 3, 5])
    benchmark.pedantic(
        pw.simulate_adversary,
        args=(answers, 0, 17 / 6, 2.0, 10**6, np.random.default_rng(0)),
        rounds=3,
        iterations=1,
    )
    RESULTS["monte_carlo"].append(
        {
            "releases": 10**6,
            "seconds": benchmark.stats.stats.min,
            "releases_per_second": 10**6 / benchmark.stats.stats.min,
        }
    )


def test_shoaran_privacy_check_with_twenty_queries(benchmark):
    # Shoaran et al.'s Sec. 6 check over 3^20 neighbouring databases: per-query sums (DIFF) and a
    # search (proportional)
    from choosing_epsilon import relative_error as rel

    m = 20
    q, d, g = np.tile([3000.0, 30000.0, 300.0], 7)[:m], np.ones(m), np.tile([1.0, 10.0, 0.1], 7)[:m]
    benchmark.pedantic(
        lambda: (
            rel.diff_worst_log_ratio(q, d, g, 0.01, 100.0),
            rel.proportional_worst_log_ratio(q, d, g, 0.01, 100.0),
        ),
        rounds=3,
        iterations=1,
    )


def test_hsu_exact_study_size_at_a_tiny_error(benchmark):
    # Hsu et al.'s exact study size where the sampling error alone needs N ~ 10^8 (hsu_2014 at error
    # = 1e-4)
    from choosing_epsilon import economics as econ

    def sizes():
        econ._binomial.cache_clear()
        return [econ.smallest_true_n(e, 1e-4, 0.1) for e in (0.003, 0.03, 0.9)]

    benchmark.pedantic(sizes, rounds=3, iterations=1)


def test_lee_clifton_notebook_at_10000_rows(benchmark, tmp_path):
    # the notebook at a database of 10,000 rows: its outputs stay bounded (the checks of
    # test_cases_lee_clifton at 3 and 1,000 rows), and the run takes about half a minute
    from tests.test_cases_lee_clifton import check_bounded_outputs, database

    path = database(tmp_path, 10_000)
    out = tmp_path / "run"
    params = {"data_path": str(path), "absent": "P1"}
    benchmark.pedantic(reproduce.run_notebook, ("lee_clifton_2011", params, out), rounds=1)
    check_bounded_outputs(out, path)
    RESULTS["notebook_at_size"].append({"rows": 10_000, "seconds": benchmark.stats.stats.mean})


# the machines this runs on are shared: the median of interleaved runs is steadier than one run
REPEATS = 3


# The same notebooks with every figure built but closed instead of drawn, saved and shown: how much
# of the
# time above the floor is the figures' (a diagnostic; the target compares make reproduce itself).
FIGURES_NOT_DRAWN = (
    "import choosing_epsilon.plots.figures as _figures, matplotlib.pyplot as _plt\n"
    "_figures.save_and_show = lambda fig, *args, **kwargs: _plt.close(fig)"
)


# the floors: as many notebooks, run the same way, that start a kernel and import, and do nothing
# else. The light one imports numpy, pandas, scipy.stats, matplotlib and one module of the package
# (about what each notebook's own imports cost); the package floor, the baseline docs/running.md's
# target names, imports numpy, pandas, scipy, matplotlib and every public module of the package
# (more than any notebook imports: the runner, the site's scrubbers, every paper's modules)
LIGHT_FLOOR = (
    "import matplotlib.pyplot, numpy, pandas, scipy.stats\nimport choosing_epsilon.possible_worlds"
)


def public_modules() -> list[str]:
    """Every public module of the package (no part of its name starting with _, no precompute
    script); importing them imports their packages too."""
    return sorted(
        name
        for name in package_modules()
        if not any(part.startswith("_") for part in name.split(".")) and ".precompute" not in name
    )


def _floor_notebooks(folder: Path, names: list[str], cell: str) -> list[tuple[str, dict | None]]:
    """One notebook per name in ``folder``, its only cell ``cell``: runs for ``_run_pool``."""
    folder.mkdir()
    for name in names:
        nbformat.write(
            nbformat.v4.new_notebook(
                cells=[nbformat.v4.new_code_cell(cell)],
                metadata={
                    "kernelspec": {
                        "name": "python3",
                        "language": "python",
                        "display_name": "Python 3",
                    }
                },
            ),
            folder / f"{name}.ipynb",
        )
    return [(str(folder / f"{name}.ipynb"), None) for name in names]


def test_reproduce_against_its_floor(tmp_path):
    names = reproduce.notebook_names()
    floor_runs = _floor_notebooks(tmp_path / "floor", names, LIGHT_FLOOR)
    package_cell = "import matplotlib.pyplot, numpy, pandas, scipy\n" + "\n".join(
        f"import {module}" for module in public_modules()
    )
    package_runs = _floor_notebooks(tmp_path / "package_floor", names, package_cell)
    undrawn_dir = tmp_path / "figures_not_drawn"
    undrawn_dir.mkdir()
    for name in names:
        undrawn = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
        undrawn.cells.insert(0, nbformat.v4.new_code_cell(FIGURES_NOT_DRAWN))
        nbformat.write(undrawn, undrawn_dir / f"{name}.ipynb")
    jobs = min(len(names), os.cpu_count() or 1)  # as many workers as the runner uses
    longest_first = sorted(names, key=lambda n: -reproduce._code_lines(n))  # the runner's order
    undrawn_runs = [
        (str(undrawn_dir / f"{n}.ipynb"), {"output_dir": str(tmp_path / "undrawn_out" / n)})
        for n in longest_first
    ]
    for repeat in range(REPEATS):
        (full, full_cpu), done = _measured(reproduce.run_all, names, {}, tmp_path / f"run{repeat}")
        (floor, floor_cpu), _ = _measured(_run_pool, floor_runs, jobs)
        (package, package_cpu), _ = _measured(_run_pool, package_runs, jobs)
        (undrawn, undrawn_cpu), _ = _measured(_run_pool, undrawn_runs, jobs)
        RESULTS["reproduce"].append(
            {
                "repeat": repeat,
                "notebooks": len(names),
                "reproduce_seconds": full,
                "floor_seconds": floor,
                "ratio": full / floor,
                "reproduce_cpu_seconds": full_cpu,
                "floor_cpu_seconds": floor_cpu,
                "cpu_ratio": full_cpu / floor_cpu,
                "package_floor_seconds": package,
                "package_ratio": full / package,
                "package_floor_cpu_seconds": package_cpu,
                "package_cpu_ratio": full_cpu / package_cpu,
                "figures_not_drawn_seconds": undrawn,
                "figures_not_drawn_ratio": undrawn / floor,
                "figures_not_drawn_cpu_seconds": undrawn_cpu,
                "figures_not_drawn_cpu_ratio": undrawn_cpu / floor_cpu,
            }
            | {f"seconds_{name}": seconds for name, _, seconds in done}
        )


def _measured(function, *args) -> tuple[tuple[float, float], object]:
    """Wall time, and CPU time of the child processes (workers and their kernels) reaped
    meanwhile, and the result."""

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start_wall, start_cpu = time.perf_counter(), cpu()
    result = function(*args)
    return (time.perf_counter() - start_wall, cpu() - start_cpu), result


def _run_pool(runs: list[tuple[str, dict | None]], jobs: int) -> None:
    """Notebooks (path, parameters) in a pool of ``jobs`` workers, shut down (and so counted)
    before returning."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_pool_run, runs))


def _pool_run(run: tuple[str, dict | None]) -> None:
    path, parameters = run
    kernel.execute(Path(path), Path(path), parameters)  # the same papermill call as the runner's


def test_write_report():
    OUT.mkdir(parents=True, exist_ok=True)
    scaling = pd.DataFrame(RESULTS["scaling"]).sort_values("n")
    large = scaling[scaling.n >= 10**5]
    exponent = (
        float(np.polyfit(np.log(large.n), np.log(large.seconds), 1)[0])
        if len(large) >= 2
        else math.nan
    )
    scaling.to_csv(OUT / "scaling.csv", index=False, float_format="%.6g", lineterminator="\n")
    pd.DataFrame(RESULTS["monte_carlo"]).to_csv(
        OUT / "monte_carlo.csv", index=False, float_format="%.6g", lineterminator="\n"
    )
    pd.DataFrame(RESULTS["reproduce"]).to_csv(
        OUT / "reproduce.csv", index=False, float_format="%.6g", lineterminator="\n"
    )
    pd.DataFrame(RESULTS["memory"]).to_csv(
        OUT / "memory.csv", index=False, float_format="%.6g", lineterminator="\n"
    )
    pd.DataFrame(RESULTS["unique_floor"]).to_csv(
        OUT / "unique_floor.csv", index=False, float_format="%.6g", lineterminator="\n"
    )
    floor = RESULTS["unique_floor"][0] if RESULTS["unique_floor"] else {}
    runs = pd.DataFrame(RESULTS["reproduce"])
    summary = {
        "growth_exponent_1e5_to_1e7": exponent,
        "ratio_to_sort_1e6": float(scaling.loc[scaling.n == 10**6, "ratio_to_sort"].iloc[0])
        if (scaling.n == 10**6).any()
        else None,
        "reproduce_over_floor": float(runs.ratio.median()) if len(runs) else None,
        "reproduce_cpu_over_floor": float(runs.cpu_ratio.median()) if len(runs) else None,
        "reproduce_over_package_floor": float(runs.package_ratio.median()) if len(runs) else None,
        "reproduce_cpu_over_package_floor": float(runs.package_cpu_ratio.median())
        if len(runs)
        else None,
        "figures_not_drawn_over_floor": float(runs.figures_not_drawn_ratio.median())
        if len(runs)
        else None,
        "figures_not_drawn_cpu_over_floor": float(runs.figures_not_drawn_cpu_ratio.median())
        if len(runs)
        else None,
        "peak_rss_mb_1e7": RESULTS["memory"][0]["peak_rss_mb"] if RESULTS["memory"] else None,
        "exact_over_unique_1e6": floor.get("ratio"),
        "exact_over_unique_cpu_1e6": floor.get("cpu_ratio"),
        "lee_clifton_10000_rows_seconds": RESULTS["notebook_at_size"][0]["seconds"]
        if RESULTS["notebook_at_size"]
        else None,
    }
    (OUT / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    figures.use_style()
    fig = bench_plots.scaling(scaling, exponent)
    figures.save_figure(
        fig, "scaling", scaling, OUT, bench_plots.scaling_caption(scaling, exponent)
    )
    print(json.dumps(summary, indent=2))


def _timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start
