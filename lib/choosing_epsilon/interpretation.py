"""What ε means to an adversary: the Bayesian reading of the DP guarantee."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from ._validate import closed_unit, open_unit, positive


def posterior_bound(prior: float, epsilon: float) -> float:
    """The largest posterior an ε-DP release allows from a prior p: p e^ε / (1 - p + p e^ε)."""
    p, eps = open_unit("prior", prior), positive("epsilon", epsilon)
    # in odds: posterior odds ≤ e^ε × prior odds
    log_odds = math.log(p) - math.log1p(-p) + eps
    return 1 / (1 + math.exp(-log_odds))


def epsilon_for_posterior(prior: float, threshold: float) -> float:
    """The largest ε whose posterior bound from ``prior`` stays ≤ ``threshold``:
    ln(t (1-p) / (p (1-t)))."""
    p, t = open_unit("prior", prior), open_unit("threshold", threshold)
    if not t > p:
        raise ValueError(
            f"threshold must exceed the prior {prior!r} (allowed range ({prior!r}, 1)), "
            f"got {threshold!r}"
        )
    return math.log(t) - math.log1p(-t) - (math.log(p) - math.log1p(-p))


def advantage_bound(epsilon: float) -> float:
    """The largest advantage TPR - FPR of any test of D against a neighbour under ε-DP:
    (e^ε - 1)/(e^ε + 1)."""
    return math.tanh(positive("epsilon", epsilon) / 2)


def epsilon_for_advantage(advantage: float) -> float:
    """The largest ε whose advantage bound stays ≤ ``advantage``: ln((1 + a)/(1 - a))."""
    a = open_unit("advantage", advantage)
    return math.log1p(a) - math.log1p(-a)


def tpr_bound(fpr: float, epsilon: float) -> float:
    """The largest true-positive rate of a test with false-positive rate ``fpr`` under ε-DP:
    min(1, e^ε FPR, 1 - e^-ε (1 - FPR))."""
    f = closed_unit("fpr", fpr)
    eps = positive("epsilon", epsilon)
    return min(1.0, math.exp(eps) * f, 1 - math.exp(-eps) * (1 - f))


def posterior_table(priors: Sequence[float], epsilons: Sequence[float]) -> pd.DataFrame:
    """The posterior bound p e^ε / (1 - p + p e^ε), a row per prior p and a column per ε."""
    columns = {
        f"posterior bound, ε = {e:g}": [posterior_bound(p, e) for p in priors] for e in epsilons
    }
    return pd.DataFrame({"prior": list(priors)} | columns)
