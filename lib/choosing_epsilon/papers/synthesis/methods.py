"""The methods of the other notebooks, each with its premise, as rows of the synthesis's table
of ε (``METHODS``, the one list the table iterates), and the interval of ε they leave."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from choosing_epsilon import composition, queries, risk, risk_profiles
from choosing_epsilon import confidence as cf
from choosing_epsilon import economics as econ
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import relative_error as rel
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.papers.synthesis.release import Column, ReleaseInputs, Survey, survey_for

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


def _renamed(old: str, new: str) -> None:
    """The notice an old name gives: it still works, under its new name."""
    warnings.warn(f"synthesis.{old} is renamed synthesis.{new}", DeprecationWarning, stacklevel=3)


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


def lee_clifton_epsilons(ages: np.ndarray, delta_lc: float, rho: float) -> tuple[float, float]:
    """Lee & Clifton's ε for the mean of n - 1 of ``ages`` at noise Δ = ``delta_lc``: Eq. (7)
    from the spread of the worlds' answers, and the exact ε from all of them."""
    answers = np.sort(sens.world_answers(ages, "mean"))
    upper = pw.epsilon_upper_bound(len(ages), float(np.ptp(answers)), delta_lc, rho)
    return upper, pw.exact_epsilon(answers, delta_lc, rho)


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


def span_revealed_by_eq7(epsilon: float, n_people: int, rho: float, width: float) -> float:
    """The age span Eq. (7) gives away: (ub - lb) ln((n - 1)ρ/(1 - ρ)) / ε, with ``width`` =
    ub - lb."""
    return width * pw.bounded_guarantee(n_people, rho) / epsilon


