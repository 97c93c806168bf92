"""Write each notebook's ``parameters`` cell from its declaration in
``choosing_epsilon.harness.parameters`` (names, values and the comments a reader reads), so that a
default is written once.

python tools/parameters_cell.py          # report the notebooks whose cell differs (exit 1 if any)
python tools/parameters_cell.py --fix    # rewrite those cells in place (nothing else changes)

papermill still sees an ordinary cell tagged ``parameters``; change a parameter in
``harness/parameters.py``, then run this with ``--fix``.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import nbformat

from choosing_epsilon.harness import parameters

ROOT = Path(__file__).resolve().parents[1]


def parameters_cell(notebook: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """The one cell of ``notebook`` tagged ``parameters``."""
    cells = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    if len(cells) != 1:
        raise ValueError(f"{name}: {len(cells)} cells tagged 'parameters', expected one")
    return cells[0]


def main(argv: list[str]) -> int:
    fix = "--fix" in argv
    differ = 0
    for name in sorted(parameters.SPECS):
        path = ROOT / "notebooks" / f"{name}.ipynb"
        notebook = nbformat.read(path, as_version=4)
        cell = parameters_cell(notebook, name)
        rendered = parameters.parameters_cell(name)
        if cell.source == rendered:
            continue
        differ += 1
        if fix:
            cell.source = rendered
            nbformat.write(notebook, path)
            print(f"{path.relative_to(ROOT)}: parameters cell written")
        else:
            print(f"{path.relative_to(ROOT)}: parameters cell differs from its declaration")
            diff = difflib.unified_diff(
                cell.source.splitlines(), rendered.splitlines(), "notebook", "declared", lineterm=""
            )
            print("\n".join(diff))
    return 1 if differ and not fix else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
