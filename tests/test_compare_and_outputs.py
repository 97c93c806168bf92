"""Results compared by content (compare), runs staged and moved into place (outputs), and the
runner's refusals."""

import io
import json
import os

import nbformat
import numpy as np
import pytest
from PIL import Image

from choosing_epsilon.harness import compare, outputs, reproduce
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS


@pytest.mark.parametrize(
    "a, b, close",
    [
        ("0.3062", "0.3063", True),  # the last printed digit may differ by one unit
        ("0.3062", "0.3064", False),
        ("42", "43", False),  # integers must match
        ("1.2345678901", "1.2345678902", True),
        ("2.000251095", "2.0002511", True),  # within 1e-7 relative... or one unit of the shorter
        # a GPT-2 run's ε on AVX-512 and on numpy's baseline paths (1.1e-9 relative apart)
        ("3.9451049485951293", "3.9451049443797563", True),
        ("0.123456789", "0.123456812", False),  # 1.9e-7 relative: beyond REL_TOL
        ("1.99991", "2", False),
        ("1e-05", "1.0000000001e-05", True),
        ("-0.0000", "0.0000", True),
        ("\u22121.5", "-1.5", True),
    ],
)
def test_printed_numbers(a, b, close):
    assert compare.numbers_close(a, b) is close


def test_text_differs_only_in_numbers():
    assert compare.text_equivalent("γ = 2.0001, ε = 5", "γ = 2.0002, ε = 5")
    assert not compare.text_equivalent("γ = 2.0001, ε = 5", "γ = 2.0001, ε = 6")
    assert not compare.text_equivalent("ω1 is likeliest", "ω2 is likeliest")
    assert not compare.text_equivalent("reproduced", "discrepancy")


def test_svg_coordinates_agree_within_a_thousandth_of_a_point(tmp_path):
    """A curve point kept to 7 decimals that rounds the other way on another CPU moves by about
    2e-5 points (Fig. 4 of kulynych_2024, 44.737975 and 44.737991): the same drawing. A move of
    a hundredth of a point, or any text, is a change."""
    path = '<path d="M 42.576094 37.799777 L 45.088099 {}"/><!-- ε = 0.5 -->'
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    a.write_text(path.format("44.737975"))
    for moved, same in [("44.737991", True), ("44.747975", False)]:
        b.write_text(path.format(moved))
        assert compare.equivalent(a, b) is same
    b.write_text(path.format("44.737975").replace("0.5", "0.7"))
    assert not compare.equivalent(a, b)
    # in other text the coordinates' tolerance does not apply
    assert not compare.text_equivalent("x 44.737975", "x 44.737991")


def test_svg_ids_are_numbered_in_order():
    a = '<clipPath id="p0123456789"/><use xlink:href="#m0a1b2c3d4e" clip-path="url(#p0123456789)"/>'
    b = '<clipPath id="pffffffffff"/><use xlink:href="#m9999999999" clip-path="url(#pffffffffff)"/>'
    assert compare.text_equivalent(a, b)
    assert not compare.text_equivalent(a, b.replace("url(#pffffffffff)", "url(#p1111111111)"))


def png(pixels):
    buffer = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8)).save(buffer, format="png")
    return buffer.getvalue()


def test_images_compared_by_pixels():
    base = np.full((100, 100, 3), 255)
    noisy = base.copy()
    noisy[5, 5] = 0  # one pixel in ten thousand: anti-aliasing noise
    noisy[6, 6] = 250  # below PIXEL_LEVELS
    changed = base.copy()
    changed[:10, :10] = 0  # 1% of the pixels: a real change
    assert compare.images_equivalent(png(base), png(noisy))
    assert not compare.images_equivalent(png(base), png(changed))
    assert not compare.images_equivalent(png(base), png(base[:99]))


def test_files_by_suffix(tmp_path):
    (tmp_path / "a.csv").write_text("x,y\n0.1234567891,3\n")
    (tmp_path / "b.csv").write_text("x,y\n0.1234567892,3\n")
    (tmp_path / "c.csv").write_text("x,y\n0.1234567891,4\n")
    (tmp_path / "a.json").write_text(json.dumps({"e": 0.1 + 0.2, "n": 3, "s": "inf"}))
    (tmp_path / "b.json").write_text(json.dumps({"e": 0.3, "n": 3, "s": "inf"}))
    (tmp_path / "c.json").write_text(json.dumps({"e": 0.3, "n": 3, "s": "nan"}))
    assert compare.equivalent(tmp_path / "a.csv", tmp_path / "b.csv")
    assert not compare.equivalent(tmp_path / "a.csv", tmp_path / "c.csv")
    assert compare.equivalent(tmp_path / "a.json", tmp_path / "b.json")
    assert not compare.equivalent(tmp_path / "a.json", tmp_path / "c.json")
    assert not compare.equivalent(tmp_path / "a.csv", tmp_path / "a.json")
    assert not compare.equivalent(tmp_path / "a.csv", tmp_path / "missing.csv")


