"""The built site (site/_build/html, ``make site``) in headless Chromium: every page loads with no
error and no request to another host, its figures show, its math is typeset, each notebook's
claims table has one row per row of its claims.csv, each ε scrubber follows its figure and
moves, and the API reference shows every function of ``risk`` with its docstring and example,
reached from the Python guide's link; on a laptop's width and a phone's, a notebook page shows no
code before its first output (the synthesis's answer, no word of it cut) or its first section, and
every page one search box; the sidebar opens at its top, its first entries below the header.

``make test-site`` builds the site first. Chromium is Debian's (``apt-get install chromium``),
driven by Playwright; with no browser on the machine the tests are skipped, and none is ever
downloaded. The pages are served by http.server on 127.0.0.1, in a thread.
"""

from __future__ import annotations

import functools
import http.server
import inspect
import json
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pandas as pd
import pytest

from choosing_epsilon import risk
from choosing_epsilon.harness import papers
from choosing_epsilon.harness.claims import COUNTED_SOURCES
from choosing_epsilon.harness.paths import FIGURES, NOTEBOOKS, ROOT
from tests.site_modules import site_module
from tests.test_risk_examples import PUBLIC as RISK_FUNCTIONS
from tests.test_risk_examples import examples
from tests.test_site_build import contradictions

pytestmark = pytest.mark.site

# the built site; another copy can be checked by naming it (to see the tests catch a broken one)
HTML = Path(os.environ.get("CHOOSING_EPSILON_SITE_HTML", ROOT / "site" / "_build" / "html"))
SCREENSHOTS = ROOT / "site" / "_build" / "screenshots"
NOTEBOOK_NAMES = papers.names()  # the registry of the notebooks
DOC_PAGES = [f"docs/{p.stem}" for p in sorted((ROOT / "docs").glob("*.md"))]
PAGES = ["index", "teachers", "search", "genindex", *NOTEBOOK_NAMES, *DOC_PAGES]
WITH_CLAIMS = [n for n in NOTEBOOK_NAMES if (FIGURES / n / "claims.csv").exists()]
# each ε scrubber by name, and the notebook whose page shows it after one of its figures: those
# of each paper's folder (papers/<notebook>/scrubbers.py), found through the registry
SCRUBBERS = {name: notebook for notebook in NOTEBOOK_NAMES for name in papers.scrubbers(notebook)}
SCRUBBED = sorted(set(SCRUBBERS.values()))
# Chromium on a machine with no network: without these it waits on connections it cannot make
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP = (1280, 900)  # a reader's screen, in pixels: a laptop's and a phone's
PHONE = (390, 844)
MATHJAX_WAIT_MS = 15_000  # MathJax starts in well under a second from the local files
# Text a reader should never see outside code: TeX that MathJax did not typeset. A dollar that
# opens math is followed by neither a space nor a digit, and one that closes it is preceded by no
# space and followed by no digit, so "$30,000 ... about $182" is prose, "$\varepsilon$" is not.
RAW_TEX = re.compile(
    r"\$\$"  # display math delimiters
    r"|\\[()\[\]]"  # \( \) \[ \]
    r"|\$[^\s\d$](?:[^$\n]*[^\s$])?\$(?!\d)"  # $...$
    r"|\\(?:varepsilon|epsilon|frac|sqrt|Pr|le|ge|ln|exp|sum|cdot|times|in|mathbb)\b"
)
# the text nodes of the page a reader sees as prose (code, scripts and typeset math left out)
VISIBLE_PROSE = """() => {
  const skip = 'pre, code, script, style, textarea, mjx-container, .highlight, .MathJax';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.closest(skip)) texts.push(node.nodeValue);
  }
  return texts.join('');
}"""


