"""One plotting style and deterministic figure files: PNG + SVG with fixed metadata, and the data
as CSV."""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
import matplotlib.transforms
import numpy as np
import pandas as pd
from matplotlib import _tight_bbox  # savefig's own helper for drawing over a box
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.ticker import Formatter, FuncFormatter, LogFormatterSciNotation, LogLocator
from PIL import Image as PILImage

from . import style

# the project's matplotlib style, set once in ``style``
STYLE: dict[str, Any] = style.RC

CAPTIONS = "captions.json"


@dataclass(frozen=True)
class Caption:
    """What a figure says in words: a one-sentence ``caption`` shown under it, and an ``alt``
    text that describes what it shows for a reader who cannot see it."""

    caption: str
    alt: str

    def __post_init__(self) -> None:
        for field, text in (("caption", self.caption), ("alt", self.alt)):
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"{field}: a non-empty text, got {text!r}")

    def problems(self) -> list[str]:
        """How the caption departs from the style (one line each, one sentence ending with a full
        stop, an alt text of its own); empty when it keeps to it."""
        found = []
        for field, text in (("caption", self.caption), ("alt", self.alt)):
            if text != text.strip() or "\n" in text:
                found.append(f"{field}: one line without surrounding spaces, got {text!r}")
        problem = sentence_problem(self.caption)
        if problem:
            found.append(f"caption: {problem}")
        if self.alt == self.caption:
            found.append("alt: describe what the figure shows; it repeats the caption")
        return found


_SENTENCE_END = re.compile(r"(\S*)[.!?](?=\s+[A-Z(])")
# abbreviations whose full stop ends no sentence: "Eq. (7)", "Fig. 2", "Thm. 1", "et al. (2024)"
_ABBREVIATIONS = {"Eq", "Eqs", "Fig", "Figs", "Thm", "Prop", "Sec", "Cor", "Def", "al", "cf", "vs"}


def sentence_problem(text: str) -> str | None:
    """Why ``text`` is not one sentence (ending with a full stop, none inside), or None."""
    if not text.endswith("."):
        return f"one sentence ending with a full stop, got {text!r}"
    inside = text[:-1]
    # a stop followed by a capital or a parenthesis starts a new sentence, unless it ends an
    # abbreviation
    for stop in _SENTENCE_END.finditer(inside):
        if stop.group(1).lstrip("(") not in _ABBREVIATIONS:
            return f"one sentence, got more than one: {text!r}"
    return None


# set (to anything but "" or "0") by the test suite: a figure or caption that departs from the
# style stops the run there; in a reader's run it is drawn and saved all the same, its departures
# recorded in captions.json ("problems") and said under the figure
STRICT = "CHOOSING_EPSILON_STRICT_FIGURES"


def strict() -> bool:
    """Whether style departures stop the run (the test suite) or are recorded (a reader's run)."""
    return os.environ.get(STRICT, "") not in ("", "0")


