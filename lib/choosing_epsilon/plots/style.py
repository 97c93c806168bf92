"""The one visual style of every figure: a colour-blind-safe palette, line styles that survive
greyscale, fixed font sizes, panel letters, axis labels in words, and the check that a figure
keeps to them (``check``, run by ``figures.save_figure`` on every figure it saves).

The palette is Okabe and Ito's (Color Universal Design), eight colours that stay apart under the
common forms of colour blindness. Each colour of the cycle comes with its own line style, so the
n-th curve of any panel differs from the others in dash pattern as well as in colour, and a
greyscale print keeps them apart.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import matplotlib
import matplotlib.colors as mcolors
import numpy as np
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.backend_bases import _get_renderer  # type: ignore[attr-defined]  # the renderer savefig uses
from matplotlib.collections import Collection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.ticker import LogFormatterSciNotation
from matplotlib.transforms import Bbox, offset_copy

# Okabe & Ito, "Color Universal Design": the colour of each name
OKABE_ITO: dict[str, str] = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "bluish green": "#009E73",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "sky blue": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
}
# the order curves take them in: the darker, most distinct colours first
PALETTE: list[str] = [
    OKABE_ITO[name]
    for name in (
        "blue",
        "orange",
        "bluish green",
        "vermillion",
        "reddish purple",
        "sky blue",
        "black",
        "yellow",
    )
]
# one dash pattern per colour of the cycle: solid, dashed, dash-dot, dotted, then longer patterns
LINESTYLES: list[Any] = [
    "-",
    "--",
    "-.",
    ":",
    (0, (5, 1, 1, 1, 1, 1)),
    (0, (8, 2)),
    (0, (3, 1, 1, 1, 1, 1, 1, 1)),
    (0, (1, 3)),
]
# the most lines of one panel that colour and dash tell apart: a figure takes no more
MAX_SERIES = min(len(PALETTE), len(LINESTYLES))
# the dash patterns of LINESTYLES in words, for alt texts
DASH_NAMES = [
    "solid",
    "dashed",
    "dash-dot",
    "dotted",
    "dash-dot-dot",
    "long-dashed",
    "dash-dot-dot-dot",
    "sparsely dotted",
]
# roles the notebooks share: bounds from above are vermillion, from below blue, references grey
UPPER = OKABE_ITO["vermillion"]
LOWER = OKABE_ITO["blue"]
FEASIBLE = OKABE_ITO["bluish green"]
REFERENCE = "0.45"  # reference lines: thresholds, true values, the paper's numbers

# font sizes in points, the same in every figure
FONT: dict[str, float] = {
    "suptitle": 11,
    "title": 10,
    "label": 10,
    "tick": 9,
    "legend": 8,
    "note": 8,  # words written inside a panel
}

RC: dict[str, Any] = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.family": "DejaVu Sans",  # shipped with matplotlib: the same glyphs on every machine
    "font.size": FONT["label"],
    "axes.titlesize": FONT["title"],
    "axes.labelsize": FONT["label"],
    "xtick.labelsize": FONT["tick"],
    "ytick.labelsize": FONT["tick"],
    "legend.fontsize": FONT["legend"],
    "figure.titlesize": FONT["suptitle"],
    "axes.prop_cycle": cycler(color=PALETTE) + cycler(linestyle=LINESTYLES),
    "lines.linewidth": 1.6,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "svg.hashsalt": "choosing-epsilon",  # stable SVG ids
    "svg.fonttype": "none",  # text stays text: smaller files, no font-dependent glyph paths
}


def use() -> None:
    """Apply the project's matplotlib style."""
    matplotlib.rcParams.update(RC)  # type: ignore[arg-type]  # its keys are typed as literals


def letter(index: int) -> str:
    """The panel letter of the ``index``-th panel (from 0): "(a)", "(b)", ..."""
    if not 0 <= index < 26:
        raise ValueError(f"index: a panel index from 0 to 25, got {index}")
    return f"({chr(ord('a') + index)})"


def panel_title(ax: Axes, index: int, text: str = "") -> None:
    """Title the ``index``-th panel of a figure: its letter, then ``text``, at the left."""
    ax.set_title(f"{letter(index)} {text}".rstrip(), loc="left")


