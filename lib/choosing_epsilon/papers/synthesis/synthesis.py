"""One survey through every method: the rows of the synthesis's table of ε (what each method
bounds, for which release, from which inputs), the interval of ε they leave feasible, every ε
and deployment on one risk scale, and the noise calibrated to a stated risk.

What a reader's own script imports to choose ε for a column: ``column_from_file`` or
``survey_column``, then ``methods_for`` and ``feasibility``. Reading the notebook's parameters and
writing its results is the harness's (``papers.synthesis.run``)."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from choosing_epsilon import calibration, queries, risk, risk_profiles, tables
from choosing_epsilon import confidence as cf
from choosing_epsilon import economics as econ
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import relative_error as rel
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.papers.synthesis import registry

COLUMNS = [
    "method",
    "epsilon",
    "bounds ε from",
    "panel",
    "ε of the release",
    "public inputs",
    "uses the private data",
    "meaning",
]
"""The columns of the table of methods, in the order of ``MethodRow``'s fields."""

# Theorem 3's promise fails above p ≈ 0.92: it is shown, never taken as a bound
NOT_A_BOUND = ("Poster, Theorem 3",)
# how the column "meaning" of a method that cannot apply at the run's inputs begins: its ε is NaN,
# and it neither bounds the interval nor counts as a requirement no ε meets
NOT_APPLICABLE = "not applicable: "


class MethodRow(NamedTuple):
    """One method's ε: what it bounds, in which panel of the figure, and from which inputs."""

    method: str
    epsilon: float
    bound: str
    panel: str
    release: str
    inputs: str
    reads: str
    meaning: str


@dataclass(frozen=True)
class Column:
    """The private data as every method reads them: the column's distinct values (ascending),
    how many rows hold each, the file they were read from ("" for the synthetic survey) and the
    column's name."""

    values: np.ndarray
    counts: np.ndarray
    source: str = ""
    name: str = "age"

    @property
    def n(self) -> int:
        """The number of rows (people)."""
        return int(self.counts.sum())

    @property
    def mean(self) -> float:
        """The column's mean, its sum exact (``sensitivity.exact_weighted_sum``)."""
        return sens.exact_weighted_sum(self.values, self.counts) / self.n

    @property
    def fewest(self) -> int:
        """The number of rows of the rarest value."""
        return int(self.counts.min())

    @property
    def span(self) -> float:
        """The largest value less the smallest."""
        return float(self.values[-1] - self.values[0])

    @property
    def heading(self) -> str:
        """What the data are, in a line: their size and (private) mean."""
        if not self.source:
            return f"{self.n} participants, mean age {self.mean:.3f} (private)"
        return (
            f"{self.n:,} rows of column {self.name!r} in {os.path.basename(self.source)} "
            f"({self.values.size:,} distinct values), mean {self.mean:.6g} (private)"
        )

    def moved(self, value: float, to: float) -> Column:
        """The column with one row holding ``value`` changed to ``to``."""
        values = np.append(self.values, to)
        counts = np.append(self.counts, 1) - np.append(self.values == value, False)
        keep = counts > 0
        merged, index = np.unique(values[keep], return_inverse=True)
        return Column(
            merged,
            np.bincount(index, weights=counts[keep]).astype(np.int64),
            self.source,
            self.name,
        )


def survey_column(ages: np.ndarray) -> Column:
    """The synthetic survey's ages as a ``Column``."""
    values, counts = np.unique(ages, return_counts=True)
    return Column(values, counts.astype(np.int64))


def column_from_file(path: str, name: str, value_range: Sequence[float]) -> Column:
    """The column ``name`` of the CSV or Parquet file (or glob) ``path`` as distinct values and
    counts (``tables.column_counts``), refused in one line if it holds nulls, if any value lies
    outside the public ``value_range``, or if it has fewer than 3 rows."""
    lb, ub = value_range
    try:
        values, counts = tables.column_counts(path, name)
    except tables.NullValues as refusal:
        # the rows without a value are the reader's to decide on
        raise ValueError(
            f"{refusal.reason}; drop or fill them in the file first, e.g. COPY (SELECT * FROM "
            f"'{path}' WHERE {name} IS NOT NULL) TO 'kept.parquet' in DuckDB"
        ) from None
    outside = (values < lb) | (values > ub)
    if outside.any():
        raise ValueError(
            f"column {name!r} of {path} has {int(counts[outside].sum()):,} of "
            f"{int(counts.sum()):,} values outside value_range [{lb:g}, {ub:g}] (from "
            f"{values[0]:g} to {values[-1]:g}): a public range the data exceed bounds nothing; "
            "widen value_range from public knowledge, or clip the column before the release"
        )
    if counts.sum() < 3:
        raise ValueError(f"column {name!r} of {path} has {int(counts.sum())} rows: at least 3")
    return Column(values, counts, path, name)


@dataclass(frozen=True)
class Survey:
    """The survey's public facts: its size, the public age range, the sensitivity of the mean of
    all n ages and that of Lee & Clifton's statistic of the n - 1 ages its worlds hold (the mean
    unless ``lee_query`` says otherwise), and the public lower bound L of the mean; with
    ``source``, the file whose column ``column`` is the data."""

    n_people: int
    lb: float
    ub: float
    delta: float
    delta_lc: float
    mean_floor: float
    source: str = ""
    column: str = "age"
    lee_query: str = "mean"  # the statistic Lee & Clifton's release publishes
    lee_q: float | None = None  # its level, for a quantile

    @property
    def mean_floor_problem(self) -> str | None:
        """Why Shoaran et al.'s requirement, asked of the public lower bound L of the mean, cannot
        apply (None where it does): a relative error needs an answer bounded away from 0, and a
        bound above the range is reached by no mean."""
        floor = self.mean_floor
        if floor <= 0:
            return f"a relative error needs a mean bounded away from 0, and L = {floor:g}"
        if floor > self.ub:
            return f"L = {floor:g} lies above the range's upper end {self.ub:g}: no mean reaches it"
        return None

    @property
    def noun(self) -> str:
        """What a row holds, in the plural: ages, or the values of the column."""
        return "ages" if self.column == "age" else f"values of {self.column!r}"

    def amount(self, value: float) -> str:
        """A length on the column's scale in words: years for ages, the column's units else."""
        if self.column == "age":
            return f"{value:g} year" + ("" if value == 1 else "s")
        return f"{value:g} (in the units of {self.column!r})"

    @property
    def unit(self) -> str:
        """The unit of the column's values, for a noise scale: years for ages."""
        return "years" if self.column == "age" else f"units of {self.column!r}"

    def holding(self, value: float) -> str:
        """A participant's value in words: "aged 90" for ages, "with income 90" else."""
        return f"aged {value:g}" if self.column == "age" else f"with {self.column} {value:g}"

    @property
    def range_text(self) -> str:
        """The public age range as the table names it."""
        return f"{self.column} range [{self.lb:g}, {self.ub:g}]"

    @property
    def n_read(self) -> str:
        """Whether a method that takes n reads the private data: n is a parameter of the
        synthetic survey; read from a file, it is the column's row count, taken as public."""
        if not self.source:
            return "no"
        return "no, but n is the file's row count (public under replace-one neighbours)"

    @property
    def provenance(self) -> str | None:
        """The figure's line on what came from the data and what is public (None: the synthetic
        survey, whose n is a parameter)."""
        if not self.source:
            return None
        return (
            f"read from {os.path.basename(self.source)}: n = {self.n_people:,} rows, and for (b) "
            f"every value's count\npublic: the range [{self.lb:g}, {self.ub:g}], L, ρ and every "
            "other input"
        )

    @property
    def mechanism(self) -> str:
        """The release every method of panel (a) bounds: the mean of all ages, replace-one."""
        n_text = f"{self.n_people:,}"
        return (
            f"mean of all {n_text} {self.noun}, Δ = {self.ub - self.lb:g}/{n_text} = "
            f"{self.delta:.3g}, replace one person"
        )

    @property
    def lee_statistic(self) -> str:
        """The statistic of Lee & Clifton's release, in words."""
        if self.lee_query == "quantile":
            return f"{self.lee_q:g}-quantile"
        return {"std": "standard deviation"}.get(self.lee_query, self.lee_query)

    @property
    def lee_mechanism(self) -> str:
        """Lee & Clifton's release: the statistic of the n - 1 values present in a possible world,
        with its Δ from the public range (``queries.public_sensitivity``)."""
        present, fewer = f"{self.n_people - 1:,}", f"{self.n_people - 2:,}"
        w = f"{self.ub - self.lb:g}"
        formula = {
            "mean": f"{w}/{present}",
            "sum": f"max(|{self.lb:g}|, |{self.ub:g}|)",
            "variance": f"{fewer} × {w}²/{present}²",
            "std": f"{w} × √{fewer}/{present}",
            "median": f"{w}/2",
            "quantile": f"{w}/2" if self.lee_q == 0.5 else w,
        }[self.lee_query]
        return (
            f"{self.lee_statistic} of the {present} {self.noun} present, Δ = {formula} = "
            f"{self.delta_lc:.3g}, worlds differ in who is absent"
        )


