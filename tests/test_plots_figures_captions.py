"""Every saved figure has a one-sentence caption and an alt text, stored beside it in its
folder's captions.json, and nothing else is listed there."""

import json

import pytest

from choosing_epsilon.harness import papers
from choosing_epsilon.harness.paths import FIGURES
from choosing_epsilon.plots import figures

FOLDERS = sorted(p for p in FIGURES.iterdir() if p.is_dir() and any(p.glob("*.png")))


def test_every_folder_with_figures_is_checked():
    """Every notebook of the registry saves figures, and so do the benchmarks."""
    assert {p.name for p in FOLDERS} >= {*papers.names(), "benchmarks"}


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_every_figure_has_a_caption_and_an_alt_text(folder):
    path = folder / figures.CAPTIONS
    assert path.is_file(), f"{folder.name}: no {figures.CAPTIONS}"
    entries = json.loads(path.read_text(encoding="utf-8"))
    saved = {p.stem for p in folder.glob("*.png")}
    assert set(entries) == saved, (
        f"{folder.name}: figures without a caption {sorted(saved - set(entries))}, "
        f"captions without a figure {sorted(set(entries) - saved)}"
    )
    for name, entry in entries.items():
        assert set(entry) == {"caption", "alt"}, f"{folder.name}/{name}: {sorted(entry)}"
        # the same rules as when the figure was saved: one sentence, an alt text of its own
        assert figures.Caption(caption=entry["caption"], alt=entry["alt"]).problems() == []
        assert len(entry["caption"]) <= 400, f"{folder.name}/{name}: caption too long to read"
        assert 40 <= len(entry["alt"]) <= 1000, f"{folder.name}/{name}: alt text length"


@pytest.mark.parametrize(
    "caption, alt, message",
    [
        ("No full stop", "An alt text.", "ending with a full stop"),
        ("Two sentences. Here is the second.", "An alt text.", "more than one"),
        ("Two sentences. (The second opens with a bracket.", "An alt text.", "more than one"),
        ("Same words.", "Same words.", "repeats the caption"),
        ("A caption\non two lines.", "An alt text.", "one line"),
    ],
)
def test_a_caption_that_breaks_the_rules_names_the_rule(caption, alt, message):
    problems = figures.Caption(caption=caption, alt=alt).problems()
    assert len(problems) == 1 and message in problems[0]


@pytest.mark.parametrize(
    "caption",
    [
        "The bound of Eq. (7) and the exact ε.",
        "As in Fig. 2 and Thm. 1, per Kulynych et al. (2024).",
    ],
)
def test_an_abbreviation_ends_no_sentence(caption):
    assert figures.Caption(caption=caption, alt="An alt text.").problems() == []


@pytest.mark.parametrize(
    "caption, alt, message",
    [("", "An alt text.", "caption: a non-empty text"), ("One.", " ", "alt: a non-empty text")],
)
def test_an_empty_caption_is_refused(caption, alt, message):
    with pytest.raises(ValueError, match=message):
        figures.Caption(caption=caption, alt=alt)


def test_a_departure_stops_a_test_run_and_is_recorded_in_a_readers(tmp_path, monkeypatch):
    """Under the test suite a style departure stops the run; in a reader's run the figure is
    saved, its departures recorded in captions.json, and the run goes on."""
    import matplotlib.pyplot as plt
    import pandas as pd

    def departing():
        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1], color="tab:red")  # a colour outside the palette
        ax.set(xlabel="time (s)", ylabel="height (m)")
        return fig

    caption = figures.Caption("Two lines. And a second sentence.", "Two crossing lines.")
    data = pd.DataFrame({"x": [0, 1]})
    monkeypatch.setenv(figures.STRICT, "1")
    with pytest.raises(ValueError, match=r"not in the palette.*more than one"):
        figures.save_figure(departing(), "f", data, tmp_path / "strict", caption)
    assert not (tmp_path / "strict").exists()
    monkeypatch.setenv(figures.STRICT, "")
    figures.save_figure(departing(), "f", data, tmp_path / "reader", caption)
    entry = json.loads((tmp_path / "reader" / figures.CAPTIONS).read_text(encoding="utf-8"))["f"]
    assert (tmp_path / "reader" / "f.png").is_file()
    assert any("not in the palette" in p for p in entry["problems"])
    assert any("more than one" in p for p in entry["problems"])
    plt.close("all")


def test_captions_json_keeps_every_figure_in_sorted_order(tmp_path):
    figures.write_caption("b", figures.Caption("Second figure.", "A line rising."), tmp_path)
    figures.write_caption("a", figures.Caption("First figure.", "A line falling."), tmp_path)
    figures.write_caption("b", figures.Caption("Second, again.", "A flat line."), tmp_path)
    text = (tmp_path / figures.CAPTIONS).read_text(encoding="utf-8")
    assert list(json.loads(text)) == ["a", "b"]
    assert json.loads(text)["b"] == {"caption": "Second, again.", "alt": "A flat line."}
    assert text.endswith("\n") and not list(tmp_path.glob("*.tmp"))
