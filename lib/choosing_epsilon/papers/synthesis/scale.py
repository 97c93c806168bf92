"""One risk scale for every ε: each method's answer and each deployment's guarantee read as
what an attacker can do (membership, singling out), and the ρ-zCDP rows read four ways."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from choosing_epsilon import composition, risk
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis.methods import NOT_APPLICABLE, has_epsilon

# the numbers of candidates the scale reads singling out among: one of 10, one of 1,000 people
SCALE_CANDIDATES = (10, 1000)


SINGLING_OUT_COLUMNS = [
    f"single_out_{k}_{side}" for k in SCALE_CANDIDATES for side in ("bound", "attained")
]


MEMBERSHIP_COLUMNS = ["advantage", "tpr_at_fpr_1pct", "accuracy_at_half"]


# a deployment's guarantee over a horizon of time: its privacy unit read by
# ``registry.privacy_unit``, the units a person who contributes in every one of them has in the
# horizon, and the composed guarantee's readings (``composition.compose``): the bound, and what a
# composed mechanism attains
HORIZON_COLUMNS = [
    "unit_protects", "unit_period", "units_in_horizon", "advantage_over_horizon",
    "advantage_over_horizon_attained", "tpr_at_fpr_1pct_over_horizon", "horizon_reading",
]  # fmt: skip
RISK_COLUMNS = [
    "row", "kind", "model", "local", "epsilon", "delta", "rho", "mu", *MEMBERSHIP_COLUMNS,
    "reading", *SINGLING_OUT_COLUMNS, "singling_out_reading", *HORIZON_COLUMNS,
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
    found = {k: risk.singling_out(g, k) for k in SCALE_CANDIDATES}
    exact = "exactly the worst case" if found[10].exact else "a lower bound on the worst case"
    return {
        "advantage": advantage,
        "tpr_at_fpr_1pct": risk.tpr_bound(g, 0.01),
        "accuracy_at_half": risk.accuracy_from_advantage(advantage),
        "reading": risk.READINGS[g.model],
        **{f"single_out_{k}_bound": found[k].bound for k in SCALE_CANDIDATES},
        **{f"single_out_{k}_attained": found[k].attained for k in SCALE_CANDIDATES},
        "singling_out_reading": (
            f"bound: 1 − f(1/k), no mechanism with the guarantee does better; attained: "
            f"{found[10].attained_by}, {exact}"
        ),
    }


def _off_the_scale(why: str) -> dict[str, Any]:
    """A row with no guarantee to read: every number of the scale empty, and why."""
    empty = dict.fromkeys([*MEMBERSHIP_COLUMNS, *SINGLING_OUT_COLUMNS], math.nan)
    return empty | {"reading": f"not placed: {why}", "singling_out_reading": f"not placed: {why}"}


def over_horizon(
    g: risk.Guarantee, unit_text: str, horizon_years: float, one_unit: dict[str, Any]
) -> dict[str, Any]:
    """A deployment's guarantee ``g`` per privacy unit (the record's text ``unit_text``) read over
    ``horizon_years``, for a person who contributes in every unit of the horizon: a unit with a
    time period (a day, a month) composes round(periods a year × horizon) times
    (``composition.compose``: exact for ε and (ε, δ), a bracket for ρ-zCDP); a unit without one
    spans the horizon, its reading the one-unit reading. The reading says what it assumes, and
    where the unit is not a person's, that a person's risk can be larger still. ``one_unit``
    holds the one-unit readings (``_on_the_scale``), which a unit without a period keeps."""
    unit = registry.privacy_unit(unit_text)
    found: dict[str, Any] = {"unit_protects": unit.who, "unit_period": unit.period}
    if unit.who == "not stated":
        return found | {
            "units_in_horizon": math.nan,
            "advantage_over_horizon": math.nan,
            "advantage_over_horizon_attained": math.nan,
            "tpr_at_fpr_1pct_over_horizon": math.nan,
            "horizon_reading": "the record states no privacy unit: nothing to read over time",
        }
    k = max(1, round(unit.per_year * horizon_years)) if unit.period else 1
    if not unit.period:  # one unit spans the horizon: its readings, as the scale has them
        how = "the unit has no period of time: one unit's reading holds for the horizon"
        readings = (one_unit["advantage"], one_unit["advantage"], one_unit["tpr_at_fpr_1pct"])
    else:
        composed = composition.compose(g, k)
        readings = (composed.advantage(), composed.advantage_attained(), float(composed.tpr(0.01)))
        every = f"for a person who contributes in every {unit.period}"
        how = (
            f"{k:,} {unit.period}s composed, exactly, {every}"
            if composed.exact
            else f"{k:,} {unit.period}s composed, {every}: a bracket, bound above, attained below"
        )
    if not unit.is_person:
        # a count noun takes its article; a plural ("bounded contributions") takes none
        article = "" if unit.who.endswith("s") else "an " if unit.who[0] in "aeiou" else "a "
        how += (
            f"; the unit protects {article}{unit.who}, not a person: a person's risk can be "
            "larger still, by an amount no registry field states"
        )
    if unit.split_by:
        how += f"; the unit is per {unit.split_by} too: a person in several faces more"
    return found | {
        "units_in_horizon": k,
        "advantage_over_horizon": readings[0],
        "advantage_over_horizon_attained": readings[1],
        "tpr_at_fpr_1pct_over_horizon": readings[2],
        "horizon_reading": how,
    }


def risk_scale(
    methods: pd.DataFrame, deployments: pd.DataFrame, horizon_years: float = 1.0
) -> pd.DataFrame:
    """Every method's answer (a pure ε: each method here sets the ε of a Laplace release) and
    every deployment (its guarantee as the registry states it: ρ-zCDP, μ-GDP, (ε, δ) or pure ε)
    on one scale: the attacker's largest advantage, TPR at FPR 1% and accuracy at prior ½, and
    the chance to single out one of 10 and of 1,000 people, bound and attained; each deployment
    also over ``horizon_years`` (``over_horizon``). A
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
            one_unit = _on_the_scale(g)
            row |= one_unit | over_horizon(g, str(d.unit), horizon_years, one_unit)
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


