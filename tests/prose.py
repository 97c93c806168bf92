"""Numbers in a notebook's prose that belong to its run: the check that no markdown cell types a
result that a run at other parameters changes.

A markdown cell is the same at every parameter; the outputs are not. A number the prose states
(with at least two significant digits, not a year) that the run at the defaults shows (printed,
displayed, in results.json or a CSV it writes) but a run at other parameters does not is a result
of the run typed into the prose: at those parameters the sentence reads false. It passes only
when its sentence says whose number it is: the paper's (or its table, figure, equation, example),
or the default parameter's.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pandas as pd

from tests.notebook_text import outputs_text

# a number as prose writes it: 0.51, 1,274, 15000, 2.5e-05; not part of a word or a longer number
NUMBER = re.compile(r"(?<![\w.,^])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:[eE]([-+]?\d+))?(?![\w]|,\d)")
# a sentence that says whose number it states
LABELLED = re.compile(
    r"paper|printed|publish|\bTable|\bFig|author|report|quot|slide|poster|\bExample|\bEq|"
    r"\(\d+\)|default|Theorem|Lemma|Appendix|Section|registry|deploy",
    re.IGNORECASE,
)
DECIMALS = range(9)
# a number that names a part of a text (Prop. 1.3, Sec. 4.2, Table 12) is no result
REFERENCE = re.compile(
    r"(?:Prop|Cor|Sec|Thm|Theorem|Lemma|Eq|Eqs|Fig|Figs|Table|Tables|Example|Algorithm|App|"
    r"Appendix|Section|Chapter|Definition|Def|Remark|Exercise|Step)\.?\s*$"
)


@dataclass(frozen=True)
class Stated:
    """A number a markdown cell states: its cell, the token, its value and decimals, its
    sentence."""

    cell: int
    token: str
    value: float
    decimals: int
    sentence: str


def _significant_digits(whole: str, fraction: str) -> int:
    digits = (whole.replace(",", "") + fraction.lstrip(".")).lstrip("0")
    return len(digits.rstrip("0")) if not fraction else len(digits)


def stated_numbers(notebook: Path) -> list[Stated]:
    """The numbers the notebook's markdown cells state that could be a run's result: at least
    two significant digits, no whole number below 100 (a count matches some output by chance),
    no year (1900 to 2100 without decimals), and no number that names a part of a text (Prop. 1.3,
    Table 12)."""
    found = []
    nb = nbformat.read(notebook, as_version=4)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        text = cell.source
        # where each sentence ends: a stop and a space, a blank line, a list item or a table row
        ends = [m.start() for m in re.finditer(r"(?<=[.!?:;])\s+|\n\s*\n|\n\s*[-*|]", text)]
        for match in NUMBER.finditer(text):
            whole, fraction, exponent = match.group(1), match.group(2) or "", match.group(3)
            value = _value(match)
            if _significant_digits(whole, fraction) < 2 and not exponent:
                continue
            if not fraction and not exponent and value < 100:
                continue  # a small count (seven exercises, 23 points) matches by chance
            if REFERENCE.search(text[max(match.start() - 24, 0) : match.start()]):
                continue
            if not fraction and not exponent and 1900 <= value <= 2100:
                continue
            decimals = len(fraction) - 1 if fraction else 0
            if exponent:
                decimals = max(decimals - int(exponent), 0)
            start = max([e for e in ends if e < match.start()], default=0)
            stop = min([e for e in ends if e >= match.end()], default=len(text))
            sentence = text[start:stop].strip()
            found.append(Stated(index, match.group(0), value, decimals, sentence))
    return found


def _value(match: re.Match[str]) -> float:
    """The value of a NUMBER match: 1,274 is 1274, 2.5e-05 is 2.5e-05."""
    whole, fraction, exponent = match.group(1), match.group(2) or "", match.group(3)
    return float(whole.replace(",", "") + fraction + (f"e{exponent}" if exponent else ""))


def _numbers_in(text: str) -> list[float]:
    return [_value(match) for match in NUMBER.finditer(text)]


def _walk(value: object) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, dict):
        return [x for item in value.values() for x in _walk(item)]
    if isinstance(value, list):
        return [x for item in value for x in _walk(item)]
    return []


class Shown:
    """Every number a run shows, rounded at each number of decimals prose may use (and as a
    percentage)."""

    def __init__(self, notebook: Path, files: Path) -> None:
        values = _numbers_in(outputs_text(notebook))
        results = files / "results.json"
        if results.is_file():
            values += _walk(json.loads(results.read_text(encoding="utf-8")))
        for table in sorted(files.glob("*.csv")):
            frame = pd.read_csv(table)
            numeric = frame.select_dtypes("number").to_numpy().ravel()
            values += [float(x) for x in numeric]
            for column in frame.select_dtypes(exclude="number"):
                values += _numbers_in(" ".join(map(str, frame[column].tolist())))
        finite = [v for v in values if math.isfinite(v)]
        finite += [100 * v for v in finite]  # a share stated as a percentage
        self.rounded = {d: {round(v, d) for v in finite} for d in DECIMALS}

    def shows(self, stated: Stated) -> bool:
        decimals = min(stated.decimals, max(DECIMALS))
        return round(stated.value, decimals) in self.rounded[decimals]


def run_results_in_prose(
    notebook: Path, default_files: Path, case_notebook: Path, case_files: Path
) -> list[str]:
    """The numbers the prose of ``notebook`` states that its run at the defaults shows, the run at
    other parameters does not, and no word of its sentence labels as the paper's or the
    defaults': one line each, naming the cell and the sentence."""
    at_defaults = Shown(notebook, default_files)
    at_case = Shown(case_notebook, case_files)
    found = []
    for stated in stated_numbers(notebook):
        if at_defaults.shows(stated) and not at_case.shows(stated):
            if LABELLED.search(stated.sentence):
                continue
            found.append(f"cell {stated.cell}: {stated.token!r} in {stated.sentence[:160]!r}")
    return found