def write_caption(
    name: str, caption: Caption, output_dir: str | Path, problems: list[str] | None = None
) -> Path:
    """Record ``caption`` for figure ``name`` in ``output_dir``/captions.json (keys sorted), with
    the figure's style ``problems`` where it has any."""
    path = Path(output_dir) / CAPTIONS
    entries = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    entries[name] = {"caption": caption.caption, "alt": caption.alt}
    if problems:
        entries[name]["problems"] = problems
    text = json.dumps(entries, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
    return path


_SUPERSCRIPTS = str.maketrans("0123456789-\N{MINUS SIGN}+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻⁺")


class PlainLogFormatter(LogFormatterSciNotation):
    """Log-axis tick labels as plain text, 10⁻³ and 2×10³, where matplotlib writes mathtext.

    The labels read the same; mathtext costs a parse per label and renderer, about a fifth of the
    time it takes to save a figure with log axes. Anything that is not a power of ten (or a multiple
    of one) keeps matplotlib's mathtext label.
    """

    def __call__(self, x: float, pos: int | None = None) -> str:
        label = super().__call__(x, pos)
        match = re.fullmatch(r"\$\\mathdefault\{(-?)(?:(\d+)\\times)?(\d+)\^\{(-?\d+)\}\}\$", label)
        if match is None:
            return label
        sign, coefficient, base, exponent = match.groups()
        minus = "\N{MINUS SIGN}" if matplotlib.rcParams["axes.unicode_minus"] else "-"
        return (
            (minus if sign else "")
            + (f"{coefficient}×" if coefficient else "")
            + base
            + exponent.translate(_SUPERSCRIPTS)
        )


class _SparseLogLabels(Formatter):
    """A minor tick's label on a log axis within one decade, in plain digits: on an axis spanning
    a factor of 4 or more only at 2, 3 and 5 times a power of ten (two of those, or of the powers
    of ten the major ticks label, always lie in such a span), every tick on a narrower one."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        low, high = sorted(self.axis.get_view_interval()) if self.axis else (0.0, 0.0)
        if x <= 0:
            return ""
        if low <= 0 or high / low < 4:
            return f"{x:g}"
        mantissa = x / 10 ** math.floor(math.log10(x))
        return f"{x:g}" if any(math.isclose(mantissa, m, rel_tol=1e-9) for m in (2, 3, 5)) else ""


def _log_axes(fig: plt.Figure) -> None:
    """The project's log axes: plain-text labels, and minor ticks at 2 and 5 times each power of
    ten.

    matplotlib's default puts minor ticks at 2, 3, ..., 9 times each power of ten, and updates
    every tick a dozen times per drawing; on axes spanning two or more decades 2 and 5 suffice to
    read a value, and halve the time to save such a figure. Narrower axes keep matplotlib's
    ticks.
    """
    for ax in fig.axes:
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            if axis.get_scale() != "log":
                continue
            for get, put in (
                (axis.get_major_formatter, axis.set_major_formatter),
                (axis.get_minor_formatter, axis.set_minor_formatter),
            ):
                old = get()
                if type(old) is LogFormatterSciNotation:
                    put(
                        PlainLogFormatter(
                            base=old._base,  # type: ignore[attr-defined]  # private in matplotlib
                            labelOnlyBase=old.labelOnlyBase,
                            minor_thresholds=old.minor_thresholds,
                            linthresh=old._linthresh,  # type: ignore[attr-defined]  # private in matplotlib
                        )
                    )
            minor = axis.get_minor_locator()
            low, high = sorted(limits)
            if low > 0 and high / low < 10:
                # within one decade matplotlib labels 2×10⁰, 3×10⁰: plain numbers read better;
                # on a wide enough axis, of the minor ticks only 2, 3 and 5 times a power of ten
                # (6, 7, 8, 9 crowd on an axis less than a decade wide)
                axis.set_major_formatter(FuncFormatter(lambda x, pos: f"{x:g}"))
                axis.set_minor_formatter(_SparseLogLabels())
                continue
            # matplotlib's default minor locator: subs="auto"
            default = type(minor) is LogLocator and isinstance(getattr(minor, "_subs", None), str)
            if default and low > 0 and math.log10(high / low) >= 2:
                axis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))


def use_style() -> None:
    """Apply the project's matplotlib style (``style.RC``)."""
    style.use()


@contextlib.contextmanager
def _titles_kept(fig: plt.Figure) -> Iterator[None]:
    """Within the block, Axes titles stay where the last drawing put them instead of being placed
    again.

    To place a title, matplotlib measures the axis below it in every drawing (a tenth of the cost
    of saving a figure). Once one drawing has placed it, the layout it depends on is fixed, so
    the later drawings of the same figure keep that place: the files come out byte-identical.
    """
    # _autotitlepos: matplotlib's (private) flag for a title it places itself
    placed = [ax for ax in fig.axes if ax._autotitlepos]  # type: ignore[attr-defined]
    for ax in placed:
        ax._autotitlepos = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for ax in placed:
            ax._autotitlepos = True  # type: ignore[attr-defined]


# how far beyond each edge (in inches, a whole number of pixels at the saved dpi) a figure without
# a layout engine is drawn the first time: a legend or label reaching past its canvas (most
# legends below an axes do, by up to an inch) is cut from that same drawing
MARGIN_INCHES = 1.5


@dataclass
class _Drawing:
    """One Agg drawing of a figure at the saved dpi: its pixels (RGBA rows, top first) over its
    canvas and ``margin`` pixels beyond each edge, its tight box in inches, and the style's and
    caption's problems found in it."""

    pixels: np.ndarray
    margin: int
    tight: matplotlib.transforms.Bbox
    found: list[str]


@contextlib.contextmanager
def _agg_at(fig: plt.Figure, dpi: float) -> Iterator[FigureCanvasAgg]:
    """Within the block, ``fig`` sits on an Agg canvas of its own at ``dpi``, as savefig puts it
    (Agg draws, whatever the backend); its own canvas and dpi come back after."""
    canvas, figure_dpi = fig.canvas, fig.dpi
    agg = FigureCanvasAgg(fig)
    try:
        fig.set_dpi(dpi)
        yield agg
    finally:
        fig.set_dpi(figure_dpi)
        fig.set_canvas(canvas)


@contextlib.contextmanager
def _over_box(agg: FigureCanvasAgg, box: matplotlib.transforms.Bbox | None) -> Iterator[None]:
    """Within the block, ``agg``'s figure draws over ``box`` (inches) instead of its own canvas,
    as savefig adjusts it for ``bbox_inches`` (its axes frozen where they stand); None: on its
    canvas."""
    if box is None:
        yield
        return
    restore = _tight_bbox.adjust_bbox(agg.figure, box, agg.get_renderer())
    try:
        yield
    finally:
        restore()


def _draw_checked(agg: FigureCanvasAgg, caption: Caption) -> _Drawing:
    """Draw ``agg``'s figure once, recording its texts, and check that drawing against the style
    and the caption: the drawing saved is the drawing checked, and no other is made for the
    check.

    A figure without a layout engine is drawn over its canvas and ``MARGIN_INCHES`` beyond each
    edge, shifted by whole pixels (so its own pixels are those of a drawing on its canvas), as
    savefig draws over a box; one with a layout engine is drawn on its canvas, since freezing
    the axes where they stand, as drawing over a box requires, would undo its layout."""
    fig = agg.figure
    margin = 0 if fig.get_layout_engine() is not None else round(MARGIN_INCHES * fig.dpi)
    m, (width, height) = margin / fig.dpi, fig.get_size_inches()
    wider = matplotlib.transforms.Bbox.from_extents(-m, -m, width + m, height + m)
    with _over_box(agg, wider if margin else None):
        renderer = agg.get_renderer()  # the renderer ``draw`` reuses
        with style.recording_texts(renderer) as drawn:
            agg.draw()
        # read while the drawing's frame holds: axis labels stand where it put them, in pixels
        found = [*style.problems(fig, style.text_boxes(drawn, renderer)), *caption.problems()]
        with _titles_kept(fig):
            tight = fig.get_tightbbox(renderer).frozen().translated(-m, -m)
        return _Drawing(np.array(agg.buffer_rgba()), margin, tight, found)


def _draw_within(agg: FigureCanvasAgg, box: matplotlib.transforms.Bbox) -> np.ndarray:
    """The pixels of ``agg``'s figure drawn over ``box`` (inches) instead of its own canvas, as
    ``savefig(bbox_inches=box)`` draws it but without laying it out again: the drawing just made
    placed everything, and the layout engine stays off (as savefig keeps it after its own pass)."""
    fig = agg.figure
    held = fig._cm_set(layout_engine="none")  # type: ignore[attr-defined]
    with _over_box(agg, box), held, _titles_kept(fig):
        agg.draw()
        return np.array(agg.buffer_rgba())


# an edge this close to a pixel boundary (in pixels) lies on it: a box read in a drawing's frame,
# shifted by whole pixels, comes back a few ulps off where it sat on a boundary
_ON_THE_BOUNDARY = 1e-6


def _floor(pixels: float) -> int:
    return math.floor(pixels + _ON_THE_BOUNDARY)


def _ceil(pixels: float) -> int:
    return math.ceil(pixels - _ON_THE_BOUNDARY)


def _crop(
    fig: plt.Figure,
    pixels: np.ndarray,
    box: matplotlib.transforms.Bbox,
    dpi: float,
    margin: int = 0,
) -> np.ndarray:
    """The pixels inside ``box`` (inches from the figure's lower left corner) of a drawing that
    reaches ``margin`` pixels beyond each edge of the figure, padded with the figure's face colour
    beyond the drawing, as savefig pads."""
    rows, columns = pixels.shape[:2]
    left, right = _floor(box.x0 * dpi) + margin, _ceil(box.x1 * dpi) + margin
    top, bottom = (
        rows - margin - _ceil(box.y1 * dpi),
        rows - margin - _floor(box.y0 * dpi),
    )  # pixel rows count down
    image = np.empty((bottom - top, right - left, 4), dtype=np.uint8)
    image[...] = np.round(np.asarray(matplotlib.colors.to_rgba(fig.get_facecolor())) * 255)
    y0, y1, x0, x1 = max(top, 0), min(bottom, rows), max(left, 0), min(right, columns)
    image[y0 - top : y1 - top, x0 - left : x1 - left] = pixels[y0:y1, x0:x1]
    return image


def save_figure(
    fig: plt.Figure, name: str, data: pd.DataFrame, output_dir: str | Path, caption: Caption
) -> list[Path]:
    """Write ``name``.png, ``name``.svg and ``name``.csv (the plotted data) to ``output_dir``,
    byte-deterministic, and its caption and alt text to ``captions.json`` there.

    The figure must keep to the project's style (``style.problems``) and its caption to the
    caption's (``Caption.problems``): under the test suite (``strict``) a departure is refused
    before anything is written; in a reader's run the figure is saved all the same and the
    departures are recorded in captions.json, never ending a valid run.

    ``savefig(bbox_inches="tight")`` would lay the figure out to find its box, then draw it, and
    do both again for the second file, and the style check would lay it out once more. Here one
    Agg drawing at the saved dpi gives the texts the check reads (``_draw_checked``: the drawing
    checked is the drawing saved), the box and the PNG, cut from its pixels; the SVG is drawn over
    the same box, keeping the titles where that drawing put them (``_titles_kept``) and the
    layout it made (the layout engine held). When the figure's contents reach beyond what that
    drawing holds (a legend or label far outside), which cutting cannot recover, the PNG is drawn
    once more over the box without a new layout (``_draw_within``: savefig's pixels exactly); only
    when the ``savefig.*`` style asks for another background is it drawn by ``savefig``. The PNG
    drops its alpha channel when every pixel is opaque: the same image, a quarter less to
    compress. Log axes get the project's labels and minor ticks first (``_log_axes``).
    """
    if not name or "/" in name:
        raise ValueError(f"name must be a plain file stem, got {name!r}")
    if not isinstance(data, pd.DataFrame) or data.empty:
        raise ValueError(
            f"data must be a non-empty DataFrame of the plotted values, got {type(data).__name__}"
        )
    if not isinstance(caption, Caption):
        raise ValueError(f"caption: a figures.Caption, got {type(caption).__name__}")
    _log_axes(fig)
    dpi = matplotlib.rcParams["savefig.dpi"]
    dpi = fig.dpi if dpi == "figure" else float(dpi)
    with _agg_at(fig, dpi) as agg:
        drawing = _draw_checked(agg, caption)
        if drawing.found and strict():
            raise ValueError(f"figure style: {name}: " + "; ".join(drawing.found))
        tight = drawing.tight
        box = tight.padded(matplotlib.rcParams["savefig.pad_inches"])
        width, height = fig.get_size_inches()
        reach = drawing.margin / dpi  # how far beyond the figure's edges the drawing holds
        # contents beyond the drawing cannot be cut from it (its padding can: the face colour)
        outside = (
            tight.x0 < -reach
            or tight.y0 < -reach
            or tight.x1 > width + reach
            or tight.y1 > height + reach
        )
        # savefig paints another background
        recoloured = matplotlib.rcParams["savefig.transparent"] or any(
            matplotlib.rcParams[key] != "auto" for key in ("savefig.facecolor", "savefig.edgecolor")
        )
        if recoloured:
            image = None
        elif outside:
            image = _draw_within(agg, box)
        else:
            image = _crop(fig, drawing.pixels, box, dpi, drawing.margin)
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{name}.png", out / f"{name}.svg"]
    with _titles_kept(fig):
        if image is None:
            drawn = io.BytesIO()
            fig.savefig(drawn, format="png", bbox_inches=box)
            with PILImage.open(drawn) as png:
                image = np.asarray(png.convert("RGBA"))
        opaque = bool((image[..., 3] == 255).all())
        PILImage.fromarray(image[..., :3] if opaque else image).save(
            paths[0], format="png", dpi=(dpi, dpi)
        )
        # the SVG keeps the layout the PNG's drawing made (no pass of the layout engine of its own)
        with fig._cm_set(layout_engine="none"):  # type: ignore[attr-defined]
            fig.savefig(paths[1], metadata={"Date": None, "Creator": None}, bbox_inches=box)
    return [*paths, save_table(data, name, out), write_caption(name, caption, out, drawing.found)]


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]$<>])")


