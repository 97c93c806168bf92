"""Kulynych et al. (2024):
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from choosing_epsilon.harness import parameters as declare

DECLARED: dict[str, declare.Param] = {
    "sample_rate": declare.in_unit(
        paper=0.001, comment="DP-SGD's Poisson sampling rate p (Sec. 3.1)"
    ),
    "num_steps": declare.Param(
        "int", "[1, 10**6]", lambda v: 1 <= v <= 10**6, paper=10000, comment="DP-SGD's steps T"
    ),
    "delta": declare.in_unit(
        paper=1e-5,
        comment="δ* of standard calibration, and of the (ε, δ) read off each run (App. H.2)",
        source="1e-5",
    ),
    # the authors' script of the paper's time (riskcal b7c9eeb, 2 July, and a1792ad, 14 August
    # 2024) calibrates np.logspace from 0.001 to 0.05 (5 points) and np.linspace from 0.05 to 0.25
    # (5), and its Fig. 2a draws those with adv >= 0.01: these, as numpy computes them, 0.05 and
    # 0.15 once (its 0.049999999999999996 and 0.15000000000000002 are one unit in the last place
    # from them)
    "advantage_targets": declare.Param(
        "list[float]",
        "a non-empty list of distinct values in (delta, 1)",
        declare.is_distinct_unit_list,
        paper=[0.018803015465431967, 0.05, 0.1, 0.15, 0.2, 0.25],
        comment="Fig. 2a's η*: the authors' grid of the paper's time, as drawn (η* ≥ 0.01)",
    ),
    # the same script from riskcal d7fb0f0 (16 August 2024) on: np.logspace from 0.004 to 0.05 and
    # the same np.linspace, every point drawn
    "later_advantage_targets": declare.Param(
        "list[float]",
        "a list of distinct values in (delta, 1), maybe empty",
        lambda v: all(declare.is_unit(x) for x in v) and declare.is_distinct(v),
        paper=[
            0.004000000000000001,
            0.007521206186172788,
            0.01414213562373095,
            0.026591479484724942,
            0.05,
            0.1,
            0.15,
            0.2,
            0.25,
        ],
        comment="the authors' later grid (Fig. 2a's η* from 16 August 2024): a second reading",
    ),
    # each target a row or a column of the tables: listed once
    "fpr_targets": declare.Param(
        "list[float]",
        "a non-empty list of distinct values in (0, 1)",
        declare.is_distinct_unit_list,
        paper=[0.01, 0.05, 0.1],
        comment="Fig. 3's FPRs α*, also Fig. 1's",
    ),
    "tpr_targets": declare.Param(
        "list[float]",
        "a non-empty list of distinct values in (0, 1), one above fpr_targets[0] + delta",
        declare.is_distinct_unit_list,
        paper=[0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5],
        comment="Fig. 3's TPRs 1 − β*",
    ),
    "gap_advantage": declare.Param(
        "float",
        "(delta, 1)",
        declare.is_unit,
        paper=0.5,
        comment="Prop. 3.3's example: the advantage η*",
    ),
    "gap_fpr": declare.Param(
        "float",
        "(0, (1 - gap_advantage)/2)",
        declare.is_unit,
        paper=0.1,
        comment="and the FPR α it reads the gap at",
    ),
    "max_singling_out": declare.with_default(
        declare.MAX_SINGLING_OUT,
        0.2,
        "beyond the paper: largest acceptable chance to single out one person ...",
    ),
    "singling_out_among": declare.with_default(
        declare.SINGLING_OUT_AMONG, 10, "... among this many equally likely candidates"
    ),
    "workers": declare.Param(
        "int",
        "[1, 8]",
        lambda v: 1 <= v <= 8,
        default=2,
        comment="processes for the calibrations a run must compute (none at the defaults)",
    ),
    "seed": declare.with_default(
        declare.SEED, 20240702, "seeds the Monte Carlo test of the Gaussian mechanism"
    ),
    "n_trials": declare.with_default(declare.N_TRIALS, 200000, "draws per hypothesis in that test"),
    "output_dir": declare.output_dir("kulynych_2024"),
}


def joint(params: Mapping[str, Any]) -> None:
    """Kulynych et al.'s parameters that constrain one another."""
    advantages = [
        *params["advantage_targets"],
        *params["later_advantage_targets"],
        params["gap_advantage"],
    ]
    low = [a for a in advantages if not a > params["delta"]]
    if low:
        raise ValueError(
            "parameters 'advantage_targets', 'later_advantage_targets' and 'gap_advantage' must "
            "exceed delta = "
            f"{params['delta']!r} "
            f"((0, δ)-DP already allows advantage δ), got {low!r}"
        )
    floor = params["fpr_targets"][0] + params["delta"]
    if not any(t > floor for t in params["tpr_targets"]):
        raise ValueError(
            f"parameter 'tpr_targets' needs a value above fpr_targets[0] + delta = {floor:.6g} "
            "(the Monte Carlo check calibrates to it; (0, δ)-DP already allows a TPR of "
            f"FPR + δ), got {params['tpr_targets']!r}"
        )
    if not params["gap_fpr"] < (1 - params["gap_advantage"]) / 2:
        raise ValueError(
            f"parameter 'gap_fpr' must be below (1 - gap_advantage)/2 = "
            f"{(1 - params['gap_advantage']) / 2:.6g} (Proposition 3.3), got {params['gap_fpr']!r}"
        )
