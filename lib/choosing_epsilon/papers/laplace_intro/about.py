"""The introduction to the Laplace mechanism: what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title="The Laplace mechanism, ε, averaging attacks and budgets — an introduction",
    source="laplaceblog",
    also_cited=(),
    citation=(
        '"Introduction to differential privacy", a blog post on the Laplace mechanism, ε, '
        "averaging attacks and budgets — **start here** if you are new to differential privacy; "
        "beyond the post, the averaging attack read exactly on the attacker's scale: k releases "
        'composed as P. Kairouz, S. Oh and P. Viswanath, "The Composition Theorem for '
        'Differential Privacy", ICML 2015 (Thm. 3.3) gives the worst case, beside the advanced '
        'composition theorem of C. Dwork, G. N. Rothblum and S. Vadhan, "Boosting and '
        "Differential Privacy\", FOCS 2010, and Gaussian DP's composition of J. Dong, A. Roth and "
        'W. J. Su, "Gaussian Differential Privacy", JRSS-B 2022 (the `composition` module)'
    ),
    reading=(
        "new to differential privacy? The Laplace mechanism, what ε bounds, averaging attacks and"
        " budgets, from an introductory post."
    ),
    order=1,
    trial={"epsilon": 1.0, "sensitivity": 3.0, "n_records": 500},
    originals=(
        "no original figure file or code was found; its figures are compared only with the "
        "numbers the source prints."
    ),
    nbval_seconds=21,
    plots_test_seconds=15,
)
