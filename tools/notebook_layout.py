"""Collapse each notebook's machinery in Jupyter, so that a reader sees the argument.

Cells tagged `claims` (the ledger's checks), `setup` (the parameter check and the run's output
folder), `checks` (guards that stop a run whose computation disagrees with itself) and `answer`
(the synthesis's answer, computed at once so that it can open the notebook) and `grader` (an
exercise's checks, the instructor's hidden tests among them) get the
cell metadata `{"jupyter": {"source_hidden": true}}`, which JupyterLab and Notebook 7 honour: the
cell shows as one folded line that a click opens. The site folds the same tags itself.

python tools/notebook_layout.py            # report the cells that are not collapsed (exit 1 if any)
python tools/notebook_layout.py --fix      # collapse them in place (outputs untouched)
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
MACHINERY = ("claims", "setup", "checks", "answer", "grader")


def open_machinery(notebook: nbformat.NotebookNode) -> list[int]:
    """The indices of machinery cells that a reader would see unfolded."""
    return [
        i
        for i, cell in enumerate(notebook.cells)
        if set(cell.metadata.get("tags", [])) & set(MACHINERY)
        and not cell.metadata.get("jupyter", {}).get("source_hidden", False)
    ]


def collapse(notebook: nbformat.NotebookNode) -> int:
    """Fold every machinery cell's source; return how many were changed."""
    indices = open_machinery(notebook)
    for i in indices:
        notebook.cells[i].metadata.setdefault("jupyter", {})["source_hidden"] = True
    return len(indices)


def main(argv: list[str]) -> int:
    fix = "--fix" in argv
    found = 0
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        if fix:
            if collapse(notebook):
                nbformat.write(notebook, path)
        elif indices := open_machinery(notebook):
            found += len(indices)
            print(f"{path.relative_to(ROOT)}: cells {indices} are machinery but not collapsed")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
