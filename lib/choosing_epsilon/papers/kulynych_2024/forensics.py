"""Kulynych et al. (2024): the DP-SGD calibration grid of Figures 2a and 3, stored by content, and
the authors' published training runs (Figures 1 and 4).

Each calibration of the grid (one target: an advantage, or a TPR at an FPR) takes a minute or more
of accounting. Its result is stored in a JSON file under a key that hashes everything it depends
on: the DP-SGD setting, the target, the calibration's tolerance and the versions of riskcal,
dp-accounting, numpy and scipy. A run reuses a stored row only under the key it would compute
itself, and computes (and returns, but never writes into the store) every row it does not find.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import multiprocessing
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata
from pathlib import Path

import mpmath
import numpy as np
import pandas as pd
from scipy import optimize

from choosing_epsilon import calibration as cal
from choosing_epsilon import dpsgd, privacy_loss, risk
from choosing_epsilon._validate import closed_unit, open_unit
from choosing_epsilon.harness import parameters

# how a root is found (dpsgd.DpsgdAccountant.calibrate): part of a stored row's address, as
# the answer may move within the tolerance when the search changes
SEARCH = (
    "ladder 2^(k/8), k = -24 to 66 or twice the noise without subsampling; none where the "
    "evaluations bracket the root within a rung; cubic inverse interpolation; pairs at ±0.4 rtol; "
    "brentq; the bracket's safe end; TPR read directly off the privacy loss distribution; "
    "grid min(grid_step, one step's spread)"
)
# the libraries whose versions a stored row depends on
LIBRARIES = ("riskcal", "dp-accounting", "numpy", "scipy")
# the paper's Fig. 1 and 4 read (ε, δ) at this δ (App. H.2)
CIFAR_DATA_SIZE = 50000  # CIFAR-10's training set (App. H.2)
CIFAR_NORM_NOISE = 8.0  # noise of the two feature-normalisation queries (the authors' script)


def versions() -> dict[str, str]:
    """The installed versions of the libraries a calibration depends on."""
    return {name: metadata.version(name) for name in LIBRARIES}


def targets(
    advantages: Sequence[float], fprs: Sequence[float], tprs: Sequence[float], delta: float
) -> list[tuple[str, float, float | None]]:
    """The grid's targets as (kind, target, fpr): every advantage (once, in the order given), and
    every TPR at every FPR that some ε ≥ 0 can meet (FPR + FNR < 1 − δ; the authors skip the
    others too)."""
    rows: list[tuple[str, float, float | None]] = [
        ("advantage", a, None) for a in dict.fromkeys(float(a) for a in advantages)
    ]
    for a in fprs:
        rows += [("tpr", float(t), float(a)) for t in tprs if a + (1 - t) < 1 - delta]
    return rows


def grid_request(
    sample_rate: float,
    num_steps: int,
    delta: float,
    advantage_targets: Sequence[float],
    fpr_targets: Sequence[float],
    tpr_targets: Sequence[float],
) -> tuple[dpsgd.DpsgdSetting, list[tuple[str, float, float | None]]]:
    """The DP-SGD setting and the targets of a run's grid (the notebook's parameters)."""
    setting = dpsgd.DpsgdSetting(
        sample_rate, num_steps, delta, tuple(float(a) for a in fpr_targets)
    )
    return setting, targets(advantage_targets, fpr_targets, tpr_targets, delta)


def key(setting: dpsgd.DpsgdSetting, kind: str, target: float, fpr: float | None) -> str:
    """The content address of one calibration: a hash of every input and library version."""
    inputs = {
        "setting": {
            "sample_rate": setting.sample_rate,
            "num_steps": int(setting.num_steps),
            "delta": setting.delta,
            "fprs": list(setting.fprs),
            "grid_step": setting.grid_step,
        },
        "target": {"kind": kind, "target": target, "fpr": fpr},
        "calibration": {
            "rtol": cal.CALIBRATION_RTOL,
            "margin": privacy_loss.ACCOUNTANT_MARGIN,
            "search": SEARCH,
        },
        "versions": versions(),
    }
    text = json.dumps(inputs, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def load(store: Path) -> dict[str, dict]:
    """The stored rows by key (empty if there is no store)."""
    if not Path(store).is_file():
        return {}
    return json.loads(Path(store).read_text())["rows"]


def _evaluate(setting: dpsgd.DpsgdSetting, sigma: float) -> dpsgd.Risks:
    return dpsgd.DpsgdAccountant(setting).risks(sigma)


# a root solved: the risks at its noise and the independent checks there (attack-aware roots), or
# why no noise of the search meets it (``dpsgd.OutOfReach``)
Solved = tuple[dpsgd.Risks, dict[str, float] | None] | str


def _solve(
    setting: dpsgd.DpsgdSetting, known: list[dpsgd.Risks], root: tuple[str, float, float | None]
) -> Solved:
    """One root (an attack-aware target, or a standard ε*) from the shared evaluations; at an
    attack-aware root also the independent checks, from the privacy loss distribution in hand."""
    return _solve_with(dpsgd.DpsgdAccountant(setting, memo={r.sigma: r for r in known}), root)


def _solve_with(accountant: dpsgd.DpsgdAccountant, root: tuple[str, float, float | None]) -> Solved:
    """One root with ``accountant``, whose evaluations it reads and adds to (see ``_solve``); the
    reason, if no noise of the search meets it."""
    setting = accountant.setting
    kind, target, fpr = root
    try:
        sigma = accountant.calibrate(kind, target, fpr)
    except dpsgd.OutOfReach as unmet:
        return str(unmet)
    checks = None
    if kind != "epsilon":
        checks = dpsgd.independent_checks(setting, sigma, accountant.pld(sigma))
    return accountant.risks(sigma), checks


def _fixed(setting: dpsgd.DpsgdSetting, sigma: float) -> Solved:
    """An attack-aware root whose noise is known (``compute``'s ``aware_sigmas``): the risks there
    at the setting's δ and the independent checks, from one privacy loss distribution."""
    accountant = dpsgd.DpsgdAccountant(setting)
    return accountant.risks(sigma), dpsgd.independent_checks(setting, sigma, accountant.pld(sigma))


def _chain(
    setting: dpsgd.DpsgdSetting,
    roots: Sequence[tuple[str, float, float | None]],
    fixed: Sequence[tuple[tuple[str, float, float | None], float]] = (),
) -> dict:
    """Roots found in turn by one accountant, each search starting from the evaluations of those
    before it, after the known attack-aware noises ``fixed`` are read (``compute``)."""
    accountant = dpsgd.DpsgdAccountant(setting)
    solved: dict = {
        w: (accountant.risks(s), dpsgd.independent_checks(setting, s, accountant.pld(s)))
        for w, s in fixed
    }
    return solved | {root: _solve_with(accountant, root) for root in roots}


def compute(
    setting: dpsgd.DpsgdSetting,
    wanted: Sequence[tuple[str, float, float | None]],
    workers: int = 1,
    aware_sigmas: dict[tuple[str, float, float | None], float] | None = None,
    sweep: bool = False,
) -> list[dict]:
    """Both calibrations of every wanted target (attack-aware and standard; targets with the same
    ε* share theirs), each σ's privacy loss distribution computed once and read for every target.
    In one process the roots are found in turn by one accountant, each search starting from the
    evaluations of those before it (the costliest, smallest σ, first). In ``workers`` processes,
    two such chains side by side: the attack-aware roots in one, the standard route's in the
    other; or, with ``sweep`` (the precompute's way), first the risks on the rungs of the ladder
    around every root's guess in parallel, then each root from those. ``aware_sigmas``: the
    attack-aware noise of targets already known (``calibrations`` takes it from rows stored at
    another δ, on which it does not depend), read at this setting instead of searched for."""
    known_aware = {w: s for w, s in (aware_sigmas or {}).items() if w in set(wanted)}
    epsilons = [dpsgd.standard_epsilon(setting, *w) for w in wanted]
    roots = list(dict.fromkeys([*wanted, *(("epsilon", e, None) for e in epsilons)]))
    roots = [r for r in roots if r not in known_aware]
    guesser = dpsgd.DpsgdAccountant(setting)
    roots.sort(key=lambda r: guesser.guess(*r))
    fixed = list(known_aware.items())
    # spawned, not forked: a notebook's kernel runs threads, which a fork would copy midway
    context = multiprocessing.get_context("spawn")
    if workers <= 1:
        solved = _chain(setting, roots, fixed)
    elif not sweep:
        aware_roots = [r for r in roots if r[0] != "epsilon"]
        standard_roots = [r for r in roots if r[0] == "epsilon"]
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            first = pool.submit(_chain, setting, aware_roots, fixed)
            solved = _chain(setting, standard_roots) | first.result()
    else:
        swept = dpsgd.sweep_sigmas(guesser, roots)
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            read = pool.map(_fixed, [setting] * len(fixed), [s for _, s in fixed])
            known = list(pool.map(_evaluate, [setting] * len(swept), swept))
            answers = pool.map(_solve, [setting] * len(roots), [known] * len(roots), roots)
            solved = dict(zip(roots, answers)) | dict(zip([w for w, _ in fixed], read))
    rows = []
    for w, e in zip(wanted, epsilons):
        aware, standard = solved[w], solved[("epsilon", e, None)]
        if isinstance(aware, str) or isinstance(standard, str):
            route, why = (
                ("attack-aware", aware) if isinstance(aware, str) else ("standard", standard)
            )
            rows.append(unmet_row(setting, *w, f"{route} calibration: {why}"))
        else:
            rows.append(dpsgd.grid_row(setting, *w, aware[0], standard[0], aware[1] or {}))
    return rows


def unmet_row(
    setting: dpsgd.DpsgdSetting, kind: str, target: float, fpr: float | None, why: str
) -> dict:
    """The row of a target that no noise of the search meets by one of the routes: every number
    of a calibrated row not a number, and why in ``not_applicable``."""
    nothing = dpsgd.Risks(math.nan, math.nan, tuple(math.nan for _ in setting.fprs), math.nan)
    checks = {"advantage_from_curve": math.nan} | {
        f"tpr_blackbox_at_{a:g}": math.nan for a in setting.fprs
    }
    row = dpsgd.grid_row(setting, kind, target, fpr, nothing, nothing, checks)
    return row | {"not_applicable": why}


def split_unmet(grid: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of a grid some noise meets by both routes, and those no noise of the search meets
    (``unmet_row``; none at the paper's setting, whose grid has no ``not_applicable`` column)."""
    if "not_applicable" not in grid:
        return grid, grid.iloc[:0]
    unmet = grid.not_applicable.notna()
    return grid[~unmet].drop(columns="not_applicable"), grid[unmet]


def unmet_lines(unmet: pd.DataFrame) -> list[str]:
    """Each target of ``unmet`` in words: "advantage 0.6: not applicable: <why>"."""
    return [
        f"{_target_name(r)}: not applicable: {r['not_applicable']}"
        for r in unmet.to_dict("records")
    ]


def _target_name(row: dict) -> str:
    if row["kind"] == "advantage":
        return f"advantage {row['target']:g}"
    return f"TPR {row['target']:g} at FPR {row['fpr']:g}"


def ratio_results(grid: pd.DataFrame, unmet: pd.DataFrame, kind: str) -> dict[str, object]:
    """results.json's noise ratios of one kind of target: each target's ratio, or "not applicable:
    <why>" where no noise of the search meets it."""

    def name(r: dict) -> str:
        return f"{r['target']:g}" if kind == "advantage" else f"{r['target']:g} at {r['fpr']:g}"

    ratios: dict[str, object] = {
        name(r): r["noise_ratio"] for r in grid[grid.kind == kind].to_dict("records")
    }
    return ratios | {
        name(r): f"not applicable: {r['not_applicable']}"
        for r in unmet[unmet.kind == kind].to_dict("records")
    }


def calibrations(
    setting: dpsgd.DpsgdSetting,
    wanted: Iterable[tuple[str, float, float | None]],
    store: Path,
    recompute: bool = False,
    workers: int = 1,
    sweep: bool = False,
) -> tuple[pd.DataFrame, dict[str, int]]:
    """Both calibrations of every wanted target: stored rows where the key matches (unless
    ``recompute``), the others computed (in ``workers`` processes, as two chains or, with
    ``sweep``, from a shared sweep of the ladder: ``compute``). Returns the table and how many
    rows were reused, computed, and computed with the attack-aware noise of a row stored at the
    paper's δ."""
    wanted = list(wanted)
    stored = {} if recompute else load(store)
    keys = [key(setting, *w) for w in wanted]
    missing = [w for w, k in zip(wanted, keys) if k not in stored]
    sigmas = {} if recompute else _aware_at_another_delta(setting, missing, stored)
    computed = compute(setting, missing, workers, sigmas, sweep) if missing else []
    found = {key(setting, r["kind"], r["target"], _fpr(r)): r for r in computed}
    rows = [stored.get(k) or found[k] for k in keys]
    table = pd.DataFrame(rows)
    table.insert(0, "key", keys)
    counts = {"reused": len(wanted) - len(missing), "computed": len(missing)}
    return table, counts | {"aware_reused": len(sigmas)}


def provenance_text(grid: pd.DataFrame, provenance: dict[str, int]) -> str:
    """Where a grid's rows come from (``calibrations``), in words."""
    text = (
        f"{len(grid)} targets: {provenance['reused']} stored rows reused, "
        f"{provenance['computed']} computed"
    )
    if provenance["aware_reused"]:  # at another δ: the attack-aware noise does not depend on it
        n = provenance["aware_reused"]
        text += f"\n  {n} of them take the attack-aware noise of a row stored at the paper's δ"
    return text


def _aware_at_another_delta(
    setting: dpsgd.DpsgdSetting, missing: list[tuple[str, float, float | None]], stored: dict
) -> dict[tuple[str, float, float | None], float]:
    """The attack-aware noise of missing targets from rows stored at the committed run's δ and an
    otherwise equal setting: neither the privacy loss distribution (its grid follows σ, p and the
    grid step) nor its advantage or TPR depends on δ, so that noise is this setting's too (read
    anew here at its own δ; the standard route, which depends on δ, is searched for)."""
    committed = parameters.committed_values("kulynych_2024")["delta"]
    if setting.delta == committed:
        return {}
    at = dataclasses.replace(setting, delta=committed)
    rows = {w: stored.get(key(at, *w)) for w in missing}
    return {w: float(r["sigma_aware"]) for w, r in rows.items() if r}


def _fpr(row: dict) -> float | None:
    return None if row["fpr"] is None or math.isnan(row["fpr"]) else row["fpr"]


def write(table: pd.DataFrame, store: Path, tolerance: float = 1e-9) -> bool:
    """Write ``table`` as the store, unless every number agrees with the stored one to
    ``tolerance`` (relative) under the same keys: a rerun leaves the file as it was."""
    rows = {
        r["key"]: {
            k: (None if isinstance(v, float) and math.isnan(v) else v)
            for k, v in r.items()
            if k != "key"
        }
        for r in table.to_dict("records")
    }
    old = load(store)
    if old.keys() == rows.keys() and all(_close(old[k], rows[k], tolerance) for k in rows):
        return False
    text = json.dumps({"versions": versions(), "rows": rows}, indent=1, sort_keys=True)
    Path(store).write_text(text + "\n")
    return True


def _close(a: dict, b: dict, tolerance: float) -> bool:
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if not math.isclose(x, y, rel_tol=tolerance, abs_tol=1e-15):
                return False
        elif x != y:
            return False
    return True


def margins(table: pd.DataFrame) -> pd.DataFrame:
    """How far below its target each row's noise keeps the risk (never below 0: the search spends
    its tolerance on the safe side): the attack-aware σ's advantage or TPR at its FPR, and the
    standard σ's ε at δ against ε*."""
    aware = [
        r["advantage_aware"] if r["kind"] == "advantage" else r[f"tpr_aware_at_{r['fpr']:g}"]
        for r in table.to_dict("records")
    ]
    return pd.DataFrame(
        {
            "aware": table.target.to_numpy() - np.asarray(aware, dtype=float),
            "standard": (table.epsilon_target - table.epsilon_standard).to_numpy(),
        },
        index=table.index,
    )


def gaussian_margins(table: pd.DataFrame) -> pd.Series:
    """How far below its target each closed-form Gaussian σ of App. G keeps the risk, read
    exactly (mpmath, Δ₂ = 1): the target less the advantage, or less the TPR at its FPR. Never
    below 0."""
    margins = []
    for kind, fpr, target, sigma in table[["kind", "fpr", "target", "σ attack-aware"]].itertuples(
        index=False
    ):
        wanted = (
            risk.at_most_advantage(target) if kind == "advantage" else risk.at_most_tpr(target, fpr)
        )
        with mpmath.workdps(risk.EXACT_DIGITS):
            shift = risk.Guarantee("gdp", mu=risk.as_exact(1.0) / risk.as_exact(sigma))
            margins.append(float(risk.as_exact(target) - risk.exact_reading(shift, wanted)))
    return pd.Series(margins, index=table.index)


# --- Proposition 3.3: what calibrating to the advantage gives away ------------------------------


def advantage_calibration_gap(advantage: float, delta: float, alpha: float) -> float:
    """Lower bound on the rise in attack power at FPR α from calibrating to advantage instead of
    to (ε, δ) for the same advantage: η − δ + 2αη/(η − 1) (Proposition 3.3, Eq. 15)."""
    eta = open_unit("advantage", advantage)
    d = closed_unit("delta", delta)
    a = closed_unit("alpha", alpha)
    return eta - d + 2 * a * eta / (eta - 1)


def worst_case_gap(advantage: float, delta: float, alpha: float | np.ndarray) -> np.ndarray:
    """The exact gap f_standard(α) − f_adv(α) for the four-outcome mechanism of the proof of
    Proposition 3.3, whose trade-off curve is Eq. (5) itself: (ε*, δ) against (0, η)."""
    eps = risk.epsilon_for(risk.at_most_advantage(advantage), delta)
    standard = risk.tradeoff(risk.approximate(eps, delta), alpha)
    return np.asarray(standard) - np.asarray(risk.tradeoff(risk.approximate(0.0, advantage), alpha))


def largest_ratio(table: pd.DataFrame, kind: str) -> pd.Series:
    """The row of ``kind`` where standard calibration costs most noise over the attack-aware."""
    part = table[table.kind == kind]
    return part.iloc[int(np.argmax(part.noise_ratio.to_numpy()))]


def ratio_trend_note(advantage_grid: pd.DataFrame, in_text_range: float, level: float = 3.5) -> str:
    """Sec. 3.1's ratio over the run's advantage targets, in words read off the run: whether it
    falls as η* grows, its largest value and where, the largest over the text's [0.01, 0.25], and
    where it passes ``level`` (interpolated in log η*), or that it never does."""
    by_target = advantage_grid.sort_values("target")
    ratios, targets = by_target.noise_ratio.to_numpy(), by_target.target.to_numpy()
    falls = bool(np.all(np.diff(ratios) < 0))
    top = int(np.argmax(ratios))
    where = "the grid's smallest target" if top == 0 else "not the grid's smallest target"
    words = "falls as η* grows" if falls else "does not fall steadily as η* grows"
    if falls and ratios[-1] < level < ratios[0]:
        crossing = float(np.exp(np.interp(-level, -ratios, np.log(targets))))
        passing = f"it passes {level:g} near η* = {crossing:.3f}"
    elif ratios.max() < level:
        passing = f"it stays below {level:g}"
    elif ratios.min() > level:
        passing = f"it stays above {level:g}"
    else:
        passing = f"no single η* where it passes {level:g} (the ratio is not monotone)"
    return (
        f"the ratio {words}: {ratios[top]:.2f} at η* = {targets[top]:g} ({where}), "
        f"{in_text_range:.2f} at most over Sec. 3.1's range [0.01, 0.25]; {passing}"
    )


# --- the authors' training runs (Figures 1 and 4) ----------------------------------------------


def gpt2_runs(path: Path) -> pd.DataFrame:
    """The GPT-2 runs on SST-2: noise σ, sampling rate q, steps, test accuracy (sorted by σ)."""
    runs = pd.read_csv(path, index_col=0).sort_values("sigma").reset_index(drop=True)
    return runs.rename(columns={"eps": "epsilon_target", "q": "sample_rate"})


def cifar_runs(path: Path) -> pd.DataFrame:
    """The CIFAR-10 runs: σ, epochs, batch size, test accuracy (in %, as the file holds it);
    q = batch/50,000 and the steps as the authors' script counts them, epochs × ⌈50,000/batch⌉."""
    runs = pd.read_csv(path, index_col=0).sort_values("sigma").reset_index(drop=True)
    runs["sample_rate"] = runs.batch_size / CIFAR_DATA_SIZE
    runs["steps"] = (runs.epochs * np.ceil(CIFAR_DATA_SIZE / runs.batch_size)).astype(int)
    runs["test_acc"] = runs.test_acc / 100
    return runs


def run_pld(sigma: float, sample_rate: float, steps: int, norm_queries: int = 0):
    """A run's privacy loss distribution: DP-SGD's, composed with ``norm_queries`` Gaussian
    queries of noise ``CIFAR_NORM_NOISE`` (the CIFAR-10 runs' feature normalisation, 2)."""
    from dp_accounting.pld import privacy_loss_distribution

    pld = dpsgd.dpsgd_pld(sigma, sample_rate, steps)
    if norm_queries:
        norm = privacy_loss_distribution.from_gaussian_mechanism(
            standard_deviation=CIFAR_NORM_NOISE,
            use_connect_dots=True,
            value_discretization_interval=1e-4,
        ).self_compose(norm_queries)
        pld = norm.compose(pld)
    return pld


def _runs(runs: pd.DataFrame) -> list[tuple[float, float, int, float]]:
    """Each run's σ, sampling rate, steps and test accuracy."""
    columns = [runs[c].to_numpy(dtype=float) for c in ("sigma", "sample_rate", "steps", "test_acc")]
    return [(s, q, int(t), a) for s, q, t, a in zip(*columns)]


def run_analysis(
    runs: pd.DataFrame,
    fprs: Sequence[float],
    curve_fprs: np.ndarray,
    delta: float,
    norm_queries: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """For each run, from one privacy loss distribution: ε at δ (dp-accounting), the TPR at each
    of ``fprs`` that this ε allows under standard calibration (Eq. 5) and the TPR the run's own
    trade-off curve allows (``privacy_loss.pld_tpr``) (Fig. 1); and both curves, FNR at each of
    ``curve_fprs`` (Fig. 4). Every error rate, from the run's own curve or from its ε, is kept to
    the decimals the accountant gives alike on every CPU (``privacy_loss.round_reproducibly``)."""
    rows, frames = [], []
    for sigma, rate, steps, accuracy in _runs(runs):
        pld = run_pld(sigma, rate, steps, norm_queries)
        epsilon = privacy_loss.pld_epsilon(pld, delta)  # dp-accounting's, without its loop
        standard = risk.approximate(epsilon, delta)  # the run's (ε, δ) as a guarantee
        # one reading of the curve for both: the FPRs of Fig. 1, then Fig. 4's
        tprs = np.asarray(
            privacy_loss.pld_tpr(pld, np.concatenate([np.asarray(fprs, float), curve_fprs]))
        )
        betas = 1 - tprs[: len(fprs)]
        aware = np.atleast_1d(privacy_loss.round_reproducibly(betas))
        for a, b in zip(fprs, aware):
            rows.append(
                {
                    "sigma": sigma,
                    "test_acc": accuracy,
                    "epsilon": epsilon,
                    "fpr": a,
                    "tpr_standard": 1 - privacy_loss.round_reproducibly(risk.tradeoff(standard, a)),
                    "tpr_aware": 1 - float(b),
                }
            )
        frames.append(
            pd.DataFrame(
                {
                    "sigma": sigma,
                    "test_acc": accuracy,
                    "fpr": curve_fprs,
                    "fnr_aware": np.atleast_1d(
                        privacy_loss.round_reproducibly(1 - tprs[len(fprs) :])
                    ),
                    "fnr_standard": privacy_loss.round_reproducibly(
                        risk.tradeoff(standard, curve_fprs)
                    ),
                }
            )
        )
    return pd.DataFrame(rows), pd.concat(frames, ignore_index=True)


# --- singling out one of k: the noise by the bound and by the attained value ---------------------


def singling_out_request(
    sample_rate: float, num_steps: int, delta: float, k: int, max_success: float
) -> tuple[dpsgd.DpsgdSetting, tuple[str, float, float]] | str:
    """The DP-SGD setting and target of the calibration to "single out one of ``k`` with a chance
    of at most ``max_success``": by its bound, TPR ≤ max_success at FPR 1/k (1 − f(1/k), Hayes,
    Mahloujifar & Balle 2023). Where no noise can meet it, the reason instead."""
    if not max_success > 1 / k:
        return (
            f"a guess at random names the right one of {k} with chance 1/{k}, whatever the noise: "
            f"max_singling_out must exceed {1 / k:g}"
        )
    setting = dpsgd.DpsgdSetting(sample_rate, num_steps, delta, (1 / k,))
    return setting, ("tpr", float(max_success), 1 / k)


def _singling_out_key(setting: dpsgd.DpsgdSetting, wanted: tuple[str, float, float]) -> str:
    bound = key(setting, *wanted)
    text = json.dumps(
        {"bound": bound, "attained": "k-ary randomized response", "step": dpsgd.PROFILE_STEP}
    )
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def singling_out_calibration(
    setting: dpsgd.DpsgdSetting,
    wanted: tuple[str, float, float],
    store: Path,
    recompute: bool = False,
) -> tuple[dict | str, str]:
    """Both calibrations of a target to single out one of k (``singling_out_request``) and the
    noise by the attained value (``dpsgd.sigma_for_attained_singling_out``, from the
    bound's noise down), with what each noise allows: the stored row where its key matches
    (unless ``recompute``), else computed (at a δ other than the paper's, with the bound's and the
    attained noise of the paper's row, which do not depend on δ). Returns the row (or, where no
    noise of the search meets the bound, why) and "reused" or "computed"."""
    row_key = _singling_out_key(setting, wanted)
    stored = {} if recompute else load(store)
    if row_key in stored:
        return stored[row_key] | {"key": row_key}, "reused"
    # at another δ, the row stored at the paper's: the bound's noise and the attained one depend on
    # the privacy loss distribution alone (``_aware_at_another_delta``)
    committed = parameters.committed_values("kulynych_2024")["delta"]
    at = dataclasses.replace(setting, delta=committed)
    before = None if recompute or at == setting else stored.get(_singling_out_key(at, wanted))
    (row,) = compute(
        setting, [wanted], aware_sigmas={wanted: before["sigma_aware"]} if before else None
    )
    if "not_applicable" in row:
        return row["not_applicable"], "computed"
    _, gamma, fpr = wanted
    k = round(1 / fpr)
    # read while their privacy loss distributions are still kept (dpsgd.dpsgd_pld)
    attained_at = {
        name: dpsgd.attained_singling_out(
            dpsgd.dpsgd_pld(
                row[f"sigma_{name}"], setting.sample_rate, setting.num_steps, setting.grid_step
            ),
            k,
        )
        for name in ("standard", "aware")
    }
    if before:
        sigma, success = float(before["sigma_attained"]), float(before["success_attained"])
    else:
        sigma, success = dpsgd.sigma_for_attained_singling_out(
            setting, gamma, k, row["sigma_aware"]
        )
    at_attained = dpsgd.DpsgdAccountant(setting).risks(sigma)
    row |= {
        "candidates": k,
        "sigma_attained": sigma,
        "success_attained": success,
        "success_attained_at_sigma_aware": attained_at["aware"],
        "success_attained_at_sigma_standard": attained_at["standard"],
        "epsilon_attained": at_attained.epsilon,
        "advantage_attained": at_attained.advantage,
        "success_bound_at_sigma_attained": 1 - at_attained.betas[0],
    }
    return row | {"key": row_key}, "computed"


def singling_out_results(row: dict | str) -> dict:
    """What results.json records of the calibration to single out one person: the three noises
    and the attained chance, or why it does not apply (``singling_out_request``'s reason)."""
    if isinstance(row, str):
        return {"not_applicable": row}
    names = ("sigma_aware", "sigma_attained", "sigma_standard", "success_attained")
    return {name.replace("sigma_aware", "sigma_bound"): row[name] for name in names}


def singling_out_table(row: dict) -> pd.DataFrame:
    """The three noises of a calibration to single out one of k (``singling_out_calibration``),
    one row each: standard (the ε* whose (ε, δ) curve meets the bound), by the bound and by the
    attained value, with the ε at δ and the advantage each allows, and the chance to single out
    by the bound (the TPR at FPR 1/k) and attained (``dpsgd.attained_singling_out``)."""
    fpr = f"{row['fpr']:g}"
    return pd.DataFrame(
        [
            {
                "calibration": "standard (ε* at δ)",
                "σ": row["sigma_standard"],
                "ε at δ": row["epsilon_standard"],
                "advantage": row["advantage_standard"],
                "chance, bound": row[f"tpr_standard_at_{fpr}"],
                "chance, attained": row["success_attained_at_sigma_standard"],
            },
            {
                "calibration": "to the bound",
                "σ": row["sigma_aware"],
                "ε at δ": row["epsilon_aware"],
                "advantage": row["advantage_aware"],
                "chance, bound": row[f"tpr_aware_at_{fpr}"],
                "chance, attained": row["success_attained_at_sigma_aware"],
            },
            {
                "calibration": "to the attained value",
                "σ": row["sigma_attained"],
                "ε at δ": row["epsilon_attained"],
                "advantage": row["advantage_attained"],
                "chance, bound": row["success_bound_at_sigma_attained"],
                "chance, attained": row["success_attained"],
            },
        ]
    ).set_index("calibration")


# --- riskcal's trade-off curve of DP-SGD beside the one read directly ---------------------------


def curve_readings(
    setting: dpsgd.DpsgdSetting, sigma: float, fprs: Sequence[float]
) -> pd.DataFrame:
    """At noise ``sigma``, the TPR at each FPR by four readings of the same privacy loss
    distribution: riskcal 1.5.1's Algorithm 1; the curve read directly (``privacy_loss.pld_tpr``);
    the likelihood-ratio tests of one direction alone (with the record against without), which
    every curve of the mechanism must reach; and dp-accounting's δ(ε) turned into a curve, the
    infimum over ε of δ(ε) + e^ε α (convex in e^ε, so found by a bounded scalar search to 1e-9 in
    ε), which no curve of the distribution exceeds."""
    from riskcal.analysis import get_beta_from_pld

    pld = dpsgd.dpsgd_pld(sigma, setting.sample_rate, setting.num_steps, setting.grid_step)
    one_way = privacy_loss.pld_direction_points(pld._pmf_remove)
    top = privacy_loss.pld_epsilon(pld, 1e-12) + 1.0
    rows = []
    for a in fprs:
        best = optimize.minimize_scalar(
            lambda e, a=a: float(pld.get_delta_for_epsilon(e)) + math.exp(e) * a,
            bounds=(0.0, top),
            method="bounded",
            options={"xatol": 1e-9},
        )
        rows.append(
            {
                "FPR": a,
                "riskcal": 1 - float(get_beta_from_pld(pld, alpha=a)),
                "read directly": float(privacy_loss.pld_tpr(pld, a)),
                "one direction's tests (at least)": float(np.interp(a, *one_way)),
                "from δ(ε) (at most)": float(best.fun),
            }
        )
    return pd.DataFrame(rows)
