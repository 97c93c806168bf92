"""The answer to "which ε should I use?" for the reader's release: one object (``Answer``),
computed once from the table of methods, the risk scale and the noise for each stated risk, and
rendered as the notebook's opening (``Answer.markdown``)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from choosing_epsilon import calibration, composition, risk
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis.methods import Feasibility, has_epsilon
from choosing_epsilon.papers.synthesis.release import Column, ReleaseInputs, Survey
from choosing_epsilon.papers.synthesis.scale import SCALE_CANDIDATES

NAME_WIDTH = 48  # the longest deployment name the answer's prose holds; the table holds it whole


@dataclass(frozen=True)
class Reading:
    """What an attacker can do under a guarantee, as a row of the answer's table: ``name`` heads
    the row, and ``at`` reads a guarantee, printed to the precision its computation guarantees.
    A blind guess (ε = 0) is read the same way, for the row's heading."""

    name: str
    at: Callable[[Read], str]

    @property
    def heading(self) -> str:
        """The row's heading, with what a blind guess gets."""
        return f"{self.name} (a blind guess: {self.at(risk.pure(0.0))})"


# what the answer reads an attacker on: one release's guarantee, or k releases composed
Read = risk.Guarantee | composition.Composed


def _advantage(g: Read) -> float:
    return g.advantage() if isinstance(g, composition.Composed) else risk.advantage(g)


def _advantage_text(g: Read) -> str:
    return f"{_advantage(g):.3g}"


def _tpr_text(g: Read, fpr: float = 0.01) -> str:
    tpr = float(g.tpr(fpr)) if isinstance(g, composition.Composed) else risk.tpr_bound(g, fpr)
    if tpr == fpr or f"{tpr:.4g}" != f"{fpr:.4g}":
        return f"{tpr:.4g}"
    return f"{fpr:g} + {tpr - fpr:.2g}"  # at a tiny ε the TPR rounds to the FPR: say by how much


def _guess_text(g: Read) -> str:
    return risk.in_100(risk.accuracy_from_advantage(_advantage(g)))


def _singling_out_text(g: Read, k: int, side: str) -> str:
    found = g.singling_out(k) if isinstance(g, composition.Composed) else risk.singling_out(g, k)
    value = float(getattr(found, side))
    return "none computed" if math.isnan(value) else f"{value:.4g}"