def test_sync_rewrites_only_what_changed(tmp_path):
    new, old = tmp_path / "new", tmp_path / "old"
    new.mkdir()
    old.mkdir()
    (new / "same.csv").write_text("x\n1.00000000001\n")
    (old / "same.csv").write_text("x\n1\n")
    (new / "changed.csv").write_text("x\n2\n")
    (old / "changed.csv").write_text("x\n3\n")
    (new / "added.csv").write_text("x\n")
    (old / "stale.csv").write_text("x\n")
    assert compare.sync(new, old) == ["added.csv", "changed.csv", "stale.csv"]
    assert (old / "same.csv").read_text() == "x\n1\n"  # equivalent: the committed bytes stay
    assert (old / "changed.csv").read_text() == "x\n2\n" and not (old / "stale.csv").exists()


def test_a_run_is_staged_and_moved_into_place_only_on_success(tmp_path, monkeypatch):
    monkeypatch.delenv(outputs.REDIRECT, raising=False)
    target = tmp_path / "out"
    target.mkdir()
    (target / "mine.txt").write_text("a file of the user's")
    first = outputs.start(target, "laplace_intro", {"seed": 1})
    (first / "results.json").write_text("{}")
    (first / "old_only.csv").write_text("x\n")
    assert not (target / "results.json").exists()  # nothing appears before the run succeeds
    outputs.finish(first)
    assert sorted(p.name for p in target.iterdir()) == [
        outputs.MANIFEST,
        "mine.txt",
        "old_only.csv",
        "results.json",
    ]
    failed = outputs.start(target, "laplace_intro", {"seed": 2})
    (failed / "results.json").write_text(
        '{"half": "written"}'
    )  # a run that fails never calls finish
    assert (target / "results.json").read_text() == "{}"
    second = outputs.start(target, "laplace_intro", {"seed": 3})
    (second / "results.json").write_text('{"new": 1}')
    outputs.finish(second)
    assert sorted(p.name for p in target.iterdir()) == [
        outputs.MANIFEST,
        "mine.txt",
        "results.json",
    ]  # the earlier run's file is gone, the user's stays
    assert not first.exists() and not second.exists()


def test_outputs_refuse_figures_for_other_parameters_and_a_file(tmp_path, monkeypatch):
    monkeypatch.delenv(outputs.REDIRECT, raising=False)
    with pytest.raises(
        ValueError, match=r"output_dir \(-o\): .* holds the committed run .*\(seed\)"
    ):
        outputs.start(FIGURES / "laplace_intro", "laplace_intro", {"seed": 1})
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="is a file, not a directory"):
        outputs.start(tmp_path / "file", "laplace_intro", {})


def test_the_default_output_dir_is_redirected_under_the_test_root(tmp_path, monkeypatch):
    monkeypatch.setenv(outputs.REDIRECT, str(tmp_path))
    assert (
        outputs.target_dir(FIGURES / "laplace_intro", "laplace_intro") == tmp_path / "laplace_intro"
    )
    assert outputs.target_dir(tmp_path / "x", "laplace_intro") == tmp_path / "x"


@pytest.mark.parametrize(
    "text, value",
    [
        ("1/3", 1 / 3),
        ("0.3", 0.3),
        ("false", False),
        ("False", False),
        ("True", True),
        ("[1, 0.1]", [1, 0.1]),
        ("Terry", "Terry"),
        ("2/0", "2/0"),
    ],
)
def test_values_as_people_type_them(text, value):
    assert reproduce._parse_value(text) == value


def run_main(capsys, *argv):
    code = reproduce.main(list(argv))
    err = capsys.readouterr().err.strip()
    return code, err


