import importlib
import json
import subprocess
import sys

import nbformat
import papermill
import pytest

from choosing_epsilon.harness import papers, parameters, reproduce
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
        ("attributes", ["absence_days"] * 2, r"'attributes' must be in a non-empty list of dist"),
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


# --- one declaration: the notebook's parameters cell is rendered from SPECS ---


def source_of_parameters_cell(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    return next(c.source for c in nb.cells if "parameters" in c.metadata.get("tags", []))


@pytest.mark.parametrize("name", sorted(parameters.SPECS))
def test_parameters_cell_is_the_rendered_declaration(name):
    """`python tools/parameters_cell.py --fix` writes it; a default changed in the notebook alone
    fails here."""
    assert source_of_parameters_cell(name) == parameters.parameters_cell(name)


@pytest.mark.parametrize("name", sorted(parameters.SPECS))
def test_rendered_cell_assigns_the_declared_values_in_order(name, tmp_path):
    rendered = parameters.parameters_cell(name)
    namespace = {}
    exec(rendered, namespace)
    assigned = [k for k in namespace if not k.startswith("__")]
    spec = parameters.SPECS[name]
    assert assigned == list(spec)  # one assignment each, in the declaration's order
    for key, param in spec.items():
        value = namespace[key]
        if param.kind == "path":
            value = parameters.as_path(value, NOTEBOOKS)
        assert json.dumps(value) == json.dumps(param.committed), key
        assert not param.source or eval(param.source) == namespace[key], key
    assert max(map(parameters.display_width, rendered.splitlines())) <= parameters.CELL_WIDTH
    # papermill reads it as an ordinary parameters cell: names, values and the comments as help
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell(rendered, metadata={"tags": ["parameters"]})]
    path = tmp_path / f"{name}.ipynb"
    nbformat.write(nb, path)
    inspected = papermill.inspect_notebook(str(path))
    assert list(inspected) == list(spec)
    lines = {line.split(" = ")[0]: line for line in rendered.splitlines() if " = " in line}
    for key, param in spec.items():
        beside = lines[key].endswith(f"  # {param.comment}")  # else above, where papermill skips it
        assert inspected[key]["help"] == (param.comment if beside else ""), key


def test_a_long_comment_goes_above_its_parameter_and_expressions_keep_their_text(
    monkeypatch,
):
    long = "a comment long enough to push its line past the cell's width " * 2
    spec = {"x": parameters.Param("float", paper=0.5, comment=long.strip())}
    monkeypatch.setitem(parameters.SPECS, "long_comment", spec)
    assert parameters.parameters_cell("long_comment").splitlines() == [
        f"# {long.strip()}",
        "x = 0.5",
    ]
    cell = parameters.parameters_cell("kazan_reiter_2024").splitlines()
    assert "lc_a_tilde = 1 / 3  # and their bound on the posterior" in cell
    lee = parameters.parameters_cell("lee_clifton_2011").splitlines()
    assert lee[:2] == [
        "# the adversary's database X: a `name` column and numeric attributes (Table 1)",
        'data_path = "../data/students.csv"',
    ]
    assert lee[-1] == (
        'output_dir = "../figures/lee_clifton_2011"  # figures, tables, claims.csv and results.json'
    )
    assert parameters.value_text(["a", 1, 0.5, True]) == '["a", 1, 0.5, True]'
    assert parameters.value_text(1e-05) == "1e-05"


# --- validated once: the runner and the notebook go through parameters.check ---


def test_runner_and_notebook_checks_are_one_function(monkeypatch):
    calls = []
    real = parameters.check

    def recording(notebook, values, **options):
        calls.append(notebook)
        return real(notebook, values, **options)

    monkeypatch.setattr(parameters, "check", recording)
    parameters.check_names("shoaran_2012", {"seed": 3})  # the runner, before a kernel starts
    parameters.check_injected(["# Parameters\nseed = 3\n"], "shoaran_2012")  # the set-up cell
    values = parameters_cell("shoaran_2012")
    assert parameters.validate(values, parameters.SPECS["shoaran_2012"])["seed"] == 20120827
    assert calls == ["shoaran_2012"] * 3


