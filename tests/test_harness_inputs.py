"""Each paper's input checks (``check_inputs``, run by ``harness.parameters.check_inputs``): the
input files and the relations the runner checks before a kernel starts,
each refused in one line naming the parameter or file; the committed inputs pass."""

from pathlib import Path

import pytest

from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import ROOT
from choosing_epsilon.papers.lee_clifton_2011 import parameters as lee_clifton
from choosing_epsilon.papers.synthesis import parameters as synthesis
from choosing_epsilon.papers.synthesis import run


def committed(notebook, **changes):
    return {**parameters.committed_values(notebook), **changes}


WITH_INPUTS = ["lee_clifton_2011", "synthesis"]


def test_the_notebooks_with_input_files_check_them():
    with_inputs = [
        n for n in parameters.SPECS if hasattr(parameters._declaration(n), "check_inputs")
    ]
    assert with_inputs == WITH_INPUTS


@pytest.mark.parametrize("notebook", WITH_INPUTS)
def test_the_committed_inputs_pass(notebook):
    assert parameters.check_inputs(notebook, committed(notebook)) is None


# Lee & Clifton's database: data/students.csv holds 4 students, so the prior is 1/4


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"data_path": "/nonexistent/students.csv"}, r"data_path: no such file"),
        ({"absent": "Nobody"}, r"Nobody"),
        ({"attributes": ["height"]}, r"height"),
        ({"rho": 0.2}, r"rho must lie in \[1/n, 1\) = \[0\.25, 1\) for n = 4"),
    ],
)
def test_database_refusals_name_what_is_wrong(changes, message):
    with pytest.raises(ValueError, match=message):
        lee_clifton.check_inputs(committed("lee_clifton_2011", **changes))


def test_rho_at_the_prior_is_allowed():
    """The bound from below: ρ = 1/n exactly passes (every posterior reaches it at ε = 0)."""
    lee_clifton.check_inputs(committed("lee_clifton_2011", rho=0.25))


def test_registry_as_a_folder_or_an_older_csv(tmp_path):
    run.check_registry({"registry_path": str(ROOT / "data" / "deployments_registry")})
    run.check_registry({"registry_path": str(ROOT / "data" / "epsilon_registry.csv")})
    with pytest.raises(ValueError, match=r"registry_path: no such file or folder"):
        run.check_registry({"registry_path": str(tmp_path / "missing")})
    with pytest.raises(ValueError):  # a CSV without the registry's columns
        run.check_registry({"registry_path": str(ROOT / "data" / "students.csv")})


@pytest.mark.parametrize(
    "value_range, observed, floor, message",
    [
        ([0, 110], [18, 120], 18.0, r"demo_ages must lie inside value_range \[0, 110\]"),
        ([20, 110], [18, 90], 18.0, r"demo_ages must lie inside"),
    ],
)
def test_survey_ranges_refused(value_range, observed, floor, message):
    with pytest.raises(ValueError, match=message):
        run.read_survey(survey(value_range, observed, floor))


def survey(value_range, observed, floor):
    """The synthetic survey's inputs (no data_path) at these ranges, 50 people."""
    return {
        "value_range": value_range,
        "demo_ages": observed,
        "lower_bound": floor,
        "data_path": "",
        "demo_n_people": 50,
        "seed": 1,
    }


def test_survey_ranges_at_their_edges_pass():
    assert run.read_survey(survey([0, 110], [0, 110], 110.0)).n == 50
    assert run.read_survey(survey([0, 110], [18, 18], 1e-9)).n == 50


@pytest.mark.parametrize("floor", [0.0, -3.0, 111.0])
def test_a_lower_bound_of_the_mean_only_shoaran_reads_is_not_refused(floor):
    """Only Shoaran et al.'s method reads it: at 0 or above the range it says it does not apply
    (tests/test_synthesis.py), and the data are read as at any other value."""
    assert run.read_survey(survey([0, 110], [18, 90], floor)).n == 50


def write_column(path: Path, ages) -> str:
    path.write_text("age\n" + "".join(f"{a}\n" for a in ages))
    return str(path)


def test_synthesis_reads_a_csv_column_inside_the_public_range(tmp_path):
    good = write_column(tmp_path / "good.csv", [20, 30, 40, 50])
    synthesis.check_inputs(committed("synthesis", data_path=good))
    outside = write_column(tmp_path / "outside.csv", [20, 30, 140])
    with pytest.raises(ValueError, match=r"1 of 3 values outside value_range \[0, 110\]"):
        synthesis.check_inputs(committed("synthesis", data_path=outside))
    short = write_column(tmp_path / "short.csv", [20, 30])
    with pytest.raises(ValueError, match=r"has 2 rows: at least 3"):
        synthesis.check_inputs(committed("synthesis", data_path=short))
    with pytest.raises(ValueError):  # the column must exist
        synthesis.check_inputs(committed("synthesis", data_path=good, column="income"))


def test_synthesis_checks_the_registry_too(tmp_path):
    with pytest.raises(ValueError, match=r"registry_path: no such file or folder"):
        synthesis.check_inputs(committed("synthesis", registry_path=str(tmp_path / "none")))
