"""Read comparable values off Kazan & Reiter's original figures and write them as the
``read off a figure`` rows of data/published/kazan_reiter_2024.csv.

The figures are the PNG files in ``Figures/`` of the authors' repository (600 dpi, drawn by their
code_for_paper.R with ggplot2; no licence, so the images stay out of this repository: only the
values read off them are kept, with the method). Every reading is made by pixel positions:

- an axis is calibrated by least squares on the centres of its tick marks (8-pixel dark grey
  marks) or of its grey grid lines (RGB 211), against the tick labels as printed beside them
  (linear axes; log10 for the log axes of Fig. 5);
- a bar's value is its top edge; a curve's minimum is the lowest point of its lower edge less half
  the stroke's thickness (ggplot draws lines with round joins, so the lower edge at a vertex lies
  exactly half a stroke below it), the stroke measured where the same curve is flat;
- a marked point is the centroid of its red pixels.

The precision stated with each reading (the ledger's tolerance) is two pixels on its axis, or more
where the shape makes the position itself uncertain (said in the row). Neither is rounded to
fewer digits than the pixels give: the ledger compares the reading as measured. A rerun writes
the same bytes.

python tools/read_kazan_reiter_figures.py CHECKOUT   # run by `make authors-code`
"""

from __future__ import annotations

import csv
import io
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "data" / "published" / "kazan_reiter_2024.csv"
SOURCE = "read off a figure"
GRID = (211, 211, 211)  # ggplot's "lightgray" grid lines
TICK = (51, 51, 51)  # ggplot's axis tick marks (grey20)
BAR = (89, 89, 89)  # geom_col's default fill (grey35)
CURVE = (0, 0, 0)
DEVIATIONS = {  # Fig. 2's fill per deviation, ggplot's default hue palette
    "0.25": (248, 118, 109),
    "0.5": (124, 174, 0),
    "1": (0, 191, 196),
    "2": (199, 124, 255),
}
SIGNIFICANT = 10  # digits a reading is written to: no rounding a comparison could notice
PROFILES_FIG2 = [(r, a) for r in ("1.2", "2", "5") for a in ("0", "0.1", "0.25", "0.5")]


@dataclass(frozen=True)
class Reading:
    claim_id: str
    location: str
    description: str
    value: float
    precision: float
    method: str


def load(checkout: Path, name: str) -> np.ndarray:
    image = Image.open(checkout / "Figures" / name)
    if image.mode == "P":  # a palette with transparency: through RGBA, as Pillow asks
        image = image.convert("RGBA")
    return np.asarray(image.convert("RGB")).astype(int)


def is_colour(pixels: np.ndarray, colour: Sequence[int]) -> np.ndarray:
    return (pixels == np.asarray(colour)).all(axis=-1)


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """The (first, last) indices of each run of True values."""
    padded = np.concatenate([[False], mask, [False]]).astype(int)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(s), int(e) - 1) for s, e in zip(edges[::2], edges[1::2])]


def centres(mask: np.ndarray, offset: int = 0, shortest: int = 3) -> list[float]:
    return [offset + (s + e) / 2 for s, e in runs(mask) if e - s + 1 >= shortest]


@dataclass(frozen=True)
class Axis:
    """value = intercept + slope × pixel (or 10 ** that, for a log axis)."""

    intercept: float
    slope: float
    log: bool = False

    @classmethod
    def fit(cls, pixels: Sequence[float], labels: Sequence[float], log: bool = False) -> Axis:
        if len(pixels) != len(labels):
            raise ValueError(f"{len(pixels)} marks found for {len(labels)} labels: {pixels}")
        y = np.log10(labels) if log else np.asarray(labels, float)
        slope, intercept = np.polyfit(np.asarray(pixels, float), y, 1)
        residual = np.abs(intercept + slope * np.asarray(pixels) - y).max()
        if residual > abs(slope):  # the marks must sit on one line to within a pixel
            raise ValueError(f"axis marks off a line by {residual / abs(slope):.1f} pixels")
        return cls(float(intercept), float(slope), log)

    def __call__(self, pixel: float) -> float:
        value = self.intercept + self.slope * pixel
        return float(10**value if self.log else value)

    def per_pixel(self) -> float:
        return abs(self.slope)


