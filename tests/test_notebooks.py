"""Notebook-level tests: executed outputs, papermill runs, bad input (the run at the defaults on
another CPU's code paths is nbval's, see conftest.py; the committed claims are checked in
test_claims)."""

import json
import math

import nbformat
import numpy as np
import pandas as pd
import papermill
import pytest

from choosing_epsilon.harness import kernel, reproduce
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS
from tests import bruteforce

NAMES = reproduce.notebook_names()


def test_there_are_notebooks():
    assert "lee_clifton_2011" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_is_executed(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), (
        "run top to bottom, every cell"
    )
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert sum(len(c.outputs) for c in code) >= len(code) // 2, "outputs are committed"
    assert not any(key in nb.metadata.get("papermill", {}) for key in reproduce.VOLATILE)


def test_results_json_matches_brute_force():
    results = json.loads((FIGURES / "lee_clifton_2011" / "results.json").read_text())
    data = pd.read_csv("data/students.csv")
    assert set(results["attributes"]) == {"absence_days", "school_year"}
    for attribute, by_query in results["attributes"].items():
        for query, got in by_query.items():
            check_against_brute_force(data[attribute].tolist(), 1 / 3, query, got)


def check_against_brute_force(values, rho, query, got):
    assert set(got) == {"sensitivity", "delta_v", "epsilon_upper_bound", "epsilon_exact"}
    assert got["sensitivity"] == pytest.approx(bruteforce.sensitivity(values, query), rel=1e-9)
    assert got["delta_v"] == pytest.approx(
        float(np.ptp(bruteforce.answers(values, query))), rel=1e-9, abs=1e-12
    )
    for key, reference in (
        ("epsilon_upper_bound", bruteforce.upper_bound(values, rho, query)),
        ("epsilon_exact", bruteforce.exact_epsilon(values, rho, query)),
    ):
        if math.isinf(reference):
            assert got[key] == "inf"
        else:
            assert got[key] == pytest.approx(reference, rel=1e-9)


OTHER_DB = """name,height_cm,score
Ann,162,71
Bo,175,64
Cy,181,88
Dee,158,71
Eve,170,93
Finn,2150,59
Gus,166,77
"""


@pytest.mark.notebook
def test_papermill_run_on_another_database(tmp_path):
    data = tmp_path / "other.csv"
    data.write_text(OTHER_DB)
    out = tmp_path / "run"
    params = {
        "data_path": str(data),
        "attributes": ["score", "height_cm"],
        "absent": "Gus",
        "rho": 0.3,
        "n_trials": 500,
    }
    reproduce.run_notebook("lee_clifton_2011", params, out)
    results = json.loads((out / "results.json").read_text())
    frame = pd.read_csv(data)
    for attribute in params["attributes"]:
        for query in ("mean", "median"):
            check_against_brute_force(
                frame[attribute].tolist(), 0.3, query, results["attributes"][attribute][query]
            )
    status = pd.read_csv(out / "claims.csv").status
    assert "not applicable" in set(status) and set(status) <= {"not applicable", "note"}, (
        "the paper's numbers do not apply to another database (slips in its wording still do)"
    )
    assert (out / "fig2_risk_upper_bound.png").exists() and (
        out / "lee_clifton_2011.ipynb"
    ).exists()


# A notebook's run at its defaults on another CPU's code paths reproducing the committed results
# (its files and the notebook itself, to compare's tolerances) is nbval's run: see conftest.py.


@pytest.mark.parametrize(
    "params, message",
    [
        ({"sed": 3}, r"unknown parameter\(s\) \['sed'\]"),
        ({"seed": "3"}, r"'seed' must be of type int"),
        ({"rho": 1.5}, r"'rho' must be in \(0, 1\)"),
        ({"epsilons": [1, -0.5]}, r"'epsilons' must be in"),
        ({"rho": 0.25}, r"output_dir \(-o\) is required"),
    ],
)
def test_runner_refuses_bad_parameters_before_a_kernel_starts(params, message, tmp_path):
    out = None if "output_dir" in message else tmp_path
    with pytest.raises(ValueError, match=message):
        reproduce.run_notebook("lee_clifton_2011", params, out)
    assert not list(tmp_path.iterdir())


@pytest.mark.notebook
@pytest.mark.parametrize(
    "csv, params, message",
    [
        (None, {"seed": "3"}, "parameter 'seed' must be of type int"),
        (None, {"sed": 3}, "unknown parameter(s) ['sed']"),
        ("name,absence_days,school_year\nChris,1,1\n", {}, "at least 3 rows"),
        ("name,absence_days,school_year\nA,1,1\nB,2,2\nC,3,3\n", {}, "absent must be one of"),
        ("name,absence_days\nA,1\nB,2\nTerry,3\n", {}, "no column 'school_year'"),
        (
            "name,absence_days,school_year\nA,1,x\nB,2,2\nTerry,3,3\n",
            {},
            "column 'school_year' must hold a number",
        ),
    ],
)
def test_notebook_reports_bad_input_clearly(tmp_path, csv, params, message):
    # straight through papermill (kernel.execute, without the runner's checks): the notebook
    # itself must refuse
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").write_text(
        "{}"
    )  # an earlier run's result: a failed run leaves the directory as it was
    given = {"output_dir": str(out), **params}
    if csv is not None:
        (tmp_path / "db.csv").write_text(csv)
        given["data_path"] = str(tmp_path / "db.csv")
    with pytest.raises(papermill.PapermillExecutionError) as failure:
        kernel.execute(NOTEBOOKS / "lee_clifton_2011.ipynb", tmp_path / "run.ipynb", given)
    assert failure.value.ename == "ValueError"
    assert message in failure.value.evalue
    assert (
        sorted(p.name for p in out.iterdir()) == ["results.json"]
        and (out / "results.json").read_text() == "{}"
    )


