"""Lee & Clifton (2011), the paper's own numbers: which responses its Tables 2 and 3 were computed
at, how likely a random draw gives them, and the slips in its printed digits.

The mathematics these use (the posterior, the worlds' answers) is in ``possible_worlds``; what is
here serves only the Lee & Clifton notebook's reading of the paper.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize

from choosing_epsilon import laplace
from choosing_epsilon._validate import finite_array, nonnegative, positive, real
from choosing_epsilon.possible_worlds import posterior


@dataclass(frozen=True)
class ResponseFit:
    """The response γ whose posterior best matches a published column (max-abs residual)."""

    response: float  # best-fitting γ
    residual: float  # max over worlds of |β(ω) - published| at that γ
    # smallest γ whose residual is within the tolerance (-inf: every γ below the answers)
    lower: float
    # largest such γ (+inf: every γ above the answers); both nan when none is
    upper: float


def _grid_residuals(
    residual_at, grid: np.ndarray, lipschitz: float, tolerance: float, stride: int = 64
) -> tuple[np.ndarray, np.ndarray]:
    """The grid points a full grid search would need: coarse points, plus every cell that may hold
    the minimum or a point within tolerance.

    The residual is Lipschitz with constant ``lipschitz``, so inside a coarse cell of width h with
    end residuals r0, r1 it is at least (r0 + r1 - lipschitz h) / 2. Cells whose bound exceeds both
    the coarse minimum and the tolerance cannot change the grid search's answer and are skipped.
    Returns the evaluated indices (ascending) and their residuals.
    """
    coarse = np.unique(np.r_[np.arange(0, grid.size, stride), grid.size - 1])
    r = residual_at(grid[coarse])
    floor = (r[:-1] + r[1:] - lipschitz * np.diff(grid[coarse])) / 2
    # rounding in the residuals must not prune a cell that matters
    slack = 1e-12 + 1e-9 * float(r.max())
    keep = np.flatnonzero(floor <= max(float(r.min()), tolerance) + slack)
    inner = np.concatenate(
        [np.arange(coarse[c] + 1, coarse[c + 1]) for c in keep] or [np.array([], dtype=int)]
    )
    index = np.concatenate([coarse, inner])
    values = np.concatenate([r, residual_at(grid[inner]) if inner.size else np.array([])])
    order = np.argsort(index)
    return index[order], values[order]


# residuals closer than this to the best count as ties: float noise differs by CPU, the fit must not
FLAT = 1e-12


def _refine(loss, grid: np.ndarray, i: int) -> tuple[float, float]:
    """Golden-section search between the grid neighbours of grid[i], to 1e-15 relative; the grid
    point if it is no worse.

    Golden section compares values only, and near a max-abs optimum (a kink where two residuals
    cross) neighbouring values differ by far more than float noise, so every CPU takes the same
    steps and returns the same γ to the last digits printed.
    """
    left, right = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    centre = float(grid[i])
    try:
        refined = optimize.minimize_scalar(
            loss, bracket=(left, centre, right), method="golden", tol=1e-15
        )
    except ValueError:  # not a strict bracket: the grid point is the optimum
        return centre, loss(centre)
    if refined.fun < loss(centre) and left <= refined.x <= right:
        return float(refined.x), float(refined.fun)
    return centre, loss(centre)


def _column_residual(
    answers: Sequence[float] | np.ndarray,
    published: Sequence[float] | np.ndarray,
    sensitivity: float,
    epsilon: float,
) -> tuple[np.ndarray, Callable[[float | np.ndarray], np.ndarray]]:
    """The world answers, checked, and γ ↦ max_k |β_k(γ) - published_k|: how far the posterior
    (Definition 3) at γ is from a printed column."""
    a = finite_array("answers", answers, min_size=2)
    target = finite_array("published", published, min_size=a.size)
    if target.size != a.size:
        raise ValueError(f"published must have one value per world ({a.size}), got {target.size}")
    laplace.scale(sensitivity, epsilon)  # validates both

    def residual_at(g: float | np.ndarray) -> np.ndarray:
        return np.abs(posterior(a, g, sensitivity, epsilon) - target).max(axis=-1)

    return a, residual_at


def fit_response(
    answers: Sequence[float] | np.ndarray,
    published: Sequence[float] | np.ndarray,
    sensitivity: float,
    epsilon: float,
    tolerance: float,
    resolution: float = 1e-5,
) -> ResponseFit:
    """Recover the response behind a published posterior column (Tables 2-3): grid search, then
    refinement.

    The posterior is constant in γ below min f(ω) and above max f(ω), so the search covers that
    range with a small margin; an interval touching either end extends to infinity. The optimum is
    chosen canonically: grid points within ``FLAT`` of the best residual are ties, the smallest
    wins, and a tie at either end of the grid (a flat tail) is reported as that tail's end, min or
    max f(ω); otherwise a golden-section search refines the smallest tie between its grid
    neighbours. Each β(ω) changes with γ at rate at most ε/(2Δf), since
    dβ_k/dγ = β_k (ε/Δf) Σ_j β_j (s_k - s_j) with slopes s = ±1, and
    |Σ_j β_j (s_k - s_j)| ≤ 2(1 - β_k); that bound lets the grid search skip cells that cannot
    matter while returning exactly what evaluating every grid point would.
    """
    a, residual_at = _column_residual(answers, published, sensitivity, epsilon)
    resolution = positive("resolution", resolution)
    lo, hi = a.min() - 10 * resolution, a.max() + 10 * resolution
    grid = np.linspace(lo, hi, int(np.ceil((hi - lo) / resolution)) + 1)
    index, residual = _grid_residuals(residual_at, grid, epsilon / (2 * sensitivity), tolerance)
    best_grid = float(residual.min())
    ties = index[residual <= best_grid + FLAT]  # grid points as good as the best: a flat optimum
    if ties[0] == 0 or ties[-1] == grid.size - 1:
        # the posterior is the same for every γ beyond the answers: that tail's finite end stands
        # for it
        best = float(a.min() if ties[0] == 0 else a.max())
        best_residual = float(residual_at(np.float64(best)))
    else:
        best, best_residual = _refine(
            lambda g: float(residual_at(np.float64(g))), grid, int(ties[0])
        )
    ok = index[residual <= tolerance]
    lower = upper = math.nan
    if ok.size:
        lower = -math.inf if ok[0] == 0 else float(grid[ok[0]])
        upper = math.inf if ok[-1] == grid.size - 1 else float(grid[ok[-1]])
    if best_residual <= tolerance:  # the refined optimum may lie between grid points
        lower, upper = np.nanmin([lower, best]), np.nanmax([upper, best])
    return ResponseFit(best, best_residual, float(lower), float(upper))


def matching_responses(
    answers: Sequence[float] | np.ndarray,
    published: Sequence[float] | np.ndarray,
    sensitivity: float,
    epsilon: float,
    tolerance: float,
    resolution: float = 1e-5,
) -> list[tuple[float, float]]:
    """The responses γ whose posterior column (Definition 3) matches ``published`` within
    ``tolerance``, as intervals.

    The posterior is constant below min f(ω) and above max f(ω), so an interval reaching either
    end extends to -inf or +inf. The residual max_k |β_k(γ) - published_k| is evaluated on a grid
    of step ``resolution`` and each end of an interval is refined by ``scipy.optimize.brentq``; a
    set narrower than one grid step can be missed, and its probability is below ``resolution``
    times the peak Laplace density ε/(2Δf).
    """
    a, residual_at = _column_residual(answers, published, sensitivity, epsilon)
    tol = nonnegative("tolerance", tolerance)
    step = positive("resolution", resolution)
    lo, hi = float(a.min()), float(a.max())
    grid = np.linspace(lo, hi, max(int(np.ceil((hi - lo) / step)), 1) + 1)

    def excess(g: float | np.ndarray) -> np.ndarray:
        return residual_at(g) - tol

    inside = excess(grid) <= 0
    # inside changes between grid[i] and grid[i + 1]
    edges = np.flatnonzero(np.diff(inside.astype(int)))
    starts = ([0] if inside[0] else []) + [int(i) + 1 for i in edges if not inside[i]]
    ends = [int(i) for i in edges if inside[i]] + ([grid.size - 1] if inside[-1] else [])

    def crossing(i: int) -> float:
        """Where the residual reaches the tolerance between grid[i] and grid[i + 1]."""
        return float(
            optimize.brentq(
                lambda g: float(excess(np.float64(g))), grid[i], grid[i + 1], xtol=1e-13
            )
        )

    return [
        (-math.inf if s == 0 else crossing(s - 1), math.inf if e == grid.size - 1 else crossing(e))
        for s, e in zip(starts, ends)
    ]


def response_probability(
    intervals: Sequence[tuple[float, float]], centre: float, sensitivity: float, epsilon: float
) -> float:
    """Pr(γ in the union of disjoint ``intervals``) for γ = centre + Lap(Δf/ε), the response of the
    world answering ``centre``."""
    law = laplace.distribution(real("centre", centre), sensitivity, epsilon)
    return float(sum(law.cdf(b) - law.cdf(a) for a, b in intervals))


def table_cell(table: pd.DataFrame, name: str, column: str) -> float:
    """The value of ``column`` in the row named ``name`` (any case), nan unless there is exactly one
    (Table 1)."""
    if column not in table:
        return math.nan
    cell = table.loc[table["name"].str.lower() == name.lower(), column]
    return float(cell.iloc[0]) if len(cell) == 1 else math.nan


def swapped_digits(text: str) -> list[float]:
    """Every number made by swapping two neighbouring decimals of ``text`` (the Sec. 4.4 typo)."""
    start = text.index(".") + 1
    return [
        float(text[:i] + text[i + 1] + text[i] + text[i + 2 :]) for i in range(start, len(text) - 1)
    ]


def published_column(
    published: pd.Series, table: int, epsilon: float, worlds: int = 4
) -> np.ndarray:
    """The printed posterior column of Table 2 or 3 at ``epsilon``, from the ledger's values."""
    return np.array([published[f"t{table}_eps{epsilon:g}_w{k + 1}"] for k in range(worlds)])


