"""The tables of every notebook that the README and docs show, generated, never typed.

- From each run's ledger (``figures/<notebook>/claims.csv``): the claims summary
  (``claims_summary``, written to ``figures/claims_summary.csv`` and as the README's status table,
  ``summary_lines``) and the values read off the sources' figures (``figure_readings``).
- From the registry of the notebooks (``harness.papers``): the README's table of sources
  (``sources_lines``) and docs/claims.md's list of the originals compared (``originals_lines``).

Each table sits between two markers of its file (``BLOCKS``). ``write_all`` rewrites them; the
runner calls it after a run of every notebook at the defaults, and
``python -m choosing_epsilon.harness.summary`` does it alone (a test fails while one is stale).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pandas as pd

from . import claims, papers
from .paths import FIGURES, README, ROOT

# the README's status table sits between these lines (``markers("claims-summary")``)
SUMMARY_START, SUMMARY_END = "<!-- claims-summary:start -->", "<!-- claims-summary:end -->"


# the statuses of the source's own claims, each a column of the summary (a note is a slip in the
# wording, counted in a column of its own)
CLAIM_STATUSES = tuple(s for s in claims.STATUSES if s != "note")
SUMMARY_COLUMNS = [
    "notebook",
    "claims",
    *CLAIM_STATUSES,
    "secondary",
    "secondary agreeing",
    "our default",
    "our default agreeing",
    "notes",
]


def _ledgers(names: Sequence[str]) -> Iterator[tuple[str, pd.DataFrame]]:
    """Each notebook of ``names`` that has a ledger, with its figures/<notebook>/claims.csv."""
    for name in names:
        path = FIGURES / name / "claims.csv"
        if path.exists():
            yield name, pd.read_csv(path)


def claims_summary(names: Sequence[str]) -> pd.DataFrame:
    """Counts per notebook from each figures/<notebook>/claims.csv: the source's own claims
    (printed or read off a figure) by status (those below the tolerance's resolution apart from
    the reproduced), and apart from them the secondary-source rows, the rows evaluated at our
    defaults (each with how many agree: reproduced or fitted) and the slips noted in the
    wording."""
    rows = []
    for name, table in _ledgers(names):
        counted = table[table.source.isin(claims.COUNTED_SOURCES) & (table.status != "note")]
        status = counted.status.value_counts()
        agreeing = table.status.isin(claims.AGREEING)
        rows.append(
            {
                "notebook": name,
                "claims": len(counted),
                **{s: int(status.get(s, 0)) for s in CLAIM_STATUSES},
                "secondary": int((table.source == "secondary").sum()),
                "secondary agreeing": int(((table.source == "secondary") & agreeing).sum()),
                "our default": int((table.source == "our default").sum()),
                "our default agreeing": int(((table.source == "our default") & agreeing).sum()),
                "notes": int((table.status == "note").sum()),
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


READING_COLUMNS = ["notebook", "readings", "figures", *CLAIM_STATUSES]


def figure_readings(names: Sequence[str]) -> pd.DataFrame:
    """Per notebook with values read off the source's original figures (rows of kind ``read off a
    figure`` in figures/<notebook>/claims.csv): how many, off how many figures (the rows' distinct
    locations, "Fig. 2"), and how many of them have each status."""
    rows = []
    for name, table in _ledgers(names):
        read = table[table.source == "read off a figure"]
        if not len(read):
            continue
        status = read.status.value_counts()
        rows.append(
            {
                "notebook": name,
                "readings": len(read),
                "figures": int(read.location.nunique()),
                **{s: int(status.get(s, 0)) for s in CLAIM_STATUSES},
            }
        )
    return pd.DataFrame(rows, columns=READING_COLUMNS)


SUMMARY_HEADER = [
    "| notebook | claims (printed or read off a figure) | reproduced | fitted | below resolution "
    "| discrepancy (explained) "
    "| secondary source (agreeing) | our defaults (agreeing) | slips in the wording |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
]


def summary_lines(table: pd.DataFrame) -> list[str]:
    """The README's status table for a ``claims_summary``."""
    lines = list(SUMMARY_HEADER)
    for row in table.to_dict("records"):
        lines.append(
            f"| [{row['notebook']}](notebooks/{row['notebook']}.ipynb) | {row['claims']} | "
            f"{row['reproduced']} "
            f"| {row['fitted']} | {row['below resolution']} | {row['discrepancy']} "
            f"| {row['secondary']} "
            f"({row['secondary agreeing']}) "
            f"| {row['our default']} ({row['our default agreeing']}) | {row['notes']} |"
        )
    return lines


