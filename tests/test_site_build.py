"""The site's build code without a browser (site/build.py, site/folding.py): a section JupyterLab
shows collapsed is marked and folded under its visible heading, the pages of docs/ keep links
that work on the site, and the API reference (docs/api.md) has a section for every module of the
package. tests/test_site.py builds the same small notebook with Sphinx and opens it
in Chromium."""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser

import nbformat
import pandas as pd
import pytest

from choosing_epsilon.harness import summary
from choosing_epsilon.harness.paths import ROOT
from tests.site_modules import site_module

build = site_module("build")
folding = site_module("folding")

COLLAPSED = {"jp-MarkdownHeadingCollapsed": True}


def sample_notebook() -> nbformat.NotebookNode:
    """A notebook with a collapsed level-2 section (a code cell with output, a subsection) between
    two sections that are not collapsed."""
    v4 = nbformat.v4
    code = v4.new_code_cell("print('matched')", id="code")
    code.outputs = [v4.new_output("stream", name="stdout", text="matched\n")]
    nb = v4.new_notebook(
        cells=[
            v4.new_markdown_cell("# Sample\n\nThe opening.", id="title"),
            v4.new_markdown_cell("## The argument\n\nIn view.", id="argument"),
            v4.new_markdown_cell(
                "## Forensics: how it was matched\n\nThe one line shown.",
                id="forensics",
                metadata=dict(COLLAPSED),
            ),
            code,
            v4.new_markdown_cell("### A detail\n\nFolded with its section.", id="detail"),
            v4.new_markdown_cell("## Beyond the paper\n\nIn view again.", id="beyond"),
        ]
    )
    nb.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    }
    return nb


def test_only_the_collapsed_heading_cell_is_marked():
    nb = sample_notebook()
    assert folding.mark_collapsed_sections(nb.cells) == 1
    marked = [c.id for c in nb.cells if folding.MARKER in c.source]
    assert marked == ["forensics"]
    assert nb.cells[2].source.startswith("## Forensics: how it was matched\n\nThe one line shown.")


def test_a_collapsed_cell_without_a_heading_is_refused():
    cells = [nbformat.v4.new_markdown_cell("No heading here.", metadata=dict(COLLAPSED))]
    with pytest.raises(SystemExit, match="has no heading"):
        folding.mark_collapsed_sections(cells)


