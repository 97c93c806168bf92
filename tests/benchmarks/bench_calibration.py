"""make bench: the Kulynych et al. (2024) notebook at its defaults (which reuses the stored DP-SGD
calibrations), one evaluation of DP-SGD's risks at one σ (the privacy loss distribution composed
and read for the advantage, the TPR at each FPR and ε: the unit every calibration pays per σ it
tries, at three σ of the paper's setting, the smallest the costliest), one DP-SGD calibration at
the paper's setting searched alone, the sample of the stored grid that `make test` recomputes, and
the precompute's total as `make reproduce` runs it (the whole grid in two processes sharing the
ladder's evaluations, then the calibration to single out one of k; several minutes).

Nothing here asserts a time; the measurements go to figures/benchmarks/calibration.csv.
"""

from __future__ import annotations

import time

import pandas as pd
import pytest

from choosing_epsilon import dpsgd
from choosing_epsilon.harness import parameters, reproduce
from choosing_epsilon.harness.paths import FIGURES
from choosing_epsilon.papers.kulynych_2024 import forensics, precompute
from choosing_epsilon.papers.kulynych_2024.precompute import STORE

pytestmark = pytest.mark.notebook  # the first measurement starts a kernel
RESULTS: list[dict] = []


def paper_setting() -> dpsgd.DpsgdSetting:
    return precompute.committed_grid()[0]


def test_notebook_at_its_defaults(benchmark, tmp_path):
    benchmark.pedantic(reproduce.run_notebook, ("kulynych_2024", {}, tmp_path), rounds=1)
    RESULTS.append({"measure": "notebook at defaults", "seconds": benchmark.stats.stats.mean})


@pytest.mark.parametrize("sigma", [0.4, 1.0, 4.0])
def test_one_dpsgd_evaluation_at_one_sigma(benchmark, sigma):
    def evaluate():
        dpsgd._composed.cache_clear()  # composed anew, as a search's every new σ is
        return dpsgd.DpsgdAccountant(paper_setting()).risks(sigma)

    benchmark.pedantic(evaluate, rounds=3)
    RESULTS.append(
        {
            "measure": f"one DP-SGD evaluation at sigma = {sigma:g} (least of 3)",
            "seconds": benchmark.stats.stats.min,
        }
    )


@pytest.mark.parametrize("kind, target, fpr", [("advantage", 0.05, None), ("tpr", 0.3, 0.05)])
def test_one_dpsgd_calibration_at_the_papers_setting(benchmark, kind, target, fpr):
    def both():
        return dpsgd.standard_and_aware(dpsgd.DpsgdAccountant(paper_setting()), kind, target, fpr)

    benchmark.pedantic(both, rounds=1)
    RESULTS.append(
        {"measure": f"one grid row ({kind} {target:g})", "seconds": benchmark.stats.stats.mean}
    )


def test_the_sample_make_test_recomputes(benchmark):
    stored = forensics.load(STORE)

    def sample():
        accountant = dpsgd.DpsgdAccountant(paper_setting())
        for kind in ("advantage", "tpr"):
            row = max(
                (r for r in stored.values() if r["kind"] == kind), key=lambda r: r["sigma_aware"]
            )
            fpr = row["fpr"] if kind == "tpr" else None
            for factor in (1 - 2e-4, 1 + 2e-4):
                accountant.measure(kind, row["sigma_aware"] * factor, fpr)
            accountant.measure("epsilon", row["sigma_standard"])
        # and the cheapest row searched again from scratch, both routes
        dpsgd.DpsgdAccountant(paper_setting()).calibrate("advantage", row_adv["target"])
        dpsgd.DpsgdAccountant(paper_setting()).calibrate("epsilon", row_adv["epsilon_target"])

    row_adv = max(
        (r for r in stored.values() if r["kind"] == "advantage"), key=lambda r: r["sigma_aware"]
    )
    benchmark.pedantic(sample, rounds=1)
    RESULTS.append(
        {"measure": "make test's sample of the grid", "seconds": benchmark.stats.stats.mean}
    )


def test_the_precompute_in_total(benchmark, tmp_path):
    """What `python -m choosing_epsilon.papers.kulynych_2024.precompute` computes, into a
    temporary store: the whole grid in two processes, then the calibration to single out one of
    k; each checked against what is committed, to the tolerance."""
    setting, wanted = precompute.committed_grid()
    params = parameters.committed_values("kulynych_2024")
    request = forensics.singling_out_request(
        params["sample_rate"],
        params["num_steps"],
        params["delta"],
        params["singling_out_among"],
        params["max_singling_out"],
    )
    assert not isinstance(request, str)

    def total():
        rows = forensics.compute(setting, wanted, 2, sweep=True)
        row, _ = forensics.singling_out_calibration(*request, tmp_path / "so.json", recompute=True)
        return rows, row

    rows, singling = benchmark.pedantic(total, rounds=1)
    stored = forensics.load(STORE)
    for row in rows:  # the measured run computes what is committed, to the tolerance
        fpr = None if row["kind"] == "advantage" else row["fpr"]
        committed = stored[forensics.key(setting, row["kind"], row["target"], fpr)]
        assert row["sigma_aware"] == pytest.approx(committed["sigma_aware"], rel=2e-4)
    committed = forensics.load(precompute.SINGLING_OUT_STORE)[singling["key"]]
    assert singling["sigma_attained"] == pytest.approx(committed["sigma_attained"], rel=2e-4)
    RESULTS.append(
        {
            "measure": "the precompute in total (the grid in two processes, then singling out)",
            "seconds": benchmark.stats.stats.mean,
        }
    )


def test_write_report():
    out = FIGURES / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    table = pd.DataFrame(RESULTS).assign(measured=time.strftime("%Y-%m-%d"))
    table.to_csv(out / "calibration.csv", index=False, float_format="%.3f", lineterminator="\n")
