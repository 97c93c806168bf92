"""The one visual style of every figure: a colour-blind-safe palette, line styles that survive
greyscale, fixed font sizes, panel letters, axis labels in words, and the check that a figure
keeps to them (``check``, run by ``figures.save_figure`` on every figure it saves).

The palette is Okabe and Ito's (Color Universal Design), eight colours that stay apart under the
common forms of colour blindness. Each colour of the cycle comes with its own line style, so the
n-th curve of any panel differs from the others in dash pattern as well as in colour, and a
greyscale print keeps them apart.
"""

from __future__ import annotations

import re
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
from matplotlib.transforms import Bbox

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


def problems(fig: Figure) -> list[str]:
    """Every way ``fig`` departs from the style, one line each; empty when it keeps to it."""
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
    for first, second in overlapping_texts(fig):
        found.append(f"texts {first[:40]!r} and {second[:40]!r} overlap")
    return list(dict.fromkeys(found))


def drawn_texts(fig: Figure) -> list[tuple[Text, Bbox]]:
    """Every text the figure draws, with its box in display units: one drawing without
    rendering, recording each text as it is drawn (tick labels outside the view are not drawn,
    and so are not counted)."""
    renderer = _get_renderer(fig)
    drawn: list[Text] = []

    def record(*args: Any, mtext: Text | None = None, **kwargs: Any) -> None:
        if mtext is not None:
            drawn.append(mtext)

    with renderer._draw_disabled():  # every draw_* a no-op: nothing is rasterised
        renderer.draw_text = record
        fig.draw(renderer)
    found = []
    for text in dict.fromkeys(drawn):
        if text.get_visible() and text.get_text().strip():
            found.append((text, text.get_window_extent(renderer)))
    return found


def overlapping_texts(fig: Figure) -> list[tuple[str, str]]:
    """The pairs of drawn texts whose boxes overlap (by more than half a point each way)."""
    texts = drawn_texts(fig)
    slack = 0.5 * fig.dpi / 72  # half a point, in pixels
    pairs = []
    for i, (first, one) in enumerate(texts):
        for second, other in texts[i + 1 :]:
            width = min(one.x1, other.x1) - max(one.x0, other.x0)
            height = min(one.y1, other.y1) - max(one.y0, other.y0)
            if width > slack and height > slack:
                pairs.append((first.get_text(), second.get_text()))
    return pairs


def check(fig: Figure) -> None:
    """Refuse a figure that departs from the style, naming every departure."""
    found = problems(fig)
    if found:
        raise ValueError("figure style: " + "; ".join(found))
