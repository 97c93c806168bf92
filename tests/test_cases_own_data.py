"""The README's own-data command, run as a reader would from the repository's root: on a skewed
column of dollars with only data_path, column and value_range, the synthesis answers about that
column; said to pay its participants without the error it needs, it is refused before a kernel
starts, in one line naming the input."""

import json
import math
import re
import shlex
import subprocess
import sys

import nbformat
import pytest

from choosing_epsilon import risk
from choosing_epsilon.harness.paths import ROOT

pytestmark = pytest.mark.cases


def readme_command() -> list[str]:
    """The runner's command in README.md's "On your own data", as a list of arguments."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## On your own data", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    lines = [line for line in block.splitlines() if "choosing_epsilon.harness.reproduce" in line]
    assert len(lines) == 1, "the section shows one runner command"
    assert "make venv" in block.split(lines[0])[0], "the set-up target comes before the command"
    return shlex.split(lines[0])


def run(arguments: list[str], output_dir) -> subprocess.CompletedProcess:
    """``arguments`` (the README's, from .venv/bin/python on) with -o sent to ``output_dir``."""
    given = list(arguments)
    given[given.index("-o") + 1] = str(output_dir)
    assert given[0] == ".venv/bin/python"
    return subprocess.run(
        [sys.executable, *given[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_the_readmes_own_data_command_answers_about_the_column(tmp_path):
    done = run(readme_command(), tmp_path / "incomes")
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr and "Traceback" not in done.stderr
    results = json.loads((tmp_path / "incomes" / "results.json").read_text())
    # the methods that need only the stated risk decide: hypothesis testing binds at
    # 2 artanh(0.25), nothing is asked from below
    assert results["feasible"] and results["feasible_interval"][0] == 0
    assert results["feasible_interval"][1] == pytest.approx(2 * math.atanh(0.25), rel=1e-12)
    left_out = results["not_applicable"]
    for method in ("Hsu et al., budget at N", "Poster, Theorem 2", "Shoaran et al., MTA"):
        assert any(m.startswith(method) for m in left_out), method
    assert results["data"]["column"] == "income" and results["data"]["n"] == 3000
    assert results["stated"]["max_error"] is None and results["stated"]["noise_bound"] is None
    # the answer opens the notebook, naming the column and release, in the column's unit
    nb = nbformat.read(tmp_path / "incomes" / "synthesis.ipynb", as_version=4)
    opening = next(c for c in nb.cells if "answer = run.the_answer(params)" in c.source)
    answer = opening.outputs[0]["data"]["text/markdown"]
    assert answer.startswith("## Which ε for the mean of `income` over 3,000 rows?")
    assert "the risk you accept allows ε up to 0.5108 (by Hypothesis testing)" in answer
    assert "you state no accuracy" in answer
    g = risk.pure(2 * math.atanh(0.25))
    assert f"the others it flags by at most {risk.advantage(g):.3g}" in answer
    assert not re.search(r"\b(years?|ages?|aged)\b", answer)


def test_the_readmes_command_paying_participants_without_an_error_is_refused(tmp_path):
    arguments = [*readme_command(), "-p", "pays_participants", "true"]
    done = run(arguments, tmp_path / "paid")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: parameter 'max_error' is required with pays_participants true on data_path: Hsu "
        "et al.'s accuracy bound needs the error of the mean you accept, in the column's unit "
        "(e.g. -p max_error 2000)"
    ]
    assert not (tmp_path / "paid").exists()
