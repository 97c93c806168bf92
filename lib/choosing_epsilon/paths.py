"""Where things are: the repository's folders, in one place."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
DATA = ROOT / "data"
PUBLISHED = DATA / "published"
FIGURES = ROOT / "figures"
README = ROOT / "README.md"
