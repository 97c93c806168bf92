"""The figure style's reader rules (``style.reader_problems``), each from both sides: a figure
that breaks the rule is named with the rule, and the same figure drawn honestly passes."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

from choosing_epsilon.plots import style

X = np.linspace(0.0, 1.0, 51)


def panel():
    style.use()
    fig, ax = plt.subplots()
    ax.set(xlabel="fraction (share)", ylabel="value (share)")
    return fig, ax


def rules(fig):
    try:
        return style.problems(fig)
    finally:
        plt.close(fig)


def legend_over_lines():
    fig, ax = panel()
    ax.plot(X, X, label="rising")
    ax.plot(X, 1 - X, label="falling")
    ax.legend(loc="center")
    return fig


def legend_below_axes():
    fig, ax = panel()
    ax.plot(X, X, label="rising")
    ax.plot(X, 1 - X, label="falling")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)
    return fig


def text_over_bar():
    fig, ax = panel()
    ax.bar([0, 1], [1, 1])
    ax.text(0, 0.5, "inside the bar")
    return fig


def text_above_bars():
    fig, ax = panel()
    ax.bar([0, 1], [1, 1])
    ax.set_ylim(0, 1.4)
    ax.text(0, 1.15, "above the bars")
    return fig


def text_over_area():
    fig, ax = panel()
    ax.fill_between(X, 0, 1, alpha=0.3, label="feasible")
    ax.text(0.4, 0.5, "in the area")
    return fig


def text_over_scatter():
    fig, ax = panel()
    ax.plot(X, X, label="rising")
    ax.scatter([0.2], [0.8], label="chosen")
    ax.text(0.2, 0.8, "the choice", ha="center", va="center")
    return fig


def text_beside_scatter():
    fig, ax = panel()
    ax.plot(X, X, label="rising")
    ax.scatter([0.2], [0.8], label="chosen")
    ax.text(0.2, 0.9, "the choice", ha="center", va="center")
    return fig


def marker_off_axes():
    fig, ax = panel()
    ax.plot(X, X, label="rising")
    ax.plot([1.5], [0.5], "o", label="minimum")
    ax.set_xlim(0, 1)
    return fig


def marker_at_edge():
    fig, ax = panel()
    ax.plot(X, X, label="rising")
    ax.set_xlim(0, 1)
    ax.plot([1.0], [0.5], ">", label="minimum at 1.5, off the axis")
    return fig


def threshold_off_axes():
    fig, ax = panel()
    ax.plot(X, X, label="rising")
    ax.axvline(3.0, label="threshold")
    ax.set_xlim(0, 1)
    return fig


def empty_panel():
    fig, _ax = panel()
    return fig


def empty_panel_said():
    fig, ax = panel()
    ax.text(0.5, 0.5, "nothing to draw: no profile applies", transform=ax.transAxes, ha="center")
    return fig


def hidden_series():
    fig, ax = panel()
    ax.plot(X, X, "--", label="bound")
    ax.plot(X, X, "-", lw=2, label="exact")
    return fig


def outlined_series():
    fig, ax = panel()
    ax.plot(X, X, "-", lw=3, label="bound")
    ax.plot(X, X, ":", lw=1.2, label="exact")
    return fig


def log_axis_one_label():
    fig, ax = panel()
    ax.plot([1.1, 1.2], [0.2, 0.8])
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.xaxis.set_major_locator(matplotlib.ticker.FixedLocator([1.15]))
    return fig


def log_axis_labelled():
    fig, ax = panel()
    ax.plot([1, 1000], [0.2, 0.8])
    ax.set_xscale("log")
    return fig


def title_too_wide():
    fig, ax = panel()
    ax.plot(X, X)
    ax.set_title("a title that goes on " * 8, loc="left")
    return fig


def title_that_fits():
    fig, ax = panel()
    ax.plot(X, X)
    ax.set_title("a title that fits", loc="left")
    return fig


@pytest.mark.parametrize(
    ("broken", "honest", "rule"),
    [
        (legend_over_lines, legend_below_axes, "the legend sits over drawn data"),
        (text_over_bar, text_above_bars, "sits over drawn data (Rectangle)"),
        (text_over_area, legend_below_axes, "sits over drawn data ('feasible')"),
        (text_over_scatter, text_beside_scatter, "sits over drawn data ('chosen')"),
        (marker_off_axes, marker_at_edge, "lies outside the axes (near x=1.5"),
        (threshold_off_axes, legend_below_axes, "the line 'threshold' lies wholly outside"),
        (empty_panel, empty_panel_said, "draws nothing and says nothing"),
        (hidden_series, outlined_series, "'exact' hides 'bound'"),
        (log_axis_one_label, log_axis_labelled, "the log x axis shows fewer than two labelled"),
        (title_too_wide, title_that_fits, "is wider than its figure"),
    ],
    ids=lambda value: getattr(value, "__name__", str(value)[:20]),
)
def test_each_reader_rule_names_the_broken_figure_and_passes_the_honest_one(broken, honest, rule):
    found = rules(broken())
    assert any(rule in problem for problem in found), found
    assert rules(honest()) == []
