"""The ε of real deployments (OpenDP's epsilon registry): reading it and parsing its δ column."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from choosing_epsilon import risk
from choosing_epsilon._validate import nonnegative

_POWER = re.compile(r"^\s*(?:(?P<mantissa>\d+(?:\.\d+)?)\s+)?10\^(?P<exponent>-?\d+)\s*$")


def parse_delta(text: object) -> float:
    """δ as written in the registry ("10^-5", "7 10^-9", "N/A" or empty) as a number; NaN when
    not stated."""
    if text is None or (isinstance(text, float) and math.isnan(text)):
        return math.nan
    value = str(text).strip()
    if value in ("", "N/A", "NA", "n/a"):
        return math.nan
    match = _POWER.match(value)
    if match:
        mantissa = float(match.group("mantissa") or 1)
        return mantissa * 10.0 ** int(match.group("exponent"))
    try:
        return float(value)
    except ValueError:
        raise ValueError(
            f"delta: cannot read {text!r}; expected a number, '10^-5', '7 10^-9' or 'N/A'"
        ) from None


REQUIRED = ("Organization", "Epsilon (ε)", "Delta (δ)", "Context")
UNIT_NOT_STATED = "unit not stated"


def model_from_delta(text: object) -> str:
    """The privacy definition the registry's δ column implies: "ε-DP" where it says "N/A",
    "(ε, δ)-DP" where it gives a number, "not stated" where it is empty."""
    value = "" if text is None or (isinstance(text, float) and math.isnan(text)) else str(text)
    if value.strip() in ("N/A", "NA", "n/a"):
        return "ε-DP"
    return "not stated" if not value.strip() else "(ε, δ)-DP"


def load_registry(path: str | Path) -> pd.DataFrame:
    """The registry with numeric ``epsilon`` and ``delta`` columns added, and ``unit``, ``model``
    and ``label`` kept as written or, in a file without them (the registry as published),
    filled: "unit not stated", the model its δ implies, and "Organization: Context".

    Refuses, naming the file, one that is empty, lacks a column, has no rows or an ε that is not
    a number > 0.
    """
    try:
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise ValueError(
            f"registry_path: {path} is empty; expected a CSV with columns {list(REQUIRED)}"
        ) from None
    for column in REQUIRED:
        if column not in table.columns:
            raise ValueError(
                f"{path}: missing column {column!r}; columns are {list(table.columns)}"
            )
    if table.empty:
        raise ValueError(f"registry_path: {path} lists no deployments (a header without rows)")
    out = table.copy()
    epsilon = pd.to_numeric(table["Epsilon (ε)"], errors="coerce")
    bad = ~(np.isfinite(epsilon) & (epsilon > 0))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{path}: 'Epsilon (ε)' must be a number > 0 in every row; "
            f"row {row + 2} has {table['Epsilon (ε)'].iloc[row]!r}"
        )
    out["epsilon"] = epsilon
    out["delta"] = [parse_delta(v) for v in table["Delta (δ)"]]
    if "unit" not in out:
        out["unit"] = UNIT_NOT_STATED
    if "model" not in out:
        out["model"] = [model_from_delta(v) for v in table["Delta (δ)"]]
    if "label" not in out:
        out["label"] = table["Organization"] + ": " + table["Context"]
    for column in ("unit", "model", "label"):
        blank = out[column].str.strip() == ""
        if blank.any():
            row = int(np.flatnonzero(blank)[0])
            raise ValueError(f"{path}: column {column!r} is empty in row {row + 2}")
    return out


# --- the deployments registry: one YAML file per deployment ------------------------------------

# the registry's DP variants, as the risk scale's models (risk.MODELS)
VARIANTS = {"Pure DP": "pure", "Approximate DP": "approximate", "Zero-concentrated DP": "zcdp"}
# the scale's models, as the figure and the older registry write them
MODEL_NAMES = {"pure": "ε-DP", "approximate": "(ε, δ)-DP", "zcdp": "zCDP", "gdp": "Gaussian DP"}
IN_REGISTRY = "deployments registry"
OLDER_ONLY = "older registry only: dropped from the deployments registry"
OLDER_EPSILON = "deployments registry; ε from the older registry (the record states none)"
DEPLOYMENT_COLUMNS = [
    "file", "Organization", "Context", "label", "model", "scale_model", "local", "epsilon",
    "delta", "rho", "mu", "unit", "registry", "variant", "deployment_model",
]  # fmt: skip


def _number(value: object) -> float:
    """A registry parameter as a number: NaN when absent or not a number (Uber's symbolic δ)."""
    if isinstance(value, bool) or value is None:
        return math.nan
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(str(value))
    except ValueError:
        return math.nan


def scale_model(variant: str, epsilon: float, delta: float, rho: float, mu: float) -> str:
    """The model the scale reads a deployment in: ρ where stated (zCDP), else μ (Gaussian DP),
    else (ε, δ) where δ > 0 is stated, else pure ε; "" where no number is stated. The variant
    decides only where its numbers allow (a "Pure DP" record with a δ is read as (ε, δ))."""
    if variant == "Zero-concentrated DP" and math.isfinite(rho):
        return "zcdp"
    if math.isfinite(rho) and not math.isfinite(epsilon):
        return "zcdp"
    if math.isfinite(mu) and not math.isfinite(epsilon):
        return "gdp"
    if not (math.isfinite(epsilon) and epsilon > 0):
        return ""
    if variant == "Approximate DP" and not math.isfinite(delta):
        return ""  # an (ε, δ) record whose δ is not a number (Uber's n^(−ε ln n))
    return "approximate" if math.isfinite(delta) and delta > 0 else "pure"


def read_deployment(path: str | Path) -> dict[str, object]:
    """One deployment of the registry's YAML file at ``path``: its curators, name, variant,
    deployment model, privacy unit and stated parameters (NaN where not stated)."""
    import yaml  # type: ignore[import-untyped]  # PyYAML (pinned in the lock) ships no types

    # libyaml's safe loader where PyYAML was built with it (the wheels are): the same records,
    # ten times faster than the pure-Python one
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    record = yaml.load(Path(path).read_text(encoding="utf-8"), Loader=loader)
    if not isinstance(record, dict) or not isinstance(record.get("deployment"), dict):
        raise ValueError(f"registry_path: {path} is not a deployment record (no 'deployment' key)")
    deployment = record["deployment"]
    basic = deployment.get("basic") or {}
    loss = deployment.get("privacy_loss") or {}
    parameters = loss.get("privacy_parameters") or {}
    variant = str((deployment.get("dp_variant") or {}).get("variant_name") or "")
    epsilon, delta = _number(parameters.get("epsilon")), _number(parameters.get("delta"))
    rho, mu = _number(parameters.get("rho")), _number(parameters.get("mu"))
    model = str((deployment.get("deployment_model") or {}).get("model_name") or "")
    return {
        "file": Path(path).stem,
        "Organization": " & ".join(basic.get("data_curators") or []),
        "Context": str(basic.get("name") or ""),
        "variant": variant,
        "deployment_model": model,
        "local": model == "Local",
        "unit": str(loss.get("privacy_unit") or "").strip(),
        "epsilon": epsilon,
        "delta": delta,
        "rho": rho,
        "mu": mu,
    }


def short_label(organization: str, context: str, width: int = 52) -> str:
    """A label for the figure: the first curator (less a parenthesis) and the deployment's name,
    cut to ``width`` characters with an ellipsis."""
    curator = re.sub(r"\s*\(.*?\)", "", organization.split(" & ")[0]).strip()
    # the Census records name the system before the product: the product tells them apart
    product = re.sub(r"^Disclosure Avoidance System for (the )?", "", context)
    label = f"{curator}: {product}"
    return label if len(label) <= width else label[: width - 1].rstrip() + "…"


def full_name(organization: str, context: str) -> str:
    """A deployment's whole name, as its record states it: every curator, then its name."""
    return ": ".join(part for part in (organization.strip(), context.strip()) if part)


PUNCTUATION = ",;:–—-"  # what may end a shortened name's last word before " …" is dropped


def in_whole_words(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters, cut only between words: its first words that fit,
    then " …" for the rest (no word is ever cut; a first word longer than ``width`` is kept
    whole). For prose, where a word cut in two reads as a misprint."""
    if width < 1:
        raise ValueError(f"width must be at least 1, got {width!r}")
    if len(name) <= width:
        return name
    words = name.split()
    if not words:
        return ""
    kept = [words[0]]
    for word in words[1:]:
        if len(" ".join([*kept, word])) + 2 > width:  # " …" follows
            break
        kept.append(word)
    # the words kept end on a word, not on a colon or a dash left hanging before the ellipsis
    while len(kept) > 1 and not kept[-1].strip(PUNCTUATION):
        kept.pop()
    kept[-1] = kept[-1].rstrip(PUNCTUATION) or kept[-1]
    return " ".join(kept) + " …"


def _display_model(model: str, local: bool) -> str:
    """The model as the figure writes it: "ε-DP", "zCDP, local", or "not stated"."""
    name = MODEL_NAMES.get(model, "not stated")
    return f"{name}, local" if local else name


def load_deployments(folder: str | Path, older: str | Path | None = None) -> pd.DataFrame:
    """The deployments registry from its YAML files in ``folder``, one row per file, with the
    older registry (a CSV in ``load_registry``'s format with a ``deployments_registry`` column
    naming each row's file) supplying its label, and its unit, ε and δ where the record states
    none; the older rows that no file matches are kept, marked ``OLDER_ONLY``."""
    files = sorted(Path(folder).glob("*.yaml"))
    if not files:
        raise ValueError(f"registry_path: {folder} holds no deployment (no .yaml file)")
    table = pd.DataFrame([read_deployment(f) for f in files])
    table["registry"] = IN_REGISTRY
    table["label"] = [short_label(o, c) for o, c in zip(table.Organization, table.Context)]
    kept = pd.DataFrame()
    if older is not None:
        old = load_registry(older)
        if "deployments_registry" not in old:
            raise ValueError(f"{older}: needs a column 'deployments_registry' naming each file")
        matched = old[old.deployments_registry != ""].set_index("deployments_registry")
        for i, row in table.iterrows():
            if row.file not in matched.index:
                continue
            before = matched.loc[row.file]
            table.loc[i, "label"] = before.label
            if not row.unit:
                table.loc[i, "unit"] = before.unit
            no_number = not any(math.isfinite(row[k]) for k in ("epsilon", "rho", "mu"))
            if no_number:
                table.loc[i, ["epsilon", "delta"]] = [before.epsilon, before.delta]
                table.loc[i, "registry"] = OLDER_EPSILON
        kept = old[old.deployments_registry == ""].assign(
            file="",
            registry=OLDER_ONLY,
            variant="",
            deployment_model=["Local" if m.endswith("local") else "" for m in old.model[
                old.deployments_registry == ""]],
            rho=math.nan,
            mu=math.nan,
        )  # fmt: skip
        kept["local"] = kept.deployment_model == "Local"
    table["unit"] = table.unit.where(table.unit != "", UNIT_NOT_STATED)
    table = pd.concat([table, kept], ignore_index=True) if len(kept) else table
    table["scale_model"] = [
        scale_model(str(v), e, d, r, m)
        for v, e, d, r, m in zip(table.variant, table.epsilon, table.delta, table.rho, table.mu)
    ]
    table["model"] = [_display_model(m, bool(b)) for m, b in zip(table.scale_model, table.local)]
    return table[DEPLOYMENT_COLUMNS].reset_index(drop=True)


def deployments_from_csv(path: str | Path) -> pd.DataFrame:
    """A registry CSV in the older format (``load_registry``) in the columns of
    ``load_deployments``: the model read from its ``model`` column ("ε-DP", "(ε, δ)-DP", "zCDP",
    ", local"), with ρ from a "Rho (ρ)" column where one is given."""
    old = load_registry(path)
    rho = (
        pd.to_numeric(old["Rho (ρ)"], errors="coerce")
        if "Rho (ρ)" in old
        else pd.Series(math.nan, index=old.index)
    )
    local = old.model.str.endswith("local")
    definition = old.model.str.removesuffix(", local").str.strip()
    rows = old.assign(
        file="",
        rho=rho,
        mu=math.nan,
        local=local,
        registry=str(path),
        variant=definition.map({"zCDP": "Zero-concentrated DP"}).fillna(""),
        deployment_model=np.where(local, "Local", ""),
    )
    rows["scale_model"] = [
        scale_model(str(v), e, d, r, m)
        for v, e, d, r, m in zip(rows.variant, rows.epsilon, rows.delta, rows.rho, rows.mu)
    ]
    # a zCDP row with no ρ is read at the (ε, δ) it lists
    rows["model"] = [_display_model(m, bool(b)) for m, b in zip(rows.scale_model, rows.local)]
    return rows[DEPLOYMENT_COLUMNS].reset_index(drop=True)


def read_any(path: str | Path, older: str | Path | None = None) -> pd.DataFrame:
    """The deployments at ``path``: a folder of the registry's YAML files (``load_deployments``,
    with ``older``) or a CSV in the older format (``deployments_from_csv``)."""
    return load_deployments(path, older) if Path(path).is_dir() else deployments_from_csv(path)


# --- the conversions the registry states --------------------------------------------------------


def _rounding(text: str) -> tuple[float, float]:
    """The interval a number printed as ``text`` stands for: ± half a unit of its last digit."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    half = 0.5 * 10.0**-decimals
    return float(text) - half, float(text) + half


def check_conversions(path: str | Path) -> pd.DataFrame:
    """Each stated conversion of ``path`` (registry_conversions.csv: a ρ or μ with the ε it gives
    at δ) against the conversions OpenDP implements, in the columns "exact epsilon": ρ-zCDP by
    Canonne, Kamath & Steinke (2020, Prop. 12; exact given the Rényi bounds one order at a time,
    a valid bound of the ρ-zCDP mechanisms), μ-GDP exactly by Dong, Roth & Su (2019, Cor. 2.13);
    beside them Bun & Steinke's bound ρ + 2√(ρ ln(1/δ)), the Gaussian mechanism with the same ρ,
    and that ε over the rounding of the printed ρ or μ."""
    table = pd.read_csv(path, dtype={"stated": str}, keep_default_na=False)
    rows = []
    for row in table.itertuples():
        printed = str(row.stated)
        value, delta, low_high = float(printed), float(str(row.delta)), _rounding(printed)
        if row.parameter == "rho":
            exact = risk.zcdp_epsilon(value, delta)
            bun_steinke = value + 2 * math.sqrt(value * math.log(1 / delta))
            gaussian = risk.gdp_epsilon(risk.gaussian_mu_for_rho(value), delta)
            interval = [risk.zcdp_epsilon(v, delta) for v in low_high]
        elif row.parameter == "mu":
            exact = risk.gdp_epsilon(value, delta)
            bun_steinke = gaussian = math.nan
            interval = [risk.gdp_epsilon(v, delta) for v in low_high]
        else:
            raise ValueError(f"{path}: parameter must be 'rho' or 'mu', got {row.parameter!r}")
        stated = float(str(row.epsilon))
        tolerance = 0.5 * 10.0 ** -len(str(row.epsilon).split(".")[1])
        rows.append(
            {
                "claim_id": row.claim_id,
                "file": row.file,
                "parameter": row.parameter,
                "stated": value,
                "delta": delta,
                "stated epsilon": stated,
                "tolerance": tolerance,
                "exact epsilon": exact,
                "exact epsilon, low end of rounding": interval[0],
                "exact epsilon, high end of rounding": interval[1],
                "Bun & Steinke": bun_steinke,
                "Gaussian mechanism": gaussian,
                "agrees": abs(exact - stated) <= tolerance * (1 + 1e-9),
                "within rounding": interval[0] - tolerance <= stated <= interval[1] + tolerance,
            }
        )
    return pd.DataFrame(rows)


def conversion_explanation(row: pd.Series) -> str:
    """Why a stated conversion differs from the exact one, with the numbers."""
    name = "ρ" if row.parameter == "rho" else "μ"
    exact = "the Canonne, Kamath & Steinke" if row.parameter == "rho" else "the exact Gaussian DP"
    text = (
        f"{name} = {row.stated:g} gives ε = {row['exact epsilon']:.4f} at δ = {row.delta:g} by "
        f"{exact} conversion, not the stated {row['stated epsilon']:g}"
    )
    if row["within rounding"]:
        text += (
            f"; over the rounding of the printed {name} the exact ε runs from "
            f"{row['exact epsilon, low end of rounding']:.4f} to "
            f"{row['exact epsilon, high end of rounding']:.4f}, which holds the stated value: "
            f"consistent with a {name} printed to fewer digits than it was used with"
        )
    else:
        text += (
            f", nor anywhere over the rounding of the printed {name} "
            f"({row['exact epsilon, low end of rounding']:.4f} to "
            f"{row['exact epsilon, high end of rounding']:.4f})"
        )
    if math.isfinite(row["Bun & Steinke"]):
        text += (
            f"; Bun & Steinke's looser bound gives {row['Bun & Steinke']:.4f}, and the Gaussian "
            f"mechanism with the same ρ (μ = √(2ρ)) {row['Gaussian mechanism']:.4f}"
        )
        if abs(row["Bun & Steinke"] - row["stated epsilon"]) <= row.tolerance * (1 + 1e-9):
            text += ": the stated ε is Bun & Steinke's, to its printed digits"
    return text


# --- the registry's probability-of-truth table ----------------------------------------------


def registry_ui_truth_probability(epsilon: float) -> float:
    """The "probability of truth" the OpenDP registry's website shows (probability-table.js):
    e^(ε/e)/(1 + e^(ε/e)), that is ε divided by Euler's number where ε belongs."""
    return float(1 / (1 + math.exp(-nonnegative("epsilon", epsilon) / math.e)))


# the ε of the registry website's probability table (probability-table.js)
REGISTRY_UI_EPSILONS = (0, 0.01, 0.1, 1, 5, 10, 50, 100)


def truth_table(epsilons: tuple[float, ...] = REGISTRY_UI_EPSILONS) -> pd.DataFrame:
    """The registry website's "probability of truth" beside randomized response's, per ε."""
    return pd.DataFrame(
        {
            "epsilon": list(epsilons),
            "registry website: e^(ε/e)/(1 + e^(ε/e))": [
                registry_ui_truth_probability(e) for e in epsilons
            ],
            "randomized response: e^ε/(1 + e^ε)": [
                risk.accuracy_at_half(risk.pure(e)) for e in epsilons
            ],
        }
    )


# --- the privacy unit: whom one guarantee protects, and over how long --------------------------


@dataclass(frozen=True)
class PrivacyUnit:
    """What a record's free-text ``privacy_unit`` says, by ``privacy_unit``'s rules: whom one
    guarantee protects (``who``: "person", or what else it protects: "event", "record", "tuple",
    "aggregate", "establishment", "bounded contributions", "not stated"), the time period of the
    unit ("day", "quarter-day", "month"; "" for none), how many such periods a year holds, and
    what else the unit is split by ("trip", "country"; "" for nothing)."""

    who: str
    period: str
    per_year: float
    split_by: str = ""

    @property
    def is_person(self) -> bool:
        """Whether one guarantee covers a person (a user, an account, a device taken as one
        person's) for the unit's period."""
        return self.who == "person"


PERIODS_PER_YEAR = {"quarter-day": 4 * 365, "day": 365, "week": 52, "month": 12, "year": 1}
# whom a unit protects, by the words its text holds, checked in this order
UNIT_WHO = (
    ("bounded contribution", "bounded contributions"),
    ("event", "event"),
    ("tuple", "tuple"),
    ("record", "record"),
    ("aggregate", "aggregate"),
    ("establishment", "establishment"),
    ("user", "person"),
    ("person", "person"),
    ("individual", "person"),
    ("birth", "person"),
    ("account", "person"),
    ("device", "person"),
)
UNIT_SPLITS = ("trip", "country")


def privacy_unit(text: str) -> PrivacyUnit:
    """A record's privacy unit read by stated rules, the text lowercased:

    - whom it protects: the first of ``UNIT_WHO``'s words the text holds (a "user", "person",
      "individual", "birth", "account" or "device" is a person; an event, a tuple, a record, an
      aggregate, an establishment or bounded contributions are not); "not stated" where the
      registry states no unit;
    - its period: "quarter-day" before "day", then "week", "month" and "year"
      (``PERIODS_PER_YEAR``), or none;
    - what else splits it: a "trip" or a "country" (``UNIT_SPLITS``).

    Raises ValueError for a text no rule covers, naming it."""
    lowered = str(text).lower()
    if lowered == UNIT_NOT_STATED:
        return PrivacyUnit("not stated", "", math.nan)
    who = next((kind for word, kind in UNIT_WHO if word in lowered), None)
    if who is None:
        raise ValueError(f"privacy unit {text!r}: no rule says whom it protects")
    period = next((p for p in PERIODS_PER_YEAR if re.search(rf"\b{p}\b", lowered)), "")
    split = ", ".join(s for s in UNIT_SPLITS if s in lowered)
    return PrivacyUnit(who, period, float(PERIODS_PER_YEAR.get(period, math.nan)), split)