def grid_axis(a: np.ndarray, column: int, rows: tuple[int, int], labels: Sequence[float]) -> Axis:
    """A vertical axis from the centres of the grid lines crossing ``column`` in ``rows``."""
    found = centres(is_colour(a[rows[0] : rows[1], column], GRID), rows[0])
    return Axis.fit(found, labels)


# --- Fig. 2: Durham County's bars -----------------------------------------------------------------


def figure2(checkout: Path) -> list[Reading]:
    a = load(checkout, "choosing_eps_real_dat.png")
    panels = {  # rows of each panel, and its tick labels from the bottom up
        "epsilon": ((1400, 2000), [0.0, 0.5, 1.0, 1.5, 2.0]),
        "rmse": ((740, 1330), [0, 2, 4, 6, 8]),
        "switch": ((0, 660), [0.0, 0.1, 0.2, 0.3, 0.4]),
    }
    zero_row = {}
    bars = runs(is_colour(a[1985], BAR))  # the ε panel's 12 bars, just above its zero line
    if len(bars) != 12:
        raise ValueError(f"Fig. 2: {len(bars)} bars found in the ε panel, expected 12")
    gap = (bars[0][1] + bars[1][0]) // 2  # a column between two bars: grid lines unbroken there
    axes = {}
    for name, (rows, labels) in panels.items():
        axes[name] = grid_axis(a, gap, rows, labels[::-1])  # rows run downwards
        zero_row[name] = rows
    readings = []
    method = (
        "top edge of the bar against the panel's grid lines (least squares on their centres, "
        "labels {labels}); Figures/choosing_eps_real_dat.png, 600 dpi; precision two pixels"
    )
    for index, ((r, ã), (first, last)) in enumerate(zip(PROFILES_FIG2, bars)):
        x = (first + last) // 2
        for name, label, colour, column in (
            ("epsilon", "implied epsilon", BAR, x),
            ("rmse", "RMSE", BAR, x),
        ):
            rows, labels = panels[name]
            band = is_colour(a[rows[0] : rows[1], column], colour)
            top = rows[0] + int(np.flatnonzero(band)[0])
            axis = axes[name]
            readings.append(
                Reading(
                    f"fig2_{name}_r{r}_a{ã}",
                    "Fig. 2",
                    f"{label} of profile (17) at r~ = {r}, a~ = {ã} (bar {index + 1} of 12)",
                    axis(top - 0.5),
                    2 * axis.per_pixel(),
                    method.format(labels=", ".join(f"{v:g}" for v in labels)),
                )
            )
        width = last - first + 1  # the dodged bars share the group's width in four
        rows, labels = panels["switch"]
        for k, (deviation, colour) in enumerate(DEVIATIONS.items()):
            column = round(first + (k + 0.5) * width / 4)
            band = is_colour(a[rows[0] : rows[1], column], colour)
            hit = np.flatnonzero(band)
            axis = axes["switch"]
            value = axis(rows[0] + hit[0] - 0.5) if hit.size else 0.0
            readings.append(
                Reading(
                    f"fig2_switch{deviation}_r{r}_a{ã}",
                    "Fig. 2",
                    f"probability the decision changes at deviation {deviation}, r~ = {r}, "
                    f"a~ = {ã}",
                    max(value, 0.0),
                    2 * axis.per_pixel(),
                    method.format(labels=", ".join(f"{v:g}" for v in labels))
                    + f"; the bar of fill RGB{colour}, the {k + 1}th of its group of four (a bar "
                    "under one pixel high reads 0)",
                )
            )
    return readings


# --- Fig. 1: the two agencies' curves -------------------------------------------------------------


def _ticks_x(a: np.ndarray, row: int, columns: tuple[int, int]) -> list[float]:
    return centres(is_colour(a[row, columns[0] : columns[1]], TICK), columns[0])