class Outline(HTMLParser):
    """The page's text, each piece with the ``details`` elements around it (True for a folded
    section's)."""

    def __init__(self) -> None:
        super().__init__()
        self.details: list[bool] = []  # one entry per enclosing details: whether it is open
        self.seen: list[tuple[str, tuple[bool, ...]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "details":
            self.details.append(dict(attrs).get("class") == "folded-section")

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self.details.pop()

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.seen.append((data.strip(), tuple(self.details)))


def folded_outline(html: str) -> dict[str, tuple[bool, ...]]:
    """Each piece of text of ``html``, the first time it is seen, with the ``details`` around it."""
    outline = Outline()
    outline.feed(html)
    where: dict[str, tuple[bool, ...]] = {}
    for text, folds in outline.seen:  # the first time each is seen: the body, not a sidebar
        where.setdefault(text, folds)
    return where


def test_the_marked_section_is_folded_in_the_document_tree():
    """The sample's Markdown, marked, parsed by MyST as Sphinx parses it, folded and written as
    HTML by docutils: the code cell is left out (tests/test_site.py builds the whole notebook)."""
    from docutils.core import publish_doctree, publish_from_doctree
    from myst_parser.parsers.docutils_ import Parser

    nb = sample_notebook()
    folding.mark_collapsed_sections(nb.cells)
    text = "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    doctree = publish_doctree(text, parser=Parser(), settings_overrides={"report_level": 5})
    assert folding.fold_marked_sections(doctree) == 1
    html = publish_from_doctree(doctree, writer="html5").decode()
    where = folded_outline(html)
    assert where["Forensics: how it was matched"] == () and where["The one line shown."] == ()
    assert where["A detail"] == (True,) and where["Folded with its section."] == (True,)
    assert where["Beyond the paper"] == () and where["In view again."] == ()
    assert html.count('<details class="folded-section">') == 1 and folding.MARKER not in html
    assert folding.fold_marked_sections(doctree) == 0  # the marker is gone: folded once


def test_docs_links_point_to_what_exists_and_work_on_the_site():
    pages = build.doc_pages()
    assert pages and all(pages.values())
    # the site's pages, as paths from its root without the suffix
    on_site = {f"docs/{stem}" for stem in pages} | {"teachers"}
    on_site |= {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    for path in sorted((ROOT / "docs").glob("*.md")):
        text = path.read_text()
        for _, target in build.LINK.findall(text):
            if not re.match(r"[a-z]+:|#", target):
                assert (path.parent / target.split("#")[0]).exists(), f"{path.name}: {target}"
        for _, target in build.LINK.findall(build.doc_links(text)):
            if target.startswith(f"{build.REPOSITORY}/"):
                relative = target.removeprefix(f"{build.REPOSITORY}/").split("/", 2)[2]
                assert (ROOT / relative.split("#")[0]).exists(), f"{path.name}: {target}"
            elif not re.match(r"[a-z]+:|#", target):
                page = posixpath.normpath(posixpath.join("docs", target.split("#")[0]))
                assert posixpath.splitext(page)[0] in on_site, f"{path.name}: {target}"


def test_the_api_reference_has_a_section_for_every_module():
    """docs/api.md documents every module of the package (its functions and classes, by Sphinx's
    autodoc) but the papers' code and the private modules: a module added to lib/choosing_epsilon
    needs its section there, and this test names it until it has one."""
    text = build.autodoc_directives((ROOT / "docs" / "api.md").read_text())  # as the site reads it
    documented = re.findall(
        r"^\.\. automodule:: (\S+)\n   :members:\n   :undoc-members:$", text, re.M
    )
    package = ROOT / "lib" / "choosing_epsilon"
    modules = [
        ".".join(("choosing_epsilon", *path.relative_to(package).with_suffix("").parts))
        for path in package.rglob("*.py")
        if path.name != "__init__.py"
        and not path.name.startswith("_")
        and path.relative_to(package).parts[0] != "papers"
    ]
    assert len(documented) == len(set(documented))
    assert sorted(documented) == sorted(modules)


def test_links_to_a_notebooks_own_sections_take_the_sites_anchors():
    """JupyterLab anchors a heading by its words joined with hyphens; the site (MyST, GitHub's
    slugs) by the same words in lower case without punctuation: a header's link to its "Beyond the
    paper" section must reach the section on both."""
    v4 = nbformat.v4
    nb = v4.new_notebook(
        cells=[
            v4.new_markdown_cell(
                "[Beyond the paper](#Beyond-the-paper), [the methods]"
                "(#The-study,-the-sources-and-the-methods), ![a figure](#Not-a-link) "
                "[outside](https://example.org/#Keep-Me)"
            )
        ]
    )
    build.link_sections(nb)
    assert nb.cells[0].source == (
        "[Beyond the paper](#beyond-the-paper), [the methods]"
        "(#the-study-the-sources-and-the-methods), ![a figure](#Not-a-link) "
        "[outside](https://example.org/#Keep-Me)"
    )
    assert build.heading_slug("Forensics:-how-Tables-2–3-were-matched") == (
        "forensics-how-tables-23-were-matched"
    )


# --- the instructor's hidden tests stay off a reader's page ---------------------------------------


@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb")))
def test_no_hidden_test_reaches_a_page(name):
    """Every grader cell of every notebook as the site writes it keeps its visible checks and
    loses the block nbgrader hides from students (the committed notebook keeps it)."""
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    graders = [c for c in nb.cells if "grader" in c.metadata.get("tags", [])]
    hidden = sum("### BEGIN HIDDEN TESTS" in c.source for c in graders)
    build.fold_cells(nb)
    assert not any("HIDDEN TESTS" in c.source for c in nb.cells)
    assert all(c.source.strip() for c in graders)  # the visible checks remain
    assert hidden > 0  # every notebook's exercises have hidden tests: the test sees some


def test_the_hidden_block_is_cut_and_the_rest_kept():
    source = "assert a\n### BEGIN HIDDEN TESTS\nassert b\n### END HIDDEN TESTS\nassert c\n"
    assert build.without_hidden_tests(source) == "assert a\nassert c"
    assert build.without_hidden_tests("assert a\n") == "assert a"


# --- the answer first: a notebook's opening, folded under its header and its answer --------------


def opening_notebook() -> nbformat.NotebookNode:
    """A header, the parameters, the imports, a folded answer cell that shows the answer, a line
    of text, then the first section."""
    v4 = nbformat.v4
    answer = v4.new_code_cell(
        "answer = run.the_answer(params)\ndisplay(Markdown(answer))",
        id="answer",
        metadata={"tags": ["answer"], "jupyter": {"source_hidden": True}},
    )
    answer.outputs = [
        v4.new_output("display_data", data={"text/markdown": "**The answer.**\n\n| a | b |"})
    ]
    return v4.new_notebook(
        cells=[
            v4.new_markdown_cell("# Title\n\nThe header.", id="header"),
            v4.new_code_cell("seed = 1", id="params", metadata={"tags": ["parameters"]}),
            v4.new_markdown_cell("We import the package.", id="imports-text"),
            v4.new_code_cell("import math", id="imports"),
            answer,
            v4.new_markdown_cell("The sections derive it.", id="after"),
            v4.new_markdown_cell("## First section", id="first"),
        ]
    )


def test_the_opening_is_folded_after_the_answer_and_the_downloads():
    nb = opening_notebook()
    assert build.opening_end(nb.cells) == 5  # up to the last code cell before the heading
    build.fold_cells(nb)
    build.arrange_opening(nb, "Download it.")
    assert [c.id for c in nb.cells] == [
        "header",
        "answer-output",  # the answer's output, its code removed
        "site-downloads",
        "site-setup-open",
        "params",
        "imports-text",
        "imports",
        "answer",  # its code, in the fold, with no fold of its own and no output
        "site-setup-close",
        "after",
        "first",
    ]
    shown, folded = nb.cells[1], nb.cells[7]
    assert "remove-input" in shown.metadata.tags and shown.outputs[0].data["text/markdown"]
    assert shown.metadata.mystnb["markdown_format"] == "myst"  # its table rendered
    assert folded.outputs == [] and "hide-input" not in folded.metadata.tags
    assert nb.cells[3].source.startswith('<details class="setup-code">')
    assert nb.cells[8].source == "</details>"


def test_a_notebook_with_no_code_before_its_first_heading_has_no_fold():
    v4 = nbformat.v4
    nb = v4.new_notebook(
        cells=[v4.new_markdown_cell("# T\n\nH.", id="h"), v4.new_markdown_cell("## S", id="s")]
    )
    build.arrange_opening(nb, "Download it.")
    assert [c.id for c in nb.cells] == ["h", "site-downloads", "s"]


# --- the home page says what the ledger holds -----------------------------------------------------

# Statements the home page must not make while the ledger holds what makes them false: what the
# statement says (a pattern, case ignored), and what in the ledger's counts (``ledger_counts``)
# makes it false.
CONTRADICTED = [
    (
        r"no (copy|image|original) of (a|any) (printed |original )?figure",
        lambda counts: counts["readings"] > 0,
    ),
    (r"redraw\w* the sources'? figures from their formulas", lambda c: c["readings"] > 0),
    (r"none read off an original figure|no value (is|was) read off", lambda c: c["readings"] > 0),
    (r"no original figure could be read", lambda c: c["readings"] > 0),
    (r"\b[1-9][\d,]* read off", lambda c: c["readings"] == 0),
]
OLD_HOME = (
    "recompute the printed numbers and tables of each source from a thin shared Python package, "
    "check each against the published value in a claims ledger, redraw the sources' figures from "
    "their formulas (no copy of a printed figure was available to compare them with)"
)


def contradictions(text: str, counts: dict[str, int]) -> list[str]:
    """The statements of ``text`` that the ledger's ``counts`` contradict."""
    return [
        found.group()
        for pattern, false in CONTRADICTED
        if false(counts)
        for found in re.finditer(pattern, text, re.IGNORECASE)
    ]


def summary_of(rows: dict[str, tuple[int, int]]) -> pd.DataFrame:
    """A claims summary (``summary.claims_summary``'s columns) whose notebooks have the given
    (claims, reproduced); the other claims are explained discrepancies."""
    table = pd.DataFrame(0, index=range(len(rows)), columns=summary.SUMMARY_COLUMNS)
    table["notebook"] = list(rows)
    table["claims"] = [c for c, _ in rows.values()]
    table["reproduced"] = [r for _, r in rows.values()]
    table["discrepancy"] = table.claims - table.reproduced
    return table


def readings_of(rows: dict[str, tuple[int, int]]) -> pd.DataFrame:
    """``summary.figure_readings``'s table with the given (readings, figures) by notebook."""
    table = pd.DataFrame(0, index=range(len(rows)), columns=summary.READING_COLUMNS)
    table["notebook"] = list(rows)
    table["readings"] = [r for r, _ in rows.values()]
    table["figures"] = [f for _, f in rows.values()]
    return table


def test_the_rules_catch_the_home_pages_old_wording():
    assert sorted(contradictions(OLD_HOME, {"readings": 98})) == [
        "no copy of a printed figure",
        "redraw the sources' figures from their formulas",
    ]
    assert contradictions(OLD_HOME, {"readings": 0}) == []


def test_the_ledger_paragraph_counts_what_the_ledger_holds_and_contradicts_none_of_it():
    summary = summary_of({"a": (10, 9), "b": (5, 5)})
    none = build.ledger_paragraph(summary, readings_of({}))
    assert none.startswith(
        "The claims ledger holds 15 of the sources' numbers: 15 printed, none read off an "
        "original figure; 14 reproduced and 1 explained discrepancies"
    )
    assert contradictions(none, {"readings": 0}) == []
    one = build.ledger_paragraph(summary, readings_of({"a": (4, 2)}))
    assert "11 printed and 4 read off 2 original figures of [a](a.ipynb);" in one
    two = build.ledger_paragraph(summary, readings_of({"a": (4, 2), "b": (1, 1)}))
    assert "10 printed and 5 read off 3 of the sources' original figures (4 off 2 of [a]" in two
    assert contradictions(one, {"readings": 4}) == contradictions(two, {"readings": 5}) == []
    assert contradictions(one, {"readings": 0}) == ["4 read off"]  # and the rules see it


def test_the_api_reference_reads_as_markdown_where_the_site_reads_its_directives():
    """On GitHub docs/api.md shows each module's section in words, with no directive: each
    module's reference is a comment line that the site turns into autodoc's directive. A comment
    that misspells the mark would vanish from both: every ``<!-- autodoc`` line is a mark."""
    text = (ROOT / "docs" / "api.md").read_text()
    assert "{eval-rst}" not in text and ".. automodule::" not in text
    marks = [line for line in text.splitlines() if line.startswith("<!-- autodoc")]
    assert marks and all(build.AUTODOC.fullmatch(line) for line in marks), marks
    site = build.autodoc_directives(text)
    assert site.count("```{eval-rst}\n.. automodule:: ") == len(marks)
    assert "<!-- autodoc" not in site
    # each section names its module, says what it holds and links its source
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        module, _, body = section.partition("\n")
        path = "/".join(module.split("."))
        assert re.search(rf"\(\.\./lib/choosing_epsilon/{path}(\.py|/__init__\.py)\)", body), module
        words = body.split("<!--")[0].split()
        assert len(words) >= 8, f"{module}: what it holds, in words"
        assert f"<!-- autodoc choosing_epsilon.{module}" in body, module
