"""kulynych_2024 at parameters a reader would try: a DP-SGD grid that is not stored is computed (and
the paper's rows become not applicable), and bad values are refused in one line before a kernel
starts."""

import json

import pandas as pd
import pytest

from choosing_epsilon.harness import reproduce
from choosing_epsilon.harness.paths import PUBLISHED
from tests.notebook_text import assert_files_bounded, outputs_text

NAME = "kulynych_2024"
GRID_ROWS = ["sec31_noise_up_to_3p5x", "abstract_noise_up_to_2x"]


@pytest.mark.notebook
def test_a_grid_that_is_not_stored_is_computed(tmp_path):
    params = {
        "sample_rate": 0.01,
        "num_steps": 100,
        "advantage_targets": [0.1],
        "fpr_targets": [0.1],
        "tpr_targets": [0.3],
    }
    reproduce.run_notebook(NAME, params, tmp_path)
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["grid_rows_reused"] == 0
    assert results["largest_ratio_advantage"] > 1 and results["largest_ratio_tpr"] > 1
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