def figure1(checkout: Path) -> list[Reading]:
    a = load(checkout, "choosing_eps_risks.png")
    left, right = (0, 1950), (1950, 3900)
    x_axes = {
        "Agency 1": Axis.fit(_ticks_x(a, 1505, left), [0.0, 0.1, 0.2, 0.3]),
        "Agency 2": Axis.fit(_ticks_x(a, 1505, right), [0.0, 0.25, 0.5, 0.75, 1.0]),
    }
    readings = []
    for agency, columns, claim, prior in (
        ("Agency 1", left, "agency1", "p"),
        ("Agency 2", right, "agency2", "q"),
    ):
        ticks = _ticks_x(a, 1505, columns)
        # the panel's columns: from just left of the first tick to just right of the last (the
        # curve ends at 1/3 in Agency 1's panel), leaving out the axis titles' black text
        c0, c1 = int(ticks[0]) - 60, int(ticks[-1]) + (200 if prior == "p" else 60)
        probe = c0 + 700  # a column inside the panel clear of the curve's ends
        lower = grid_axis(a, probe, (1000, 1490), [3, 2, 1, 0])
        curve = is_colour(a[1000:1490, c0:c1], CURVE)
        upper = is_colour(a[200:700, c0:c1], CURVE)
        # the stroke's thickness, where the r* curve is flat at r~ = 3 (its right end)
        flat = [e - s + 1 for s, e in runs(upper[:, -1 - np.flatnonzero(upper.any(0)[::-1])[0]])]
        half = flat[0] / 2
        bottoms = np.array([1000 + np.flatnonzero(col)[-1] if col.any() else -1 for col in curve.T])
        lowest = bottoms.max()
        where = np.flatnonzero(bottoms == lowest)
        eps_min = lower(lowest + 0.5 - half)
        x_axis = x_axes[agency]
        argmin = x_axis(c0 + where.mean())
        # the kink of r*: the first column from the left where the stroke's top reaches the flat
        # part's top (the flat part at r~ = 3 spans the rest of the panel)
        tops = np.array([np.flatnonzero(col)[0] if col.any() else 10**6 for col in upper.T])
        flat_top = tops[np.flatnonzero(upper.any(0))[-1]]
        kink = x_axis(c0 + np.flatnonzero(tops == flat_top)[0])
        method = (
            "Figures/choosing_eps_risks.png, 600 dpi: y from the lower panel's grid lines "
            "(labels 0, 1, 2, 3), x from the tick marks (labels {xlabels})"
        )
        xlabels = "0.0, 0.1, 0.2, 0.3" if prior == "p" else "0.00, 0.25, 0.50, 0.75, 1.00"
        method = method.format(xlabels=xlabels)
        readings += [
            Reading(
                f"fig1_{claim}_min_epsilon",
                "Fig. 1",
                f"{agency}: the lowest point of the lower panel's curve (its epsilon)",
                eps_min,
                2 * lower.per_pixel(),
                method + "; the lower edge's lowest row less half the stroke "
                f"({flat[0]} pixels, measured on the flat r* = 3); precision two pixels",
            ),
            Reading(
                f"fig1_{claim}_kink",
                "Fig. 1",
                f"{agency}: the prior {prior} where the upper panel's r* reaches r~ = 3",
                kink,
                flat[0] * x_axis.per_pixel(),
                method + "; the first column where the stroke's top meets the flat part's; "
                "precision one stroke's width (the join rounds the corner by up to that)",
            ),
        ]
        if agency == "Agency 1":  # a sharp V: its vertex fixes the minimiser too
            readings.append(
                Reading(
                    f"fig1_{claim}_argmin",
                    "Fig. 1",
                    f"{agency}: the prior p at the lowest point of the lower panel's curve",
                    argmin,
                    4 * x_axis.per_pixel(),
                    method + "; the mean column of the lowest row; precision four pixels",
                )
            )
    return readings


# --- Fig. 5: the marked optimum -------------------------------------------------------------------