BAD_JOINT = [
    ("shoaran_2012", {"query_index": [1]}, r"'query_answers', 'query_index' and .* 2, 1 and 2"),
    ("synthesis", {"demo_ages": [18, 120]}, r"'demo_ages' must lie inside value_range"),
    ("synthesis", {"value_range": [0, 60]}, r"'demo_ages' must lie inside value_range"),
    ("kazan_reiter_2024", {"lc_a_tilde": 0.2}, r"'lc_a_tilde' must exceed the prior"),
    ("kulynych_2024", {"gap_fpr": 0.3}, r"'gap_fpr' must be below"),
    ("kulynych_2024", {"tpr_targets": [0.005]}, r"'tpr_targets' needs a value above .* = 0.01001"),
    ("kulynych_2024", {"tpr_targets": [0.5, 0.05, 0.5]}, r"'tpr_targets' must be in a non-empty"),
    ("kulynych_2024", {"advantage_targets": [0.25, 0.25]}, r"list of distinct values in \(delta"),
    ("kazan_reiter_2024", {"table1_r_tildes": [1.5, 2, 3, 4, 6]}, r"a list of 1 to 4 values > 1"),
    ("kazan_reiter_2024", {"table5_a_tildes": [0.1] * 8}, r"a list of 1 to 7 values in \(0, 1\)"),
    ("lee_clifton_2011", {"alumni_n": 50}, r"'alumni_rho' must lie in \[1/alumni_n, 1\) = \[0.02,"),
    ("lee_clifton_2011", {"alumni_rho": 1e-6}, r"'alumni_rho' must lie in \[1/alumni_n"),
    ("laplace_intro", {"epsilon": 1e-300}, r"'sensitivity' and 'epsilon' .* at most 1e\+70"),
    ("laplace_intro", {"sensitivity": 1e80}, r"'sensitivity' and 'epsilon' .* 2e\+80"),
    ("laplace_intro", {"age_range": [0, 1e75]}, r"'age_range' and 'epsilon' .* 2e\+75"),
    ("laplace_intro", {"epsilon_high": 6.9e-70}, r"'sensitivity' and 'epsilon_high'"),
]


@pytest.mark.parametrize("name, changes, message", BAD_JOINT)
def test_joint_checks_refuse_on_both_paths(name, changes, message):
    """The runner refuses the value before a kernel starts; a notebook run without the runner
    refuses it in its set-up cell with the same message."""
    with pytest.raises(ValueError, match=message):
        parameters.check_names(name, changes)
    with pytest.raises(ValueError, match=message):
        parameters.validate({**parameters_cell(name), **changes}, parameters.SPECS[name])


@pytest.mark.parametrize(
    "name, changes",
    [
        ("shoaran_2012", {"query_answers": [5], "query_index": [1], "query_sensitivities": [2]}),
        ("synthesis", {"demo_ages": [0, 110], "lower_bound": 110.0}),  # at the edges
        # read by one method each, which says in the run that it does not apply
        ("synthesis", {"lower_bound": 200.0, "max_tpr": 0.005, "kr_r_tilde": 0.5}),
        ("synthesis", {"lower_bound": -5.0}),
        ("synthesis", {"data_path": "survey.csv", "demo_ages": [18, 120]}),  # not drawn
        ("lee_clifton_2011", {"alumni_n": 100, "alumni_rho": 0.01}),  # ρ = 1/n exactly
        # at the edge: (ub − lb)/ε = 110/1.1e-68 = 1e70
        ("laplace_intro", {"epsilon": 1.1e-68, "epsilon_high": 7e-70}),
    ],
)
def test_joint_checks_pass_what_is_allowed(name, changes):
    assert set(parameters.check_names(name, changes) or {}) == set()
    checked = parameters.check(name, changes, partial=True)
    assert set(checked) == set(changes)


def test_runner_refuses_mismatched_queries_before_a_kernel_starts(tmp_path):
    from choosing_epsilon.harness import reproduce

    with pytest.raises(ValueError, match=r"must have the same length"):
        reproduce.check_request("shoaran_2012", {"query_index": [1, 2, 3]}, tmp_path / "run")


