"""The tables and frames of the Kazan & Reiter (2024) notebook, built from ``risk_profiles`` and
``geometric``: Tables 1 and 5, the Durham County example (Sec. 5), the curves of Figs. 1, 3 and
4, Lee & Clifton's examples (App. D.1), the grid-against-exact comparison, the Monte Carlo
check of the posterior-to-prior ratio, and the authors' own code: its grid search run on the
notebook's profiles and the grid of Fig. 5's lower panel as their plotting script computes it."""

from __future__ import annotations

import math
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from choosing_epsilon import geometric
from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import risk_profiles as rp
from choosing_epsilon import sensitivity as sens

# the derivations, read by the notebook as forensics.derivations
from choosing_epsilon.papers.kazan_reiter_2024 import derivations  # noqa: F401

Row = dict[str, Any]


def geometric_row(epsilon: float, sensitivity: int = 1) -> Row:
    """Table 1's columns for ε: the geometric noise's standard deviation and its mass at zero,
    for integer noise of parameter e^(−ε/Δ) (Eq. 2 at Δ = 1)."""
    per_unit = epsilon / sensitivity
    return {
        "epsilon": epsilon,
        "noise_sd": geometric.noise_sd(per_unit),
        "prob_exact": geometric.prob_exact(per_unit),
    }


def _agree(solved: float, closed: float, where: str) -> None:
    if not math.isclose(solved, closed, rel_tol=1e-9, abs_tol=1e-9):
        raise RuntimeError(
            f"the solver's {solved!r} and the closed form's {closed!r} differ {where}"
        )


def table1(
    r_tildes: Sequence[float], a_tilde: float, q_tilde: float, sensitivity: int
) -> list[Row]:
    """Table 1: profile (15) for each r̃, by Theorem 5 and by the solver (they must agree), with
    the constant profile's ε (Theorem 3) beside it."""
    rows = []
    for index, r in enumerate(r_tildes):
        found = rp.minimise(rp.fixed_q_profile(a_tilde, q_tilde, r), q_range=(q_tilde, q_tilde))
        closed = rp.fixed_q_epsilon(a_tilde, q_tilde, r)
        _agree(found.epsilon, closed, f"at r̃ = {r}")
        constant = rp.constant_epsilon(r)
        rows.append(
            {"agency": string.ascii_uppercase[index], "r_tilde": r, "a_tilde": a_tilde}
            | {"q_tilde": q_tilde, **geometric_row(closed, sensitivity), "argmin_p": found.p}
            | {"constant_profile_epsilon": constant, "constant_over_table": constant / closed}
        )
    return rows


def table5(
    a_tildes: Sequence[float], p_tilde: float, r_tilde: float, sensitivity: int
) -> list[Row]:
    """Table 5: profile (16) for each ã, by Theorem 4 and by the solver (they must agree)."""
    rows = []
    for index, a in enumerate(a_tildes):
        found = rp.minimise(rp.fixed_p_profile(a, p_tilde, r_tilde), p_range=(p_tilde, p_tilde))
        closed = rp.fixed_p_epsilon(a, p_tilde, r_tilde)
        _agree(found.epsilon, closed, f"at ã = {a}")
        rows.append(
            {"agency": string.ascii_uppercase[index], "a_tilde": a, "p_tilde": p_tilde}
            | {"r_tilde": r_tilde, **geometric_row(closed, sensitivity), "argmin_q": found.q}
            | {"on_the_case_boundary": math.isclose(p_tilde * r_tilde, a)}
        )
    return rows


def agency_claims(prefix: str, rows: Sequence[Row], n_paper: int = 3) -> dict[str, float]:
    """The ledger's values ``prefix``_A_epsilon, ... for the paper's agencies (NaN where the
    run has fewer)."""
    values = {}
    for index in range(n_paper):
        for key in ("epsilon", "noise_sd", "prob_exact"):
            value = rows[index][key] if index < len(rows) else math.nan
            values[f"{prefix}_{string.ascii_uppercase[index]}_{key}"] = value
    return values


