"""Sphinx configuration of the static site. site/build.py writes the sources into
site/_build/src/ (copies of the committed notebooks, transformed there, and the generated
pages) and runs Sphinx on them with this file: no notebook is executed, and no page fetches
anything from another host."""

import json
import sys
import tomllib
from pathlib import Path

SITE = Path(__file__).resolve().parent
if str(SITE) not in sys.path:
    sys.path.insert(0, str(SITE))  # folding.py, the extension beside this file
BUILD = SITE / "_build"
PYPROJECT = tomllib.loads((SITE.parent / "pyproject.toml").read_text())
LOCK = json.loads((SITE / "package-lock.json").read_text())
MATHJAX_VERSION = LOCK["packages"]["node_modules/mathjax"]["version"]

project = "Choosing ε for differential privacy"
author = "the choosing-epsilon contributors"
copyright = "the choosing-epsilon contributors"  # no year: two builds give the same pages
html_title = project

# folding: site/folding.py; autodoc renders the API reference, docs/api.md, from the package's
# docstrings, and napoleon reads numpydoc sections (Parameters, Examples) where a docstring has
# them: both come with Sphinx
extensions = ["myst_nb", "folding", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
exclude_patterns = ["downloads/**", "_fragments/**", "**.ipynb_checkpoints"]

# The committed outputs are the pages: a notebook is never re-executed to build the site.
nb_execution_mode = "off"
# Markdown math between dollars, by pandoc's rule: the opening dollar has no space after it, the
# closing one no space before it and no digit after it. So the prose's dollar amounts stay text
# ("$1.93995: it rounds to $1.94", "$30,000 ... about $182"), even beside real math
# ("B = $60,000, what is $\varepsilon$?"); myst's defaults would typeset the first two.
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_dmath_allow_digits = False
myst_dmath_allow_space = False
myst_heading_anchors = 3

# The API reference: each module's members in the order of its source (which groups them by
# topic), defaults as written (math.nan, not nan), and the page's outline by module, not by each
# of its functions.
autodoc_member_order = "bysource"
autodoc_preserve_defaults = True
add_module_names = False
toc_object_entries = False
napoleon_google_docstring = False  # numpydoc sections only: "Args:" in prose stays prose

# MathJax from the npm package mathjax 3.2.2 (registry.npmjs.org, Apache-2.0), pinned with its
# integrity hash in site/package-lock.json and copied by build.py into _static/mathjax/: the
# pages typeset their equations with no network (Sphinx's default would load it from a CDN).
mathjax_path = "mathjax/tex-chtml.js"
html_static_path = ["_static", str(BUILD / "vendor")]
html_css_files = ["site.css"]
html_js_files = [("sidebar.js", {"defer": "defer"})]  # the sidebar opens at its top
html_favicon = "_static/favicon.svg"  # else browsers ask for /favicon.ico, which is not there
# the theme's colour mode, set, so that its script does not warn of an empty one
html_context = {"default_mode": "auto"}

html_theme = "sphinx_book_theme"
html_last_updated_fmt = None  # no date on the pages: two builds give the same pages
html_copy_source = True
html_show_sourcelink = False
html_theme_options = {
    "repository_url": PYPROJECT["project"]["urls"]["Repository"],
    "use_repository_button": True,
    "use_download_button": True,
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    # no search box in a header above the page: the sidebar has one (pydata-sphinx-theme 0.20
    # puts its search field in a header of its own unless this is set, which sphinx-book-theme
    # does not do)
    "navbar_persistent": [],
    "extra_footer": (
        f"Equations typeset by MathJax {MATHJAX_VERSION} (the npm package <code>mathjax</code> "
        "from registry.npmjs.org, Apache License 2.0), served from this site. "
        "Pages rendered from the notebooks' committed outputs."
    ),
}
