"""Every saved figure has a one-sentence caption and an alt text, stored beside it in its
folder's captions.json, and nothing else is listed there."""

import json

import pytest

from choosing_epsilon.harness import figures
from choosing_epsilon.harness.paths import FIGURES

FOLDERS = sorted(p for p in FIGURES.iterdir() if p.is_dir() and any(p.glob("*.png")))


def test_every_folder_with_figures_is_checked():
    assert {p.name for p in FOLDERS} >= {
        "hsu_2014",
        "laplace_intro",
        "lee_clifton_2011",
        "mugunthan_poster",
        "shoaran_2012",
        "synthesis",
        "kazan_reiter_2024",
        "kulynych_2024",
        "benchmarks",
    }


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
        figures.Caption(caption=entry["caption"], alt=entry["alt"])
        assert len(entry["caption"]) <= 400, f"{folder.name}/{name}: caption too long to read"
        assert 40 <= len(entry["alt"]) <= 1000, f"{folder.name}/{name}: alt text length"


@pytest.mark.parametrize(
    "caption, alt, message",
    [
        ("", "An alt text.", "caption: a non-empty text"),
        ("One sentence.", " ", "alt: a non-empty text"),
        ("No full stop", "An alt text.", "ending with a full stop"),
        ("Two sentences. Here is the second.", "An alt text.", "more than one"),
        ("Same words.", "Same words.", "repeats the caption"),
        ("A caption\non two lines.", "An alt text.", "one line"),
    ],
)
def test_a_caption_that_breaks_the_rules_is_refused(caption, alt, message):
    with pytest.raises(ValueError, match=message):
        figures.Caption(caption=caption, alt=alt)


def test_captions_json_keeps_every_figure_in_sorted_order(tmp_path):
    figures.write_caption("b", figures.Caption("Second figure.", "A line rising."), tmp_path)
    figures.write_caption("a", figures.Caption("First figure.", "A line falling."), tmp_path)
    figures.write_caption("b", figures.Caption("Second, again.", "A flat line."), tmp_path)
    text = (tmp_path / figures.CAPTIONS).read_text(encoding="utf-8")
    assert list(json.loads(text)) == ["a", "b"]
    assert json.loads(text)["b"] == {"caption": "Second, again.", "alt": "A flat line."}
    assert text.endswith("\n") and not list(tmp_path.glob("*.tmp"))