def markdown_escaped(text: str) -> str:
    """``text`` with Markdown's special characters escaped, so that it reads as written (a "t*"
    or a "$" in a caption starts no emphasis and no math)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def save_and_show(
    fig: plt.Figure, name: str, data: pd.DataFrame, output_dir: str | Path, caption: Caption
) -> None:
    """``save_figure``, then show the saved PNG in the notebook at screen size, with its alt
    text, and its caption under it, and close the figure (no third drawing)."""
    from IPython.display import Image, Markdown, display

    try:
        written = save_figure(fig, name, data, output_dir, caption)
    finally:
        plt.close(fig)
    png = written[0]
    with PILImage.open(png) as image:
        width = round(image.width * STYLE["figure.dpi"] / STYLE["savefig.dpi"])
    display(Image(filename=png, width=width, alt=caption.alt))
    display(Markdown(f"*{markdown_escaped(caption.caption)}*"))
    recorded = json.loads(written[-1].read_text(encoding="utf-8"))[name].get("problems", [])
    if recorded:
        display(Markdown(f"(Layout note: {markdown_escaped('; '.join(recorded))}.)"))


# the folder a notebook's run writes into, registered by the run's set-up
# (``harness.outputs.start``): ``show`` and ``show_table`` save there without a path in view
_run_folder: Path | None = None


def write_into(folder: str | Path | None) -> None:
    """Make ``folder`` the one ``show`` and ``show_table`` save into (None: display only)."""
    global _run_folder
    _run_folder = None if folder is None else Path(folder)


def show(fig: plt.Figure, name: str, data: pd.DataFrame, caption: Caption) -> None:
    """Show a figure with its caption and, in a notebook's run, save it (PNG, SVG, its data as CSV
    and its caption) into the run's folder: one call, no output path in view."""
    if _run_folder is None:
        from IPython.display import Markdown, display

        display(fig)
        plt.close(fig)
        display(Markdown(f"*{markdown_escaped(caption.caption)}*"))
        return
    save_and_show(fig, name, data, _run_folder, caption)