def lee_clifton_epsilons(ages: np.ndarray, delta_lc: float, rho: float) -> tuple[float, float]:
    """Lee & Clifton's ε for the mean of n - 1 of ``ages`` at noise Δ = ``delta_lc``: Eq. (7)
    from the spread of the worlds' answers, and the exact ε from all of them."""
    answers = np.sort(sens.world_answers(ages, "mean"))
    upper = pw.epsilon_upper_bound(len(ages), float(np.ptp(answers)), delta_lc, rho)
    return upper, pw.exact_epsilon(answers, delta_lc, rho)


def survey_for(
    data: Column,
    value_range: Sequence[float],
    mean_lower_bound: float,
    lee_query: str = "mean",
    lee_q: float | None = None,
) -> Survey:
    """The survey's public facts for ``data``: its size n, and Δ from the public range alone, for
    the mean of all n values and for the statistic ``lee_query`` of the n - 1 values Lee &
    Clifton's worlds hold; L = max(lb, the lower bound of the mean)."""
    (lb, ub), n = value_range, data.n
    query, q = queries.check_query(lee_query, lee_q if lee_query == "quantile" else None)
    delta = sens.mean_sensitivity(lb, ub, n)
    delta_lc = queries.public_sensitivity(query, lb, ub, n - 1, q)
    floor = max(lb, mean_lower_bound)
    return Survey(n, lb, ub, delta, delta_lc, floor, data.source, data.name, query, q)


def lee_clifton_at(
    data: Column, delta_lc: float, rho: float, query: str = "mean", q: float | None = None
) -> tuple[float, float]:
    """``lee_clifton_counted``, or NaN for both when ρ is below the prior 1/n: a requirement that
    even ε → 0 cannot meet bounds nothing."""
    if rho < 1 / data.n:
        return math.nan, math.nan
    return lee_clifton_counted(data, delta_lc, rho, query, q)


def lee_clifton_fewest(column: Column, query: str = "mean", q: float | None = None) -> int:
    """The fewest worlds that share one answer of ``query``: no posterior can exceed 1 over it
    (for the mean, the number of rows of the rarest value)."""
    if column.values.size == 1:
        return column.n
    classes = queries.world_classes(column.values, query, column.counts, 1, q)
    return int(classes.shared.min())


def hsu_accuracy_epsilon(n: int, t_unit: float, failure_probability: float) -> float:
    """Hsu et al.'s accuracy ε at N = n for the error ``t_unit`` on the unit scale: 0 from 1 on
    (every estimate inside the range is accurate enough), ∞ where sampling alone misses α."""
    return econ.accuracy_epsilon(n, t_unit, failure_probability) if t_unit < 1 else 0.0


def posterior_epsilon(prior: float, threshold: float) -> float:
    """The Bayesian reading's ε, NaN where the prior already exceeds the threshold."""
    if threshold <= prior:
        return math.nan
    return risk.epsilon_for_posterior(prior, threshold)


def lee_clifton_counted(
    column: Column, delta_lc: float, rho: float, query: str = "mean", q: float | None = None
) -> tuple[float, float]:
    """``lee_clifton_epsilons`` for ``query`` from the column's distinct values and counts, at any
    number of rows: ``possible_worlds.epsilon_for_risk`` gives both ε at the noise of the data's
    Δf; the risk depends on ε only through ε/Δ, so each is scaled by Δ/Δf to the public
    Δ = ``delta_lc``."""
    if column.values.size == 1:  # every row equal: every world gives the same answer
        return math.inf, math.inf
    result = pw.epsilon_for_risk(column.values, rho, query, counts=column.counts, q=q)
    if result.sensitivity == 0:  # every world, and every world less a row, gives one answer
        return math.inf, math.inf
    ratio = delta_lc / result.sensitivity
    return result.upper_bound * ratio, result.exact * ratio


def span_from_eq7(epsilon: float, n_people: int, rho: float, width: float) -> float:
    """The age span Eq. (7) gives away: (ub - lb) ln((n - 1)ρ/(1 - ρ)) / ε, with ``width`` =
    ub - lb."""
    log_odds = math.log((n_people - 1) * rho / (1 - rho))
    return width * log_odds / epsilon


def eq7_disclosure(survey: Survey, upper: float, rho: float, span: float) -> str:
    """What Eq. (7)'s ε, once published, tells of the data: the span of the values for the mean
    (``span``, the participants' own, printed beside it), Δv for another statistic."""
    n = survey.n_people
    if rho < 1 / n:
        return (
            f"Lee & Clifton: no ε meets ρ = {rho:g}, below the prior 1/n = {1 / n:.3g}; "
            "with no ε to publish, nothing is given away"
        )
    if upper == math.inf:
        return f"Eq. (7): ε = ∞ here: every world gives the same {survey.lee_statistic}"
    if upper == 0:
        return "Eq. (7): ε = 0 here, which says that ρ equals the prior 1/n"
    if survey.lee_query != "mean":
        spread = survey.delta_lc * math.log((n - 1) * rho / (1 - rho)) / upper
        return (
            f"Eq. (7): ε = {upper:.6g} gives away Δv = Δ ln((n-1)ρ/(1-ρ)) / ε = {spread:.6g}, "
            f"the spread of the worlds' {survey.lee_statistic}s"
        )
    recovered = span_from_eq7(upper, n, rho, survey.ub - survey.lb)
    return (
        f"Eq. (7): ε = {upper:.6g} gives away the {survey.column} span "
        f"(ub - lb) ln((n-1)ρ/(1-ρ)) / ε = {survey.amount(recovered)} "
        f"(the participants' span: {span:g})"
    )


