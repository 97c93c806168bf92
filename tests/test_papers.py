"""The registry of the notebooks (``harness.papers``): one declaration per notebook, in its
paper's folder, that every list of the notebooks reads.

- The registry agrees with the tree: a folder of ``papers/`` with an ``about.py`` for each
  notebook of ``notebooks/``, its title the notebook's own, its ledger and figures in place.
- The tables generated from it (the README's sources, docs/claims.md's originals) are current.
- No file outside the registry spells the notebooks out as a list, and nothing in the shared
  package or in ``site/`` imports a paper's module statically: the harness and the site find the
  papers by name. Both rules are checked on the tree and on planted files that break them.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from choosing_epsilon.harness import papers, summary
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS, PUBLISHED, ROOT

NAMES = papers.names()


# --- the registry against the tree --------------------------------------------------------------


def test_every_notebook_is_declared_in_its_folder_and_nothing_else_is():
    folders = sorted(
        p.name for p in papers.PAPERS.iterdir() if p.is_dir() and not p.name.startswith("_")
    )
    assert NAMES == folders == sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    for name in NAMES:
        assert (PUBLISHED / f"{name}.csv").is_file(), f"{name}: no published CSV"
        assert (FIGURES / name).is_dir(), f"{name}: no figures/ folder"


@pytest.mark.parametrize("name", NAMES)
def test_the_declared_title_is_the_notebooks_first_heading(name):
    header = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells[0].source
    assert header.splitlines()[0] == f"# {papers.paper(name).title}"


def test_the_declarations_are_complete_and_ordered():
    declared = [papers.paper(n) for n in NAMES]
    assert sorted(p.order for p in declared) == list(range(1, len(NAMES) + 1))
    for paper in declared:
        assert paper.name and paper.citation and paper.reading.endswith(".")
        assert paper.citations and len(set(paper.citations)) == len(paper.citations)
        assert paper.nbval_seconds > 0 and paper.plots_test_seconds > 0
    # only a notebook that reproduces no one source (the synthesis) has no originals to compare
    assert all(bool(p.originals) == bool(p.source) for p in declared)


def test_an_unknown_notebook_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^notebook must be one of \[.*\], got 'nope'$"):
        papers.module("nope", "about")


def test_the_tables_generated_from_the_registry_and_the_ledgers_are_current():
    assert summary.stale() == [], (
        "generated tables out of date: run .venv/bin/python -m choosing_epsilon.harness.summary"
    )
    sources = summary.shown("sources")
    assert sources is not None and len(sources) == 2 + len(NAMES)
    # in the reading order, each with its citation keys
    first = papers.in_reading_order()[0]
    assert sources[2].startswith(f"| [{first.name}](notebooks/{first.name}.ipynb) | ")
    assert all(f"`{key}`" in sources[2] for key in first.citations)


# --- no file lists the notebooks by hand ----------------------------------------------------------

# the files that declare the notebooks (the registry and each declaration), where the names are
# the data itself
REGISTRY = {
    "lib/choosing_epsilon/harness/papers.py",
    *(f"lib/choosing_epsilon/papers/{n}/about.py" for n in NAMES),
}
# tables generated between two markers of a Markdown file, each with the test that keeps it
# current: a generated table is no hand-kept list
GENERATED = {
    **dict.fromkeys(summary.BLOCKS, "tests/test_papers.py"),
    "points": "tests/test_assignments.py (tools/assignments.py table)",
}
MARKED = re.compile(r"^<!-- ([a-z-]+):start -->$(.*?)^<!-- \1:end -->$", re.M | re.S)
TEXT_FILES = {"Makefile", "postBuild", "run"}
TEXT_SUFFIXES = {".py", ".md", ".cff", ".toml", ".yml", ".yaml", ".cfg", ".txt", ".sh"}


def word_pattern(name: str) -> re.Pattern[str]:
    """Where ``name`` is written as a notebook's name: delimited by anything but letters and
    digits; a name that is also a word (the synthesis) only beside a character of code (a
    backquote, a path's slash, an underscore, a quote, bold) or as ``name.ipynb``."""
    if re.search(r"[\d_]", name):
        return token(name)
    word = re.escape(name)
    return re.compile(
        rf"[`/_\"'*]{word}(?![A-Za-z0-9])|(?<![A-Za-z0-9]){word}(?:[`/_\"'*]|\.ipynb)"
    )


def token(name: str) -> re.Pattern[str]:
    """``name`` delimited by anything but letters and digits."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])")


def named(text: str, names: list[str]) -> set[str]:
    """The notebooks ``text`` names."""
    return {n for n in names if word_pattern(n).search(text)}


def python_lists(source: str, names: list[str]) -> list[str]:
    """Where Python source spells out three notebooks or more as a list: a list, tuple, set or
    dict literal whose elements (or keys) are strings with no space, each naming a notebook
    (``"hsu_2014"``, ``"test_plots_hsu_2014.py"``, ``"hsu_2014.ipynb"``), or the same module
    imported from three papers' folders or more (each paper's ``parameters``, one by one). A file
    that imports different modules of three papers (the cases of three notebooks) lists none."""
    found = []
    by_module: dict[str, set[str]] = {}  # a module of a paper's folder: the papers importing it
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            items = node.keys if isinstance(node, ast.Dict) else node.elts
            strings = [
                item.value
                for item in items
                if isinstance(item, ast.Constant)
                and isinstance(item.value, str)
                and not re.search(r"\s", item.value)
            ]
            # a string with no space is code: a name in it counts, the synthesis's too
            listed = {n for n in names for s in strings if token(n).search(s)}
            if len(listed) >= 3:
                found.append(f"line {node.lineno}: a literal naming {sorted(listed)}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                modules = [f"{node.module}.{alias.name}" for alias in node.names if node.module]
            for module in modules:
                parts = module.split(".")
                if parts[:2] == ["choosing_epsilon", "papers"] and len(parts) > 3:
                    by_module.setdefault(parts[3], set()).add(parts[2])
    for module, papers_ in sorted(by_module.items()):
        if len(papers_ & set(names)) >= 3:
            found.append(f"imports {module} of {sorted(papers_ & set(names))}")
    return found


LIST_LINE = re.compile(r"^\s*(?:[-*+]\s|\d+\.\s|\|)")


def markdown_lists(text: str, names: list[str]) -> list[str]:
    """Where Markdown spells out three notebooks or more as a list, outside a generated table
    (``GENERATED``): a run of list items or table rows of which three or more open on a
    different notebook's name (``- **hsu_2014**: ...``, ``| [hsu_2014](...) | ...``)."""
    text = MARKED.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    found, run, start = [], set(), 0
    for number, line in enumerate([*text.splitlines(), ""], 1):
        if LIST_LINE.match(line):
            chunks = line.strip().lstrip("-*+|0123456789. ").split()
            run |= named(f" {chunks[0]} ", names) if chunks else set()
            start = start or number
        elif line.startswith("  ") and run:
            continue  # a list item's continuation
        else:
            if len(run) >= 3:
                found.append(f"lines {start}-{number - 1}: a list of {sorted(run)}")
            run, start = set(), 0
    return found


