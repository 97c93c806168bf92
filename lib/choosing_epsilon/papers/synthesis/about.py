"""The synthesis: what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title="So which ε should I use? One release through every method",
    source=None,
    also_cited=("opendp2024registry", "opendp2026deployments"),
    citation=(
        "every method of the other notebooks on one survey, beside OpenDP's deployments registry "
        "(2026), all read on one attacker scale; re-identification (singling out one of k) read "
        'off the trade-off curve after J. Hayes, S. Mahloujifar and B. Balle, "Bounding Training '
        'Data Reconstruction in DP-SGD", NeurIPS 2023 (arXiv 2302.07225), G. Kaissis, J. Hayes, '
        'A. Ziller and D. Rueckert, "Bounding Data Reconstruction Attacks with the Hypothesis '
        'Testing Interpretation of Differential Privacy" (arXiv 2307.03928, 2023) and B. '
        "Kulynych, J. F. Gomez, G. Kaissis, J. Hayes, B. Balle, F. du Pin Calmon and J. L. "
        'Raisaro, "Unifying Re-Identification, Attribute Inference, and Data Reconstruction Risks'
        ' in Differential Privacy", NeurIPS 2025 (arXiv 2507.06969), with the older bounds of B. '
        'Balle, G. Cherubin and J. Hayes, "Reconstructing Training Data with Informed '
        'Adversaries", IEEE S&P 2022 (arXiv 2201.04845)'
    ),
    reading=(
        "the answer on one page: one survey run through every method below, set beside the ε of "
        "real deployments."
    ),
    order=2,
    trial={"rho": 0.01, "demo_n_people": 5000, "max_advantage": 0.1},
    originals="",
    nbval_seconds=27,
    plots_test_seconds=32,
)
