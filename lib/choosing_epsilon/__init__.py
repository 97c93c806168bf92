"""Choosing epsilon for differential privacy: the mathematics behind the notebooks.

One module per concept, reused across papers:

- ``laplace``: the Laplace mechanism, its tails, sampling and privacy-loss ratios.
- ``sensitivity``: sensitivity of the mean and median under both neighbour definitions.
- ``possible_worlds``: Lee & Clifton's possible-worlds adversary and the epsilon it implies.
- ``economics``: Hsu et al.'s payments, budget and accuracy constraints, and the feasible (ε, N)
  region.
- ``relative_error``: Shoaran et al.'s relative error, minimum true answer and the DIFF
  mechanism.
- ``confidence``: Mugunthan et al.'s three formulas for ε from a confidence requirement (Theorems
  1-3).
- ``risk_profiles``: Kazan & Reiter's risk profiles: Theorem 1's bound on the posterior-to-prior
  ratio, Theorem 2's ε, the ε a profile implies (closed forms and a bounded optimiser).
- ``geometric``: the geometric mechanism for counts (scipy's discrete Laplace).
- ``budget``: sequential composition and a privacy accountant that refuses to overdraw its
  budget.
- ``interpretation``: what ε allows an adversary to conclude (posterior and hypothesis-testing
  bounds).
- ``registry``: the ε of real deployments and its δ column.
- ``synthesis``: one survey through every method: each method's ε, the feasible interval, the
  table.
- ``claims``: the claims ledger that checks every published number.
- ``figures``: one plotting style and deterministic figure files.
- ``plots``: each notebook's figures, one module per source (``plots.hsu_2014``, ...).
- ``parameters``: validation of notebook parameters.
- ``reproduce``: the runner behind ``make reproduce``.
- ``assignments``: nbgrader student and instructor copies of the exercises, and their grading
  (``make assignments``).
"""

__version__ = "0.1.0"