@pytest.mark.notebook
def test_hsu_papermill_run_with_other_parameters(tmp_path):
    from tests.test_economics import brute_force_max_epsilon

    params = {
        "budget": 50000.0,
        "bad_event_cost": 2000.0,
        "slide_constants": False,
        "n_trials": 2000,
    }
    reproduce.run_notebook("hsu_2014", params, tmp_path)
    results = json.loads((tmp_path / "results.json").read_text())
    p = 2000 * 0.05
    eps, n = brute_force_max_epsilon(p, 50000, 0.05, 0.1, slide=False)
    assert results["expected_cost"] == pytest.approx(p)
    assert results["payment_at_slide_point"] == pytest.approx(math.expm1(0.03) * p)
    assert results["total_cost_at_slide_point"] == pytest.approx(15000 * math.expm1(0.03) * p)
    a = 2 * math.exp(-15000 * 0.05**2 / 12) + math.exp(-15000 * 0.03 * 0.025)
    assert results["feasible_at_slide_point"] == (
        a <= 0.1 and 15000 * math.expm1(0.03) * p <= 50000
    )
    assert (
        results["max_feasible_epsilon"] == pytest.approx(eps, rel=1e-12)
        and results["n_at_max_feasible_epsilon"] == n
    )
    status = pd.read_csv(tmp_path / "claims.csv").set_index("claim_id").status
    assert (
        status["slides_expected_cost"] == "not applicable"
        and status["slides_e_to_0.01"] == "reproduced"
    )


@pytest.mark.notebook
def test_shoaran_papermill_run_with_three_queries(tmp_path):
    answers, index, deltas, eps, pr, re = (
        [300.0, 3000.0, 30000.0],
        [1.0, 10.0, 100.0],
        [1.0, 2.0, 1.0],
        0.05,
        0.2,
        0.15,
    )
    params = {
        "query_answers": answers,
        "query_index": index,
        "query_sensitivities": deltas,
        "epsilon": eps,
        "pr": pr,
        "re": re,
        "n_trials": 2000,
    }
    reproduce.run_notebook("shoaran_2012", params, tmp_path)
    got = json.loads((tmp_path / "results.json").read_text())
    ln = math.log(1 / pr)
    alpha = sum(d / g for d, g in zip(deltas, index)) / eps
    scales = [alpha * g for g in index]
    assert got["single"]["noise_at_pr"] == pytest.approx(ln / eps) and got["single"][
        "mta"
    ] == pytest.approx(ln / eps / re)
    assert got["uniform"]["scale"] == pytest.approx(4 / eps)
    assert got["uniform"]["relative_errors"] == pytest.approx([4 / eps * ln / q for q in answers])
    assert got["diff"]["alpha"] == pytest.approx(alpha)
    assert got["diff"]["scales"] == pytest.approx(scales)
    assert got["diff"]["mtas"] == pytest.approx([s * ln / re for s in scales])
    assert got["diff"]["relative_errors"] == pytest.approx(
        [s * ln / q for s, q in zip(scales, answers)]
    )


@pytest.mark.notebook
def test_shoaran_notebook_rejects_mismatched_queries(tmp_path):
    with pytest.raises(papermill.PapermillExecutionError) as failure:
        kernel.execute(
            NOTEBOOKS / "shoaran_2012.ipynb",
            tmp_path / "run.ipynb",
            {"query_index": [1.0], "output_dir": str(tmp_path)},
        )
    assert "must have the same length" in failure.value.evalue


