"""Results compared by content, not bytes: what stays the same on every CPU a reader runs.

numpy takes other SIMD code paths on other CPUs (AVX2, AVX-512), so the last bits of a float, and
with them the last printed digit of a number, an anti-aliased pixel or a coordinate in an SVG, can
differ between machines. Two result files are *equivalent* when

- every piece of text outside numbers is the same (after SVG ids, which matplotlib derives from
  coordinates, are numbered in order of appearance), and
- every number agrees within ``REL_TOL`` relative, or within one unit of the last digit printed
  (a number printed as 0.3062 may read 0.3063 elsewhere; an integer without a point must match);
  in an SVG, also within ``SVG_POINTS`` (a thousandth of a point, where a figure is drawn);
- images (PNG files and the PNGs inside notebooks) have the same size and differ in at most
  ``PIXEL_FRACTION`` of their pixels by more than ``PIXEL_LEVELS`` levels in any channel.

``sync`` copies a run's files over the committed ones only where they are not equivalent, so a
rerun on any machine leaves ``git status`` clean.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
import shutil
from pathlib import Path

import numpy as np
from PIL import Image

# the relative precision at which results are the same on every CPU: the privacy accountant's
# (dp-accounting composes by FFT, whose last bits follow the SIMD code path: 1.1e-9 relative in a
# GPT-2 run's ε between AVX-512 and numpy's baseline), with a margin; closed forms agree far closer
REL_TOL = 1e-7
# in an SVG, numbers are drawing coordinates in points: two that agree within a thousandth of a
# point (1/72,000 inch) draw the same figure at any zoom (a value kept to 7 decimals that rounds the
# other way on another CPU moves its point by about 2e-5 points)
SVG_POINTS = 1e-3
PIXEL_LEVELS = 16  # out of 255: anti-aliasing noise stays well below
PIXEL_FRACTION = 1e-3  # at most 0.1% of the pixels may differ by more than PIXEL_LEVELS

_NUMBER = re.compile(r"(?<![\w.])[-+\u2212]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")
_SVG_ID = re.compile(r"\b([pm])[0-9a-f]{10}\b")
TEXT_SUFFIXES = {".csv", ".svg", ".txt", ".md", ".html"}


def _unit(token: str) -> float:
    """One unit of the last digit printed in ``token`` (0 for an integer written without point or
    exponent)."""
    mantissa, _, exponent = token.lower().partition("e")
    if "." not in mantissa and not exponent:
        return 0.0
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return 10.0 ** (int(exponent or 0) - decimals)


def _value(token: str) -> float:
    return float(token.replace("\u2212", "-"))


def numbers_close(a: str, b: str, absolute: float = 0.0) -> bool:
    """Two printed numbers agree within REL_TOL, within one unit of the last digit either prints,
    or within ``absolute``."""
    x, y = _value(a), _value(b)
    if x == y:
        return True
    allowed = max(REL_TOL * max(abs(x), abs(y)), _unit(a), _unit(b), absolute)
    return abs(x - y) <= allowed * (1 + 1e-12)


def _normalise_ids(text: str) -> str:
    """Number matplotlib's hashed SVG ids (clip paths p…, markers m…) in order of first
    appearance."""
    names: dict[str, str] = {}
    return _SVG_ID.sub(
        lambda m: names.setdefault(m.group(0), f"{m.group(1)}{len(names):010d}"), text
    )


def text_equivalent(a: str, b: str, absolute: float = 0.0) -> bool:
    """The same text but for numbers, and the numbers close (see the module docstring; within
    ``absolute`` too, for an SVG's coordinates)."""
    if a == b:
        return True
    a, b = _normalise_ids(a), _normalise_ids(b)
    if _NUMBER.split(a) != _NUMBER.split(b):
        return False
    return all(
        numbers_close(x, y, absolute) for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b))
    )


