"""Mugunthan, Xiao & Kagal's poster: what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title="Three formulas for ε from a confidence requirement — the poster, tested",
    source="mugunthan_poster",
    also_cited=(),
    citation=(
        'V. Mugunthan, W. Xiao and L. Kagal, "Poster: Novel strategies to calculate the privacy '
        'loss parameter in Differential Privacy", MIT CSAIL (venue and year unconfirmed)'
    ),
    reading=(
        "Mugunthan, Xiao and Kagal: three formulas for ε from a confidence requirement, each "
        "tested by simulation."
    ),
    order=5,
    trial={"c": 5.0, "p": 0.8, "w": 0.2},
    originals=(
        "no original figure file or code was found; its figures are compared only with the "
        "numbers the source prints."
    ),
    nbval_seconds=20,
    plots_test_seconds=14,
)
