"""The test files themselves: every module of the package is imported by at least one of them, so
that no module is tested only through a notebook, or not at all."""

from __future__ import annotations

import ast
from pathlib import Path

from choosing_epsilon.harness import papers
from choosing_epsilon.harness.paths import ROOT
from tests.slow import LONGEST, SLOW_FILES, SLOW_TESTS

PACKAGE = ROOT / "lib" / "choosing_epsilon"
TESTS = ROOT / "tests"


def package_modules() -> set[str]:
    """The dotted names of the package's modules (its packages' ``__init__`` files left out)."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name == "__init__.py":
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.add(".".join(parts))
    return names


def imported_modules(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that the file at ``path`` imports: ``import a.b``, ``from a import
    b`` (module ``a``, and ``a.b`` when ``b`` is a module) and ``from a.b import name``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found & modules


def test_package_modules_are_found():
    modules = package_modules()
    assert {"choosing_epsilon.possible_worlds", "choosing_epsilon.plots.style"} <= modules
    assert not any(name.endswith("__init__") for name in modules)


def test_imports_are_read_in_every_form(tmp_path):
    modules = {"choosing_epsilon.laplace", "choosing_epsilon.plots.style", "choosing_epsilon.x.y"}
    source = tmp_path / "test_sample.py"
    source.write_text(
        "import choosing_epsilon.laplace\n"
        "from choosing_epsilon.plots import style as s\n"
        "from choosing_epsilon.x.y import thing\n"
    )
    assert imported_modules(source, modules) == modules
    source.write_text("from choosing_epsilon import plots\nimport numpy\n")
    assert imported_modules(source, modules) == set()


def test_every_module_of_the_package_is_imported_by_a_test():
    modules = package_modules()
    imported = set()
    for path in sorted(TESTS.rglob("*.py")):
        imported |= imported_modules(path, modules)
    # the modules of the papers' folders that the registry imports by name (each notebook's
    # about, parameters and scrubbers) are imported by every test that reads the registry, which
    # goes through all of them (tests/test_papers.py, test_parameters.py, test_scrubbers.py)
    if "choosing_epsilon.harness.papers" in imported:
        imported |= set(papers.loaded_by_name()) & modules
    untested = sorted(modules - imported)
    assert untested == [], f"no test file imports {', '.join(untested)}"


def test_the_slow_lists_name_files_and_tests_that_exist():
    """tests/slow.py names whole files, functions of a file and the longest files: a name that no
    longer exists (a file renamed, a test removed) would silently mark nothing."""
    files = [*TESTS.glob("test_*.py"), *(ROOT / "notebooks").glob("*.ipynb")]
    assert (
        sorted((set(SLOW_FILES) | set(SLOW_TESTS) | set(LONGEST)) - {f.name for f in files}) == []
    )
    for file, functions in SLOW_TESTS.items():
        tree = ast.parse((TESTS / file).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert sorted(functions - defined) == [], file
