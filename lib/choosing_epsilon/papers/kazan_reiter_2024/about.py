"""Kazan & Reiter (2024): what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title="Choosing ε from a risk profile — Kazan & Reiter (2024), reproduced",
    source="kazan2024prioritizing",
    also_cited=(),
    citation=(
        'Z. Kazan and J. P. Reiter, "Prior-itizing Privacy: A Bayesian Approach to Setting the '
        "Privacy Budget in Differential Privacy\", NeurIPS 2024 (arXiv 2306.13214); the authors' "
        "grid search compared with the exact answers"
    ),
    reading=(
        "Kazan and Reiter: the agency states how much posterior risk it accepts at each prior, "
        "and that risk profile fixes ε."
    ),
    order=7,
    trial={"table1_a_tilde": 0.3, "table5_p_tilde": 0.1, "fig1_a_tilde": 0.2},
    originals=(
        "the authors publish their grid search, the code behind every figure and the figures "
        "themselves (github.com/zekicankazan/choosing_dp_epsilon, commit 2e2bb5d2fd23, no "
        "licence, so only what it outputs is kept here). `make authors-code "
        "AUTHORS_CHECKOUT=path` runs their `find_eps.R` unchanged under R on every profile the "
        "notebook evaluates (`data/authors_code/`, checked against the notebook by `make test` "
        "without R), and reads values off their five figures by pixel positions "
        "(`tools/read_kazan_reiter_figures.py`): each reading is a ledger row of kind *read off a"
        " figure*, with its method and precision ([running it](running.md#other-targets))."
    ),
    nbval_seconds=26,
    plots_test_seconds=14,
)