def lee_clifton_rows(
    survey: Survey, rho: float, upper: float, exact: float, fewest: int
) -> list[MethodRow]:
    """Lee & Clifton's two rows, Eq. (7) and exact (panel (b)): NaN when ρ is below the prior
    1/n; ``fewest`` is the fewest worlds sharing one answer (for the mean, the number of people
    of the rarest age)."""
    n = survey.n_people
    inputs = f"ρ, n, {survey.range_text}"
    if rho >= 1 / n:
        meaning = (
            f"posterior on the absent person ≤ ρ = {rho:g} for any data with the same n and Δv"
        )
    else:
        meaning = f"none: ρ = {rho:g} is below the prior 1/n = {1 / n:.3g}"
    if math.isnan(upper):
        exact_meaning = "none, as above"
    elif fewest > 1:
        exact_meaning = f"worst case over the worlds; no posterior can exceed 1/{fewest} here"
    elif survey.lee_query == "mean":
        exact_meaning = (
            "worst case over the worlds; a value held by one row lets a posterior approach 1"
        )
    else:
        exact_meaning = (
            "worst case over the worlds; an answer that one world alone gives lets a posterior "
            "approach 1"
        )
    counted = "every age" if not survey.source else "every value's count"
    answers = "means" if survey.lee_query == "mean" else "answers"
    reads = f"yes: {counted} (Δv = spread of the worlds' {answers})"
    return [
        MethodRow(
            "Lee & Clifton, Eq. (7)",
            upper,
            "upper (privacy)",
            "(b)",
            survey.lee_mechanism,
            inputs,
            reads,
            meaning,
        ),
        MethodRow(
            "Lee & Clifton, exact",
            exact,
            "upper (privacy)",
            "(b)",
            survey.lee_mechanism,
            inputs,
            f"yes: {counted} (all the worlds' {answers})",
            exact_meaning,
        ),
    ]


def hsu_rows(
    survey: Survey,
    budget_epsilon: float,
    accuracy_epsilon: float,
    payment: float,
    budget: float,
    error_years: float,
    failure_probability: float,
) -> list[MethodRow]:
    """Hsu et al.'s two rows at the survey's size N: the budget's upper bound (every participant
    paid (e^ε − 1)P, ``payment`` = P) and the accuracy bound A(ε, N) ≤ α from below (NaN when no
    ε meets it)."""
    n_text = f"{survey.n_people:,}"
    width = survey.ub - survey.lb
    meaning = f"A(ε, N) ≤ {failure_probability:g} for error {survey.amount(error_years)}"
    if error_years / width >= 1:
        meaning += f", wider than the range {width:g}: always met"
    if not math.isfinite(accuracy_epsilon):
        meaning += (
            f": none, with {n_text} people the sampling term alone exceeds {failure_probability:g}"
        )
    paying = f"paying (e^ε − 1) × ${payment:.2f} to {n_text} people from ${budget:,.0f}"
    return [
        MethodRow(
            "Hsu et al., budget at N",
            budget_epsilon,
            "upper (budget)",
            "(a)",
            "ε alone sets the payment",
            "budget B, cost and probability of the bad event, n",
            survey.n_read,
            paying,
        ),
        MethodRow(
            "Hsu et al., accuracy at N",
            accuracy_epsilon if math.isfinite(accuracy_epsilon) else math.nan,
            "lower (utility)",
            "(a)",
            survey.mechanism,
            f"error, α, n, {survey.range_text}",
            survey.n_read,
            meaning,
        ),
    ]


def shoaran_epsilon(survey: Survey, pr: float, relative_error: float) -> float:
    """Shoaran et al.'s ε, Eq. (6) asked of the public lower bound L of the mean: the smallest ε
    whose MTA is at most L; NaN where the method does not apply (``Survey.mean_floor_problem``)."""
    if survey.mean_floor_problem is not None:
        return math.nan
    return rel.epsilon_for_mta(survey.delta, survey.mean_floor, pr, relative_error)


def shoaran_row(survey: Survey, epsilon: float, relative_error: float, pr: float) -> MethodRow:
    """Shoaran et al.'s row: Eq. (6)'s MTA at most the public lower bound L of the mean; not
    applicable, with the reason, where L is not positive or lies above the range."""
    floor = survey.mean_floor
    problem = survey.mean_floor_problem
    meaning = (
        f"relative error ≤ {relative_error:g} with probability {1 - pr:g} "
        f"whenever the mean is at least {floor:g}"
        if problem is None
        else NOT_APPLICABLE + problem
    )
    return MethodRow(
        "Shoaran et al., MTA ≤ public lower bound of the mean",
        epsilon,
        "lower (utility)",
        "(a)",
        survey.mechanism,
        f"re, pr, n, {survey.range_text}, lower bound of the mean L = {floor:g}",
        survey.n_read,
        meaning,
    )


def poster_rows(
    survey: Survey, theorem2: float, theorem3: float, c_years: float, p: float
) -> list[MethodRow]:
    """The poster's rows: Theorem 2 (exact) and Theorem 3 (shown, not a bound above p ≈ 0.92)."""
    inputs = f"c, p, n, {survey.range_text}"
    return [
        MethodRow(
            "Poster, Theorem 2",
            theorem2,
            "lower (utility)",
            "(a)",
            survey.mechanism,
            inputs,
            survey.n_read,
            f"|noise| < {survey.amount(c_years)} with probability {p:g}, exactly",
        ),
        MethodRow(
            "Poster, Theorem 3",
            theorem3,
            "lower (utility)",
            "(a)",
            survey.mechanism,
            inputs,
            survey.n_read,
            "its promise fails above p ≈ 0.92 (see mugunthan_poster)",
        ),
    ]


def reading_rows(
    posterior_epsilon: float,
    prior: float,
    threshold: float,
    advantage_epsilon: float,
    max_advantage: float,
) -> list[MethodRow]:
    """The Bayesian reading's row (posterior ≤ threshold from ``prior``; NaN when the prior
    already exceeds it) and the hypothesis-testing row (TPR − FPR ≤ ``max_advantage``)."""
    posterior = f"prior {prior:g} → posterior ≤ {threshold:g}"
    if threshold <= prior:
        posterior += ": none, the prior already exceeds it"
    release = "ε alone, replace one person"
    return [
        MethodRow(
            "Posterior bound",
            posterior_epsilon,
            "upper (privacy)",
            "(a)",
            release,
            "prior, threshold",
            "no",
            posterior,
        ),
        MethodRow(
            "Hypothesis testing",
            advantage_epsilon,
            "upper (privacy)",
            "(a)",
            release,
            "largest advantage",
            "no",
            f"advantage TPR − FPR ≤ {max_advantage:g}",
        ),
    ]