def chromium() -> str | None:
    """The system's Chromium (Debian's chromium; elsewhere chromium-browser or Google Chrome, as
    on GitHub's runners), if there is one."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """http.server's file handler, without a log line per request."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Path:
    """The built site; fails, naming the target, when it was not built."""
    if not (HTML / "index.html").exists():
        pytest.fail(f"{HTML} has no index.html: run make site")
    return HTML


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """The site served on 127.0.0.1 at a free port, in a thread: its base URL."""
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium through Playwright (skipped when the machine has none)."""
    executable = chromium()
    if executable is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium); the site is untested")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@dataclass
class Visit:
    """A loaded page and what happened while it loaded."""

    page: object
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    elsewhere: list[str] = field(default_factory=list)


def visitor(browser, server: str, width: int, height: int) -> tuple[Callable[[str], Visit], object]:
    """A function that loads each page once in one browser context ``width`` by ``height`` pixels,
    with its console errors, failed requests and requests to another host recorded, MathJax
    finished where the page loads it; and the context, to close."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport={"width": width, "height": height})
    origin = urlsplit(server).netloc
    loaded: dict[str, Visit] = {}

    def visit(name: str) -> Visit:
        if name in loaded:
            return loaded[name]
        page = context.new_page()
        seen = Visit(page)
        page.on(
            "console",
            lambda m: seen.errors.append(m.text) if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: seen.errors.append(str(e)))
        page.on("requestfailed", lambda r: seen.failed.append(f"{r.url} ({r.failure})"))
        page.on(
            "response",
            lambda r: seen.failed.append(f"{r.url} (HTTP {r.status})") if r.status >= 400 else None,
        )

        def request(r) -> None:
            url = urlsplit(r.url)
            if url.scheme not in ("data", "blob", "about") and url.netloc != origin:
                seen.elsewhere.append(r.url)

        page.on("request", request)
        page.goto(f"{server}{name}.html", wait_until="load")
        page.wait_for_load_state("networkidle")
        if page.evaluate("() => document.querySelector('.math') !== null"):
            try:
                page.wait_for_function(
                    "() => window.MathJax && window.MathJax.startup", timeout=MATHJAX_WAIT_MS
                )
                page.evaluate("() => window.MathJax.startup.promise.then(() => true)")
            except PlaywrightTimeout:
                seen.errors.append(f"MathJax did not start within {MATHJAX_WAIT_MS} ms")
        loaded[name] = seen
        return seen

    return visit, context


@pytest.fixture(scope="module")
def visits(browser, server) -> Iterator[Callable[[str], Visit]]:
    """Each page loaded once at a laptop's width (1280 by 900 pixels)."""
    visit, context = visitor(browser, server, *LAPTOP)
    yield visit
    context.close()


@pytest.fixture(scope="module")
def phone_visits(browser, server) -> Iterator[Callable[[str], Visit]]:
    """Each page loaded once at a phone's width (390 by 844 pixels)."""
    visit, context = visitor(browser, server, *PHONE)
    yield visit
    context.close()


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_with_no_error_and_nothing_from_elsewhere(visits, name):
    seen = visits(name)
    assert seen.errors == [], f"{name}: console errors {seen.errors}"
    assert seen.failed == [], f"{name}: failed requests {seen.failed}"
    assert seen.elsewhere == [], f"{name}: requests to another host {seen.elsewhere}"


@pytest.mark.parametrize("name", PAGES)
def test_every_image_is_shown(visits, name):
    page = visits(name).page
    images = page.evaluate(
        "() => [...document.images].map(i => [i.currentSrc.slice(0, 80), i.complete, "
        "i.naturalWidth])"
    )
    broken = [src for src, complete, width in images if not (complete and width > 0)]
    assert broken == [], f"{name}: images not shown {broken}"
    if name in NOTEBOOK_NAMES:
        pngs = [c for c in notebook(name).cells if any(shows_png(o) for o in outputs(c))]
        assert len(images) >= len(pngs), f"{name}: {len(images)} images for {len(pngs)} figures"


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_every_figure_has_its_alt_text_and_its_caption_under_it(visits, name):
    """Each figure of captions.json is on the page: an image with its alt text, and its caption
    in the text right after it; every other image (a scrubber's frame) has an alt text too."""
    page = visits(name).page
    entries = json.loads((FIGURES / name / "captions.json").read_text(encoding="utf-8"))
    shown = page.evaluate(
        "() => [...document.querySelectorAll('.cell_output img')].map(i => [i.alt, "
        "(i.closest('.cell_output').innerText || '').replace(/\\s+/g, ' ')])"
    )
    everywhere = page.evaluate("() => [...document.images].map(i => i.alt)")
    assert all(alt.strip() for alt in everywhere), f"{name}: an image without alt text"
    # the site's typography curls the apostrophes
    alts = {alt: text.replace("\u2019", "'") for alt, text in shown}
    for figure, entry in entries.items():
        assert entry["alt"] in alts, f"{name}: {figure} is not shown with its alt text"
        caption = re.sub(r"\s+", " ", entry["caption"])
        assert caption in alts[entry["alt"]], f"{name}: {figure}'s caption is not under it"


