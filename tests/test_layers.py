"""The package's layers import only downward (the order is written in the package docstring).

1. maths: the top-level modules ``choosing_epsilon/*.py``;
2. figure kit: ``plots/style.py`` and ``plots/figures.py``;
3. harness: ``harness/*.py`` (runs the notebooks; it loads each paper's parameters by name);
4. per-paper: ``papers/<notebook>/*.py`` (one source's figures, forensics and parameters).

A module may import its own layer or a lower one. A per-paper module may import only its own
paper's modules (its folder under ``papers``): ``papers/kazan_reiter_2024/figures.py`` may import
``papers/kazan_reiter_2024/derivations.py`` but not ``papers/hsu_2014/forensics.py``.

Every import is read with ``ast``: module-level and function-local, relative and absolute.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = "choosing_epsilon"
ROOT = Path(__file__).resolve().parents[1] / "lib" / PACKAGE

MATHS, FIGURE_KIT, HARNESS, PER_PAPER = 1, 2, 3, 4
LAYER_NAMES = {MATHS: "maths", FIGURE_KIT: "figure kit", HARNESS: "harness", PER_PAPER: "per-paper"}


def module_names(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (``pkg.sub`` for ``pkg/sub/__init__.py``)."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join((package, *parts))] = path
    return names


def layer(module: str) -> int:
    """The layer of a module of the package, by where its file lies."""
    parts = module.split(".")[1:]
    if not parts or (len(parts) == 1 and parts[0] not in ("plots", "harness", "papers")):
        return MATHS
    if parts[0] == "plots":
        return FIGURE_KIT
    if parts[0] == "harness":
        return HARNESS
    if parts[0] == "papers":
        return PER_PAPER
    raise AssertionError(f"{module}: no layer declared for its folder")


def paper(module: str) -> str | None:
    """The paper a per-paper module belongs to: its folder under ``papers`` (None for the
    ``papers`` package itself)."""
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[1] == "papers" else None


def resolve(
    node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, modules: set[str]
) -> list[str]:
    """The package modules an import statement names (modules outside the package: none)."""
    if isinstance(node, ast.Import):
        bases = [alias.name for alias in node.names]
        names: list[tuple[str, str | None]] = [(b, None) for b in bases]
    else:
        if node.level:
            package = importer.split(".") if is_package else importer.split(".")[:-1]
            base_parts = package[: len(package) - (node.level - 1)]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        names = [(base, alias.name) for alias in node.names]
    found = []
    for base, name in names:
        if not (base == PACKAGE or base.startswith(PACKAGE + ".")):
            continue
        target = f"{base}.{name}" if name is not None and f"{base}.{name}" in modules else base
        while target not in modules and "." in target:
            target = target.rsplit(".", 1)[0]  # ``import pkg.mod.attr``: the module holding it
        found.append(target)
    return found


@dataclass(frozen=True)
class Violation:
    importer: str
    imported: str
    why: str

    def __str__(self) -> str:
        return f"{self.importer} imports {self.imported}: {self.why}"


def violations(modules: dict[str, str]) -> list[Violation]:
    """Imports that break the layer order, for ``modules`` (dotted name -> source text)."""
    names = set(modules)
    found = []
    for importer, source in sorted(modules.items()):
        # a package (``__init__.py``) is the base of its own relative imports
        is_package = any(other.startswith(importer + ".") for other in names)
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for imported in resolve(node, importer, is_package, names):
                low, high = layer(importer), layer(imported)
                if high > low:
                    found.append(
                        Violation(
                            importer,
                            imported,
                            f"layer {low} ({LAYER_NAMES[low]}) imports upward from layer "
                            f"{high} ({LAYER_NAMES[high]})",
                        )
                    )
                elif low == high == PER_PAPER:
                    mine, theirs = paper(importer), paper(imported)
                    if None not in (mine, theirs) and mine != theirs:
                        found.append(
                            Violation(
                                importer,
                                imported,
                                f"per-paper module of {mine!r} (layer {PER_PAPER}, "
                                f"{LAYER_NAMES[PER_PAPER]}) imports another paper's ({theirs!r}, "
                                f"layer {PER_PAPER})",
                            )
                        )
    return found


def package_sources() -> dict[str, str]:
    return {name: path.read_text(encoding="utf-8") for name, path in module_names().items()}


def test_every_module_has_a_layer():
    for name in module_names():
        assert layer(name) in LAYER_NAMES, name


def test_no_module_imports_upward_or_into_another_paper():
    found = violations(package_sources())
    assert not found, "imports that break the layer order:\n" + "\n".join(map(str, found))


# --- the rule itself, from both sides ---

SYNTHETIC = {
    f"{PACKAGE}": "",
    f"{PACKAGE}.laplace": "import math\n",
    f"{PACKAGE}.plots": "",
    f"{PACKAGE}.plots.style": "",
    f"{PACKAGE}.plots.figures": "from . import style\n",
    f"{PACKAGE}.harness": "",
    f"{PACKAGE}.harness.parameters": "",
    f"{PACKAGE}.papers": "",
    f"{PACKAGE}.papers.hsu_2014": "",
    f"{PACKAGE}.papers.hsu_2014.figures": "",
    f"{PACKAGE}.papers.hsu_2014.forensics": "",
    f"{PACKAGE}.papers.kazan_reiter_2024": "",
    f"{PACKAGE}.papers.kazan_reiter_2024.figures": "",
    f"{PACKAGE}.papers.kazan_reiter_2024.forensics": "",
    f"{PACKAGE}.papers.kazan_reiter_2024.derivations": "",
}


def _with(module: str, source: str) -> dict[str, str]:
    return {**SYNTHETIC, module: source}


@pytest.mark.parametrize(
    "module, source, imported, layers",
    [
        # maths importing the harness, at module level and inside a function, relative and absolute
        (
            f"{PACKAGE}.laplace",
            "from .harness import parameters\n",
            "harness.parameters",
            "1 (maths)",
        ),
        (
            f"{PACKAGE}.laplace",
            "def f():\n    import choosing_epsilon.harness.parameters\n",
            "harness.parameters",
            "1 (maths)",
        ),
        (f"{PACKAGE}.laplace", "from .plots.figures import show\n", "plots.figures", "1 (maths)"),
        (f"{PACKAGE}.laplace", "from .papers import hsu_2014\n", "papers.hsu_2014", "1 ("),
        # the figure kit importing a paper's figures or the harness
        (
            f"{PACKAGE}.plots.figures",
            "from ..papers.hsu_2014 import figures\n",
            "papers.hsu_2014.figures",
            "2 (figure kit)",
        ),
        (
            f"{PACKAGE}.plots.style",
            "def f():\n    from ..harness import parameters\n",
            "harness.parameters",
            "2 (figure kit)",
        ),
        # the harness importing a paper's module (it loads their declarations by name only)
        (
            f"{PACKAGE}.harness.parameters",
            "from choosing_epsilon.papers.hsu_2014 import forensics\n",
            "papers.hsu_2014.forensics",
            "3 (harness)",
        ),
    ],
)
def test_an_upward_import_is_caught_and_named(module, source, imported, layers):
    found = violations(_with(module, source))
    assert len(found) == 1
    message = str(found[0])
    assert message.startswith(f"{module} imports {PACKAGE}.{imported}: layer {layers}")
    assert "imports upward from layer" in message


@pytest.mark.parametrize(
    "module, source",
    [
        (
            f"{PACKAGE}.papers.hsu_2014.figures",
            "from ...papers.kazan_reiter_2024 import forensics\n",
        ),
        (
            f"{PACKAGE}.papers.kazan_reiter_2024.forensics",
            "def f():\n    from ..hsu_2014 import figures\n",
        ),
        (
            f"{PACKAGE}.papers.kazan_reiter_2024.figures",
            "import choosing_epsilon.papers.hsu_2014.forensics\n",
        ),
    ],
)
def test_an_import_of_another_papers_module_is_caught(module, source):
    found = violations(_with(module, source))
    assert len(found) == 1 and "imports another paper's" in str(found[0]), found


@pytest.mark.parametrize(
    "module, source",
    [
        # downward, and within one layer
        (f"{PACKAGE}.harness.parameters", "from .. import laplace\nfrom ..plots import figures\n"),
        (
            f"{PACKAGE}.papers.hsu_2014.figures",
            "from ...plots import figures, style\nfrom ... import laplace\n",
        ),
        (
            f"{PACKAGE}.papers.hsu_2014.forensics",
            "from choosing_epsilon.harness import parameters\n",
        ),
        (f"{PACKAGE}.plots.figures", "from . import style\nimport numpy\n"),
        (f"{PACKAGE}.laplace", "def f():\n    from . import laplace\n    import scipy.stats\n"),
        # a paper's figures, forensics and derivations import each other
        (f"{PACKAGE}.papers.hsu_2014.figures", "from . import forensics\n"),
        (f"{PACKAGE}.papers.hsu_2014.forensics", "from .figures import x\n"),
        (f"{PACKAGE}.papers.kazan_reiter_2024.figures", "from . import derivations, forensics\n"),
    ],
)
def test_a_downward_or_same_paper_import_passes(module, source):
    assert violations(_with(module, source)) == []


def test_papers_of_per_paper_modules():
    assert paper(f"{PACKAGE}.papers.hsu_2014.figures") == "hsu_2014"
    assert paper(f"{PACKAGE}.papers.kazan_reiter_2024.derivations") == "kazan_reiter_2024"
    assert paper(f"{PACKAGE}.papers.synthesis") == "synthesis"
    assert paper(f"{PACKAGE}.papers") is None


def test_layers_by_file():
    assert layer(PACKAGE) == layer(f"{PACKAGE}.risk") == MATHS
    assert layer(f"{PACKAGE}.plots.style") == layer(f"{PACKAGE}.plots.figures") == FIGURE_KIT
    assert layer(f"{PACKAGE}.harness.reproduce") == layer(f"{PACKAGE}.harness") == HARNESS
    assert layer(f"{PACKAGE}.papers.hsu_2014.forensics") == layer(f"{PACKAGE}.papers") == PER_PAPER


# --- figure modules draw, and nothing else -------------------------------------------------------


def figure_problems(source: str) -> list[str]:
    """What a figure module does beyond drawing: a Monte Carlo (a generator, randomness, a
    simulation), a validation (a raise, the package's input checks), results assembly (writing
    results)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise):
            found.append(f"line {node.lineno}: raises (a validation belongs with the computation)")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("_validate"):
            found.append(f"line {node.lineno}: imports the input checks")
        elif isinstance(node, ast.ImportFrom) and any(
            a.name.startswith("simulate") for a in node.names
        ):
            found.append(f"line {node.lineno}: imports a simulation (a Monte Carlo)")
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in ("rng", "random", "default_rng") or name.startswith("simulate_"):
                found.append(f"line {node.lineno}: {name} (a Monte Carlo)")
            elif name in ("write_results", "results"):
                found.append(f"line {node.lineno}: {name} (results assembly)")
    return found


def test_figure_modules_draw_and_nothing_else():
    problems = {
        name: figure_problems(path.read_text(encoding="utf-8"))
        for name, path in module_names().items()
        if name.endswith(".figures") and ".papers." in name
    }
    assert len(problems) == 8  # one for each notebook
    assert {name: found for name, found in problems.items() if found} == {}


@pytest.mark.parametrize(
    "source",
    [
        "def f(rng):\n    return rng.normal()\n",
        "def f(x):\n    if x < 0:\n        raise ValueError('x')\n",
        "from choosing_epsilon._validate import positive\n",
        "from choosing_epsilon.possible_worlds import simulate_adversary\n",
        "def f(out):\n    outputs.write_results({}, out)\n",
    ],
)
def test_a_figure_module_that_computes_is_caught(source):
    assert figure_problems(source)
