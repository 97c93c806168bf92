"""Tables of the Lee & Clifton (2011) notebook: what ``possible_worlds`` computes laid out one row
per world, attribute or query, the simulated adversary's summary (with its checks against the
exact chance of a right guess), the ε a run records in results.json, and the neighbour and query
comparisons. The figures draw from these (``figures``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from choosing_epsilon import laplace, queries
from choosing_epsilon._validate import finite_array
from choosing_epsilon.possible_worlds import (
    EpsilonForRisk,
    bounded_guarantee,
    epsilon_for_risk,
    epsilon_upper_bound,
    exact_epsilon,
    guess_success_probability,
    posterior,
    risk_upper_bound,
    simulate_adversary,
    worst_case_risk,
)
from choosing_epsilon.sensitivity import (
    Query,
    bounded_sensitivity,
    check_values,
    unbounded_sensitivity,
    world_answers,
)

# at most this many worlds are drawn in a figure or listed in a per-world table
MAX_WORLDS_SHOWN = 8
# a table of more rows (one per person or world) is saved as its summary statistics
MAX_TABLE_ROWS = 100


def as_text(value: float, digits: int = 4) -> str:
    """``value`` to ``digits`` significant digits, and ∞ written out."""
    return "∞" if math.isinf(value) else f"{value:.{digits}g}"


def shown_worlds(
    answers: Sequence[float] | np.ndarray, limit: int = MAX_WORLDS_SHOWN
) -> np.ndarray:
    """Indices of at most ``limit`` worlds to draw or list: world 0 (the true one), then the others
    evenly spread by answer."""
    a = finite_array("answers", answers)
    if a.size <= limit:
        return np.arange(a.size)
    others = 1 + np.argsort(a[1:], kind="stable")
    return np.concatenate(
        [[0], others[np.round(np.linspace(0, others.size - 1, limit - 1)).astype(int)]]
    )


def world_table(
    labels: Sequence[str],
    columns: dict[str, np.ndarray],
    shown: np.ndarray,
    rest: str | None = None,
) -> pd.DataFrame:
    """One row per shown world (``labels`` are theirs); with ``rest`` ("sum" or "max"), one more
    row for the worlds not shown."""
    table = pd.DataFrame(
        {"world": list(labels)} | {key: np.asarray(value)[shown] for key, value in columns.items()}
    )
    size = len(next(iter(columns.values())))
    if rest is not None and len(shown) < size:
        hidden = np.setdiff1d(np.arange(size), shown)
        summary = [getattr(np.asarray(value)[hidden], rest)() for value in columns.values()]
        table.loc[len(table)] = [f"the other {hidden.size} worlds ({rest})", *summary]
    return table


def marked_infinity(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` for display, with ∞ and −∞ written out in the float columns that hold one (other
    columns untouched)."""
    marked = table.copy()
    for column in marked.columns:
        values = marked[column]
        if pd.api.types.is_float_dtype(values) and np.isinf(values).any():
            marked[column] = values.map(
                lambda v: "∞" if v == math.inf else "−∞" if v == -math.inf else v
            ).astype(object)
    return marked


def bounded_table(table: pd.DataFrame, limit: int = MAX_TABLE_ROWS) -> pd.DataFrame:
    """``table`` itself up to ``limit`` rows, else the summary statistics of its numeric columns
    (count, mean, quantiles)."""
    if len(table) <= limit:
        return table
    return table.describe().rename_axis("statistic").reset_index()


def world_members(
    values: Sequence[float] | np.ndarray,
    names: Sequence[str],
    order: Sequence[int],
    shown: np.ndarray,
    limit: int = MAX_WORLDS_SHOWN,
) -> list[str]:
    """Each shown world as Table 2 labels it, by its values ({1, 2, 3}); beyond ``limit`` rows, by
    who is absent (X − Terry)."""
    x = np.asarray(values)
    rows = np.asarray(order)[shown]
    if x.size > limit:
        return [f"X − {list(names)[r]}" for r in rows]
    return ["{" + ", ".join(f"{v:g}" for v in sorted(np.delete(x, r))) + "}" for r in rows]


def world_listing(
    table: pd.DataFrame,
    attributes: Sequence[str],
    order: Sequence[int],
    shown: np.ndarray,
    limit: int = MAX_WORLDS_SHOWN,
) -> pd.DataFrame:
    """The shown possible worlds (Sec. 4.3): who is absent from each and its values, or for more
    than ``limit`` rows the absent row's values."""
    rows = np.asarray(order)[shown]
    if len(table) <= limit:
        names = table.name.tolist()
        described = {
            a: world_members(table[a].to_numpy(), names, order, shown, limit) for a in attributes
        }
    else:
        described = {f"{a} of the absent row": table[a].to_numpy()[rows] for a in attributes}
    worlds = {"world": [f"ω{k + 1}" for k in shown], "absent": table.name.to_numpy()[rows]}
    return pd.DataFrame(worlds | described)


