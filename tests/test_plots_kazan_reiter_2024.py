"""The figures of kazan_reiter_2024: each draws at the paper's parameters and at an edge of its
inputs (a profile that binds almost nowhere, a single deviation, a minimiser below the usual
grid), keeps to the project's style, and carries a caption that keeps to it too."""

import math

import numpy as np
import pytest

from choosing_epsilon import risk_profiles
from choosing_epsilon.papers.kazan_reiter_2024 import figures as plots
from choosing_epsilon.papers.kazan_reiter_2024 import forensics
from choosing_epsilon.plots import figures, style

AXES = ["prior of inclusion (p)", "prior of the value (q)"]


def _drawn_problems(fig):
    figures._log_axes(fig)  # as save_figure does before its check
    fig.canvas.draw()
    return style.problems(fig)


def _keeps_to_the_style(fig, caption):
    assert _drawn_problems(fig) == []
    assert caption.problems() == []


@pytest.mark.parametrize("r_tilde", [3.0, 40.0], ids=["paper", "binds_little"])
def test_profile_pair_figure(r_tilde):
    agency1 = risk_profiles.fixed_q_profile(0.1, 1.0, r_tilde)
    agency2 = risk_profiles.fixed_p_profile(0.1, 0.05, r_tilde)
    solution1 = risk_profiles.minimise(agency1, q_range=(1.0, 1.0))
    solution2 = risk_profiles.minimise(agency2, p_range=(0.05, 0.05))
    p = forensics.figure1_prior(agency1, "p", 1.0)
    q = forensics.figure1_prior(agency2, "q", 0.05)
    frames = [
        forensics.curve(p, p, 1.0, agency1, "Agency 1", solution1),
        forensics.curve(q, 0.05, q, agency2, "Agency 2", solution2),
    ]
    fig, data = plots.profile_pair_figure(frames, ["Agency 1", "Agency 2"], AXES)
    assert len(fig.axes) == 4
    assert set(data.agency) == {"Agency 1", "Agency 2"}
    assert data.minimum.sum() == 2
    marked = data[data.minimum].set_index("agency").epsilon
    assert marked["Agency 1"] == pytest.approx(solution1.epsilon)
    assert marked["Agency 2"] == pytest.approx(solution2.epsilon)
    _keeps_to_the_style(fig, plots.profile_pair_caption(data))


@pytest.mark.parametrize(
    "r_tildes", [[1.5, 3, 6], [1.01, 60], [1.5, 2, 3, 6]], ids=["paper", "edges", "most"]
)
def test_table1_agencies_figure(r_tildes):
    rows = forensics.table1(r_tildes, 0.25, 1.0, 1)
    frame = forensics.table1_curves(rows, 0.25, 1.0)
    fig, data = plots.agencies_figure(frame, "prior of inclusion (p)", "Fig. 3: agencies")
    assert data.agency.nunique() == 2 * len(r_tildes)  # each agency and its baseline
    minima = data[data.minimum].epsilon.to_numpy()
    assert minima == pytest.approx([row["epsilon"] for row in rows])
    _keeps_to_the_style(fig, plots.agencies_caption(data, "Fig. 3", "the prior of inclusion p"))


@pytest.mark.parametrize(
    "a_tildes",
    [[0.025, 0.15, 0.3], [0.001, 0.9], [0.01, 0.025, 0.05, 0.1, 0.15, 0.3, 0.6]],
    ids=["paper", "edges", "most"],
)
def test_table5_agencies_figure(a_tildes):
    rows = forensics.table5(a_tildes, 0.05, 3.0, 1)
    frame = forensics.table5_curves(rows, 0.05, 3.0)
    fig, data = plots.agencies_figure(frame, "prior of the value (q)", "Fig. 4: agencies")
    assert data.agency.nunique() == len(a_tildes) + 1  # the agencies and one baseline
    assert data[data.minimum].epsilon.to_numpy() == pytest.approx([r["epsilon"] for r in rows])
    _keeps_to_the_style(fig, plots.agencies_caption(data, "Fig. 4", "the prior of the value q"))


@pytest.mark.parametrize(
    "deviations, r_tildes, a_tildes",
    [([0.25, 0.5, 1, 2], [1.2, 2, 5], [0, 0.1, 0.25, 0.5]), ([3.0], [50.0], [0.0])],
    ids=["paper", "one_bar"],
)
def test_durham_figure(deviations, r_tildes, a_tildes):
    durham, _ = forensics.durham(4012, 6.0, deviations, r_tildes, a_tildes, 1)
    fig, data = plots.durham_figure(durham, deviations)
    assert len(data) == len(durham) == len(r_tildes) * len(a_tildes)
    caption = plots.durham_caption(durham, min(deviations), 0.1)
    _keeps_to_the_style(fig, caption)


@pytest.mark.parametrize("a_tilde, r_tilde", [(0.25, 3.0), (0.99, 100.0)], ids=["paper", "edge"])
def test_two_dimensional_figure(a_tilde, r_tilde):
    profile = risk_profiles.two_dimensional_profile(a_tilde, r_tilde)
    found = risk_profiles.minimise(profile)
    p = q = np.geomspace(min(0.01, found.p / 2, found.q / 2), 1, 40)
    pp, qq = np.meshgrid(p, q, indexing="ij")
    r_star = np.asarray(profile(pp, qq), dtype=float)
    epsilon = risk_profiles.epsilon_grid(pp, qq, r_star)
    fig, data = plots.two_dimensional_figure(p, q, r_star, epsilon, (found.p, found.q))
    assert len(data) == p.size * q.size
    assert data.q.min() <= found.q <= data.q.max()  # the marked minimiser lies inside the axes
    caption = plots.two_dimensional_caption(data, (found.epsilon, found.p, found.q))
    _keeps_to_the_style(fig, caption)


def test_epsilon_cut_is_the_floor_or_above_the_highest_minimum():
    assert plots.epsilon_cut([0.5, 1.2], 3.0) == 3.0
    assert plots.epsilon_cut([0.5, 4.0], 3.0) == math.ceil(4.0 * 1.25)
