"""The query set's composed guarantee, read on the attacker's scale: DIFF releases each query with
its own Laplace scale λ_i, a shift μ_i = Δ(q_i)/λ_i = ε_i for a neighbour that moves every count by
its sensitivity, and the ε_i add up to ε (sequential composition). What an attacker who sees every
answer can do is the composition of those releases (``composition.compose``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from choosing_epsilon import composition, privacy_loss, risk

# dp-accounting's grid, as a share of the smallest per-query loss ε_i
GRID_SHARE = 1 / 100
FPR = 0.01  # the false-positive rate of the TPR columns


def _row(name: str, composed: composition.Composed) -> dict[str, object]:
    """One reading's row; dp-accounting's values kept to the digits every CPU gives."""

    def keep(value: float) -> float:
        return value if composed.exact else float(privacy_loss.round_reproducibly(value))

    return {
        "reading": name,
        "how": "exact" if composed.exact else "bracket (dp-accounting)",
        "advantage, from below": keep(composed.advantage_attained()),
        "advantage, from above": keep(composed.advantage()),
        "TPR at FPR 1%, from below": keep(float(composed.tpr_attained(FPR))),
        "TPR at FPR 1%, from above": keep(float(composed.tpr(FPR))),
    }


def composed_table(sensitivities: Sequence[float], scales: Sequence[float]) -> pd.DataFrame:
    """Three readings of the queries released together at Laplace scales ``scales``: the Laplace
    releases themselves, the worst case of any mechanisms with the same ε_i (pure ε_i-DP each),
    and basic composition's Σ ε_i read as one release; the two compositions bracketed by
    dp-accounting (``composition.compose``)."""
    epsilons = np.asarray(sensitivities, dtype=float) / np.asarray(scales, dtype=float)
    step = float(np.min(epsilons)) * GRID_SHARE
    total = float(np.sum(epsilons))
    laplace = composition.compose([risk.laplace(float(e)) for e in epsilons], grid_step=step)
    worst = composition.compose([risk.pure(float(e)) for e in epsilons], grid_step=step)
    basic = composition.compose(risk.pure(total))
    return pd.DataFrame(
        [
            _row("the Laplace releases (DIFF's scales)", laplace),
            _row("worst case at ε_i each", worst),
            _row("basic composition (Σ ε_i)", basic),
        ]
    )