def kazan_reiter_problem(r_tilde: float) -> str | None:
    """Why Kazan & Reiter's fixed-p̃ profile cannot apply at the ratio ``r_tilde`` (None where it
    does): their Theorem 4 solves it for r̃ > 1 only."""
    return None if r_tilde > 1 else f"their Theorem 4 needs r̃ > 1, got r̃ = {r_tilde:g}"


def kazan_reiter_epsilon(prior: float, threshold: float, r_tilde: float) -> float:
    """The ε of Kazan & Reiter's fixed-p̃ profile (``risk_profiles.survey_agency_epsilon``), NaN
    where it does not apply (``kazan_reiter_problem``)."""
    if kazan_reiter_problem(r_tilde) is not None:
        return math.nan
    return risk_profiles.survey_agency_epsilon(prior, threshold, r_tilde)


def kazan_reiter_row(epsilon: float, prior: float, threshold: float, r_tilde: float) -> MethodRow:
    """Kazan & Reiter's row: the ε of the fixed-p̃ risk profile (their Eq. 16, Theorem 4), with the
    Bayesian reading's prior as p̃, its threshold as ã and the ratio ``r_tilde`` (r̃) elsewhere;
    not applicable, with the reason, where r̃ ≤ 1."""
    problem = kazan_reiter_problem(r_tilde)
    meaning = (
        f"posterior ≤ max(ã, r̃ × prior) at p̃ = {prior:g}, ã = {threshold:g}, r̃ = {r_tilde:g}"
        if problem is None
        else NOT_APPLICABLE + problem
    )
    return MethodRow(
        "Risk profile (Kazan & Reiter)",
        epsilon,
        "upper (privacy)",
        "(a)",
        "ε alone, replace one person",
        "prior, threshold, ratio r̃",
        "no",
        meaning,
    )


def methods_table(rows: list[MethodRow]) -> pd.DataFrame:
    """The table of methods, one row per ``MethodRow``, with the columns ``COLUMNS``."""
    return pd.DataFrame(rows, columns=COLUMNS)


def epsilon_text(value: float) -> str:
    """An ε as the table shows it: none (NaN, no ε meets it), ∞ (any ε does) or 4 figures."""
    if math.isnan(value):
        return "none: unmet"
    if math.isinf(value):
        return "∞: any ε"
    return f"{value:.4g}"


def six_figures(value: float) -> str:
    """An ε to six significant figures, or ∞ when no ρ binds it."""
    return "∞" if value == math.inf else f"{value:.6g}"


def inapplicable(methods: pd.DataFrame) -> pd.Series:
    """Which methods of the table cannot apply at the run's inputs (their "meaning" says why)."""
    return methods.meaning.str.startswith(NOT_APPLICABLE)


def not_applicable(methods: pd.DataFrame) -> dict[str, str]:
    """The methods that cannot apply at the run's inputs, each with the reason."""
    rows = methods[inapplicable(methods)]
    return {m: why.removeprefix(NOT_APPLICABLE) for m, why in zip(rows.method, rows.meaning)}


def readable_table(methods: pd.DataFrame) -> pd.DataFrame:
    """The table of methods with its ε written out by ``epsilon_text``, "not applicable" where a
    method cannot apply (its "meaning" says why)."""
    shown = methods.epsilon.map(epsilon_text).where(~inapplicable(methods), "not applicable")
    return methods.assign(epsilon=shown)


@dataclass(frozen=True)
class Feasibility:
    """The ε of the survey's one mechanism (panel (a)) the methods leave: above the largest
    utility bound ``lower`` and below the smallest privacy or budget bound ``upper``; the methods
    that cannot apply at the run's inputs (``not_applicable``, each with the reason) are left
    out."""

    lower: float
    upper: float
    binding_lower: str
    binding_upper: str | None
    unmet: list[str]
    not_applicable: dict[str, str] = field(default_factory=dict)

    @property
    def feasible(self) -> bool:
        """Every requirement can be met, and all of them together."""
        return bool(self.lower <= self.upper) and not self.unmet

    @property
    def interval(self) -> list[float] | None:
        """[lower, upper] when feasible, else None."""
        return [float(self.lower), float(self.upper)] if self.feasible else None

    def summary(self) -> str:
        """The binding bounds, and whether (and where) a feasible ε exists."""
        lines = [f"binding from below: {self.binding_lower} (ε ≥ {self.lower:.4g}); "]
        if self.binding_upper is None:
            lines[0] += "no finite bound from above"
        else:
            lines[0] += f"binding from above: {self.binding_upper} (ε ≤ {self.upper:.4g})"
        if self.unmet:
            lines.append(f"no feasible ε: no ε at all meets {', '.join(self.unmet)}")
        elif not self.feasible:
            lines.append(
                f"no feasible ε: the utility methods need ε ≥ {self.lower:.4g}, more than the "
                f"privacy and budget bounds allow (ε ≤ {self.upper:.4g})"
            )
        else:
            lines.append(
                f"a feasible ε exists: True — any ε in [{self.lower:.4g}, {self.upper:.4g}] "
                "(panel (a) only; Lee & Clifton's ε is for another release)"
            )
        lines += [
            f"left out, not applicable: {method}: {why}"
            for method, why in self.not_applicable.items()
        ]
        return "\n".join(lines)


def feasibility(methods: pd.DataFrame) -> Feasibility:
    """The feasible interval over panel (a)'s methods (one mechanism); a requirement no ε meets
    (NaN, in any panel: ρ below the prior binds Lee & Clifton's mechanism too) leaves none. A
    method that cannot apply (``inapplicable``) bounds nothing and is no unmet requirement."""
    applies = ~inapplicable(methods)
    shared = methods[(methods.panel == "(a)") & applies]
    bounds = shared["bounds ε from"]
    uppers = shared[bounds.str.startswith("upper") & np.isfinite(shared.epsilon)]
    lowers = shared[bounds.str.startswith("lower") & ~shared.method.isin(NOT_A_BOUND)]
    by_lower = lowers.set_index("method").epsilon
    by_upper = uppers.set_index("method").epsilon
    return Feasibility(
        lower=float(by_lower.max()),
        upper=float(by_upper.min()) if len(by_upper) else math.inf,
        binding_lower=str(by_lower.idxmax()),
        binding_upper=str(by_upper.idxmin()) if len(by_upper) else None,
        unmet=list(methods.method[methods.epsilon.isna() & applies]),
        not_applicable=not_applicable(methods),
    )


def has_epsilon(epsilon: Any) -> Any:
    """Whether each ε (a number or an array) is one a log axis can mark: finite and > 0, neither
    "none meets it" (NaN), "any does" (∞) nor 0."""
    return np.isfinite(epsilon) & (np.asarray(epsilon) > 0)


def synthetic_ages(n_people: int, observed_ages: Sequence[float], seed: int) -> np.ndarray:
    """The survey's private data: ``n_people`` whole-year ages drawn evenly over the closed range
    ``observed_ages`` with ``seed``."""
    rng = np.random.default_rng(seed)
    low, high = int(observed_ages[0]), int(observed_ages[1])
    return rng.integers(low, high + 1, size=n_people).astype(float)