def test_the_alumni_database_stays_within_the_classes_computed_exactly():
    """The alumni's distances are distinct and one alumnus is unknown, so a database of alumni_n
    rows makes alumni_n classes of worlds: the largest the runner accepts is computed, not
    refused mid-run."""
    from choosing_epsilon import queries

    largest = parameters.SPECS["lee_clifton_2011"]["alumni_n"]
    assert largest.check(queries.MAX_CLASSES) and not largest.check(queries.MAX_CLASSES + 1)
    assert queries.count_classes(queries.MAX_CLASSES, 1) == queries.MAX_CLASSES


def test_each_papers_declaration_is_the_harness_s():
    """The harness reads each notebook's parameters from its paper's folder, by name: one
    declaration for every notebook of the registry, the ``DECLARED`` of its folder's
    ``parameters.py``."""
    assert list(parameters.SPECS) == papers.names()
    for name in papers.names():
        module = importlib.import_module(f"choosing_epsilon.papers.{name}.parameters")
        assert module.__file__ == str(papers.PAPERS / name / "parameters.py")
        assert parameters.SPECS[name] is module.DECLARED


# --- `reproduce NOTEBOOK --help`: the declaration, as a reader of the command line sees it ------


def words(text):
    """``text`` with its whitespace as single spaces: --help wraps its lines."""
    return " ".join(text.split())


def help_of(capsys, monkeypatch, *argv):
    """What ``reproduce ... --help`` prints, and its exit status; it starts no run."""
    monkeypatch.setattr(reproduce, "run_all", lambda *a, **k: pytest.fail("--help ran notebooks"))
    status = reproduce.main([*argv, "--help"])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("name", sorted(parameters.SPECS))
def test_help_of_a_notebook_lists_every_declared_parameter_with_kind_range_default_meaning(
    capsys, monkeypatch, name
):
    status, out, _ = help_of(capsys, monkeypatch, name)
    assert status == 0
    spec = parameters.SPECS[name]
    section = out.split(f"\nparameters of {name} ", 1)[1]
    # an entry's first line is indented by two spaces, its meaning and range by six
    heads = [line for line in section.splitlines() if line[:2] == "  " and line[2] != " "]
    assert [line.split(" (")[0].strip() for line in heads] == list(spec), "each, in order"
    entries = words(section)
    for key, param in spec.items():
        value = param.paper if param.default is None else param.default
        shown = param.source or parameters.value_text(value)
        head = f"{key} ({param.kind}, default {shown}"
        assert head in entries, f"{name}.{key}: its kind and value"
        entry = entries.split(head, 1)[1]
        meaning = words(" ".join([param.comment_above, param.comment]))
        assert entry.split(") ", 1)[1].startswith(meaning), f"{name}.{key}: its meaning"
        if param.allowed:
            assert f"allowed: {words(param.allowed)}" in entry, f"{name}.{key}: its range"
        if param.paper is not None and param.default is None:
            assert entry.startswith(" (the paper's)"), f"{name}.{key}: the paper's value"


def test_help_alone_lists_the_notebooks_and_how_to_list_their_parameters(capsys, monkeypatch):
    status, out, _ = help_of(capsys, monkeypatch)
    assert status == 0
    listed = out.split("notebooks:\n", 1)[1].split("\n\n")[0].split()
    assert listed == reproduce.notebook_names() == sorted(parameters.SPECS)
    assert "NOTEBOOK --help lists that notebook's parameters" in out
    assert "parameters of" not in out


def test_help_of_two_notebooks_lists_both_and_an_unknown_one_is_refused(capsys, monkeypatch):
    status, out, _ = help_of(capsys, monkeypatch, "hsu_2014", "shoaran_2012")
    assert status == 0 and "parameters of hsu_2014" in out and "parameters of shoaran_2012" in out
    status, out, err = help_of(capsys, monkeypatch, "hsu_2014", "no_such_notebook")
    assert status == 2 and out == ""
    assert err.startswith("error: notebook must be one of") and "no_such_notebook" in err


def test_help_from_the_command_line_lists_the_parameters():
    done = subprocess.run(
        [sys.executable, "-m", "choosing_epsilon.harness.reproduce", "laplace_intro", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert all(f"  {key} (" in done.stdout for key in parameters.SPECS["laplace_intro"])