@dataclass(frozen=True, eq=False)
class ColumnFit:
    """A printed posterior column (Tables 2-3), fitted with exact and with rounded world answers."""

    exact_fit: ResponseFit  # the fit with the exact world answers
    rounded_fit: ResponseFit  # the fit with the answers rounded to ``decimals``
    decimals: int
    rounded_answers: np.ndarray
    # the response the column stands for (rounded fit): a flat tail's end, else the fitted γ
    response: float
    relation: str  # "<=", ">=" or "=": the tail below, the tail above, or that one response
    exact: np.ndarray  # the posterior (Definition 3) at ``response``, exact answers
    rounded: np.ndarray  # the same with the rounded answers


def fit_column(
    answers: Sequence[float] | np.ndarray,
    published: Sequence[float] | np.ndarray,
    sensitivity: float,
    epsilon: float,
    tolerance: float,
    decimals: int = 2,
) -> ColumnFit:
    """The response behind a printed column (Tables 2-3), fitted with exact and with rounded
    answers, and the posterior (Definition 3) at the rounded fit."""
    a = finite_array("answers", answers, min_size=2)
    rounded_answers = np.round(a, decimals)
    exact_fit = fit_response(a, published, sensitivity, epsilon, tolerance)
    rounded_fit = fit_response(rounded_answers, published, sensitivity, epsilon, tolerance)
    # a flat tail stands for its end point: the worst case below, the far side above
    if rounded_fit.lower == -math.inf:
        response, relation = float(a.min()), "<="
    elif rounded_fit.upper == math.inf:
        response, relation = float(a.max()), ">="
    else:
        response, relation = rounded_fit.response, "="
    return ColumnFit(
        exact_fit,
        rounded_fit,
        decimals,
        rounded_answers,
        response,
        relation,
        posterior(a, response, sensitivity, epsilon),
        posterior(rounded_answers, response, sensitivity, epsilon),
    )