@pytest.mark.parametrize("name", PAGES)
def test_math_is_typeset_and_no_tex_is_left_in_the_text(visits, name):
    page = visits(name).page
    math, typeset = page.evaluate(
        "() => [document.querySelectorAll('.math').length, "
        "document.querySelectorAll('.math mjx-container').length]"
    )
    assert typeset == math, f"{name}: {typeset} of {math} equations typeset"
    left = sorted({m.group() for m in RAW_TEX.finditer(page.evaluate(VISIBLE_PROSE))})
    assert left == [], f"{name}: TeX left in the text {left}"


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_dollar_amounts_stay_text(visits, name):
    """Every dollar amount of a notebook's prose ("$30,000", "$1.93") is shown as written, not
    typeset as the start of an equation."""
    amounts = {
        found.group()
        for cell in notebook(name).cells
        if cell.cell_type == "markdown"
        for found in re.finditer(r"\$\d(?:[\d,.]*\d)?", cell.source)
        # not a formula that opens with a digit, "$1 - \alpha$": TeX before the next dollar
        if not re.match(r"[^$]*[\\^_{]", cell.source[found.end() :])
    }
    prose = visits(name).page.evaluate(VISIBLE_PROSE)
    assert sorted(a for a in amounts if a not in prose) == []


@pytest.mark.parametrize(
    ("text", "tex"),
    [
        ("costs $30,000 for base costs up to about $182.", []),
        ("it rounds to $1.94, not the printed $1.93.", []),
        ("B = $60,000, or $2,500 = $0.25 each", []),
        ("the bound $e^\\varepsilon$ holds", ["$e^\\varepsilon$"]),
        ("an $x$ here", ["$x$"]),
        ("inline \\(a + b\\) left", ["\\(", "\\)"]),
        ("$$N = 1$$", ["$$", "$$"]),
        ("a bare \\frac{1}{2}", ["\\frac"]),
    ],
)
def test_the_raw_tex_rule_flags_tex_and_spares_dollar_amounts(text, tex):
    assert [m.group() for m in RAW_TEX.finditer(text)] == tex


def test_the_home_page_has_math():
    """The home page states the definition, so the typesetting check above checks something."""
    assert 'class="math' in (HTML / "index.html").read_text()


@pytest.mark.parametrize("name", WITH_CLAIMS)
def test_claims_table_has_every_row_with_its_verdict_in_words_and_colour(visits, name):
    page = visits(name).page
    expected = pd.read_csv(FIGURES / name / "claims.csv")
    rows = page.evaluate(
        "() => [...document.querySelectorAll('table.claims-table tbody tr')].map(r => "
        "[r.dataset.status, r.querySelector('code').textContent, "
        "r.querySelector('td.verdict').innerText, "
        "getComputedStyle(r.querySelector('td.verdict')).backgroundColor])"
    )
    assert [tuple(r[:2]) for r in rows] == list(
        zip(expected.status, expected.claim_id, strict=True)
    )
    words = {"reproduced", "fitted", "below resolution", "discrepancy", "slip", "not applicable"}
    unlabelled = [r[1] for r in rows if not any(w in r[2] for w in words)]
    assert unlabelled == [], f"{name}: rows whose verdict is not in words {unlabelled}"
    colour = {}
    for status, _, _, background in rows:
        colour.setdefault(status, set()).add(background)
    assert all(len(c) == 1 for c in colour.values()), colour
    assert len({c.pop() for c in colour.values()}) == len(colour), "two statuses, one colour"


def test_home_status_table_counts_each_notebooks_claims(visits):
    page = visits("index").page
    rows = page.evaluate(
        "() => [...document.querySelectorAll('table tbody tr')].map(r => "
        "[...r.querySelectorAll('td')].map(td => td.innerText.trim()))"
    )
    shown = {row[0]: int(row[1]) for row in rows if row and row[0] in NOTEBOOK_NAMES}
    counted = {}
    for name in WITH_CLAIMS:
        table = pd.read_csv(FIGURES / name / "claims.csv")
        counted[name] = int((table.source.isin(COUNTED_SOURCES) & (table.status != "note")).sum())
    assert shown == counted


def ledger_counts() -> dict[str, int]:
    """The ledger's counts, from every claims.csv (apart from the site's code): the sources'
    numbers (printed or read off a figure, slips in the wording apart), those printed, those read
    off a figure and off how many figures, and each status."""
    tables = [pd.read_csv(FIGURES / n / "claims.csv").assign(notebook=n) for n in WITH_CLAIMS]
    table = pd.concat(tables, ignore_index=True)
    counted = table[table.source.isin(COUNTED_SOURCES) & (table.status != "note")]
    read = counted[counted.source == "read off a figure"]
    return {
        "claims": len(counted),
        "printed": int((counted.source == "printed").sum()),
        "readings": len(read),
        "figures": len(read.groupby(["notebook", "location"])),
        **{status: int((counted.status == status).sum()) for status in VERDICT_WORDS},
    }


VERDICT_WORDS = {
    "reproduced": "reproduced",
    "fitted": "fitted",
    "below resolution": "below resolution",
    "discrepancy": "explained discrepancies",
}


