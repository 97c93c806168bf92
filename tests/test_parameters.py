import json

import nbformat
import pytest

from choosing_epsilon.harness import parameters
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS


def parameters_cell(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, f"{name}: exactly one cell tagged 'parameters'"
    namespace = {}
    exec(cells[0].source, namespace)
    return {k: v for k, v in namespace.items() if not k.startswith("__")}


@pytest.mark.parametrize("name", sorted(parameters.SPECS))
def test_notebook_declares_exactly_the_spec_with_the_committed_values(name):
    defaults = parameters_cell(name)
    spec = parameters.SPECS[name]
    assert set(defaults) == set(spec)
    parameters.validate(defaults, spec)
    for key, param in spec.items():
        if key == "output_dir":
            assert parameters.as_path(defaults[key], NOTEBOOKS) == str(FIGURES / name)
            continue
        value = (
            parameters.as_path(defaults[key], NOTEBOOKS) if param.kind == "path" else defaults[key]
        )
        assert json.dumps(value) == json.dumps(param.committed), key
    for key, value in parameters.paper_values(name).items():
        assert json.dumps(value) == json.dumps(spec[key].committed), key
    with_notebook_cwd = {
        k: parameters.as_path(v, NOTEBOOKS) if spec[k].kind == "path" else v
        for k, v in defaults.items()
    }
    assert parameters.differ_from_defaults(name, with_notebook_cwd) == []
    assert parameters.differ_from_defaults(name, {**with_notebook_cwd, "seed": 1}) == ["seed"]


GOOD = parameters_cell("lee_clifton_2011")


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("seed", "3", r"'seed' must be of type int"),
        ("seed", 1e3, r"'seed' must be of type int"),
        ("seed", True, r"'seed' must be of type int"),
        ("rho", 1.5, r"'rho' must be in \(0, 1\)"),
        ("rho", 0, r"'rho' must be in \(0, 1\)"),
        ("epsilons", [1, 0], r"'epsilons' must be in"),
        ("epsilons", [], r"'epsilons' must be in"),
        ("epsilons", ["1"], r"'epsilons' must be of type list\[float\]"),
        ("attributes", "absence_days", r"'attributes' must be of type list\[str\]"),
        ("example_epsilon", -2, r"'example_epsilon' must be in \(0, inf\)"),
        ("n_trials", 1, r"'n_trials' must be in"),
        ("response", float("nan"), r"'response' must be of type float"),
    ],
)
def test_bad_parameters_are_named(name, value, message):
    with pytest.raises(ValueError, match=message):
        parameters.validate({**GOOD, name: value}, parameters.SPECS["lee_clifton_2011"])


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['sed'\]"):
        parameters.check_names("lee_clifton_2011", {"sed": 3})


def test_injected_cell_with_unknown_names_is_refused():
    history = ["", "seed = 1", '# Parameters\nsed = 3\noutput_dir = "/tmp/x"\n']
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['sed'\]"):
        parameters.check_injected(history, "lee_clifton_2011")
    parameters.check_injected(
        ["", "# Parameters\nseed = 3\n"], "lee_clifton_2011"
    )  # a declared name passes


def test_two_paths_to_the_same_bytes_are_the_same_input(tmp_path):
    """A copy of the paper's data elsewhere is still the paper's data (the claims apply); a file
    that differs in one byte is not."""
    original, copy, other = (tmp_path / name for name in ("a.csv", "b.csv", "c.csv"))
    original.write_text("name,x\nA,1\n")
    copy.write_text("name,x\nA,1\n")
    other.write_text("name,x\nA,2\n")
    assert parameters.same(str(original), str(copy))
    assert not parameters.same(str(original), str(other))
    assert not parameters.same(str(original), str(tmp_path / "missing.csv"))
