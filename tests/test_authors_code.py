"""The committed output of Kazan & Reiter's own find_eps.R (data/authors_code/, written by
``make authors-code`` under R) against the notebook's restatement of their grid search and its
exact solver. Needs no R: it reads the committed results."""

import math

import numpy as np
import pandas as pd
import pytest

from choosing_epsilon import risk_profiles as rp
from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import DATA
from choosing_epsilon.papers.kazan_reiter_2024 import forensics as kr

RESULTS = DATA / "authors_code" / "kazan_reiter_find_eps.csv"
STEP = kr.GRID_STEP
AXIS = np.minimum(STEP + np.arange(round(1 / STEP)) * STEP, 1.0)  # seq(1e-3, 1, 1e-3) in R


def _results() -> pd.DataFrame:
    return pd.read_csv(RESULTS, dtype={"parameters": str}, keep_default_na=False)


def _specs() -> dict[str, kr.ProfileSpec]:
    values = {name: p.committed for name, p in parameters.SPECS["kazan_reiter_2024"].items()}
    return {s.name: s for s in kr.authors_code_profiles(values)}


def _found(table: pd.DataFrame) -> pd.DataFrame:
    return table[table.outcome == "found"]


def test_every_profile_the_notebook_evaluates_was_run_once_at_the_pinned_commit():
    table, specs = _results(), _specs()
    assert list(table.profile) == list(specs)
    assert list(table.form) == [s.form for s in specs.values()]
    assert list(table.parameters) == [s.parameters for s in specs.values()]
    assert set(table.authors_commit) == {kr.AUTHORS_COMMIT}
    assert set(table.find_eps_blob) == {kr.AUTHORS_FIND_EPS_BLOB}
    assert table.r_version.str.match(r"R version \d+\.\d+\.\d+").all()
    assert set(table.outcome) <= {"found"} | set(table.outcome[table.outcome.str.startswith("no ")])


@pytest.mark.parametrize("name", list(_specs()))
def test_the_restated_grid_search_gives_the_authors_epsilon_p_and_q(name):
    row = _results().set_index("profile").loc[name]
    grid = rp.grid_search(_specs()[name].profile(), STEP)
    if row.outcome != "found":
        assert math.isinf(grid.epsilon)
        return
    found = [float(row.grid_epsilon), float(row.grid_p), float(row.grid_q)]
    assert [grid.epsilon, grid.p, grid.q] == pytest.approx(found, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("name", list(_found(_results()).profile))
def test_the_exact_epsilon_is_at_most_the_grids_and_within_its_step(name):
    row = _results().set_index("profile").loc[name]
    spec = _specs()[name]
    exact = spec.exact()
    grid_eps, grid_p, grid_q = float(row.grid_epsilon), float(row.grid_p), float(row.grid_q)
    assert exact.epsilon <= grid_eps + 1e-12  # a grid's minimum is never below the infimum
    # the grid's minimiser is the grid point next to the exact one, on each axis
    assert abs(grid_p - exact.p) <= STEP * (1 + 1e-9) and abs(grid_q - exact.q) <= STEP * (1 + 1e-9)
    # the authors' ε is Eq. (12) at their (p, q) (their printed form: 1e-9, not the last bits)
    profile = spec.profile()
    at_grid = rp.epsilon_at(grid_p, grid_q, float(np.asarray(profile(grid_p, grid_q))))
    assert grid_eps == pytest.approx(at_grid, rel=1e-9)
    # what the grid misses is at most what εᵢ climbs from the exact minimiser to its nearest
    # grid point, which the search also visits
    near_p, near_q = (float(AXIS[np.argmin(np.abs(AXIS - x))]) for x in (exact.p, exact.q))
    near = rp.epsilon_at(near_p, near_q, float(np.asarray(profile(near_p, near_q))))
    assert grid_eps <= near * (1 + 1e-9)


def test_rows_the_grid_cannot_represent_say_so_and_why():
    table, specs = _results(), _specs()
    missing = table[table.outcome != "found"]
    assert list(missing.profile) == ["App. C.2, p~ = 0.0005", "Exercise 2"]
    assert missing.outcome.str.contains("no grid point where the profile binds").all()
    assert (missing.grid_epsilon == "").all()
    below = specs["App. C.2, p~ = 0.0005"]["p"]
    assert below < AXIS[0]  # p~ = 0.0005 lies below the grid's first point 0.001
    # p~ = 0.01 is nominally the grid's tenth point, but seq's 0.001 + 9 × 0.001 is not 0.01
    tenth = specs["Exercise 2"]["p"]
    assert AXIS[9] != tenth and abs(AXIS[9] - tenth) < 1e-17 and tenth not in set(AXIS)