@pytest.mark.notebook
def test_poster_papermill_run_with_other_parameters(tmp_path):
    from scipy import stats

    sens, c, p, w, q = 2.0, 5.0, 0.97, 0.2, 40.0
    params = {
        "sensitivity": sens,
        "c": c,
        "p": p,
        "w": w,
        "query_answer": q,
        "p_grid": [0.6, 0.97],
        "n_trials": 5000,
    }
    reproduce.run_notebook("mugunthan_poster", params, tmp_path)
    got = json.loads((tmp_path / "results.json").read_text())
    eps2 = sens * math.log(1 / (1 - p)) / c
    eps3 = sens / c * math.sqrt(2 * (math.log(2) - math.log(1 - p)))
    assert got["epsilon_theorem1"] == pytest.approx(
        math.sqrt(2) * sens / (w * q * math.sqrt(1 - p))
    )
    assert got["epsilon_theorem2"] == pytest.approx(eps2) and got[
        "epsilon_theorem3"
    ] == pytest.approx(eps3)
    assert got["coverage_theorem2"] == pytest.approx(p)
    lap3 = stats.laplace(scale=sens / eps3)
    assert got["coverage_theorem3"] == pytest.approx(lap3.cdf(c) - lap3.cdf(-c))
    assert got["coverage_theorem3"] < p  # above the threshold Theorem 3 under-delivers
    assert abs(got["coverage_theorem3_mc"] - got["coverage_theorem3"]) < 5 * math.sqrt(
        p * (1 - p) / 5000
    )
    assert got["ratio_threshold_p"] == pytest.approx(0.9215083892, abs=1e-9)
    assert set(pd.read_csv(tmp_path / "claims.csv").status) <= {"not applicable", "reproduced"}


@pytest.mark.notebook
def test_laplace_intro_papermill_run_with_other_parameters(tmp_path):
    params = {
        "f_D": 40.0,
        "sensitivity": 2.0,
        "epsilon": 0.25,
        "epsilon_high": 5.0,
        "budget": 1.0,
        "n_runs": 400,
        "seed": 7,
    }
    reproduce.run_notebook("laplace_intro", params, tmp_path)
    got = json.loads((tmp_path / "results.json").read_text())
    scale = 2.0 / 0.25
    assert got["noise_scale"] == pytest.approx(scale) and got["noise_variance"] == pytest.approx(
        2 * scale**2
    )
    assert got["ratio_bound"] == pytest.approx(math.exp(0.25)) and got[
        "ratio_bound_high"
    ] == pytest.approx(math.exp(5.0))
    assert got["runs_until_budget_exhausted"] == 4
    assert 0 <= got["averaging_attack_error"] <= 5 * math.sqrt(2) * scale / math.sqrt(400)
    status = pd.read_csv(tmp_path / "claims.csv").set_index("claim_id").status
    assert status["mechanism_variance"] == "not applicable" and status["e_to_2"] == "reproduced"


@pytest.mark.notebook
def test_laplace_intro_rejects_a_bad_budget(tmp_path):
    with pytest.raises(ValueError, match=r"'budget' must be in \(0, inf\)"):
        reproduce.run_notebook("laplace_intro", {"budget": -1.0}, tmp_path)


@pytest.mark.notebook
def test_synthesis_papermill_run_with_another_scenario(tmp_path):
    params = {
        "demo_n_people": 5000,
        "max_advantage": 0.5,
        "noise_bound": 2.0,
        "p": 0.9,
        "posterior_threshold": 0.9,
        "rho": 0.01,
    }
    reproduce.run_notebook("synthesis", params, tmp_path)
    got = json.loads((tmp_path / "results.json").read_text())["recommendations"]
    delta = 110 / 5000
    assert len(got) >= 5 and all(v > 0 and math.isfinite(v) for v in got.values())
    assert got["Hypothesis testing"] == pytest.approx(math.log(3))
    assert got["Posterior bound"] == pytest.approx(math.log(9))
    assert got["Poster, Theorem 2"] == pytest.approx(delta * math.log(10) / 2.0)
    assert got["Hsu et al., budget at N"] == pytest.approx(math.log1p(30000 / (63.7 * 5000)))


@pytest.mark.notebook
def test_synthesis_rejects_ages_outside_the_range(tmp_path):
    with pytest.raises(papermill.PapermillExecutionError) as failure:
        kernel.execute(
            NOTEBOOKS / "synthesis.ipynb",
            tmp_path / "run.ipynb",
            {"demo_ages": [18.0, 130.0], "output_dir": str(tmp_path)},
        )
    assert "'demo_ages' must lie inside value_range" in failure.value.evalue


def test_split_print_output_is_stored_as_one_stream():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('a')")])
    nb.cells[0].outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="a"),
        nbformat.v4.new_output("stream", name="stdout", text="\n"),
        nbformat.v4.new_output("stream", name="stderr", text="w\n"),
        nbformat.v4.new_output("stream", name="stdout", text="b\n"),
    ]
    outputs = reproduce.strip_volatile(nb).cells[0].outputs
    assert [(o.name, "".join(o.text)) for o in outputs] == [
        ("stdout", "a\n"),
        ("stderr", "w\n"),
        ("stdout", "b\n"),
    ]


def _fake_run(name, parameters, output_dir, position, progress):
    return name, NOTEBOOKS / f"{name}.ipynb", float(position)


def test_run_all_starts_the_longest_first_and_answers_in_the_order_asked(monkeypatch):
    lines = {name: reproduce._code_lines(name) for name in NAMES}
    assert max(lines, key=lines.get) == "lee_clifton_2011"  # the longest has the most code
    monkeypatch.setattr(reproduce, "_run_timed", _fake_run)  # forked workers see the stand-in
    order = list(reversed(NAMES))
    done = reproduce.run_all(order, jobs=2)
    assert [name for name, _, _ in done] == order
    assert [position for _, _, position in done] == list(range(len(order)))
