"""laplace_intro's averaging attack read exactly (papers/laplace_intro/averaging.py), from both
sides: the most powerful test's bracket holds the averaging test below it and the worst case at ε
each above it, and each crossing k is the least k whose reading reaches the stated risk (the k
before it does not), against the readings recomputed at each k.
"""

from __future__ import annotations

import math

import pytest

from choosing_epsilon import composition, risk
from choosing_epsilon.papers.laplace_intro import averaging

EPSILON = 0.5
KS = [1, 2, 5, 10, 20, 50]


def test_the_bracket_lies_between_the_averaging_test_and_the_worst_case():
    for k in KS:
        lower, upper = averaging.best_bracket(EPSILON, k)
        own = composition.averaging_advantage(EPSILON, k)
        worst = composition.compose(risk.pure(EPSILON), k).advantage()
        assert own <= lower <= upper <= worst
    # one release: the Laplace mechanism's own curve, exact
    lower, upper = averaging.best_bracket(EPSILON, 1)
    assert lower == pytest.approx(risk.advantage(risk.laplace(EPSILON)), abs=1e-7)
    assert upper == pytest.approx(risk.advantage(risk.laplace(EPSILON)), abs=1e-7)


def test_the_table_holds_the_readings_at_each_k():
    table = averaging.readings(EPSILON, KS)
    assert table["k"].tolist() == KS
    columns = averaging.COLUMNS
    for row in table.to_dict("records"):
        k = row["k"]
        assert row[columns["averaging"]] == composition.averaging_advantage(EPSILON, k)
        assert row[columns["basic"]] == pytest.approx(math.tanh(k * EPSILON / 2), rel=1e-12)
        assert row[columns["best_lower"]] <= row[columns["best_upper"]]
        assert row[columns["averaging"]] <= row[columns["best_lower"]]
        assert row[columns["best_upper"]] <= row[columns["worst_case"]] <= row[columns["basic"]]


@pytest.mark.parametrize("level", [0.3, 0.5, 0.9])
def test_each_crossing_is_the_least_k_that_reaches_the_risk(level):
    largest = 60
    crossed = averaging.crossings(EPSILON, level, largest)
    read = {
        "averaging": lambda k: composition.averaging_advantage(EPSILON, k),
        "best_upper": lambda k: averaging._kept_outward(
            averaging._laplace(EPSILON, k).advantage(), True
        ),
        "best_lower": lambda k: averaging.best_bracket(EPSILON, k)[0],
        "worst_case": lambda k: composition.compose(risk.pure(EPSILON), k).advantage(),
        "basic": lambda k: math.tanh(k * EPSILON / 2),
    }
    for key, k in crossed.items():
        if k is None:  # not reached by the largest k searched
            assert read[key](largest) < level, key
            continue
        assert read[key](k) >= level, key
        assert k == 1 or read[key](k - 1) < level, key
    # the order the readings imply: the bound crosses no later than what it bounds
    assert crossed["basic"] <= crossed["worst_case"] <= crossed["best_upper"]
    assert crossed["best_lower"] is None or crossed["best_upper"] <= crossed["best_lower"]


def test_a_bad_risk_is_refused():
    with pytest.raises(ValueError, match="averaging_risk"):
        averaging.crossings(EPSILON, 1.0, 10)
