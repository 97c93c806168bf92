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
