"""What ε means to an adversary: the Bayesian reading of the DP guarantee."""

from __future__ import annotations

import math

from ._validate import open_unit, positive


def posterior_bound(prior: float, epsilon: float) -> float:
    """The largest posterior an ε-DP release allows from a prior p: p e^ε / (1 - p + p e^ε)."""
    p, eps = open_unit("prior", prior), positive("epsilon", epsilon)
    # in odds: posterior odds ≤ e^ε × prior odds
    log_odds = math.log(p) - math.log1p(-p) + eps
    return 1 / (1 + math.exp(-log_odds))
