"""How many examples a costly property test draws: a derandomized few under ``make test``, many
under ``make test-explore`` (``CHOOSING_EPSILON_HYPOTHESIS=explore``, see conftest.py).

A test that compares against a brute force over a large grid costs seconds an example; ``make test``
runs the first ``in_make_test`` examples of its fixed sequence (plus its ``@example``s), the same
assertions on every run, and ``make test-explore`` draws ``in_explore`` new ones. A failure found
there becomes an ``@example`` of its test, so that ``make test`` keeps it."""

import os

EXPLORING = os.environ.get("CHOOSING_EPSILON_HYPOTHESIS") == "explore"


def examples(in_make_test: int, in_explore: int) -> int:
    """The test's ``max_examples`` under the running profile."""
    return in_explore if EXPLORING else in_make_test
