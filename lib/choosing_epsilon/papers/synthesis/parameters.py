"""The synthesis:
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from choosing_epsilon.harness import parameters as declare
from choosing_epsilon.queries import QUERIES

DECLARED: dict[str, declare.Param] = {
    "data_path": declare.Param(
        "path",
        "empty (the synthetic survey), a CSV file, a Parquet file or a glob of Parquet files",
        lambda v: True,
        default="",
        comment="a CSV or Parquet file (or glob) holding the data; empty: the synthetic survey",
    ),
    "column": declare.Param(
        "name",
        "a numeric column of data_path",
        lambda v: len(str(v)) > 0,
        default="age",
        comment="the numeric column of data_path whose mean is released",
    ),
    "demo_n_people": declare.Param(
        "int",
        "[3, 10**7]",
        lambda v: 3 <= v <= 10**7,
        default=20000,
        comment="the demo: participants in its synthetic survey (unused with data_path)",
    ),
    "value_range": declare.Param(
        "list[float]",
        "[lower, upper] with lower < upper: the column's public range",
        declare.is_increasing_pair,
        default=[0, 110],
        comment="the column's public range, known before the data: it fixes Δ",
    ),
    "demo_ages": declare.Param(
        "list[float]",
        "[youngest, oldest] inside value_range",
        lambda v: len(v) == 2 and v[0] <= v[1],
        default=[18, 90],
        comment="the demo: its ages, whole years spread evenly over this range",
    ),
    "lower_bound": declare.Param(
        "float?",
        "any finite number, or None (Shoaran et al.'s method applies where max(lower end of "
        "value_range, lower_bound) is positive and at most the upper end)",
        default=None,
        comment="Shoaran et al.: a public lower bound of the mean, in the column's unit",
        comment_above="None: the demo's 18 years; with data_path, the range's lower end",
    ),
    "pays_participants": declare.Param(
        "bool?",
        "True, False or None",
        default=None,
        comment="Hsu et al.'s premise: you pay each participant from a budget",
        comment_above="None: True for the demo, as in their study; False with data_path",
    ),
    "adversary_knows_data": declare.Param(
        "bool",
        "True or False",
        default=True,
        comment="Lee & Clifton's premise: the adversary knows every record but one",
    ),
    "releases": declare.Param(
        "int",
        "[1, 10**4] (a daily release for 27 years; the Laplace noise per release for more takes "
        "dp-accounting minutes)",
        lambda v: 1 <= v <= 10**4,
        default=1,
        comment="how many times the mean is released: the stated risk is over all of them",
    ),
    "rho": declare.in_unit(
        default=0.002,
        comment="Lee & Clifton: largest acceptable posterior on who is absent (the prior is 1/n)",
    ),
    "lee_clifton_query": declare.Param(
        "str",
        "one of " + ", ".join(QUERIES),
        lambda v: v in QUERIES,
        default="mean",
        comment="... for the release of: mean, sum, variance, std, median, quantile",
    ),
    "lee_clifton_q": declare.Param(
        "float",
        "(0, 1), read with lee_clifton_query quantile",
        declare.is_unit,
        default=0.9,
        comment='... the level of the quantile (read with lee_clifton_query "quantile" only)',
    ),
    "bad_event_cost": declare.positive_float(
        default=1274,
        comment="Hsu et al.: the cost of the bad event, as in their study",
    ),
    "bad_event_probability": declare.in_unit(
        default=0.05, comment="its probability without participating"
    ),
    "budget": declare.positive_float(default=30000, comment="dollars to pay the participants"),
    "max_error": declare.Param(
        "float?",
        "(0, inf), or None (not given)",
        declare.is_positive,
        default=None,
        comment="Hsu et al.: the mean within this much, in the column's unit ...",
        comment_above="None: the demo's 5 years; with data_path, not given",
    ),
    "failure_probability": declare.in_unit(default=0.1, comment="... except with this probability"),
    "relative_error": declare.positive_float(
        default=0.05,
        comment="Shoaran et al.: relative-error target re",
    ),
    "pr": declare.in_unit(default=0.1, comment="... met with probability 1 - pr"),
    "noise_bound": declare.Param(
        "float?",
        "(0, inf), or None (not given)",
        declare.is_positive,
        default=None,
        comment="poster: the noise stays within this much, in the column's unit ...",
        comment_above="None: the demo's 1 year; with data_path, not given",
    ),
    "p": declare.in_unit(default=0.95, comment="... with probability p"),
    "prior": declare.in_unit(
        default=0.5,
        comment="Bayesian reading: the adversary's prior that a given person took part",
    ),
    "posterior_threshold": declare.in_unit(
        default=0.75, comment="... and the posterior it must not exceed"
    ),
    "max_advantage": declare.in_unit(
        default=0.25,
        comment="hypothesis testing: largest acceptable TPR - FPR of any membership test",
    ),
    "max_tpr": declare.Param(
        "float",
        "(0, 1) (the calibration to a TPR applies above at_fpr)",
        declare.is_unit,
        default=0.1,
        comment="calibrating to risk: largest acceptable TPR of a membership test ...",
    ),
    "at_fpr": declare.Param(
        "float",
        "(0, 1) (the calibration to a TPR applies below max_tpr)",
        declare.is_unit,
        default=0.01,
        comment="... whose false-positive rate is this (below max_tpr)",
    ),
    "max_singling_out": declare.with_default(
        declare.MAX_SINGLING_OUT,
        0.2,
        "re-identification: largest acceptable chance to single out one person ...",
    ),
    "singling_out_among": declare.with_default(
        declare.SINGLING_OUT_AMONG, 10, "... among this many equally likely candidates"
    ),
    "gaussian_delta": declare.in_unit(
        default=1e-05,
        comment="δ of the Gaussian mechanism's (ε, δ) on the standard route",
    ),
    "kr_r_tilde": declare.Param(
        "float",
        "(0, inf) (Kazan & Reiter's Theorem 4 applies above 1)",
        declare.is_positive,
        default=3.0,
        comment="Kazan & Reiter: posterior-to-prior ratio allowed where the prior is not small",
    ),
    "horizon_years": declare.Param(
        "float",
        "(0, 100]",
        lambda v: 0 < v <= 100,
        default=1.0,
        comment="deployments per day or month: also read over this many years of units",
    ),
    "registry_path": declare.Param(
        "path",
        "a folder of the deployments registry's YAML files, or an older-format registry CSV",
        declare.is_nonempty,
        default="../data/deployments_registry",
        comment="deployments: the registry's YAML folder, or a CSV",
    ),
    "seed": declare.with_default(
        declare.SEED, 20261122, "seeds the synthetic ages and the sampling checks"
    ),
    "output_dir": declare.output_dir("synthesis", "figures, tables and results.json"),
}


RENAMED = {
    "n_people": "demo_n_people",
    "observed_ages": "demo_ages",
    "mean_lower_bound": "lower_bound",
    "error_years": "max_error",
    "c_years": "noise_bound",
}
"""Old parameter names a reader's script may still pass, each read as its new name with a notice
(``harness.parameters.take_renamed``)."""


def joint(params: Mapping[str, Any]) -> None:
    """The synthesis's parameters that constrain one another: the demo's ages inside the public
    range, and on a file, the error Hsu et al.'s accuracy bound needs where the reader says they
    pay their participants (the demo's 5 years are never read on a file). A parameter only one
    method reads (the lower bound of the mean, r̃, the stated TPR and its FPR) is refused only
    where it is no number of its kind; where it rules out its method, that method says so in the
    run and every other one is computed."""
    if params["data_path"] and params["pays_participants"] is True and params["max_error"] is None:
        raise ValueError(
            "parameter 'max_error' is required with pays_participants true on data_path: Hsu et "
            "al.'s accuracy bound needs the error of the mean you accept, in the column's unit "
            "(e.g. -p max_error 2000)"
        )
    (lb, ub), ages = params["value_range"], params["demo_ages"]
    if not params["data_path"] and not lb <= ages[0] <= ages[1] <= ub:
        raise ValueError(
            f"parameter 'demo_ages' must lie inside value_range {params['value_range']!r} "
            f"(the demo's ages are drawn from it), got {ages!r}"
        )


def check_inputs(values: Mapping[str, Any]) -> None:
    """The synthesis's input files: its column (``run.read_survey``: the file, the column, its
    values inside the public range) and the registry of deployments (``run.check_registry``)."""
    from choosing_epsilon.papers.synthesis import run

    run.read_survey(values)
    run.check_registry(values)