def note(ax: Axes, x: float, y: float, text: str, **kwargs: Any) -> Text:
    """Words written inside a panel, at the notes' size and in grey unless told otherwise."""
    kwargs.setdefault("color", "0.3")
    return ax.text(x, y, text, fontsize=FONT["note"], **kwargs)


class _PlainLogLabels(LogFormatterSciNotation):
    """matplotlib's own choice of which ticks of a log axis to label, each written as a plain
    number (6, 0.6, 1) instead of 6×10⁰."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        return f"{x:g}" if super().__call__(x, pos) else ""


def plain_log_labels(axis: Any) -> None:
    """Label a log ``axis`` (``ax.yaxis``) with plain numbers, at the ticks matplotlib labels."""
    axis.set_major_formatter(_PlainLogLabels())
    axis.set_minor_formatter(_PlainLogLabels(labelOnlyBase=False, minor_thresholds=(2, 0.4)))


# how far below the bottom of a panel a legend under it starts: under the tick labels and x label
LEGEND_DROP = 38  # points


def legend_below(ax: Axes, ncols: int = 1) -> None:
    """The panel's legend centred under its x axis label, where it can cover no data whatever
    the curves do at the run's parameters."""
    below = offset_copy(ax.transAxes, fig=ax.get_figure(root=True), y=-LEGEND_DROP, units="points")
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=below,
        ncols=ncols,
        borderaxespad=0.0,
    )


# --- the check -------------------------------------------------------------------------------

_GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
_WORD = re.compile(r"[A-Za-z]{3,}")
_LETTER = re.compile(r"^\(([a-z])\)(?:\s|$)")


def _outside_parentheses(label: str) -> str:
    """``label`` with every parenthesised part (nested too) removed."""
    depth, kept = 0, []
    for char in label:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def label_problem(label: str) -> str | None:
    """Why ``label`` is not an axis label in words (symbols only in parentheses), or None."""
    words = _outside_parentheses(label.replace("$", ""))
    if not _WORD.search(words):
        return f"axis label {label!r} has no word outside parentheses"
    if _GREEK.search(words) or "\\" in words:
        return f"axis label {label!r} names a variable outside parentheses"
    return None


def _allowed(colour: Any) -> bool:
    """Whether ``colour`` is in the palette, or a neutral grey (black and white included)."""
    if isinstance(colour, str) and colour.lower() == "none":
        return True
    red, green, blue, alpha = mcolors.to_rgba(colour)
    if alpha == 0:
        return True
    hexed = mcolors.to_hex((red, green, blue)).upper()
    return hexed in PALETTE or (red == green == blue)


def drawn_axes(fig: Figure) -> list[Axes]:
    """The figure's visible axes, less colour bars."""
    return [
        ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>" and ax.axison
    ]


def panels(fig: Figure) -> list[Axes]:
    """The figure's panels: its drawn axes less the twins of a panel (the second y axis of
    ``twinx``, which shares its place)."""
    found: list[Axes] = []
    for ax in drawn_axes(fig):
        if all(other.get_position().bounds != ax.get_position().bounds for other in found):
            found.append(ax)
    return found


def _tick_labels_shown(axis: Any) -> bool:
    """Whether ``axis`` (an XAxis or YAxis) shows any tick label."""
    return any(t.get_visible() and t.get_text() for t in axis.get_ticklabels())


def _sibling_labelled(ax: Axes, which: str) -> bool:
    """Whether an axes sharing ``which`` ("x" or "y") with ``ax`` carries that axis's label."""
    shared = ax.get_shared_x_axes() if which == "x" else ax.get_shared_y_axes()
    return any(
        (other.get_xlabel() if which == "x" else other.get_ylabel())
        for other in shared.get_siblings(ax)
        if other is not ax
    )


def _series_key(artist: Line2D) -> tuple[str, str, bool]:
    """What tells a series apart in greyscale: its dash pattern, its marker, a hollow marker."""
    linestyle = artist.get_linestyle()
    drawn = linestyle not in ("None", "none", "", " ") and np.size(artist.get_xdata()) > 1
    return (
        str(artist._dash_pattern) if drawn else "none",  # type: ignore[attr-defined]  # matplotlib private
        str(artist.get_marker()),
        str(artist.get_markerfacecolor()).lower() == "none",
    )


