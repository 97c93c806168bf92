"""Shoaran et al.'s query set read as one release (papers.shoaran_2012.composed): the worst case
of pure ε_i-DP releases bracketed around its exact value, computed here from the product of two
randomized responses; the Laplace releases between one Laplace release and that worst case; basic
composition's Σ ε_i read in closed form."""

import itertools
import math

import pytest

from choosing_epsilon import risk
from choosing_epsilon.papers.shoaran_2012 import composed


def two_randomized_responses(e1: float, e2: float) -> float:
    """The advantage of randomized responses at ε₁ and ε₂ released together: the total variation
    between their product laws under the two hypotheses (truth with e^ε/(1 + e^ε))."""
    p = [math.exp(e) / (1 + math.exp(e)) for e in (e1, e2)]
    total = 0.0
    for a, b in itertools.product((0, 1), repeat=2):
        in_ = (p[0] if a else 1 - p[0]) * (p[1] if b else 1 - p[1])
        out = (1 - p[0] if a else p[0]) * (1 - p[1] if b else p[1])
        total += max(0.0, in_ - out)
    return total


@pytest.mark.parametrize("scales", [(2.0, 2.0), (1.0, 4.0)])
def test_the_composed_query_set_is_bracketed_from_both_sides(scales):
    table = composed.composed_table([1, 1], scales).set_index("reading")
    e1, e2 = 1 / scales[0], 1 / scales[1]
    worst = table.loc["worst case at ε_i each"]
    exact = two_randomized_responses(e1, e2)
    assert worst["advantage, from below"] <= exact + 1e-6 <= worst["advantage, from above"] + 2e-6
    assert worst["advantage, from above"] - worst["advantage, from below"] < 5e-3
    basic = table.loc["basic composition (Σ ε_i)"]
    assert basic["advantage, from above"] == pytest.approx(math.tanh((e1 + e2) / 2), rel=1e-12)
    assert basic.how == "exact"
    lap = table.loc["the Laplace releases (DIFF's scales)"]
    one = risk.advantage(risk.laplace(max(e1, e2)))  # the larger release alone
    assert one <= lap["advantage, from below"] + 1e-6
    assert lap["advantage, from above"] <= worst["advantage, from above"] + 1e-6
    assert exact < basic["advantage, from above"]  # composition reads less than Σ ε_i