def number(text: str) -> int:
    return int(text.replace(",", ""))


def test_the_home_page_states_what_the_ledger_holds(visits):
    """The home page's counts are the ledger's: the sources' numbers, those printed, those read
    off original figures and off how many, and each verdict."""
    text = re.sub(r"\s+", " ", visits("index").page.evaluate(VISIBLE_PROSE))
    counts = ledger_counts()
    said = re.search(
        r"The claims ledger holds ([\d,]+) of the sources' numbers: ([\d,]+) printed", plain(text)
    )
    assert said, "the home page does not say what the claims ledger holds"
    assert (number(said[1]), number(said[2])) == (counts["claims"], counts["printed"])
    read = re.search(
        r"printed and ([\d,]+) read off (\d+) (?:of the sources' )?original figures", plain(text)
    )
    if counts["readings"]:
        assert read and (number(read[1]), number(read[2])) == (
            counts["readings"],
            counts["figures"],
        )
    else:
        assert read is None and "none read off an original figure" in text
    for status, words in VERDICT_WORDS.items():
        if counts[status]:
            assert f"{counts[status]:,} {words}" in text, f"the home page miscounts {words}"


def test_no_statement_of_the_home_page_contradicts_the_ledger(visits):
    """A statement the ledger makes false fails the build's check: "no copy of a printed figure"
    while values are read off figures, or values read off figures while none are."""
    text = plain(visits("index").page.evaluate(VISIBLE_PROSE))
    assert contradictions(text, ledger_counts()) == []


def test_the_home_page_quotes_the_synthesis_answer(visits):
    """The home page opens with the synthesis's answer as its committed run gives it."""
    text = plain(visits("index").page.evaluate(VISIBLE_PROSE))
    expected = answer_output("synthesis")
    assert expected is not None
    assert plain(expected.split("**")[1]) in text


def test_home_status_table_fits_its_column(visits):
    """At a laptop's width (1280 px) every column of the status table is in view: no hidden
    scroll."""
    table = visits("index").page.locator("section#reproduction-status table")
    width, room = table.evaluate("e => [e.scrollWidth, e.parentElement.clientWidth]")
    assert width <= room


@pytest.mark.parametrize("name", PAGES)
def test_every_table_fits_the_page(visits, name):
    """At a laptop's width (1280 px) every table of the page is wholly in view: none hides a
    column behind a horizontal scroll (the synthesis's methods table once hid its last one)."""
    overflowing = visits(name).page.evaluate(
        "() => [...document.querySelectorAll('article table')].map(t => {"
        " let box = t.parentElement;"
        " while (box && getComputedStyle(box).overflowX === 'visible' && box.tagName !== 'ARTICLE')"
        "   box = box.parentElement;"
        " const heads = [...t.querySelectorAll('th')].map(h => h.innerText.trim());"
        " return [t.scrollWidth, box.clientWidth, heads.slice(0, 3).join(' | ')] })"
        ".filter(([width, room]) => width > room + 1)"
    )
    assert overflowing == [], f"{name}: tables wider than their column (width, room, headers)"


# --- the answer first: what a reader sees under the title, on a laptop and on a phone -----------

WIDTHS = {"laptop": "visits", "phone": "phone_visits"}  # each width's fixture
# Below the page's title, in document order, the next sections' headings, the cells' outputs and
# their code, each that a reader sees (not in a closed fold): its kind and its first words.
BELOW_THE_TITLE = """() => {
  const article = document.querySelector('article');
  const title = article.querySelector('h1');
  const seen = e => e.checkVisibility() && e.getClientRects().length > 0;
  const kind = e => e.matches('h2') ? 'heading' : e.matches('div.cell_output') ? 'output' : 'code';
  return [...article.querySelectorAll('h2, div.cell_output, div.cell_input')]
    .filter(e => title.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)
    .filter(seen)
    .map(e => [kind(e), e.innerText.trim().replace(/\\s+/g, ' ').slice(0, 120)]);
}"""
# the first paragraph under the title, and the answer's output
FIRST_PARAGRAPH = "() => document.querySelector('article h1').nextElementSibling.innerText"
ANSWER = "() => document.querySelector('div.cell.tag_answer div.cell_output').innerText"


QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def plain(text: str) -> str:
    """Markdown, or a page's text, to compare one with the other: links by their words, no
    emphasis or code marks, white space as single spaces, quotes straight (the site curls them)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"\s+", " ", re.sub(r"[*`]", "", text)).translate(QUOTES).strip()


def answer_output(name: str) -> str | None:
    """The Markdown the notebook's answer cell shows (the synthesis's), if it has one."""
    for cell in notebook(name).cells:
        if "answer" in tags(cell):
            for output in outputs(cell):
                if "text/markdown" in output.get("data", {}):
                    return output["data"]["text/markdown"]
    return None


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_no_code_before_the_first_output_below_the_header(request, width, name):
    """Under the title comes the notebook's header, then what is not code: the first output (the
    synthesis's answer) or the first section's heading; the parameters, imports and set-up sit in
    one closed fold, and no code a reader sees comes before that first output or heading."""
    page = request.getfixturevalue(WIDTHS[width])(name).page
    header = next(c for c in notebook(name).cells if c.cell_type == "markdown").source
    opening = plain(header.split("\n\n")[1])
    assert plain(page.evaluate(FIRST_PARAGRAPH)).startswith(opening[:60]), (
        f"{name} ({width}): the header is not the first thing under the title"
    )
    blocks = page.evaluate(BELOW_THE_TITLE)
    first = next(i for i, (kind, _) in enumerate(blocks) if kind != "code")
    assert blocks[:first] == [], f"{name} ({width}): code before the first output {blocks[:first]}"
    # the opening's code cells, parameters first, all in the one fold, closed
    built = nbformat.read(ROOT / "site" / "_build" / "src" / f"{name}.ipynb", as_version=4)
    end = site_module("build").opening_end(notebook(name).cells)
    in_opening = sum(c.cell_type == "code" for c in notebook(name).cells[1:end])
    folded = page.evaluate(
        "() => [...document.querySelectorAll('details.setup-code:not([open]) div.cell')]"
        ".map(c => c.classList.contains('tag_parameters'))"
    )
    assert len(folded) == in_opening and folded[0], f"{name}: the opening's cells are not folded"
    assert sum(c.id == "site-setup-open" for c in built.cells) == 1


@pytest.mark.parametrize("width", WIDTHS)
def test_the_synthesis_opens_with_its_answer_and_cuts_no_word(request, width):
    """The synthesis's first output is its answer, whose prose names every deployment with whole
    words: no word of it ends in an ellipsis, and its table holds what the prose shortens."""
    page = request.getfixturevalue(WIDTHS[width])("synthesis").page
    blocks = page.evaluate(BELOW_THE_TITLE)
    expected = answer_output("synthesis")
    assert expected is not None
    first_sentence = plain(expected.split("**")[1])
    # the answer's title names the reader's release, then its first sentence
    title = plain(expected.split("\n", 1)[0].lstrip("#").strip())
    assert title.startswith("Which ε for the mean age of 20,000 survey participants")
    opening = plain(blocks[0][1])
    assert blocks[0][0] == "output" and opening.startswith(title)
    rest = opening[len(title) :].strip()  # the block's text is its first characters only
    assert len(rest) > 20 and first_sentence.startswith(rest)
    shown = plain(page.evaluate(ANSWER))
    assert shown.startswith(title) and first_sentence in shown
    cut = re.findall(r"\w+…", shown)
    assert cut == [], f"a word of the answer ends in an ellipsis: {cut}"
    assert page.locator("div.cell.tag_answer div.cell_output table").count() == 1


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["synthesis", "index"])
def test_screenshot_of_the_first_screen(request, width, name):
    """What a reader sees before the first scroll, kept for a look (site/_build/screenshots/)."""
    page = request.getfixturevalue(WIDTHS[width])(name).page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}-{width}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


def test_the_scrubbers_named_here_are_the_sites():
    scrubbers = site_module("scrubbers")
    assert scrubbers.NOTEBOOK_OF == SCRUBBERS and len(SCRUBBED) >= 2


@pytest.mark.parametrize("notebook", SCRUBBED)
def test_each_page_shows_its_scrubbers_in_order(visits, notebook):
    """A page shows each of its notebook's scrubbers once, in the registry's order (the synthesis's
    two follow the same figure)."""
    scrubbers = site_module("scrubbers")
    shown = visits(notebook).page.evaluate(
        "() => [...document.querySelectorAll('div.animation img[id^=\"_anim_img\"]')]"
        ".map(i => i.id)"
    )
    expected = [f"_anim_img{scrubbers.element_id(n)}" for n in scrubbers.of_notebook(notebook)]
    assert shown == expected, f"{notebook}: scrubbers shown {shown}"


# the code cell just before a scrubber's animation: whether it shows an image, and its code
CELL_BEFORE = """ident => {
  const a = document.getElementById('_anim_img' + ident).closest('div.animation');
  const before = [...document.querySelectorAll('div.cell')].filter(c =>
    c.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING).at(-1);
  return before ? [before.querySelector('.cell_output img') !== null,
    before.querySelector('.cell_input').textContent] : [false, ''];
}"""


@pytest.mark.parametrize("name", sorted(SCRUBBERS))
def test_scrubber_follows_its_figure_and_moves(visits, name):
    scrubbers = site_module("scrubbers")
    page = visits(SCRUBBERS[name]).page
    ident = scrubbers.element_id(name)
    animation = page.locator(f"div.animation:has(#_anim_img{ident})")
    assert animation.count() == 1, f"{name}: its scrubber is not on the page once"
    image = animation.locator(f"#_anim_img{ident}")
    shows, code = page.evaluate(CELL_BEFORE, ident)
    stem = Path(scrubbers.SCRUBBERS[name].figure).stem
    assert shows and f'"{stem}"' in code, f"{name}: the scrubber does not follow {stem}'s cell"
    slider = animation.locator("input[type=range]")
    frame, last = slider.evaluate("s => [Number(s.value), Number(s.max)]")
    assert last >= 1, f"{name}: the scrubber has one frame"
    first = image.get_attribute("src")
    step = "Next frame" if frame < last else "Previous frame"
    animation.locator(f"button[title='{step}']").click()
    second = image.get_attribute("src")
    assert second != first, f"{name}: the {step.lower()} button did not change the frame"
    other = 0 if frame != 0 else last
    slider.evaluate(
        "(s, v) => { s.value = v; s.dispatchEvent(new Event('input', {bubbles: true})); }", other
    )
    third = image.get_attribute("src")
    assert third not in (first, None), f"{name}: moving the slider did not change the frame"


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_solutions_and_checks_are_folded(visits, name):
    page = visits(name).page
    cells = notebook(name).cells
    for tag in ("solution", "claims", "grader", "setup", "checks"):
        expected = sum(c.cell_type == "code" and tag in tags(c) for c in cells)
        # folded on its own, or with the notebook's opening in the set-up's fold
        folded = page.evaluate(
            f"() => [...document.querySelectorAll('div.cell.tag_{tag}')]"
            ".filter(c => c.querySelector('details:not([open])') || "
            "c.closest('details.setup-code:not([open])')).length"
        )
        assert folded == expected, f"{name}: {folded} of {expected} {tag} cells folded"
    explanations = sum(c.cell_type == "markdown" and "solution" in tags(c) for c in cells)
    assert page.locator("details.solution:not([open])").count() == explanations


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_collapsed_sections_are_folded_under_their_headings(visits, name):
    """A section whose heading cell JupyterLab shows collapsed is folded on the page: its heading
    in view, what follows it in a closed details element."""
    page = visits(name).page
    headings = [
        cell.source.split("\n", 1)[0].lstrip("#").strip()
        for cell in notebook(name).cells
        if cell.cell_type == "markdown" and cell.metadata.get("jp-MarkdownHeadingCollapsed")
    ]
    folded = page.evaluate(
        "() => [...document.querySelectorAll('details.folded-section')].map(d => ({"
        "open: d.open, heading: d.parentElement.querySelector(':scope > h1, :scope > h2, "
        ":scope > h3, :scope > h4').textContent}))"
    )
    assert len(folded) == len(headings), f"{name}: {len(folded)} of {len(headings)} folded"
    for section, heading in zip(folded, headings, strict=True):
        assert not section["open"] and heading in section["heading"]


def test_docs_pages_are_linked_from_the_home_page(visits):
    links = visits("index").page.evaluate(
        "() => [...document.querySelectorAll('article a')].map(a => a.getAttribute('href'))"
    )
    for name in DOC_PAGES:
        assert f"{name}.html" in links, f"the home page does not link {name}"


# --- the API reference (docs/api.md: the package's docstrings, by Sphinx's autodoc) ------------

API_PAGE = "docs/api"
# each function the page documents: its name, the text of its docstring's first paragraph, and the
# text of its example(s)
API_ENTRIES = """() => [...document.querySelectorAll('dl.py.function')].map(d => {
  const dt = d.querySelector(':scope > dt'), dd = d.querySelector(':scope > dd');
  const first = dd.querySelector(':scope > p');
  return [dt.id, first ? first.innerText : '',
    [...dd.querySelectorAll(':scope > div.doctest')].map(e => e.innerText)];
})"""


def docstring_plain(text: str) -> str:
    """Text as a reader sees it, for comparing a docstring with its page: inline-literal marks
    dropped, quotes straight (the site curls them), whitespace as single spaces."""
    text = text.replace("``", "").translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))
    return re.sub(r"\s+", " ", text).strip()


def test_the_api_page_shows_every_function_of_risk_with_its_docstring_and_example(visits):
    """Each public function of ``risk`` is on the API page under its module, in the order of the
    source, with the first paragraph of its docstring and its example as the doctests run it."""
    entries = visits(API_PAGE).page.evaluate(API_ENTRIES)
    shown = {ident: (text, shown) for ident, text, shown in entries}
    prefix = f"{risk.__name__}."
    assert [i.removeprefix(prefix) for i, _, _ in entries if i.startswith(prefix)] == RISK_FUNCTIONS
    for name in RISK_FUNCTIONS:
        text, blocks = shown[prefix + name]
        docstring = inspect.getdoc(getattr(risk, name)) or ""
        assert docstring_plain(text) == docstring_plain(docstring.split("\n\n")[0]), (
            f"{name}: its docstring"
        )
        wanted = [example for test in examples(name) for example in test.examples]
        assert len(blocks) == 1, f"{name}: {len(blocks)} example blocks"
        for example in wanted:
            assert f">>> {example.source.strip()}" in blocks[0], f"{name}: its example"
            assert example.want.strip() in blocks[0], f"{name}: its example's output"


def test_the_api_page_documents_the_other_modules_too(visits):
    """Every module of the package but the papers' has its section, with functions listed."""
    entries = visits(API_PAGE).page.evaluate(API_ENTRIES)
    modules = {ident.rsplit(".", 1)[0] for ident, _, _ in entries}
    expected = {"calibration", "economics", "possible_worlds", "plots.style", "harness.reproduce"}
    assert {f"choosing_epsilon.{m}" for m in expected} <= modules
    # the papers' own code (choosing_epsilon.papers.*) is not; the registry that finds it is
    assert not any(m.startswith("choosing_epsilon.papers") for m in modules)
    assert "choosing_epsilon.harness.papers" in modules