def show_table(
    table: pd.DataFrame,
    name: str | None = None,
    digits: int | None = None,
    index: bool = False,
    shown: Callable[[pd.DataFrame], pd.DataFrame] | None = None,
    width: int = 80,
    max_colwidth: int | None = 50,
) -> None:
    """Display a table (rounded to ``digits`` decimals if given, then passed through ``shown``:
    e.g. its first rows, or ∞ written out) in lines of ``width`` characters, its text columns cut
    at ``max_colwidth`` (None: never; both default to pandas' own), and, in a notebook's run and
    given a ``name``, save it at full precision as ``name``.csv in the run's folder."""
    from IPython.display import display

    if _run_folder is not None and name is not None:
        save_table(table, name, _run_folder, index=index)
    displayed = table if digits is None else table.round(digits)
    with pd.option_context("display.width", width, "display.max_colwidth", max_colwidth):
        display(displayed if shown is None else shown(displayed))


def say(*sentences: str) -> None:
    """Display sentences that carry a run's numbers as Markdown, one paragraph each, its special
    characters escaped so that each reads as written: how a cell states what it computed."""
    from IPython.display import Markdown, display

    display(Markdown("\n\n".join(markdown_escaped(s) for s in sentences if s)))


def centred_text(ax: plt.Axes, text: str) -> None:
    """Write ``text`` in the middle of ``ax``: what a panel with nothing to draw says instead."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center")


def save_table(table: pd.DataFrame, name: str, output_dir: str | Path, index: bool = False) -> Path:
    """Write a table as ``name``.csv in ``output_dir``, with a stable float format."""
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.csv"
    table.to_csv(path, index=index, float_format="%.10g", lineterminator="\n")
    return path
