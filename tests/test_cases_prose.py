"""The prose of every notebook agrees with its own outputs at parameters other than the defaults:
each notebook runs once at a case that moves most of its results, and no markdown cell may state
a number that the run at the defaults shows and this run does not, unless its sentence says whose
number it is (the paper's, or the defaults') (``tests.prose``)."""

import pytest

from choosing_epsilon.harness import papers, parameters, reproduce
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS
from tests.prose import run_results_in_prose, stated_numbers

# per notebook, a case that moves most of its results (every value valid): its declaration's
# ``trial`` (papers/<notebook>/about.py)
CASES = {name: dict(papers.paper(name).trial) for name in papers.names()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_notebook_has_a_prose_case_of_valid_values(name):
    """Each case changes parameters of the notebook, to values the runner accepts."""
    assert CASES[name], f"{name}: its trial run changes no parameter"
    assert set(parameters.differ_from_defaults(name, CASES[name])) == set(CASES[name])
    parameters.check_names(name, CASES[name])  # names, kinds, ranges and joint checks


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
