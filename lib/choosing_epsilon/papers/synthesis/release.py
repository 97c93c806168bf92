"""The reader's release: the column whose mean is released (read from a file as distinct values
and counts, or the demo's synthetic survey), its public facts (size, range, sensitivities), and the
inputs only the reader can state about it, each in the column's unit (``release_inputs``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from choosing_epsilon import queries, tables
from choosing_epsilon import sensitivity as sens


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
            return (
                f"L = {floor:g}: give lower_bound, a public positive lower bound of the mean in "
                f"{self.unit} (a relative error needs a mean bounded away from 0)"
            )
        if floor > self.ub:
            return f"L = {floor:g} lies above the range's upper end {self.ub:g}: no mean reaches it"
        return None

    @property
    def release_text(self) -> str:
        """The release in plain words, as the answer's title names it: "the mean of `income`
        over 3,000 rows", or the demo's "the mean age of 20,000 survey participants"."""
        if self.is_demo:
            return f"the mean age of {self.n_people:,} survey participants"
        return f"the mean of `{self.column}` over {self.n_people:,} rows"

    @property
    def mean_text(self) -> str:
        """The statistic as the figure's title names it: "the survey mean", or "the mean of
        income" for a column of a file."""
        return "the survey mean" if self.is_demo else f"the mean of {self.column}"

    @property
    def is_demo(self) -> bool:
        """Whether the data are the demo's synthetic survey of ages (in years), not a file."""
        return not self.source

    @property
    def noun(self) -> str:
        """What a row holds, in the plural: ages, or the values of the column."""
        return "ages" if self.is_demo else f"values of {self.column!r}"

    def amount(self, value: float) -> str:
        """A length on the column's scale in words: years for ages, the column's units else."""
        if self.is_demo:
            return f"{value:g} year" + ("" if value == 1 else "s")
        return f"{value:g} (in the units of {self.column!r})"

    @property
    def unit(self) -> str:
        """The unit of the column's values, for a noise scale: years for ages."""
        return "years" if self.is_demo else f"units of {self.column!r}"

    def holding(self, value: float) -> str:
        """A participant's value in words: "aged 90" for ages, "with income 90" else."""
        return f"aged {value:g}" if self.is_demo else f"with {self.column} {value:g}"

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


def survey_for(
    data: Column,
    value_range: Sequence[float],
    lower_bound: float,
    lee_query: str = "mean",
    lee_q: float | None = None,
) -> Survey:
    """The survey's public facts for ``data``: its size n, and Δ from the public range alone, for
    the mean of all n values and for the statistic ``lee_query`` of the n - 1 values Lee &
    Clifton's worlds hold; L = max(lb, ``lower_bound``), the public lower bound of the mean."""
    (lb, ub), n = value_range, data.n
    query, q = queries.check_query(lee_query, lee_q if lee_query == "quantile" else None)
    delta = sens.mean_sensitivity(lb, ub, n)
    delta_lc = queries.public_sensitivity(query, lb, ub, n - 1, q)
    floor = max(lb, lower_bound)
    return Survey(n, lb, ub, delta, delta_lc, floor, data.source, data.name, query, q)


def synthetic_ages(n_people: int, observed_ages: Sequence[float], seed: int) -> np.ndarray:
    """The survey's private data: ``n_people`` whole-year ages drawn evenly over the closed range
    ``observed_ages`` with ``seed``."""
    rng = np.random.default_rng(seed)
    low, high = int(observed_ages[0]), int(observed_ages[1])
    return rng.integers(low, high + 1, size=n_people).astype(float)


# --- what the reader states about the release ------------------------------------------------


@dataclass(frozen=True)
class Demo:
    """The demo's synthetic survey: the mean age of the participants of a health survey that pays
    them as Hsu et al.'s study does, and the accuracy it states, in years. Used only without
    ``data_path``: none of it means anything for another column."""

    max_error: float = 5.0  # Hsu et al.: the mean age within 5 years ...
    noise_bound: float = 1.0  # the poster: the noise within 1 year ...
    lower_bound: float = 18.0  # Shoaran et al.: it recruits adults, so its mean age is at least 18
    pays_participants: bool = True  # Hsu et al.'s premise holds: it pays its participants


DEMO = Demo()


@dataclass(frozen=True)
class ReleaseInputs:
    """The inputs only the reader can state about their release, each in the column's unit,
    resolved once: None where the reader gave none and no safe value exists (the method that
    needs it then says "not applicable: give ..."); ``said`` tells, for each input not given by
    the reader, where its value came from (the demo's, or derived) or that it is missing."""

    max_error: float | None
    noise_bound: float | None
    lower_bound: float | None
    pays_participants: bool
    adversary_knows_data: bool
    said: dict[str, str] = field(default_factory=dict)


def release_inputs(
    *,
    from_file: bool,
    value_range: Sequence[float],
    max_error: float | None,
    noise_bound: float | None,
    lower_bound: float | None,
    pays_participants: bool | None,
    adversary_knows_data: bool = True,
) -> ReleaseInputs:
    """The reader's inputs resolved: a value given is kept; one not given (None) takes the demo's
    own value on the demo survey, and on a file (``from_file``) is derived where a safe generic
    value exists (the range's lower end as a lower bound of the mean, which no mean lies below)
    or left missing (the accuracy wanted and the noise bound: only the reader knows them).
    Hsu et al.'s premise, that participants are paid, holds for the demo and not for a file
    (an agency pays nobody) unless the reader says otherwise."""
    said: dict[str, str] = {}
    lb = float(value_range[0])

    def pick(name: str, given: float | None, derived: float | None, derived_how: str) -> Any:
        if given is not None:
            return given
        if not from_file:
            value = getattr(DEMO, name)
            if isinstance(value, bool):
                said[name] = f"the demo survey's own: {value}"
            else:
                said[name] = f"the demo survey's own: {value:g} year" + "s" * (value != 1)
            return value
        said[name] = derived_how
        return derived

    return ReleaseInputs(
        max_error=pick("max_error", max_error, None, "not given"),
        noise_bound=pick("noise_bound", noise_bound, None, "not given"),
        lower_bound=pick(
            "lower_bound",
            lower_bound,
            lb,
            f"derived: the range's lower end {lb:g}, which no mean of the column lies below",
        ),
        pays_participants=pick(
            "pays_participants",
            pays_participants,
            False,
            "an agency's premise: it pays nobody (set pays_participants true if you do)",
        ),
        adversary_knows_data=adversary_knows_data,
        said=said,
    )
