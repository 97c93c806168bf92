import contextlib
import json
import re
from html import unescape

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from PIL import Image as PILImage

from choosing_epsilon.plots import figures, style

CAPTION = figures.Caption("Time against size on log axes.", "One rising line on log-log axes.")


def log_figure():
    figures.use_style()
    fig, ax = plt.subplots()
    ax.plot([1e-3, 1e4], [2, 3e5], label="line")
    ax.set(xscale="log", yscale="log", xlabel="database size (n, rows)", ylabel="time (seconds)")
    ax.legend()
    return fig


@pytest.mark.parametrize(
    "value, label", [(1e-3, "10⁻³"), (1.0, "10⁰"), (1e4, "10⁴"), (2e3, "2×10³"), (0.05, "5×10⁻²")]
)
def test_plain_log_labels_read_as_the_mathtext_ones(value, label):
    assert figures.PlainLogFormatter()(value) == label


def test_plain_log_labels_keep_mathtext_for_anything_else():
    assert figures.PlainLogFormatter()(0) == r"$\mathdefault{0}$"  # symlog's zero
    assert figures.PlainLogFormatter(labelOnlyBase=True)(2e3) == ""


def test_save_figure_writes_deterministic_files_with_plain_log_labels(tmp_path):
    data = pd.DataFrame({"x": [1e-3, 1e4], "y": [2.0, 3e5]})
    first = [
        p.read_bytes()
        for p in figures.save_figure(log_figure(), "f", data, tmp_path / "a", CAPTION)
    ]
    second = [
        p.read_bytes()
        for p in figures.save_figure(log_figure(), "f", data, tmp_path / "b", CAPTION)
    ]
    assert first == second
    png, svg, _csv, _captions = first
    assert png.startswith(b"\x89PNG") and b"Software" not in png
    text = svg.decode()
    assert "10⁴" in text and "mathdefault" not in text and "<dc:date>" not in text
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a" / "f.csv"), data, check_dtype=False)
    plt.close("all")


def test_save_and_show_closes_the_figure_and_shows_the_saved_png(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    fig = log_figure()
    figures.save_and_show(fig, "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)
    assert not plt.fignum_exists(fig.number)
    image, caption = shown
    assert image.data == (tmp_path / "f.png").read_bytes()
    assert image.alt == CAPTION.alt  # the alt text goes with the image
    assert caption.data == f"*{CAPTION.caption}*"  # and the caption under it
    with PILImage.open(
        tmp_path / "f.png"
    ) as png:  # shown at screen resolution, as the inline backend would
        assert image.width == round(
            png.width * figures.STYLE["figure.dpi"] / figures.STYLE["savefig.dpi"]
        )


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("a/b", pd.DataFrame({"x": [1]}), "plain file stem"),
        ("", pd.DataFrame({"x": [1]}), "plain file stem"),
        ("f", pd.DataFrame(), "non-empty DataFrame"),
        ("f", np.arange(3), "non-empty DataFrame"),
    ],
)
def test_save_figure_rejects_bad_input(tmp_path, name, data, message):
    fig = log_figure()
    with pytest.raises(ValueError, match=message):
        figures.save_figure(fig, name, data, tmp_path, CAPTION)
    assert not any(tmp_path.iterdir())
    plt.close(fig)


