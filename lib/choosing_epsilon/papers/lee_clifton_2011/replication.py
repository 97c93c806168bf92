"""A public replication of Lee & Clifton's search for ε, modelled to show its three defects.

The replication is the notebook behind OpenMined's blog post "Choosing Epsilon for Differential
Privacy" (``How_much_is_enough_Calculating_An_Optimal_Epsilon_Last_version.ipynb`` in the public
repository gonzalo-munillag/Blog, read at commit 965016e). This module restates its procedure in
our own terms, with each defect a switch, so that the notebook can show what each one does:

1. **One world skipped.** It lists the worlds as ``itertools.combinations`` of the n - 1 kept rows,
   whose last entry is the world missing the *first-listed* row, and its loop over worlds stops one
   entry short: that world's posterior is never computed (``skip_last_world``).
2. **Equal worlds dropped.** A world's denominator 1 + sum_j e^{-ε |f(ω_i) - f(ω_j)| / Δf} leaves
   out every world equal to ω_i as a sequence of values, not only ω_i itself; two rows with the same
   value, listed next to each other, give two such worlds, each of which then omits the other's
   term e^0 = 1 and over-states its posterior (``drop_equal_worlds``).
3. **A ceiling for "any ε".** It halves [0, ε_top] 25 times, ε_top being Eq. (7) at ρ = 0.9999,
   and returns the last midpoint; where the posterior it computes stays below ρ up to ε_top, that
   is ε_top less 2^-25 of it, whether the exact answer is ∞ (any ε keeps the risk below ρ) or a
   finite ε above ε_top.

Its search takes no level for a percentile: the posteriors it computes are the median's, whatever
percentile's sensitivities it is given, so ``query="quantile"`` here at q other than 1/2 goes
beyond the published procedure.

Its Δf is the largest change of the query between a world and the world less one of its rows or
with the missing row put back; its Δv the largest change between two worlds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import queries
from choosing_epsilon._validate import finite_array, positive

SOURCE = (
    "OpenMined blog, “Choosing Epsilon for Differential Privacy”: notebook "
    "How_much_is_enough_Calculating_An_Optimal_Epsilon_Last_version.ipynb, "
    "github.com/gonzalo-munillag/Blog at commit 965016e"
)
CEILING_RISK = 0.9999  # the risk at which its search range ends, by Eq. (7)
STEPS = 25  # its number of halvings
MAX_ROWS = 12  # the model enumerates worlds and their subsets, as the replication does


@dataclass(frozen=True)
class ReplicationSearch:
    """What the replication's search returns, with the numbers it uses."""

    epsilon: float  # the last midpoint of its halvings
    ceiling: float  # ε_top: Eq. (7) at ρ = 0.9999 with its Δf and Δv
    sensitivity: float  # its Δf
    delta_v: float  # its Δv


def _statistic(query: str, q: float | None) -> Callable[[np.ndarray], float]:
    """The query as NumPy computes it (population divisor, linear quantile)."""
    query, q = queries.check_query(query, q)
    named: dict[str, Callable[[np.ndarray], float]] = {
        "mean": np.mean,
        "sum": np.sum,
        "variance": np.var,
        "std": np.std,
        "median": np.median,
        "quantile": lambda w: np.quantile(w, q if q is not None else 0.5),
    }
    return lambda w: float(named[query](w))