def crossing(count: int, threshold: int) -> tuple[int, bool]:
    """How far the noise must go for the release of a true ``count`` to land on the other side of
    ``threshold``, and whether upwards: k = count − threshold steps down, to the threshold or
    below, for a count above it (P(noise ≤ −k)); k = threshold − count + 1 steps up, past it, for
    a count at or below it (P(noise ≥ k), the same as P(noise ≤ −k) by symmetry)."""
    if count > threshold:
        return count - threshold, False
    return threshold - count + 1, True


def crossing_text(count: int, threshold: int) -> str:
    """``crossing`` as the probability it names: "P(noise ≤ −k)" or "P(noise ≥ k)"."""
    steps, upwards = crossing(count, threshold)
    return f"P(noise ≥ {steps})" if upwards else f"P(noise ≤ −{steps})"


def switching(epsilon: float, count: int, threshold: int) -> float:
    """The chance that a count released with the geometric mechanism at ``epsilon`` falls on the
    other side of ``threshold`` from the true ``count`` (``crossing``)."""
    steps, _ = crossing(count, threshold)
    return geometric.prob_below(epsilon, -steps)


def durham(
    births: int,
    target_rate: float,
    deviations: Sequence[float],
    r_tildes: Sequence[float],
    a_tildes: Sequence[float],
    sensitivity: int,
) -> tuple[pd.DataFrame, int]:
    """Example 3 (Fig. 2): for each profile (17), ε = log((r̃ − ã)/(1 − ã)) (Theorem 5, q̃ = 1),
    the RMSE and the probability that the release switches the decision for a true rate ``d`` per
    1,000 above the target: released at or below the target count, or, where the true count
    rounds onto the target count (``d`` under one birth), released above it; also the target
    count itself."""
    target_count = math.floor(target_rate * births / 1000 + 1e-9)
    rows = []
    for r in r_tildes:
        for a in a_tildes:
            eps = math.log((r - a) / (1 - a))
            if a > 0:
                solved = rp.minimise(rp.fixed_q_profile(a, 1, r), q_range=(1, 1)).epsilon
                _agree(solved, eps, f"at ã = {a}, r̃ = {r}")
            row = {"label": f"{r:g}\n{a:g}", "r_tilde": r, "a_tilde": a, "epsilon": eps}
            row["rmse"] = geometric_row(eps, sensitivity)["noise_sd"]
            for d in deviations:
                count = round((target_rate + d) * births / 1000)
                row[f"switch_{d:g}"] = switching(eps / sensitivity, count, target_count)
            rows.append(row)
    return pd.DataFrame(rows), target_count


def figure1_prior(profile: rp.Profile, along: str, fixed: float) -> np.ndarray:
    """Fig. 1's priors along ``along`` ("p" or "q", the other held at ``fixed``): the paper's
    0.001, 0.002, ..., 0.999, or, where fewer than 100 of those have a finite εᵢ (a large r̃
    binds nothing above a small prior), 999 evenly spaced priors up to the largest with a finite
    εᵢ, so the curve is drawn where it exists."""
    base = np.linspace(0.001, 0.999, 999)
    fine = np.geomspace(1e-12, 1.0, 4001)
    counts = []
    for grid in (base, fine):
        p, q = (grid, fixed) if along == "p" else (fixed, grid)
        r_star = np.broadcast_to(np.asarray(profile(p, q), dtype=float), grid.shape)
        counts.append(np.isfinite(rp.epsilon_grid(p, q, r_star)))
    if counts[0].sum() >= 100 or not counts[1].any():
        return base
    high = float(fine[counts[1]].max())
    return np.linspace(high / 999, high, 999)


def curve(
    prior: np.ndarray, p: Any, q: Any, profile: rp.Profile, name: str, minimum: rp.Solution | None
) -> pd.DataFrame:
    """A profile along one prior (``p`` and ``q`` arrays or numbers, one of them ``prior``), with
    εᵢ there, and a last row at the solver's minimum when given (``minimum`` True); the minimiser
    joins the grid."""
    if minimum is not None:
        # the minimiser joins the grid, so the drawn curve passes through its marked minimum
        at = minimum.p if np.ndim(p) else minimum.q
        if np.isfinite(at) and 0 < at <= 1:
            prior = np.union1d(prior, [at])
            p, q = (prior, q) if np.ndim(p) else (p, prior)
    r_star = np.broadcast_to(np.asarray(profile(p, q), dtype=float), prior.shape)
    frame = pd.DataFrame(
        {"agency": name, "prior": prior, "r_star": r_star, "epsilon": rp.epsilon_grid(p, q, r_star)}
    )
    frame["minimum"] = False
    if minimum is None:
        return frame
    at = minimum.p if np.ndim(p) else minimum.q
    best = {"agency": name, "prior": at, "epsilon": minimum.epsilon, "minimum": True}
    best["r_star"] = float(np.asarray(profile(minimum.p, minimum.q)))
    return pd.concat([frame, pd.DataFrame([best])], ignore_index=True)


