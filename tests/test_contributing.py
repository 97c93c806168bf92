"""CONTRIBUTING.md's recipe for adding a source, run: its worked example (randomized response) is
written from the page's code blocks into a copy of the repository, and the page's steps are
followed there, so that the page cannot drift from the code.

A fenced block whose info string names a file (```` ```python file=PATH ````) is that file, whole
(``append``: added to the end of the copy's file); a block marked ``cell=NOTEBOOK`` is the next
cell of that notebook (a ``markdown`` block a markdown cell, any other a code cell, ``tags=`` its
tags); ``shows=parameters-cell`` is what the tool writes into the parameters cell; ``sh run`` holds
the commands of the last step, run in the copy (``make`` aside, which is this suite itself). Then
the notebook's own tests run in the copy, and the results are checked: the claim reproduced, the
registry and the README's generated tables naming the new notebook.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from choosing_epsilon.harness import outputs
from choosing_epsilon.harness.paths import ROOT

PAGE = ROOT / "CONTRIBUTING.md"
# the fences of the page, indented inside a list item or not
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S
)
# what the copy needs to run the example and its tests
COPIED = ("lib", "tests", "tools", "notebooks", "data", "figures", "docs")
COPIED_FILES = ("README.md", "references.bib", "pyproject.toml", "conftest.py", "CITATION.cff")
# the notebook's own tests, run in the copy at the example's name (-k)
OWN_TESTS = (
    "tests/test_notebook_layout.py",
    "tests/test_notebook_cells.py",
    "tests/test_parameters.py",
    "tests/test_claims.py",
    "tests/test_citation.py",
    "tests/test_papers.py",
)


@dataclass(frozen=True)
class Block:
    language: str
    attributes: dict[str, str]
    body: str


def blocks(text: str) -> list[Block]:
    """The page's fenced code blocks, in order: language, attributes (``key=value`` or a bare
    flag) and body, dedented by the fence's indent."""
    found = []
    for match in FENCE.finditer(text):
        words = match.group("info").split()
        language, rest = (words[0], words[1:]) if words else ("", [])
        attributes = dict(w.split("=", 1) if "=" in w else (w, "") for w in rest)
        body = (
            textwrap.dedent(match.group("body")) if match.group("indent") else match.group("body")
        )
        found.append(Block(language, attributes, body))
    return found


def recipe(text: str) -> tuple[dict[str, tuple[str, bool]], dict[str, list[Block]], list[Block]]:
    """The example's files (path: text, whether it is appended), its notebooks' cells by notebook
    and the other marked blocks, from the page ``text``."""
    files: dict[str, tuple[str, bool]] = {}
    cells: dict[str, list[Block]] = {}
    others = []
    for block in blocks(text):
        if "file" in block.attributes:
            path = block.attributes["file"]
            assert path not in files, f"CONTRIBUTING.md writes {path} twice"
            files[path] = (block.body, "append" in block.attributes)
        elif "cell" in block.attributes:
            cells.setdefault(block.attributes["cell"], []).append(block)
        elif block.attributes:
            others.append(block)
    return files, cells, others


def notebook_of(cells: list[Block]) -> nbformat.NotebookNode:
    """A notebook of ``cells``, with the kernel and language papermill needs."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {
            "name": "python3",
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
        },
        "language_info": {"name": "python"},
    }
    for number, block in enumerate(cells):
        source = block.body.rstrip("\n")
        tags = [t for t in block.attributes.get("tags", "").split(",") if t]
        new = (
            nbformat.v4.new_markdown_cell
            if block.language == "markdown"
            else nbformat.v4.new_code_cell
        )
        nb.cells.append(new(source, id=f"cell-{number}", metadata={"tags": tags} if tags else {}))
    return nb


def copy_of_the_repository(target: Path) -> Path:
    """The parts of the repository the example needs, copied to ``target``, with the bytecode
    Python wrote beside them (each file keeps its time, so the copy's imports reuse it)."""
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "*.egg-info")
    for folder in COPIED:
        shutil.copytree(ROOT / folder, target / folder, ignore=ignore)
    for name in COPIED_FILES:
        shutil.copy2(ROOT / name, target / name)
    return target


