"""Parameter extremes of lee_clifton_2011: each case once crashed, misreported or grew without
bound."""

import math

import nbformat
import numpy as np
import pandas as pd
import papermill
import pytest
from PIL import Image

from choosing_epsilon import possible_worlds as pw
from choosing_epsilon import sensitivity as sens
from choosing_epsilon.harness import kernel, reproduce
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS, PUBLISHED
from choosing_epsilon.papers.lee_clifton_2011 import figures as plots
from choosing_epsilon.papers.lee_clifton_2011 import tabulate
from tests import bruteforce
from tests.notebook_text import outputs_text, strict_load

ABSENCE = [1, 2, 3, 10]
EVEN_SIX = "name,absence_days,school_year\nA,1,1\nB,2,2\nC,3,3\nD,4,4\nE,5,1\nF,10,2\n"


def database(tmp_path, n, name="db.csv", seed=1):
    """A database of n rows: a name column and two integer attributes."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "name": [f"P{i}" for i in range(n)],
            "absence_days": rng.integers(0, 30, n),
            "school_year": rng.integers(1, 5, n),
        }
    )
    frame.to_csv(tmp_path / name, index=False)
    return tmp_path / name


# --- case 1: infinite exact ε --------------------------------------------------------------------


@pytest.mark.parametrize(
    "values, rho", [(ABSENCE, 0.5), ([1, 2, 3, 4, 5, 10], 1 / 3), ([2, 2, 2, 5, 5, 5], 1 / 3)]
)
def test_median_exact_epsilon_is_infinite_where_brute_force_says_so(values, rho):
    assert math.isinf(bruteforce.exact_epsilon(values, rho, "median"))
    result = pw.epsilon_for_risk(values, rho, "median")
    assert math.isinf(result.exact)
    assert pw.limiting_risk(sens.world_answers(values, "median")) <= rho


def test_infinity_is_written_out_for_display_only():
    table = pd.DataFrame({"exact": [1.5, math.inf], "bound": [0.5, 0.25], "name": ["a", "b"]})
    marked = tabulate.marked_infinity(table)
    assert marked.exact.tolist() == [1.5, "∞"]
    # untouched columns and the original
    assert marked.bound.dtype == float and table.exact.dtype == float


@pytest.mark.notebook
@pytest.mark.parametrize(
    "csv, params", [(None, {"rho": 0.5}), (EVEN_SIX, {"absent": "A"}), (EVEN_SIX, {"absent": "F"})]
)
def test_notebook_shows_an_infinite_median_epsilon(tmp_path, csv, params):
    given = dict(params, n_trials=500)
    if csv is not None:
        (tmp_path / "db.csv").write_text(csv)
        given["data_path"] = str(tmp_path / "db.csv")
    out = tmp_path / "run"
    reproduce.run_notebook("lee_clifton_2011", given, out)
    results = strict_load((out / "results.json").read_text())
    assert results["attributes"]["absence_days"]["median"]["epsilon_exact"] == "inf"
    text = outputs_text(out / "lee_clifton_2011.ipynb")
    assert (
        "exact ε for the median: ∞" in text
        and "inf" not in text.split("exact ε for the median")[1][:40]
    )


@pytest.mark.notebook
def test_rho_near_one_puts_both_epsilons_of_fig2_off_the_axis_and_runs_to_the_end(tmp_path):
    """At ρ = 0.99 the bound and the exact ε of absence_days both lie beyond Fig. 2's ε = 5: two
    arrowheads at one place, which once shared dash and marker, and a caption naming Eq. (7) that
    the one-sentence rule read as two sentences; either stopped the run."""
    out = tmp_path / "run"
    reproduce.run_notebook("lee_clifton_2011", {"rho": 0.99, "n_trials": 500}, out)
    captions = strict_load((out / "captions.json").read_text())
    assert all("problems" not in entry for entry in captions.values())
    caption = captions["fig2_risk_upper_bound"]["caption"]
    assert (
        "the Eq. (7) ε for absence_days, 5.3774 and the exact ε for absence_days, 6.2321" in caption
    )


# --- case 2: claims at other ε -------------------------------------------------------------------


@pytest.mark.notebook
def test_claims_of_tables_2_and_3_are_not_applicable_at_other_epsilons(tmp_path):
    reproduce.run_notebook("lee_clifton_2011", {"epsilons": [1, 0.1], "n_trials": 500}, tmp_path)
    claims = pd.read_csv(tmp_path / "claims.csv").set_index("claim_id")
    tables = claims[claims.index.str.match(r"t[23]_|s44_(beta|confidence)_eps")]
    assert len(tables) == 52 and set(tables.status) == {"not applicable"}
    assert (tables.note.str.contains("epsilons")).all()
    others = claims.drop(tables.index)
    assert set(others.status) == {"reproduced", "discrepancy", "note"}, (
        "claims that do not use the ε list still reproduce"
    )
    # the alumni draw from a stream of their own: the Monte Carlo's other ε list and n_trials
    # leave the synthetic database, and so its exact ε, as committed
    committed = pd.read_csv(FIGURES / "lee_clifton_2011" / "astronaut_alumni.csv")
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "astronaut_alumni.csv"), committed)


# --- case 3: database size -----------------------------------------------------------------------


def test_shown_worlds_are_bounded_and_keep_the_true_world_and_both_extremes():
    answers = np.random.default_rng(0).normal(size=1000)
    shown = tabulate.shown_worlds(answers)
    assert (
        len(shown) == tabulate.MAX_WORLDS_SHOWN and shown[0] == 0 and len(set(shown)) == len(shown)
    )
    others = np.delete(answers, 0)
    assert answers[shown].min() <= others.min() and answers[shown].max() >= others.max()
    assert tabulate.shown_worlds(answers[:5]).tolist() == list(range(5))


def test_world_table_sums_up_the_worlds_not_shown():
    beta = pw.posterior(np.arange(50.0), 3.0, 1.0, 0.5)
    shown = tabulate.shown_worlds(np.arange(50.0))
    table = tabulate.world_table([f"w{k}" for k in shown], {"β": beta}, shown, rest="sum")
    assert len(table) == len(shown) + 1 and table["β"].sum() == pytest.approx(1.0)
    assert table.world.iloc[-1] == f"the other {50 - len(shown)} worlds (sum)"


def test_bounded_table_summarises_long_tables():
    long = pd.DataFrame(
        {
            "name": [str(i) for i in range(tabulate.MAX_TABLE_ROWS + 1)],
            "x": np.arange(tabulate.MAX_TABLE_ROWS + 1.0),
        }
    )
    summary = tabulate.bounded_table(long)
    assert (
        len(summary) < 10
        and summary.set_index("statistic").loc["max", "x"] == tabulate.MAX_TABLE_ROWS
    )
    assert (
        tabulate.bounded_table(long.head(tabulate.MAX_TABLE_ROWS)) is not None
        and len(tabulate.bounded_table(long.head(3))) == 3
    )


def test_simulation_in_blocks_matches_one_block(monkeypatch):
    answers = sens.world_answers(np.random.default_rng(2).integers(0, 30, 40), "mean")
    whole = pw.simulate_adversary(answers, 0, 0.7, 1.0, 3000, np.random.default_rng(5))
    monkeypatch.setattr(pw, "CHUNK_ELEMENTS", 1000)  # 25 responses per block
    blocks = pw.simulate_adversary(answers, 0, 0.7, 1.0, 3000, np.random.default_rng(5))
    assert blocks == pytest.approx(whole, rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_likeliest_world_test_matches_the_posterior(seed):
    rng = np.random.default_rng(seed)
    answers = rng.integers(0, 6, 7).astype(float)
    grid = np.linspace(-2, 8, 2001)
    beta = pw.posterior(answers, grid, 1.0, 1.0)
    expected = beta[:, 0] >= beta.max(axis=1) * (1 - 1e-12)
    assert np.array_equal(pw.likeliest_includes(answers, 0, grid), expected)


def test_bounded_median_sensitivity_is_computed_beyond_400_rows():
    x = np.random.default_rng(3).normal(size=25)
    brute = max(
        abs(
            bruteforce.query(w, "median") - bruteforce.query(bruteforce.replaced(w, t, u), "median")
        )
        for w in bruteforce.worlds(list(x))
        for t in range(len(w))
        for u in (x.min(), x.max())
    )
    assert sens.bounded_sensitivity(x, "median") == pytest.approx(brute, rel=1e-12)
    # once refused beyond 400 rows
    large = sens.bounded_sensitivity(np.random.default_rng(4).normal(size=10000), "median")
    assert math.isfinite(large) and large > 0


# 10,000 rows (about 28 s) are run by `make bench` (test_lee_clifton_notebook_at_10000_rows), with
# these same checks: beyond 1,000 rows nothing new is bounded, only the time grows
@pytest.mark.notebook
@pytest.mark.parametrize("n", [3, 1000])
def test_notebook_stays_bounded_at_any_database_size(tmp_path, n):
    path = database(tmp_path, n)
    out = tmp_path / "run"
    reproduce.run_notebook("lee_clifton_2011", {"data_path": str(path), "absent": "P1"}, out)
    check_bounded_outputs(out, path)


def check_bounded_outputs(out, path):
    """A run's files stay small at any database size, and its mean sensitivities are exact."""
    for png in out.glob("*.png"):
        with Image.open(png) as image:
            assert image.width <= 2000 and image.height <= 1000, png.name
    assert sum(f.stat().st_size for f in out.iterdir()) < 3_000_000
    for csv in out.glob("*.csv"):
        fixed_size = ("fig", "astronaut", "binary_search_steps", "claims")
        if not csv.stem.startswith(fixed_size):
            assert len(pd.read_csv(csv)) <= max(
                tabulate.MAX_TABLE_ROWS, 2 * tabulate.MAX_WORLDS_SHOWN
            ), csv.name
    results = strict_load((out / "results.json").read_text())
    frame = pd.read_csv(path)
    for attribute in ("absence_days", "school_year"):
        reference = pw.epsilon_for_risk(frame[attribute], 1 / 3, "mean")
        assert results["attributes"][attribute]["mean"]["sensitivity"] == pytest.approx(
            reference.sensitivity, rel=1e-12
        )