def images_equivalent(a: bytes, b: bytes) -> bool:
    """Two encoded images of the same size whose pixels differ only by anti-aliasing noise."""
    if a == b:
        return True
    with Image.open(io.BytesIO(a)) as first, Image.open(io.BytesIO(b)) as second:
        x, y = (
            np.asarray(first.convert("RGBA"), dtype=np.int16),
            np.asarray(second.convert("RGBA"), dtype=np.int16),
        )
    if x.shape != y.shape:
        return False
    differing = np.abs(x - y).max(axis=-1) > PIXEL_LEVELS
    return float(differing.mean()) <= PIXEL_FRACTION


def _json_equivalent(a: object, b: object, key: str = "") -> bool:
    """Structures equal but for numbers (REL_TOL), text (``text_equivalent``) and embedded PNGs."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equivalent(a[k], b[k], k) for k in a)
    if key == "image/png" and isinstance(a, str) and isinstance(b, str):
        return images_equivalent(base64.b64decode(a), base64.b64decode(b))
    if isinstance(a, list) and isinstance(b, list):
        if a and all(isinstance(v, str) for v in a + b):  # a notebook's multi-line string
            return text_equivalent("".join(a), "".join(b))
        return len(a) == len(b) and all(_json_equivalent(x, y) for x, y in zip(a, b))
    if isinstance(a, str) and isinstance(b, str):
        return text_equivalent(a, b)
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or math.isclose(a, b, rel_tol=REL_TOL)
    return a == b


def results_equivalent(a: object, b: object) -> bool:
    """Two results (JSON structures, as results.json holds them) equal to the tolerances above."""
    return _json_equivalent(a, b)


def equivalent(a: str | Path, b: str | Path) -> bool:
    """Whether two result files hold the same content, to the tolerances above (by the files'
    suffix)."""
    a, b = Path(a), Path(b)
    if a.suffix != b.suffix or not a.is_file() or not b.is_file():
        return False
    first, second = a.read_bytes(), b.read_bytes()
    if first == second:
        return True
    if a.suffix == ".png":
        return images_equivalent(first, second)
    if a.suffix in (".json", ".ipynb"):
        try:
            return _json_equivalent(json.loads(first), json.loads(second))
        except json.JSONDecodeError:
            return False
    if a.suffix in TEXT_SUFFIXES:
        try:
            absolute = SVG_POINTS if a.suffix == ".svg" else 0.0
            return text_equivalent(first.decode(), second.decode(), absolute)
        except UnicodeDecodeError:
            return False
    return False


def differences(
    source: str | Path, target: str | Path, ignore: frozenset[str] = frozenset()
) -> list[str]:
    """File names (relative) that differ in content between two directories, or exist in one
    only; the names in ``ignore`` skipped."""
    source, target = Path(source), Path(target)
    names = {p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()}
    names |= {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()}
    return sorted(
        name for name in names - set(ignore) if not equivalent(source / name, target / name)
    )


def replace_if_changed(new: str | Path, old: str | Path) -> bool:
    """Copy ``new`` over ``old`` unless they are equivalent; return whether ``old`` was written."""
    new, old = Path(new), Path(old)
    if old.exists() and equivalent(new, old):
        return False
    old.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(new, old)
    return True


def sync(source: str | Path, target: str | Path, stale: set[str] | None = None) -> list[str]:
    """Make ``target`` hold ``source``'s files, rewriting only those whose content changed.

    Files in ``target`` that ``source`` lacks are removed when named in ``stale`` (``None``: every
    such file). Returns the relative names written or removed.
    """
    source, target = Path(source), Path(target)
    target.mkdir(parents=True, exist_ok=True)
    fresh = {p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()}
    changed = [name for name in sorted(fresh) if replace_if_changed(source / name, target / name)]
    old = {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()}
    for name in sorted(old - fresh):
        if stale is None or name in stale:
            (target / name).unlink()
            changed.append(name)
    return changed
