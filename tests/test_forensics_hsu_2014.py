"""The sentences the Hsu notebook prints about its searches: what each found at the slides'
parameters, and why it found nothing where a search has no answer."""

import math

import pytest

from choosing_epsilon import economics
from choosing_epsilon.papers.hsu_2014 import forensics, scans

P = economics.expected_cost(1274, 0.05)  # the slides' $63.70
SLIDES = (0.05, 0.1, True)  # d, T, the slides' rounded constants


def test_largest_feasible_text_gives_the_design_or_the_cost_floor():
    floor = economics.cost_floor(P, *SLIDES)
    best = economics.largest_feasible_epsilon(P, 30000, *SLIDES)
    assert forensics.largest_feasible_text(best, 30000, floor).startswith(
        f"largest feasible ε = {best.epsilon:.6f} at N = {best.n}: "
    )
    # below the floor P ln(1/T)/(d/2) no design exists, and the sentence says why
    assert economics.largest_feasible_epsilon(P, 1, *SLIDES) is None
    text = forensics.largest_feasible_text(None, 1, floor)
    assert "the budget $1.00 does not exceed the cost floor" in text
    assert economics.dollars(P * math.log(10) / 0.025) in text


def test_cheapest_study_text_says_when_the_cap_is_below_the_sampling_size():
    n_sampling = economics.sampling_n(*SLIDES)
    floor = economics.cost_floor(P, *SLIDES)
    assert economics.cheapest_study(P, *SLIDES, max_n=1) is None
    none = forensics.cheapest_study_text(None, 1, n_sampling, floor)
    assert none.startswith(
        "no accurate study has N ≤ 1: the sampling term alone exceeds α below N = ln(2/T)/c_s = "
        f"{n_sampling:,.0f}\n"
    )
    cheap = economics.cheapest_study(P, *SLIDES, max_n=10**6)
    text = forensics.cheapest_study_text(cheap, 10**6, n_sampling, floor)
    assert f"N = {cheap.n:,}" in text
    assert text.endswith(f"{economics.dollars(floor)} as N grows without bound")


def test_crossover_text_applies_only_below_a_half():
    crossover = economics.crossover_error(0.05, 0.25, 2500, 0.002)
    assert forensics.crossover_text(0.05, 0.25, 2500, 0.002).endswith(f"below {crossover:.3f}")
    assert "for every error d in (0, 1)" in forensics.crossover_text(0.05, 0.25, 2500, 0.999)
    off = forensics.crossover_text(0.6, 0.25, 2500, 0.002)
    assert "the comparison is not applicable" in off and "no crossover" in off


def test_largest_epsilon_text_marks_the_scan_end_and_a_missing_design():
    design = economics.StudyDesign(
        epsilon=economics.EXACT_EPSILON_MAX, n=1, payment=1.0, total_cost=1.0, accuracy_bound=0.1
    )
    assert "at least 20.0000 at N = 1" in forensics.largest_epsilon_text(design, None)
    assert forensics.largest_epsilon_text(None, None) == (
        "largest ε the budget pays for: no ε ≥ 0.0001 with the exact accuracy, "
        "against no ε with the bound"
    )


@pytest.mark.parametrize("worst, verdict", [(1e-9, "indeed"), (0.2, "NOT")])
def test_sufficiency_text_compares_the_worst_failure_with_the_bound(worst, verdict):
    assert forensics.sufficiency_text(worst, 0.0996).endswith(f"{verdict} sufficient there")


def test_worst_design_text_says_whether_T_holds_at_the_worst_fraction():
    designs = {"design": (6.26, 6)}
    row = scans.worst_case_table(designs, 0.2).iloc[0]
    met = row["failure at worst p"] <= 0.3
    text = forensics.worst_design_text(row, 0.3)
    assert text.endswith(f"T = 0.3 is {'still met' if met else 'EXCEEDED'} at the worst p")