def test_two_rows_are_refused_before_a_kernel_starts(tmp_path):
    path = database(tmp_path, 2)
    with pytest.raises(ValueError, match="at least 3 rows"):
        reproduce.run_notebook(
            "lee_clifton_2011", {"data_path": str(path), "absent": "P0"}, tmp_path / "run"
        )
    assert not (tmp_path / "run").exists()


# --- case 4: constant columns and numeric names --------------------------------------------------


def test_constant_column_is_refused_naming_it(tmp_path):
    path = tmp_path / "db.csv"
    path.write_text("name,absence_days,school_year\nA,1,2\nB,2,2\nC,3,2\nD,10,2\n")
    with pytest.raises(
        ValueError, match=r"column 'school_year' holds the same value \(2\) in every row"
    ):
        pw.load_database(path, ["absence_days", "school_year"], "A")
    with pytest.raises(ValueError, match="column 'school_year' holds the same value"):
        reproduce.run_notebook(
            "lee_clifton_2011", {"data_path": str(path), "absent": "A"}, tmp_path / "run"
        )
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("absent", [3, "3"])
def test_numeric_names_are_read_and_compared_as_text(tmp_path, absent):
    path = tmp_path / "db.csv"
    path.write_text("name,absence_days,school_year\n1,1,1\n2,2,2\n3,3,3\n4,10,4\n")
    table = pw.load_database(path, ["absence_days"], absent)
    assert table.name.tolist() == ["1", "2", "3", "4"]
    assert pw.world_order(table.name, absent)[0] == 2