def adversary_summary(
    answers: Sequence[float] | np.ndarray,
    sensitivity: float,
    epsilon: float,
    n_trials: int,
    rng: np.random.Generator,
) -> dict[str, float]:
    """A Monte Carlo of the adversary (world 0 true) beside its exact hit rate, the worst case
    (Eq. 3) and the bound (Eq. 5); raises where they disagree."""
    a = finite_array("answers", answers, min_size=2)
    sim = simulate_adversary(a, 0, sensitivity, epsilon, n_trials, rng)
    exact = guess_success_probability(a, 0, sensitivity, epsilon)
    worst = worst_case_risk(a, sensitivity, epsilon)
    if sim["max_posterior_seen"] > worst * (1 + 1e-12):
        raise RuntimeError(
            f"ε = {epsilon:g}: a simulated posterior {sim['max_posterior_seen']:.6g} exceeds the "
            f"Eq. (3) worst case {worst:.6g}"
        )
    # the sample's s.e. is 0 when every guess agrees
    se = max(sim["guess_correct_se"], math.sqrt(exact * (1 - exact) / n_trials))
    if abs(sim["guess_correct"] - exact) > 5 * se + 1e-12:
        raise RuntimeError(
            f"ε = {epsilon:g}: the simulated hit rate {sim['guess_correct']:.4f} is more than 5 "
            f"s.e. from the exact {exact:.4f}"
        )
    return {
        "ε": epsilon,
        "guess right (MC)": sim["guess_correct"],
        "± s.e.": sim["guess_correct_se"],
        "guess right (exact)": exact,
        "mean posterior of ω1": sim["mean_true_posterior"],
        "largest posterior seen": sim["max_posterior_seen"],
        "worst case, Eq. (3)": worst,
        "upper bound, Eq. (5)": risk_upper_bound(a.size, float(np.ptp(a)), sensitivity, epsilon),
    }


def epsilon_summary(result: EpsilonForRisk) -> dict[str, float | str]:
    """Δf, Δv and both admissible ε (Eq. 7 and exact) as results.json holds them, ∞ as "inf"."""
    return {
        "sensitivity": result.sensitivity,
        "delta_v": result.delta_v,
        "epsilon_upper_bound": result.upper_bound if math.isfinite(result.upper_bound) else "inf",
        "epsilon_exact": result.exact if math.isfinite(result.exact) else "inf",
    }


def epsilon_row(attribute: str, result: EpsilonForRisk) -> dict[str, float | str]:
    """One row of the table of admissible ε: Eq. (7) beside the exact ε and their ratio; raises if
    the exact ε lies below the bound."""
    bound, exact = result.upper_bound, result.exact
    if exact < bound * (1 - 1e-12):
        raise RuntimeError(
            f"{attribute}, {result.query}: the exact ε {exact!r} lies below the Eq. (7) bound "
            f"{bound!r}, which it must not"
        )
    # the ratio where the bound is a positive number; beyond it, whether the exact ε is larger
    finite_ratio = 0 < bound < math.inf
    ratio = exact / bound if finite_ratio else math.inf if exact > bound else math.nan
    return {
        "attribute": attribute,
        "query": result.query,
        "Δf": result.sensitivity,
        "Δv": result.delta_v,
        "Eq. (7) ε": bound,
        "exact ε": exact,
        "exact / Eq. (7)": ratio,
    }


def neighbour_row(
    attribute: str, values: Sequence[float] | np.ndarray, query: Query, rho: float
) -> dict[str, float | str]:
    """Δf and the admissible ε (Eq. 7 and exact) under unbounded and bounded neighbours; raises if
    an exact ε falls below ``bounded_guarantee``."""
    n = len(values)
    world = world_answers(values, query)
    dv = float(np.ptp(world))
    deltas = {
        "unbounded": unbounded_sensitivity(values, query),
        "bounded": bounded_sensitivity(values, query),
    }
    exact = {k: exact_epsilon(world, d, rho) if d > 0 else math.inf for k, d in deltas.items()}
    row: dict[str, float | str] = {"attribute": attribute, "query": query, "Δv": dv}
    for label, delta in deltas.items():
        row[f"Δ {label}"] = delta
        row[f"Eq. (7) ε, {label}"] = (
            epsilon_upper_bound(n, dv, delta, rho) if delta > 0 else math.inf
        )
        row[f"exact ε, {label}"] = exact[label]
    generic = bounded_guarantee(n, rho)
    safe = generic * (1 - 1e-12)
    if deltas["bounded"] < dv - 1e-12 or exact["bounded"] < safe or exact["unbounded"] < safe / 2:
        raise RuntimeError(
            f"{attribute}, {query}: an exact ε below the data-independent guarantee "
            f"ln((n-1)ρ/(1-ρ)) = {generic:.4g}: {row}"
        )
    return row


