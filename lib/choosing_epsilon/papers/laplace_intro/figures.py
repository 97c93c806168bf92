"""Figures of the introduction to the Laplace mechanism (notebooks/laplace_intro.ipynb): each
function takes the computed data and returns the figure with the data frame it draws, and a
``*_caption`` function beside it says in words what that figure shows, from the same data."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib import pyplot as plt
from matplotlib.figure import Figure
from scipy import stats

from choosing_epsilon import laplace
from choosing_epsilon.plots import figures, style

MAX_ROWS = 10_000  # beyond this many rows, the data saved with a figure is thinned or binned
RELEASES = style.PALETTE[0]  # the releases A(D) and what is computed from them
NEIGHBOUR = style.PALETTE[1]  # the neighbour D′ and the density of A(D)
LOSS = style.OKABE_ITO["black"]  # the privacy loss, a function of the output
LOSS_BINS = 50  # bins of the privacy-loss histogram over [-ε, ε]


def _span(releases: np.ndarray, center: float, noise_scale: float) -> tuple[float, float]:
    """The histogram's range: the density's ±8 scales around ``center``, and any release beyond
    (with few releases, bins fitted to the releases alone are so narrow that their bars dwarf the
    density)."""
    low = min(float(np.min(releases)), center - 8 * noise_scale)
    high = max(float(np.max(releases)), center + 8 * noise_scale)
    return low, high


def unresolved_span(low: float, high: float) -> str | None:
    """Why values from ``low`` to ``high`` cannot be drawn as curves or bins: the range holds
    fewer than ``RESOLVED_STEPS`` floating-point numbers at its size (a noise scale far below the
    spacing of floats at f(D)); None when it holds enough."""
    spacing = float(np.spacing(max(abs(low), abs(high))))
    if high - low >= RESOLVED_STEPS * spacing:
        return None
    return (
        f"the outputs span {high - low:.3g}, too few\nfloating-point steps ({spacing:.2g} each) "
        f"at {(low + high) / 2:.4g}\nto draw: shift f(D) towards 0"
    )


def output_perturbation(
    releases: np.ndarray, center: float, noise_scale: float, max_rows: int = MAX_ROWS
) -> tuple[Figure, pd.DataFrame]:
    """Output perturbation A(D) = f(D) + η (the post's Eq. 1): a histogram of the releases under
    the Laplace density around f(D); the data is every release, or beyond ``max_rows`` the
    histogram. Where floats cannot resolve the noise at f(D) (``unresolved_span``) the panel says
    so, and the data is every release, or beyond ``max_rows`` each distinct value and its count."""
    fig, ax = plt.subplots()
    ax.set(
        xlabel="released value (A(D))",
        ylabel="density",
        title="Output perturbation: A(D) = f(D) + η",
    )
    low, high = _span(releases, center, noise_scale)
    unresolved = unresolved_span(low, high)
    if unresolved:
        figures.centred_text(ax, unresolved)
        ax.set(xticks=[], yticks=[])
        if len(releases) <= max_rows:
            return fig, pd.DataFrame({"release": releases})
        values, counts = np.unique(releases, return_counts=True)
        return fig, pd.DataFrame({"release": values, "count": counts})
    heights, edges, _ = ax.hist(
        releases,
        bins=60,
        range=(low, high),
        density=True,
        alpha=0.5,
        color=RELEASES,
        label=f"{len(releases)} releases A(D)",
    )
    x = np.linspace(center - 8 * noise_scale, center + 8 * noise_scale, 801)
    density = stats.laplace(loc=center, scale=noise_scale).pdf(x)
    ax.plot(
        x,
        density,
        color=NEIGHBOUR,
        linestyle="-",
        label=f"density of A(D): Laplace({center:g}, {noise_scale:g})",
    )
    ax.axvline(center, color=style.REFERENCE, linestyle="--", lw=1.2, label=f"f(D) = {center:g}")
    # below the axes: the bars and the density peak wherever f(D) and the releases fall
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=2)
    if len(releases) <= max_rows:
        return fig, pd.DataFrame({"release": releases})
    bins = {"bin_left": edges[:-1], "bin_right": edges[1:], "density": np.asarray(heights)}
    return fig, pd.DataFrame(bins)


def output_perturbation_caption(
    releases: np.ndarray, center: float, sensitivity: float, epsilon: float
) -> figures.Caption:
    """Caption and alt text of ``output_perturbation`` for these releases of f(D) = ``center``."""
    noise_scale = laplace.scale(sensitivity, epsilon)
    low, high = _span(releases, center, noise_scale)
    setting = (
        f"{len(releases)} releases A(D) = f(D) + η of the Laplace mechanism (f(D) = {center:g}, "
        f"Δ(f) = {sensitivity:g}, ε = {epsilon:g}, noise scale Δ/ε = {noise_scale:.4g})"
    )
    if unresolved_span(low, high):
        return figures.Caption(
            caption=(
                f"No histogram of {setting}: the noise is too small beside f(D) for floating-point "
                f"numbers to tell the releases apart (they span {high - low:.3g}), so the panel "
                "says so instead."
            ),
            alt=(
                "An empty panel with the histogram's axes and a note in its middle: the releases "
                f"span {high - low:.3g} around f(D) = {center:g}, too few floating-point steps to "
                "draw; shift f(D) towards 0."
            ),
        )
    return figures.Caption(
        caption=(
            f"Histogram of {setting} under the density of A(D): each release is random, yet "
            "centred on the true answer f(D)."
        ),
        alt=(
            f"Histogram of the released values (x axis, about {low:.3g} to {high:.3g}) as a "
            f"density (y axis), under a solid orange curve, the Laplace({center:g}, "
            f"{noise_scale:.4g}) density, peaked at f(D) = {center:g} and falling off "
            f"exponentially on both sides; a grey dashed vertical line marks f(D) = {center:g}."
        ),
    )


def scenarios(
    panels: Sequence[pd.DataFrame], center: float, neighbour_center: float
) -> tuple[Figure, pd.DataFrame]:
    """The post's Figures 3 and 4: for each ε (a frame of ``at_work.neighbour_densities``), the
    densities of A(D) and A(D′) above, and below their ratio on a log scale within e^(±ε) (Eq. 2);
    the data is the frames, one after the other."""
    fig, axes = plt.subplots(
        2,
        len(panels),
        figsize=(10, 6),
        sharex="col",
        gridspec_kw={"height_ratios": [2, 1]},
        layout="constrained",
        squeeze=False,
    )
    shown_center, shown_neighbour = distinct_numbers(center, neighbour_center)
    for col, panel in enumerate(panels):
        eps = float(panel["epsilon"].iloc[0])
        top, bottom = axes[0, col], axes[1, col]
        top.set(ylabel="density")
        style.panel_title(top, col, f"output densities, ε = {eps:g}")
        style.panel_title(bottom, len(panels) + col, "their ratio on a log scale, within e^(±ε)")
        unresolved = unresolved_outputs(panel)
        if unresolved:
            for ax in (top, bottom):
                figures.centred_text(ax, unresolved)
                ax.set(xticks=[], yticks=[])
            bottom.set(xlabel="output (a)", ylabel="density ratio, log scale\n(p_D(a)/p_D′(a))")
            continue
        top.plot(
            panel["a"],
            panel["density_D"],
            color=RELEASES,
            linestyle="-",
            label=f"A(D), f(D) = {shown_center}",
        )
        top.plot(
            panel["a"],
            panel["density_D_prime"],
            color=NEIGHBOUR,
            linestyle="--",
            label=f"A(D′), f(D′) = {shown_neighbour}",
        )
        # the log of the ratio: a log axis for the ratio itself, drawable at any ε
        bottom.plot(panel["a"], panel["ln_ratio"], color=LOSS, linestyle="-")
        bottom.set_yticks(
            [-eps, 0, eps], [laplace.ratio_label(-eps), "1", laplace.ratio_label(eps)]
        )
        bottom.set_ylim(-1.3 * eps, 1.3 * eps)
        bottom.set(xlabel="output (a)", ylabel="density ratio, log scale\n(p_D(a)/p_D′(a))")
    # one legend for every column, below the figure: within a panel the two peaks, which move
    # with f(D), f(D′) and ε, can fill either upper corner
    drawn = [top for top in axes[0] if top.get_lines()]
    if drawn:
        fig.legend(*drawn[0].get_legend_handles_labels(), loc="outside lower center", ncols=2)
    return fig, pd.concat(list(panels), ignore_index=True)


# fewer distinct floating-point values than this across a panel's outputs: the curves are steps
RESOLVED_STEPS = 1000


def unresolved_outputs(panel: pd.DataFrame) -> str | None:
    """Why the outputs of ``panel`` (a frame of ``at_work.neighbour_densities``) cannot be drawn
    (``unresolved_span`` of their range); None when they can."""
    a = panel["a"].to_numpy(dtype=float)
    return unresolved_span(float(a.min()), float(a.max()))


def distinct_numbers(first: float, second: float) -> tuple[str, str]:
    """``first`` and ``second`` written with the fewest significant digits (at least 6, as
    ``:g``) that tell them apart."""
    for digits in range(6, 18):
        one, other = f"{first:.{digits}g}", f"{second:.{digits}g}"
        if one != other or first == second:
            return one, other
    return repr(first), repr(second)


def scenarios_caption(
    panels: Sequence[pd.DataFrame], center: float, neighbour_center: float, sensitivity: float
) -> figures.Caption:
    """Caption and alt text of ``scenarios`` for these frames of
    ``at_work.neighbour_densities``."""
    epsilons = [float(panel["epsilon"].iloc[0]) for panel in panels]
    at = _listed([f"ε = {eps:g}" for eps in epsilons])
    bounds = _listed([f"{laplace.ratio_label(eps)} at ε = {eps:g}" for eps in epsilons])
    spans = _listed(
        [
            f"{float(panel['a'].min()):.3g} to {float(panel['a'].max()):.3g} at ε = {eps:g}"
            for eps, panel in zip(epsilons, panels, strict=True)
        ]
    )
    return figures.Caption(
        caption=(
            f"Output densities of the Laplace mechanism for a dataset D (f(D) = {center:g}) and a "
            f"neighbour D′ (f(D′) = {neighbour_center:g}) at {at}, with Δ(f) = {sensitivity:g}, "
            "and below them their ratio, which never leaves [e^(−ε), e^ε]: the bound "
            f"ε-differential privacy sets, {bounds}."
        ),
        alt=(
            "Top row, one panel per ε: two peaked density curves over the output a, solid blue "
            f"centred at {center:g} for D and dashed orange centred at {neighbour_center:g} for "
            f"D′, each as wide as its noise scale Δ/ε, the x axis running from {spans}. Bottom "
            "row: the ratio of the two densities on a log axis, flat at e^ε for outputs below "
            f"{center:g}, falling in a straight line to e^(−ε) between {center:g} and "
            f"{neighbour_center:g}, and flat again above.{_unresolved_alt(epsilons, panels)}"
        ),
    )


def _unresolved_alt(epsilons: Sequence[float], panels: Sequence[pd.DataFrame]) -> str:
    """What the alt text adds for the columns whose outputs floats cannot resolve: no curves."""
    lost = [f"ε = {eps:g}" for eps, panel in zip(epsilons, panels) if unresolved_outputs(panel)]
    if not lost:
        return ""
    return (
        f" At {_listed(lost)} no curve is drawn: both panels say that the outputs span too few "
        "floating-point numbers at f(D) to be drawn."
    )


def averaging_attack(
    k: np.ndarray,
    running_mean: np.ndarray,
    standard_error: np.ndarray,
    center: float,
    max_rows: int = MAX_ROWS,
) -> tuple[Figure, pd.DataFrame]:
    """The averaging attack: the mean of the first k releases closing in on f(D) within ±2
    standard errors, on a log axis of k; beyond ``max_rows`` releases, about ``max_rows`` values
    of k spaced evenly on that axis are drawn and kept."""
    n = len(k)
    if n <= max_rows:
        drawn = np.arange(n)
    else:
        drawn = np.unique(np.geomspace(1, n, max_rows).round().astype(int)) - 1
    k, running_mean, standard_error = k[drawn], running_mean[drawn], standard_error[drawn]
    frame = pd.DataFrame({"k": k, "running_mean": running_mean, "standard_error": standard_error})
    fig, ax = plt.subplots()
    ax.set(
        xscale="log",
        xlabel="number of releases (k)",
        ylabel="estimate of the true answer\n(mean of k releases)",
        title="The averaging attack",
    )
    low, high = _averaging_span(running_mean, standard_error, center)
    unresolved = unresolved_span(low, high)
    if unresolved:
        figures.centred_text(ax, unresolved)
        ax.set(yticks=[])
        return fig, frame
    ax.plot(k, running_mean, color=RELEASES, linestyle="-", label="mean of the first k releases")
    band = (center - 2 * standard_error, center + 2 * standard_error)
    ax.fill_between(k, *band, color=RELEASES, alpha=0.2, label="f(D) ± 2 standard errors")
    ax.axhline(center, color=style.REFERENCE, linestyle="--", lw=1.2, label=f"f(D) = {center:g}")
    # matplotlib's own margin (5% of the span each side), set here: near 1e15 its autoscaling
    # widens the axis to ±1e-12 of f(D), flattening band and curve into a line
    margin = 0.05 * (high - low)
    ax.set_ylim(low - margin, high + margin)
    # below the axes: wherever the band and the line run, the legend covers neither
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=2)
    return fig, frame


def _averaging_span(
    running_mean: np.ndarray, standard_error: np.ndarray, center: float
) -> tuple[float, float]:
    """The values the averaging attack's panel shows: the running mean, the band f(D) ± 2
    standard errors and f(D)."""
    low = min(float(np.min(running_mean)), center - 2 * float(np.max(standard_error)), center)
    high = max(float(np.max(running_mean)), center + 2 * float(np.max(standard_error)), center)
    return low, high


def averaging_attack_caption(
    k: np.ndarray, running_mean: np.ndarray, standard_error: np.ndarray, center: float
) -> figures.Caption:
    """Caption and alt text of ``averaging_attack`` for the same running mean and errors."""
    n = int(k[-1])
    error = abs(float(running_mean[-1]) - center)
    low, high = _averaging_span(running_mean, standard_error, center)
    if unresolved_span(low, high):
        return figures.Caption(
            caption=(
                f"No curve for the averaging attack on f(D) = {center:g} over {n} releases: its "
                f"band f(D) ± 2 standard errors (±{2 * float(standard_error[0]):.4g} at k = 1) is "
                "too narrow beside f(D) for floating-point numbers to draw, so the panel says so."
            ),
            alt=(
                "Log x axis: the number of releases k; an empty panel with a note in its middle: "
                "too few floating-point steps to draw; shift f(D) towards 0."
            ),
        )
    return figures.Caption(
        caption=(
            f"The averaging attack on f(D) = {center:g}: the mean of the first k of {n} releases, "
            f"whose standard error shrinks like 1/√k from {float(standard_error[0]):.4g} to "
            f"{float(standard_error[-1]):.4g}, ends {error:.4g} from f(D), which is why repeated "
            "releases must be capped by a privacy budget."
        ),
        alt=(
            f"Log x axis: the number of releases k, from 1 to {n}; y axis: the estimate of the "
            f"true answer. A solid blue curve, the running mean, starts at "
            f"{float(running_mean[0]):.4g} and ends at {float(running_mean[-1]):.4g}, inside a "
            f"light blue band f(D) ± 2 standard errors that narrows from "
            f"±{2 * float(standard_error[0]):.4g} to ±{2 * float(standard_error[-1]):.4g}; a grey "
            f"dashed horizontal line marks f(D) = {center:g}."
        ),
    )


def privacy_loss(
    releases: np.ndarray, loss: np.ndarray, epsilon: float, max_rows: int = MAX_ROWS
) -> tuple[Figure, pd.DataFrame]:
    """A histogram of the privacy loss ln(p_D(a)/p_D′(a)) at releases a ~ A(D), on [-ε, ε]; the
    data is every release with its loss, or beyond ``max_rows`` every n-th loss."""
    fig, ax = plt.subplots()
    # the loss lies in [-ε, ε] up to round-off (laplace.check_privacy_loss)
    ax.hist(
        np.clip(loss, -epsilon, epsilon),
        bins=LOSS_BINS,
        range=(-epsilon, epsilon),
        density=True,
        color=RELEASES,
    )
    ax.set(
        xlabel="privacy loss (ln p_D(a)/p_D′(a))",
        ylabel="density",
        title=f"The privacy loss when a ~ A(D), ε = {epsilon:g}",
    )
    # at most five ticks: at ε = 0.001 the default nine labels (−0.00100, −0.00075, ...) overlap
    ax.locator_params(axis="x", nbins=4)
    if len(loss) <= max_rows:
        return fig, pd.DataFrame({"release": releases, "privacy_loss": loss})
    return fig, pd.DataFrame({"privacy_loss": loss[:: max(1, len(loss) // max_rows)]})


def privacy_loss_caption(loss: np.ndarray, epsilon: float) -> figures.Caption:
    """Caption and alt text of ``privacy_loss`` for these losses at ``epsilon``."""
    counts, _ = np.histogram(
        np.clip(loss, -epsilon, epsilon), bins=LOSS_BINS, range=(-epsilon, epsilon)
    )
    shares = counts / len(loss)
    return figures.Caption(
        caption=(
            f"The privacy loss ln(p_D(a)/p_D′(a)) of {len(loss)} releases a drawn from A(D) at "
            f"ε = {epsilon:g}, with f(D′) a full sensitivity above f(D), never leaves [−ε, ε]: "
            "it is +ε with probability 1/2 and −ε with probability e^(−ε)/2 = "
            f"{math.exp(-epsilon) / 2:.3g}, "
            f"and its mean is the Kullback–Leibler divergence ε + e^(−ε) − 1 = "
            f"{epsilon + math.expm1(-epsilon):.3g}."
        ),
        alt=(
            f"Histogram of the privacy loss, x axis from {-epsilon:g} to {epsilon:g} in "
            f"{LOSS_BINS} bins, y axis its density: the bin at +ε holds {shares[-1]:.1%} of the "
            f"losses, the bin at −ε {shares[0]:.1%}, and the {LOSS_BINS - 2} bins between them "
            f"{shares[1:-1].sum():.1%}."
        ),
    )


def _listed(items: Sequence[str]) -> str:
    """``items`` as words: "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --- tables: shown to a few significant figures, saved at full precision ---------------------


def show_significant(table: pd.DataFrame, name: str, significant: int, index: bool = False) -> None:
    """Show ``table`` with ``significant`` significant figures and save it at full precision as
    ``name``.csv in the run's folder (``figures.show_table``)."""
    with pd.option_context("display.float_format", f"{{:.{significant}g}}".format):
        figures.show_table(table, name, index=index)


def show_input_perturbation(table: pd.DataFrame) -> None:
    """The averages of input-perturbed releases beside their predictions
    (``at_work.input_perturbation_table``), to five significant figures."""
    show_significant(table, "input_perturbation_mean", 5, index=True)


def range_table(
    ranges: Sequence[tuple[float, float]], sensitivities: Sequence[float], epsilon: float
) -> pd.DataFrame:
    """The sensitivity (ub - lb)/n of a mean over each range [lb, ub] of ``ranges`` and the
    Laplace noise it calls for at ``epsilon``: its scale and standard deviation √2 Δ/ε."""
    return pd.DataFrame(
        {
            "range": [f"{lb:g}-{ub:g}" for lb, ub in ranges],
            "sensitivity (ub-lb)/n": list(sensitivities),
            f"noise scale at ε = {epsilon:g}": [s / epsilon for s in sensitivities],
            "noise std (years)": [math.sqrt(2) * s / epsilon for s in sensitivities],
        }
    )


def neighbour_table(
    n: int,
    sizes: tuple[int, int],
    brute_force: tuple[float, float],
    formula: tuple[float, float],
) -> pd.DataFrame:
    """The sensitivity of a mean found by enumeration beside its formula, for neighbours with one
    record changed (datasets of ``n`` records) and with one added or removed (datasets of
    ``sizes`` = (smallest, largest) records)."""
    return pd.DataFrame(
        {
            "neighbours": [
                f"one record changed, n = {n}",
                f"one record added or removed, {sizes[0]} to {sizes[1]} records",
            ],
            "brute force": list(brute_force),
            "formula": list(formula),
            "which formula": [f"(ub - lb)/n, n = {n}", f"(ub - lb)/(m + 1), m = {sizes[0]}"],
        }
    )


def show_neighbour_sensitivities(table: pd.DataFrame) -> None:
    """Show ``neighbour_table`` and save it as mean_sensitivity_neighbours.csv."""
    figures.show_table(table, "mean_sensitivity_neighbours")


# --- the averaging attack read exactly ---------------------------------------------------------

# the averaging section's curves: (column key, label, colour, dash)
# (the solid line first: a broken line drawn over it stays visible where the curves coincide, as
# they all do at 1 for a large ε)
AVERAGING_SERIES = [
    ("worst_case", "worst case at ε each (k-fold randomized response)", style.PALETTE[0], "-"),
    ("basic", "basic composition (kε)", style.PALETTE[3], "-."),
    ("best_upper", "most powerful test against the k releases", style.PALETTE[2], "--"),
    ("averaging", "averaging test (mean of k answers)", style.PALETTE[1], ":"),
]


def averaging_exact(
    table: pd.DataFrame,
    columns: dict[str, str],
    level: float,
    crossed: dict[str, int | None],
    crossed_at: dict[str, float],
) -> tuple[Figure, pd.DataFrame]:
    """The advantage after k releases against k (log axis), one curve per reading of
    ``AVERAGING_SERIES`` (the most powerful test's bracket is narrower than its line), the stated
    risk ``level`` as a grey line, and a marker where each reading first reaches it
    (``crossed``: the k, ``crossed_at``: the advantage there)."""
    fig, ax = plt.subplots()
    ks = table["k"].to_numpy()
    for key, label, colour, dash in AVERAGING_SERIES:
        ax.plot(ks, table[columns[key]], color=colour, linestyle=dash, label=label)
        first = crossed.get(key)
        if first is not None:
            ax.plot([first], [crossed_at[key]], marker="o", color=colour, linestyle="none")
    ax.axhline(level, color=style.REFERENCE, linestyle="--", lw=1.0)
    ax.set(
        xscale="log",
        ylim=(0, 1.02),
        xlabel="number of releases (k)",
        ylabel="advantage (TPR − FPR)",
        title="The averaging attack, read on the attacker's scale",
    )
    style.legend_below(ax, ncols=1)
    frame = table[["k", *(columns[key] for key, *_ in AVERAGING_SERIES), columns["best_lower"]]]
    return fig, frame.copy()


def averaging_exact_caption(
    epsilon: float, level: float, crossed: dict[str, int | None], largest_k: int
) -> figures.Caption:
    """Caption and alt text of ``averaging_exact``."""

    def at(key: str) -> str:
        k = crossed.get(key)
        return f"k = {k}" if k is not None else f"more than {largest_k}"

    best = (
        f"{at('best_upper')} to {at('best_lower')}"
        if crossed.get("best_upper") != crossed.get("best_lower")
        else at("best_upper")
    )
    return figures.Caption(
        caption=(
            f"After k Laplace releases of one count at ε = {epsilon:g} each, the least k at "
            f"which the advantage reaches {level:g} is {at('basic')} read by basic composition, "
            f"{at('worst_case')} for the worst case at ε each, {best} for the most powerful test "
            f"against the releases and {at('averaging')} for the averaging test."
        ),
        alt=(
            f"Log x axis: the number of releases k, up to {largest_k}; y axis: the advantage, 0 "
            "to 1. Four rising curves, from the highest: basic composition (vermillion, "
            "dash-dot), the worst case (blue, solid), the most powerful test against the Laplace "
            "releases (green, dashed) and the averaging test (orange, dotted); a grey dashed "
            f"line at the advantage {level:g}, with a dot on each curve where it first reaches it."
        ),
    )
