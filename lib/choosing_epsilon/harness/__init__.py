"""The reproducibility harness: what runs, checks and records the notebooks, not their mathematics.

- ``reproduce``: the runner behind ``make reproduce`` (papermill), refusing bad parameters before
  a kernel starts; ``parameters``, ``inputs``: the checks it and the notebooks apply.
- ``outputs``, ``figures``, ``compare``: where a run writes, deterministic figure and table files,
  and results compared by content.
- ``claims``: the ledger that checks every number a source prints.
- ``assignments``: the exercises' student and instructor copies (``make assignments``).
- ``paths``, ``interruption``: the repository's folders; stopping a run cleanly on a signal.
"""