def test_runner_refuses_in_one_line_before_a_kernel_starts(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a_file").write_text("")
    cases = [
        (
            ["lee_clifton_2011", "-p", "rho", "0.3", "-o", "a_file"],
            "output_dir (-o): '" + str(tmp_path / "a_file") + "' is a file",
        ),
        (
            ["lee_clifton_2011", "-p", "rho", "0.3", "-o", str(FIGURES / "mine")],
            "lies in figures/",
        ),
        (["lee_clifton_2011", "-p", "rho", "0.3"], "output_dir (-o) is required"),
        (
            ["lee_clifton_2011", "-p", "data_path", "missing.csv", "-o", "run"],
            f"data_path: no such file '{tmp_path / 'missing.csv'}'",
        ),
        (
            ["synthesis", "-p", "registry_path", "nowhere.csv", "-o", "run"],
            "registry_path: no such file",
        ),
        (["lee_clifton_2011", "-p", "rho", "3/2", "-o", "run"], "'rho' must be in (0, 1)"),
    ]
    for argv, message in cases:
        code, err = run_main(capsys, *argv)
        assert code == 2 and len(err.splitlines()) == 1 and message in err, (argv, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]  # nothing written


@pytest.mark.parametrize(
    ("ename", "code", "said"),
    [
        ("ValueError", 2, "error: ValueError: no such column 'x' (cell 7 of synthesis)"),
        ("IndexError", 1, "error: the run stopped in cell 7 of synthesis with IndexError: "),
    ],
    ids=["a refusal", "a fault"],
)
def test_a_run_that_stops_in_its_notebook_says_where_in_one_line(
    tmp_path, capsys, monkeypatch, ename, code, said
):
    """A ValueError raised in a cell is the notebook refusing its input; any other exception a
    fault, which the message calls one rather than passing it off as a refusal."""
    import papermill

    def stopped(*args, **kwargs):
        evalue = "no such column 'x'" if ename == "ValueError" else "list index out of range"
        raise papermill.PapermillExecutionError(7, 5, "source", ename, evalue, [])

    monkeypatch.setattr(reproduce, "run_all", stopped)
    got, err = run_main(capsys, "synthesis", "-p", "seed", "3", "-o", str(tmp_path / "run"))
    assert got == code and len(err.splitlines()) == 1 and err.startswith(said), err
    assert ("please report it" in err) == (ename != "ValueError")


def test_several_notebooks_sent_to_one_directory_get_one_each(tmp_path, monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(
        reproduce,
        "_run_timed",
        lambda name, given, out, i, progress: seen.append(out) or (name, tmp_path, 0.0),
    )
    assert (
        reproduce.main(
            ["hsu_2014", "laplace_intro", "-p", "seed", "5", "-o", str(tmp_path), "-j", "1"]
        )
        == 0
    )
    assert seen == [str(tmp_path / "hsu_2014"), str(tmp_path / "laplace_intro")]


def test_relative_paths_are_taken_from_where_the_runner_starts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    resolved = reproduce._resolved("lee_clifton_2011", {"data_path": "db.csv", "rho": 0.3})
    assert resolved == {"data_path": os.path.join(str(tmp_path), "db.csv"), "rho": 0.3}


def test_nbval_compares_outputs_to_the_same_tolerances():
    from nbformat import NotebookNode

    from conftest import _compare_to_tolerance  # the repository's root conftest.py

    class Cell:  # the parts of nbval's cell item the comparison uses
        parent = type("Parent", (), {"skip_compare": ("metadata", "traceback", "image/png")})()
        colors = type("Colors", (), {"FAIL": "", "ENDC": "", "OKBLUE": ""})()

        def sanitize(self, text):
            return text

        def format_output_compare(self, *args):
            pass

    def stream(text):
        return [NotebookNode({"output_type": "stream", "name": "stdout", "text": text})]

    assert _compare_to_tolerance(
        Cell(), stream("γ = 2.0002\n"), stream("γ = 2.0001\n")
    )  # last digit, another CPU
    assert not _compare_to_tolerance(Cell(), stream("γ = 2.0004\n"), stream("γ = 2.0001\n"))
    assert not _compare_to_tolerance(Cell(), stream("ω2\n"), stream("ω1\n"))


def test_committed_notebooks_do_not_depend_on_the_kernels_python():
    # a run on CPython 3.12 or 3.13 must regenerate the committed notebook, which 3.11 wrote
    nb = nbformat.v4.new_notebook(
        metadata={
            "language_info": {"name": "python", "version": "3.13.0"},
            "papermill": {"duration": 1.5},
        }
    )
    stripped = reproduce.strip_volatile(nb)
    assert stripped.metadata == {"language_info": {"name": "python"}, "papermill": {}}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        assert "version" not in nbformat.read(path, as_version=4).metadata.get(
            "language_info", {}
        ), path.name
