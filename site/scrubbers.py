"""The site's renderer of the ε scrubbers: each one an HTML fragment with a slider, no kernel.

Each paper's scrubbers live in its folder (``papers/<notebook>/scrubbers.py``, drawn with the
figure kit's ``plots.scrubber``) and are found here through the registry of the notebooks
(``harness.papers``), by name: this file imports no paper's module. ``SCRUBBERS`` holds every
one by name (a notebook's first is named after the notebook), ``of_notebook`` a notebook's in
the order its page shows them. ``html`` renders one as an HTML fragment (``HTMLWriter`` with the
frames embedded as PNG, a range slider and buttons), deterministic: the writer's random uuid is
replaced by an id derived from the scrubber's name, and the PNG frames carry no metadata.
"""

from __future__ import annotations

import re
import tempfile
from html import escape
from pathlib import Path

from matplotlib.animation import HTMLWriter

from choosing_epsilon.harness import papers
from choosing_epsilon.plots.scrubber import FPS, ScrubAnimation, Scrubber, style_context

FRAME_DPI = 90  # small PNG frames: about 580 pixels wide

# every scrubber by name, and the notebook whose page shows it, from each paper's folder
NOTEBOOK_OF: dict[str, str] = {
    name: notebook for notebook in papers.names() for name in papers.scrubbers(notebook)
}
SCRUBBERS: dict[str, Scrubber] = {
    name: scrubber
    for notebook in papers.names()
    for name, scrubber in papers.scrubbers(notebook).items()
}
"""Every scrubber by name, each notebook's in the order its page shows those that follow the same
figure: a notebook's first is named after it, the others after it and what they move."""


def _scrubber(name: str) -> Scrubber:
    """The scrubber named ``name``; ValueError naming the known ones otherwise."""
    if name not in SCRUBBERS:
        raise ValueError(f"name must be one of {sorted(SCRUBBERS)}, got {name!r}")
    return SCRUBBERS[name]


def of_notebook(notebook: str) -> list[str]:
    """The names of notebook ``notebook``'s scrubbers, in its folder's order (empty if none)."""
    return [name for name in SCRUBBERS if NOTEBOOK_OF[name] == notebook]


def _render(animation: ScrubAnimation) -> str:
    """The animation as matplotlib's jshtml fragment (``to_jshtml``'s writer, with PNG frames
    saved without metadata)."""
    writer = HTMLWriter(fps=FPS, embed_frames=True, default_mode="once")
    with (
        tempfile.TemporaryDirectory() as tmp,
        style_context({"animation.frame_format": "png"}),
    ):
        path = Path(tmp, "scrubber.html")
        animation.save(
            str(path),
            writer=writer,
            dpi=FRAME_DPI,
            savefig_kwargs={"metadata": {"Software": None}},
        )
        return path.read_text(encoding="utf-8")


def element_id(name: str) -> str:
    """The fixed id that replaces HTMLWriter's random uuid in ``name``'s fragment."""
    return f"scrub_{name}"


def _fixed(text: str, name: str, start: int) -> str:
    """The fragment with HTMLWriter's random uuid replaced by ``element_id(name)`` (a regex on the
    output: every id and the JavaScript variable share the uuid), opening at frame ``start``."""
    found = re.search(r'id="_anim_img([0-9a-f]{32})"', text)
    if found is None:
        raise RuntimeError("HTMLWriter's fragment has no _anim_img<uuid> element to rename")
    ident = element_id(name)
    text = text.replace(found.group(1), ident)
    # the frame's alt text: what the reader would see move
    tag = f'<img id="_anim_img{ident}"'
    if tag not in text:
        raise RuntimeError("HTMLWriter's fragment has no <img> frame to describe")
    alt = escape(f"Animated figure, one frame per value of the {SCRUBBERS[name].parameter}: "
                 + SCRUBBERS[name].label, quote=True)  # fmt: skip
    text = text.replace(tag, f'<img alt="{alt}" id="_anim_img{ident}"')
    text = text.replace(
        f'id="_anim_slider{ident}" type="range" class="anim-slider"\n'
        '           name="points" min="0" max="1" step="1" value="0"',
        f'id="_anim_slider{ident}" type="range" class="anim-slider"\n'
        f'           name="points" min="0" max="1" step="1" value="{start}"',
    )
    created = re.search(rf"anim{ident} = new Animation\([^;]*\);", text)
    if created is None:
        raise RuntimeError("HTMLWriter's fragment creates no Animation object to start")
    opening = f"{created.group(0)}\n        anim{ident}.set_frame({start});"
    return text[: created.start()] + opening + text[created.end() :]


def html(name: str, frames: int | None = None) -> str:
    """The jshtml fragment of the scrubber named ``name``, byte-identical from build to build."""
    animation = _scrubber(name).build(frames)
    return _fixed(_render(animation), name, animation.start)


def write_all(out_dir: Path) -> dict[str, Path]:
    """Write ``<name>.html`` for every scrubber into ``out_dir``; return the paths by name."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in SCRUBBERS:
        path = out / f"{name}.html"
        path.write_text(html(name), encoding="utf-8")
        paths[name] = path
    return paths
