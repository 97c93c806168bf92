"""Build the static site (``make site``): one page per notebook, from its committed outputs, a
home page and a teachers' page, in site/_build/html/.

The notebooks are copied into site/_build/src/ and only the copies are changed: the answer comes
before any code (under the header, what the opening's code shows, then a link bar of the notebook
and its CSVs, then the parameters, imports and set-up in one fold), claims cells fold their code,
solution and grader cells fold whole, each of the notebook's ε scrubbers (declared in its folder,
papers/<notebook>/scrubbers.py, rendered by site/scrubbers.py) follows the cell that shows its
figure, a section JupyterLab shows collapsed is folded under its heading (site/folding.py), and the
table of every claim with its verdict ends the page. The notebooks, their titles and their reading
order come from the registry (``harness.papers``). The pages of docs/ are copied too, their links
made to work on the site. Sphinx (myst-nb, sphinx-book-theme, see conf.py) renders them with
warnings as errors and no network: nothing is executed, and MathJax comes from the npm package
pinned in site/package-lock.json.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import folding  # site/folding.py, beside this file
import nbformat
import pandas as pd
import scrubbers  # site/scrubbers.py, beside this file

from choosing_epsilon.harness import papers, summary
from choosing_epsilon.harness.claims import COUNTED_SOURCES
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS, ROOT

SITE = Path(__file__).resolve().parent
BUILD = SITE / "_build"
SRC = BUILD / "src"
HTML = BUILD / "html"
DOCTREES = BUILD / "doctrees"  # Sphinx's cache, kept out of the published html/
VENDOR = BUILD / "vendor"
SCRUBBER_CACHE = BUILD / "scrubbers"
TEACHING = ROOT / "TEACHING.md"
DOCS = ROOT / "docs"
# where the repository is published, as pyproject.toml states it (the README's badge names it too)
REPOSITORY = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]

# How each status reads in a claims table: a symbol and words, so that colour is never the only
# signal (site/_static/site.css colours the rows).
VERDICTS = {
    "reproduced": ("✔", "reproduced", "the computation lands within the printed precision"),
    "fitted": ("≈", "fitted", "reproduced after fitting a value the source does not print"),
    "below resolution": (
        "○",
        "below resolution",
        "within a tolerance too wide for the value (0 would pass too): counted apart",
    ),
    "discrepancy": ("✘", "discrepancy (explained)", "a mismatch the notebook explains"),
    "note": ("✎", "slip in the wording", "a statement with no one number to check, shown wrong"),
    "not applicable": ("–", "not applicable", "the run's parameters are not the source's"),
}

# the MathJax that site/package-lock.json pins (npm ci installs it, with its integrity hash)
LOCK = json.loads((SITE / "package-lock.json").read_text())
MATHJAX_VERSION = LOCK["packages"]["node_modules/mathjax"]["version"]
# What tex-chtml.js loads from its own directory: TeX extensions on demand, the CHTML fonts, the
# menu's accessibility and speech components.
MATHJAX_PARTS = ("tex-chtml.js", "input/tex/extensions", "output/chtml/fonts", "a11y", "ui", "sre")


def main() -> int:
    """Build the site and print where it is."""
    start = time.perf_counter()
    with no_network():
        install_mathjax()
        # the references every notebook's header cites, one download for all pages
        written = {write_if_changed(SRC / "downloads" / BIB, (ROOT / BIB).read_bytes())}
        fragments = scrubber_fragments()
        names = papers.names()  # the registry of the notebooks, each declared in its folder
        for name in names:
            own = {n: fragments[n] for n in scrubbers.of_notebook(name)}
            written |= write_notebook(name, own)
        written |= write_docs()
        written |= write_home(names)
        written |= write_teachers()
        remove_stale(SRC, written)
        sphinx_build()
    print(
        f"site: built in {time.perf_counter() - start:.0f} s; open {HTML / 'index.html'} "
        f"in a browser, or serve it: python3 -m http.server -d {HTML}"
    )
    return 0


# --- no network -------------------------------------------------------------------------------


class no_network:
    """Refuse every connection but to this machine while the site builds: the build must not
    depend on the network (npm ci, which needs the registry, runs in a child process)."""

    def __enter__(self) -> None:
        self._connect = socket.socket.connect

        def connect(sock: socket.socket, address: Any) -> Any:
            host = address[0] if isinstance(address, tuple) else address
            remote = isinstance(host, str) and host not in ("127.0.0.1", "::1", "localhost")
            if remote and sock.family in (socket.AF_INET, socket.AF_INET6):
                raise OSError(f"site/build.py: no network while building (tried {host})")
            return self._connect(sock, address)

        socket.socket.connect = connect  # type: ignore[method-assign]

    def __exit__(self, *exc: object) -> None:
        socket.socket.connect = self._connect  # type: ignore[method-assign]


# --- MathJax ----------------------------------------------------------------------------------


def install_mathjax() -> None:
    """Install MathJax from site/package-lock.json (npm ci, skipped when the locked version is
    already installed) and copy what the pages load into the static files."""
    package = SITE / "node_modules" / "mathjax"
    installed = package / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != MATHJAX_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("site/build.py: npm is needed once to install MathJax (apt-get install npm)")
        command = [npm, "ci", "--prefix", str(SITE), "--ignore-scripts", "--no-audit", "--no-fund"]
        if subprocess.run(command, stdout=subprocess.DEVNULL).returncode != 0:
            sys.exit(
                f"site/build.py: npm ci could not install mathjax {MATHJAX_VERSION} from "
                "site/package-lock.json (it needs the npm registry once); see npm's message above"
            )
    target = VENDOR / "mathjax"
    stamp = target / ".version"
    if stamp.exists() and stamp.read_text() == MATHJAX_VERSION:
        return
    shutil.rmtree(target, ignore_errors=True)
    for part in MATHJAX_PARTS:
        source = package / "es5" / part
        if source.is_dir():
            shutil.copytree(source, target / part)
        else:
            (target / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / part)
    shutil.copy2(package / "LICENSE", target / "LICENSE")
    stamp.write_text(MATHJAX_VERSION)


# --- writing the sources ------------------------------------------------------------------------


def write_if_changed(path: Path, content: str | bytes) -> Path:
    """Write ``content`` to ``path`` unless it already holds it (an unchanged file keeps its
    time, so Sphinx rereads only what changed)."""
    data = content.encode() if isinstance(content, str) else content
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path


def remove_stale(root: Path, keep: set[Path]) -> None:
    """Delete the files under ``root`` this build did not write (a notebook since removed)."""
    for path in sorted(root.rglob("*"), reverse=True):
        if path.is_file() and path not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def markdown_cell(cell_id: str, source: str) -> nbformat.NotebookNode:
    """A markdown cell with a fixed id (nbformat would give it a random one)."""
    return nbformat.v4.new_markdown_cell(source, id=cell_id)


def raw_html(path: str) -> str:
    """A MyST directive that inserts an HTML file, relative to the page."""
    return f"```{{raw}} html\n:file: {path}\n```"


def write_notebook(name: str, fragments: dict[str, str]) -> set[Path]:
    """Copy notebook ``name`` into the sources, transformed for the site, with its downloads,
    its scrubbers (``fragments``: each one's HTML by scrubber name, in the order a page shows
    those that follow the same figure) and its claims table."""
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    written = set()
    downloads = SRC / "downloads" / name
    written.add(
        write_if_changed(downloads / f"{name}.ipynb", (NOTEBOOKS / f"{name}.ipynb").read_bytes())
    )
    csvs = sorted((FIGURES / name).glob("*.csv"))
    for csv in csvs:
        written.add(write_if_changed(downloads / csv.name, csv.read_bytes()))
    fold_cells(nb)
    arrange_opening(nb, download_bar(name, csvs))
    folding.mark_collapsed_sections(nb.cells)
    give_images_their_alt_text(nb)
    link_repository_files(nb)
    link_sections(nb)
    written |= insert_scrubbers(nb, fragments)
    claims_path = FIGURES / name / "claims.csv"
    if claims_path.exists():
        table = SRC / "_fragments" / f"{name}-claims.html"
        written.add(write_if_changed(table, claims_table(pd.read_csv(claims_path))))
        nb.cells.append(
            markdown_cell(
                "site-claims",
                "## Every claim and its verdict\n\n"
                f"{claims_legend()}\n\n{raw_html(f'_fragments/{name}-claims.html')}",
            )
        )
    written.add(write_if_changed(SRC / f"{name}.ipynb", nbformat.writes(nb) + "\n"))
    return written


def insert_scrubbers(nb: nbformat.NotebookNode, fragments: dict[str, str]) -> set[Path]:
    """Write each scrubber's fragment and insert its cell (caption and fragment) right after the
    cell that shows its figure; scrubbers that follow the same figure keep the order of
    ``fragments``. The first cell's id is "site-scrubber", the others' "site-scrubber-<name>"."""
    written = set()
    after: dict[int, list[nbformat.NotebookNode]] = {}
    for order, name in enumerate(fragments):
        path = f"_fragments/{name}-scrubber.html"
        written.add(write_if_changed(SRC / path, fragments[name]))
        index = central_figure_cell(nb.cells, scrubbers.SCRUBBERS[name].figure)
        cell_id = "site-scrubber" if order == 0 else f"site-scrubber-{name}"
        cell = markdown_cell(cell_id, f"{scrubber_caption(name)}\n\n{raw_html(path)}")
        after.setdefault(index, []).append(cell)
    # from the last figure up, so that the indices found above still hold
    for index in sorted(after, reverse=True):
        nb.cells[index + 1 : index + 1] = after[index]
    return written


# The opening of a page: the header, then what the opening's code shows (the synthesis's answer),
# then the downloads, then the opening's code in one fold.
SETUP_FOLD = "Show the parameters, imports and set-up code"
HEADING_LINE = re.compile(r"^#{1,6}\s+\S", re.MULTILINE)


def opening_end(cells: list[nbformat.NotebookNode]) -> int:
    """The index past a notebook's opening: its header (cell 0) and the cells after it up to and
    including the last code cell before the first heading (the parameters, the imports, the
    set-up, and the text that introduces them); the text after that code stays in view."""
    first_heading = next(
        (
            i
            for i, cell in enumerate(cells[1:], 1)
            if cell.cell_type == "markdown" and HEADING_LINE.search(cell.source)
        ),
        len(cells),
    )
    code = [i for i in range(1, first_heading) if cells[i].cell_type == "code"]
    return code[-1] + 1 if code else 1


def arrange_opening(nb: nbformat.NotebookNode, downloads: str) -> None:
    """Put the answer before any code: under the header, the outputs of the opening's cells (each
    a copy of its cell, its code removed), then the downloads, then the opening's code and text in
    one closed fold (``SETUP_FOLD``), each code cell shown whole in it, with no fold of its own;
    the rest of the notebook follows. JupyterLab is unchanged: there the parameters cell stays in
    view, as papermill needs it."""
    end = opening_end(nb.cells)
    shown, folded = [], []
    for cell in nb.cells[1:end]:
        if cell.cell_type == "code":
            tags = cell.metadata.get("tags", [])
            cell.metadata["tags"] = [t for t in tags if t not in ("hide-input", "hide-cell")]
            if cell.get("outputs"):
                output = nbformat.from_dict(json.loads(json.dumps(cell)))
                output.id = f"{cell.id}-output"
                output.metadata["tags"] = [*output.metadata["tags"], "remove-input"]
                # its Markdown (a table) read as MyST reads the page, not as bare CommonMark
                output.metadata.setdefault("mystnb", {})["markdown_format"] = "myst"
                shown.append(output)
                cell.outputs = []
        folded.append(cell)
    fold = []
    if folded:
        opening = f'<details class="setup-code">\n<summary>{SETUP_FOLD}</summary>\n'
        fold = [
            markdown_cell("site-setup-open", opening),
            *folded,
            markdown_cell("site-setup-close", "</details>"),
        ]
    nb.cells[1:end] = [*shown, markdown_cell("site-downloads", downloads), *fold]


# an exercise's hidden tests, the instructor's alone (nbgrader's markers): not on a reader's page
HIDDEN_TESTS = re.compile(
    r"^[ \t]*### BEGIN HIDDEN TESTS\n.*?^[ \t]*### END HIDDEN TESTS\n?", re.M | re.S
)


def without_hidden_tests(source: str) -> str:
    """A grader cell as a reader may see it: its visible checks, the hidden tests cut out."""
    return HIDDEN_TESTS.sub("", source).rstrip("\n")


def fold_cells(nb: nbformat.NotebookNode) -> None:
    """Fold the machinery (the ledger's checks, the set-up cell, the guards: the cells Jupyter shows
    collapsed), the worked solutions and the graders' checks, each with a toggle that says what it
    shows."""
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "code" and "claims" in tags:
            fold(cell, "hide-input", "Show the check's code", "Hide the check's code")
        elif cell.cell_type == "code" and "setup" in tags:
            fold(cell, "hide-input", "Show the set-up code", "Hide the set-up code")
        elif cell.cell_type == "code" and "checks" in tags:
            fold(cell, "hide-input", "Show the guard's code", "Hide the guard's code")
        elif cell.cell_type == "code" and "answer" in tags:
            fold(cell, "hide-input", "Show the answer's code", "Hide the answer's code")
        elif cell.cell_type == "code" and "solution" in tags:
            fold(cell, "hide-cell", "Show solution", "Hide solution")
        elif cell.cell_type == "code" and "grader" in tags:
            cell.source = without_hidden_tests(cell.source)
            fold(cell, "hide-cell", "Show the grader's checks", "Hide the grader's checks")
        elif cell.cell_type == "markdown" and "solution" in tags:
            cell.source = (
                '<details class="solution">\n<summary>Show the explanation</summary>\n\n'
                f"{cell.source}\n\n</details>"
            )


BIB = "references.bib"
REPOSITORY_LINK = re.compile(r"\[([^\]]+)\]\(\.\./([^)\s#]+)\)")


def link_repository_files(nb: nbformat.NotebookNode) -> None:
    """Point the notebooks' links to repository files (``../references.bib``), which are not
    pages of the site: references.bib to its copy among the downloads, any other to GitHub."""

    def target(match: re.Match[str]) -> str:
        text, path = match.groups()
        if path == BIB:
            return f"{{download}}`{text.strip('`')} <downloads/{BIB}>`"
        return f"[{text}]({REPOSITORY}/blob/main/{path})"

    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = REPOSITORY_LINK.sub(target, cell.source)


SECTION_LINK = re.compile(r"(?<!!)(\[[^\]]+\])\(#([^)\s]+)\)")


def heading_slug(anchor: str) -> str:
    """The anchor MyST gives a heading (GitHub's: lower case, punctuation dropped, spaces as
    hyphens) for the anchor JupyterLab gives it (the heading's words joined by hyphens)."""
    words = re.sub(r"[^\w\- ]", "", anchor.replace("-", " ").lower())
    return "-".join(words.split())


def link_sections(nb: nbformat.NotebookNode) -> None:
    """Point a notebook's links to its own sections (``[…](#Beyond-the-paper)``, JupyterLab's
    anchors) at the anchors the site gives the same headings."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = SECTION_LINK.sub(
                lambda m: f"{m.group(1)}(#{heading_slug(m.group(2))})", cell.source
            )


def give_images_their_alt_text(nb: nbformat.NotebookNode) -> None:
    """Give each figure on the page the alt text its notebook output carries (saved beside it in
    captions.json; ``figures.save_and_show`` puts it in the output's metadata): myst-nb reads an
    image's alt from the cell, not from the output."""
    for cell in nb.cells:
        alts = {
            out.get("metadata", {}).get("image/png", {}).get("alt")
            for out in cell.get("outputs", [])
            if "image/png" in out.get("data", {})
        } - {None}
        if len(alts) > 1:
            raise SystemExit(
                f"site/build.py: one cell shows figures with different alt texts {alts}"
            )
        if alts:
            cell.metadata.setdefault("mystnb", {})["image"] = {"alt": alts.pop()}


def fold(cell: nbformat.NotebookNode, tag: str, show: str, hide: str) -> None:
    """Tag ``cell`` to fold (myst-nb), with its toggle's words."""
    cell.metadata["tags"] = [*cell.metadata.get("tags", []), tag]
    cell.metadata.setdefault("mystnb", {}).update(code_prompt_show=show, code_prompt_hide=hide)


def download_bar(name: str, csvs: list[Path]) -> str:
    """The lines under the title: the notebook and, folded, the CSV files of its run."""
    line = (
        f"**Download** the notebook {{download}}`{name}.ipynb <downloads/{name}/{name}.ipynb>` "
        f"([source on GitHub]({REPOSITORY}/blob/main/notebooks/{name}.ipynb))"
    )
    if not csvs:
        return f"{line}."
    links = " · ".join(f"{{download}}`{p.name} <downloads/{name}/{p.name}>`" for p in csvs)
    return (
        f"{line} and the data of its run:\n\n"
        f'<details class="downloads">\n<summary>{len(csvs)} CSV files</summary>\n\n'
        f"{links}\n\n</details>"
    )


def central_figure_cell(cells: list[nbformat.NotebookNode], figure: str) -> int:
    """The index of the cell that shows ``figure`` (a file name in figures/<notebook>/): the
    code cell with an image output whose source or outputs name it, else the first with an
    image."""
    stem = Path(figure).stem
    with_image = [
        i
        for i, cell in enumerate(cells)
        if cell.cell_type == "code"
        and any("image/png" in out.get("data", {}) for out in cell.get("outputs", []))
    ]
    if not with_image:
        raise SystemExit(f"site/build.py: no cell shows a figure, so none can hold {figure}")
    pattern = re.compile(rf"""["']{re.escape(stem)}(\.png)?["']|\b{re.escape(figure)}\b""")
    for i in with_image:
        text = cells[i].source + json.dumps(
            [out.get("text", "") for out in cells[i].get("outputs", [])]
        )
        if pattern.search(text):
            return i
    return with_image[0]


# --- claims tables ------------------------------------------------------------------------------


def claims_legend() -> str:
    """The one-line legend above a claims table."""
    parts = [f"{symbol} *{words}*: {meaning}" for symbol, words, meaning in VERDICTS.values()]
    return (
        "Each row is one number or statement, as `claims.csv` records it; *published* is the "
        "value of the row's kind of source (the source, a secondary document, or our own "
        "default evaluation), *reproduced* ours. " + "; ".join(parts) + "."
    )


def number(value: object) -> str:
    """A table cell's number, to six significant figures; empty when there is none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (int, float)):
        return f"{value:.6g}"
    return str(value)


def claims_table(table: pd.DataFrame) -> str:
    """Every row of a claims.csv as an HTML table, each row classed and labelled by its status:
    the verdict first, in words and a symbol, then the claim, the values and the note."""
    head = ["verdict", "claim", "what", "published", "reproduced", "tolerance"]
    lines = [
        '<div class="claims-table-wrapper"><table class="claims-table">',
        "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>",
        "<tbody>",
    ]
    for row in table.to_dict("records"):
        status = str(row["status"])
        if status not in VERDICTS:
            raise SystemExit(f"site/build.py: unknown status {status!r} in a claims.csv")
        symbol, words, _ = VERDICTS[status]
        counted = "counted" if row["source"] in COUNTED_SOURCES else "apart"
        text = {key: html.escape(number(value)) for key, value in row.items()}
        note = f'<div class="claim-note">{text["note"]}</div>' if text["note"] else ""
        cells = [
            f'<td class="verdict"><span aria-hidden="true">{symbol}</span> {words}</td>',
            f"<td><code>{text['claim_id']}</code>"
            f'<div class="claim-where">{text["location"]} · {text["source"]}</div></td>',
            f"<td>{text['description']}{note}</td>",
            f'<td class="number">{text["published"]}</td>',
            f'<td class="number">{text["reproduced"]}</td>',
            f'<td class="number">{text["tolerance"]}</td>',
        ]
        slug = status.replace(" ", "-")
        lines.append(
            f'<tr class="claim status-{slug} {counted}" data-status="{html.escape(status)}">'
            + "".join(cells)
            + "</tr>"
        )
    lines += ["</tbody>", "</table></div>"]
    return "\n".join(lines) + "\n"


# --- scrubbers ----------------------------------------------------------------------------------


def scrubber_fragments() -> dict[str, str]:
    """Every scrubber's fragment (``scrubbers.html``) by scrubber name, drawn in parallel, one
    scrubber per core; reused while what they are drawn from is unchanged (drawing them takes
    most of a cold build)."""
    names = sorted(scrubbers.SCRUBBERS)
    key = dependency_digest()
    stamp = SCRUBBER_CACHE / "digest"
    cached = {name: SCRUBBER_CACHE / f"{name}.html" for name in names}
    if stamp.exists() and stamp.read_text() == key and all(p.exists() for p in cached.values()):
        print(f"site: ε scrubbers reused from {SCRUBBER_CACHE.relative_to(ROOT)}")
        return {name: path.read_text() for name, path in cached.items()}
    print(f"site: drawing the ε scrubbers of {', '.join(names)}")
    shutil.rmtree(SCRUBBER_CACHE, ignore_errors=True)
    SCRUBBER_CACHE.mkdir(parents=True)
    with ProcessPoolExecutor(max_workers=min(len(names), os.cpu_count() or 1)) as pool:
        drawn = dict(zip(names, pool.map(scrubbers.html, names), strict=True))
    fragments = {name: strip_external(name, text) for name, text in drawn.items()}
    for name, text in fragments.items():
        cached[name].write_text(text)
    stamp.write_text(key)
    return fragments


def dependency_digest() -> str:
    """A digest of what the scrubbers are drawn from: site/scrubbers.py, the package's modules
    they import (and those this script imports), the data, and the matplotlib version."""
    import matplotlib

    modules = [
        Path(module.__file__)
        for name, module in sorted(sys.modules.items())
        if name.split(".")[0] == "choosing_epsilon" and getattr(module, "__file__", None)
    ]
    modules.append(Path(scrubbers.__file__).resolve())
    digest = hashlib.sha256(matplotlib.__version__.encode())
    for path in sorted({*modules, *(p for p in (ROOT / "data").rglob("*") if p.is_file())}):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


EXTERNAL_STYLESHEET = re.compile(r"<link\b[^>]*href=[\"']https?://[^>]*>\s*", re.IGNORECASE)
EXTERNAL_SOURCE = re.compile(r"\bsrc=[\"']https?://", re.IGNORECASE)


def strip_external(name: str, text: str) -> str:
    """A fragment without matplotlib's stylesheet link to a CDN (Font Awesome 4, for the
    buttons' icons: the theme's own Font Awesome draws them); a fragment that loads anything
    else from another host is refused."""
    if EXTERNAL_SOURCE.search(text):
        raise SystemExit(f"site/build.py: the scrubber of {name} loads a file from another host")
    return EXTERNAL_STYLESHEET.sub("", text)


def scrubber_caption(name: str) -> str:
    """The scrubber's heading line and caption."""
    scrubber = scrubbers.SCRUBBERS[name]
    return f"**Move it yourself.** {scrubber.label.strip()} (the slider moves {scrubber.parameter})"


# --- the home page and the teachers' page -------------------------------------------------------


def write_home(names: list[str]) -> set[Path]:
    """index.md: what the repository is, the status table, a reading order (each notebook's title
    and line from the registry), the toctree."""
    declared = [p for p in papers.in_reading_order() if p.name in names]
    order = [p.name for p in declared]
    titles = {p.name: p.title for p in declared}
    reading = {p.name: p.reading for p in declared}
    claims = summary.claims_summary(names)
    status = "\n".join(summary.summary_lines(claims)).replace("](notebooks/", "](")
    ledger = ledger_paragraph(claims, summary.figure_readings(names))
    headline = answer_headline(ANSWERING) if ANSWERING in names else None
    answer = (
        f"**So which ε should I use?** [The synthesis]({ANSWERING}.ipynb) runs one survey "
        f"through every method and answers in numbers: *{headline}*\n\n"
        if headline
        else ""
    )
    start = "\n".join(
        f"{i}. [{titles[n]}]({n}.ipynb): {reading[n]}" for i, n in enumerate(order, 1)
    )
    toctree = "\n".join(f"{n}" for n in order)
    pages = doc_pages()
    docs = "\n".join(f"- [{title}](docs/{stem}.md)" for stem, title in pages.items())
    docs_toctree = "\n".join(f"docs/{stem}" for stem in pages)
    page = f"""# Choosing ε for differential privacy

A differentially private release guarantees that, for any two databases $D$ and $D'$ that
differ in one person, and every set $S$ of outputs,
$\\Pr[M(D) \\in S] \\le e^{{\\varepsilon}} \\, \\Pr[M(D') \\in S]$; the guarantee is only as good
as $\\varepsilon$, and the papers disagree on how to choose it.

{answer}This site shows a repository of Jupyter notebooks, one per source, that recompute each
source's printed numbers, tables and figures from a thin shared Python package, check every number
against the source in a claims ledger, and go a step further: exact answers where a paper used a
bound, Monte Carlo checks of analytic claims, and the slips found and explained. The pages show the
notebooks' committed outputs; run them yourself from [the repository]({REPOSITORY}).

{ledger}

## Where to start

{start}

Teaching with these notebooks? See [for teachers](teachers.md): exercises with worked
solutions and autograded checks.

## Documentation

{docs}

## Reproduction status

Every result a source prints is checked by its notebook (the inputs it fixes are the notebook's
parameters); *reproduced* means the computation lands within the printed precision, *fitted*
that it does so after fitting a value the source does not print, *below resolution* that it lands
within a tolerance too wide for the value (0 would pass too), counted apart, *discrepancy* a
mismatch the notebook explains. Sources other than the paper and values at the notebook's own
defaults are counted apart (agreeing rows in parentheses): a secondary row that agrees checks
that document, not the source. Each notebook's page ends with the table of all its claims.

{status}

## About this site

Built by `make site` (`site/build.py`) with Sphinx, MyST-NB and the Sphinx Book Theme from the
notebooks' committed outputs; no notebook is re-executed. Equations are typeset by MathJax
{MATHJAX_VERSION} (the npm package `mathjax` from registry.npmjs.org, Apache License 2.0),
served from this site: no page loads anything from another host.

```{{toctree}}
:hidden:
:maxdepth: 1

{toctree}
teachers
{docs_toctree}
```
"""
    return {write_if_changed(SRC / "index.md", page)}


# the notebook whose answer the home page quotes
ANSWERING = "synthesis"


def answer_headline(name: str) -> str | None:
    """The first sentence of notebook ``name``'s answer (the bold one of the Markdown its cell
    tagged ``answer`` shows), as the committed run gives it; None if it shows none."""
    for cell in nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells:
        if cell.cell_type != "code" or "answer" not in cell.metadata.get("tags", []):
            continue
        for output in cell.get("outputs", []):
            # the first bold sentence, below the answer's title
            found = re.search(r"\*\*(.+?)\*\*", output.get("data", {}).get("text/markdown", ""))
            if found:
                return found.group(1)
    return None


def ledger_paragraph(counts: pd.DataFrame, readings: pd.DataFrame) -> str:
    """What the claims ledger holds, counted from it: the sources' numbers (``counts``,
    ``summary.claims_summary``), those printed and those read off original figures
    (``readings``, ``summary.figure_readings``) and off how many figures, by notebook, and the
    verdicts; and where the figures on the pages come from."""
    claims = int(counts.claims.sum())
    read = int(readings.readings.sum())
    originals = int(readings.figures.sum())
    if len(readings) == 1:
        only = readings.notebook.iloc[0]
        kinds = (
            f"{claims - read:,} printed and {read:,} read off {originals} original figures of "
            f"[{only}]({only}.ipynb)"
        )
    elif read:
        by_notebook = ", ".join(
            f"{r.readings} off {r.figures} of [{r.notebook}]({r.notebook}.ipynb)"
            for r in readings.itertuples()
        )
        kinds = (
            f"{claims - read:,} printed and {read:,} read off {originals} of the sources' "
            f"original figures ({by_notebook})"
        )
    else:
        kinds = f"{claims:,} printed, none read off an original figure"
    figures = (
        "The notebooks draw every figure themselves, from the sources' formulas or from the "
        "authors' own data where they publish it; no image of a source is copied"
        + (", and the values read off an original are compared with the notebook's" if read else "")
    )
    verdicts = [
        f"{int(counts[status].sum()):,} {words}"
        for status, words in (
            ("reproduced", "reproduced"),
            ("fitted", "fitted"),
            ("below resolution", "below resolution"),
            ("discrepancy", "explained discrepancies"),
            ("not applicable", "not applicable"),
        )
        if int(counts[status].sum()) or status in ("reproduced", "discrepancy")
    ]
    return (
        f"The claims ledger holds {claims:,} of the sources' numbers: {kinds}; "
        f"{', '.join(verdicts[:-1])} and {verdicts[-1]} (by notebook in the status table below). "
        f"{figures}. Which originals were compared, source by source: "
        "[the claims ledger](docs/claims.md#originals-compared-source-by-source)."
    )


def write_teachers() -> set[Path]:
    """teachers.md: the repository's TEACHING.md, its links made to work on the site."""
    if TEACHING.exists():
        body = site_links(TEACHING.read_text()).rstrip("\n") + "\n\n" + ON_THIS_SITE
    else:
        body = "# For teachers\n\nThis page will hold the guide for teachers (TEACHING.md).\n"
    return {write_if_changed(SRC / "teachers.md", body)}


ON_THIS_SITE = """## On this site

Each notebook's page shows its exercises with the worked solutions folded: *Show solution* opens a
solution's code and output, *Show the explanation* a written answer, and *Show the grader's
checks* the test cell, hidden checks included. Share the pages with students only if they may see
the solutions.
"""

LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def site_links(text: str) -> str:
    """Markdown links of a repository file made to work on the site: a notebook's to its page,
    other relative ones to the file on GitHub."""

    def replace(match: re.Match[str]) -> str:
        label, target = match.groups()
        if re.match(r"[a-z]+:|#", target):
            return match.group(0)
        notebook = re.fullmatch(r"(?:\./)?notebooks/(\w+)\.ipynb", target)
        if notebook:
            return f"[{label}]({notebook.group(1)}.ipynb)"
        path = target.removeprefix("./")
        kind = "tree" if (ROOT / path.split("#")[0]).is_dir() else "blob"
        return f"[{label}]({REPOSITORY}/{kind}/main/{path})"

    return LINK.sub(replace, text)


def doc_pages() -> dict[str, str]:
    """The pages of docs/ by file stem, in the order of their names, with their first heading."""
    pages = {}
    for path in sorted(DOCS.glob("*.md")):
        first = next((line for line in path.read_text().splitlines() if line.startswith("# ")), "")
        pages[path.stem] = first[2:].strip() or path.stem
    return pages


def write_docs() -> set[Path]:
    """docs/*.md as pages of the site, under docs/, their links made to work there and their
    modules' references written out (``autodoc_directives``)."""
    return {
        write_if_changed(SRC / "docs" / path.name, doc_links(autodoc_directives(path.read_text())))
        for path in sorted(DOCS.glob("*.md"))
    }


# a module's reference on a page of docs/ (the API reference): a line GitHub does not show, an HTML
# comment, which the site replaces by autodoc's directive; "docstring": the module's docstring only
AUTODOC = re.compile(r"^<!-- autodoc ([a-z_][\w.]*)( docstring)? -->$", re.M)


def autodoc_directives(text: str) -> str:
    """Each ``<!-- autodoc MODULE -->`` line of a page of docs/ as Sphinx's ``automodule``
    directive with the module's members, each ``<!-- autodoc MODULE docstring -->`` as one with
    its docstring alone: so that docs/api.md reads as Markdown on GitHub, and as the reference
    built from the docstrings on the site."""

    def directive(match: re.Match[str]) -> str:
        options = "" if match.group(2) else "\n   :members:\n   :undoc-members:"
        return f"```{{eval-rst}}\n.. automodule:: {match.group(1)}{options}\n```"

    return AUTODOC.sub(directive, text)


def doc_links(text: str) -> str:
    """Markdown links of a page of docs/ made to work on the site: another page of docs/ stays as
    it is, a notebook's goes to its page, TEACHING.md to the teachers' page, any other repository
    file to GitHub."""

    def replace(match: re.Match[str]) -> str:
        label, target = match.groups()
        if re.match(r"[a-z]+:|#", target):
            return match.group(0)
        path, _, anchor = target.partition("#")
        resolved = (DOCS / path).resolve().relative_to(ROOT).as_posix()
        if resolved.startswith("docs/") and resolved.endswith(".md"):
            return match.group(0)
        notebook = re.fullmatch(r"notebooks/(\w+)\.ipynb", resolved)
        if notebook:
            return f"[{label}](../{notebook.group(1)}.ipynb)"
        if resolved == TEACHING.name:
            return f"[{label}](../teachers.md)"
        kind = "tree" if (ROOT / resolved).is_dir() else "blob"
        return f"[{label}]({REPOSITORY}/{kind}/main/{resolved}{'#' + anchor if anchor else ''})"

    return LINK.sub(replace, text)


# --- Sphinx -------------------------------------------------------------------------------------


def sphinx_build() -> None:
    """Run Sphinx on the sources: warnings are errors, output quiet, incremental when the
    sources did not change."""
    from sphinx.cmd.build import build_main

    args = ["-b", "html", "-W", "--keep-going", "-q", "-c", str(SITE), "-d", str(DOCTREES)]
    status = build_main([*args, str(SRC), str(HTML)])
    if status != 0:
        # the next build must read every page again and warn again, not reuse this one
        shutil.rmtree(DOCTREES, ignore_errors=True)
        raise SystemExit(f"site/build.py: Sphinx failed (status {status}); see the warnings above")


if __name__ == "__main__":
    raise SystemExit(main())