def problems(fig: Figure, texts: list[tuple[Text, Bbox]] | None = None) -> list[str]:
    """Every way ``fig`` departs from the style, one line each; empty when it keeps to it.

    ``texts``: the texts of a drawing just made, as ``text_boxes`` gives them, its renderer still
    the figure's (``figures.save_figure`` checks the drawing it saves); by default the figure is
    drawn without rendering at its own dpi (``drawn_texts``)."""
    found: list[str] = []
    shown = panels(fig)
    for index, ax in enumerate(shown):
        title = ax.get_title("left") or ax.get_title("center")
        match = _LETTER.match(title)
        if len(shown) > 1 and (match is None or f"({match.group(1)})" != letter(index)):
            found.append(
                f"panel {index + 1} of {len(shown)}: title {title!r} lacks {letter(index)}"
            )
        if len(shown) == 1 and match is not None:
            found.append(f"a figure of one panel has a panel letter: {title!r}")
    for index, ax in enumerate(drawn_axes(fig)):
        for which, axis, label in (
            ("x", ax.xaxis, ax.get_xlabel()),
            ("y", ax.yaxis, ax.get_ylabel()),
        ):
            if label:
                problem = label_problem(label)
                if problem:
                    found.append(problem)
            elif _tick_labels_shown(axis) and not _sibling_labelled(ax, which):
                found.append(f"panel {index + 1}: the {which} axis has ticks but no label")
        keys: dict[tuple[str, str, bool], str] = {}
        for line in ax.get_lines():
            for colour in (line.get_color(), line.get_markerfacecolor()):
                if not _allowed(colour):
                    found.append(
                        f"line {line.get_label()!r}: colour {colour!r} is not in the palette"
                    )
            label = str(line.get_label())
            if label.startswith("_") or not line.get_visible():
                continue
            key = _series_key(line)
            if key in keys:
                found.append(
                    f"lines {keys[key]!r} and {label!r} share dash and marker: greyscale cannot "
                    "tell them apart"
                )
            keys[key] = label
        for artist in [*ax.collections, *ax.patches]:
            if str(artist.get_label()).startswith("_"):
                continue
            colours: list[Any] = []
            if isinstance(artist, Collection):
                colours = list(artist.get_facecolor())
            elif isinstance(artist, Patch):
                colours = [artist.get_facecolor()]
            for colour in colours:
                if not _allowed(colour):
                    found.append(
                        f"{artist.get_label()!r}: colour {mcolors.to_hex(colour)} is not in the "
                        "palette"
                    )
    sizes = set(FONT.values())
    for text in fig.findobj(Text):
        if text.get_visible() and text.get_text().strip() and text.get_fontsize() not in sizes:
            found.append(
                f"text {text.get_text()[:40]!r} is {text.get_fontsize():g} pt; sizes are "
                f"{sorted(sizes)}"
            )
    if texts is None:
        texts = drawn_texts(fig)
    for first, second in _overlapping(texts, fig.dpi):
        found.append(f"texts {first[:40]!r} and {second[:40]!r} overlap")
    found.extend(reader_problems(fig, texts))
    return list(dict.fromkeys(found))


def drawn_texts(fig: Figure) -> list[tuple[Text, Bbox]]:
    """Every text the figure draws, with its box in display units: one drawing without
    rendering, recording each text as it is drawn (tick labels outside the view are not drawn,
    and so are not counted)."""
    renderer = _get_renderer(fig)
    # every draw_* a no-op (nothing is rasterised), the texts recorded through the no-op
    with renderer._draw_disabled(), recording_texts(renderer) as drawn:
        fig.draw(renderer)
    return text_boxes(drawn, renderer)


