"""Benchmarks (``make bench``): not collected by ``make test``, never timed assertions."""

import numpy as np
import pytest

from choosing_epsilon import possible_worlds as pw


@pytest.mark.parametrize("n", [10**2, 10**3, 3 * 10**3])  # O(n^2) today; issue 9 makes it O(n log n)
def test_epsilon_for_risk(benchmark, n):
    values = np.random.default_rng(n).normal(size=n)
    values[0] = 400.0  # one outlier, as the paper's astronaut alumni
    benchmark(pw.epsilon_for_risk, values, 0.5, "mean")


def test_monte_carlo_adversary(benchmark):
    answers = np.array([2, 13 / 3, 14 / 3, 5])
    benchmark(pw.simulate_adversary, answers, 0, 17 / 6, 2.0, 100_000, np.random.default_rng(0))
