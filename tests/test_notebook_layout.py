"""What a reader sees on opening a notebook in JupyterLab: the argument, with the machinery folded.

The set-up cell, the claims cells and the guards carry the cell metadata that folds them
(``tools/notebook_layout.py --fix`` writes it); no guard (``raise``) sits in a cell of the
argument; names say what a value is, not which section computed it; a module has one alias in
every notebook; a Markdown cell is a page or less."""

import ast
import re
import sys

import nbformat
import pytest

from choosing_epsilon.harness import reproduce
from choosing_epsilon.harness.paths import NOTEBOOKS, ROOT

sys.path.insert(0, str(ROOT / "tools"))
import notebook_layout

NAMES = reproduce.notebook_names()
MACHINERY = set(notebook_layout.MACHINERY)
# a section or equation number at the end of a name or between underscores: gamma_41, tol_316,
# e_to_001 (digits after a letter, as in eq12_epsilon or omega1, say what the value is)
NUMBERED = re.compile(r"_\d+(?:_|$)")
PAGE_WORDS = 450  # a printed page of prose


def notebook(name):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def tags(cell):
    return set(cell.metadata.get("tags", []))


def assigned_names(source: str) -> set[str]:
    """Every name a cell's code binds (assignments, loops, comprehensions, functions, imports)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
    return names


@pytest.mark.parametrize("name", NAMES)
def test_machinery_is_folded_in_jupyter(name):
    nb = notebook(name)
    assert notebook_layout.open_machinery(nb) == [], (
        f"{name}: run `python tools/notebook_layout.py --fix` to fold these cells"
    )
    assert any("setup" in tags(c) for c in nb.cells), f"{name}: no cell tagged setup"


@pytest.mark.parametrize("name", NAMES)
def test_no_guard_in_the_argument(name):
    reading = [
        i
        for i, c in enumerate(notebook(name).cells)
        if c.cell_type == "code"
        and not tags(c) & (MACHINERY | {"solution", "grader", "parameters"})
        and any(isinstance(n, ast.Raise) for n in ast.walk(ast.parse(c.source)))
    ]
    assert reading == [], f"{name}: cells of the argument that raise (move them to a checks cell)"


@pytest.mark.parametrize("name", NAMES)
def test_names_say_what_they_hold(name):
    numbered = {
        n
        for c in notebook(name).cells
        if c.cell_type == "code"
        for n in assigned_names(c.source)
        if NUMBERED.search(n)
    }
    assert numbered == set(), f"{name}: names carrying a section or equation number"


def test_a_module_has_one_alias_everywhere():
    aliases: dict[str, set[str]] = {}
    for name in NAMES:
        for c in notebook(name).cells:
            if c.cell_type != "code":
                continue
            for node in ast.walk(ast.parse(c.source)):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("choosing"):
                    for a in node.names:
                        aliases.setdefault(f"{node.module}.{a.name}", set()).add(a.asname or a.name)
    several = {module: names for module, names in aliases.items() if len(names) > 1}
    assert several == {}, "modules imported under more than one name"
    plots = {module: names for module, names in aliases.items() if ".plots." in f"{module}."}
    assert all(names == {"plots"} for m, names in plots.items() if m.count(".") == 2), plots


@pytest.mark.parametrize("name", NAMES)
def test_markdown_cells_are_a_page_or_less(name):
    long = {
        i: len(c.source.split())
        for i, c in enumerate(notebook(name).cells)
        if c.cell_type == "markdown"
        and "solution" not in tags(c)
        and len(c.source.split()) > PAGE_WORDS
    }
    assert long == {}, f"{name}: Markdown cells over {PAGE_WORDS} words (index: words)"


def test_the_rules_catch_what_they_name():
    assert assigned_names("gamma_41 = 1\nfor tol_316 in x: pass\nimport a as e_to_001") == {
        "gamma_41",
        "tol_316",
        "e_to_001",
    }
    assert [
        bool(NUMBERED.search(n)) for n in ("gamma_41", "eq12_epsilon", "omega1", "t2_fits")
    ] == [
        True,
        False,
        False,
        False,
    ]
