"""The figures of kulynych_2024: each drawn from the data of the committed run (the notebook's
defaults) and at an edge of its inputs, keeping to the project's style, with a caption that keeps
to it too and, at the defaults, is the committed run's caption."""

import json

import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import risk
from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import DATA, FIGURES
from choosing_epsilon.papers.kulynych_2024 import figures as plots
from choosing_epsilon.papers.kulynych_2024 import forensics
from choosing_epsilon.plots import figures, style

COMMITTED = FIGURES / "kulynych_2024"
CAPTIONS = json.loads((COMMITTED / "captions.json").read_text(encoding="utf-8"))
# the notebook's defaults
DELTA = 1e-5
FPR_TARGETS = [0.01, 0.05, 0.1]
GAP_ADVANTAGE, GAP_FPR = 0.5, 0.1


def committed(name):
    return pd.read_csv(COMMITTED / f"{name}.csv")


def _keeps_to_the_style(fig, caption):
    figures._log_axes(fig)  # as save_figure does before its check
    fig.canvas.draw()
    assert style.problems(fig) == []  # the reader's rules (style.reader_problems) included
    assert caption.problems() == []
    # the rules captions.json is checked against
    assert len(caption.caption) <= 400 and 40 <= len(caption.alt) <= 1000


def _labelled(ax):
    return [line for line in ax.get_lines() if not line.get_label().startswith("_")]


def gap_curves(advantage, delta, points=201):
    """The curves of Figs. 2b and 6, computed as the notebook computes them."""
    fprs = np.linspace(0, (1 - advantage) / 2, points)
    mu_adv = 1.0 / risk.noise_for("Gaussian", risk.at_most_advantage(advantage))
    epsilon = risk.epsilon_for(risk.at_most_advantage(advantage), delta)
    mu_std = 1.0 / risk.gaussian_noise_for_epsilon(epsilon, delta)
    return pd.DataFrame(
        {
            "fpr": fprs,
            "worst_case": forensics.worst_case_gap(advantage, delta, fprs),
            "bound": [forensics.advantage_calibration_gap(advantage, delta, a) for a in fprs],
            "gaussian_stated": risk.tradeoff(risk.approximate(epsilon, delta), fprs)
            - risk.tradeoff(risk.gdp(mu_adv), fprs),
            "gaussian_exact": risk.tradeoff(risk.gdp(mu_std), fprs)
            - risk.tradeoff(risk.gdp(mu_adv), fprs),
        }
    )


# Figs. 2a and 3: the noise of both calibrations


def test_noise_figure_at_the_defaults_draws_a_panel_per_risk():
    grid = committed("fig2a_fig3_noise")
    fig, data = plots.noise_figure(grid)
    pd.testing.assert_frame_equal(data, grid)
    axes = fig.axes
    assert len(axes) == 1 + len(FPR_TARGETS)
    assert [ax.get_title(loc="left") for ax in axes] == [
        "(a) advantage",
        "(b) TPR at FPR α = 0.01",
        "(c) TPR at FPR α = 0.05",
        "(d) TPR at FPR α = 0.1",
    ]
    assert {ax.get_yscale() for ax in axes} == {"log"}
    assert axes[0].get_xlabel() == "attack advantage (η)"
    advantage = grid[grid.kind == "advantage"].sort_values("target")
    standard, aware = axes[0].get_lines()
    assert np.allclose(standard.get_xdata(), advantage.target)
    assert np.allclose(standard.get_ydata(), advantage.sigma_standard)
    assert np.allclose(aware.get_ydata(), advantage.sigma_aware)
    for ax in axes:
        standard, aware = ax.get_lines()
        # standard calibration needs more noise at every target: the caption's claim, drawn
        assert np.all(standard.get_ydata() > aware.get_ydata())
    caption = plots.noise_caption(grid)
    assert caption == figures.Caption(**CAPTIONS["fig2a_fig3_noise"])
    _keeps_to_the_style(fig, caption)


def test_noise_figure_with_a_single_fpr():
    grid = committed("fig2a_fig3_noise")
    grid = grid[(grid.kind == "advantage") | (grid.fpr == 0.05)].reset_index(drop=True)
    fig, _ = plots.noise_figure(grid)
    assert len(fig.axes) == 2
    caption = plots.noise_caption(grid)
    best = grid[grid.kind == "tpr"].noise_ratio.max()
    assert f"up to {best:.2f} times less for a TPR" in caption.caption
    assert "FPR 0.05)" in caption.caption
    _keeps_to_the_style(fig, caption)