def table1_curves(rows: Sequence[Row], a_tilde: float, q_tilde: float) -> pd.DataFrame:
    """Fig. 3's curves: each Table 1 agency's profile (15) along p at q = ``q_tilde`` with its
    minimum marked, and its constant baseline, on a grid of priors that reaches below the smallest
    minimiser."""
    low = min([0.01, *(row["argmin_p"] / 2 for row in rows)])
    prior = np.geomspace(low, 1, 400)
    frames = []
    for row in rows:
        r = row["r_tilde"]
        agency = rp.fixed_q_profile(a_tilde, q_tilde, r)
        found = rp.Solution(row["epsilon"], row["argmin_p"], q_tilde)
        name = f"agency {row['agency']} (r̃ = {r:g})"
        frames.append(curve(prior, prior, q_tilde, agency, name, found))
        baseline = rp.constant_profile(r)
        frames.append(curve(prior, prior, q_tilde, baseline, f"baseline r̃ = {r:g}", None))
    return pd.concat(frames, ignore_index=True)


def table5_curves(rows: Sequence[Row], p_tilde: float, r_tilde: float) -> pd.DataFrame:
    """Fig. 4's curves: the constant baseline r* = ``r_tilde`` and each Table 5 agency's profile
    (32) along q at p = ``p_tilde`` with its minimum marked, on a grid of priors that reaches below
    the smallest minimiser."""
    low = min([0.01, *(row["argmin_q"] / 2 for row in rows)])
    prior = np.geomspace(low, 1, 400)
    baseline = rp.constant_profile(r_tilde)
    frames = [curve(prior, p_tilde, prior, baseline, "baseline", None)]
    for row in rows:
        agency = rp.fixed_p_profile(row["a_tilde"], p_tilde, r_tilde)
        found = rp.Solution(row["epsilon"], p_tilde, row["argmin_q"])
        name = f"agency {row['agency']} (ã = {row['a_tilde']:g})"
        frames.append(curve(prior, p_tilde, prior, agency, name, found))
    return pd.concat(frames, ignore_index=True)


def smaller_surveys(
    a_tilde: float, p_tildes: Sequence[float], r_tilde: float
) -> tuple[list[rp.Profile], list[float], list[float]]:
    """App. C.2: profile (32) at each surveyed share of ``p_tildes``, its ε by Theorem 4 and by
    the general solver."""
    profiles = [rp.fixed_p_profile(a_tilde, p, r_tilde) for p in p_tildes]
    epsilons = [rp.fixed_p_epsilon(a_tilde, p, r_tilde) for p in p_tildes]
    solved = [rp.minimise(f, p_range=(p, p)).epsilon for f, p in zip(profiles, p_tildes)]
    return profiles, epsilons, solved


def unbounded_from(r_tilde: float, q: float = 1.0) -> float:
    """The smallest p at which r*(p, ``q``) = ``r_tilde`` binds nothing (Theorem 2's ε is
    infinite from there on), by bisection on the sign of c = 1/r* − pq."""
    lo, hi = 1e-9, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if math.isinf(rp.epsilon_at(mid, q, r_tilde)) else (mid, hi)
    return hi


def exact_switching(
    a_tilde: float, r_tilde: float, true_count: int, threshold: int
) -> tuple[Fraction, Fraction, Fraction, int, Fraction]:
    """Profile (17)'s switching probability in exact fractions of the decimals as given (repr is
    the shortest string that reads back the same), at Δ = 1: ã, r̃, e^(−ε) = (1 − ã)/(r̃ − ã), the
    steps k the noise must take to cross the threshold (``crossing``), and the chance it does,
    α^k/(1 + α)."""
    a = Fraction(repr(float(a_tilde)))
    r = Fraction(repr(float(r_tilde)))
    alpha = (1 - a) / (r - a)
    steps, _ = crossing(true_count, threshold)
    return a, r, alpha, steps, alpha**steps / (1 + alpha)