def test_no_docstring_on_the_api_page_is_misread_as_a_type(visits):
    """napoleon reads a property's "Summary: more" as a type and its description: the package's
    docstrings are written so that no such field appears; the numpydoc sections (Parameters,
    Returns, Raises) are the fields napoleon is there to render."""
    fields = visits(API_PAGE).page.evaluate(
        "() => [...document.querySelectorAll('article dl.field-list > dt')].map(d => d.innerText)"
    )
    # a numpydoc section napoleon renders as a field list is no misreading; any other field is
    sections = {"Parameters", "Returns", "Return type", "Raises", "Yields", "Attributes"}
    assert [f for f in fields if f.strip().rstrip(":").strip() not in sections] == []


def test_the_python_guide_links_to_the_api_page(browser, server):
    """A reader on docs/python.html follows its link to the API reference and lands on it."""
    page = browser.new_page()
    try:
        page.goto(f"{server}docs/python.html", wait_until="load")
        link = page.locator("article a", has_text="API reference")
        assert link.count() >= 1, "docs/python.html has no link to the API reference"
        with page.expect_navigation(wait_until="load") as navigation:
            link.first.click()
        response = navigation.value
        assert response is not None and response.ok, f"{page.url}: the link leads nowhere"
        assert urlsplit(page.url).path.endswith("/docs/api.html"), page.url
        title = page.locator("article h1").first.inner_text()
        assert title.strip().rstrip("#").strip() == "API reference"
        assert page.locator(f"dt[id='{risk.__name__}.epsilon_for']").count() == 1
    finally:
        page.close()


