"""The registry's free-text privacy units read by stated rules (``registry.privacy_unit``): every
record's unit is covered, each distinct text reads as written out here by hand."""

import math

import pytest

from choosing_epsilon.harness import parameters
from choosing_epsilon.papers.synthesis import registry
from choosing_epsilon.papers.synthesis import run as synthesis_run

# each unit text the pinned registry holds, read by hand: whom it protects, its period, a year's
# number of periods, what else splits it
BY_HAND = {
    "Aggregate Statistics": ("aggregate", "", math.nan, ""),
    "Aggregate-level": ("aggregate", "", math.nan, ""),
    "Birth-level": ("person", "", math.nan, ""),
    "Bounded contribution-day": ("bounded contributions", "day", 365, ""),
    "Business establishment": ("establishment", "", math.nan, ""),
    "Device-day-level": ("person", "day", 365, ""),
    "Event-Month-level": ("event", "month", 12, ""),
    "Event-level": ("event", "", math.nan, ""),
    "Individual-level": ("person", "", math.nan, ""),
    "Person-level": ("person", "", math.nan, ""),
    "Person-level; housing-unit-level": ("person", "", math.nan, ""),
    "Tuple-level": ("tuple", "", math.nan, ""),
    "User account-month-level": ("person", "month", 12, ""),
    "User-account-level": ("person", "", math.nan, ""),
    "User-day-level": ("person", "day", 365, ""),
    "User-device-level": ("person", "", math.nan, ""),
    "User-level": ("person", "", math.nan, ""),
    "User-month-country-level": ("person", "month", 12, "country"),
    "User-month-level": ("person", "month", 12, ""),
    "User-quarter-day-level": ("person", "quarter-day", 1460, ""),
    "User-trip-level": ("person", "", math.nan, "trip"),
    "record-level": ("record", "", math.nan, ""),
    "unit not stated": ("not stated", "", math.nan, ""),
}


def deployments():
    return synthesis_run.deployments(parameters.committed_values("synthesis"))


def test_every_records_unit_is_read_as_by_hand():
    units = deployments().unit
    assert set(units) == set(BY_HAND), "a unit text the rules were not checked on"
    for text in units:
        found = registry.privacy_unit(text)
        who, period, per_year, split = BY_HAND[text]
        assert (found.who, found.period, found.split_by) == (who, period, split), text
        assert found.per_year == per_year or (math.isnan(found.per_year) and math.isnan(per_year))


def test_eleven_records_have_a_time_bounded_unit_nine_of_them_a_persons():
    read = [registry.privacy_unit(u) for u in deployments().unit]
    timed = [u for u in read if u.period]
    assert len(timed) == 11
    assert sum(u.is_person for u in timed) == 9  # one protects events, one bounded contributions
    assert {u.who for u in timed} == {"person", "event", "bounded contributions"}


@pytest.mark.parametrize("text", ["Household-level", "", "Cohort"])
def test_a_unit_no_rule_covers_is_refused_naming_it(text):
    with pytest.raises(ValueError, match=rf"privacy unit {text!r}: no rule says whom it protects"):
        registry.privacy_unit(text)


def randomized_response_advantage(epsilon: float, k: int) -> float:
    """The advantage of k-fold randomized response at ε, independently of the package: the total
    variation between the number of true answers under the two hypotheses, Binomial(k, p) and
    Binomial(k, 1 − p) with p = e^ε/(1 + e^ε)."""
    from scipy import stats

    p = math.exp(epsilon) / (1 + math.exp(epsilon))
    j = range(k + 1)
    return float(
        sum(max(0.0, a - b) for a, b in zip(stats.binom.pmf(j, k, p), stats.binom.pmf(j, k, 1 - p)))
    )


def test_every_time_bounded_deployment_is_read_over_a_year():
    """risk_scale.csv: every deployment whose unit has a period and that states a guarantee has
    its reading over a year (no blank), the composition of 365 days or 12 months; a pure ε per
    month is 12-fold randomized response, exactly; ρ-zCDP's bracket holds the one-unit reading
    below it."""
    import pandas as pd

    from choosing_epsilon.harness.paths import FIGURES

    scale = pd.read_csv(FIGURES / "synthesis" / "risk_scale.csv")
    timed = scale[(scale.kind == "deployment") & scale.unit_period.notna()]
    stated = timed[timed.advantage.notna()]
    assert len(timed) == len(stated) == 11
    for column in ("advantage_over_horizon", "advantage_over_horizon_attained"):
        assert stated[column].notna().all()
    assert (stated.advantage_over_horizon_attained <= stated.advantage_over_horizon + 1e-12).all()
    assert (stated.advantage <= stated.advantage_over_horizon_attained + 1e-12).all()
    units = {"day": 365, "month": 12, "quarter-day": 1460}
    assert list(stated.units_in_horizon) == [units[p] for p in stated.unit_period]
    russian = stated[stated.row.str.startswith("Wikimedia Foundation: Wikipedia Russian")].iloc[0]
    want = randomized_response_advantage(0.1, 12)
    assert russian.advantage_over_horizon == pytest.approx(want, rel=1e-9)
    assert russian.advantage_over_horizon_attained == pytest.approx(want, rel=1e-9)
    pageviews = stated[stated.row == "Wikimedia Foundation: Current Pageviews"].iloc[0]
    assert pageviews.rho == 0.015 and pageviews.horizon_reading.endswith("attained below")
    assert pageviews.advantage < pageviews.advantage_over_horizon_attained
    events = stated[stated.unit_protects == "event"]
    assert events.horizon_reading.str.contains("a person's risk can be larger still").all()
    # each unit named with its article: "an event", "bounded contributions" (a plural, none)
    assert events.horizon_reading.str.contains("the unit protects an event, not a person").all()
    bounded = stated[stated.unit_protects == "bounded contributions"]
    assert len(bounded) == 1
    assert "the unit protects bounded contributions, not a" in bounded.horizon_reading.iloc[0]
