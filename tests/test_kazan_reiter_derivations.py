"""The step-by-step check of Kazan & Reiter's derivations: every step verified or a slip with a
ledger row, and the checks themselves able to fail."""

import pytest
import sympy as sp

from choosing_epsilon.forensics import kazan_reiter_derivations as kd
from choosing_epsilon.harness import claims
from choosing_epsilon.harness.paths import PUBLISHED


@pytest.fixture(scope="module")
def steps():
    return kd.all_steps()


def test_every_step_is_verified_or_a_slip_with_its_ledger_note(steps):
    assert set(steps.verdict) == {kd.VERIFIED, kd.SLIP}
    ledger = claims.read_published(PUBLISHED / "kazan_reiter_2024.csv").set_index("claim_id")
    slips = steps[steps.verdict == kd.SLIP]
    assert sorted(slips.claim_id) == sorted(kd.SLIP_IDS.values())
    for claim_id in slips.claim_id:
        row = ledger.loc[claim_id]
        assert row.source == "printed" and row.isna().published  # a note: no value
    assert (slips.detail.str.contains(r"\d")).all()  # each shows its computation


def test_the_slips_found_are_these(steps):
    found = set(steps.loc[steps.verdict == kd.SLIP, "equations"])
    assert found == set(kd.SLIP_IDS)
    assert len(steps) >= 60


def test_an_identity_check_fails_on_a_wrong_identity():
    p, q = kd.p, kd.q
    with pytest.raises(AssertionError, match="not an identity"):
        kd._zero(sp.sqrt(p**2 + q) - p - q, (p, q), lambda *_: True)
    root = sp.sqrt(p**2 + 2 * p * q + q**2) - p - q  # zero, but not by cancel
    assert kd._zero(root, (p, q), lambda *_: True).startswith("zero to")
    assert kd._zero((p**2 - q**2) / (p - q) - p - q, (p, q), lambda *_: True).startswith("sympy")


def test_a_sign_check_reports_a_wrong_sign():
    step = kd._signs(
        "test", "d/dp of p is negative", [(kd.p, -1)], (kd.p, kd.q, kd.r), lambda *_: True
    )
    assert step.verdict == kd.SLIP
