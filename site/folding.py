"""Sections folded on the site as JupyterLab folds them: a notebook's heading cell whose metadata
holds ``"jp-MarkdownHeadingCollapsed": true`` shows its heading, and everything under it up to the
next heading of the same or a higher level sits in a closed ``<details>`` element.

site/build.py marks such a heading cell (``mark_collapsed_sections``: the marker, an HTML comment,
ends the cell), and this Sphinx extension (``setup``, loaded by conf.py) finds the marker in the
document and wraps what follows it in its section."""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes

MARKER = "<!-- folded-section -->"
HEADING = re.compile(r"^#{1,6}\s+\S", re.MULTILINE)
SUMMARY = "Show this section"


def mark_collapsed_sections(cells: list[Any]) -> int:
    """End each collapsed heading cell of a notebook (its ``cells``) with the marker; the number
    of cells marked. A collapsed cell that holds no heading is refused: JupyterLab sets the flag on
    heading cells only."""
    marked = 0
    for cell in cells:
        if cell.cell_type != "markdown" or not cell.metadata.get("jp-MarkdownHeadingCollapsed"):
            continue
        if not HEADING.search(cell.source):
            raise SystemExit(
                "site/build.py: a cell marked jp-MarkdownHeadingCollapsed has no heading: "
                f"{cell.source[:60]!r}"
            )
        cell.source = f"{cell.source.rstrip()}\n\n{MARKER}"
        marked += 1
    return marked


def is_marker(node: nodes.Node) -> bool:
    """Whether ``node`` is the marker, as MyST parses it (a raw HTML block)."""
    return isinstance(node, nodes.raw) and node.astext().strip() == MARKER


def fold_marked_sections(doctree: nodes.document) -> int:
    """Wrap, in each section that holds a marker, what follows the marker in a closed
    ``<details>``; the marker is removed. The number of sections folded."""
    folded = 0
    for marker in list(doctree.findall(is_marker)):
        section = marker.parent
        index = section.index(marker)
        rest = section.children[index + 1 :]
        opening = nodes.raw(
            "",
            f'<details class="folded-section">\n<summary>{SUMMARY}</summary>\n',
            format="html",
        )
        closing = nodes.raw("", "</details>\n", format="html")
        section.children = [*section.children[:index], opening, *rest, closing]
        for child in section.children:
            child.parent = section
        folded += 1
    return folded


def _on_doctree_read(app: Any, doctree: nodes.document) -> None:
    fold_marked_sections(doctree)


def setup(app: Any) -> dict[str, Any]:
    """The Sphinx extension: fold the marked sections of every page as it is read."""
    app.connect("doctree-read", _on_doctree_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
