"""The registry of the notebooks: each declares what it is once, in its paper's folder, and every
list of the notebooks is read from here.

A notebook ``<name>`` is a folder ``papers/<name>/`` holding ``about.py``, whose ``PAPER`` is a
``Paper``: the notebook's title, the entries of ``references.bib`` it cites, its line in the
README's table of sources and on the site's reading order, the run at other parameters its prose
is tested at, and how long its run under nbval takes. Beside it the folder holds the notebook's
``parameters.py`` (its ``DECLARED`` parameters, read by ``harness.parameters``) and, where the
site shows a scrubber after one of its figures, ``scrubbers.py`` (its ``SCRUBBERS``).

The harness lies below the papers' folders: it finds them on disk and imports each module by its
name (``importlib``), never by a static import, as a plugin; so does the site. ``names`` lists
the notebooks, ``paper`` gives one's declaration, ``in_reading_order`` the order of the site and
the README, ``scrubbers`` a notebook's scrubbers.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for the annotations only: the registry imports no drawing code
    from choosing_epsilon.plots.scrubber import Scrubber

PAPERS = Path(__file__).resolve().parents[1] / "papers"
PACKAGE = "choosing_epsilon.papers"
ABOUT = "about"  # the module of a paper's folder that declares it


@dataclass(frozen=True)
class Paper:
    """What one notebook is, declared once in ``papers/<notebook>/about.py``."""

    title: str  # the notebook's title: its header's first heading, without the "# "
    # the entry of references.bib for the source the notebook reproduces (None: the notebook
    # reproduces no one source, as the synthesis), and the other entries it cites
    source: str | None
    also_cited: tuple[str, ...]
    citation: str  # the README's table of sources: the full citation and what the notebook adds
    reading: str  # the site's reading order: one line on what the notebook answers
    order: int  # its place in the reading order (the site's sidebar and the README's table)
    # a run at other parameters that moves most of the notebook's results: its prose must stay
    # true there (tests/test_cases_prose.py)
    trial: Mapping[str, object]
    # how the notebook's figures were compared with the source's originals (docs/claims.md);
    # empty where it has no source of its own
    originals: str = ""
    # seconds its tests take in make test on two cores, measured (pytest --durations): its run
    # under nbval and tests/test_plots_<notebook>.py (tests/slow.py hands the longest files out
    # first)
    nbval_seconds: float = 0.0
    plots_test_seconds: float = 0.0
    name: str = field(default="", compare=False)  # the notebook's name: set by ``paper``

    @property
    def citations(self) -> tuple[str, ...]:
        """Every entry of references.bib the notebook cites, its source's first."""
        return (self.source, *self.also_cited) if self.source else self.also_cited


def names() -> list[str]:
    """Every notebook by name, in alphabetical order: the folders of ``papers/`` with an
    ``about.py``."""
    return sorted(p.parent.name for p in PAPERS.glob(f"*/{ABOUT}.py"))


def module(notebook: str, part: str) -> ModuleType:
    """``choosing_epsilon.papers.<notebook>.<part>``, imported by name; ValueError naming the
    notebooks for an unknown notebook."""
    if notebook not in names():
        raise ValueError(f"notebook must be one of {names()}, got {notebook!r}")
    return importlib.import_module(f"{PACKAGE}.{notebook}.{part}")


def has(notebook: str, part: str) -> bool:
    """Whether notebook ``notebook``'s folder holds the module ``part``."""
    return (PAPERS / notebook / f"{part}.py").is_file()


@functools.cache
def paper(notebook: str) -> Paper:
    """Notebook ``notebook``'s declaration (its ``about.PAPER``), its ``name`` set."""
    declared = module(notebook, ABOUT).PAPER
    if not isinstance(declared, Paper):
        raise TypeError(f"papers/{notebook}/{ABOUT}.py: PAPER must be a Paper")
    return dataclasses.replace(declared, name=notebook)


def in_reading_order() -> list[Paper]:
    """Every notebook's declaration in the reading order (ties by name)."""
    return sorted((paper(n) for n in names()), key=lambda p: (p.order, p.name))


def scrubbers(notebook: str) -> Mapping[str, Scrubber]:
    """Notebook ``notebook``'s ε scrubbers by name, in the order its page shows those that follow
    the same figure (its ``scrubbers.SCRUBBERS``); none where its folder has no ``scrubbers.py``."""
    if not has(notebook, "scrubbers"):
        return MappingProxyType({})
    found: dict[str, Any] = module(notebook, "scrubbers").SCRUBBERS
    return MappingProxyType(found)


def loaded_by_name() -> list[str]:
    """The modules of the papers' folders that the registry and the harness import by name: every
    notebook's ``about``, ``parameters`` and (where it has one) ``scrubbers``."""
    parts = (ABOUT, "parameters", "scrubbers")
    return [f"{PACKAGE}.{n}.{part}" for n in names() for part in parts if has(n, part)]