def methods_for(
    data: Column,
    *,
    value_range: Sequence[float],
    mean_lower_bound: float,
    rho: float,
    lee_clifton_query: str = "mean",
    lee_clifton_q: float | None = None,
    bad_event_cost: float,
    bad_event_probability: float,
    budget: float,
    error_years: float,
    failure_probability: float,
    relative_error: float,
    pr: float,
    c_years: float,
    p: float,
    prior: float,
    posterior_threshold: float,
    max_advantage: float,
    kr_r_tilde: float,
) -> tuple[Survey, pd.DataFrame]:
    """The survey's public facts and the table of every method's ε for the private ``data``, the
    inputs named as the synthesis's parameters: the notebook's steps at once."""
    survey = survey_for(data, value_range, mean_lower_bound, lee_clifton_query, lee_clifton_q)
    query, q = survey.lee_query, survey.lee_q
    upper, exact = lee_clifton_at(data, survey.delta_lc, rho, query, q)
    fewest = lee_clifton_fewest(data, query, q)
    rows = lee_clifton_rows(survey, rho, upper, exact, fewest)
    delta, width = survey.delta, survey.ub - survey.lb
    p_cost = econ.expected_cost(bad_event_cost, bad_event_probability)
    accuracy = hsu_accuracy_epsilon(survey.n_people, error_years / width, failure_probability)
    budget_epsilon = econ.budget_epsilon(survey.n_people, p_cost, budget)
    rows += hsu_rows(
        survey, budget_epsilon, accuracy, p_cost, budget, error_years, failure_probability
    )
    shoaran = shoaran_epsilon(survey, pr, relative_error)
    rows.append(shoaran_row(survey, shoaran, relative_error, pr))
    theorem2 = cf.theorem2_epsilon(delta, c_years, p)
    rows += poster_rows(survey, theorem2, cf.theorem3_epsilon(delta, c_years, p), c_years, p)
    posterior = posterior_epsilon(prior, posterior_threshold)
    advantage_epsilon = risk.epsilon_for(risk.at_most_advantage(max_advantage))
    rows += reading_rows(posterior, prior, posterior_threshold, advantage_epsilon, max_advantage)
    kr_epsilon = kazan_reiter_epsilon(prior, posterior_threshold, kr_r_tilde)
    rows.append(kazan_reiter_row(kr_epsilon, prior, posterior_threshold, kr_r_tilde))
    return survey, methods_table(rows)


# --- one risk scale for every ε ----------------------------------------------------------------

# the numbers of candidates the scale reads singling out among: one of 10, one of 1,000 people
SINGLING_OUT_AMONG = (10, 1000)
SINGLING_OUT_COLUMNS = [
    f"single_out_{k}_{side}" for k in SINGLING_OUT_AMONG for side in ("bound", "attained")
]
MEMBERSHIP_COLUMNS = ["advantage", "tpr_at_fpr_1pct", "accuracy_at_half"]
RISK_COLUMNS = [
    "row", "kind", "model", "local", "epsilon", "delta", "rho", "mu", *MEMBERSHIP_COLUMNS,
    "reading", *SINGLING_OUT_COLUMNS, "singling_out_reading",
]  # fmt: skip


def unplaced_methods(methods: pd.DataFrame) -> dict[str, str]:
    """The methods whose answer has no place on the risk scale, each with the reason: not
    applicable, no ε meets the requirement, or any ε does (a bound of ∞ or 0)."""
    found = {}
    for method, epsilon, meaning in zip(methods.method, methods.epsilon, methods.meaning):
        if meaning.startswith(NOT_APPLICABLE):
            found[method] = meaning
        elif math.isnan(epsilon):
            found[method] = "no ε meets the requirement"
        elif not has_epsilon(epsilon):
            bound = "∞" if epsilon == math.inf else f"{epsilon:g}"
            found[method] = f"any ε meets the requirement (a bound of {bound})"
    return found


def _on_the_scale(g: Any) -> dict[str, Any]:
    """The scale's numbers for guarantee ``g`` (risk.Guarantee): membership (advantage, TPR at
    FPR 1%, accuracy at prior ½) and singling out one of k (``risk.singling_out``: the bound
    1 − f(1/k), which no mechanism with ``g`` exceeds, and what a named mechanism with ``g``
    attains, which the worst case is at least), each with the reading that says what it is."""

    advantage = risk.advantage(g)
    found = {k: risk.singling_out(g, k) for k in SINGLING_OUT_AMONG}
    exact = "exactly the worst case" if found[10].exact else "a lower bound on the worst case"
    return {
        "advantage": advantage,
        "tpr_at_fpr_1pct": risk.tpr_bound(g, 0.01),
        "accuracy_at_half": (1 + advantage) / 2,
        "reading": risk.READINGS[g.model],
        **{f"single_out_{k}_bound": found[k].bound for k in SINGLING_OUT_AMONG},
        **{f"single_out_{k}_attained": found[k].attained for k in SINGLING_OUT_AMONG},
        "singling_out_reading": (
            f"bound: 1 − f(1/k), no mechanism with the guarantee does better; attained: "
            f"{found[10].attained_by}, {exact}"
        ),
    }


def _off_the_scale(why: str) -> dict[str, Any]:
    """A row with no guarantee to read: every number of the scale empty, and why."""
    empty = dict.fromkeys([*MEMBERSHIP_COLUMNS, *SINGLING_OUT_COLUMNS], math.nan)
    return empty | {"reading": f"not placed: {why}", "singling_out_reading": f"not placed: {why}"}


def risk_scale(methods: pd.DataFrame, deployments: pd.DataFrame) -> pd.DataFrame:
    """Every method's answer (a pure ε: each method here sets the ε of a Laplace release) and
    every deployment (its guarantee as the registry states it: ρ-zCDP, μ-GDP, (ε, δ) or pure ε)
    on one scale: the attacker's largest advantage, TPR at FPR 1% and accuracy at prior ½, and
    the chance to single out one of 10 and of 1,000 people, bound and attained. A
    method with no ε to read (``unplaced_methods``) and a deployment that states no number have
    their rows with the scale's columns empty, and the reading says why."""

    rows: list[dict[str, Any]] = []
    unplaced = unplaced_methods(methods)
    for method, epsilon in zip(methods.method, methods.epsilon):
        placed = has_epsilon(epsilon)
        row = {"row": method, "kind": "method", "model": "pure" if placed else "", "local": False}
        # an ε the scale does not read (none, ∞ or 0) is left empty: the reading says why
        row |= {"epsilon": float(epsilon) if placed else math.nan}
        row |= {"delta": math.nan, "rho": math.nan, "mu": math.nan}
        if placed:
            rows.append(row | _on_the_scale(risk.pure(float(epsilon))))
            continue
        rows.append(row | _off_the_scale(unplaced[method]))
    for d in deployments.itertuples():
        row = {"row": d.label, "kind": "deployment", "model": d.scale_model, "local": d.local}
        row |= {"epsilon": d.epsilon, "delta": d.delta, "rho": d.rho, "mu": d.mu}
        if d.scale_model:
            numbers = [float(v) for v in (d.epsilon, d.delta, d.rho, d.mu)]  # type: ignore[arg-type]
            g = risk.guarantee(str(d.scale_model), *numbers)
            row |= _on_the_scale(g)
        else:
            row |= _off_the_scale("the record states no guarantee")
        rows.append(row)
    return pd.DataFrame(rows, columns=RISK_COLUMNS)


