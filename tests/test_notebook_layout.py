"""What a reader sees on opening a notebook in JupyterLab: the argument, with the machinery folded.

The set-up cell, the claims cells and the guards carry the cell metadata that folds them
(``tools/notebook_layout.py --fix`` writes it); no guard (``raise``) sits in a cell of the
argument; no visible cell does the bookkeeping (the harness: ledger, claim ids, tolerances, output
paths); visible code cells are short, and Markdown cells too; a notebook opens with a short header
before its first result, and a paper's notebook marks where the reproduction ends ("Beyond the
paper") and folds its forensics; names say what a value is, not which section computed it; the
package's modules are imported under one convention in every notebook."""

import ast
import re
import sys

import nbformat
import pandas as pd
import pytest

from choosing_epsilon.harness import reproduce
from choosing_epsilon.harness.paths import NOTEBOOKS, PUBLISHED, ROOT

sys.path.insert(0, str(ROOT / "tools"))
import notebook_layout

NAMES = reproduce.notebook_names()
MACHINERY = set(notebook_layout.MACHINERY)
# a section or equation number at the end of a name or between underscores: gamma_41, tol_316,
# e_to_001 (digits after a letter, as in eq12_epsilon or omega1, say what the value is)
NUMBERED = re.compile(r"_\d+(?:_|$)")
CELL_WORDS = 250  # a Markdown cell a reader takes in at once
HEADER_WORDS = 150  # the words before a notebook's first figure or result
MEAN_CODE_LINES = 8  # non-blank lines a visible code cell, on average
# notebooks that reproduce no single paper: no "Beyond the paper" boundary to mark
SYNTHESES = {"synthesis"}
# what only the folded cells may name: the harness and what it keeps (the ledger, the run's
# output folder and results), and tolerances
BOOKKEEPING_NAMES = {
    "claims",
    "ledger",
    "outputs",
    "parameters",
    "PUBLISHED",
    "out",
    "output_dir",
    "results",
}
BOOKKEEPING_CALLS = {"save_and_show", "save_table", "save_figure", "write_results", "finish"}
TOLERANCE = re.compile(r"^(tol|tolerance)|_tol$|_tolerance$|^TOL", re.IGNORECASE)
# names built on a section, equation or example number where a meaning would do
NUMBERED_WORDS = re.compile(r"(^|_)(dens|t\d|twod|c\d|s\d|eq\d*|sec\d*)(_|\d|$)", re.IGNORECASE)
BEYOND = re.compile(r"^## Beyond the paper\s*$", re.MULTILINE)
FORENSICS = re.compile(r"^## Forensics\b", re.MULTILINE)


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


def hidden(cell) -> bool:
    return bool(cell.metadata.get("jupyter", {}).get("source_hidden", False))


def outputs_hidden(cell) -> bool:
    return bool(cell.metadata.get("jupyter", {}).get("outputs_hidden", False))


def visible_code(nb, parameters: bool = True) -> list:
    """The code cells a reader sees unfolded (the parameters cell only with ``parameters``)."""
    return [
        c
        for c in nb.cells
        if c.cell_type == "code" and not hidden(c) and (parameters or "parameters" not in tags(c))
    ]


def code_lines(cell) -> int:
    return sum(1 for line in cell.source.splitlines() if line.strip())


def claim_ids(name) -> set[str]:
    path = PUBLISHED / f"{name}.csv"
    return set(pd.read_csv(path)["claim_id"]) if path.exists() else set()