def epsilon_comparison(results: Mapping[str, EpsilonForRisk], unit: str) -> pd.DataFrame:
    """Δf, Δv (in ``unit``) and both admissible ε (Eq. 7 and exact) of the mean of several
    databases, one row each."""
    return pd.DataFrame(
        {
            "database": list(results),
            f"Δf ({unit})": [r.sensitivity for r in results.values()],
            f"Δv ({unit})": [r.delta_v for r in results.values()],
            "Eq. (7) ε": [r.upper_bound for r in results.values()],
            "exact ε": [r.exact for r in results.values()],
        }
    )


def outlier_sweep(
    crowd: Sequence[float] | np.ndarray, excess: Sequence[float] | np.ndarray, rho: float
) -> pd.DataFrame:
    """Eq. (7) and the exact ε for the mean, and the noise scale Δf/ε, as one outlier moves
    ``excess`` km beyond the farthest of the ``crowd`` (Sec. 1's alumni)."""
    others = finite_array("crowd", crowd)
    beyond = finite_array("excess", excess)
    distances = others.max() + beyond
    sweep = [epsilon_for_risk(np.append(others, d), rho, "mean") for d in distances]
    table = pd.DataFrame(
        {
            "outlier_km": distances,
            "beyond_farthest_other_km": beyond,
            "sensitivity": [r.sensitivity for r in sweep],
            "epsilon_upper_bound": [r.upper_bound for r in sweep],
            "epsilon_exact": [r.exact for r in sweep],
        }
    )
    scales = [_noise_scale(s, e) for s, e in zip(table.sensitivity, table.epsilon_exact)]
    table["noise_scale_km"] = scales
    return table


def _noise_scale(sensitivity: float, epsilon: float) -> float:
    """The Laplace scale Δf/ε (``laplace.scale``), 0 at ε = ∞ (no noise) and ∞ at ε = 0."""
    if epsilon == 0 or math.isinf(epsilon):
        return math.inf if epsilon == 0 else 0.0
    return laplace.scale(sensitivity, epsilon)


def query_table(
    values: Sequence[float] | np.ndarray,
    rho: float,
    cases: Sequence[tuple[str, float | None, int]],
) -> pd.DataFrame:
    """Eq. (7) and the exact ε for each (query, q, unknown) of ``cases`` on one column; a case
    whose worlds make more classes than are computed exactly has nan and says so."""
    x = check_values(values)
    distinct = np.unique(x).size
    rows = []
    for query, q, unknown in cases:
        name = f"quantile q = {q:g}" if query == "quantile" else query
        row: dict[str, float | str] = {"query": name, "rows missed (k)": unknown}
        note = ""
        if unknown > x.size - 2:
            note = f"not applicable: missing {unknown} rows needs at least {unknown + 2}"
        elif queries.count_classes(distinct, unknown) > queries.MAX_CLASSES:
            note = f"more than {queries.MAX_CLASSES:,} classes of worlds: not computed"
        if note:
            rows.append(row | {"Δf": math.nan, "Δv": math.nan, "exact ε": math.nan, "note": note})
            continue
        r = epsilon_for_risk(values, rho, query, unknown=unknown, q=q)
        rows.append(
            row
            | {
                "Δf": r.sensitivity,
                "Δv": r.delta_v,
                "Eq. (7) ε": r.upper_bound,
                "exact ε": r.exact,
                "note": "",
            }
        )
    table = pd.DataFrame(rows)
    return table if table.note.astype(bool).any() else table.drop(columns="note")


def posterior_table(
    labels: Sequence[str],
    answers: Sequence[float] | np.ndarray,
    response: float,
    sensitivity: float,
    epsilons: Sequence[float],
    shown: np.ndarray,
) -> pd.DataFrame:
    """Tables 2-3: the posterior (Definition 3) of each shown world at one response, a column per
    ε, the other worlds summed."""
    columns = {f"ε = {e:g}": posterior(answers, response, sensitivity, e) for e in epsilons}
    return world_table(labels, columns, shown, rest="sum")