def zcdp_readings(scale: pd.DataFrame, fpr: float = 0.01) -> pd.DataFrame:
    """Each ρ-zCDP row of the scale read four ways, advantage and TPR at ``fpr``: exactly (the
    scale's), through Canonne, Kamath & Steinke's (ε(δ), δ) family (valid, looser), by the
    Gaussian mechanism with μ = √(2ρ) (one ρ-zCDP mechanism: below the exact reading), and by
    riskcal 1.5.1's get_beta_from_zcdp (a grid of Rényi orders)."""
    from riskcal.analysis import get_beta_from_zcdp

    rows = []
    for row in scale[scale.model == "zcdp"].itertuples():
        rho = float(row.rho)  # type: ignore[arg-type]
        mu = risk.gaussian_mu_for_rho(rho)
        rows.append(
            {
                "row": row.row,
                "rho": rho,
                "advantage, exact": risk.advantage(risk.zcdp(rho)),
                "advantage, (ε(δ), δ) family": risk.zcdp_advantage_via_approximate(rho),
                "advantage, Gaussian mechanism": risk.advantage(risk.gdp(mu)),
                "TPR, exact": risk.tpr_bound(risk.zcdp(rho), fpr),
                "TPR, (ε(δ), δ) family": risk.zcdp_tpr_via_approximate(rho, fpr),
                "TPR, Gaussian mechanism": risk.tpr_bound(risk.gdp(mu), fpr),
                "TPR, riskcal": 1 - float(get_beta_from_zcdp(rho, fpr)),
            }
        )
    return pd.DataFrame(rows)


# --- the answer, in short ---------------------------------------------------------------------

NAME_WIDTH = 48  # the longest deployment name the answer's prose holds; the table holds it whole


@dataclass(frozen=True)
class Reading:
    """What an attacker can do under a guarantee, as a row of the answer's table: ``name`` heads
    the row, and ``at`` reads a guarantee, printed to the precision its computation guarantees.
    A blind guess (ε = 0) is read the same way, for the row's heading."""

    name: str
    at: Callable[[risk.Guarantee], str]

    @property
    def heading(self) -> str:
        """The row's heading, with what a blind guess gets."""
        return f"{self.name} (a blind guess: {self.at(risk.pure(0.0))})"


def _advantage_text(g: risk.Guarantee) -> str:
    return f"{risk.advantage(g):.3g}"


def _tpr_text(g: risk.Guarantee, fpr: float = 0.01) -> str:
    tpr = risk.tpr_bound(g, fpr)
    if tpr == fpr or f"{tpr:.4g}" != f"{fpr:.4g}":
        return f"{tpr:.4g}"
    return f"{fpr:g} + {tpr - fpr:.2g}"  # at a tiny ε the TPR rounds to the FPR: say by how much


def _guess_text(g: risk.Guarantee) -> str:
    return risk.in_100((1 + risk.advantage(g)) / 2)


def _singling_out_text(g: risk.Guarantee, k: int, side: str) -> str:
    return f"{getattr(risk.singling_out(g, k), side):.4g}"


# The rows of the answer's table that read what an attacker can do at the ends of the interval:
# a new reading is one more entry (its name, and how it reads a guarantee).
READINGS: tuple[Reading, ...] = (
    Reading("advantage of the best membership test, TPR − FPR", _advantage_text),
    Reading("TPR of a membership test at FPR 1%", _tpr_text),
    Reading("how often a guess at prior ½ is right", _guess_text),
    *(
        Reading(f"chance to single out one of {k:,} people, {what}", partial)
        for k in SINGLING_OUT_AMONG
        for what, partial in (
            (f"at most 1 − f(1/{k:,})", functools.partial(_singling_out_text, k=k, side="bound")),
            (
                "attained by k-ary randomized response, exactly the worst case at ε",
                functools.partial(_singling_out_text, k=k, side="attained"),
            ),
        )
    ),
)


def _span(texts: Sequence[str]) -> str:
    """Readings at the ends of the interval: "0.00824 to 0.0116", or one value when they agree."""
    if len(set(texts)) == 1:
        return texts[0] + (" at both ends" if len(texts) > 1 else "")
    return " to ".join(texts)


def _ends(window: Feasibility) -> list[float]:
    """The ε the answer reads an attacker at: the ends of the feasible interval that are finite
    and > 0, or where no ε is feasible, the largest that the privacy and budget bounds allow."""
    ends = [window.lower, window.upper] if window.feasible else [window.upper]
    return [float(e) for e in ends if has_epsilon(e)]


def _least_deployment(scale: pd.DataFrame, deployments: pd.DataFrame) -> tuple[Any, str] | None:
    """The deployment of the scale with the smallest advantage (ties by label) and its full name
    from ``deployments`` (the rows ``risk_scale`` was given, in its order); None when no
    deployment states a guarantee."""
    rows = scale[scale.kind == "deployment"].reset_index(drop=True)
    if list(rows.row) != list(deployments.label):
        raise ValueError("deployments must be the table the risk scale was built from")
    stated = rows[rows.advantage.notna()]
    if not len(stated):
        return None
    least = stated.sort_values(["advantage", "row"], kind="stable").index[0]
    record = deployments.iloc[least]
    name = registry.full_name(str(record.Organization), str(record.Context)) or str(record.label)
    return rows.loc[least], name


def _share(above: int, count: int, least: str, advantage: float) -> str:
    """How many of the ``count`` deployments that state a guarantee allow a larger advantage
    (``above``), and the least of them: its name ``least`` (shortened) and its ``advantage``."""
    if count == 1:
        more = "more" if above else "no more"
        return (
            f"the one deployment that states a guarantee ({least}) allows {more}: {advantage:.3g}"
        )
    share = f"all {count}" if above == count else f"{above} of the {count}"
    return (
        f"{share} deployments that state a guarantee allow more, the least of them "
        f"{advantage:.3g} ({least})"
    )


def _times(value: float, mechanism: str, delta: float) -> str:
    """How much noise of ``mechanism`` the standard route needs, relative to the attack-aware
    noise: "4.394 times as much Gaussian noise", or that no ε (at ``delta``) meets the risk."""
    if value == math.inf:
        at_delta = f" at δ = {delta:.3g}" if mechanism == "Gaussian" else ""
        return f"no finite {mechanism} noise (no ε{at_delta} meets it)"
    if _same(value):
        return f"the same {mechanism} noise"
    return f"{value:.4g} times as much {mechanism} noise"