def hand_lists(path: str, text: str, names: list[str]) -> list[str]:
    """Where the file at ``path`` (relative to the root) spells the notebooks out as a list."""
    if path.endswith(".py"):
        return python_lists(text, names)
    if path.endswith(".md"):
        return markdown_lists(text, names)
    listed = named(text, names)
    return [f"names {sorted(listed)}"] if len(listed) >= 3 else []


def checked_files() -> list[str]:
    """The tracked text files, but the notebooks, their outputs, the data (a data folder's
    README is checked) and the registry itself."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return [
        path
        for path in tracked
        if (Path(path).suffix in TEXT_SUFFIXES or Path(path).name in TEXT_FILES)
        and not path.startswith(("notebooks/", "figures/"))
        and (not path.startswith("data/") or path.endswith(".md"))
        and path not in REGISTRY
        and (ROOT / path).is_file()
    ]


def test_no_file_outside_the_registry_lists_the_notebooks():
    files = checked_files()
    assert "site/build.py" in files and "tests/slow.py" in files and "README.md" in files
    found = {
        path: where
        for path in files
        if (where := hand_lists(path, (ROOT / path).read_text(encoding="utf-8"), NAMES))
    }
    assert found == {}, f"notebooks listed by hand (read the registry instead): {found}"


def test_every_generated_table_is_known():
    blocks = {
        (path, m.group(1))
        for path in checked_files()
        if path.endswith(".md")
        for m in MARKED.finditer((ROOT / path).read_text(encoding="utf-8"))
    }
    assert {block for _, block in blocks} == set(GENERATED), blocks


def planted(names: list[str]) -> dict[str, str]:
    """Files that list three notebooks by hand, each as a list the rule must see."""
    a, b, c = names[:3]
    return {
        "site/plain_list.py": f"NOTEBOOKS = [{a!r}, {b!r}, {c!r}]\n",
        "tests/dict_keys.py": f"CASES = {{{a!r}: 1, {b!r}: 2, {c!r}: 3}}\n",
        "tests/file_names.py": f"FILES = ('test_plots_{a}.py', '{b}.ipynb', 'test_plots_{c}.py')\n",
        "tests/imports.py": "".join(
            f"from choosing_epsilon.papers.{n} import parameters as p{i}\n"
            for i, n in enumerate((a, b, c))
        ),
        "docs/table.md": f"Intro.\n\n| notebook | x |\n|---|---|\n| {a} | 1 |\n| {b} | 2 |\n"
        f"| [{c}](notebooks/{c}.ipynb) | 3 |\n",
        "docs/bullets.md": f"- **{a}**: one\n  continued\n- **{b}**: two\n- `{c}`: three\n",
        "Makefile": f"run:\n\tpython -m x {a} {b} {c}\n",
    }


@pytest.mark.parametrize("path", sorted(planted(NAMES)))
def test_a_planted_list_of_notebooks_is_found(path):
    assert hand_lists(path, planted(NAMES)[path], NAMES), path


@pytest.mark.parametrize(
    "path, text",
    [
        # the registry read, not spelled out; two names; prose; test cases keyed by tuples
        ("site/read.py", "from choosing_epsilon.harness import papers\nNAMES = papers.names()\n"),
        ("tests/two.py", "PAIR = ['hsu_2014', 'synthesis']\n"),
        (
            "tests/three_papers_cases.py",
            "from choosing_epsilon.papers.hsu_2014 import scans\n"
            "from choosing_epsilon.papers.mugunthan_poster import forensics\n"
            "from choosing_epsilon.papers.synthesis import figures\n",
        ),
        ("tests/doc.py", '"""hsu_2014, shoaran_2012 and kazan_reiter_2024 are notebooks."""\n'),
        ("tests/cases.py", "CASES = [('hsu_2014', 1), ('shoaran_2012', 2), ('synthesis', 3)]\n"),
        ("docs/prose.md", "- The synthesis reads hsu_2014, shoaran_2012 and lee_clifton_2011.\n"),
        (
            "docs/generated.md",
            "<!-- sources:start -->\n| hsu_2014 |\n| shoaran_2012 |\n| synthesis.ipynb |\n"
            "<!-- sources:end -->\n",
        ),
    ],
)
def test_what_is_not_a_list_of_notebooks_passes(path, text):
    assert hand_lists(path, text, NAMES) == []


def test_the_word_synthesis_is_a_notebook_only_as_code():
    assert named("the synthesis of their methods", NAMES) == set()
    assert named("`synthesis` and notebooks/synthesis.ipynb", NAMES) == {"synthesis"}


# --- nothing shared imports a paper's module ------------------------------------------------------


def static_paper_imports(source: str, module: str) -> list[str]:
    """The imports of a paper's module (``choosing_epsilon.papers.<notebook>...``) in ``source``,
    the file of module ``module``: absolute or relative, at module level or in a function, and
    ``importlib.import_module`` or ``__import__`` given the module's name as a literal."""
    package = module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and node.args:
            function = node.func
            called = function.attr if isinstance(function, ast.Attribute) else (
                function.id if isinstance(function, ast.Name) else ""
            )  # fmt: skip
            first = node.args[0]
            if called in ("import_module", "__import__") and isinstance(first, ast.Constant):
                targets = [str(first.value)]
        found += [
            f"line {node.lineno}: {t}"
            for t in targets
            if t.split(".")[:2] == ["choosing_epsilon", "papers"] and len(t.split(".")) > 2
        ]
    return found