def exact_text(value: Fraction, max_digits: int = 40) -> str:
    """An exact fraction as written (``1/10``), or, when its numerator or denominator would run
    past ``max_digits`` digits (α^k for a true count k thousands of births above the threshold),
    its float and the number of digits the fraction would take."""
    bits = max(value.numerator.bit_length(), value.denominator.bit_length())
    if bits * math.log10(2) < max_digits:
        return str(value)
    digits = math.ceil(value.denominator.bit_length() * math.log10(2))
    size = float(value)
    shown = f"{size:.6g}" if size > 0 or value == 0 else "below 1e-308"  # past the least float
    return f"{shown} (a fraction whose denominator has about {digits:,} digits)"


def lee_clifton_examples(students: pd.DataFrame, n: int, a_tilde: float) -> pd.DataFrame:
    """Lee & Clifton's own ε (their Eq. 7, the paper's Eq. 39) for the mean and median of each
    column of their database, at ρ = ã; empty when the database has not ``n`` people."""
    rows = []
    if len(students) == n:
        for attribute in ("absence_days", "school_year"):
            values = students[attribute].to_numpy(float)
            for query in ("mean", "median"):
                delta_f = sens.unbounded_sensitivity(values, query)
                delta_v = float(np.ptp(sens.world_answers(values, query)))
                epsilon = pw.epsilon_upper_bound(n, delta_v, delta_f, a_tilde)
                rows.append([attribute, query, delta_f, delta_v, epsilon])
    columns = ["attribute", "query", "delta_f", "delta_v", "lee_clifton_epsilon"]
    return pd.DataFrame(rows, columns=columns)


def grid_comparison(cases: Sequence[tuple[str, rp.Profile, float]]) -> pd.DataFrame:
    """The authors' grid search (step 10⁻³) against each exact answer."""
    rows = []
    for name, profile, exact in cases:
        grid = rp.grid_search(profile)
        rows.append(
            {"profile": name, "exact_epsilon": exact, "grid_epsilon": grid.epsilon}
            | {"grid_minus_exact": grid.epsilon - exact, "grid_p": grid.p, "grid_q": grid.q}
            | {"same_to_2_decimals": round(grid.epsilon, 2) == round(exact, 2)}
        )
    return pd.DataFrame(rows)


# the fewest releases above the threshold a Monte Carlo share is tested with (z)
MIN_RELEASES = 30


def monte_carlo(
    cases: Sequence[tuple[str, float, float, float, rp.Profile]],
    n_draws: int,
    rng: np.random.Generator,
) -> pd.DataFrame:
    """For each (name, ε, p, q, profile): r*(p, q), Theorem 1's bound, the exact largest ratio of
    the signed count over releases −20..20, and its Monte Carlo estimate over releases t* ≥ 1."""
    rows = []
    for name, eps, p, q, profile in cases:
        sim = rp.simulate_signed_count_risk(eps, p, q, n_draws, rng)
        exact = rp.signed_count_risk(eps, p, q, np.arange(-20, 21))
        rows.append(
            {"profile": name, "epsilon": eps, "p": p, "q": q}
            | {
                "r_star": float(np.asarray(profile(p, q))),
                "theorem1_bound": rp.relative_risk_bound(eps, p, q),
            }
            | {"exact_max_ratio": float(exact.max()), "simulated_ratio": sim.ratio}
            | {"standard_error": sim.standard_error, "releases_used": sim.releases}
        )
    table = pd.DataFrame(rows)
    # a share estimated from fewer releases has no normal approximation (and from 1 or 2 often a
    # standard error of 0): its z is left undefined, not ±∞
    enough = table.releases_used >= MIN_RELEASES
    table["z"] = ((table.simulated_ratio - table.r_star) / table.standard_error).where(enough)
    return table