def _exponent_text(x: float) -> str:
    """A tolerance written short: 5e-5, not 5e-05."""
    return f"{x:.0e}".replace("e-0", "e-").replace("e+0", "e+")


def recovery_table(fits: Mapping[tuple[int, float], ColumnFit], tolerance: float) -> pd.DataFrame:
    """The response recovered behind each printed column of Tables 2-3, with exact and rounded
    world answers: the best γ, its residual and the γ within ``tolerance``."""
    within = f"γ range within {_exponent_text(tolerance)}"
    rows = []
    for (table, epsilon), fit in fits.items():
        exact, rounded = fit.exact_fit, fit.rounded_fit
        rows.append(
            {
                "table": table,
                "ε": epsilon,
                "γ (exact means)": exact.response,
                "residual": exact.residual,
                within: f"[{exact.lower:.4f}, {exact.upper:.4f}]",
                "γ (rounded means)": rounded.response,
                "residual (rounded)": rounded.residual,
                f"{within} (rounded)": f"[{rounded.lower:.4f}, {rounded.upper:.4f}]",
            }
        )
    return pd.DataFrame(rows)


def fitted_note(fit: ColumnFit) -> str:
    """The ledger's note on a Table 2 cell reproduced at its column's fitted response."""
    return (
        f"response gamma {fit.relation} {fit.response:.4f} fitted to the column (the paper prints "
        f"none; fit with world means rounded to {fit.decimals} decimals, column residual "
        f"{fit.rounded_fit.residual:.1e})"
    )


