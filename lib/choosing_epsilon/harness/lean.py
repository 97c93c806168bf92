"""A process of the harness reads notebooks without building parsers it never uses.

nbformat validates notebooks with jsonschema, which imports ``rfc3987_syntax`` where it is
installed (jupyter-events brings it) to check the "iri" and "iri-reference" string formats. No
schema read here uses them (nbformat's notebook schema, CITATION.cff's: "date" and "uri"), but the
import builds its grammar's parsers, about 1.5 s in each process that loads nbformat.
``skip_iri_parsers`` marks the module absent, so jsonschema goes without those two checks; the
runner's command line calls it before nbformat loads, as the test suite's first plugin does
(``tests/lean_imports.py``). A program that imports the harness is left as it is.
"""

from __future__ import annotations

import sys


def skip_iri_parsers() -> None:
    """Mark ``rfc3987_syntax`` absent in this process, unless it is already imported: jsonschema,
    imported after this, checks every string format but "iri" and "iri-reference"."""
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