def figure5(checkout: Path) -> list[Reading]:
    a = load(checkout, "choosing_eps_ex_2D.png")
    red = is_colour(a, (255, 0, 0))  # ggplot2 "red"
    readings = []
    for panel, rows, tick_row, claim in (
        ("top", (0, 1800), 1598, "r_star"),
        ("bottom", (1800, 3600), 3300, "epsilon"),
    ):
        ys, xs = np.nonzero(red[rows[0] : rows[1]])
        x, y = xs.mean(), rows[0] + ys.mean()
        x_axis = Axis.fit(_ticks_x(a, tick_row, (300, 3400)), [0.01, 0.1, 1.0], log=True)
        y_ticks = centres(is_colour(a[rows[0] : rows[1], 348], TICK), rows[0])
        y_axis = Axis.fit(y_ticks, [1.0, 0.1, 0.01], log=True)
        decade = 1 / y_axis.per_pixel()
        method = (
            "Figures/choosing_eps_ex_2D.png, 600 dpi: centroid of the red point's pixels "
            f"({ys.size}) against the log10 tick marks 0.01, 0.10, 1.00 of both axes "
            f"({decade:.0f} pixels a decade); precision two pixels, a factor "
            f"{10 ** (2 / decade):.4f}"
        )
        for name, axis, at in (("p", x_axis, x), ("q", y_axis, y)):
            value = axis(at)
            readings.append(
                Reading(
                    f"fig5_{claim}_point_{name}",
                    "App. C.3 / Fig. 5",
                    f"{panel} panel: {name} of the red point marking the minimum",
                    value,
                    value * (10 ** (2 / decade) - 1),
                    method,
                )
            )
    return readings


# --- Figs. 3 and 4: curves coloured by epsilon ----------------------------------------------------


def saturated(pixels: np.ndarray) -> np.ndarray:
    """The viridis colours of the curves and the colour bar (not white, grey or black text)."""
    return (pixels.max(axis=-1) - pixels.min(axis=-1)) > 40


@dataclass(frozen=True)
class ColourBar:
    """The legend's colour bar: its colour per pixel row and the axis of its tick marks."""

    rows: np.ndarray  # pixel row of each sampled colour
    colours: np.ndarray  # RGB per row
    axis: Axis

    def value(self, colour: np.ndarray) -> float:
        """The value of the bar's row nearest in RGB to ``colour``."""
        nearest = int(np.argmin(np.abs(self.colours - colour).sum(axis=1)))
        return self.axis(float(self.rows[nearest]))


def colour_bar(a: np.ndarray, labels: Sequence[float]) -> ColourBar:
    """Find the bar right of the panels; calibrate it on its white tick marks strictly inside it
    (three rows each, viridis above and below), labelled ``labels`` from the top down."""
    right = saturated(a[:, 3300:])
    left = 3300 + int(np.flatnonzero(right.sum(axis=0) > 200)[0])
    edge, centre = a[:, left + 2], a[:, left + 30]
    inside = np.flatnonzero(saturated(centre))
    rows = np.arange(inside[0], inside[-1] + 1)
    ticks = [
        (s + e) / 2
        for s, e in runs(is_colour(edge, (255, 255, 255)))
        if e - s == 2 and saturated(edge[s - 1]) and saturated(edge[e + 1])
    ]
    return ColourBar(rows, centre[rows], Axis.fit(ticks, labels))


def _tick_groups(a: np.ndarray, row: int, per_panel: int) -> list[list[float]]:
    found = _ticks_x(a, row, (0, a.shape[1]))
    return [found[i : i + per_panel] for i in range(0, len(found), per_panel)]


