"""make bench: the exact ε of a column stored in Parquet, against DuckDB's bare GROUP BY of it.

A column of ages (0..110, and four outliers) is written by DuckDB's own generator to a Parquet file
of 10^8 rows (COUNTS_ROWS=100000000,1000000000 adds 10^9) in a temporary directory. Each measurement
runs in a fresh process, alternating: (a) DuckDB's bare ``SELECT age, count(*) ... GROUP BY age`` on
the file; (b) ``tables.column_counts`` and ``possible_worlds.epsilon_for_risk`` with counts, one
process per query: the mean, the median, the variance, the 90th percentile, and the mean for an
adversary missing two rows (its worlds grouped by the values of the missing rows: C(115 + 1, 2)
classes, never the C(n, 2) worlds). The time is the median of the runs; the peak memory is the
process's resident high-water mark (``resource.getrusage(RUSAGE_SELF).ru_maxrss``, which includes
the interpreter and the libraries imported). Nothing here asserts a time; the results go to
figures/benchmarks/counts.json (they depend on the machine and its load).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import pytest

from choosing_epsilon.harness.paths import FIGURES, ROOT
from choosing_epsilon.tables import MEMORY_LIMIT

OUT = FIGURES / "benchmarks"
ROWS = [int(float(r)) for r in os.environ.get("COUNTS_ROWS", "1e8").split(",")]
REPEATS = 7  # runs of each, alternating: the median is steadier than one run on a shared machine
RHO = 0.5
BYTES_PER_ROW = 1.0  # the Parquet file takes ~0.9 bytes per row (7-bit ages, bit-packed)
RESULTS: list[dict] = []
# (name, query, q, unknown): each timed in a process of its own, against the bare GROUP BY
CASES = [
    ("mean", "mean", None, 1),
    ("median", "median", None, 1),
    ("variance", "variance", None, 1),
    ("p90", "quantile", 0.9, 1),
    ("mean_k2", "mean", None, 2),
]

# ages from DuckDB's hash of the row number (deterministic), and four outliers (150 to 783) at
# any number of rows: 115 distinct values
GENERATOR = """
COPY (
  SELECT CASE WHEN i % {quarter} = 12345 THEN 150 + 211 * (i // {quarter})
              ELSE hash(i) % 111 END::SMALLINT AS age
  FROM range({rows}) t(i)
) TO '{path}' (FORMAT parquet)
"""

GROUP_BY = """
import json, resource, tempfile, time
import duckdb
path, limit = {path!r}, {limit!r}
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
with tempfile.TemporaryDirectory() as spill:
    start, start_cpu = time.perf_counter(), cpu()
    con = duckdb.connect(config={{"memory_limit": limit, "temp_directory": spill}})
    result = con.sql(f"SELECT age, count(*) AS c FROM read_parquet('{{path}}') GROUP BY age")
    columns = result.fetchnumpy()
    con.close()
    seconds, cpu_seconds = time.perf_counter() - start, cpu() - start_cpu
order = columns["age"].argsort()
print(json.dumps({{
    "seconds": seconds,
    "cpu_seconds": cpu_seconds,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "rss_mb_before": before,
    "values": columns["age"][order].astype(float).tolist(),
    "counts": columns["c"][order].tolist(),
}}))
"""

EXACT = """
import json, resource, time
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon.tables import column_counts
path, rho, query, q, unknown = {path!r}, {rho!r}, {query!r}, {q!r}, {unknown!r}
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
pw.epsilon_for_risk([0.0, 1.0, 3.0], rho)  # loads the compiled risk kernel (numba), once a process
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start, start_cpu = time.perf_counter(), cpu()
values, counts = column_counts(path, "age")
result = pw.epsilon_for_risk(values, rho, query, counts=counts, unknown=unknown, q=q)
seconds, cpu_seconds = time.perf_counter() - start, cpu() - start_cpu
print(json.dumps({{
    "seconds": seconds,
    "cpu_seconds": cpu_seconds,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "rss_mb_before": before,
    "values": values.tolist(),
    "counts": counts.tolist(),
    "result": result.__dict__,
}}))
"""


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="bench-counts-") as directory:
        yield Path(directory)


def _run(script: str) -> dict:
    """``script`` in a fresh interpreter; its one line of JSON output."""
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.parametrize("rows", ROWS)
def test_exact_epsilon_against_a_bare_group_by(workdir, rows):
    free = shutil.disk_usage(workdir).free
    if free < 2 * BYTES_PER_ROW * rows:
        pytest.skip(f"{rows} rows need ~{BYTES_PER_ROW * rows / 1e9:.1f} GB; {free / 1e9:.1f} free")
    path = workdir / f"ages_{rows}.parquet"
    start = time.perf_counter()
    with duckdb.connect(config={"memory_limit": MEMORY_LIMIT}) as con:
        con.execute(GENERATOR.format(rows=rows, quarter=rows // 4, path=path))
    write_seconds = time.perf_counter() - start
    bare = []
    exact: dict[str, list[dict]] = {name: [] for name, *_ in CASES}
    for _ in range(REPEATS):
        bare.append(_run(GROUP_BY.format(path=str(path), limit=MEMORY_LIMIT)))
        for name, query, q, unknown in CASES:
            script = EXACT.format(path=str(path), rho=RHO, query=query, q=q, unknown=unknown)
            exact[name].append(_run(script))
    # all read the same column: the same values and counts, n rows in all, every run
    first = exact["mean"][0]
    for run in bare + [r for runs in exact.values() for r in runs]:
        assert run["values"] == first["values"] and run["counts"] == first["counts"]
    assert sum(first["counts"]) == rows and len(first["values"]) == 115
    assert first["result"]["n"] == rows and np.isfinite(first["result"]["exact"])
    bare_seconds = statistics.median(r["seconds"] for r in bare)
    bare_cpu = statistics.median(r["cpu_seconds"] for r in bare)
    queries = {}
    for name, runs in exact.items():
        seconds = statistics.median(r["seconds"] for r in runs)
        cpu = statistics.median(r["cpu_seconds"] for r in runs)
        queries[name] = {
            "seconds": seconds,
            "ratio": seconds / bare_seconds,
            "cpu_seconds": cpu,
            "cpu_ratio": cpu / bare_cpu,
            "seconds_runs": [r["seconds"] for r in runs],
            "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
            "rss_mb_before": max(r["rss_mb_before"] for r in runs),
            "epsilon": {
                k: runs[0]["result"][k] for k in ("sensitivity", "delta_v", "upper_bound", "exact")
            },
        }
    RESULTS.append(
        {
            "rows": rows,
            "distinct_values": len(first["values"]),
            "parquet_mb": path.stat().st_size / 2**20,
            "write_seconds": write_seconds,
            "group_by_seconds": bare_seconds,
            # CPU time (all threads) is less disturbed by other work on a shared machine
            "group_by_cpu_seconds": bare_cpu,
            "group_by_seconds_runs": [r["seconds"] for r in bare],
            "group_by_peak_rss_mb": max(r["peak_rss_mb"] for r in bare),
            # the same processes just before the measured work: interpreter and libraries
            "group_by_rss_mb_before": max(r["rss_mb_before"] for r in bare),
            "queries": queries,
        }
    )
    path.unlink()


def test_write_report():
    if not RESULTS:
        pytest.skip("no measurement ran")
    report = {
        "duckdb": duckdb.__version__,
        "memory_limit": MEMORY_LIMIT,
        "rho": RHO,
        "repeats": REPEATS,
        "cpus": os.cpu_count(),
        "load_average_1min": os.getloadavg()[0],
        "peak_memory": "ru_maxrss of each fresh process (RUSAGE_SELF): interpreter, libraries "
        "and the work",
        "runs": RESULTS,
    }
    OUT.mkdir(parents=True, exist_ok=True)
    text = json.dumps(report, indent=2, sort_keys=True, default=str) + "\n"
    # infinite ε (nothing to hide) as the string "inf", as results.json files hold it
    (OUT / "counts.json").write_text(text.replace("Infinity", '"inf"'))
    print(text)