def run(command: list[str], copy: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{shlex.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def test_the_page_holds_a_whole_example():
    files, cells, others = recipe(PAGE.read_text(encoding="utf-8"))
    assert len(cells) == 1 and len(next(iter(cells.values()))) >= 10
    name = Path(next(iter(cells))).stem
    assert {
        f"data/published/{name}.csv",
        f"lib/choosing_epsilon/papers/{name}/about.py",
        f"lib/choosing_epsilon/papers/{name}/parameters.py",
        f"lib/choosing_epsilon/papers/{name}/figures.py",
    } <= set(files)
    assert {b.attributes.get("shows", "run" in b.attributes and "run") for b in others} == {
        "parameters-cell",
        "run",
    }


def test_the_blocks_are_read_with_their_attributes():
    text = (
        "Text.\n\n```python file=a/b.py\nx = 1\n```\n\n"
        "1. An item:\n\n   ```markdown cell=nb.ipynb\n   # Title\n   ```\n\n"
        "   ```python cell=nb.ipynb tags=setup,claims\n   y = 2\n   ```\n\n"
        "```bibtex file=refs.bib append\n@misc{k,}\n```\n\n```\nplain\n```\n"
    )
    files, cells, others = recipe(text)
    assert files == {"a/b.py": ("x = 1\n", False), "refs.bib": ("@misc{k,}\n", True)}
    assert [(b.language, b.body, b.attributes.get("tags")) for b in cells["nb.ipynb"]] == [
        ("markdown", "# Title\n", None),
        ("python", "y = 2\n", "setup,claims"),
    ]
    assert others == []


@pytest.mark.notebook
@pytest.mark.default_run  # the example's notebook, at its defaults, as make reproduce runs it
def test_contributings_recipe_runs_in_a_copy_of_the_repository(tmp_path):
    files, cells, others = recipe(PAGE.read_text(encoding="utf-8"))
    ((notebook_path, notebook_cells),) = cells.items()
    name = Path(notebook_path).stem
    copy = copy_of_the_repository(tmp_path / "repository")
    for path, (text, append) in files.items():
        target = copy / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("a" if append else "w", encoding="utf-8") as out:
            out.write(("\n" if append else "") + text)
    nbformat.write(notebook_of(notebook_cells), copy / notebook_path)
    # the copy's package, not this checkout's, for every process and kernel the steps start; a
    # run's outputs go where the copy's runner puts them, not where this suite redirects its own
    env = {k: v for k, v in os.environ.items() if k not in (outputs.REDIRECT, outputs.STAGE_ROOT)}
    env["PYTHONPATH"] = str(copy / "lib")
    (commands,) = [b for b in others if "run" in b.attributes]
    for line in commands.body.splitlines():
        if line.startswith(".venv/bin/python "):
            run([sys.executable, *shlex.split(line)[1:]], copy, env)
        else:
            assert line.startswith(("#", "make ")), f"a step the test does not follow: {line}"

    # the parameters cell is the declaration, as the page shows it
    (shown,) = [b for b in others if b.attributes.get("shows") == "parameters-cell"]
    executed = nbformat.read(copy / notebook_path, as_version=4)
    (parameters_cell,) = [c for c in executed.cells if "parameters" in c.metadata.get("tags", [])]
    assert parameters_cell.source == shown.body.rstrip("\n")
    # run top to bottom, the machinery folded, the claim reproduced, the results written
    code = [c for c in executed.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    assert all(
        c.metadata.get("jupyter", {}).get("source_hidden")
        for c in code
        if {"setup", "claims"} & set(c.metadata.get("tags", []))
    )
    ledger = pd.read_csv(copy / "figures" / name / "claims.csv")
    assert ledger.status.tolist() == ["reproduced"]
    results = json.loads((copy / "figures" / name / "results.json").read_text())
    assert results["epsilon"] == pytest.approx(1.0986122886681098, rel=1e-12)
    assert abs(results["truthful_fraction"] - 0.75) < 0.01
    assert (copy / "figures" / name / "epsilon_against_q.png").is_file()
    # the registry and the README's generated tables name the notebook
    readme = (copy / "README.md").read_text(encoding="utf-8")
    assert f"| [{name}](notebooks/{name}.ipynb) | 1 | 1 |" in readme  # the status table
    assert f"| [{name}](notebooks/{name}.ipynb) | C. Dwork and A. Roth" in readme  # the sources
    # the notebook's own tests, and the lint, in the copy
    pytest_as_make_test = [sys.executable, "-m", "pytest", "-q"]
    tests = run([*pytest_as_make_test, "-p", "no:cacheprovider", "-k", name, *OWN_TESTS], copy, env)
    passed = re.search(r"(\d+) passed", tests.stdout)
    assert passed and int(passed.group(1)) >= 10 and "failed" not in tests.stdout, tests.stdout
    new = [p for p in files if p.endswith(".py")] + [notebook_path]
    ruff = Path(sys.executable).parent / "ruff"
    run([str(ruff), "check", *new], copy, env)
    run([str(ruff), "format", "--check", *new], copy, env)
