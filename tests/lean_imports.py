"""``make test-fast``'s first plugin (``-p tests.lean_imports``, loaded before pytest's others): no
process of the fast loop imports ``rfc3987_syntax``.

jsonschema imports it, where it is installed (jupyter-events brings it), only to check the "iri"
string format, which no test of the fast loop asks for (tests/test_citation.py does, under
``make test``); its import builds a parser for seconds, in the controller and in every worker, as
nbformat loads jsonschema. Marked absent, the import fails and jsonschema goes without that check.
"""

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[assignment]