def noise_rows(
    calibrated: pd.DataFrame, survey: Survey, skipped: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """The answer's rows on calibrating to the stated risks: for each, the noise each mechanism
    needs and how many times that noise the standard route needs; and each stated risk that does
    not apply (``skipped``), with the reason."""
    rows = []
    for target, group in calibrated.groupby("target", sort=False):
        by: dict[Any, dict[Any, Any]] = group.set_index("mechanism").to_dict("index")
        gauss, lap = by["Gaussian"], by["Laplace"]
        rows.append(
            (
                f"noise for {target}",
                f"Gaussian σ = {gauss['noise_aware']:.4g} or Laplace b = "
                f"{lap['noise_aware']:.4g} {survey.unit}; the standard route through ε needs "
                f"{_times(float(gauss['noise_ratio']), 'Gaussian', float(gauss['delta']))} and "
                f"{_times(float(lap['noise_ratio']), 'Laplace', 0.0)}",
            )
        )
    rows += [
        (f"noise for {target}", f"none: it does not apply ({why})")
        for target, why in (skipped or {}).items()
    ]
    return rows


def answer_rows(
    window: Feasibility,
    scale: pd.DataFrame,
    deployments: pd.DataFrame,
    survey: Survey,
    calibrated: pd.DataFrame | None = None,
    skipped: Mapping[str, str] | None = None,
) -> list[tuple[str, str]]:
    """The answer's table, a row a fact, each (what, value): the interval of ε panel (a)'s
    methods agree on and the methods left out; at its ends, each of ``READINGS``; how many of
    the deployments that state a guarantee allow more, and the least of them by its full name;
    and with ``calibrated`` (``noise_for_risk_table``), the noise each stated risk needs."""
    if window.feasible:
        agreed = f"{window.lower:.4g} ({window.binding_lower}) to " + (
            f"{window.upper:.4g} ({window.binding_upper})"
            if math.isfinite(window.upper)
            else "∞: nothing bounds it from above"
        )
    elif window.unmet:
        agreed = f"none: no ε at all meets {'; '.join(window.unmet)}"
    else:
        agreed = (
            f"none: the utility methods need ε ≥ {window.lower:.4g} ({window.binding_lower}), "
            f"more than the privacy and budget bounds allow, ε ≤ {window.upper:.4g} "
            f"({window.binding_upper})"
        )
    rows = [("ε the methods agree on", agreed)]
    rows += [
        (f"left out: {method}", f"does not apply: {why}")
        for method, why in window.not_applicable.items()
    ]
    ends = _ends(window)
    if ends and not window.feasible:
        rows.append(
            (
                "largest ε the privacy and budget bounds allow",
                f"{ends[0]:.4g} ({window.binding_upper})",
            )
        )
    guarantees = [risk.pure(e) for e in ends]
    if guarantees:
        rows += [(r.heading, _span([r.at(g) for g in guarantees])) for r in READINGS]
    least = _least_deployment(scale, deployments)
    if least is not None and ends:
        row, name = least
        stated = scale[(scale.kind == "deployment") & scale.advantage.notna()]
        above = int((stated.advantage > risk.advantage(guarantees[-1])).sum())
        rows.append(
            (
                f"deployments that allow a larger advantage than ε = {ends[-1]:.4g}",
                f"{above} of the {len(stated)} that state a guarantee; the least of them, "
                f"{name}, allows {row.advantage:.3g}",
            )
        )
    if calibrated is not None:
        rows += noise_rows(calibrated, survey, skipped)
    return rows


def answer_sentences(
    window: Feasibility,
    scale: pd.DataFrame,
    deployments: pd.DataFrame,
    survey: Survey,
    calibrated: pd.DataFrame | None = None,
) -> list[str]:
    """The answer in two or three sentences: the interval of ε (or why there is none); what an
    attacker can do at its upper end, beside the deployments; and what calibrating to the stated
    risk saves (with ``calibrated``)."""
    what = survey.mechanism.split(", Δ")[0]
    applies = "applies and " if window.not_applicable else ""
    if window.feasible and math.isfinite(window.upper):
        verdict = (
            f"any ε from {window.lower:.4g} to {window.upper:.4g} meets every method that "
            f"{applies}bounds it from public inputs"
        )
    elif window.feasible:
        verdict = (
            f"any ε from {window.lower:.4g} upwards meets every method that {applies}bounds it "
            "from public inputs: nothing bounds it from above"
        )
    else:
        verdict = "no ε meets every requirement at these parameters (the table says why)"
    sentences = [f"**For the {what}, {verdict}.**"]
    ends = _ends(window)
    least = _least_deployment(scale, deployments)
    if ends:
        g = risk.pure(ends[-1])
        where = "At either end" if window.feasible and len(ends) == 2 else f"At ε = {ends[-1]:.4g}"
        attacker = (
            f"{where} an attacker testing whether one person took part gains an advantage of at "
            f"most {_advantage_text(g)} (a guess at prior ½ is right {_guess_text(g)} times)"
        )
        if least is not None:
            row, name = least
            stated = scale[(scale.kind == "deployment") & scale.advantage.notna()]
            above = int((stated.advantage > risk.advantage(g)).sum())
            short = registry.in_whole_words(name, NAME_WIDTH)
            attacker += f"; {_share(above, len(stated), short, float(row.advantage))}"
        sentences.append(attacker + ".")
    if calibrated is not None and len(calibrated):
        ratios = calibrated.noise_ratio.astype(float)
        if (ratios == math.inf).any():
            saving = "is finite where the standard route through ε finds no finite noise"
        elif all(_same(r) for r in ratios):
            saving = "is the noise the standard route through ε needs"
        else:
            saving = (
                f"is up to {ratios.max():.4g} times less than the standard route through ε needs"
            )
        sentences.append(
            f"Calibrated to the risk you state instead of to an ε, the noise {saving}."
        )
    return sentences


def answer_in_short(
    window: Feasibility,
    scale: pd.DataFrame,
    deployments: pd.DataFrame,
    survey: Survey,
    calibrated: pd.DataFrame | None = None,
    skipped: Mapping[str, str] | None = None,
) -> str:
    """The notebook's answer at the run's parameters (Markdown): two or three sentences
    (``answer_sentences``), then the table of ``answer_rows``. ``scale`` is the risk scale of the
    ``deployments`` (``risk_scale``), whose full names the table gives."""
    sentences = answer_sentences(window, scale, deployments, survey, calibrated)
    rows = answer_rows(window, scale, deployments, survey, calibrated, skipped)
    table = ["| at this run's parameters | |", "|:---|:---|"]
    table += [f"| {what} | {value} |" for what, value in rows]
    return " ".join(sentences) + "\n\n" + "\n".join(table) + "\n"


def zcdp_gaps(readings: pd.DataFrame, fpr: float = 0.01) -> str:
    """How far the (ε(δ), δ) family, the Gaussian mechanism and riskcal sit from the exact
    reading of each ρ-zCDP row (``zcdp_readings``), in sentences; and riskcal's trivial curve at
    the smallest ρ at FPR 0.1%, where it is wrong, beside the Gaussian mechanism that beats it."""
    from riskcal.analysis import get_beta_from_zcdp

    if not len(readings):
        return "no deployment states a ρ-zCDP guarantee"
    sentences = []
    for what, column in (("advantage", "advantage"), (f"TPR at FPR {fpr:.0%}", "TPR")):
        over = (readings[f"{column}, (ε(δ), δ) family"] - readings[f"{column}, exact"]).to_numpy()
        under = (
            readings[f"{column}, exact"] - readings[f"{column}, Gaussian mechanism"]
        ).to_numpy()
        most, least = int(np.argmax(over)), int(np.argmax(under))
        sentences.append(
            f"{what}: the (ε(δ), δ) family overstates it by up to {over[most]:.4f} "
            f"({readings.row.iloc[most]}, ρ = {readings.rho.iloc[most]:g}), the Gaussian "
            f"mechanism with the same ρ falls short of it by up to {under[least]:.4f} "
            f"({readings.row.iloc[least]})"
        )
    riskcal_gap = (readings["TPR, riskcal"] - readings["TPR, exact"]).abs().max()
    sentences.append(
        f"riskcal's TPR at FPR {fpr:.0%} is within {riskcal_gap:.1e} of the exact reading on "
        "every row"
    )
    rho = float(readings.rho.min())
    small_fpr = 0.001
    said = 1 - float(get_beta_from_zcdp(rho, small_fpr))
    gaussian = risk.tpr_bound(risk.gdp(risk.gaussian_mu_for_rho(rho)), small_fpr)
    exact = risk.tpr_bound(risk.zcdp(rho), small_fpr)
    verdict = (
        "the trivial curve, no better than chance, though the Gaussian mechanism with that ρ "
        f"reaches TPR {gaussian:.6f}: the exact reading, {exact:.6f}, is used instead"
        if said < gaussian
        else f"TPR {said:.6f} (exact: {exact:.6f})"
    )
    sentences.append(
        f"at the smallest ρ, {rho:g}, and FPR {small_fpr:.1%}, riskcal 1.5.1's "
        f"get_beta_from_zcdp gives TPR {said:.6f}, {verdict}"
    )
    return ";\n".join(sentences) + "."


# --- calibrating to a stated risk instead of to ε ------------------------------------------------


def risk_targets(
    max_advantage: float,
    max_tpr: float,
    at_fpr: float,
    max_singling_out: float = math.nan,
    singling_out_among: int = 10,
) -> list[risk.RiskTarget]:
    """The attack risks the reader accepts: the largest advantage ``max_advantage``, the largest
    TPR ``max_tpr`` at the false-positive rate ``at_fpr``, and the largest chance
    ``max_singling_out`` of picking the right one of ``singling_out_among`` people, each where it
    applies (``inapplicable_risks``; NaN states no chance to single out)."""
    targets = [risk.at_most_advantage(max_advantage)]
    skipped = inapplicable_risks(max_tpr, at_fpr, max_singling_out, singling_out_among)
    if not any(key.startswith("TPR") for key in skipped):
        targets.append(risk.at_most_tpr(max_tpr, at_fpr))
    if not math.isnan(max_singling_out) and not any(key.startswith("success") for key in skipped):
        targets.append(risk.at_most_singling_out(max_singling_out, singling_out_among))
    return targets


def inapplicable_risks(
    max_tpr: float,
    at_fpr: float,
    max_singling_out: float = math.nan,
    singling_out_among: int = 10,
) -> dict[str, str]:
    """The stated risks no calibration can apply to, each with the reason: a TPR of at most
    ``at_fpr`` at that FPR, which a test accusing at random reaches whatever the noise, and a
    chance to single out one of k of at most 1/k, which a blind guess reaches."""
    found = {}
    if max_tpr <= at_fpr:
        found[f"TPR ≤ {max_tpr:g} at FPR {at_fpr:g}"] = (
            f"a test accusing at random reaches TPR = FPR = {at_fpr:g} whatever the noise: "
            "max_tpr must exceed at_fpr"
        )
    k = singling_out_among
    if max_singling_out <= 1 / k:
        found[f"success ≤ {max_singling_out:g} singling out one of {k}"] = (
            f"a blind guess among {k} is right with chance 1/{k} = {1 / k:.4g} whatever the "
            "noise: max_singling_out must exceed it"
        )
    return found


def noise_for_risk_table(
    survey: Survey, targets: Sequence[risk.RiskTarget], gaussian_delta: float
) -> pd.DataFrame:
    """The survey mean (Δ = ``survey.delta``) calibrated to each stated risk of ``targets``,
    Gaussian (at δ = ``gaussian_delta``) and Laplace, by the attack-aware and the standard routes
    (``calibration.calibrate``)."""
    return calibration.calibrate(list(targets), survey.delta, gaussian_delta)


def _same(ratio: float) -> bool:
    """Whether a ratio of noises is 1 to the four figures it is printed with."""
    return abs(ratio - 1) < 5e-5


def calibration_lines(
    calibrated: pd.DataFrame, survey: Survey, skipped: Mapping[str, str] | None = None
) -> list[str]:
    """One line per mechanism and risk: the attack-aware noise and the ε it would be reported
    with, the standard route's ε, noise and ratio, and the risk that noise really allows; and one
    per stated risk that does not apply (``skipped``, with the reason)."""
    lines = []
    for row in calibrated.itertuples():
        symbol = "σ" if row.mechanism == "Gaussian" else "b"
        at_delta = f" at δ = {row.delta:.3g}" if row.mechanism == "Gaussian" else ""
        head = (
            f"{row.mechanism}, {row.target}: attack-aware {symbol} = {row.noise_aware:.4g} "
            f"(reported as ε = {row.epsilon_aware:.4g}{at_delta}); "
        )
        if math.isnan(float(row.epsilon_standard)):  # type: ignore[arg-type]
            bound = {"advantage": "advantage δ", "tpr": "TPR FPR + δ"}.get(
                str(row.kind), "a chance 1/k + δ"
            )
            tail = (
                f"standard route: no ε{at_delta} meets it ((0, δ)-DP already allows {bound}), "
                "so no finite noise"
            )
        elif _same(float(row.noise_ratio)):  # type: ignore[arg-type]
            tail = (
                f"standard route ε = {row.epsilon_standard:.4g}, {symbol} = "
                f"{row.noise_standard:.4g}: the same noise, as the mechanism's curve meets the "
                "worst case of its ε at this risk"
            )
        else:
            measure = {
                "advantage": f"an advantage of {row.risk_standard:.4g}",
                "tpr": f"a TPR of {row.risk_standard:.4g} at FPR {row.fpr:g}",
                "singling_out": f"a chance of {row.risk_standard:.4g} to single one out",
            }[str(row.kind)]
            tail = (
                f"standard route ε = {row.epsilon_standard:.4g}{at_delta}, {symbol} = "
                f"{row.noise_standard:.4g}, {row.noise_ratio:.4g} times the noise, which allows "
                f"{measure} where {row.risk:g} was accepted"
            )
        if row.kind == "singling_out":  # the bound covers every mechanism; this is one of them
            numbers = [float(v) for v in (row.fpr, row.sensitivity, row.noise_aware)]  # type: ignore[arg-type]
            k, mu = round(1 / numbers[0]), numbers[1] / numbers[2]
            attained = risk.attained_success(str(row.mechanism), mu, k)
            tail += (
                f" (the same noise on a release whose {k} candidates lie pairwise Δ apart, a "
                f"simplex, attains {attained:.4g})"
            )
        lines.append(head + tail)
    if len(calibrated):
        margin = (calibrated.risk - calibrated.risk_aware).astype(float)
        lines.append(
            f"each attack-aware noise allows at most the stated risk: read back on its own curve, "
            f"{margin.min():.1e} to {margin.max():.1e} below it (never above)"
        )
    return lines + [f"{target}: not applicable: {why}" for target, why in (skipped or {}).items()]
