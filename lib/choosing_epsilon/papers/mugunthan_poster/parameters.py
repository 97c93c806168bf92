"""Mugunthan, Xiao & Kagal (poster):
the notebook's parameters, declared once (``harness.parameters`` renders its ``parameters`` cell
from them and checks a run's values before a kernel starts)."""

from __future__ import annotations

from choosing_epsilon.harness import parameters as declare

# The poster fixes no values: its claims are checked at these stated defaults, which play the
# paper's part.
DECLARED: dict[str, declare.Param] = {
    "sensitivity": declare.positive_float(paper=1, comment="Δ"),
    "c": declare.positive_float(
        paper=10,
        comment="distance within which the noisy answer should fall (Theorems 2 and 3)",
    ),
    "p": declare.in_unit(paper=0.9, comment="required probability of falling within it"),
    "w": declare.in_unit(
        paper=0.1,
        comment="Theorem 1's relative tolerance: |A(D) - q(D)| ≤ w q(D)",
    ),
    "query_answer": declare.positive_float(
        paper=100, comment="q(D); at the defaults w·q(D) equals c"
    ),
    "p_grid": declare.unit_list(
        paper=[0.5, 0.75, 0.9, 0.95, 0.99, 0.999],
        comment="confidence levels for the coverage analysis",
    ),
    "gaussian_delta": declare.in_unit(
        default=1e-05,
        comment="δ of the Gaussian mechanism in the Gaussian analysis",
        source="1e-5",
    ),
    "seed": declare.with_default(declare.SEED, 20191111, "seeds every random draw below"),
    "n_trials": declare.with_default(
        declare.N_TRIALS, 200000, "Monte Carlo draws per (theorem, p)"
    ),
    "output_dir": declare.output_dir("mugunthan_poster"),
}