def monte_carlo_summary(table: pd.DataFrame) -> str:
    """The largest |z| of ``monte_carlo``'s rows that have one, and how many rows have none."""
    line = f"largest |z| of the simulation: {table.z.abs().max():.2f}"
    unchecked = int(table.z.isna().sum())
    if unchecked:
        line += (
            f" ({unchecked} of {len(table)} rows have fewer than {MIN_RELEASES} usable releases: "
            "no z, not checked)"
        )
    return line


def run_profile(
    form: str,
    r_tilde: float,
    a_tilde: float,
    p_tilde: float,
    q_tilde: float,
    box_p: Sequence[float],
    box_q: Sequence[float],
) -> tuple[rp.Solution, float]:
    """A run's own profile of the given form: the solver's answer and Table 4's closed form (NaN
    for the two-dimensional profile, which has none)."""
    forms: dict[str, tuple[Callable[[], rp.Profile], dict[str, Any], Callable[[], float] | None]]
    forms = {
        "constant": (
            lambda: rp.constant_profile(r_tilde),
            {},
            lambda: rp.constant_epsilon(r_tilde),
        ),
        "fixed_q": (
            lambda: rp.fixed_q_profile(a_tilde, q_tilde, r_tilde),
            {"q_range": (q_tilde, q_tilde)},
            lambda: rp.fixed_q_epsilon(a_tilde, q_tilde, r_tilde),
        ),
        "fixed_p": (
            lambda: rp.fixed_p_profile(a_tilde, p_tilde, r_tilde),
            {"p_range": (p_tilde, p_tilde)},
            lambda: rp.fixed_p_epsilon(a_tilde, p_tilde, r_tilde),
        ),
        "box": (
            lambda: rp.box_profile(r_tilde, (box_p[0], box_p[1]), (box_q[0], box_q[1])),
            {"p_range": (box_p[0], box_p[1]), "q_range": (box_q[0], box_q[1])},
            lambda: rp.box_epsilon(r_tilde, (box_p[0], box_p[1]), (box_q[0], box_q[1])),
        ),
        "two_dimensional": (lambda: rp.two_dimensional_profile(a_tilde, r_tilde), {}, None),
    }
    if form not in forms:
        raise ValueError(f"form must be one of {sorted(forms)}, got {form!r}")
    make, ranges, closed = forms[form]
    return rp.minimise(make(), **ranges), (closed() if closed else math.nan)


# --- the authors' grid search, run on the notebook's profiles ---------------------------------

# The authors' public repository (no licence file: their code is run, never copied) and the commit
# whose find_eps.R ``tools/authors_code.py`` runs; the file's git blob id identifies it in any copy.
AUTHORS_REPOSITORY = "zekicankazan/choosing_dp_epsilon"
AUTHORS_COMMIT = "2e2bb5d2fd23325800be93b4ef784bc0c8959b2d"
AUTHORS_FIND_EPS_BLOB = "a6806d2e7f5cb25c50bd9fd2dddf308b90123066"
GRID_STEP = 1e-3  # find_eps's default grid, seq(1e-3, 1, 1e-3) on each axis


@dataclass(frozen=True)
class AuthorsGrid:
    """A grid of priors and the εᵢ the authors' code computes at each point."""

    p: np.ndarray
    q: np.ndarray
    epsilon: np.ndarray


