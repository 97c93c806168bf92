"""The reproducibility harness: what runs, checks and records the notebooks, not their mathematics.

- ``papers``: the registry of the notebooks, each declared once in its paper's folder
  (``papers/<notebook>/about.py``), found on disk and imported by name; every list of the
  notebooks reads it.
- ``reproduce``: the runner behind ``make reproduce`` and its command line, refusing bad
  parameters and input files before a kernel starts; ``kernel``: one notebook executed in a
  kernel of its own (papermill); ``summary``: the tables the README and docs show, generated from
  the ledgers and the registry.
- ``parameters``: the parameter machinery, which reads each notebook's declaration from its
  paper's folder (``papers/<notebook>/parameters.py``).
- ``outputs``, ``compare``: where a run writes, and results compared by content (the figure kit,
  ``plots.figures``, writes deterministic figure and table files).
- ``claims``: the ledger that checks every number a source prints.
- ``paths``, ``interruption``: the repository's folders; stopping a run cleanly on a signal.
"""
