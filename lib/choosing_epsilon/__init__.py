"""Choosing epsilon for differential privacy: the mathematics behind the notebooks.

The package has four layers; a module imports only from its own layer or a lower one (a notebook
imports any of them), and ``tests/test_layers.py`` fails on an import that runs back up:

1. maths: the modules of this folder (``choosing_epsilon/*.py``), shared by every notebook and a
   reader's own script;
2. figure kit: ``plots.style`` (the one style), ``plots.figures`` (showing and saving a figure
   or a table with fixed metadata) and ``plots.scrubber`` (the site's ε scrubbers: a figure as
   frames over one parameter);
3. harness: ``harness/*.py``, what runs the notebooks: the registry of the notebooks
   (``papers``), the parameter machinery, the claims ledger, outputs, comparison, the runner and
   its kernel, the tables the README shows (it finds each paper's modules by name, never by a
   static import);
4. per-paper: ``papers/<notebook>/``, one folder a notebook: what it is (``about``, read by the
   registry), its parameters (``parameters``), its figures (``figures``) and scrubbers
   (``scrubbers``), its forensics (``forensics``, and Kazan & Reiter's ``derivations``, Lee &
   Clifton's ``replication``), Kulynych et al.'s stored calibrations (``precompute``), the
   synthesis's methods and plumbing (``synthesis``, ``run``). A paper's modules may import each
   other, never another paper's.

The mathematics, one module per concept:

- ``risk``: every privacy model (pure ε, (ε, δ), ρ-zCDP, μ-GDP, the Laplace mechanism) and what an
  attacker testing one person's presence can read off it (trade-off curve, advantage, TPR at an
  FPR, accuracy at prior ½, posterior), with the inverses beside them: the ε, the shift or the
  noise for a stated risk, always on the safe side.
- ``composition``: many releases read on the same scale: the composed trade-off curve of k copies
  of a guarantee or of a list (exact for pure ε, (ε, δ) and μ-GDP, a bracket for ρ-zCDP and the
  Laplace mechanism), beside basic and advanced composition, the averaging attacker's own test, and
  the per-release ε or noise for a risk over k releases.
- ``calibration``: noise calibrated to an attack risk by both routes (Kulynych et al. 2024), for
  one release in closed form.
- ``dpsgd``: DP-SGD's accountant: the risks at a noise multiplier and the least noise for a stated
  risk by both routes, through riskcal and dp-accounting.
- ``privacy_loss``: dp-accounting's privacy loss distributions built and read without its Python
  loops (the same distributions and readings), and their trade-off curve read directly.
- ``laplace``: the Laplace mechanism, its scale, sampling and privacy-loss ratios.
- ``sensitivity``, ``queries``: sensitivity of a statistic under both neighbour definitions; the
  statistics a release publishes over the adversary's possible worlds.
- ``possible_worlds``: Lee & Clifton's possible-worlds adversary and the ε it implies.
- ``economics``: Hsu et al.'s payments, budget and accuracy constraints, the feasible (ε, N) region.
- ``relative_error``: Shoaran et al.'s relative error, minimum true answer and DIFF mechanism.
- ``confidence``: Mugunthan et al.'s three formulas for ε from a confidence requirement.
- ``risk_profiles``: Kazan & Reiter's risk profiles: Theorem 1's bound on the posterior-to-prior
  ratio, Theorem 2's ε, the ε a profile implies (closed forms and a bounded optimiser).
- ``geometric``: the geometric mechanism for counts (scipy's discrete Laplace).
- ``tables``: a column on disk as its distinct values and counts (DuckDB).
"""

__version__ = "0.1.0"