@pytest.mark.notebook
def test_notebook_runs_with_numeric_names(tmp_path):
    path = tmp_path / "db.csv"
    path.write_text("name,absence_days,school_year\n1,1,1\n2,2,2\n3,3,3\n4,10,4\n")
    # through the runner: `-p absent 3` arrives as the integer 3 and is read as the name "3"
    reproduce.run_notebook(
        "lee_clifton_2011", {"data_path": str(path), "absent": 3, "n_trials": 500}, tmp_path / "run"
    )
    assert "true world: X without 3" in outputs_text(tmp_path / "run" / "lee_clifton_2011.ipynb")
    # an integer straight into the kernel (the runner's type check aside), as `-p absent 3` parses
    kernel.execute(
        NOTEBOOKS / "lee_clifton_2011.ipynb",
        tmp_path / "nb.ipynb",
        {"data_path": str(path), "absent": 3, "n_trials": 500, "output_dir": str(tmp_path / "out")},
    )
    assert "true world: X without 3" in outputs_text(tmp_path / "nb.ipynb")


# --- case 5: large values ------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["mean", "median"])
@pytest.mark.parametrize("offset, unit", [(1.7e18, 256.0), (-1.7e18, 256.0), (2.0**80, 2.0**28)])
def test_epsilon_for_risk_is_shift_invariant_for_large_values(offset, unit, query):
    # a float's spacing at the offset: every value exact
    differences = np.array([0.0, 1.0, 2.0, 10.0, 4.0]) * unit
    shifted = pw.epsilon_for_risk(offset + differences, 1 / 3, query)
    plain = pw.epsilon_for_risk(differences, 1 / 3, query)
    assert math.isfinite(shifted.exact)
    assert shifted.exact == pytest.approx(plain.exact, rel=1e-9)
    assert shifted.upper_bound == pytest.approx(plain.upper_bound, rel=1e-9)
    assert shifted.sensitivity == pytest.approx(plain.sensitivity, rel=1e-9)


