"""Each source's own code, one folder a notebook: what it is (``about``: its title, the entries of
references.bib it cites, its rows in the README and on the site; the registry,
``harness.papers``, reads it), its parameters (``parameters``), its figures (``figures``) and the
site's scrubbers of them (``scrubbers``), its forensics and derivation checks."""
