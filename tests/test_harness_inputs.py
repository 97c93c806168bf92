"""harness.inputs: the input files and the relations the runner checks before a kernel starts,
each refused in one line naming the parameter or file; the committed inputs pass."""

from pathlib import Path

import pytest

from choosing_epsilon.harness import inputs, parameters
from choosing_epsilon.harness.paths import ROOT


def committed(notebook, **changes):
    return {**parameters.committed_values(notebook), **changes}


def test_checks_are_declared_for_notebooks_that_exist():
    assert inputs.CHECKS["lee_clifton_2011"] is inputs.check_database
    assert inputs.CHECKS["synthesis"] is inputs.check_synthesis
    assert set(inputs.CHECKS) <= set(parameters.SPECS)


@pytest.mark.parametrize("notebook", sorted(inputs.CHECKS))
def test_the_committed_inputs_pass(notebook):
    assert inputs.CHECKS[notebook](committed(notebook)) is None


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
        inputs.check_database(committed("lee_clifton_2011", **changes))


def test_rho_at_the_prior_is_allowed():
    """The bound from below: ρ = 1/n exactly passes (every posterior reaches it at ε = 0)."""
    inputs.check_database(committed("lee_clifton_2011", rho=0.25))


def test_registry_as_a_folder_or_an_older_csv(tmp_path):
    inputs.check_registry({"registry_path": str(ROOT / "data" / "deployments_registry")})
    inputs.check_registry({"registry_path": str(ROOT / "data" / "epsilon_registry.csv")})
    with pytest.raises(ValueError, match=r"registry_path: no such file or folder"):
        inputs.check_registry({"registry_path": str(tmp_path / "missing")})
    with pytest.raises(ValueError):  # a CSV without the registry's columns
        inputs.check_registry({"registry_path": str(ROOT / "data" / "students.csv")})


@pytest.mark.parametrize(
    "value_range, observed, floor, message",
    [
        ([0, 110], [18, 120], 18.0, r"observed_ages must lie inside value_range \[0, 110\]"),
        ([20, 110], [18, 90], 18.0, r"observed_ages must lie inside"),
    ],
)
def test_survey_ranges_refused(value_range, observed, floor, message):
    with pytest.raises(ValueError, match=message):
        inputs.read_survey(survey(value_range, observed, floor))


def survey(value_range, observed, floor):
    """The synthetic survey's inputs (no data_path) at these ranges, 50 people."""
    return {
        "value_range": value_range,
        "observed_ages": observed,
        "mean_lower_bound": floor,
        "data_path": "",
        "n_people": 50,
        "seed": 1,
    }


def test_survey_ranges_at_their_edges_pass():
    assert inputs.read_survey(survey([0, 110], [0, 110], 110.0)).n == 50
    assert inputs.read_survey(survey([0, 110], [18, 18], 1e-9)).n == 50


@pytest.mark.parametrize("floor", [0.0, -3.0, 111.0])
def test_a_lower_bound_of_the_mean_only_shoaran_reads_is_not_refused(floor):
    """Only Shoaran et al.'s method reads it: at 0 or above the range it says it does not apply
    (tests/test_synthesis.py), and the data are read as at any other value."""
    assert inputs.read_survey(survey([0, 110], [18, 90], floor)).n == 50


def write_column(path: Path, ages) -> str:
    path.write_text("age\n" + "".join(f"{a}\n" for a in ages))
    return str(path)


def test_synthesis_reads_a_csv_column_inside_the_public_range(tmp_path):
    good = write_column(tmp_path / "good.csv", [20, 30, 40, 50])
    inputs.check_synthesis(committed("synthesis", data_path=good))
    outside = write_column(tmp_path / "outside.csv", [20, 30, 140])
    with pytest.raises(ValueError, match=r"1 of 3 values outside value_range \[0, 110\]"):
        inputs.check_synthesis(committed("synthesis", data_path=outside))
    short = write_column(tmp_path / "short.csv", [20, 30])
    with pytest.raises(ValueError, match=r"has 2 rows: at least 3"):
        inputs.check_synthesis(committed("synthesis", data_path=short))
    with pytest.raises(ValueError):  # the column must exist
        inputs.check_synthesis(committed("synthesis", data_path=good, column="income"))


def test_synthesis_checks_the_registry_too(tmp_path):
    with pytest.raises(ValueError, match=r"registry_path: no such file or folder"):
        inputs.check_synthesis(committed("synthesis", registry_path=str(tmp_path / "none")))
