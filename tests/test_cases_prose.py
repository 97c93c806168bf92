"""The prose of every notebook agrees with its own outputs at parameters other than the defaults:
each notebook runs once at a case that moves most of its results, and no markdown cell may state
a number that the run at the defaults shows and this run does not, unless its sentence says whose
number it is (the paper's, or the defaults') (``tests.prose``)."""

import pytest

from choosing_epsilon.harness import reproduce
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS
from tests.prose import run_results_in_prose, stated_numbers

# per notebook, a case that moves most of its results (every value valid)
CASES = {
    "hsu_2014": {"budget": 50000.0, "error": 0.02, "failure_probability": 0.2},
    "kazan_reiter_2024": {"table1_a_tilde": 0.3, "table5_p_tilde": 0.1, "fig1_a_tilde": 0.2},
    "kulynych_2024": {"gap_advantage": 0.3, "gap_fpr": 0.05},
    "laplace_intro": {"epsilon": 1.0, "sensitivity": 3.0, "n_records": 500},
    "lee_clifton_2011": {"rho": 0.5, "example_epsilon": 1.5, "year_epsilon": 0.8},
    "mugunthan_poster": {"c": 5.0, "p": 0.8, "w": 0.2},
    "shoaran_2012": {"epsilon": 0.05, "pr": 0.2, "re": 0.2},
    "synthesis": {"rho": 0.01, "demo_n_people": 5000, "max_advantage": 0.1},
}


def test_every_notebook_has_a_prose_case():
    assert set(CASES) == set(reproduce.notebook_names())


@pytest.mark.notebook
@pytest.mark.parametrize("name", sorted(CASES))
def test_no_markdown_cell_states_a_result_the_run_changes(tmp_path, name):
    reproduce.run_notebook(name, CASES[name], tmp_path)
    found = run_results_in_prose(
        NOTEBOOKS / f"{name}.ipynb", FIGURES / name, tmp_path / f"{name}.ipynb", tmp_path
    )
    assert found == [], f"{name}: prose states results of the run at the defaults: {found}"


def test_the_check_finds_a_result_typed_into_prose(tmp_path):
    """The check itself, from both sides: a typed result that the other run changes is found,
    the same sentence labelled as the paper's is not."""
    import json

    import nbformat

    def executed(path, shown, prose):
        nb = nbformat.v4.new_notebook()
        nb.cells = [
            nbformat.v4.new_markdown_cell(prose),
            nbformat.v4.new_code_cell("", outputs=[nbformat.v4.new_output("stream", text=shown)]),
        ]
        nbformat.write(nb, path)

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "results.json").write_text(json.dumps({"eps": 0.5110924327}))
    (tmp_path / "b" / "results.json").write_text(json.dumps({"eps": 0.7}))
    for prose, expected in (
        ("The smallest budget is 0.5111 here.", 1),
        ("The paper's smallest budget is 0.5111.", 0),
    ):
        executed(tmp_path / "a.ipynb", "eps 0.5111\n", prose)
        executed(tmp_path / "b.ipynb", "eps 0.7\n", prose)
        assert len(stated_numbers(tmp_path / "a.ipynb")) == 1
        found = run_results_in_prose(
            tmp_path / "a.ipynb", tmp_path / "a", tmp_path / "b.ipynb", tmp_path / "b"
        )
        assert len(found) == expected, found