def _curve_readings(
    a: np.ndarray,
    rows: tuple[int, int],
    columns: tuple[int, int],
    x_axis: Axis,
    y_axis: Axis,
    bar: ColourBar,
    flat: bool,
) -> dict[str, float]:
    """The curve's kink (where it turns flat), its level there and its colour's value; or, for a
    curve with no flat part, its level and colour's value at its right end."""
    curve = saturated(a[rows[0] : rows[1], columns[0] : columns[1]])
    present = np.flatnonzero(curve.any(axis=0))
    end = int(present[-1])
    tops = np.array([np.flatnonzero(c)[0] if c.any() else -1 for c in curve.T])
    bottoms = np.array([np.flatnonzero(c)[-1] if c.any() else -1 for c in curve.T])
    if flat:
        at = int(np.flatnonzero(tops == tops[end])[0])
        sample = range(at, at + 16)
    else:
        at = end
        sample = range(end - 10, end - 2)  # the round cap, in the last segment's colour
    pixels = [a[rows[0] + y, columns[0] + x] for x in sample for y in np.flatnonzero(curve[:, x])]
    level = rows[0] + (tops[at] + bottoms[at]) / 2
    return {
        "x": x_axis(columns[0] + at),
        "level": y_axis(level),
        "epsilon": bar.value(np.median(np.array(pixels), axis=0)),
        "stroke": float(bottoms[end] - tops[end] + 1),
    }


def _coloured_figure(
    checkout: Path,
    name: str,
    figure: str,
    panels: Sequence[tuple[str, str, int, bool]],
    per_panel: int,
    x_labels: Sequence[float],
    y_rows: tuple[int, int],
    y_labels: Sequence[float],
) -> list[Reading]:
    a = load(checkout, name)
    bar = colour_bar(a, [3, 2, 1])
    tick_row = 2106 if figure == "Fig. 3" else 1102
    groups = _tick_groups(a, tick_row, per_panel)
    y_ticks = centres(
        is_colour(a[y_rows[0] : y_rows[1], 322 if figure == "Fig. 3" else 276], TICK), y_rows[0]
    )
    y_axis = Axis.fit(y_ticks, y_labels, log=True)
    per_unit = 1 / bar.axis.per_pixel()
    method = (
        f"Figures/{name}, 600 dpi: x and r* from the log10 tick marks (x labels "
        f"{', '.join(f'{v:g}' for v in x_labels)}; r* labels 30, 10, 3, 1), epsilon from the "
        "curve's median colour matched (nearest RGB) to the colour bar's, calibrated on its "
        f"tick marks 3, 2, 1 ({per_unit:.0f} pixels a unit)"
    )
    readings = []
    for claim, label, index, flat in panels:
        ticks = groups[index]
        x_axis = Axis.fit(ticks, x_labels, log=True)
        columns = (int(ticks[0]) - 60, int(ticks[-1]) + 160)
        read = _curve_readings(a, y_rows, columns, x_axis, y_axis, bar, flat)
        where = "where the curve turns flat" if flat else "at the curve's right end"
        factor = 10 ** (read["stroke"] * x_axis.per_pixel())
        readings += [
            Reading(
                f"{claim}_epsilon",
                figure,
                f"{label}: epsilon {where}, from the colour",
                read["epsilon"],
                0.05,
                method + "; the stroke's pixels over 16 columns from the kink, or over 8 columns "
                "of the round end cap, which has the colour of the curve's last segment (its "
                "value at the last point but one); precision 0.05 (ten pixels of the bar)",
            ),
        ]
        if flat:  # a slanted end's level is blurred by its round cap: read flat levels only
            readings.append(
                Reading(
                    f"{claim}_r_star",
                    figure,
                    f"{label}: r* {where}",
                    read["level"],
                    read["level"] * (10 ** (2 * y_axis.per_pixel()) - 1),
                    method + "; the stroke's middle row; precision two pixels",
                ),
            )
            readings.append(
                Reading(
                    f"{claim}_kink",
                    figure,
                    f"{label}: the prior where the curve turns flat",
                    read["x"],
                    read["x"] * (factor - 1),
                    method + "; the first column where the stroke's top meets the flat part's; "
                    "precision one stroke's width",
                ),
            )
    return readings


