"""The first plugin of ``make test``, ``make test-fast`` and ``make test-explore``
(``-p tests.lean_imports``, loaded before pytest's others): no test process imports
``rfc3987_syntax``.

jsonschema imports it, where it is installed (jupyter-events brings it), only to check the "iri"
and "iri-reference" string formats, which no test asks for (the one schema the tests validate
against, CITATION.cff's, uses "date" and "uri"); its import builds a parser for seconds, in the
controller and in every worker, as nbformat loads jsonschema. Marked absent, its import fails and
jsonschema goes without those two checks.
"""

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[assignment]
