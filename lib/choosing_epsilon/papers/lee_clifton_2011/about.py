"""Lee & Clifton (2011): what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title="How much is enough? Choosing ε for differential privacy — a reproduction",
    source="lee2011howmuch",
    also_cited=(),
    citation=(
        'J. Lee and C. Clifton, "How Much Is Enough? Choosing ε for Differential Privacy", ISC '
        "2011, LNCS 7001"
    ),
    reading=(
        "Lee and Clifton: choose ε so that an adversary's posterior belief about who is in the "
        "data stays below a risk ρ."
    ),
    order=3,
    trial={"rho": 0.5, "example_epsilon": 1.5, "year_epsilon": 0.8},
    originals=(
        "no original figure file or code by the authors was found; the examples are compared with"
        " a third-party public replication (gonzalo-munillag/Blog), whose search the notebook "
        "restates with its defects."
    ),
    nbval_seconds=16,
    plots_test_seconds=17,
)
