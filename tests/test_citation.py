"""The repository can be cited: CITATION.cff validates against the Citation File Format 1.2.0
schema, references.bib parses, and every notebook's header cites its source from that file."""

import copy
import json
import re
import tomllib

import bibtexparser
import jsonschema
import nbformat
import pytest
import yaml
from bibtexparser.bparser import BibTexParser
from bibtexparser.customization import convert_to_unicode

from choosing_epsilon.harness import papers
from choosing_epsilon.harness.paths import NOTEBOOKS, ROOT

# the Citation File Format's schema, version 1.2.0, as cffconvert 2.0.0 ships it
SCHEMA = ROOT / "tests" / "fixtures" / "citation-file-format-1.2.0.schema.json"
# the entries of references.bib each notebook's header cites, from the registry of the notebooks
# (each notebook's ``about.py``): its source's first
SOURCES = {name: list(papers.paper(name).citations) for name in papers.names()}


def load_cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def cff_errors(document: dict) -> list[str]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    return [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(document)]


def load_bib() -> dict[str, dict]:
    parser = BibTexParser(common_strings=True, customization=convert_to_unicode)
    parser.ignore_nonstandard_types = False
    text = (ROOT / "references.bib").read_text(encoding="utf-8")
    database = bibtexparser.loads(text, parser=parser)
    keys = [entry["ID"] for entry in database.entries]
    assert len(keys) == len(set(keys)), f"repeated keys in references.bib: {keys}"
    # every entry starts with "@": a typo there makes the parser skip an entry silently
    assert len(keys) == len(re.findall(r"^@\w+\{", text, flags=re.MULTILINE))
    return {entry["ID"]: entry for entry in database.entries}


def plain(text: str) -> str:
    """A title or name as it reads: TeX math and braces gone, spaces collapsed, lower case."""
    # the parser writes TeX's \varepsilon as the Latin open e
    text = text.replace(r"\varepsilon", "ε").replace(r"\epsilon", "ε").replace("ɛ", "ε")
    text = re.sub(r"[{}$]", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def surnames(entry: dict) -> list[str]:
    authors = entry.get("author", "")
    return [plain(name.split(",")[0]) for name in re.split(r"\s+and\s+", authors) if name.strip()]


def test_citation_cff_validates_against_the_schema():
    assert cff_errors(load_cff()) == []


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("authors"),
        lambda d: d.update({"cff-version": "0.9"}),
        lambda d: d.update({"repository-code": "not a url"}),
        lambda d: d["references"][0].update({"type": "paper-ish"}),
        lambda d: d.update({"date-released": "23 November 2026"}),
    ],
    ids=["no authors", "old version", "bad url", "bad reference type", "bad date"],
)
def test_the_schema_check_fails_on_a_damaged_file(damage):
    document = copy.deepcopy(load_cff())
    damage(document)
    assert cff_errors(document)


def test_citation_cff_agrees_with_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    cff = load_cff()
    assert cff["version"] == project["version"]
    assert cff["license"] == project["license"]["text"]
    assert cff["repository-code"] == project["urls"]["Repository"]


def test_citation_cff_references_are_the_bib_sources():
    entries = list(load_bib().values())
    for reference in load_cff()["references"]:
        # the .bib entries of the same title (the Hsu et al. paper and its slides share one)
        same = [e for e in entries if plain(e["title"]) == plain(reference["title"])]
        assert same, f"CITATION.cff cites {reference['title']!r}: not in the .bib"
        cff_names = [plain(a["family-names"]) for a in reference["authors"] if "family-names" in a]
        agree = [
            e
            for e in same
            if str(reference.get("year", "")) == e.get("year", "")
            and cff_names in ([], surnames(e))
        ]
        assert agree, f"{reference['title']!r}: year or authors differ from references.bib"


def test_citation_cff_references_every_notebooks_source():
    """Each notebook's source (the registry's ``source``, an entry of references.bib) is among
    CITATION.cff's references, by title: a notebook added to the registry is cited there too."""
    titles = {plain(reference["title"]) for reference in load_cff()["references"]}
    entries = load_bib()
    missing = [
        (name, paper.source)
        for name in papers.names()
        if (paper := papers.paper(name)).source
        and plain(entries[paper.source]["title"]) not in titles
    ]
    assert missing == [], f"CITATION.cff does not reference the sources of {missing}"


def test_references_bib_parses_with_a_title_for_every_entry():
    entries = load_bib()
    assert {key for keys in SOURCES.values() for key in keys} <= set(entries)
    for key, entry in entries.items():
        assert entry.get("title"), f"{key} has no title"


@pytest.mark.parametrize("notebook", sorted(SOURCES))
def test_each_notebook_header_cites_its_source_from_references_bib(notebook):
    """The header names the source (a paper notebook's first key: the paper) and where its entry
    is; every source the notebook uses, secondary ones too, is cited in full in its text (a short
    header leaves the secondary sources to the notebook's own section on them)."""
    cells = nbformat.read(NOTEBOOKS / f"{notebook}.ipynb", as_version=4).cells
    header = cells[0].source
    markdown = "\n".join(c.source for c in cells if c.cell_type == "markdown")
    assert "references.bib" in header
    source = papers.paper(notebook).source  # the synthesis reproduces no one source
    cited = [(source, header, "the header")] if source else []
    cited += [(key, markdown, "the notebook") for key in SOURCES[notebook]]
    for key, where, said in cited:
        entry, text = load_bib()[key], plain(where)
        assert f"`{key}`" in where, f"{notebook}: {said} does not cite `{key}`"
        assert plain(entry["title"]) in text, f"{notebook}: the title of {key} is not in {said}"
        if "year" in entry:
            assert entry["year"] in where, f"{notebook}: the year of {key} is not in {said}"
        for surname in surnames(entry):
            assert surname in text, f"{notebook}: {surname} ({key}) is not in {said}"


def test_readme_says_how_to_cite():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## How to cite", 1)
    assert len(section) == 2, "README.md has no '## How to cite' section"
    body = section[1].split("\n## ", 1)[0]
    assert "CITATION.cff" in body and "references.bib" in body