def test_log_axes_get_minor_ticks_at_2_and_5_when_they_span_two_decades(tmp_path):
    figures.use_style()
    fig, (wide, narrow) = plt.subplots(1, 2, figsize=(11, 4))
    wide.plot([1, 1e3], [1, 2])
    narrow.plot([1, 50], [1, 2])
    for index, panel in enumerate((wide, narrow)):
        panel.set(xscale="log", xlabel="size (n)", ylabel="time (seconds)")
        style.panel_title(panel, index)
    figures.save_figure(fig, "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)

    def mantissas(axis):
        locs = axis.get_minorticklocs()
        return set(np.round(locs / 10 ** np.floor(np.log10(locs)), 6))

    assert mantissas(wide.xaxis) == {2, 5}
    assert mantissas(narrow.xaxis) == {2, 3, 4, 5, 6, 7, 8, 9}  # matplotlib's own
    plt.close(fig)


def _pixels(path):
    with PILImage.open(path) as image:
        return image.mode, np.asarray(image.convert("RGB"), dtype=float)


def _ink(image: np.ndarray) -> np.ndarray:
    """The part of an image inside the bounding box of its non-white pixels."""
    rows, columns = np.nonzero((image < 255).any(axis=-1))
    return image[rows.min() : rows.max() + 1, columns.min() : columns.max() + 1]


def _margins(image: np.ndarray) -> np.ndarray:
    """The white margins of an image in pixels: top, left, bottom, right."""
    rows, columns = np.nonzero((image < 255).any(axis=-1))
    return np.array(
        [
            rows.min(),
            columns.min(),
            image.shape[0] - 1 - rows.max(),
            image.shape[1] - 1 - columns.max(),
        ]
    )


# how each figure of the test below is saved: cut from its one drawing ("cut"), or drawn again over
# its box as savefig draws it ("again"); constrained layout makes room for a legend just past the
# axes, so that figure stays within its canvas
ROUTES = {
    (None, None): "cut",
    (1.02, None): "cut",  # within the wider drawing's margin
    (1.4, None): "again",  # past it
    (None, "constrained"): "cut",
    (1.02, "constrained"): "cut",
    (1.4, "constrained"): "again",
}


@pytest.mark.parametrize("layout", [None, "constrained"])
@pytest.mark.parametrize(
    "legend_at",
    [None, 1.02, 1.4],
    ids=["inside the figure", "legend just past its edge", "legend far beyond its edge"],
)
def test_png_is_the_drawing_cut_to_its_tight_box(tmp_path, monkeypatch, legend_at, layout):
    """The PNG holds what matplotlib draws, pixel for pixel, with savefig's tight box and margins
    around it, also where the figure reaches past its canvas: cut from its one drawing, made over
    a wider canvas (``MARGIN_INCHES`` beyond each edge) for a figure without a layout engine, or
    else drawn again over its box exactly as savefig draws it."""

    def build():
        fig = log_figure()
        fig.set_layout_engine(layout)
        if legend_at is not None:  # a legend right of the axes, past the figure's right edge
            fig.axes[0].legend(loc="center left", bbox_to_anchor=(legend_at, 0.5))
        return fig

    drawn_again = []
    draw_within = figures._draw_within
    monkeypatch.setattr(
        figures, "_draw_within", lambda *args: drawn_again.append(1) or draw_within(*args)
    )
    ours = figures.save_figure(build(), "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)[0]
    assert ("again" if drawn_again else "cut") == ROUTES[legend_at, layout]
    for name, box in (("whole", None), ("tight", "tight")):
        reference = build()
        figures._log_axes(reference)
        reference.savefig(tmp_path / f"{name}.png", bbox_inches=box)
    mode, a = _pixels(ours)
    whole, tight = _pixels(tmp_path / "whole.png")[1], _pixels(tmp_path / "tight.png")[1]
    assert mode == "RGB"  # opaque: no alpha channel
    assert abs(a.shape[0] - tight.shape[0]) <= 2 and abs(a.shape[1] - tight.shape[1]) <= 2
    assert (
        np.abs(_margins(a) - _margins(tight)).max() <= 1
    )  # savefig.pad_inches around the contents, as savefig leaves
    past_edge = _ink(tight).shape[1] > _ink(whole).shape[1]  # contents the canvas cuts off
    assert past_edge == (legend_at is not None and (layout is None or legend_at > 1.1))
    if drawn_again:
        assert np.array_equal(a, tight[..., :3])  # savefig's pixels exactly
    elif past_edge:
        assert _ink(a).shape[1] > _ink(whole).shape[1]  # the legend past the edge is in the file
        # shifted by whole pixels, the drawing over the wider canvas holds the figure's own
        # canvas pixel for pixel (the legend is centred at its right, so the two drawings'
        # contents start at the same top left corner)
        rows, columns = _ink(whole).shape[:2]
        assert np.array_equal(_ink(a)[:rows, :columns], _ink(whole))
    else:
        assert np.array_equal(_ink(a), _ink(whole))  # cut from one drawing: the same pixels
    plt.close("all")


def test_png_keeps_its_alpha_channel_when_the_figure_is_transparent(tmp_path):
    fig = log_figure()
    fig.patch.set_alpha(0.0)
    png = figures.save_figure(fig, "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)[0]
    with PILImage.open(png) as image:
        assert image.mode == "RGBA" and image.getextrema()[3][0] == 0
    plt.close(fig)


@pytest.mark.parametrize(
    "style, mode, corner",
    [
        ({"savefig.facecolor": "black"}, "RGB", (0, 0, 0)),
        ({"savefig.transparent": True}, "RGBA", (255, 255, 255, 0)),
    ],
)
def test_png_background_follows_the_savefig_style(tmp_path, style, mode, corner):
    """A savefig.* background other than the figure's own is painted as savefig paints it."""
    with matplotlib.rc_context(style):
        png = figures.save_figure(log_figure(), "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)[0]
    with PILImage.open(png) as image:
        assert image.mode == mode and image.getpixel((0, 0)) == corner
    plt.close("all")


def test_kept_titles_give_the_same_files_as_placing_them_in_every_drawing(tmp_path, monkeypatch):
    """A title matplotlib must move (above top tick labels and an offset text) ends up where
    placing it again would put it."""

    def build():
        figures.use_style()
        fig, (left, right) = plt.subplots(1, 2)
        left.plot([0, 1], [1e7, 2e7])
        left.xaxis.tick_top()
        left.set_xticks([0.5, 1.0])  # top tick labels clear of the offset text "1e7"
        left.set_title("(a) moved up")
        right.plot([0, 1], [0, 1])
        right.set_title("(b) in place", y=1.05)  # placed by hand: never moved
        for panel in (left, right):
            panel.set(xlabel="share (p)", ylabel="count (n)")
        return fig

    fig = build()
    kept = [
        p.read_bytes()
        for p in figures.save_figure(
            fig, "f", pd.DataFrame({"x": [1]}), tmp_path / "kept", CAPTION
        )[:2]
    ]
    assert [ax._autotitlepos for ax in fig.axes] == [True, False]  # restored afterwards
    assert (
        fig.axes[0].title.get_position()[1] > 1.05
    )  # the test is meaningful: this title was moved
    monkeypatch.setattr(figures, "_titles_kept", lambda fig: contextlib.nullcontext())
    placed = [
        p.read_bytes()
        for p in figures.save_figure(
            build(), "f", pd.DataFrame({"x": [1]}), tmp_path / "placed", CAPTION
        )[:2]
    ]
    assert kept == placed
    plt.close("all")


def test_centred_text_sits_in_the_middle_of_the_panel():
    fig, ax = plt.subplots()
    figures.centred_text(ax, "nothing to draw")
    (text,) = ax.texts
    assert text.get_text() == "nothing to draw" and text.get_position() == (0.5, 0.5)
    assert text.get_transform() is ax.transAxes
    assert (text.get_horizontalalignment(), text.get_verticalalignment()) == ("center", "center")
    plt.close(fig)


def test_save_figure_records_the_caption_beside_the_figure(tmp_path):
    paths = figures.save_figure(log_figure(), "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)
    assert paths[-1] == tmp_path / figures.CAPTIONS
    entries = json.loads(paths[-1].read_text(encoding="utf-8"))
    assert entries == {"f": {"caption": CAPTION.caption, "alt": CAPTION.alt}}
    plt.close("all")


def test_save_figure_refuses_a_figure_out_of_style_and_writes_nothing(tmp_path):
    fig = log_figure()
    fig.axes[0].plot([1, 10], [1, 10], color="tab:red")
    with pytest.raises(ValueError, match=r"figure style: .*'tab:red' is not in the palette"):
        figures.save_figure(fig, "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)
    assert not tmp_path.exists() or not any(tmp_path.iterdir())
    plt.close(fig)


def test_save_figure_needs_a_caption(tmp_path):
    with pytest.raises(ValueError, match=r"caption: a figures\.Caption"):
        figures.save_figure(log_figure(), "f", pd.DataFrame({"x": [1]}), tmp_path, "a caption")
    plt.close("all")


@pytest.mark.parametrize(
    "text",
    [
        "The tail exceeds the bound beyond t* = 1.799 (p = 0.92).",
        "A budget of $30,000 and $182 for N_min, with [a] <b> and a `tick` \\ slash.",
    ],
)
def test_a_caption_reads_as_written_under_the_figure(text):
    """The caption shown under a figure is Markdown in italics: rendered, it is the caption's own
    words, whatever characters they hold."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").render(f"*{figures.markdown_escaped(text)}*")
    inner = re.fullmatch(r"<p><em>(.*)</em></p>\n", html, flags=re.DOTALL)
    assert inner is not None, html
    assert unescape(inner.group(1)) == text


def test_a_log_axis_within_one_decade_is_labelled_in_plain_numbers(tmp_path):
    """1 to 3 on a log axis: "1", "2", "3", not 10⁰, 2×10⁰, 3×10⁰."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from choosing_epsilon.plots import figures

    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [1, 2, 3], label="a line")
    ax.set(xscale="log", xlabel="releases (count)", ylabel="estimate (value)")
    caption = figures.Caption("A line on a narrow log axis.", "A rising line, releases 1 to 3.")
    figures.save_figure(fig, "narrow", pd.DataFrame({"k": [1, 2, 3]}), tmp_path, caption)
    fig.canvas.draw()
    labels = {t.get_text() for t in ax.get_xticklabels(minor=True) + ax.get_xticklabels()}
    assert {"1", "2", "3"} <= labels and not any("×" in label for label in labels)
    plt.close(fig)


def test_show_table_saves_the_table_and_shows_its_readers_form(tmp_path, monkeypatch):
    shown_tables = []
    monkeypatch.setattr("IPython.display.display", shown_tables.append)
    table = pd.DataFrame({"epsilon": [0.123456789, np.nan]})
    readable = table.assign(epsilon=["0.1235", "none: unmet"])
    figures.write_into(tmp_path)
    try:
        figures.show_table(table, "t", shown=lambda t: readable if t is table else None)
        figures.show_table(table, "u", digits=2)
    finally:
        figures.write_into(None)
    assert (tmp_path / "t.csv").read_text() == 'epsilon\n0.123456789\n""\n'
    assert shown_tables[0] is readable
    assert shown_tables[1].epsilon.iloc[0] == 0.12
    figures.show_table(table, "v", digits=1, shown=lambda t: t.head(1))  # rounded, then shown
    assert shown_tables[2].epsilon.tolist() == [0.1]


def test_show_table_without_a_name_only_shows_at_the_width_asked(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(
        "IPython.display.display",
        lambda t: seen.append(
            (pd.get_option("display.width"), pd.get_option("display.max_colwidth"))
        ),
    )
    table = pd.DataFrame({"label": ["x" * 80]})
    figures.write_into(tmp_path)
    try:
        figures.show_table(table, width=250, max_colwidth=None)
        figures.show_table(table)
    finally:
        figures.write_into(None)
    assert seen == [(250, None), (80, 50)]  # then pandas' own, restored
    assert list(tmp_path.iterdir()) == []  # no name: nothing saved


def test_say_shows_each_sentence_as_a_paragraph_read_as_written(monkeypatch):
    from IPython.display import Markdown

    seen = []
    monkeypatch.setattr("IPython.display.display", seen.append)
    figures.say("a cost of $30,000 and $5", "", "get_beta_from_zcdp at *p* < 1")
    assert isinstance(seen[0], Markdown)
    assert (
        seen[0].data
        == r"a cost of \$30,000 and \$5" + "\n\n" + r"get\_beta\_from\_zcdp at \*p\* \< 1"
    )


def test_the_svg_keeps_the_layout_of_the_png_and_the_figure_its_engine(tmp_path, monkeypatch):
    """The SVG is drawn with the layout engine held (no layout pass of its own), and the figure
    keeps its engine afterwards."""
    fig = log_figure()
    fig.set_layout_engine("constrained")
    engine = fig.get_layout_engine()
    executed = []
    execute = type(engine).execute
    monkeypatch.setattr(
        type(engine), "execute", lambda self, f: executed.append(1) or execute(self, f)
    )
    figures.save_figure(fig, "f", pd.DataFrame({"x": [1]}), tmp_path, CAPTION)
    assert executed == [1]  # once, in the drawing the PNG is cut from
    assert fig.get_layout_engine() is engine
    plt.close(fig)
