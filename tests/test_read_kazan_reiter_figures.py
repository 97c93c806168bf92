"""The reader of Kazan & Reiter's original figures (tools/read_kazan_reiter_figures.py): its axis
calibration and the ledger rows it writes. The images are not in the repository; the readings
are, and each states its method and precision."""

import shutil
import sys

import numpy as np
import pytest

from choosing_epsilon.harness import claims
from choosing_epsilon.harness.paths import PUBLISHED, ROOT

sys.path.insert(0, str(ROOT / "tools"))

import read_kazan_reiter_figures as reader


def test_an_axis_is_fitted_on_its_marks_linear_or_log():
    linear = reader.Axis.fit([100.0, 200.0, 300.0], [2.0, 1.0, 0.0])
    assert linear(150.0) == pytest.approx(1.5) and linear.per_pixel() == pytest.approx(0.01)
    log = reader.Axis.fit([0.0, 680.0, 1360.0], [1.0, 0.1, 0.01], log=True)
    assert log(340.0) == pytest.approx(10**-0.5)


def test_marks_off_a_line_or_miscounted_are_refused():
    with pytest.raises(ValueError, match="off a line"):
        reader.Axis.fit([100.0, 200.0, 330.0], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="marks found"):
        reader.Axis.fit([100.0, 200.0], [0.0, 1.0, 2.0])


def test_runs_and_their_centres():
    mask = np.array([0, 1, 1, 0, 0, 1, 1, 1, 1, 0], dtype=bool)
    assert reader.runs(mask) == [(1, 2), (5, 8)]
    assert reader.centres(mask, offset=10, shortest=3) == [16.5]


def test_a_bar_and_its_grid_read_to_the_pixel():
    image = np.full((400, 50, 3), 255)
    for row in (100, 200, 300):  # grid lines for 2, 1, 0, eight pixels thick
        image[row - 4 : row + 4, :] = reader.GRID
    image[150:300, 20:30] = reader.BAR  # a bar from 0 up to 1.5
    axis = reader.grid_axis(image, 5, (0, 400), [2, 1, 0])
    top = 150 + 0  # the first bar row
    assert axis(top - 0.5) == pytest.approx(1.5, abs=2 * axis.per_pixel())


def test_rewriting_the_readings_keeps_every_other_row(tmp_path, monkeypatch):
    ledger = tmp_path / "ledger.csv"
    shutil.copy(PUBLISHED / "kazan_reiter_2024.csv", ledger)
    monkeypatch.setattr(reader, "LEDGER", ledger)
    before = claims.read_published(ledger)
    reading = reader.Reading("fig9_x", "Fig. 9", "a test reading", 1.25, 0.01, "a stated method")
    reader.write_ledger([reading])
    after = claims.read_published(ledger)
    kept = before[before.source != reader.SOURCE].reset_index(drop=True)
    assert after[after.source != reader.SOURCE].reset_index(drop=True).equals(kept)
    assert after.loc[after.source == reader.SOURCE, "claim_id"].tolist() == ["fig9_x"]


def test_every_committed_reading_states_its_figure_method_and_precision():
    table = claims.read_published(PUBLISHED / "kazan_reiter_2024.csv")
    read = table[table.source == reader.SOURCE]
    assert len(read) >= 90
    assert read.source_detail.str.contains(r"Figures/choosing_eps_\w+\.png, 600 dpi").all()
    assert read.source_detail.str.contains("precision").all()
    assert (read.tolerance > 0).all()


def test_a_reading_is_written_as_measured():
    """The ledger holds a reading and its precision to ``SIGNIFICANT`` digits, not to the digits
    the figure seems to show: written to four decimals, Fig. 5's red point (q = 0.083943, two
    pixels 0.000571) became 0.0839 ± 0.0006 and passed against 1/12, which it misses."""
    reading = reader.Reading("fig9_x", "Fig. 9", "a", 0.0839431234567, 0.000571234567, "m")
    row = reader.ledger_rows([reading])[0]
    assert row[3:5] == ["0.08394312346", "0.000571234567"]
    assert abs(float(row[3]) - reading.value) < reading.precision * 1e-6


def test_the_red_point_of_fig5_as_read_is_the_grid_minimiser_not_the_exact_one():
    """Unrounded, both readings of Fig. 5's red point lie beyond their two pixels from the exact
    minimiser 1/12 and within them from the authors' grid minimiser 0.084 (find_eps.R, step
    0.001); rounded to four decimals, the upper panel's passed against 1/12."""
    table = claims.read_published(PUBLISHED / "kazan_reiter_2024.csv").set_index("claim_id")
    for claim_id in ("fig5_r_star_point_q", "fig5_epsilon_point_q"):
        row = table.loc[claim_id]
        assert abs(row.published - 1 / 12) > row.tolerance
        assert abs(row.published - 0.084) <= row.tolerance