def _baselines(checkout: Path) -> list[Reading]:
    """Fig. 3's upper row: each baseline's colour at its left end (p = 0.01), read against the
    one colour bar the figure shows."""
    a = load(checkout, "choosing_eps_ex1.png")
    bar = colour_bar(a, [3, 2, 1])
    readings = []
    for k, ticks in enumerate(_tick_groups(a, 2106, 4)):
        columns = (int(ticks[0]) - 60, int(ticks[-1]) + 160)
        curve = saturated(a[150:1080, columns[0] : columns[1]])
        start = int(np.flatnonzero(curve.any(axis=0))[0])
        pixels = [
            a[150 + y, columns[0] + x]
            for x in range(start + 2, start + 10)
            for y in np.flatnonzero(curve[:, x])
        ]
        readings.append(
            Reading(
                f"fig3_baseline{k + 1}_left_epsilon",
                "Fig. 3",
                f"Baseline {k + 1} (upper panel {k + 1}): epsilon at its left end, p = 0.01, "
                "from the colour read against the figure's colour bar",
                bar.value(np.median(np.array(pixels), axis=0)),
                0.05,
                "Figures/choosing_eps_ex1.png, 600 dpi: the median colour of 8 columns of the "
                "round cap at the curve's left end (the colour of its first segment, p = 0.01) "
                "matched (nearest RGB) to the colour bar, calibrated on its tick marks 3, 2, 1; "
                "precision 0.05 (ten pixels of the bar)",
            )
        )
    return readings


def figure3(checkout: Path) -> list[Reading]:
    panels = [
        (f"fig3_agency{letter}", f"agency {letter} (lower panel {k + 1})", k, True)
        for k, letter in enumerate("ABC")
    ]
    return _baselines(checkout) + _coloured_figure(
        checkout,
        "choosing_eps_ex1.png",
        "Fig. 3",
        panels,
        4,
        [0.01, 0.03, 0.1, 0.3],
        (1280, 2100),
        [30, 10, 3, 1],
    )


def figure4(checkout: Path) -> list[Reading]:
    panels = [
        ("fig4_agencyA", "agency A (panel 2, a~ = 0.025)", 1, True),
        ("fig4_agencyB", "agency B (panel 3, a~ = 0.15)", 2, False),
        ("fig4_agencyC", "agency C (panel 4, a~ = 0.3)", 3, False),
    ]
    return _coloured_figure(
        checkout,
        "choosing_eps_ex2.png",
        "Fig. 4",
        panels,
        5,
        [0.01, 0.03, 0.1, 0.3, 1],
        (150, 1080),
        [30, 10, 3, 1],
    )


# --- the ledger -----------------------------------------------------------------------------------


def written(value: float) -> str:
    """A reading or its precision as the ledger holds it: to ``SIGNIFICANT`` digits, a step a
    million times finer than any precision stated, so that no comparison depends on it (a reading
    rounded to its printed-looking digits once let a value two pixels off pass), yet the same on
    every CPU (the last bits of a least-squares fit may differ)."""
    return repr(float(f"{value:.{SIGNIFICANT}g}"))


def ledger_rows(readings: list[Reading]) -> list[list[str]]:
    rows = []
    for r in readings:
        if not (math.isfinite(r.value) and r.precision > 0):
            raise ValueError(f"{r.claim_id}: reading {r.value!r} ± {r.precision!r}")
        text = [r.claim_id, r.location, r.description]
        rows.append([*text, written(r.value), written(r.precision), SOURCE, r.method])
    return rows


def write_ledger(readings: list[Reading]) -> None:
    """Replace the ledger's ``read off a figure`` rows by these, keeping every other line."""
    lines = LEDGER.read_text().splitlines(keepends=True)
    header, body = lines[0], lines[1:]
    kept = [line for line in body if next(csv.reader([line]))[5] != SOURCE]
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(ledger_rows(readings))
    LEDGER.write_text(header + "".join(kept) + text.getvalue())


def main(argv: list[str]) -> None:
    if len(argv) != 1 or not (Path(argv[0]) / "Figures").is_dir():
        print(
            "read_kazan_reiter_figures: give a checkout of the authors' repository (with Figures/)",
            file=sys.stderr,
        )
        raise SystemExit(2)
    checkout = Path(argv[0])
    readings = figure1(checkout) + figure2(checkout) + figure3(checkout) + figure4(checkout)
    readings += figure5(checkout)
    write_ledger(readings)
    print(f"{LEDGER.relative_to(ROOT)}: {len(readings)} values read off the figures")


if __name__ == "__main__":
    main(sys.argv[1:])