@contextlib.contextmanager
def recording_texts(renderer: Any) -> Iterator[list[Text]]:
    """Within the block, every text drawn (with ``renderer``, or by itself) is appended to the
    list yielded, in drawing order; the drawing itself is unchanged."""
    drawn: list[Text] = []
    own = renderer.__dict__.get("draw_text")  # a no-op set by ``_draw_disabled``, if any
    draw_text = renderer.draw_text

    # the renderer names the text it draws only for a text of one line: a text of several lines
    # is recorded when it draws itself
    def record(*args: Any, mtext: Text | None = None, **kwargs: Any) -> Any:
        if mtext is not None:
            drawn.append(mtext)
        return draw_text(*args, mtext=mtext, **kwargs)

    text_draw = Text.draw

    def draw_recorded(text: Text, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return text_draw(text, *args, **kwargs)

    renderer.draw_text = record
    Text.draw = draw_recorded  # type: ignore[method-assign,assignment]
    try:
        yield drawn
    finally:
        Text.draw = text_draw  # type: ignore[method-assign]
        if own is None:
            del renderer.draw_text
        else:
            renderer.draw_text = own


def text_boxes(drawn: list[Text], renderer: Any) -> list[tuple[Text, Bbox]]:
    """The visible, non-empty texts of ``drawn`` (each once), with their boxes in display units
    as ``renderer`` drew them."""
    found = []
    for text in dict.fromkeys(drawn):
        if text.get_visible() and text.get_text().strip():
            found.append((text, text.get_window_extent(renderer)))
    return found


def overlapping_texts(fig: Figure) -> list[tuple[str, str]]:
    """The pairs of drawn texts whose boxes overlap (by more than half a point each way)."""
    return _overlapping(drawn_texts(fig), fig.dpi)


def _overlapping(texts: list[tuple[Text, Bbox]], dpi: float) -> list[tuple[str, str]]:
    """The pairs of ``texts`` whose boxes overlap by more than half a point each way."""
    slack = 0.5 * dpi / 72  # half a point, in pixels
    pairs = []
    for i, (first, one) in enumerate(texts):
        for second, other in texts[i + 1 :]:
            width = min(one.x1, other.x1) - max(one.x0, other.x0)
            height = min(one.y1, other.y1) - max(one.y0, other.y0)
            if width > slack and height > slack:
                pairs.append((first.get_text(), second.get_text()))
    return pairs


# --- what a reader would notice ---------------------------------------------------------------

_NO_MARKER = ("None", "none", "", " ", None)
_NO_LINE = ("None", "none", "", " ")
_PIXEL = 1.0  # how far (pixels at the figure's dpi) a point may stray before it counts as off


def _points(fig: Figure, size: float) -> float:
    """``size`` points in pixels at the figure's dpi."""
    return size * fig.dpi / 72


def _shrunk(box: Bbox, by: float) -> Bbox:
    """``box`` less ``by`` pixels on every side (never inverted)."""
    dx, dy = min(by, box.width / 2), min(by, box.height / 2)
    return Bbox.from_extents(box.x0 + dx, box.y0 + dy, box.x1 - dx, box.y1 - dy)


def _meet(one: Bbox, other: Bbox) -> Bbox | None:
    """The intersection of two boxes, or None when they do not overlap."""
    x0, y0 = max(one.x0, other.x0), max(one.y0, other.y0)
    x1, y1 = min(one.x1, other.x1), min(one.y1, other.y1)
    return Bbox.from_extents(x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _finite(points: np.ndarray) -> np.ndarray:
    """The rows of ``points`` that are finite."""
    return points[np.isfinite(points).all(axis=1)] if points.size else points.reshape(0, 2)


def _segments_meet(points: np.ndarray, box: Bbox) -> bool:
    """Whether the polyline through ``points`` (display units; a non-finite point breaks it)
    crosses ``box``: Liang and Barsky's clipping, for every segment at once."""
    if len(points) < 2:
        return False
    start, end = points[:-1], points[1:]
    whole = np.isfinite(start).all(axis=1) & np.isfinite(end).all(axis=1)
    start, end = start[whole], end[whole]
    if not len(start):
        return False
    step = end - start
    low, high = np.zeros(len(start)), np.ones(len(start))
    for axis, (least, most) in enumerate(((box.x0, box.x1), (box.y0, box.y1))):
        for p, q in (
            (-step[:, axis], start[:, axis] - least),
            (step[:, axis], most - start[:, axis]),
        ):
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = q / p
            low = np.where(p < 0, np.maximum(low, ratio), low)
            high = np.where(p > 0, np.minimum(high, ratio), high)
            low = np.where((p == 0) & (q < 0), 2.0, low)
    return bool(np.any(low <= high))


def _inside(points: np.ndarray, box: Bbox, margin: float = 0.0) -> np.ndarray:
    """Which of ``points`` (display units) lie within ``box`` widened by ``margin`` pixels."""
    return (
        (points[:, 0] >= box.x0 - margin)
        & (points[:, 0] <= box.x1 + margin)
        & (points[:, 1] >= box.y0 - margin)
        & (points[:, 1] <= box.y1 + margin)
    )


def _line_points(line: Line2D) -> np.ndarray:
    """A line's data in display units (a point at a log axis's zero or below is not finite)."""
    xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
    with np.errstate(all="ignore"):
        return np.asarray(line.get_transform().transform(xy), dtype=float)


def _draws_line(line: Line2D) -> bool:
    return line.get_linestyle() not in _NO_LINE and line.get_linewidth() > 0


def _draws_markers(line: Line2D) -> bool:
    return line.get_marker() not in _NO_MARKER and line.get_markersize() > 0


def _data_artists(ax: Axes) -> list[Any]:
    """What a panel draws as data: its visible lines, collections, patches and images."""
    return [
        artist
        for artist in (*ax.get_lines(), *ax.collections, *ax.patches, *ax.images)
        if artist.get_visible()
    ]


def _artist_meets(fig: Figure, artist: Any, box: Bbox) -> bool:
    """Whether ``artist`` draws anything inside ``box`` (display units)."""
    if isinstance(artist, Line2D):
        points = _line_points(artist)
        if _draws_line(artist) and _segments_meet(points, box):
            return True
        if _draws_markers(artist):
            half = _points(fig, artist.get_markersize()) / 2
            return bool(_inside(_finite(points), box, half).any())
        return False
    if isinstance(artist, Collection):
        offsets = np.asarray(artist.get_offsets(), dtype=float).reshape(-1, 2)
        paths = artist.get_paths()
        if len(offsets) and len(paths) and artist.get_offset_transform() is not None:
            # markers (a scatter): where they sit, widened by their size
            with np.errstate(all="ignore"):
                where = _finite(artist.get_offset_transform().transform(offsets))
            sizes = np.asarray(getattr(artist, "get_sizes", lambda: [36.0])(), dtype=float)
            half = _points(fig, float(np.sqrt(sizes.max())) if sizes.size else 6.0) / 2
            if len(where) > 1 or not np.allclose(offsets, 0):
                return bool(_inside(where, box, half).any())
        transform = artist.get_transform()
        faces = np.asarray(artist.get_facecolor(), dtype=float).reshape(-1, 4)
        filled = bool(len(faces)) and float(faces[:, 3].max()) > 0
        return any(
            transform.transform_path(path).intersects_bbox(box, filled=bool(filled))
            for path in paths
        )
    if isinstance(artist, Patch):
        path = artist.get_transform().transform_path(artist.get_path())
        return bool(path.intersects_bbox(box, filled=artist.get_fill()))
    extent = artist.get_window_extent()
    return _meet(extent, box) is not None


def _name(artist: Any) -> str:
    label = str(artist.get_label())
    return repr(label) if label and not label.startswith("_") else type(artist).__name__


def _over_data(fig: Figure, box: Bbox, owner: Any) -> str | None:
    """The first data artist of any panel that ``box`` (a legend or a text) sits over."""
    for ax in drawn_axes(fig):
        seen = _meet(box, ax.bbox)
        if seen is None:
            continue
        for artist in _data_artists(ax):
            if artist is not owner and _artist_meets(fig, artist, seen):
                return _name(artist)
    return None


def _coincide(one: np.ndarray, other: np.ndarray) -> bool:
    """Whether two series' display points lie on each other (within a pixel at every point)."""
    if one.shape != other.shape or not one.size:
        return False
    finite = np.isfinite(one).all(axis=1)
    if not finite.any() or not np.array_equal(finite, np.isfinite(other).all(axis=1)):
        return False
    return bool(np.abs(one[finite] - other[finite]).max() <= _PIXEL)


def _hides(top: Line2D, below: Line2D) -> bool:
    """Whether ``top``, drawn over a coinciding ``below``, hides it: a solid line at least as
    wide (no gaps, no outline), and the same marker at least as large."""
    line_hidden = not _draws_line(below) or (
        _draws_line(top)
        and top.get_linestyle() in ("-", "solid")
        and top.get_linewidth() >= 0.6 * below.get_linewidth()
    )
    marker_hidden = not _draws_markers(below) or (
        _draws_markers(top)
        and str(top.get_marker()) == str(below.get_marker())
        and top.get_markersize() >= below.get_markersize()
        and str(top.get_markerfacecolor()).lower() != "none"
    )
    return line_hidden and marker_hidden


def reader_problems(fig: Figure, texts: list[tuple[Text, Bbox]] | None = None) -> list[str]:
    """What a reader would notice, one line each: a legend or a text over drawn data, a marked
    point or a labelled line outside its axes, a panel that draws and says nothing, a series
    hidden under another that coincides with it, a log axis with fewer than two labelled ticks,
    a title wider than its figure. The figure must have been drawn (``drawn_texts`` draws it)."""
    if texts is None:
        texts = drawn_texts(fig)
    drawn = {id(text) for text, _ in texts}
    found: list[str] = []
    # the figure's own box in display units (also where a drawing over a wider box put it)
    figure_box = fig.transFigure.transform_bbox(Bbox.unit())
    axes = drawn_axes(fig)
    for number, ax in enumerate(axes, start=1):
        where = f"panel {number}"
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            pad = _points(fig, legend.borderpad * legend._fontsize)  # type: ignore[attr-defined]
            box = _shrunk(legend.get_window_extent(), pad)
            over = _over_data(fig, box, None)
            if over:
                found.append(f"{where}: the legend sits over drawn data ({over})")
        for text in ax.texts:
            if id(text) not in drawn:
                continue
            box = _shrunk(text.get_window_extent(), _points(fig, 1))
            over = _over_data(fig, box, text)
            if over:
                found.append(
                    f"{where}: text {text.get_text()[:40]!r} sits over drawn data ({over})"
                )
        for line in ax.get_lines():
            if not line.get_visible():
                continue
            points = _finite(_line_points(line))
            if _draws_markers(line) and line.get_clip_on() and len(points):
                off = points[~_inside(points, ax.bbox, _PIXEL)]
                if len(off):
                    x, y = ax.transData.inverted().transform(off[0])
                    found.append(
                        f"{where}: a marker of {_name(line)} lies outside the axes (near "
                        f"x={x:.4g}, y={y:.4g}); draw it at the edge with its value"
                    )
            labelled = not str(line.get_label()).startswith("_")
            # a line with no point is a legend's entry, not data
            if (
                labelled
                and len(points)
                and line.get_clip_on()
                and not _artist_meets(fig, line, ax.bbox)
            ):
                found.append(f"{where}: the line {_name(line)} lies wholly outside the axes")
        for first, top in enumerate(ax.get_lines()):
            for below in ax.get_lines()[:first]:
                if not (top.get_visible() and below.get_visible()):
                    continue
                if str(below.get_label()).startswith("_") or top.get_zorder() < below.get_zorder():
                    continue
                if _coincide(_line_points(top), _line_points(below)) and _hides(top, below):
                    found.append(
                        f"{where}: {_name(top)} hides {_name(below)}, which it coincides with; "
                        "offset it, outline it or say so"
                    )
        for which, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if axis.get_scale() != "log" or not _tick_labels_shown(axis):
                continue
            labels = [
                t for t in axis.get_ticklabels(which="both") if id(t) in drawn and t.get_text()
            ]
            if len(labels) < 2:
                found.append(f"{where}: the log {which} axis shows fewer than two labelled ticks")
    for ax in panels(fig):
        stacked = [
            other for other in axes if other.get_position().bounds == ax.get_position().bounds
        ]
        says = any(id(text) in drawn for other in stacked for text in other.texts)
        shows = any(
            _artist_meets(fig, artist, ax.bbox)
            for other in stacked
            for artist in _data_artists(other)
        )
        if not (says or shows):
            found.append(f"panel {axes.index(ax) + 1}: draws nothing and says nothing about why")
    titles = [title for ax in axes for title in (ax.title, ax._left_title, ax._right_title)]  # type: ignore[attr-defined]
    suptitle = getattr(fig, "_suptitle", None)
    titles += [suptitle] if suptitle is not None else []
    for text, box in texts:
        if any(text is title for title in titles) and (
            box.x0 < figure_box.x0 - _PIXEL or box.x1 > figure_box.x1 + _PIXEL
        ):
            found.append(f"title {text.get_text()[:40]!r} is wider than its figure")
    return found


def check(fig: Figure) -> None:
    """Refuse a figure that departs from the style, naming every departure."""
    found = problems(fig)
    if found:
        raise ValueError("figure style: " + "; ".join(found))
