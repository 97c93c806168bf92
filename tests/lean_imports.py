"""The first plugin of ``make test``, ``make test-fast`` and ``make test-explore``
(``-p tests.lean_imports``, loaded before pytest's others): no test process imports
``rfc3987_syntax``, whose import builds parsers for about 1.5 s in the controller and in every
worker as nbformat loads jsonschema (``choosing_epsilon.harness.lean``: only the "iri" formats go
unchecked, which no schema of the tests uses; CITATION.cff's uses "date" and "uri")."""

from choosing_epsilon.harness.lean import skip_iri_parsers

skip_iri_parsers()
