"""Each source's own code, one folder a notebook: its figures (``figures``), its forensics and
derivation checks, its parameters (``parameters``)."""
