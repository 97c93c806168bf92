"""kulynych_2024 at the edges of its advantage-gap parameters (Figs. 2b and 6), as a reader would
try them: the stored DP-SGD grid is reused, the run ends with strict JSON and figures the style
passes, and the gap curves keep their defining values."""

import pandas as pd
import pytest

from tests.sweep_run import run

DELTA = 1e-5  # the notebook's δ at its defaults


@pytest.mark.notebook
@pytest.mark.parametrize(
    ("advantage", "fpr"),
    [(0.99, 0.004), (2e-5, 0.45)],
    ids=["advantage_near_one_at_a_tiny_fpr", "advantage_just_above_delta_at_a_large_fpr"],
)
def test_the_advantage_gap_at_the_edges_of_its_range(tmp_path, advantage, fpr):
    # at advantage 2e-5 the legend sat over the curves (lower left); near 1 the curves rise to
    # the top of the panel within the first thousandth of the FPR axis
    params = {"gap_advantage": advantage, "gap_fpr": fpr}
    _, results, _ = run("kulynych_2024", params, tmp_path)
    assert results["grid_rows_reused"] > 0  # the committed grid, not a recomputation
    gap = pd.read_csv(tmp_path / "fig2b_advantage_gap.csv")
    at_zero = gap[gap.fpr == 0].iloc[0]
    # the worst-case (ε, δ) mechanism of advantage η reaches TPR η − δ above FPR at FPR 0
    assert at_zero.worst_case == pytest.approx(advantage - DELTA, abs=1e-12)
    assert gap.drop(columns="fpr").abs().max().max() <= 1  # rates' differences stay rates
