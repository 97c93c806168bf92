"""Kulynych et al. (2024): what the notebook is, declared once; the registry
(``harness.papers``) reads it."""

from choosing_epsilon.harness.papers import Paper

PAPER = Paper(
    title="Calibrating noise to attack risk — Kulynych et al. (2024), reproduced",
    source="kulynych2024attack",
    also_cited=(),
    citation=(
        'B. Kulynych, J. F. Gomez, G. Kaissis, F. du Pin Calmon and C. Troncoso, "Attack-Aware '
        'Noise Calibration for Differential Privacy", NeurIPS 2024 (arXiv 2407.02191); noise '
        "calibrated to an attack risk instead of to ε, with the authors' library riskcal and "
        "their published training runs (DP-SGD calibrations stored as data, recomputed by `make "
        "reproduce`); beyond the paper, the noise DP-SGD needs for a chance to single out one of "
        "k (by the bound of Hayes, Mahloujifar & Balle 2023 and by what k-ary randomized response"
        " under its curve attains), and DP-SGD's trade-off curve read directly where riskcal "
        "1.5.1 understates it"
    ),
    reading=(
        "Kulynych et al.: skip ε, state the attack risk accepted (an advantage, or a TPR at a low"
        " FPR) and calibrate the noise to it directly."
    ),
    order=8,
    trial={"gap_advantage": 0.3, "gap_fpr": 0.05},
    originals=(
        "the authors publish their plotting scripts and the runs' metadata "
        "(bogdan-kulynych/riskcal, `research/attack_aware_noise_calibration`, MIT). The notebook "
        "draws Figs. 1 and 4 from the training runs' metadata, copied unchanged into "
        "`data/kulynych_2024/`, and compares the paper's ratios with the grids of the authors' "
        "scripts of the paper's time."
    ),
    nbval_seconds=43,
    plots_test_seconds=21,
)
