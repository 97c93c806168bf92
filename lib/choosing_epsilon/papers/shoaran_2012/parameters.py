"""Shoaran, Thomo & Weber (2012):
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from choosing_epsilon.harness import parameters as declare

DECLARED: dict[str, declare.Param] = {
    "epsilon": declare.positive_float(paper=0.01, comment="the privacy degree of the examples"),
    "pr": declare.in_unit(
        paper=0.1,
        comment="probability that the noise exceeds z (the examples' 10%)",
    ),
    "re": declare.positive_float(paper=0.1, comment="relative-error threshold (10%)"),
    "sensitivity": declare.positive_float(
        paper=1,
        comment="Δ(q) of a count query: the single-query case and Fig. 1",
    ),
    "query_answers": declare.positive_list(
        paper=[3000, 30000],
        comment="q_i(D) of Examples 2 and 3",
    ),
    "query_index": declare.positive_list(
        paper=[1, 10],
        comment="Γ, the DIFF query index of Example 3",
    ),
    "query_sensitivities": declare.positive_list(
        paper=[1, 1],
        comment="Δ(q_i), both counts",
    ),
    "fig1_epsilons": declare.Param(
        "list[float]",
        "three values > 0",
        lambda v: len(v) == 3 and declare.is_positive_list(v),
        default=[0.01, 0.02, 0.05],
        comment_above="Fig. 1 curves: the paper names 0.01 only; 0.02 and 0.05 share its scale",
    ),
    "fig2_prs": declare.Param(
        "list[float]",
        "three values in (0, 1)",
        lambda v: len(v) == 3 and declare.is_unit_list(v),
        default=[0.1, 0.3, 0.5],
        comment_above=(
            "Fig. 2 curves, unnamed in the paper: the examples' 10% and the 30% and 50% of the "
            "text on Fig. 1"
        ),
    ),
    "fig2_reading_epsilon": declare.positive_float(
        paper=0.1,
        comment="ε of Fig. 2's second reading (MTA against re)",
    ),
    "seed": declare.with_default(declare.SEED, 20120827, "seeds every random draw below"),
    "n_trials": declare.with_default(declare.N_TRIALS, 200000, "simulated releases per mechanism"),
    "output_dir": declare.output_dir("shoaran_2012"),
}


def joint(params: Mapping[str, Any]) -> None:
    """Shoaran et al.'s queries: one answer, index value and sensitivity for each query."""
    lengths = [
        len(params[name]) for name in ("query_answers", "query_index", "query_sensitivities")
    ]
    if len(set(lengths)) > 1:
        raise ValueError(
            "parameters 'query_answers', 'query_index' and 'query_sensitivities' must have the "
            f"same length (one entry per query), got {lengths[0]}, {lengths[1]} and {lengths[2]}"
        )