# The rows of the answer's table that read what an attacker can do at the ends of the interval,
# in plain words first; the terms of the field come lower, each explained where it first appears.
# A new reading is one more entry (its name, and how it reads a guarantee).
READINGS: tuple[Reading, ...] = (
    Reading("how often a guess whether a person took part is right, from even odds", _guess_text),
    Reading(
        "by how much the share of those who took part that the best test flags exceeds the share "
        "of the others it flags (its advantage, TPR − FPR)",
        _advantage_text,
    ),
    Reading(
        "share of those who took part that a test flags while flagging 1% of the others (its "
        "true-positive rate, TPR, at false-positive rate, FPR, 1%)",
        _tpr_text,
    ),
    *(
        Reading(f"chance to single out one of {k:,} equally likely people, {what}", partial)
        for k in SCALE_CANDIDATES
        for what, partial in (
            (
                f"at most (the test's TPR at FPR 1/{k:,}, 1 − f(1/{k:,}) on the trade-off curve "
                "f of the guarantee)",
                functools.partial(_singling_out_text, k=k, side="bound"),
            ),
            (
                "reached by a mechanism with this ε (k-ary randomized response: it reports the "
                "true one of k with the largest probability ε allows; no ε-DP mechanism does "
                "better)",
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


@dataclass(frozen=True)
class Deployed:
    """The deployments that state a guarantee, read at one ε: how many allow a larger advantage,
    of how many, and the strictest of them all (the smallest advantage; ties by label), by its
    full name."""

    above: int
    count: int
    strictest: str
    strictest_advantage: float

    def sentence(self, what: str) -> str:
        """How many allow more than the release ``what`` ("ε = 0.5 does") does, and which is the
        strictest of all, in words true whatever the counts."""
        short = registry.in_whole_words(self.strictest, NAME_WIDTH)
        if self.count == 1:
            more = "more" if self.above else "no more"
            return (
                f"the one published deployment that states a guarantee ({short}) allows {more}: "
                f"{self.strictest_advantage:.3g}"
            )
        share = {0: "none", self.count: "all"}.get(self.above, f"{self.above}")
        return (
            f"{share} of the {self.count} published deployments that state a guarantee allow "
            f"more than {what}; the strictest of them all, {short}, allows "
            f"{self.strictest_advantage:.3g}"
        )


def deployed_at(
    advantage: float, scale: pd.DataFrame, deployments: pd.DataFrame
) -> Deployed | None:
    """The deployments on ``scale`` (``risk_scale`` of ``deployments``, in its order) beside a
    release whose largest ``advantage`` is given; None where none states a guarantee."""
    rows = scale[scale.kind == "deployment"].reset_index(drop=True)
    if list(rows.row) != list(deployments.label):
        raise ValueError("deployments must be the table the risk scale was built from")
    stated = rows[rows.advantage.notna()]
    if not len(stated):
        return None
    least = stated.sort_values(["advantage", "row"], kind="stable").index[0]
    record = deployments.iloc[least]
    name = registry.full_name(str(record.Organization), str(record.Context)) or str(record.label)
    above = int((stated.advantage > advantage).sum())
    return Deployed(above, len(stated), name, float(rows.advantage[least]))


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
                f"{lap['noise_aware']:.4g} {survey.unit}; the standard route needs "
                f"{_times(float(gauss['noise_ratio']), 'Gaussian', float(gauss['delta']))} and "
                f"{_times(float(lap['noise_ratio']), 'Laplace', 0.0)}",
            )
        )
    rows += [
        (f"noise for {target}", f"none: it does not apply ({why})")
        for target, why in (skipped or {}).items()
    ]
    return rows


STANDARD_ROUTE = (
    "the standard route",
    "choose the ε whose worst case over every (ε, δ) mechanism allows the stated risk, then the "
    "least noise with that ε; calibrating to the risk reads the mechanism's own trade-off curve "
    "instead",
)


@dataclass(frozen=True)
class Answer:
    """The answer to "which ε should I use?" for the reader's release, computed once: the table
    of methods, the interval of ε they leave, the risk scale with the deployments, and the noise
    for each stated risk; ``markdown`` renders it, and the notebook's sections show its parts."""

    survey: Survey
    methods: pd.DataFrame
    window: Feasibility
    scale: pd.DataFrame
    deployments: pd.DataFrame
    calibrated: pd.DataFrame | None = None
    skipped: Mapping[str, str] | None = None
    stated: ReleaseInputs | None = None  # what the reader states, and where the rest came from
    data: Column | None = None  # the private data, as read once
    releases: int = 1  # how many times the mean is released; the stated risk covers them all
    per_release: pd.DataFrame | None = None  # with releases > 1: the noise per release

    @property
    def ends(self) -> list[float]:
        """The ε the answer reads an attacker at (``_ends``)."""
        return _ends(self.window)

    @property
    def release_text(self) -> str:
        """The release in words, with how many times it is made where more than once."""
        many = f", released {self.releases:,} times" if self.releases > 1 else ""
        return self.survey.release_text + many

    @property
    def title(self) -> str:
        """The heading: the reader's column and release."""
        return f"Which ε for {self.release_text}?"

    def read(self, epsilon: float) -> Read:
        """What an attacker faces at a per-release ``epsilon``: the pure guarantee of one
        release, or k of them composed (``composition.compose``: exactly k-fold randomized
        response)."""
        g = risk.pure(epsilon)
        return g if self.releases == 1 else composition.compose(g, self.releases)

    def at_text(self, epsilon: float) -> str:
        """The ε read, in words: "ε = 0.5", or "12 releases at ε = 0.04 each"."""
        if self.releases == 1:
            return f"ε = {epsilon:.4g}"
        return f"{self.releases:,} releases at ε = {epsilon:.4g} each"

    def sentences(self) -> list[str]:
        """The answer in plain words: the largest ε the stated risk (and budget) allows, the
        smallest the stated accuracy needs, which of the two binds (or the two in conflict and
        how far apart), what an attacker can do at the ε read, and the deployments beside it."""
        w, what = self.window, self.release_text
        each = " per release" if self.releases > 1 else ""
        budget = w.binding_upper is not None and "budget" in w.binding_upper
        side = "the risk and budget you state allow" if budget else "the risk you accept allows"
        if w.binding_upper is None:
            privacy = f"Nothing you state bounds ε from above for {what}"
        else:
            privacy = f"For {what}, {side} ε up to {w.upper:.4g}{each} (by {w.binding_upper})"
        if w.binding_lower is None:
            utility = (
                "you state no accuracy, so nothing asks for a larger ε (give noise_bound or "
                f"lower_bound, in {self.survey.unit})"
            )
        else:
            utility = f"the accuracy you ask for needs ε ≥ {w.lower:.4g} (by {w.binding_lower})"
        sentences = [f"**{privacy}; {utility}.**"]
        if w.feasible and math.isfinite(w.upper) and w.binding_lower is None:
            sentences.append(
                f"So the risk alone decides: any ε up to {w.upper:.4g} will do, and ε = "
                f"{w.upper:.4g} gives the most accurate release it allows."
            )
        elif w.feasible and math.isfinite(w.upper):
            binds = "the risk you accept binds" if not budget else "the budget binds"
            sentences.append(
                f"Any ε from {w.lower:.4g} to {w.upper:.4g} meets both: {binds}, and ε = "
                f"{w.upper:.4g} gives the most accurate release it allows."
            )
        elif w.feasible:
            sentences.append(
                f"Any ε from {w.lower:.4g} upwards meets every requirement that applies."
            )
        else:
            sentences.append(f"No ε meets every requirement: {w.conflict}.")
        ends = self.ends
        if ends:
            g = self.read(ends[-1])
            where = f"At {self.at_text(ends[-1])}"
            attacker = (
                f"{where}, someone guessing whether a given person took part is right at most "
                f"{_guess_text(g)} times (50 by chance), and the share of those who took part "
                f"that the best test flags exceeds the share of the others it flags by at most "
                f"{_advantage_text(g)}"
            )
            deployed = deployed_at(_advantage(g), self.scale, self.deployments)
            if deployed is not None:
                verb = " does" if self.releases == 1 else " do"
                attacker += f"; {deployed.sentence(self.at_text(ends[-1]) + verb)}"
            sentences.append(attacker + ".")
        if self.calibrated is not None and len(self.calibrated):
            ratios = self.calibrated.noise_ratio.astype(float)
            if (ratios == math.inf).any():
                saving = "is finite where choosing an ε first finds no finite noise"
            elif all(_same(r) for r in ratios):
                saving = "is the noise that choosing an ε first gives"
            else:
                saving = f"is up to {ratios.max():.4g} times less than choosing an ε first gives"
            sentences.append(
                f"Set to the risk you state rather than through an ε, the noise {saving}."
            )
        return sentences

    def rows(self) -> list[tuple[str, str]]:
        """The answer's table, a row a fact, each (what, value), plain words first: the interval
        of ε and what binds it, the inputs not given and where they came from, the methods left
        out and why; at its ends, each of ``READINGS``; the deployments; and the noise each
        stated risk needs, with the standard route explained where it first appears."""
        w = self.window
        if w.feasible:
            lower = (
                f"{w.lower:.4g} ({w.binding_lower})"
                if w.binding_lower is not None
                else "0 (no accuracy stated)"
            )
            agreed = f"{lower} to " + (
                f"{w.upper:.4g} ({w.binding_upper})"
                if math.isfinite(w.upper)
                else "∞: nothing bounds it from above"
            )
        else:
            agreed = f"none: {w.conflict}"
        rows = [("ε that meets every requirement that applies", agreed)]
        said = self.stated.said if self.stated is not None else {}
        rows += [(f"{name} (you gave none)", how) for name, how in said.items()]
        rows += [
            (f"left out: {method}", f"does not apply: {why}")
            for method, why in w.not_applicable.items()
        ]
        ends = self.ends
        if ends and not w.feasible:
            rows.append(
                (
                    "largest ε the privacy and budget bounds allow",
                    f"{ends[0]:.4g} ({w.binding_upper})",
                )
            )
        guarantees = [self.read(e) for e in ends]
        if guarantees:
            rows += [(r.heading, _span([r.at(g) for g in guarantees])) for r in READINGS]
            deployed = deployed_at(_advantage(guarantees[-1]), self.scale, self.deployments)
            if deployed is not None:
                rows.append(
                    (
                        f"deployments that allow a larger advantage than {self.at_text(ends[-1])}",
                        f"{deployed.above} of the {deployed.count} that state a guarantee; the "
                        f"strictest of them all, {deployed.strictest}, allows "
                        f"{deployed.strictest_advantage:.3g}",
                    )
                )
        if self.per_release is not None:
            rows += [
                (
                    f"noise per release for {r.target} over all {self.releases:,} releases",
                    f"Gaussian σ = {r.gaussian:.4g} or Laplace b = {r.laplace:.4g} "
                    f"{self.survey.unit}",
                )
                for r in self.per_release.itertuples()
            ]
        if self.calibrated is not None:
            rows.append(STANDARD_ROUTE)
            one = " (one release)" if self.releases > 1 else ""
            noise = noise_rows(self.calibrated, self.survey, self.skipped)
            rows += [(what + one, value) for what, value in noise]
        return rows

    def markdown(self) -> str:
        """The answer as the notebook opens with it: the title, the sentences, then the table."""
        table = ["| at this run's parameters | |", "|:---|:---|"]
        table += [f"| {what} | {value} |" for what, value in self.rows()]
        return (
            f"## {self.title}\n\n" + " ".join(self.sentences()) + "\n\n" + "\n".join(table) + "\n"
        )


def noise_per_release(
    survey: Survey, targets: Sequence[risk.RiskTarget], releases: int
) -> pd.DataFrame:
    """The least Gaussian σ and Laplace b per release at which ``releases`` releases of the
    survey's mean (Δ = ``survey.delta``) allow at most each of ``targets`` on their composed
    curve, on the safe side (``composition.gaussian_noise_per_release``,
    ``composition.laplace_noise_per_release``)."""
    rows = [
        {
            "target": t.describe(),
            "releases": releases,
            "gaussian": composition.gaussian_noise_per_release(t, releases, survey.delta),
            "laplace": composition.laplace_noise_per_release(t, releases, survey.delta),
        }
        for t in targets
    ]
    return pd.DataFrame(rows, columns=["target", "releases", "gaussian", "laplace"])


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
