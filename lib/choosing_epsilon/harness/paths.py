"""Where things are: the repository's folders, in one place."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
NOTEBOOKS = ROOT / "notebooks"
DATA = ROOT / "data"
PUBLISHED = DATA / "published"
FIGURES = ROOT / "figures"
README = ROOT / "README.md"
RUNS = ROOT / "runs"  # where runs at other parameters go inside a checkout (ignored by git)
# the folders of the repository's top level that it tracks (tests/test_reproduce_safety.py checks
# them against git): a run never writes inside them, but to figures/<notebook> at the committed
# parameters
TRACKED_FOLDERS = (
    ".binder",
    ".ci",
    ".github",
    "data",
    "docs",
    "figures",
    "lib",
    "notebooks",
    "site",
    "tests",
    "tools",
)