def test_huge_values_do_not_overflow():
    result = pw.epsilon_for_risk(np.array(ABSENCE) * 1e306, 1 / 3, "mean")
    assert result.exact == pytest.approx(
        pw.epsilon_for_risk(ABSENCE, 1 / 3, "mean").exact, rel=1e-9
    )


def test_integers_without_an_exact_float_are_refused():
    values = [1_700_000_000_000_000_001, 1_700_000_000_000_000_002, 1_700_000_000_000_000_003]
    with pytest.raises(ValueError, match="1700000000000000001 has no exact float64 value"):
        pw.epsilon_for_risk(values, 0.4)
    with pytest.raises(ValueError, match="no exact float64 value"):
        pw.epsilon_for_risk(np.array(values, dtype=np.int64), 0.4)


# --- case 6 and a reader's tries -----------------------------------------------------------------


@pytest.mark.notebook
@pytest.mark.parametrize(
    "params",
    [
        {"rho": 0.9},
        {"epsilons": [0.001, 20]},
        {"response": 1e6},
        {"example_epsilon": 0.001},
        {"attributes": ["school_year"]},
        {"absent": "Chris"},
        {"absent": "Kelly"},
    ],
    ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()),
)
def test_notebook_runs_to_the_end_at_what_a_reader_tries(tmp_path, params):
    reproduce.run_notebook("lee_clifton_2011", {**params, "n_trials": 500}, tmp_path)
    status = pd.read_csv(tmp_path / "claims.csv").status
    published = pd.read_csv(PUBLISHED / "lee_clifton_2011.csv")
    assert "not applicable" in set(status) and len(status) == len(published)
    text = outputs_text(tmp_path / "lee_clifton_2011.ipynb")
    assert "RuntimeWarning" not in text


@pytest.mark.notebook
def test_rho_below_the_prior_is_refused_in_one_line(tmp_path):
    # before a kernel starts (the runner checks ρ against the database's prior) ...
    with pytest.raises(ValueError, match=r"^rho must lie in \[1/n, 1\) = \[0.25, 1\) for n = 4"):
        reproduce.run_notebook("lee_clifton_2011", {"rho": 0.1}, tmp_path / "run")
    assert not (tmp_path / "run").exists()
    # ... and by the notebook itself when papermill runs it directly
    with pytest.raises(papermill.PapermillExecutionError) as failure:
        kernel.execute(
            NOTEBOOKS / "lee_clifton_2011.ipynb",
            tmp_path / "nb.ipynb",
            {"rho": 0.1, "output_dir": str(tmp_path / "out")},
        )
    assert failure.value.ename == "ValueError"
    assert failure.value.evalue.startswith("rho must lie in [1/n, 1) = [0.25, 1) for n = 4")


def test_no_bare_assert_in_the_notebook_or_its_modules():
    import ast
    import inspect

    nb = nbformat.read(NOTEBOOKS / "lee_clifton_2011.ipynb", as_version=4)
    sources = [c.source for c in nb.cells if c.cell_type == "code"] + [
        inspect.getsource(pw),
        inspect.getsource(sens),
        inspect.getsource(plots),
    ]
    for source in sources:
        assert not [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Assert)]
