"""Choosing epsilon for differential privacy: the mathematics behind the notebooks.

The package has four layers; a module imports only from its own layer or a lower one (a notebook
imports any of them), and ``tests/test_layers.py`` fails on an import that runs back up:

1. maths: the modules of this folder (``choosing_epsilon/*.py``); they import nothing of
   ``plots``, ``forensics`` or ``harness``;
2. figure kit: ``plots.style`` (the one style) and ``plots.figures`` (showing and saving a figure
   or a table with fixed metadata);
3. per-paper: ``forensics/<paper>*.py`` and ``plots/<paper>.py`` (and ``plots.benchmarks``): one
   source's figures and forensics. A paper's plots and forensics modules may import each other,
   never another paper's (the paper is the file stem up to its year: ``kazan_reiter_2024`` and
   ``kazan_reiter_derivations`` are both Kazan & Reiter's);
4. harness: ``harness/*.py``, what runs the notebooks: parameters, input checks, claims ledger,
   outputs, the runner.

The mathematics, one module per concept, reused across papers (this folder):

- ``laplace``: the Laplace mechanism, its tails, sampling and privacy-loss ratios.
- ``sensitivity``, ``queries``: sensitivity of a statistic under both neighbour definitions; the
  statistics a release publishes over the adversary's possible worlds.
- ``possible_worlds``: Lee & Clifton's possible-worlds adversary and the ε it implies.
- ``economics``: Hsu et al.'s payments, budget and accuracy constraints, the feasible (ε, N) region.
- ``relative_error``: Shoaran et al.'s relative error, minimum true answer and DIFF mechanism.
- ``confidence``: Mugunthan et al.'s three formulas for ε from a confidence requirement.
- ``risk_profiles``: Kazan & Reiter's risk profiles: Theorem 1's bound on the posterior-to-prior
  ratio, Theorem 2's ε, the ε a profile implies (closed forms and a bounded optimiser).
- ``geometric``: the geometric mechanism for counts (scipy's discrete Laplace).
- ``budget``: sequential composition and an accountant that refuses to overdraw its budget.
- ``interpretation``: what ε allows an adversary to conclude.
- ``attack_risk``: every guarantee (pure ε, (ε, δ), ρ-zCDP, μ-GDP) read as what an attacker
  testing one person's presence can do: trade-off curve, advantage, TPR at small FPR, accuracy.
- ``calibration``: noise calibrated to an attack risk (an advantage, or a TPR at a fixed FPR)
  instead of to ε, for the Gaussian mechanism in closed form and DP-SGD through riskcal and
  dp-accounting (Kulynych et al. 2024).
- ``registry``: real deployments: the deployments registry's YAML records, the older registry's
  CSV and its δ column, and the conversions the registry states.
- ``tables``: a column on disk as its distinct values and counts (DuckDB); ``synthesis``: one
  survey through every method.

Each source's own figures and forensics, one module per source:

- ``plots``: each notebook's figures (``plots.hsu_2014``, ...), on the figure kit they share
  (``plots.style``, ``plots.figures``).
- ``forensics``: how a source's printed numbers were obtained and where they slip
  (``forensics.lee_clifton_2011``, ``forensics.hsu_2014``; ``forensics.kulynych_2024`` also
  stores its DP-SGD calibrations by content).

The reproducibility harness, ``harness``: the runner (``harness.reproduce``), each notebook's
parameters declared once (``harness.parameters``: the notebooks' parameters cells are rendered from
it) and checked in one place, input checks, where runs write, the claims ledger and the
assignments.
"""

__version__ = "0.1.0"