def _rows(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """The column as listed, 3 to ``MAX_ROWS`` rows."""
    x = finite_array("values", values, min_size=3)
    if x.size > MAX_ROWS:
        raise ValueError(
            "values: the model enumerates worlds as the replication does, at most "
            f"{MAX_ROWS} rows, got {x.size}"
        )
    return x


def listed_worlds(values: Sequence[float] | np.ndarray) -> list[np.ndarray]:
    """The worlds in the replication's order (combinations of n - 1 rows): entry m misses row
    n - 1 - m, so the last entry misses the first-listed row."""
    x = _rows(values)
    return [np.array(w) for w in itertools.combinations(x, x.size - 1)]


@dataclass(frozen=True)
class _Listing:
    """What the replication's search computes once: the worlds' answers in its order, which
    worlds are equal as sequences of values, and its Δf and Δv."""

    answers: np.ndarray
    equal: np.ndarray  # equal[i, j]: worlds i and j hold the same values in the same order
    sensitivity: float
    delta_v: float


def _listing(x: np.ndarray, query: str, q: float | None) -> _Listing:
    """The ``_Listing`` of the column ``x`` (already checked) for ``query``."""
    f = _statistic(query, q)
    worlds = listed_worlds(x)
    answers = np.array([f(w) for w in worlds])
    delta_f = 0.0
    for w, answer in zip(worlds, answers):
        neighbours = [f(np.delete(w, t)) for t in range(w.size)] + [f(x)]
        delta_f = max(delta_f, *(abs(answer - b) for b in neighbours))
    equal = np.array([[np.array_equal(a, b) for b in worlds] for a in worlds])
    return _Listing(answers, equal, float(delta_f), float(answers.max() - answers.min()))


def replication_sensitivities(
    values: Sequence[float] | np.ndarray, query: str = "mean", q: float | None = None
) -> tuple[float, float]:
    """Its Δf (a world against the world less a row or with the missing row back) and Δv."""
    listing = _listing(_rows(values), query, q)
    return listing.sensitivity, listing.delta_v


def _listing_risk(
    listing: _Listing, epsilon: float, skip_last_world: bool, drop_equal_worlds: bool
) -> float:
    """``replication_risk`` of a computed listing."""
    if listing.sensitivity == 0:  # every world, and every world less a row, gives one answer: 0/0
        return math.nan
    answers = listing.answers
    scaled = positive("epsilon", epsilon) / listing.sensitivity
    # each world's denominator: every other world, less those equal to it where that defect is on
    counted_in = ~np.eye(answers.size, dtype=bool)
    if drop_equal_worlds:
        counted_in &= ~listing.equal
    worst = 0.0
    for i in range(answers.size - 1 if skip_last_world else answers.size):
        terms = np.exp(-scaled * np.abs(answers[i] - answers[counted_in[i]]))
        worst = max(worst, 1.0 / (1.0 + float(terms.sum())))
    return worst


def replication_risk(
    values: Sequence[float] | np.ndarray,
    epsilon: float,
    query: str = "mean",
    q: float | None = None,
    *,
    skip_last_world: bool = True,
    drop_equal_worlds: bool = True,
) -> float:
    """The worst-case posterior as the replication computes it (Eq. 3 with defects 1 and 2)."""
    listing = _listing(_rows(values), query, q)
    return _listing_risk(listing, epsilon, skip_last_world, drop_equal_worlds)


def replication_epsilon(
    values: Sequence[float] | np.ndarray,
    rho: float,
    query: str = "mean",
    q: float | None = None,
    *,
    skip_last_world: bool = True,
    drop_equal_worlds: bool = True,
) -> ReplicationSearch:
    """The replication's answer: 25 halvings of [0, Eq. (7) at ρ = 0.9999], the last midpoint."""
    x = _rows(values)
    rho = pw.check_rho(rho, x.size)
    listing = _listing(x, query, q)  # the same at every halving: computed once
    sensitivity, delta_v = listing.sensitivity, listing.delta_v
    log_odds = pw.bounded_guarantee(x.size, CEILING_RISK)
    if delta_v == 0:  # every world gives the same answer: its division gives ∞ (nan if Δf = 0 too)
        ceiling = math.inf if sensitivity > 0 else math.nan
        return ReplicationSearch(ceiling, ceiling, sensitivity, delta_v)
    ceiling = sensitivity / delta_v * log_odds
    low, high, epsilon = 0.0, ceiling, math.nan
    for _ in range(STEPS):
        epsilon = (low + high) / 2
        risk = _listing_risk(listing, epsilon, skip_last_world, drop_equal_worlds)
        if risk < rho:
            low = epsilon
        elif risk > rho:
            high = epsilon
    return ReplicationSearch(epsilon, ceiling, sensitivity, delta_v)


def _paper_worlds(
    x: np.ndarray, query: str, q: float | None
) -> tuple[np.ndarray, queries.WorldClasses]:
    """The paper's worlds of the column ``x`` as listed: world j misses row j; its answers, and
    the classes of worlds (Δf, Δv) as ``epsilon_for_risk`` computes them."""
    f = _statistic(query, q)
    answers = np.array([f(np.delete(x, j)) for j in range(x.size)])
    return answers, queries.world_classes(x, query, None, 1, q)


def true_risk(
    values: Sequence[float] | np.ndarray,
    epsilon: float,
    query: str = "mean",
    q: float | None = None,
) -> float:
    """The worst-case posterior at ``epsilon`` over every world, by the paper's definitions."""
    x = _rows(values)
    if math.isnan(epsilon):  # the replication's answer where Δf = Δv = 0
        return math.nan
    answers, classes = _paper_worlds(x, query, q)
    return pw.risk_at(answers, classes.sensitivity * classes.unit, epsilon)


@dataclass(frozen=True)
class DefectCase:
    """A database of ours on which one defect shows, and the switch that removes it."""

    defect: str
    values: tuple[float, ...]
    rho: float
    query: str = "mean"
    repair: str = ""  # the keyword of ``replication_epsilon`` that removes the defect, if any


# the four databases of ours that show the defects, one each (the third twice): fixed, not inputs
DEFECT_CASES = (
    DefectCase(
        "1. skips the world missing the first-listed row",
        (100, 20, 25, 30, 35),
        1 / 3,
        repair="skip_last_world",
    ),
    DefectCase(
        "2. drops equal worlds from each other's denominators",
        (10, 10, 50, 50),
        0.6,
        repair="drop_equal_worlds",
    ),
    DefectCase("3. returns its ceiling: any ε is safe", (10, 50, 10, 50), 0.6),
    DefectCase("3. returns its ceiling: the exact ε lies above it", (10, 50.5, 10, 50), 0.6),
)


def defect_table(cases: Sequence[DefectCase]) -> pd.DataFrame:
    """Each case: the replication's ε, the exact ε, the true worst-case risk at the replication's
    ε against ρ, and the replication's ε with the defect removed."""
    rows = []
    for case in cases:
        found = replication_epsilon(case.values, case.rho, case.query)
        exact = pw.epsilon_for_risk(list(case.values), case.rho, case.query).exact
        repaired = (
            replication_epsilon(case.values, case.rho, case.query, **{case.repair: False}).epsilon
            if case.repair
            else math.nan
        )
        rows.append(
            {
                "defect": case.defect,
                "database (as listed)": ", ".join(f"{v:g}" for v in case.values),
                "query": case.query,
                "ρ": case.rho,
                "replication's ε": found.epsilon,
                "its ceiling ε_top": found.ceiling,
                "exact ε": exact,
                "true risk at the replication's ε": true_risk(
                    case.values, found.epsilon, case.query
                ),
                "replication, this defect removed": repaired,
            }
        )
    return pd.DataFrame(rows)


def most_exposed_row(values: Sequence[float] | np.ndarray, query: str = "mean") -> int:
    """The row whose absence makes the world the adversary singles out soonest: the largest
    posterior of Eq. (3) at the worst response, at ε = Δf/Δv, where the two farthest answers are
    one noise scale apart (a choice that does not depend on the column's units)."""
    answers, classes = _paper_worlds(_rows(values), query, None)
    if classes.spread == 0:
        return 0
    sensitivity = classes.sensitivity * classes.unit  # in the column's units, as the answers
    epsilon = classes.sensitivity / classes.spread  # a ratio: the same in any units
    return int(np.argmax(pw.risk_per_world(answers, sensitivity, epsilon)))


def listing_table(
    values: Sequence[float] | np.ndarray, rho: float, query: str = "mean"
) -> pd.DataFrame:
    """The replication's ε on a column as listed and with its most exposed row listed first,
    beside the exact ε and the true worst-case risk at each."""
    x = _rows(values)
    first = most_exposed_row(x, query)
    exact = pw.epsilon_for_risk(x, rho, query).exact
    rows = []
    for label, listed in (
        ("as listed", x),
        (f"row {first + 1} listed first", np.concatenate([[x[first]], np.delete(x, first)])),
    ):
        found = replication_epsilon(listed, rho, query)
        rows.append(
            {
                "listing": label,
                "values": ", ".join(f"{v:g}" for v in listed),
                "replication's ε": found.epsilon,
                "exact ε": exact,
                "true risk at the replication's ε": true_risk(listed, found.epsilon, query),
                "ρ": rho,
            }
        )
    return pd.DataFrame(rows)
