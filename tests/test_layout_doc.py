"""docs/layout.md against the tree: every folder it names exists, every tracked folder at the root
is named, and every module of the shared package, every tool and every module of a paper's folder
is named by its stem, so the page cannot drift from the files."""

import re
import subprocess

import pytest

from choosing_epsilon.harness import papers
from choosing_epsilon.harness.paths import ROOT

LAYOUT = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
BLOCK = LAYOUT.split("```", 2)[1]


def tracked() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return listed.splitlines()


def test_every_folder_named_exists_and_every_tracked_root_folder_is_named():
    named = set(re.findall(r"^(\S+)/", BLOCK, flags=re.MULTILINE))
    roots = {path.split("/")[0] for path in tracked() if "/" in path}
    public = {r for r in roots if not r.startswith(".")}
    for folder in named - {"lib/choosing_epsilon", "figures/<notebook>"}:
        assert (ROOT / folder).is_dir(), f"docs/layout.md names {folder}/, which is not there"
    assert public <= {n.split("/")[0] for n in named}, public - {n.split("/")[0] for n in named}


@pytest.mark.parametrize(
    "folder",
    [
        "lib/choosing_epsilon",
        "lib/choosing_epsilon/plots",
        "lib/choosing_epsilon/harness",
        "tools",
        # every paper's folder, from the registry of the notebooks
        *(f"lib/choosing_epsilon/papers/{name}" for name in papers.names()),
    ],
)
def test_every_module_is_named(folder):
    stems = {
        path.rsplit("/", 1)[1].removesuffix(".py")
        for path in tracked()
        if path.startswith(folder + "/") and path.count("/") == folder.count("/") + 1
        and path.endswith(".py") and not path.endswith("__init__.py")
    }  # fmt: skip
    missing = sorted(s for s in stems if not re.search(rf"\b{re.escape(s)}\b", BLOCK))
    assert not missing, f"docs/layout.md does not name {missing} of {folder}"
