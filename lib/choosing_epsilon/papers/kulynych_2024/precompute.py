"""Recompute the stored DP-SGD calibrations of Kulynych et al. (2024) at the committed parameters
(``make reproduce`` runs it before the notebooks): every target of Figs. 2a and 3, both
calibrations, written to ``data/kulynych_2024/dpsgd_calibrations.json`` only where a number moved
by more than ten times the calibration's relative tolerance: on another CPU the last bits of the
accounting differ, brentq may stop one step earlier or later and its answer moves within that
tolerance; so a rerun leaves the file as it was."""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import pandas as pd

from choosing_epsilon import calibration as cal
from choosing_epsilon import dpsgd
from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.kulynych_2024 import forensics

STORE = DATA / "kulynych_2024" / "dpsgd_calibrations.json"
SINGLING_OUT_STORE = DATA / "kulynych_2024" / "dpsgd_singling_out.json"


def committed_grid() -> tuple[dpsgd.DpsgdSetting, list[tuple[str, float, float | None]]]:
    """The DP-SGD setting and targets of kulynych_2024's committed run."""
    params = parameters.committed_values("kulynych_2024")
    return forensics.grid_request(
        params["sample_rate"],
        params["num_steps"],
        params["delta"],
        [*params["advantage_targets"], *params["later_advantage_targets"]],
        params["fpr_targets"],
        params["tpr_targets"],
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m choosing_epsilon.papers.kulynych_2024.precompute"
    )
    parser.add_argument("-j", "--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    setting, wanted = committed_grid()
    start = time.perf_counter()
    table, _ = forensics.calibrations(
        setting, wanted, STORE, recompute=True, workers=args.jobs, sweep=True
    )
    changed = forensics.write(table, STORE, tolerance=10 * cal.CALIBRATION_RTOL)
    print(
        f"kulynych_2024: {len(table)} DP-SGD calibrations recomputed in "
        f"{time.perf_counter() - start:.0f} s; {STORE.name} "
        + ("rewritten" if changed else "unchanged")
    )
    params = parameters.committed_values("kulynych_2024")
    request = forensics.singling_out_request(
        params["sample_rate"],
        params["num_steps"],
        params["delta"],
        params["singling_out_among"],
        params["max_singling_out"],
    )
    if isinstance(request, str):
        print(f"kulynych_2024: no calibration to single out one person: {request}")
        return 0
    start = time.perf_counter()
    row, _ = forensics.singling_out_calibration(*request, SINGLING_OUT_STORE, recompute=True)
    if isinstance(row, str):
        print(f"kulynych_2024: no calibration to single out one person: not applicable: {row}")
        return 0
    changed = forensics.write(
        pd.DataFrame([row]), SINGLING_OUT_STORE, tolerance=10 * cal.CALIBRATION_RTOL
    )
    print(
        f"kulynych_2024: the calibration to single out one of {params['singling_out_among']} "
        f"recomputed in {time.perf_counter() - start:.0f} s; {SINGLING_OUT_STORE.name} "
        + ("rewritten" if changed else "unchanged")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
