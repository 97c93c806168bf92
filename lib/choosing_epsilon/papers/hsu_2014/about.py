"""Hsu et al. (2014): what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title="Differential privacy: an economic method for choosing ε — a reproduction",
    source="hsu2014economic",
    also_cited=("hsu2014slides", "nigoshh2021privacyaccuracy"),
    citation=(
        "J. Hsu, M. Gaboardi, A. Haeberlen, S. Khanna, A. Narayan, B. C. Pierce and A. Roth, "
        '"Differential Privacy: An Economic Method for Choosing Epsilon", IEEE CSF 2014 (from the'
        " talk slides; full-paper formulas and examples from secondary sources, a public notebook"
        " and unpublished reading notes, marked as such)"
    ),
    reading=(
        "Hsu et al.: an economic method, ε and the study size N from what participation costs and"
        " what the analyst can pay."
    ),
    order=6,
    trial={"budget": 50000.0, "error": 0.02, "failure_probability": 0.2},
    originals=(
        "no original figure file or code by the authors was found; a third-party public notebook "
        "(nigoshh/privacy-accuracy) is used as a secondary source, marked as such."
    ),
    nbval_seconds=25,
    plots_test_seconds=10,
)