def test_noise_caption_without_a_tpr_target_speaks_of_the_advantage_only():
    # a TPR target is kept only above its FPR + δ: a run may have none
    grid = committed("fig2a_fig3_noise")
    advantage = grid[grid.kind == "advantage"].reset_index(drop=True)
    caption = plots.noise_caption(advantage)
    assert "TPR" not in caption.caption
    assert f"up to {advantage.noise_ratio.max():.2f} times less noise" in caption.caption
    assert caption.problems() == []


def test_the_noise_grid_drawn_is_the_stored_grid_the_notebook_reads():
    params = parameters.committed_values("kulynych_2024")
    setting, wanted = forensics.grid_request(
        params["sample_rate"],
        params["num_steps"],
        params["delta"],
        params["advantage_targets"],  # Fig. 2a draws the paper's grid only
        params["fpr_targets"],
        params["tpr_targets"],
    )
    store = DATA / "kulynych_2024" / "dpsgd_calibrations.json"
    grid, provenance = forensics.calibrations(setting, wanted, store, workers=1)
    assert provenance["computed"] == 0  # every row from the store: nothing recomputed here
    drawn = committed("fig2a_fig3_noise")
    stored = grid.drop(columns="key").reset_index(drop=True)
    assert list(stored.columns) == list(drawn.columns)
    numeric = stored.select_dtypes("number").columns
    assert np.allclose(stored[numeric], drawn[numeric], rtol=1e-9, equal_nan=True)
    assert plots.noise_caption(grid) == figures.Caption(**CAPTIONS["fig2a_fig3_noise"])


# Figs. 2b and 6: the cost of calibrating to the advantage


def test_gap_figure_at_the_defaults_draws_the_committed_curves():
    curves = gap_curves(GAP_ADVANTAGE, DELTA)
    drawn = committed("fig2b_advantage_gap")
    assert np.allclose(curves, drawn, rtol=1e-9, atol=1e-12)
    fig, data = plots.gap_figure(curves, GAP_ADVANTAGE)
    pd.testing.assert_frame_equal(data, curves)
    (ax,) = fig.axes
    assert ax.get_title() == "Figs. 2b and 6: the cost of calibrating to advantage η = 0.5"
    assert ax.get_xlim() == (0, 0.25)
    assert [line.get_label() for line in _labelled(ax)] == [
        "worst-case (ε, δ) mechanism, exact",
        "Proposition 3.3's lower bound",
        "Gaussian, against (ε, δ)'s curve",
        "Gaussian, against its own curve",
    ]
    # the exact worst case is never below Proposition 3.3's lower bound
    assert np.all(curves.worst_case >= curves.bound - 1e-12)
    caption = plots.gap_caption(curves, GAP_ADVANTAGE, GAP_FPR)
    assert caption == figures.Caption(**CAPTIONS["fig2b_advantage_gap"])
    _keeps_to_the_style(fig, caption)


@pytest.mark.parametrize(
    "advantage, fpr", [(2e-5, 0.4), (0.98, 0.009)], ids=["just_above_delta", "near_one"]
)
def test_gap_figure_at_the_edges_of_the_advantage(advantage, fpr):
    curves = gap_curves(advantage, DELTA)
    assert np.all(np.isfinite(curves.to_numpy()))
    fig, _ = plots.gap_figure(curves, advantage)
    assert fig.axes[0].get_xlim() == pytest.approx((0, (1 - advantage) / 2))
    caption = plots.gap_caption(curves, advantage, fpr)
    assert caption.caption.startswith(f"Calibrating to advantage {advantage:g} instead")
    nearest = curves.fpr.iloc[int(np.argmin(np.abs(curves.fpr - fpr)))]
    assert f"at FPR {nearest:.3g} gain" in caption.caption
    _keeps_to_the_style(fig, caption)


# Fig. 4: the trade-off curves of the GPT-2 runs