def sources_lines(names: Sequence[str]) -> list[str]:
    """The README's table of sources: each notebook of ``names`` in the reading order, with its
    source's full citation and the entries of references.bib it cites (from the registry)."""
    lines = ["| notebook | source | cited from references.bib as |", "|---|---|---|"]
    for paper in papers.in_reading_order():
        if paper.name in names:
            keys = ", ".join(f"`{key}`" for key in paper.citations)
            lines.append(
                f"| [{paper.name}](notebooks/{paper.name}.ipynb) | {paper.citation} | {keys} |"
            )
    return lines


def originals_lines(names: Sequence[str]) -> list[str]:
    """docs/claims.md's list of the originals compared, source by source: each notebook of
    ``names`` with a source of its own, in the reading order (from the registry)."""
    return [
        f"- **{paper.name}**: {paper.originals}"
        for paper in papers.in_reading_order()
        if paper.name in names and paper.originals
    ]


CLAIMS_DOC = ROOT / "docs" / "claims.md"
# each generated table: its file, the name of its markers, and its lines for the notebooks named
BLOCKS: dict[str, tuple[Path, Callable[[Sequence[str]], list[str]]]] = {
    "claims-summary": (README, lambda names: summary_lines(claims_summary(names))),
    "sources": (README, sources_lines),
    "originals": (CLAIMS_DOC, originals_lines),
}


def markers(block: str) -> tuple[str, str]:
    """The two lines between which the table ``block`` sits in its file."""
    return f"<!-- {block}:start -->", f"<!-- {block}:end -->"


def shown(block: str) -> list[str] | None:
    """The lines of table ``block`` as its file holds them; None where the file has no markers."""
    path, _ = BLOCKS[block]
    start, end = markers(block)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if start not in text or end not in text:
        return None
    return text.split(start, 1)[1].split(end, 1)[0].strip("\n").splitlines()


def _write_block(block: str, lines: list[str]) -> None:
    """Put ``lines`` between table ``block``'s markers (a file without them is left alone)."""
    path, _ = BLOCKS[block]
    start, end = markers(block)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if start in text and end in text:
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        path.write_text(head + start + "\n" + "\n".join(lines) + "\n" + end + tail)


def stale(names: Sequence[str] | None = None) -> list[str]:
    """The tables whose file shows other lines than the ledgers and the registry give."""
    names = papers.names() if names is None else names
    return [block for block, (_, lines) in BLOCKS.items() if shown(block) != lines(names)]


def write_all(names: Sequence[str] | None = None) -> None:
    """Write figures/claims_summary.csv and every table between its markers (``BLOCKS``), for
    ``names`` (default: every notebook)."""
    names = papers.names() if names is None else names
    claims_summary(names).to_csv(FIGURES / "claims_summary.csv", index=False, lineterminator="\n")
    for block, (_, lines) in BLOCKS.items():
        _write_block(block, lines(names))


def main() -> int:
    """``python -m choosing_epsilon.harness.summary``: rewrite every generated table."""
    before = stale()
    write_all()
    for block in before:
        path, _ = BLOCKS[block]
        print(f"{path.relative_to(ROOT)}: table {block!r} rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
