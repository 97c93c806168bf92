import math

import pytest

from choosing_epsilon import interpretation, registry
from choosing_epsilon.paths import DATA


@pytest.mark.parametrize(
    "text, value",
    [
        ("10^-5", 1e-5),
        ("7 10^-9", 7e-9),
        ("2.1 10^-29", 2.1e-29),
        ("5.06 10^-9", 5.06e-9),
        ("1e-6", 1e-6),
        ("0", 0.0),
    ],
)
def test_parse_delta(text, value):
    assert registry.parse_delta(text) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text", ["N/A", "", None, float("nan")])
def test_missing_delta_is_nan(text):
    assert math.isnan(registry.parse_delta(text))


def test_unreadable_delta_is_refused():
    with pytest.raises(ValueError, match="delta: cannot read"):
        registry.parse_delta("ten to the minus five")


def test_committed_registry():
    table = registry.load_registry(DATA / "epsilon_registry.csv")
    assert len(table) == 27
    assert (table.unit == "unit not stated").all()
    assert table.epsilon.between(0.2, 49.95).all()
    assert table.delta.notna().sum() == 13 and table.delta.max() == pytest.approx(1e-5)
    linkedin = table[table.Context == "Audience Engagement API"].iloc[0]
    assert (linkedin.epsilon, linkedin.delta) == (34.9, pytest.approx(7e-9))


def test_interpretation_inverses():
    assert interpretation.epsilon_for_posterior(0.5, 0.75) == pytest.approx(math.log(3))
    assert interpretation.posterior_bound(
        0.5, interpretation.epsilon_for_posterior(0.5, 0.75)
    ) == pytest.approx(0.75)
    assert interpretation.advantage_bound(
        interpretation.epsilon_for_advantage(0.25)
    ) == pytest.approx(0.25)
    assert interpretation.tpr_bound(0.01, math.log(3)) == pytest.approx(0.03)
    with pytest.raises(ValueError, match="threshold must exceed the prior"):
        interpretation.epsilon_for_posterior(0.5, 0.4)
