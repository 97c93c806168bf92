"""Shoaran, Thomo & Weber (2012): what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title=(
        "Differential privacy in practice: relative error, minimum true answers and DIFF — a "
        "reproduction"
    ),
    source="shoaran2012practice",
    also_cited=(),
    citation=(
        'M. Shoaran, A. Thomo and J. Weber, "Differential Privacy in Practice", Secure Data '
        "Management (SDM 2012), LNCS 7482"
    ),
    reading=(
        "Shoaran, Thomo and Weber: choose ε from the relative error an analyst accepts and the "
        "smallest true answer worth releasing."
    ),
    order=4,
    trial={"epsilon": 0.05, "pr": 0.2, "re": 0.2},
    originals=(
        "no original figure file or code was found; its figures are compared only with the "
        "numbers the source prints."
    ),
    nbval_seconds=15,
    plots_test_seconds=6,
)