def _not_accumulating(folder: str | Path, file: str) -> bool:
    """Whether the record ``file`` in ``folder`` says its privacy loss does not accumulate."""
    path = Path(folder) / f"{file}.yaml"
    return bool(file) and path.is_file() and "not accumulate" in path.read_text(encoding="utf-8")


def horizon_sentences(
    scale: pd.DataFrame, deployments: pd.DataFrame, folder: str | Path, horizon_years: float
) -> str:
    """What the readings over ``horizon_years`` say, in Markdown: how many deployments state a unit
    bounded in time, how many of them a person's, and for each record (in ``folder``) that says
    its privacy loss does not accumulate over its units, what that statement covers and what it
    leaves out, with its numbers for one unit and over the horizon."""
    rows = scale[scale.kind == "deployment"].reset_index(drop=True)
    timed = rows[rows.unit_period.fillna("") != ""]
    persons = int((timed.unit_protects == "person").sum())
    years = "a year" if horizon_years == 1 else f"{horizon_years:g} years"
    said = [
        f"{len(timed)} of the {len(rows)} deployments state a privacy unit bounded in time (a day, "
        f"a quarter of a day, a month); {persons} of them protect a person's data in that unit, "
        "the others an event or a bounded number of contributions, where a person's risk can be "
        "larger still, by an amount no registry field states."
    ]
    for row, record in zip(rows.itertuples(), deployments.itertuples()):
        if not row.unit_period or not _not_accumulating(folder, str(record.file)):
            continue
        k = int(float(row.units_in_horizon))  # type: ignore[arg-type]
        low = float(row.advantage_over_horizon_attained)  # type: ignore[arg-type]
        high = float(row.advantage_over_horizon)  # type: ignore[arg-type]
        same = math.isclose(low, high, abs_tol=5e-5)
        over = f"{high:.4f}" if same else f"{low:.4f} to {high:.4f}"
        said.append(
            f"The record of {row.row} says its privacy loss does not accumulate over its units "
            f"({record.unit}): that is true of each unit, whose guarantee is fixed, and of a "
            f"person seen in one unit only. It leaves out a person seen in many: their units are "
            f"separate releases, and an attacker who sees all {k:,} of {years} faces their "
            f"composition, an advantage of {over} against {row.advantage:.4f} for one unit."
        )
    return " ".join(said)