def rounding_note(fit: ColumnFit, world: int) -> str:
    """The ledger's note on a Table 2 cell that only the rounded world answers reproduce."""
    means = ", ".join(f"{v:g}" for v in fit.rounded_answers)
    return (
        f"at the fitted response (gamma {fit.relation} {fit.response:.4f}) exact world means give "
        f"{fit.exact[world]:.4f}; with the means rounded to {fit.decimals} decimals ({means}) the "
        f"same response gives {fit.rounded[world]:.4f}, and the whole column matches within "
        f"{fit.rounded_fit.residual:.1e}, while no single response matches it with exact means "
        f"(best residual {fit.exact_fit.residual:.1e})"
    )


@dataclass(frozen=True)
class CellCheck:
    """What the ledger is given for one printed cell: the value, and a fit's note or a slip's."""

    value: float
    fitted: str | None = None  # how the value was fitted, when it was
    slip: float | None = None  # what the slip the explanation names gives
    explanation: str | None = None  # why the value differs from the printed one


def table_checks(
    fits: Mapping[float, ColumnFit],
    published: pd.Series,
    tolerance: float,
    table: int,
    epsilons: Sequence[float],
    worlds: int = 4,
) -> dict[str, CellCheck]:
    """The check of each cell of a fitted table (Table 2): fitted where the exact answers give the
    printed value at the column's response, else a rounding slip; nan where no column was fitted."""
    checks = {}
    for epsilon in epsilons:
        fit = fits.get(epsilon)
        for k in range(worlds):
            claim = f"t{table}_eps{epsilon:g}_w{k + 1}"
            if fit is None:
                checks[claim] = CellCheck(math.nan)
            elif abs(fit.exact[k] - published[claim]) <= tolerance:
                checks[claim] = CellCheck(fit.exact[k], fitted=fitted_note(fit))
            else:
                note = rounding_note(fit, k)
                checks[claim] = CellCheck(fit.exact[k], slip=fit.rounded[k], explanation=note)
    return checks


def tail_note(fit: ResponseFit, end: float, residual: float) -> str:
    """The ledger's note on a Table 3 cell: its column matched by the flat tail γ ≤ min f(ω)."""
    return (
        f"response gamma <= {end:.4f} (the smallest world mean) fitted to the column (the paper "
        f"prints none; fit with exact world means: every gamma below {fit.upper:.4f} matches, and "
        f"the cells are the posterior at gamma = {end:.4f}, column residual {residual:.1e})"
    )


def tail_checks(
    fits: Mapping[float, ColumnFit],
    answers: Sequence[float] | np.ndarray,
    sensitivity: float,
    published: pd.Series,
    table: int,
    epsilons: Sequence[float],
    worlds: int = 4,
) -> dict[str, CellCheck]:
    """The check of each cell of a table matched, with exact answers, by every response below the
    answers (Table 3): the posterior (Definition 3) at γ = min f(ω), the worst case of Sec. 5.1
    for the world holding that answer, fitted; nan where no column was fitted or the tail does
    not match it."""
    a = finite_array("answers", answers, min_size=2)
    end = float(a.min())
    checks = {}
    for epsilon in epsilons:
        fit = fits.get(epsilon)
        claims = [f"t{table}_eps{epsilon:g}_w{k + 1}" for k in range(worlds)]
        if fit is None or fit.exact_fit.lower != -math.inf:
            checks.update({claim: CellCheck(math.nan) for claim in claims})
            continue
        beta = posterior(a, end, sensitivity, epsilon)[:worlds]
        residual = float(np.abs(beta - published_column(published, table, epsilon, worlds)).max())
        note = tail_note(fit.exact_fit, end, residual)
        checks.update({c: CellCheck(float(b), fitted=note) for c, b in zip(claims, beta)})
    return checks


def confidence_note(
    printed_beta: float, printed_confidence: float, prior: float, confidence: float
) -> str:
    """The ledger's note on a confidence (Definition 4, β - α) printed off its own operands."""
    operands = printed_beta - prior
    return (
        f"arithmetic slip: the paper's own operands give {printed_beta:.4f} - {prior:.2f} = "
        f"{operands:.4f}, as does the reproduced posterior ({confidence:.4f}); the printed "
        f"{printed_confidence:.4f} is off by {printed_confidence - operands:.2f}"
    )


def interval_text(intervals: Sequence[tuple[float, float]]) -> str:
    """A union of intervals as text, infinite ends written ±∞ (the responses behind Table 3)."""

    def end(v: float) -> str:
        return "−∞" if v == -math.inf else "∞" if v == math.inf else f"{v:.4f}"

    return " ∪ ".join(f"({end(lo)}, {end(hi)})" for lo, hi in intervals) or "none"