def shared_sources() -> dict[str, Path]:
    """The shared package's modules (lib/choosing_epsilon outside papers/) and site/'s, by dotted
    name (site's under ``site``)."""
    package = ROOT / "lib" / "choosing_epsilon"
    modules = {
        ".".join(("choosing_epsilon", *p.relative_to(package).with_suffix("").parts)): p
        for p in package.rglob("*.py")
        if p.relative_to(package).parts[0] != "papers"
    }
    modules |= {f"site.{p.stem}": p for p in (ROOT / "site").glob("*.py")}
    return modules


def test_nothing_shared_imports_a_papers_module():
    sources = shared_sources()
    assert "site.build" in sources and "choosing_epsilon.harness.papers" in sources
    found = {
        name: where
        for name, path in sources.items()
        if (where := static_paper_imports(path.read_text(encoding="utf-8"), name))
    }
    assert found == {}, f"static imports of a paper's module: {found}"


@pytest.mark.parametrize(
    "module, source",
    [
        ("site.scrubbers", "from choosing_epsilon.papers.hsu_2014 import scrubbers\n"),
        ("site.build", "def f():\n    import choosing_epsilon.papers.synthesis.run\n"),
        ("choosing_epsilon.harness.reproduce", "from ..papers.hsu_2014 import figures\n"),
        ("choosing_epsilon.harness.reproduce", "from ..papers import hsu_2014\n"),
        ("choosing_epsilon.plots.scrubber", "from choosing_epsilon.papers import synthesis\n"),
        (
            "choosing_epsilon.harness.papers",
            "import importlib\nm = importlib.import_module('choosing_epsilon.papers.hsu_2014')\n",
        ),
    ],
)
def test_a_planted_static_import_is_found(module, source):
    assert static_paper_imports(source, module), source


def test_an_import_by_name_passes():
    source = (
        "import importlib\n"
        "from choosing_epsilon.harness import papers\n"
        "def f(name):\n"
        "    return importlib.import_module(f'choosing_epsilon.papers.{name}.about')\n"
    )
    assert static_paper_imports(source, "choosing_epsilon.harness.papers") == []
