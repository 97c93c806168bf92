import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from PIL import Image as PILImage

from choosing_epsilon import figures


def log_figure():
    figures.use_style()
    fig, ax = plt.subplots()
    ax.plot([1e-3, 1e4], [2, 3e5], label="line")
    ax.set(xscale="log", yscale="log", xlabel="x", ylabel="y")
    ax.legend()
    return fig


@pytest.mark.parametrize("value, label", [(1e-3, "10⁻³"), (1.0, "10⁰"), (1e4, "10⁴"), (2e3, "2×10³"), (0.05, "5×10⁻²")])
def test_plain_log_labels_read_as_the_mathtext_ones(value, label):
    assert figures.PlainLogFormatter()(value) == label


def test_plain_log_labels_keep_mathtext_for_anything_else():
    assert figures.PlainLogFormatter()(0) == r"$\mathdefault{0}$"  # symlog's zero
    assert figures.PlainLogFormatter(labelOnlyBase=True)(2e3) == ""


def test_save_figure_writes_deterministic_files_with_plain_log_labels(tmp_path):
    data = pd.DataFrame({"x": [1e-3, 1e4], "y": [2.0, 3e5]})
    first = [p.read_bytes() for p in figures.save_figure(log_figure(), "f", data, tmp_path / "a")]
    second = [p.read_bytes() for p in figures.save_figure(log_figure(), "f", data, tmp_path / "b")]
    assert first == second
    png, svg, csv = first
    assert png.startswith(b"\x89PNG") and b"Software" not in png
    text = svg.decode()
    assert "10⁴" in text and "mathdefault" not in text and "<dc:date>" not in text
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a" / "f.csv"), data, check_dtype=False)
    plt.close("all")


def test_save_and_show_closes_the_figure_and_shows_the_saved_png(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    fig = log_figure()
    figures.save_and_show(fig, "f", pd.DataFrame({"x": [1]}), tmp_path)
    assert not plt.fignum_exists(fig.number)
    (image,) = shown
    assert image.data == (tmp_path / "f.png").read_bytes()
    with PILImage.open(tmp_path / "f.png") as png:  # shown at screen resolution, as the inline backend would
        assert image.width == round(png.width * figures.STYLE["figure.dpi"] / figures.STYLE["savefig.dpi"])


@pytest.mark.parametrize("name, data, message", [
    ("a/b", pd.DataFrame({"x": [1]}), "plain file stem"),
    ("", pd.DataFrame({"x": [1]}), "plain file stem"),
    ("f", pd.DataFrame(), "non-empty DataFrame"),
    ("f", np.arange(3), "non-empty DataFrame"),
])
def test_save_figure_rejects_bad_input(tmp_path, name, data, message):
    fig = log_figure()
    with pytest.raises(ValueError, match=message):
        figures.save_figure(fig, name, data, tmp_path)
    assert not any(tmp_path.iterdir())
    plt.close(fig)


def test_log_axes_get_minor_ticks_at_2_and_5_when_they_span_two_decades(tmp_path):
    figures.use_style()
    fig, (wide, narrow) = plt.subplots(1, 2, figsize=(11, 4))
    wide.plot([1, 1e3], [1, 2])
    narrow.plot([1, 50], [1, 2])
    wide.set(xscale="log")
    narrow.set(xscale="log")
    figures.save_figure(fig, "f", pd.DataFrame({"x": [1]}), tmp_path)
    def mantissas(axis):
        locs = axis.get_minorticklocs()
        return set(np.round(locs / 10 ** np.floor(np.log10(locs)), 6))

    assert mantissas(wide.xaxis) == {2, 5}
    assert mantissas(narrow.xaxis) == {2, 3, 4, 5, 6, 7, 8, 9}  # matplotlib's own
    plt.close(fig)
