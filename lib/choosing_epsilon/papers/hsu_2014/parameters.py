"""Hsu et al. (2014):
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from choosing_epsilon.harness import parameters as declare

DECLARED: dict[str, declare.Param] = {
    "bad_event_cost": declare.positive_float(
        paper=1274,
        comment="dollars: the rise in Bob's health insurance premium",
    ),
    "bad_event_probability": declare.in_unit(
        paper=0.05,
        comment="chance of that rise even if Bob stays out of the study",
    ),
    "budget": declare.positive_float(
        paper=30000,
        comment="dollars the analyst can pay participants",
    ),
    "error": declare.in_unit(
        paper=0.05,
        comment="d: the additive error allowed on the estimated fraction (the full paper's T)",
    ),
    "failure_probability": declare.in_unit(
        paper=0.1,
        comment="T: the slides' accuracy level, the allowed chance of missing by > d",
    ),
    "slide_constants": declare.Param(
        "bool",
        "True or False",
        paper=True,
        comment="True: the slides' rounded 0.0002 and 0.025; False: d²/12 and d/2",
    ),
    "slide_epsilon": declare.positive_float(paper=0.03, comment="the slides' answer"),
    "slide_n": declare.Param(
        "int", "[1, 10**9]", lambda v: 1 <= v <= 10**9, paper=15000, comment="the slides' answer"
    ),
    "secondary_failure_probability": declare.in_unit(
        paper=0.05,
        comment="T of the full paper's worked example (secondary source)",
    ),
    "movie_worst_cost": declare.positive_float(
        paper=2500,
        comment="W: statutory damages in the movie-ratings example (secondary source)",
    ),
    "movie_exposure_probability": declare.in_unit(
        paper=0.0001,
        comment="chance of that cost, giving the base cost E (secondary)",
    ),
    "movie_exposed_fraction": declare.in_unit(
        paper=0.002,
        comment="φ: exposed share of a non-private study (secondary source)",
    ),
    "true_fraction": declare.Param(
        "float",
        "[0, 1]",
        lambda v: 0 <= v <= 1,
        default=0.5,
        comment="the true share of smokers for the exact analysis (worst case: see below)",
    ),
    "max_study_size": declare.Param(
        "int",
        "[1, 10**7]",
        lambda v: 1 <= v <= 10**7,
        default=1000000,
        comment="the largest N considered when looking for the cheapest study",
    ),
    "seed": declare.with_default(declare.SEED, 20140722, "seeds every random draw below"),
    "n_trials": declare.with_default(
        declare.N_TRIALS, 200000, "Monte Carlo studies for the exact failure probability"
    ),
    "output_dir": declare.output_dir("hsu_2014"),
}