def authors_fig5_epsilon(points: int = 200) -> AuthorsGrid:
    """εᵢ of Fig. 5's lower panel as code_for_paper.R computes it, before its truncation to 4:
    on the grid 10^seq(-2, 0, length.out = 200) in p and q, the profile max(0.25/(pq), 3),
    Theorem 2's expression with q = 1 taken apart (if_else(q == 1, ...)), in floating point, so
    that a log of a negative number is NaN and log(−0) is −∞, as in R."""
    axis = 10 ** np.linspace(-2, 0, points)
    pp, qq = np.meshgrid(axis, axis, indexing="ij")
    r = np.maximum(0.25 / (pp * qq), 3.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        at_q_one = np.log((1 - pp) / (1 / r - pp))
        root = np.sqrt((1 - pp) ** 2 + 4 * pp * (1 - qq) * (1 / r - pp * qq)) - (1 - pp)
        general = np.log(2 * pp * (1 - qq) / root)
    return AuthorsGrid(pp.ravel(), qq.ravel(), np.where(qq == 1, at_q_one, general).ravel())


@dataclass(frozen=True)
class ProfileSpec:
    """A risk profile the notebook evaluates, by form and parameters, so that the same profile can
    be written for the authors' R code and built here. Forms: ``constant`` (Eq. 14, r), ``fixed_q``
    (Eq. 15, a, q, r), ``fixed_p`` (Eq. 16, a, p, r), ``two_dimensional`` (Eq. 33, a, r), ``box``
    (Eq. 25, r, p0, p1, q0, q1; a point profile is a box of one point), ``difference`` (Eq. 28, b).
    """

    name: str
    form: str
    values: tuple[tuple[str, float], ...]

    def __getitem__(self, key: str) -> float:
        return dict(self.values)[key]

    @property
    def parameters(self) -> str:
        """The parameters as one text field, ``key=value`` joined by ``;`` (shortest repr)."""
        return ";".join(f"{k}={v!r}" for k, v in self.values)

    def profile(self) -> rp.Profile:
        """The profile as a function of (p, q)."""
        params = dict(self.values)
        builders: dict[str, Callable[[], rp.Profile]] = {
            "constant": lambda: rp.constant_profile(params["r"]),
            "fixed_q": lambda: rp.fixed_q_profile(params["a"], params["q"], params["r"]),
            "fixed_p": lambda: rp.fixed_p_profile(params["a"], params["p"], params["r"]),
            "two_dimensional": lambda: rp.two_dimensional_profile(params["a"], params["r"]),
            "box": lambda: rp.box_profile(
                params["r"], (params["p0"], params["p1"]), (params["q0"], params["q1"])
            ),
            "difference": lambda: rp.difference_profile(params["b"]),
        }
        if self.form not in builders:
            raise ValueError(f"form must be one of {sorted(builders)}, got {self.form!r}")
        return builders[self.form]()

    def exact(self) -> rp.Solution:
        """Eq. (13) solved by the package's optimiser over the priors the profile bounds."""
        params = dict(self.values)
        ranges: dict[str, tuple[float, float]] = {}
        if self.form == "fixed_q":
            ranges = {"q_range": (params["q"], params["q"])}
        elif self.form == "fixed_p":
            ranges = {"p_range": (params["p"], params["p"])}
        elif self.form == "box":
            ranges = {
                "p_range": (params["p0"], params["p1"]),
                "q_range": (params["q0"], params["q1"]),
            }
        return rp.minimise(self.profile(), **ranges)


def authors_code_profiles(values: Mapping[str, Any]) -> list[ProfileSpec]:
    """Every risk profile whose ε the notebook finds at the given parameters (its defaults: the
    paper's), once each, in the notebook's order; a profile that several sections use is named
    after all of them."""
    specs: dict[tuple[str, tuple[tuple[str, float], ...]], list[str]] = {}

    def add(name: str, form: str, **params: float) -> None:
        key = (form, tuple((k, float(x)) for k, x in params.items()))
        specs.setdefault(key, []).append(name)

    for letter, r in zip(string.ascii_uppercase, values["table1_r_tildes"]):
        add(
            f"Table 1, agency {letter}",
            "fixed_q",
            a=values["table1_a_tilde"],
            q=values["table1_q_tilde"],
            r=r,
        )
    for r in (1.5, 3, 6):
        add(f"Sec. 4, constant r~ = {r:g}", "constant", r=r)
    add(
        "Fig. 1, Agency 1",
        "fixed_q",
        a=values["fig1_a_tilde"],
        q=values["table1_q_tilde"],
        r=values["table5_r_tilde"],
    )
    add(
        "Fig. 1, Agency 2",
        "fixed_p",
        a=values["fig1_a_tilde"],
        p=values["table5_p_tilde"],
        r=values["table5_r_tilde"],
    )
    add(
        "Fig. 1, Agency 1 as the authors draw it (q~ = 0.999)",
        "fixed_q",
        a=values["fig1_a_tilde"],
        q=0.999,
        r=values["table5_r_tilde"],
    )
    for r in (1.2, 1.5, 1.9, 1.99):
        add(f"Sec. 4, point profile r' = {r:g}", "box", r=r, p0=0.5, p1=0.5, q0=1, q1=1)
    for r in values["durham_r_tildes"]:
        for a in values["durham_a_tildes"]:
            name = f"Sec. 5 (Fig. 2), r~ = {r:g}, a~ = {a:g}"
            if a == 0:  # profile (17) at a~ = 0: r~ at q = 1, every p
                add(name, "box", r=r, p0=0, p1=1, q0=1, q1=1)
            else:
                add(name, "fixed_q", a=a, q=1, r=r)
    for letter, a in zip(string.ascii_uppercase, values["table5_a_tildes"]):
        add(
            f"Table 5, agency {letter}",
            "fixed_p",
            a=a,
            p=values["table5_p_tilde"],
            r=values["table5_r_tilde"],
        )
    add(
        f"App. C.2, constant r~ = {values['table5_r_tilde']:g}",
        "constant",
        r=values["table5_r_tilde"],
    )
    for p_t in values["smaller_p_tildes"]:
        add(
            f"App. C.2, p~ = {p_t:g}",
            "fixed_p",
            a=values["table5_a_tildes"][0],
            p=p_t,
            r=values["table5_r_tilde"],
        )
    add(
        "App. C.3 (Fig. 5)",
        "two_dimensional",
        a=values["two_dimensional_a_tilde"],
        r=values["two_dimensional_r_tilde"],
    )
    n = values["lc_n"]
    add(
        "App. D.1, Lee & Clifton's setting",
        "box",
        r=n * values["lc_a_tilde"],
        p0=1 / n,
        p1=1 / n,
        q0=1,
        q1=1,
    )
    _add_run_profile(values, add)
    add("Exercise 1", "difference", b=0.05)
    add("Exercise 2", "fixed_p", a=0.025, p=0.01, r=3)
    add("Exercise 3", "fixed_q", a=0.5, q=1, r=10)
    return [ProfileSpec("; ".join(names), form, params) for (form, params), names in specs.items()]


def _add_run_profile(params: Mapping[str, Any], add: Callable[..., None]) -> None:
    """The run's own profile (parameters ``profile``, ``profile_*``), where the values name it."""
    form, name = params.get("profile"), "the run's own profile"
    r, a = params.get("profile_r_tilde"), params.get("profile_a_tilde")
    if form == "constant":
        add(name, "constant", r=r)
    elif form == "fixed_q":
        add(name, "fixed_q", a=a, q=params["profile_q_tilde"], r=r)
    elif form == "fixed_p":
        add(name, "fixed_p", a=a, p=params["profile_p_tilde"], r=r)
    elif form == "two_dimensional":
        add(name, "two_dimensional", a=a, r=r)
    elif form == "box":
        (p0, p1), (q0, q1) = params["box_p_range"], params["box_q_range"]
        add(name, "box", r=r, p0=p0, p1=p1, q0=q0, q1=q1)


def parse_profile(name: str, form: str, parameters: str) -> ProfileSpec:
    """The ``ProfileSpec`` a row of data/authors_code/kazan_reiter_find_eps.csv names."""
    pairs = [item.split("=") for item in parameters.split(";")]
    return ProfileSpec(name, form, tuple((k, float(v)) for k, v in pairs))


def authors_comparison(authors: pd.DataFrame) -> pd.DataFrame:
    """Each profile the authors' find_eps.R was run on (the committed table), beside the package's
    exact answer: ε and the minimiser, and what the grid's step costs."""
    rows = []
    for row in authors.astype(str).to_dict("records"):
        spec = parse_profile(row["profile"], row["form"], row["parameters"])
        exact = spec.exact()
        found = row["outcome"] == "found"
        grid = float(row["grid_epsilon"]) if found else math.inf
        rows.append(
            {"profile": row["profile"], "authors_epsilon": grid, "exact_epsilon": exact.epsilon}
            | {"grid_minus_exact": grid - exact.epsilon if found else math.inf}
            | {"authors_p": float(row["grid_p"]) if found else math.nan, "exact_p": exact.p}
            | {"authors_q": float(row["grid_q"]) if found else math.nan, "exact_q": exact.q}
            | {"grid_holds_a_binding_point": found}
        )
    return pd.DataFrame(rows)


def figure2_values(durham: pd.DataFrame, deviations: Sequence[float]) -> dict[str, float]:
    """The Durham table's values under the ids of the ledger's Fig. 2 readings (one bar each)."""
    values = {}
    for _, row in durham.iterrows():
        key = f"r{row.r_tilde:g}_a{row.a_tilde:g}"
        values[f"fig2_epsilon_{key}"] = float(row.epsilon)
        values[f"fig2_rmse_{key}"] = float(row.rmse)
        for d in deviations:
            values[f"fig2_switch{d:g}_{key}"] = float(row[f"switch_{d:g}"])
    return values


def figure_values(
    agency1: rp.Solution,
    agency2: rp.Solution,
    durham: pd.DataFrame,
    deviations: Sequence[float],
    table1_rows: Sequence[Row],
    table5_rows: Sequence[Row],
) -> dict[str, float]:
    """The notebook's computed values under the ids of the ledger's readings of Figs. 1-4: the
    curves' minima and kinks, Fig. 2's bars, Figs. 3 and 4's colours at the minima (Table 1's
    and Table 5's ε), levels r̃ and kinks."""
    values = {
        "fig1_agency1_min_epsilon": agency1.epsilon,
        "fig1_agency1_kink": agency1.p,
        "fig1_agency1_argmin": agency1.p,
        "fig1_agency2_min_epsilon": agency2.epsilon,
        "fig1_agency2_kink": agency2.q,
    }
    values |= figure2_values(durham, deviations)
    for row in table1_rows:
        key = f"fig3_agency{row['agency']}"
        values |= {f"{key}_epsilon": row["epsilon"], f"{key}_r_star": row["r_tilde"]}
        values[f"{key}_kink"] = row["argmin_p"]
    for row in table5_rows:
        key = f"fig4_agency{row['agency']}"
        values |= {f"{key}_epsilon": row["epsilon"], f"{key}_r_star": row["r_tilde"]}
        values[f"{key}_kink"] = row["argmin_q"]
    return values


def figure3_colour_scales(r_tildes: Sequence[float], a_tilde: float) -> dict[str, Row]:
    """Fig. 3 as the authors' code colours it: each row of panels gets its own colour scale,
    from its smallest finite εᵢ to its largest (εᵢ cut at 4), over the priors 10^seq(−2, 0,
    length 1000), and only the lower row's colour bar is shown. For each baseline (upper row):
    its εᵢ at p = 0.01, and the value the lower row's bar gives its colour."""
    prior = 10 ** np.linspace(-2, 0, 1000)

    def eps(r_star: np.ndarray) -> np.ndarray:  # as the authors' code: log((1−p)/(1/r* − p))
        with np.errstate(all="ignore"):
            value = np.minimum(np.log((1 - prior) / (1 / r_star - prior)), 4.0)
        return value[np.isfinite(value)]

    upper = np.concatenate([eps(np.full_like(prior, r)) for r in r_tildes])
    lower = np.concatenate(
        [eps(np.where(prior <= a_tilde / r, a_tilde / prior, r)) for r in r_tildes]
    )
    rows: dict[str, Row] = {}
    for k, r in enumerate(r_tildes):
        if not (1 / r > 0.01 and upper.size and lower.size and np.ptp(upper) > 0):
            # r̃ ≥ 100: the baseline binds nothing at p = 0.01 (r̃ ≥ 1/p), εᵢ is infinite there
            # and has no colour; or no finite εᵢ to make a scale from
            note = f"at r~ = {r:g} the baseline's epsilon_i at p = 0.01 is infinite: no colour"
            rows[f"fig3_baseline{k + 1}_left_epsilon"] = {
                "value": math.inf if 1 / r <= 0.01 else math.nan,
                "note": note,
                "slip": None,
            }
            continue
        true = math.log((1 - 0.01) / (1 / r - 0.01))
        share = (true - upper.min()) / (upper.max() - upper.min())
        shown = lower.min() + share * (lower.max() - lower.min())
        note = (
            f"the upper row has a colour scale of its own, from {upper.min():.4f} to "
            f"{upper.max():g}, but the bar shown is the lower row's, from {lower.min():.4f} to "
            f"{lower.max():g}: epsilon_i = {true:.4f} at p = 0.01 takes the colour that the bar "
            f"gives {shown:.4f}"
        )
        rows[f"fig3_baseline{k + 1}_left_epsilon"] = {"value": true, "note": note, "slip": shown}
    return rows