def test_a_collapsed_section_opens_on_a_click(browser, tmp_path_factory):
    """A small notebook with a collapsed section, built as the site builds it (myst-nb and
    site/folding.py): the heading and its cell in view, the section's cells hidden until the
    fold's summary is clicked, the next section in view."""
    from sphinx.cmd.build import build_main

    from tests.test_site_build import sample_notebook

    folding = site_module("folding")
    root = tmp_path_factory.mktemp("folded")
    nb = sample_notebook()
    folding.mark_collapsed_sections(nb.cells)
    (root / "src").mkdir()
    nbformat.write(nb, root / "src" / "sample.ipynb")
    (root / "src" / "index.md").write_text("# Index\n\n```{toctree}\nsample\n```\n")
    settings = ["extensions=myst_nb,folding", "nb_execution_mode=off", "html_theme=basic"]
    args = ["-b", "html", "-q", "-W", "-C", *(a for s in settings for a in ("-D", s))]
    assert build_main([*args, str(root / "src"), str(root / "html")]) == 0
    page = browser.new_page()
    page.goto((root / "html" / "sample.html").as_uri(), wait_until="load")
    body = page.locator("div.body")
    assert body.get_by_text("Forensics: how it was matched").is_visible()
    assert body.get_by_text("The one line shown.").is_visible()
    assert not body.get_by_text("Folded with its section.").is_visible()
    assert body.get_by_text("In view again.").is_visible()
    page.locator("details.folded-section > summary").click()
    assert body.get_by_text("Folded with its section.").is_visible()
    assert body.locator("div.cell_output").get_by_text("matched").is_visible()
    page.close()


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_downloads_are_the_committed_files(visits, server, name):
    page = visits(name).page
    links = page.evaluate("() => [...document.querySelectorAll('a.download')].map(a => a.href)")
    by_name = {link.rsplit("/", 1)[-1]: link for link in links}
    # the notebook, its run's CSV files, and references.bib, which its header cites
    wanted = [
        NOTEBOOKS / f"{name}.ipynb",
        *sorted((FIGURES / name).glob("*.csv")),
        ROOT / "references.bib",
    ]
    assert sorted(by_name) == sorted(p.name for p in wanted)
    for path in wanted:
        response = page.request.get(by_name[path.name])
        assert response.ok and response.body() == path.read_bytes(), path.name


