"""The kit of the ε scrubbers: a notebook's figure as frames a reader moves through with a slider.

A scrubber is a matplotlib ``FuncAnimation`` over one parameter (ε, p, the budget B or the number
of people n), computed by the package at the notebook's committed parameters and drawn on axes
fixed across frames (``ScrubAnimation``). Each paper's scrubbers live in its folder,
``papers/<notebook>/scrubbers.py``, as a ``SCRUBBERS`` dict of ``Scrubber`` by name (a notebook's
first is named after it); the registry (``harness.papers.scrubbers``) finds them, and the site's
renderer (``site/scrubbers.py``) turns each into an HTML fragment with a slider, no kernel needed.
Here: what a builder needs, ``styled`` (its frame count, under the project's style),
``new_figure`` and ``grid_through`` (the slider's values, through the notebook's default).
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import matplotlib
import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from . import style

FPS = 4  # frames per second when played


@dataclass(frozen=True)
class Scrubber:
    """A scrubber: the figure of its notebook it accompanies, what its slider moves, its caption,
    how to build its animation, and the notebook parameter it opens at."""

    figure: str  # file name in figures/<notebook>/ of the figure it follows on the page
    parameter: str  # what the slider moves, in words with the symbol
    label: str  # one sentence caption shown above the animation
    build: Builder
    # the notebook parameter whose committed value is its opening frame; empty where it opens at
    # a value the parameters give by a computation (said in its builder's docstring)
    opens_at: str = ""


class ScrubAnimation(FuncAnimation):
    """A ``FuncAnimation`` whose frame i draws the figure at ``values[i]``; ``start`` is the frame
    of the notebook's default value and ``marks`` the artists that move with the value."""

    def __init__(
        self,
        fig: Figure,
        draw: Callable[[int], None],
        values: Sequence[float] | np.ndarray,
        start: int,
        marks: Mapping[str, Line2D],
    ) -> None:
        self.figure = fig
        self.values = [float(v) for v in values]
        self.start = start
        self.marks = dict(marks)
        self._draw_frame_at = draw
        super().__init__(
            fig, self._step, frames=len(self.values), interval=1000 / FPS, repeat=False
        )
        self.draw(start)  # as built, the figure shows the notebook's default

    def _step(self, i: int) -> list[Any]:
        """FuncAnimation's callback: draw frame ``i``."""
        self._draw_frame_at(i)
        return []

    def draw(self, i: int) -> None:
        """Put the figure in the state of frame ``i`` (what the frame shows)."""
        self._draw_frame_at(i)
        # a frame drawn counts as rendered: matplotlib's (private) flag, without which it warns
        # when an animation that was only inspected is deleted
        self._draw_was_started = True

    @property
    def title(self) -> str:
        """The figure's title as the current frame states it."""
        suptitle = self.figure.get_suptitle()
        return suptitle or self.figure.axes[0].get_title()


class Builder(Protocol):
    """Builds a scrubber's animation: at its own number of frames, or at the number given."""

    def __call__(self, count: int | None = None) -> ScrubAnimation: ...


def style_context(
    extra: Mapping[str, Any] | None = None,
) -> contextlib.AbstractContextManager[None]:
    """The project's matplotlib style (and ``extra``) within a block, the global one untouched."""
    # rc_context's keys are typed as literals
    return matplotlib.rc_context(style.RC | dict(extra or {}))  # type: ignore[arg-type]


def check_count(count: int) -> int:
    """``count`` if it is a number of frames in [2, 200], else ValueError naming the range."""
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 200:
        raise ValueError(f"frames must be an integer in [2, 200], got {count!r}")
    return count


def grid_through(value: float, low: float, high: float, count: int, log: bool) -> np.ndarray:
    """``count`` values from ``low`` to ``high``, evenly spaced (in log if ``log``), with the node
    nearest ``value`` moved onto it: the notebook's default is always a frame."""
    count = check_count(count)
    if log:
        nodes = np.geomspace(low, high, count)
        nearest = int(np.argmin(np.abs(np.log(nodes) - math.log(value))))
    else:
        nodes = np.linspace(low, high, count)
        nearest = int(np.argmin(np.abs(nodes - value)))
    nodes[nearest] = value
    return nodes


def new_figure(width: float, height: float, columns: int = 1) -> tuple[Figure, list[Axes]]:
    """A figure outside pyplot (nothing to close, no figure manager) with ``columns`` axes."""
    fig = Figure(figsize=(width, height))
    axes = fig.subplots(1, columns, squeeze=False)[0]
    return fig, list(axes)


def styled(frames: int) -> Callable[[Callable[[int], ScrubAnimation]], Builder]:
    """A builder of ``frames`` frames unless told otherwise, run under the project's matplotlib
    style without changing the global one."""

    def wrap(builder: Callable[[int], ScrubAnimation]) -> Builder:
        @functools.wraps(builder)
        def build(count: int | None = None) -> ScrubAnimation:
            with style_context():
                animation = builder(check_count(frames if count is None else count))
                style.check(animation.figure)  # its first frame, as drawn
                return animation

        return build

    return wrap
