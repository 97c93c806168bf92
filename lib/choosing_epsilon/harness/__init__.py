"""The reproducibility harness: what runs, checks and records the notebooks, not their mathematics.

- ``reproduce``: the runner behind ``make reproduce`` (papermill), refusing bad parameters and
  input files before a kernel starts; ``parameters``: the parameter machinery, which reads each
  notebook's declaration from its paper's folder (``papers/<notebook>/parameters.py``).
- ``outputs``, ``compare``: where a run writes, and results compared by content (the figure kit,
  ``plots.figures``, writes deterministic figure and table files).
- ``claims``: the ledger that checks every number a source prints.
- ``paths``, ``interruption``: the repository's folders; stopping a run cleanly on a signal.
"""