def test_search_finds_a_notebook(browser, server):
    page = browser.new_page()
    page.goto(f"{server}search.html?q=averaging+attack", wait_until="load")
    page.wait_for_selector("ul.search li a", timeout=15_000)
    found = page.evaluate("() => [...document.querySelectorAll('ul.search li a')].map(a => a.href)")
    page.close()
    assert any("laplace_intro.html" in href for href in found), found


def test_screenshot_of_a_notebook_page(visits):
    page = visits("lee_clifton_2011").page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / "lee_clifton_2011.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


@functools.cache
def notebook(name: str) -> nbformat.NotebookNode:
    """The committed notebook ``name``."""
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def tags(cell) -> list[str]:
    """A cell's tags."""
    return cell.metadata.get("tags", [])


def outputs(cell) -> list:
    """A code cell's outputs (none for markdown)."""
    return cell.get("outputs", [])


def shows_png(output) -> bool:
    """Whether an output displays a PNG image."""
    return "image/png" in output.get("data", {})


# the theme's search boxes: the field and the icon that open its search dialog, and the dialog's
# form (shown only once opened); the search page's own field (in .bd-search-container) is its
# content, not a second box
SEARCH_BOXES = ".search-button-field, .search-button, form.bd-search"
SHOWN_SEARCH_BOXES = """(selector) => [...document.querySelectorAll(selector)].filter(e => {
  if (e.closest('.bd-search-container')) return false;
  const box = e.getBoundingClientRect(), style = getComputedStyle(e);
  return box.width > 0 && box.height > 0 && style.visibility !== 'hidden';
}).map(e => e.outerHTML.slice(0, 120))"""


@pytest.mark.parametrize("name", PAGES)
def test_one_search_box_is_shown(visits, name):
    """One search box on a laptop's screen, the sidebar's: pydata-sphinx-theme 0.20 put another
    in a header above the page unless ``navbar_persistent`` is set."""
    shown = visits(name).page.evaluate(SHOWN_SEARCH_BOXES, SEARCH_BOXES)
    assert len(shown) == 1, shown


@pytest.mark.parametrize("name", ["index", "docs/api"])
def test_one_search_box_is_shown_on_a_phone(phone_visits, name):
    """On a phone's screen the sidebar is folded away: the one search box is the header's icon."""
    shown = phone_visits(name).page.evaluate(SHOWN_SEARCH_BOXES, SEARCH_BOXES)
    assert len(shown) == 1 and "search-button" in shown[0], shown


def test_the_sidebar_opens_at_its_top_below_the_header(browser, server):
    """api.html, listed low in the sidebar, at 1280 by 900 pixels, freshly opened: the sidebar's
    first entries (the site's title, the search box, the first page) lie below the header's
    bottom, none cut off (the theme scrolled the sidebar to its current entry, hiding them above
    the window under a header that was there)."""
    visit, context = visitor(browser, server, *LAPTOP)
    try:
        page = visit("docs/api").page
        boxes = page.evaluate(
            """() => {
              const top = e => e ? e.getBoundingClientRect().top : null;
              const header = document.querySelector('#pst-header');
              const sidebar = document.querySelector('.bd-sidebar-primary');
              return {
                header: header ? header.getBoundingClientRect().bottom : 0,
                sidebar: top(sidebar),
                title: top(sidebar.querySelector('.sidebar-primary-item')),
                search: top(sidebar.querySelector('.search-button-field')),
                first_page: top(sidebar.querySelector('.bd-docs-nav a')),
              };
            }"""
        )
    finally:
        context.close()
    below = max(boxes["header"], boxes["sidebar"])
    entries = {k: boxes[k] for k in ("title", "search", "first_page")}
    assert all(v is not None and v >= below for v in entries.values()), boxes
