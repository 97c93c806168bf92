"""requirements.lock, environment.yml, pyproject.toml and the Makefile must agree, and lib/ must
be tracked."""

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from choosing_epsilon.harness.paths import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import environment

SUPPORTED = ("3.11", "3.12", "3.13")
# owner/name on GitHub, as pyproject.toml's [project.urls] Repository states it
REPOSITORY = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
REPOSITORY = REPOSITORY.removeprefix("https://github.com/")


def lock_requirements():
    lines = [line.strip() for line in (ROOT / "requirements.lock").read_text().splitlines()]
    return [Requirement(line) for line in lines if line and not line.startswith("#")]


def pins_for(python):
    """The lock's pins that pip installs on CPython ``python`` on Linux."""
    env = {
        **environment.ENVIRONMENT,
        "python_version": python,
        "python_full_version": f"{python}.0",
    }
    return {
        r.name.lower(): Version(str(r.specifier)[2:])
        for r in lock_requirements()
        if r.marker is None or r.marker.evaluate(env)
    }


def test_every_lock_line_is_one_exact_pin():
    for requirement in lock_requirements():
        assert len(requirement.specifier) == 1 and str(requirement.specifier).startswith("=="), (
            requirement
        )


def test_environment_yml_is_rendered_from_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    jupyterlab = makefile.split("JUPYTERLAB_VERSION := ")[1].split()[0]
    assert (ROOT / "environment.yml").read_text() == environment.render(
        ROOT / "requirements.lock", jupyterlab
    )
    assert f"jupyterlab=={jupyterlab}" in (ROOT / "environment.yml").read_text()


@pytest.mark.parametrize("python", SUPPORTED)
def test_lock_satisfies_pyproject_ranges_on_every_supported_python(python):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert Version(f"{python}.0") in SpecifierSet(project["requires-python"])
    pins = pins_for(python)
    extras = dict(project["optional-dependencies"])
    assert set(extras) == {"test", "lint", "site", "teach", "spark"}, (
        "make lock must name every extra"
    )
    # PySpark, an optional extra for make test-spark, has a lock of its own
    spark = {
        Requirement(line).name.lower(): Version(str(Requirement(line).specifier)[2:])
        for line in (ROOT / "requirements-spark.lock").read_text().splitlines()
        if line and not line.startswith("#")
    }
    for spec in extras.pop("spark"):
        requirement = Requirement(spec)
        assert spark[requirement.name.lower()] in requirement.specifier, requirement.name
    for spec in project["dependencies"] + [spec for specs in extras.values() for spec in specs]:
        requirement = Requirement(spec)
        assert requirement.name.lower() in pins, (
            f"{requirement.name} is not locked for Python {python}"
        )
        assert pins[requirement.name.lower()] in requirement.specifier, (
            f"{requirement.name} lock outside {requirement.specifier}"
        )


def binder_pins() -> dict[str, Version]:
    """The pip pins of .binder/environment.yml, the file repo2docker reads."""
    text = yaml.safe_load((ROOT / ".binder" / "environment.yml").read_text())
    pip = next(d["pip"] for d in text["dependencies"] if isinstance(d, dict))
    return {Requirement(p).name.lower(): Version(str(Requirement(p).specifier)[2:]) for p in pip}


def test_binder_environment_holds_the_lock_pins_for_its_python():
    text = yaml.safe_load((ROOT / ".binder" / "environment.yml").read_text())
    python = next(d for d in text["dependencies"] if isinstance(d, str) and d.startswith("python="))
    assert python == f"python={environment.PYTHON}"
    assert binder_pins() == pins_for(environment.PYTHON)
    makefile = (ROOT / "Makefile").read_text()
    jupyterlab = makefile.split("JUPYTERLAB_VERSION := ")[1].split()[0]
    assert (ROOT / ".binder" / "environment.yml").read_text() == environment.render(
        ROOT / "requirements.lock", jupyterlab, binder=True
    )


def test_binder_pins_are_closed_under_their_own_requirements():
    """Every requirement of every Binder pin that is installed here (evaluated for CPython 3.11 on
    Linux, with the extras the lock asks for) is met by another Binder pin: pip resolves the file
    to exactly these pins and fetches nothing else."""
    pins = binder_pins()
    unmet = []
    for name in pins:
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:  # a pin for another Python than this one
            continue
        for line in requires:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate(
                {**environment.ENVIRONMENT, "extra": ""}
            ):
                continue
            got = pins.get(requirement.name.lower().replace("_", "-"))
            if got is None or got not in requirement.specifier:
                unmet.append(f"{name} needs {requirement}, Binder pins {got}")
    assert unmet == []


def test_binder_installs_the_package_after_the_copy():
    """repo2docker builds the environment before it copies the repository: no local path there;
    postBuild (executable) installs the package without touching the pins."""
    assert "-e ." not in (ROOT / ".binder" / "environment.yml").read_text()
    post_build = ROOT / ".binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert "pip install --no-deps -e ." in post_build.read_text()
    readme = (ROOT / "README.md").read_text()
    badge = f"https://mybinder.org/v2/gh/{REPOSITORY}/HEAD"
    assert badge in readme and "mybinder.org/badge_logo.svg" in readme


