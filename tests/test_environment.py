"""requirements.lock, environment.yml and pyproject.toml must agree, and lib/ must be tracked."""

import subprocess
import tomllib

from packaging.requirements import Requirement
from packaging.version import Version

from choosing_epsilon.paths import ROOT


def lock_pins():
    lines = [l.strip() for l in (ROOT / "requirements.lock").read_text().splitlines()]
    return dict(l.split("==") for l in lines if l and not l.startswith("#"))


def test_environment_yml_repeats_the_lock():
    text = (ROOT / "environment.yml").read_text()
    listed = [l.strip()[2:] for l in text.splitlines() if l.startswith("      - ")]
    assert listed[-1] == "-e ."
    assert dict(p.split("==") for p in listed[:-1]) == lock_pins()


def test_lock_satisfies_pyproject_ranges():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {name.lower(): Version(v) for name, v in lock_pins().items()}
    for spec in project["dependencies"] + project["optional-dependencies"]["test"]:
        requirement = Requirement(spec)
        assert requirement.name.lower() in pins, f"{requirement.name} is not locked"
        assert pins[requirement.name.lower()] in requirement.specifier, f"{requirement.name} lock outside {requirement.specifier}"


def test_lib_is_tracked_not_ignored():
    tracked = subprocess.run(["git", "ls-files", "lib"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if tracked:  # inside a git checkout
        assert "lib/choosing_epsilon/possible_worlds.py" in tracked
    ignored = subprocess.run(["git", "check-ignore", "lib/choosing_epsilon/__init__.py"], cwd=ROOT, capture_output=True)
    assert ignored.returncode != 0, "lib/ must not be git-ignored"
