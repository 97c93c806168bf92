"""The step-by-step check of Kazan & Reiter's derivations: every step verified or a slip with a
ledger row, and the checks themselves able to fail."""

import math

import numpy as np
import pytest
import sympy as sp

from choosing_epsilon import risk_profiles as rp
from choosing_epsilon.harness import claims
from choosing_epsilon.harness.paths import PUBLISHED
from choosing_epsilon.papers.kazan_reiter_2024 import derivations as kd
from choosing_epsilon.papers.kazan_reiter_2024 import forensics


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


STEP_BY_STEP = [
    # Lemma 2, (89)-(94), and (95)-(97)
    "Eqs. (88)-(89)",
    "Eqs. (89)-(90)",
    "Eq. (91)",
    "Eqs. (90)-(92)",
    "Eqs. (92)-(93)",
    "Eqs. (93)-(94)",
    "Eq. (95)",
    "Eq. (96)",
    "Eqs. (95)-(97)",
    # Lemma 3, (110)-(114), and (133)-(137)
    "Eqs. (109)-(110)",
    "Eqs. (110)-(111)",
    "Eqs. (111)-(112)",
    "Eqs. (112)-(113)",
    "Eqs. (113)-(114)",
    "Eqs. (133)-(134)",
    "Eq. (135)",
    "Eqs. (135)-(136)",
    "Eq. (137)",
    # Theorem 2, (70)-(77)
    "Eqs. (70)-(75)",
    "Eqs. (75)-(76)",
    "Eqs. (76)-(77)",
]


def test_the_chains_are_checked_one_step_at_a_time(steps):
    assert not set(STEP_BY_STEP) - set(steps.equations)


def _lemma2_terms(p, q, a):
    k = 1 / a - 1
    d = (1 - p) ** 2 + 4 * p**2 * q * (1 - q) * k
    return k, d, math.sqrt(d)


@pytest.mark.parametrize("p, q, a", [(0.3, 0.5, 0.1), (0.7, 0.2, 0.25), (0.1, 0.9, 0.05)])
def test_eq91_as_printed_is_not_eq90_and_with_the_sign_corrected_it_is(p, q, a):
    k, d, root = _lemma2_terms(p, q, a)
    eq90 = 1 / p + ((1 - p) - 4 * p * q * (1 - q) * k - root) / root / (root - (1 - p))

    def eq91(sign):
        top = d + p * (1 - p) - 4 * p**2 * q * (1 - q) * k - ((1 - p) + sign * p) * root
        return top / root / (p * (root - (1 - p)))

    assert eq91(+1) == pytest.approx(eq90, rel=1e-12)
    assert abs(eq91(-1) - eq90) > 0.1


@pytest.mark.parametrize("p, q, a", [(0.3, 0.5, 0.1), (0.7, 0.2, 0.25)])
def test_eq96_with_four_squared_is_not_eq95(p, q, a):
    k, _, root = _lemma2_terms(p, q, a)
    eq95 = -1 / (1 - q) - 4 * p**2 * k * (1 - 2 * q) / (2 * root) / (root - (1 - p))

    def eq96(coefficient):
        printed_root = math.sqrt((1 - p) ** 2 + coefficient * q * (1 - q) * k)
        top = root - (1 - p) + 2 * p**2 * k * (1 - q) * (1 - 2 * q) / root
        return -top / ((1 - q) * (printed_root - (1 - p)))

    assert eq96(4 * p**2) == pytest.approx(eq95, rel=1e-12)
    assert abs(eq96(16) - eq95) > 0.1


def test_eq135_is_no_lower_bound_where_p_exceeds_one_over_r():
    def sides(p, q, r):
        root = math.sqrt((1 - p) ** 2 + 4 * p * (1 - q) * (1 / r - p * q))
        eq134 = 2 * p * ((1 - p) * (2 * p * (1 - q) - (p - 1 / r)) / root + (p - 1 / r))
        return eq134, 4 * p * (p - 1 / r)  # (135) = (136)

    above, below = sides(0.9, 0.1, 3.0), sides(0.1, 0.5, 3.0)
    assert above[0] < above[1]  # p > 1/r~: (134) > (135) fails
    assert below[0] > below[1] and below[1] < 0  # p < 1/r~: it holds, but (137) fails


def test_fig5s_undrawn_corner_is_nan_but_one_point_minus_infinity():
    """Where pq ≥ 1/3 the authors' code finds no εᵢ for Fig. 5's lower panel: the log of a
    negative number (NaN) everywhere but at p = q = 1, where q = 1's branch takes log(−0) = −∞.
    The note said NaN at all 1,176 points; it counts both, from the grid."""
    grid = forensics.authors_fig5_epsilon()
    corner = grid.p * grid.q >= 1 / 3
    assert grid.epsilon.size == 40_000 and corner.sum() == 1176
    assert np.isfinite(grid.epsilon[~corner]).all() and not np.isfinite(grid.epsilon[corner]).any()
    minus_inf = np.isneginf(grid.epsilon)
    assert minus_inf.sum() == 1 and grid.p[minus_inf] == 1 and grid.q[minus_inf] == 1
    note = next(s for s in kd.wording() if s.equations == "Fig. 5 caption").detail
    assert "(NaN) at 1,175 of them" in note and "p = 1, q = 1 the log of −0, −∞" in note


def test_example_2s_curve_bottoms_at_the_kink_and_rises_again():
    """Fig. 1's second column at p = 0.05: εᵢ does not simply fall from q = 0.2 to q = 1, it
    bottoms at Theorem 4's ε where r* turns flat (q = ã/(p̃r̃) = 2/3) and rises to q = 1."""
    note = next(s for s in kd.wording() if s.equations == "Sec. 4, Example 2").detail
    lowest = rp.fixed_p_epsilon(0.1, 0.05, 3.0)
    assert f"its minimum {lowest:.4f} at q = {0.1 / (0.05 * 3):.4f}" in note
    at_one = rp.epsilon_at(0.05, 1.0, 3.0)
    assert at_one > lowest and f"rises again to {at_one:.4f} at q = 1" in note