def test_binder_has_a_link_for_students_that_opens_the_student_copies():
    # postBuild writes the copies (tests/test_assignments.py checks a student copy holds no
    # solution, hidden test or printed answer); the second badge and TEACHING.md open them
    assert "python tools/assignments.py write" in (ROOT / ".binder" / "postBuild").read_text()
    student = f"https://mybinder.org/v2/gh/{REPOSITORY}/HEAD?urlpath=lab/tree/assignments/student"
    assert student in (ROOT / "README.md").read_text()
    assert student in (ROOT / "TEACHING.md").read_text()
    import inspect

    sys.path.insert(0, str(ROOT / "tools"))
    import assignments  # tools/assignments.py

    # where write() puts them by default, and the student copies' folder under it
    assert inspect.signature(assignments.write).parameters["out"].default == ROOT / "assignments"
    assert "student" in inspect.getsource(assignments.write)


def test_make_help_lists_every_target():
    makefile = (ROOT / "Makefile").read_text()
    phony = next(line for line in makefile.splitlines() if line.startswith(".PHONY:")).split()[1:]
    listed = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    shown = {line.split()[1] for line in listed.stdout.splitlines() if line.startswith("  make ")}
    assert shown == set(phony)


def test_ci_runs_on_every_push_and_pull_request():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert "push" in triggers and "pull_request" in triggers
    steps = [step.get("run") for job in workflow["jobs"].values() for step in job["steps"]]
    assert "bash .ci/run" in steps


def test_supported_pythons_are_stated_alike():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert Version("3.10.0") not in SpecifierSet(project["requires-python"])
    assert Version("3.14.0") not in SpecifierSet(project["requires-python"])
    assert "SUPPORTED := " + " ".join(SUPPORTED) in (ROOT / "Makefile").read_text()
    assert "3.11, 3.12 or 3.13" in (ROOT / "README.md").read_text()


def test_make_names_the_interpreter_it_needs_in_one_line():
    result = subprocess.run(
        [
            "make",
            "-s",
            "--no-print-directory",
            "-f",
            str(ROOT / "Makefile"),
            "-C",
            str(ROOT),
            "PYTHON=/nonexistent/python3",
            "VENV=/nonexistent-venv",
            "test",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert (
        result.stderr.strip().splitlines()[0].startswith("make: needs CPython 3.11, 3.12 or 3.13")
    )


def test_lib_is_tracked_not_ignored():
    tracked = subprocess.run(
        ["git", "ls-files", "lib"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    if tracked:  # inside a git checkout
        assert "lib/choosing_epsilon/possible_worlds.py" in tracked
    ignored = subprocess.run(
        ["git", "check-ignore", "lib/choosing_epsilon/__init__.py"], cwd=ROOT, capture_output=True
    )
    assert ignored.returncode != 0, "lib/ must not be git-ignored"


def test_pre_commit_runs_the_checks_of_make_lint():
    makefile = (ROOT / "Makefile").read_text()
    lint = makefile.split("\nlint:")[1].split("\n\n")[0]
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    for tool in ("ruff check", "ruff format", "mypy"):
        assert f"$(BIN)/{tool}" in lint and f".venv/bin/{tool}" in hooks, tool
    assert "lint" in (ROOT / ".ci" / "run").read_text().split("make test")[0]


def test_every_page_with_a_venv_command_names_make_venv_before_it():
    """A fresh clone has no .venv until a make target has run: a page that shows a
    ``.venv/bin/...`` command names ``make venv`` (the target that only sets it up) first."""
    pages = [ROOT / "README.md", *sorted(ROOT.glob("*.md")), *sorted((ROOT / "docs").glob("*.md"))]
    with_commands = 0
    for page in dict.fromkeys(pages):
        text = page.read_text()
        first = text.find(".venv/bin/")
        if first < 0:
            continue
        with_commands += 1
        named = text.find("make venv")
        assert 0 <= named < first, (
            f"{page.name}: `make venv` is not named before {text[first:][:40]!r}"
        )
    assert with_commands >= 3  # docs/running.md, CONTRIBUTING.md, TEACHING.md at least
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^venv: \$\(STAMP\)  ## ", makefile, re.M), "venv: only the environment"


def test_nbformat_imports_without_building_an_iri_parser():
    """Every runner, tool and test worker imports nbformat, and with it jsonschema's format checks.
    jsonschema 4.25 and later check `iri` through rfc3987-syntax when it is installed, which builds
    its Earley parsers at import: 2.7 s per process here. The lock keeps jsonschema below 4.25
    (pyproject.toml says why), so that module is neither pinned nor imported."""
    assert not any(r.name == "rfc3987-syntax" for r in lock_requirements())
    imported = subprocess.run(
        [sys.executable, "-c", "import sys, nbformat; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "nbformat" in imported and "jsonschema" in imported
    assert "rfc3987_syntax" not in imported and "'lark'" not in imported