def bookkeeping(source: str, ids: set[str]) -> set[str]:
    """What a cell's code does of the bookkeeping: harness imports, the ledger's and the run's
    names, tolerances, saving with a path, claim ids."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and "harness" in (node.module or "").split("."):
            found.add(f"import from {node.module}")
        elif isinstance(node, ast.Import) and any("harness" in a.name for a in node.names):
            found.add("import of the harness")
        elif isinstance(node, ast.Name) and (
            node.id in BOOKKEEPING_NAMES or TOLERANCE.search(node.id)
        ):
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in BOOKKEEPING_CALLS:
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ids:
            found.add(f"claim id {node.value!r}")
    return found


def headings(nb) -> list[tuple[int, str]]:
    return [
        (i, line)
        for i, c in enumerate(nb.cells)
        if c.cell_type == "markdown"
        for line in c.source.splitlines()
        if line.startswith("#")
    ]


@pytest.mark.parametrize("name", NAMES)
def test_no_visible_cell_does_the_bookkeeping(name):
    nb, ids = notebook(name), claim_ids(name)
    found = {
        i: sorted(done)
        for i, c in enumerate(nb.cells)
        if c in visible_code(nb, parameters=False) and (done := bookkeeping(c.source, ids))
    }
    assert found == {}, f"{name}: visible cells doing bookkeeping (index: what), fold or move them"


@pytest.mark.parametrize("name", NAMES)
def test_visible_code_cells_are_short(name):
    cells = visible_code(notebook(name))
    mean = sum(code_lines(c) for c in cells) / max(1, len(cells))
    assert mean <= MEAN_CODE_LINES, (
        f"{name}: visible code cells average {mean:.1f} lines (at most {MEAN_CODE_LINES})"
    )


@pytest.mark.parametrize("name", NAMES)
def test_markdown_cells_are_short(name):
    long = {
        i: len(c.source.split())
        for i, c in enumerate(notebook(name).cells)
        if c.cell_type == "markdown" and len(c.source.split()) > CELL_WORDS
    }
    assert long == {}, f"{name}: Markdown cells over {CELL_WORDS} words (index: words)"


def words_before_first_result(nb) -> int:
    """The words of the Markdown cells before the first cell that shows a result: a code cell
    with outputs, folded or not (folding hides a cell's code, never its output: the synthesis's
    answer is the output of a folded cell)."""
    words = 0
    for c in nb.cells:
        if c.cell_type == "code" and c.get("outputs") and not outputs_hidden(c):
            return words
        if c.cell_type == "markdown":
            words += len(c.source.split())
    return words


@pytest.mark.parametrize("name", NAMES)
def test_a_short_header_before_the_first_result(name):
    words = words_before_first_result(notebook(name))
    assert words <= HEADER_WORDS, (
        f"{name}: {words} words before the first figure or result (at most {HEADER_WORDS})"
    )


@pytest.mark.parametrize("name", sorted(set(NAMES) - SYNTHESES))
def test_the_reproduction_ends_where_beyond_the_paper_begins(name):
    nb = notebook(name)
    beyond = [
        i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and BEYOND.search(c.source)
    ]
    assert len(beyond) == 1, f"{name}: one '## Beyond the paper' heading, found {len(beyond)}"
    assert "](#Beyond-the-paper)" in nb.cells[0].source, (
        f"{name}: the header links to the Beyond the paper section"
    )
    assert any(i < beyond[0] and line.startswith("## ") for i, line in headings(nb)), (
        f"{name}: no section of the reproduction before Beyond the paper"
    )


@pytest.mark.parametrize("name", NAMES)
def test_forensics_sections_are_folded_after_the_reproduction(name):
    nb = notebook(name)
    sections = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "markdown" and FORENSICS.search(c.source)
    ]
    if name == "lee_clifton_2011":
        assert sections, f"{name}: the forensics of Tables 2-3 have a section of their own"
    for i in sections:
        assert nb.cells[i].metadata.get("jp-MarkdownHeadingCollapsed") is True, (
            f"{name}: cell {i} heads forensics but is not folded (jp-MarkdownHeadingCollapsed)"
        )
        assert any(
            j < i and line.startswith("## ") and not FORENSICS.match(line)
            for j, line in headings(nb)
        ), f"{name}: forensics before the reproduction"


@pytest.mark.parametrize("name", NAMES)
def test_names_say_what_they_hold_not_where_they_came_from(name):
    numbered = {
        n
        for c in notebook(name).cells
        if c.cell_type == "code" and "solution" not in tags(c) and "grader" not in tags(c)
        for n in assigned_names(c.source)
        if NUMBERED_WORDS.search(n)
    }
    assert numbered == set(), f"{name}: names built on a section or equation number"


def test_package_modules_are_imported_by_their_own_name():
    """One convention in every notebook: a module of the package under its own name, and of its
    paper's own modules (``papers/<notebook>/``) the figures as ``plots`` (beside the figure kit's
    ``figures``), the rest under their own names (``forensics``, ``derivations``, ...)."""
    wrong = set()
    for name in NAMES:
        for i, c in enumerate(notebook(name).cells):
            if c.cell_type != "code":
                continue
            for node in ast.walk(ast.parse(c.source)):
                if isinstance(node, ast.Import) and any(
                    a.name.startswith("choosing_epsilon") for a in node.names
                ):
                    wrong.add((name, i, "import choosing_epsilon..."))
                if not (
                    isinstance(node, ast.ImportFrom)
                    and (node.module or "").startswith("choosing_epsilon")
                ):
                    continue
                for a in node.names:
                    paper_figures = node.module.startswith("choosing_epsilon.papers.") and (
                        a.name == "figures"
                    )
                    expected = "plots" if paper_figures else None
                    if a.asname != expected:
                        wrong.add((name, i, f"{node.module}.{a.name} as {a.asname}"))
    assert wrong == set()


def test_the_new_rules_catch_what_they_name():
    ids = {"ex1_mta"}
    assert bookkeeping("ledger.check('ex1_mta', x)", ids) == {"ledger", "claim id 'ex1_mta'"}
    assert bookkeeping("figures.save_and_show(fig, 'a', d, out, c)", ids) == {
        "save_and_show",
        "out",
    }
    assert bookkeeping("from choosing_epsilon.harness import claims", ids) == {
        "import from choosing_epsilon.harness"
    }
    assert bookkeeping("rel_tol = 1e-9", ids) == {"rel_tol"}
    assert bookkeeping("figures.show(fig, 'fig1', data, caption)", ids) == set()
    assert [
        bool(NUMBERED_WORDS.search(n))
        for n in (
            "dens_44",
            "t2_fits",
            "twod_grid",
            "c2_p_tildes",
            "ex1_alpha",
            "epsilon",
            "tail_2sf",
            "texas",
            "density",
        )
    ] == [True, True, True, True, False, False, False, False, False]
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("word " * 200),
            nbformat.v4.new_code_cell(
                "x = 1", outputs=[nbformat.v4.new_output("stream", text="1")]
            ),
        ]
    )
    assert words_before_first_result(nb) == 200