def span_from_eq7(epsilon: float, n_people: int, rho: float, width: float) -> float:
    """Deprecated: the old name of ``span_revealed_by_eq7``."""
    _renamed("span_from_eq7", "span_revealed_by_eq7")
    return span_revealed_by_eq7(epsilon, n_people, rho, width)


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
        spread = survey.delta_lc * pw.bounded_guarantee(n, rho) / upper
        return (
            f"Eq. (7): ε = {upper:.6g} gives away Δv = Δ ln((n-1)ρ/(1-ρ)) / ε = {spread:.6g}, "
            f"the spread of the worlds' {survey.lee_statistic}s"
        )
    recovered = span_revealed_by_eq7(upper, n, rho, survey.ub - survey.lb)
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
        floor = econ.sampling_error(survey.n_people, failure_probability) * width
        meaning += (
            f": none, with {n_text} people the sampling term alone exceeds {failure_probability:g}"
            f"; no ε meets an error below {survey.amount(float(f'{floor:.4g}'))} at this N"
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


def epsilon_in_six_figures(value: float) -> str:
    """An ε to six significant figures, or ∞ when no ρ binds it."""
    return "∞" if value == math.inf else f"{value:.6g}"


def six_figures(value: float) -> str:
    """Deprecated: the old name of ``epsilon_in_six_figures``."""
    _renamed("six_figures", "epsilon_in_six_figures")
    return epsilon_in_six_figures(value)


def rows_of(methods: pd.DataFrame, method: str) -> pd.DataFrame:
    """The rows of the table whose method's name begins with ``method`` ("Lee & Clifton",
    "Hsu et al."), as ``readable_table`` shows them: one method's step of the table."""
    return readable_table(methods[methods.method.str.startswith(method)]).reset_index(drop=True)


def not_applicable_mask(methods: pd.DataFrame) -> pd.Series:
    """Which methods of the table cannot apply at the run's inputs (their "meaning" says why),
    one boolean per row; ``not_applicable`` gives their reasons."""
    return methods.meaning.str.startswith(NOT_APPLICABLE)


def inapplicable(methods: pd.DataFrame) -> pd.Series:
    """Deprecated: the old name of ``not_applicable_mask``."""
    _renamed("inapplicable", "not_applicable_mask")
    return not_applicable_mask(methods)


def not_applicable(methods: pd.DataFrame) -> dict[str, str]:
    """The methods that cannot apply at the run's inputs, each with the reason."""
    rows = methods[not_applicable_mask(methods)]
    return {m: why.removeprefix(NOT_APPLICABLE) for m, why in zip(rows.method, rows.meaning)}


def readable_table(methods: pd.DataFrame) -> pd.DataFrame:
    """The table of methods with its ε written out by ``epsilon_text``, "not applicable" where a
    method cannot apply (its "meaning" says why)."""
    shown = methods.epsilon.map(epsilon_text).where(~not_applicable_mask(methods), "not applicable")
    return methods.assign(epsilon=shown)


@dataclass(frozen=True)
class Feasibility:
    """The ε of the survey's one mechanism (panel (a)) the methods leave: above the largest
    utility bound ``lower`` (0 where no utility requirement applies) and below the smallest
    privacy or budget bound ``upper``; the methods that cannot apply at the run's inputs
    (``not_applicable``, each with the reason) are left out."""

    lower: float
    upper: float
    binding_lower: str | None
    binding_upper: str | None
    unmet: list[str]
    not_applicable: dict[str, str] = field(default_factory=dict)
    unmet_why: dict[str, str] = field(default_factory=dict)

    @property
    def feasible(self) -> bool:
        """Every requirement can be met, and all of them together."""
        return bool(self.lower <= self.upper) and not self.unmet

    @property
    def interval(self) -> list[float] | None:
        """[lower, upper] when feasible, else None."""
        return [float(self.lower), float(self.upper)] if self.feasible else None

    @property
    def conflict(self) -> str | None:
        """Where no ε meets every requirement, the two in conflict and how far apart they are, or
        the requirement that no ε meets at all, and why (None where some ε is feasible)."""
        if self.unmet:
            return "; ".join(
                f"no ε at all meets {name}" + (f" ({why})" if why else "")
                for name, why in ((m, self.unmet_why.get(m, "")) for m in self.unmet)
            )
        if self.feasible:
            return None
        return (
            f"{self.binding_lower} needs ε ≥ {self.lower:.4g}, but {self.binding_upper} allows "
            f"ε ≤ {self.upper:.4g}: {self.lower / self.upper:.3g} times as much"
        )

    def summary(self) -> str:
        """The binding bounds, and whether (and where) a feasible ε exists."""
        if self.binding_lower is None:
            lines = ["from below: no utility requirement applies (ε ≥ 0); "]
        else:
            lines = [f"binding from below: {self.binding_lower} (ε ≥ {self.lower:.4g}); "]
        if self.binding_upper is None:
            lines[0] += "no finite bound from above"
        else:
            lines[0] += f"binding from above: {self.binding_upper} (ε ≤ {self.upper:.4g})"
        if not self.feasible:
            lines.append(f"no feasible ε: {self.conflict}")
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
    method that cannot apply (``not_applicable_mask``) bounds nothing and is no unmet
    requirement."""
    applies = ~not_applicable_mask(methods)
    shared = methods[(methods.panel == "(a)") & applies]
    bounds = shared["bounds ε from"]
    uppers = shared[bounds.str.startswith("upper") & np.isfinite(shared.epsilon)]
    lowers = shared[bounds.str.startswith("lower") & ~shared.method.isin(NOT_A_BOUND)]
    by_lower = lowers.set_index("method").epsilon.dropna()
    by_upper = uppers.set_index("method").epsilon
    unmet = methods[methods.epsilon.isna() & applies]
    return Feasibility(
        lower=float(by_lower.max()) if len(by_lower) else 0.0,
        upper=float(by_upper.min()) if len(by_upper) else math.inf,
        binding_lower=str(by_lower.idxmax()) if len(by_lower) else None,
        binding_upper=str(by_upper.idxmin()) if len(by_upper) else None,
        unmet=list(unmet.method),
        not_applicable=not_applicable(methods),
        unmet_why={m: _unmet_reason(why) for m, why in zip(unmet.method, unmet.meaning)},
    )


def _unmet_reason(meaning: str) -> str:
    """The reason a row's "meaning" gives for its requirement being unmet: what follows "none"."""
    _, _, why = meaning.partition("none")
    return why.lstrip(":, ").strip()


def has_epsilon(epsilon: Any) -> Any:
    """Whether each ε (a number or an array) is one a log axis can mark: finite and > 0, neither
    "none meets it" (NaN), "any does" (∞) nor 0."""
    return np.isfinite(epsilon) & (np.asarray(epsilon) > 0)


@dataclass(frozen=True)
class Inputs:
    """Everything the methods read: the private data, the survey's public facts, what the reader
    states about the release (``ReleaseInputs``, in the column's unit) and each method's own
    parameters, named as the synthesis's."""

    data: Column
    survey: Survey
    stated: ReleaseInputs
    rho: float
    bad_event_cost: float
    bad_event_probability: float
    budget: float
    failure_probability: float
    relative_error: float
    pr: float
    p: float
    prior: float
    posterior_threshold: float
    max_advantage: float
    kr_r_tilde: float
    releases: int = 1

    def per_release(self, epsilon: float) -> float:
        """An ε that bounds a posterior or a payment over all the releases, per release: each of
        k pure-ε releases multiplies the likelihood ratio by at most e^ε, and randomized response
        reaches e^(kε), so basic composition is exact for these (ε/k)."""
        return epsilon / self.releases


@dataclass(frozen=True)
class Method:
    """One method of the table: its premise (what must hold for the reader's release), the rows
    it gives (name, what it bounds, panel), why it does not apply to given inputs (None where it
    does: the premise holds and every input it needs is stated), and its rows where it does."""

    premise: str
    rows: tuple[tuple[str, str, str], ...]
    why_not: Callable[[Inputs], str | None]
    compute: Callable[[Inputs], list[MethodRow]]

    def table_rows(self, given: Inputs) -> list[MethodRow]:
        """Its rows at ``given``: computed, or "not applicable" with the reason, ε NaN."""
        why = self.why_not(given)
        if why is None:
            return self.compute(given)
        return [
            MethodRow(name, math.nan, bound, panel, "", "", "no", NOT_APPLICABLE + why)
            for name, bound, panel in self.rows
        ]


def _lee_clifton(given: Inputs) -> list[MethodRow]:
    survey, data, rho = given.survey, given.data, given.rho
    query, q = survey.lee_query, survey.lee_q
    upper, exact = lee_clifton_at(data, survey.delta_lc, rho, query, q)
    fewest = lee_clifton_fewest(data, query, q)
    per = given.per_release
    return _over(lee_clifton_rows(survey, rho, per(upper), per(exact), fewest), given.releases)


def _lee_clifton_not(given: Inputs) -> str | None:
    if given.stated.adversary_knows_data:
        return None
    return (
        "you say no adversary knows the data (adversary_knows_data false), and its adversary "
        "knows every record but one"
    )


def _hsu(given: Inputs) -> list[MethodRow]:
    survey, error = given.survey, given.stated.max_error
    assert error is not None  # _hsu_not refuses a missing error
    width = survey.ub - survey.lb
    p_cost = econ.expected_cost(given.bad_event_cost, given.bad_event_probability)
    accuracy = hsu_accuracy_epsilon(survey.n_people, error / width, given.failure_probability)
    budget_epsilon = given.per_release(econ.budget_epsilon(survey.n_people, p_cost, given.budget))
    rows = hsu_rows(
        survey, budget_epsilon, accuracy, p_cost, given.budget, error, given.failure_probability
    )
    return [_over(rows[:1], given.releases)[0], rows[1]]  # each release must be accurate


def _hsu_not(given: Inputs) -> str | None:
    if not given.stated.pays_participants:
        return (
            "you pay nobody (pays_participants false), and it pays each participant from a "
            "budget for the cost they bear"
        )
    if given.stated.max_error is None:
        return f"give max_error, the error of the mean you accept, in {given.survey.unit}"
    return None


def _shoaran(given: Inputs) -> list[MethodRow]:
    epsilon = shoaran_epsilon(given.survey, given.pr, given.relative_error)
    return [shoaran_row(given.survey, epsilon, given.relative_error, given.pr)]


def _shoaran_not(given: Inputs) -> str | None:
    return given.survey.mean_floor_problem


def _poster(given: Inputs) -> list[MethodRow]:
    bound = given.stated.noise_bound
    assert bound is not None  # _poster_not refuses a missing bound
    delta = given.survey.delta
    theorem2 = cf.theorem2_epsilon(delta, bound, given.p)
    theorem3 = cf.theorem3_epsilon(delta, bound, given.p)
    return poster_rows(given.survey, theorem2, theorem3, bound, given.p)


def _poster_not(given: Inputs) -> str | None:
    if given.stated.noise_bound is None:
        return f"give noise_bound, the largest noise you accept, in {given.survey.unit}"
    return None


def _readings(given: Inputs) -> list[MethodRow]:
    posterior = given.per_release(posterior_epsilon(given.prior, given.posterior_threshold))
    target = risk.at_most_advantage(given.max_advantage)
    if given.releases == 1:
        advantage_epsilon = risk.epsilon_for(target)
    else:  # exact: k-fold randomized response is the worst case of k pure-ε releases
        advantage_epsilon = composition.epsilon_per_release(target, given.releases)
    rows = reading_rows(
        posterior, given.prior, given.posterior_threshold, advantage_epsilon, given.max_advantage
    )
    return _over(rows, given.releases)


def _kazan_reiter(given: Inputs) -> list[MethodRow]:
    prior, threshold, r_tilde = given.prior, given.posterior_threshold, given.kr_r_tilde
    epsilon = given.per_release(kazan_reiter_epsilon(prior, threshold, r_tilde))
    return _over([kazan_reiter_row(epsilon, prior, threshold, r_tilde)], given.releases)


def _over(rows: list[MethodRow], releases: int) -> list[MethodRow]:
    """Rows whose ε bounds all ``releases`` together, said per release (unchanged for one)."""
    if releases == 1:
        return rows
    return [
        row._replace(meaning=f"{row.meaning}; over {releases:,} releases, ε per release")
        for row in rows
    ]


def _always(given: Inputs) -> str | None:
    return None


ONLY_THE_RISK = "only the risk you state"
METHODS: tuple[Method, ...] = (
    Method(
        "an adversary who knows every record but one",
        (
            ("Lee & Clifton, Eq. (7)", "upper (privacy)", "(b)"),
            ("Lee & Clifton, exact", "upper (privacy)", "(b)"),
        ),
        _lee_clifton_not,
        _lee_clifton,
    ),
    Method(
        "participants paid from a budget for the cost they bear, and an accuracy stated",
        (
            ("Hsu et al., budget at N", "upper (budget)", "(a)"),
            ("Hsu et al., accuracy at N", "lower (utility)", "(a)"),
        ),
        _hsu_not,
        _hsu,
    ),
    Method(
        "a public positive lower bound of the mean",
        (("Shoaran et al., MTA ≤ public lower bound of the mean", "lower (utility)", "(a)"),),
        _shoaran_not,
        _shoaran,
    ),
    Method(
        "a bound on the noise you accept",
        (
            ("Poster, Theorem 2", "lower (utility)", "(a)"),
            ("Poster, Theorem 3", "lower (utility)", "(a)"),
        ),
        _poster_not,
        _poster,
    ),
    Method(
        ONLY_THE_RISK,
        (
            ("Posterior bound", "upper (privacy)", "(a)"),
            ("Hypothesis testing", "upper (privacy)", "(a)"),
        ),
        _always,
        _readings,
    ),
    Method(
        ONLY_THE_RISK,
        (("Risk profile (Kazan & Reiter)", "upper (privacy)", "(a)"),),
        _always,
        _kazan_reiter,
    ),
)
"""The methods, in the table's order: the table iterates this list and nothing else."""


def premises() -> dict[str, str]:
    """Each row of the table with its method's premise."""
    return {name: m.premise for m in METHODS for name, _, _ in m.rows}


def methods_for(
    data: Column,
    *,
    value_range: Sequence[float],
    stated: ReleaseInputs,
    rho: float,
    lee_clifton_query: str = "mean",
    lee_clifton_q: float | None = None,
    bad_event_cost: float,
    bad_event_probability: float,
    budget: float,
    failure_probability: float,
    relative_error: float,
    pr: float,
    p: float,
    prior: float,
    posterior_threshold: float,
    max_advantage: float,
    kr_r_tilde: float,
    releases: int = 1,
) -> tuple[Survey, pd.DataFrame]:
    """The survey's public facts and the table of every method's ε for the private ``data``
    (``METHODS``, each where its premise holds and its inputs are stated, else "not
    applicable" and why), the inputs named as the synthesis's parameters."""
    floor = value_range[0] if stated.lower_bound is None else stated.lower_bound
    survey = survey_for(data, value_range, floor, lee_clifton_query, lee_clifton_q)
    given = Inputs(
        data, survey, stated, rho, bad_event_cost, bad_event_probability, budget,
        failure_probability, relative_error, pr, p, prior, posterior_threshold, max_advantage,
        kr_r_tilde, releases,
    )  # fmt: skip
    rows = [row for method in METHODS for row in method.table_rows(given)]
    return survey, methods_table(rows)