def test_tradeoff_figure_at_the_defaults_draws_a_panel_per_run():
    curves = committed("fig4_tradeoff_curves")
    fig, data = plots.tradeoff_figure(curves)
    pd.testing.assert_frame_equal(data, curves)
    sigmas = sorted(curves.sigma.unique())
    assert len(fig.axes) == len(sigmas) == 3
    for index, (ax, sigma) in enumerate(zip(fig.axes, sigmas)):
        assert ax.get_title(loc="left").startswith(f"{style.letter(index)} σ = {sigma:.4f}")
        assert (ax.get_xlim(), ax.get_ylim()) == ((0, 1), (0, 1))
        standard, aware, diagonal = ax.get_lines()
        run = curves[curves.sigma == sigma]
        assert np.allclose(aware.get_ydata(), run.fnr_aware)
        assert np.allclose(standard.get_ydata(), run.fnr_standard)
        # the run's own curve lies on or above the one its (ε, δ) implies
        assert np.all(aware.get_ydata() >= standard.get_ydata() - 1e-9)
        assert list(diagonal.get_xdata()) == [0, 1] and list(diagonal.get_ydata()) == [1, 0]
    caption = plots.tradeoff_caption(curves)
    assert caption == figures.Caption(**CAPTIONS["fig4_tradeoff_curves"])
    _keeps_to_the_style(fig, caption)


def test_tradeoff_figure_at_another_delta():
    # δ is the one parameter the runs' curves depend on: at δ = 0.01 the (ε, δ) reading changes
    gpt2 = forensics.gpt2_runs(DATA / "kulynych_2024" / "gpt2_metadata.csv")
    shown = gpt2[(gpt2.test_acc > 0.55) & (gpt2.test_acc < 0.705)]  # the notebook's three runs
    _, curves = forensics.run_analysis(shown, [0.01], np.linspace(0, 1, 51), 0.01)
    assert curves.sigma.nunique() == 3
    fig, _ = plots.tradeoff_figure(curves)
    caption = plots.tradeoff_caption(curves)
    gap = (curves.fnr_aware - curves.fnr_standard).max()
    assert f"by up to {gap:.2f} in false-negative rate" in caption.caption
    assert caption != figures.Caption(**CAPTIONS["fig4_tradeoff_curves"])
    _keeps_to_the_style(fig, caption)


# Fig. 1: accuracy against the attack's TPR


def test_utility_figure_at_the_defaults_draws_a_task_per_row_and_an_fpr_per_column():
    risks = committed("fig1_accuracy_against_risk")
    fig, data = plots.utility_figure(risks)
    pd.testing.assert_frame_equal(data, risks)
    tasks = ["GPT-2 on SST-2", "CNN on CIFAR-10"]
    assert list(dict.fromkeys(risks.task)) == tasks
    assert len(fig.axes) == len(tasks) * len(FPR_TARGETS)
    for index, ax in enumerate(fig.axes):
        task, fpr = tasks[index // 3], FPR_TARGETS[index % 3]
        assert ax.get_ylabel() == f"{task}:\nattack TPR (1 − β)"
        assert ax.get_title(loc="left") == f"{style.letter(index)} FPR α = {fpr:g}"
        part = risks[(risks.task == task) & (risks.fpr == fpr)].sort_values("test_acc")
        standard, aware = ax.get_lines()
        assert np.allclose(standard.get_xdata(), 100 * part.test_acc)
        assert np.allclose(aware.get_ydata(), part.tpr_aware)
    caption = plots.utility_caption(risks)
    assert "(100% of the points)" in caption.caption
    assert caption == figures.Caption(**CAPTIONS["fig1_accuracy_against_risk"])
    _keeps_to_the_style(fig, caption)


def test_utility_figure_with_a_single_fpr_wraps_its_title():
    risks = committed("fig1_accuracy_against_risk")
    risks = risks[risks.fpr == 0.1].reset_index(drop=True)
    fig, _ = plots.utility_figure(risks)
    assert len(fig.axes) == 2  # one column, a row per task
    title = fig.get_suptitle()
    assert "\n" in title  # a figure one panel wide wraps the title (reader_problems: no wider)
    assert title.replace("\n", " ") == (
        "Fig. 1: task accuracy against the attack TPR each run allows"
    )
    _keeps_to_the_style(fig, plots.utility_caption(risks))


def test_utility_caption_counts_the_points_where_the_run_allows_less():
    risks = committed("fig1_accuracy_against_risk")
    # a run whose own accounting were worse at one point out of every four
    worse = risks.copy()
    rows = worse.index[::4]
    worse.loc[rows, "tpr_aware"] = worse.loc[rows, "tpr_standard"] + 0.01
    share = 1 - len(rows) / len(worse)
    assert f"({share:.0%} of the points)" in plots.utility_caption(worse).caption
