"""A privacy budget under sequential composition: k releases at ε cost kε, and the budget ε_t
caps the total.

Amounts are added exactly as the decimal numbers they are written as (0.1 + 0.1 + 0.1 is 0.3),
so a budget is never overdrawn by rounding and never refused a release it can afford.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from choosing_epsilon._validate import positive
from choosing_epsilon.laplace import ratio_label


class BudgetExhausted(ValueError):
    """A release would spend more ε than the budget has left."""


def _exact(name: str, value: float) -> Fraction:
    return Fraction(repr(positive(name, value)))


def releases_within(budget: float, epsilon: float) -> int:
    """⌊ε_t / ε⌋: how many ε-DP releases a budget ε_t pays for (sequential composition)."""
    return math.floor(_exact("budget", budget) / _exact("epsilon", epsilon))


class PrivacyAccountant:
    """Tracks the ε spent on one dataset and refuses any release that would exceed the budget
    ε_t."""

    def __init__(self, budget: float):
        self._budget = _exact("budget", budget)
        self._spent = Fraction(0)
        self.releases = 0

    @property
    def budget(self) -> float:
        return float(self._budget)

    @property
    def spent(self) -> float:
        return float(self._spent)

    @property
    def remaining(self) -> float:
        return float(self._budget - self._spent)

    def can_spend(self, epsilon: float) -> bool:
        """Whether a release at ε still fits in the budget."""
        return self._spent + _exact("epsilon", epsilon) <= self._budget

    def spend(self, epsilon: float, times: int = 1) -> None:
        """Charge ``times`` ε-DP releases at once (their cost adds up: sequential composition), or
        raise BudgetExhausted naming what is left."""
        if isinstance(times, bool) or not isinstance(times, int) or times < 0:
            raise ValueError(f"times must be an integer >= 0, got {times!r}")
        cost = _exact("epsilon", epsilon) * times
        if self._spent + cost > self._budget:
            what = (
                "a release at epsilon = {!r} needs"
                if times == 1
                else f"{times} releases at epsilon = {{!r}} need"
            )
            raise BudgetExhausted(
                f"privacy budget exhausted: {what.format(epsilon)} {float(cost)!r} but only "
                f"{float(self._budget - self._spent)!r} of the budget {float(self._budget)!r} "
                f"is left ({self.releases} releases made)"
            )
        self._spent += cost
        self.releases += times


def _count(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
    return int(value)


def serve_requests(
    budget: float, epsilon: float, requests: int
) -> tuple[PrivacyAccountant, str | None]:
    """Serve ``requests`` releases at ε from a budget ε_t (sequential composition): the ⌊ε_t/ε⌋
    the budget pays for, or all requested if fewer, are charged at once; returns the accountant
    and the refusal of the next request, or None when no request was refused."""
    wanted = _count("requests", requests)
    accountant = PrivacyAccountant(budget)
    allowed = releases_within(budget, epsilon)
    accountant.spend(epsilon, times=min(allowed, wanted))
    refusal = None
    if wanted > allowed:
        try:
            accountant.spend(epsilon)  # the next request
        except BudgetExhausted as error:
            refusal = str(error)
    if (wanted > allowed and refusal is None) or accountant.spent > accountant.budget:
        raise RuntimeError(
            f"the accountant allowed {accountant.releases} of {wanted} releases, "
            f"but ⌊ε_t/ε⌋ = {allowed}: the two disagree"
        )
    return accountant, refusal


def composition_table(epsilon: float, sensitivity: float, releases: int = 6) -> pd.DataFrame:
    """k = 1, …, ``releases`` releases at ε under sequential composition: the total kε, the ratio
    bound e^kε and the noise scale Δ/(kε) of one release at the total level, with the steps of kε
    and e^kε from the row before."""
    eps, delta = positive("epsilon", epsilon), positive("sensitivity", sensitivity)
    k = np.arange(1, _count("releases", releases) + 1)
    total = k * eps
    log_factor = math.log(-math.expm1(-eps))  # e^kε - e^(k-1)ε = e^kε (1 - e^-ε)
    return pd.DataFrame(
        {
            "releases (k)": k,
            "total ε (kε)": total,
            "step of kε": np.diff(total, prepend=np.nan),
            "ratio bound (e^kε)": [ratio_label(e, 4) for e in total],
            "step of e^kε": ["", *(ratio_label(e + log_factor, 4) for e in total[1:])],
            "noise scale (Δ/(kε))": delta / total,
        }
    )
