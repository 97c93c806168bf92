"""docs/python.md, the guide to the package from Python: every example on the page (its ``pycon``
blocks, in the order of the page, sharing one namespace as a reader's session would) runs as a
doctest and shows exactly the output printed, with no doctest directive; the guide calls the
readings it explains and links the API reference."""

from __future__ import annotations

import doctest
import io
import re

from choosing_epsilon.harness.paths import ROOT

GUIDE = ROOT / "docs" / "python.md"
TEXT = GUIDE.read_text()
# a fenced block: its language and its body, with the line the body starts on
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def blocks(language: str) -> list[tuple[int, str]]:
    """The page's fenced blocks in ``language``: (line of the body's first line, 0-based; body)."""
    return [
        (TEXT[: m.start(2)].count("\n"), m.group(2))
        for m in FENCE.finditer(TEXT)
        if m.group(1) == language
    ]


def test_every_example_of_the_guide_runs_and_shows_its_output():
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=0)
    namespace: dict[str, object] = {}
    report, shown = io.StringIO(), 0
    for line, body in blocks("pycon"):
        test = parser.get_doctest(body, namespace, "docs/python.md", str(GUIDE), line)
        assert test.examples, f"docs/python.md:{line + 1}: a pycon block with no example"
        assert not any(e.options for e in test.examples), f"docs/python.md:{line + 1}: directive"
        shown += len(test.examples)
        runner.run(test, out=report.write, clear_globs=False)
        namespace.update(test.globs)  # a DocTest runs in a copy: the next block sees its names
    assert shown >= 20
    assert runner.failures == 0, report.getvalue()
    assert runner.tries == shown


def test_the_guide_calls_the_readings_it_explains_and_links_the_api_reference():
    examples = "\n".join(body for _, body in blocks("pycon"))
    for name in [
        "risk.pure",
        "risk.approximate",
        "risk.gdp",
        "risk.zcdp",
        "risk.advantage",
        "risk.tpr_bound",
        "risk.posterior_after_positive",
        "risk.largest_posterior",
        "risk.epsilon_for_posterior",
        "risk.singling_out",
        "risk.summary",
        "risk.noise_for",
        "risk.epsilon_for",
        "calibration.routes",
    ]:
        assert f"{name}(" in examples, f"the guide shows no call of {name}"
    assert "[API reference](api.md)" in TEXT


def test_no_python_block_of_the_guide_holds_an_example_that_would_not_run():
    """A ``>>>`` example belongs in a ``pycon`` block, which the test above runs; a ``python``
    block (one that needs a file or a cluster the tests lack) holds none."""
    assert blocks("python"), "the guide's Parquet and Spark recipes"
    assert not any(">>>" in body for _, body in blocks("python"))
