import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choosing_epsilon import risk
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.papers.laplace_intro import budget

amounts = st.decimals(min_value="0.001", max_value="5", places=3).map(float)


@given(total=amounts, requests=st.lists(amounts, max_size=60))
def test_accountant_never_lets_spending_exceed_the_budget(total, requests):
    accountant = budget.PrivacyAccountant(total)
    for eps in requests:
        before = accountant.spent
        if accountant.can_spend(eps):
            accountant.spend(eps)
        else:
            with pytest.raises(budget.BudgetExhausted, match="privacy budget exhausted"):
                accountant.spend(eps)
            assert accountant.spent == before
        assert accountant.spent <= total


@given(total=amounts, eps=amounts)
def test_releases_within_is_what_the_accountant_allows(total, eps):
    accountant = budget.PrivacyAccountant(total)
    count = 0
    while accountant.can_spend(eps):
        accountant.spend(eps)
        count += 1
    assert count == budget.releases_within(total, eps)


def test_decimal_amounts_add_exactly():
    accountant = budget.PrivacyAccountant(0.3)
    for _ in range(3):
        accountant.spend(0.1)
    assert accountant.remaining == 0 and budget.releases_within(0.3, 0.1) == 3


@given(prior=st.floats(0.001, 0.999), eps=st.floats(0.001, 20))
def test_posterior_bound_is_the_odds_bound(prior, eps):
    got = risk.largest_posterior(risk.pure(eps), prior)
    assert prior <= got <= 1
    assert got == pytest.approx(
        prior * math.exp(eps) / (1 - prior + prior * math.exp(eps)), rel=1e-12
    )
    if got < 0.99:  # the odds are well conditioned only away from 1
        assert got / (1 - got) == pytest.approx(math.exp(eps) * prior / (1 - prior), rel=1e-9)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: budget.PrivacyAccountant(0), "budget must be > 0"),
        (lambda: budget.PrivacyAccountant(1).spend(-0.5), "epsilon must be > 0"),
        (lambda: budget.releases_within(1, 0), "epsilon must be > 0"),
        (lambda: risk.largest_posterior(risk.pure(1), 1.0), r"prior must lie in \(0, 1\)"),
        (lambda: sens.mean_sensitivity(110, 0, 100), "upper must exceed lower"),
        (lambda: sens.mean_sensitivity(0, 110, 0), "n must be an integer >= 1"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_batch_of_releases_costs_their_sum_and_overdrawing_it_is_refused():
    accountant = budget.PrivacyAccountant(2.0)
    accountant.spend(0.001, times=2000)  # exactly the budget, with no rounding on the way
    assert accountant.releases == 2000 and accountant.remaining == 0
    with pytest.raises(budget.BudgetExhausted, match=r"a release at epsilon = 0\.001"):
        accountant.spend(0.001)
    fresh = budget.PrivacyAccountant(2.0)
    with pytest.raises(budget.BudgetExhausted, match="2001 releases"):
        fresh.spend(0.001, times=2001)
    assert fresh.releases == 0 and fresh.spent == 0
    with pytest.raises(ValueError, match="times must be an integer >= 0"):
        fresh.spend(0.001, times=-1)


def test_serve_requests_charges_what_the_budget_pays_for_and_refuses_the_next():
    accountant, refusal = budget.serve_requests(2.0, 0.5, 1000)
    assert accountant.releases == 4 and accountant.remaining == 0
    assert refusal is not None and "a release at epsilon = 0.5 needs 0.5" in refusal
    few, none_refused = budget.serve_requests(2.0, 0.001, 3)
    assert few.releases == 3 and none_refused is None
    assert few.remaining == pytest.approx(1.997)
    empty, refused = budget.serve_requests(1e-5, 0.5, 2)
    assert empty.releases == 0 and refused is not None
    with pytest.raises(ValueError, match="requests must be an integer >= 0"):
        budget.serve_requests(1.0, 0.1, -1)


@given(total=amounts, eps=amounts, requests=st.integers(0, 50))
def test_serve_requests_agrees_with_releases_within(total, eps, requests):
    accountant, refusal = budget.serve_requests(total, eps, requests)
    allowed = budget.releases_within(total, eps)
    assert accountant.releases == min(allowed, requests)
    assert (refusal is None) == (requests <= allowed)


def test_composition_table_at_the_example():
    table = budget.composition_table(0.5, 7)
    assert table["releases (k)"].tolist() == [1, 2, 3, 4, 5, 6]
    assert table["total ε (kε)"].tolist() == [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    assert table["step of kε"].iloc[1:].tolist() == [0.5] * 5
    assert table["ratio bound (e^kε)"].tolist() == [
        "1.649",
        "2.718",
        "4.482",
        "7.389",
        "12.18",
        "20.09",
    ]
    assert table["step of e^kε"].tolist() == ["", "1.07", "1.763", "2.907", "4.793", "7.903"]
    assert table["noise scale (Δ/(kε))"].tolist() == pytest.approx([14, 7, 14 / 3, 3.5, 2.8, 7 / 3])


def test_composition_table_at_a_huge_epsilon_does_not_overflow():
    table = budget.composition_table(1000.0, 1, releases=2)
    assert table["ratio bound (e^kε)"].tolist() == ["1.970×10⁴³⁴", "3.881×10⁸⁶⁸"]
    with pytest.raises(ValueError, match="epsilon must be > 0"):
        budget.composition_table(0.0, 1)
