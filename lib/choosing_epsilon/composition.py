"""Many releases read on the attacker's scale: the composition of guarantees, and its inverse.

An attacker who sees k releases faces their composition. ``compose`` returns the composed
trade-off curve as a bracket, ``upper`` (a bound: no test against any mechanism with the
guarantees does better) and ``lower`` (what a composed mechanism with the guarantees attains, or a
lower estimate), with every reading of ``risk`` taken on it: advantage, TPR at an FPR, the
posterior after a positive test, singling out one of n candidates (n is not k). Where the two
coincide the reading is exact:

- pure ε, k times: the worst case is k-fold randomized response (Kairouz, Oh & Viswanath 2015,
  Thm. 3.3), whose curve is exact from two binomial laws (log space, ``scipy.stats.binom``);
- (ε, δ), k times: the k-fold of their four-outcome mechanism, exact by the same theorem;
- μ-GDP: √(Σμ²)-GDP, attained by the Gaussian mechanism (Dong, Roth & Su 2022, Cor. 3.3);
- ρ-zCDP: a bracket. Above, at each FPR the lower of kρ-zCDP read exactly (``risk.tpr_bound``)
  and, for k copies of one ρ, the f-DP composition of the one-release curve (Dong, Roth & Su 2022,
  Thm. 3.2): a discrete pair whose curve lies on or above the one-release curve
  (``zcdp_dominating_pair``), composed by dp-accounting's pessimistic estimate. Neither is below
  the other everywhere: at ρ = 0.015 the f-DP route reads lower at k = 365 (advantage 0.958
  against 0.992, TPR at FPR 1% 0.959 against 0.996), kρ lower at k = 10's TPR at FPR 1%. Below,
  the larger of two k-fold compositions of ρ-zCDP mechanisms, the Gaussian with μ = √(2ρ) and
  randomized response at the ε whose Kullback-Leibler divergence ε·tanh(ε/2) is ρ (the largest
  randomized response that is ρ-zCDP: its Rényi divergences of order a, divided by a, are
  largest as a → 1). At k = 1 the reading is exact (``risk``: a two-outcome mechanism attains
  each point of ρ-zCDP's curve); beyond, whether the bracket closes is not known to us. The
  f-DP bound composes the one-release curve, which is the envelope of many two-outcome
  mechanisms, each ρ-zCDP, attaining one point each; the pair attaining the whole curve need not
  be ρ-zCDP itself, so no ρ-zCDP mechanism we know attains its composition. ``Composed.gap``
  reports the width (at ρ = 0.015: 0.048 in advantage at k = 10, 0.056 at k = 365, against
  0.055 and 0.090 with kρ alone). Lists of different ρ, or with μ-GDP, are bounded by Σρ alone;
- the Laplace mechanism, k times: its own curve at k = 1 (``risk``); beyond, no closed form:
  dp-accounting's privacy loss distribution
  (connect-the-dots, Doroshenko et al. 2022) brackets it, its pessimistic estimate above and its
  optimistic one below, read directly (``privacy_loss.pld_tpr``);
- different guarantees together: μ-GDP and ρ-zCDP as above (a GDP counts as ρ = μ²/2); pure, (ε, δ),
  Laplace and Gaussian releases by dp-accounting, pessimistic above, optimistic below.

Beside them stand the two textbook rules, read on the same scale: basic composition (kε, kδ) and
the advanced composition theorem (Dwork, Rothblum & Vadhan 2010, Thm. III.3) at a stated δ′
(``DELTA_PRIME``). The largest posterior after k pure-ε releases gains nothing over basic
composition: randomized response reaches the likelihood ratio e^(kε) (every answer true), so
``Composed.largest_posterior`` is basic composition's.

The inverses give the per-release ε, Gaussian σ or Laplace b that keeps k releases at a stated
risk, on the safe side: the value returned allows at most the target on the composed bound.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Protocol

import mpmath
import numpy as np
from scipy import optimize, special, stats

from . import privacy_loss, risk
from ._validate import open_unit, positive, unit_rates

# the δ′ of the advanced composition theorem where none is given
DELTA_PRIME = 1e-6
# the discretisation of dp-accounting's privacy loss (its default)
GRID_STEP = 1e-4


def _releases(k: int, name: str = "k") -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"{name} must be an integer >= 1 (releases composed), got {k!r}")
    return int(k)


# --- curves: a trade-off curve as its TPR at each FPR and its largest advantage ------------------


class Curve(Protocol):
    """A trade-off curve, read as the TPR of the best test at each FPR and its advantage."""

    def tpr(self, fprs: np.ndarray) -> np.ndarray:
        """The TPR at each FPR of ``fprs``."""

    def advantage(self) -> float:
        """The largest TPR − FPR."""


@dataclass(frozen=True)
class RandomizedResponseCurve:
    """The exact curve of k-fold randomized response at ε, each release preceded, with
    probability δ, by a reveal (Kairouz, Oh & Viswanath's four-outcome mechanism; δ = 0 is
    randomized response). Without reveals the count J of truthful answers is Bin(k, p) in one
    world and Bin(k, 1 − p) in the other, p = e^ε/(1 + e^ε), with likelihood ratio e^(ε(2J − k)):
    the tests "J > t" (randomised at J = t) are the most powerful (Neyman & Pearson). A reveal,
    which has probability 1 − (1 − δ)^k in k releases, tells the worlds apart for certain."""

    epsilon: float
    k: int
    delta: float = 0.0

    def _vertices(self) -> tuple[np.ndarray, np.ndarray]:
        return _rr_vertices(float(self.epsilon), int(self.k))

    def _kept(self) -> tuple[float, float]:
        """(1 − δ)^k, the chance of no reveal, and 1 − (1 − δ)^k, both to full precision."""
        log_kept = self.k * math.log1p(-self.delta)
        return math.exp(log_kept), -math.expm1(log_kept)

    def tpr(self, fprs: np.ndarray) -> np.ndarray:
        """The TPR at each FPR: δ_k + (1 − δ)^k T_RR(α/(1 − δ)^k) for α ≤ (1 − δ)^k, 1 beyond,
        with δ_k = 1 − (1 − δ)^k."""
        alphas = np.asarray(fprs, dtype=float)
        kept, revealed = self._kept()
        fpr_v, tpr_v = self._vertices()
        scaled = np.minimum(alphas / kept, 1.0)
        return np.minimum(revealed + kept * np.interp(scaled, fpr_v, tpr_v), 1.0)

    def advantage(self) -> float:
        """The total variation between the worlds: δ_k + (1 − δ)^k Σ_(j > k/2) P(j)(1 −
        e^(−ε(2j − k))), each term positive (no cancellation)."""
        kept, revealed = self._kept()
        return min(revealed + kept * _rr_advantage(float(self.epsilon), int(self.k)), 1.0)


@lru_cache(maxsize=64)
def _rr_vertices(epsilon: float, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The (FPR, TPR) vertices of the tests "J > t", t = k, k − 1, ..., −1: the two laws' upper
    tails (binom.sf, Boost's incomplete beta), which keep their relative precision in the far
    tail at any k."""
    t = np.arange(k, -2, -1)
    tpr = stats.binom.sf(t, k, float(special.expit(epsilon)))
    fpr = stats.binom.sf(t, k, float(special.expit(-epsilon)))
    fpr[-1], tpr[-1] = 1.0, 1.0
    return fpr, tpr


@lru_cache(maxsize=256)
def _rr_advantage(epsilon: float, k: int) -> float:
    if epsilon == 0:
        return 0.0
    j = np.arange(k // 2 + 1, k + 1)
    p = float(special.expit(epsilon))
    # binom.pmf (Boost's) keeps 1e-13 of its digits at k = 10⁶, where exp(binom.logpmf) loses
    # 1e-9 (a difference of log-gammas near 1e7); a mass that underflows adds nothing the sum sees
    terms = stats.binom.pmf(j, k, p) * -np.expm1(-epsilon * (2 * j - k))
    return float(math.fsum(terms))


@dataclass(frozen=True)
class GuaranteeCurve:
    """The exact curve of one guarantee of ``risk`` (a composed μ-GDP, kρ-zCDP)."""

    g: risk.Guarantee

    def tpr(self, fprs: np.ndarray) -> np.ndarray:
        # risk reads many rates at once (the closed forms in one numpy operation each)
        alphas = np.asarray(fprs, dtype=float)
        values = risk.tpr_bound(self.g, np.atleast_1d(alphas))
        return np.asarray(values, dtype=float).reshape(alphas.shape)

    def advantage(self) -> float:
        return risk.advantage(self.g)


@dataclass(frozen=True)
class PldCurve:
    """A dp-accounting privacy loss distribution's curve, read directly (``privacy_loss.pld_tpr``);
    its advantage is δ(0), the total variation. ``build`` makes the distribution, on first use
    (a composition takes tens of milliseconds: a bracket read on one side never builds the other).
    """

    build: Callable[[], Any] = field(compare=False)

    @cached_property
    def pld(self) -> Any:
        """The distribution, built once."""
        return self.build()

    def tpr(self, fprs: np.ndarray) -> np.ndarray:
        return np.asarray(privacy_loss.pld_tpr(self.pld, np.asarray(fprs, dtype=float)))

    def advantage(self) -> float:
        return min(float(self.pld.get_delta_for_epsilon(0.0)), 1.0)


class SymmetricPldCurve(PldCurve):
    """A symmetric privacy loss distribution's curve (one direction, the pair and its mirror being
    the same), read off its likelihood-ratio tests by interpolation: taken in order of falling
    loss they are already the concave chain, so no hull is needed (qhull's rounding, relative to
    the unit square, drops vertices below FPR 1e-13 or so, and reads the curve too low there)."""

    def tpr(self, fprs: np.ndarray) -> np.ndarray:
        fpr, tpr = privacy_loss.pld_direction_points(self.pld._pmf_remove)
        last = np.concatenate([np.diff(fpr) > 0, [True]])  # the highest TPR at each FPR
        return np.interp(np.asarray(fprs, dtype=float), fpr[last], tpr[last])


@dataclass(frozen=True)
class MaxCurve:
    """The higher of several curves at each FPR: each is attained, so the largest is too."""

    curves: tuple[Curve, ...]

    def tpr(self, fprs: np.ndarray) -> np.ndarray:
        return np.maximum.reduce([c.tpr(fprs) for c in self.curves])

    def advantage(self) -> float:
        return max(c.advantage() for c in self.curves)


@dataclass(frozen=True)
class MinCurve:
    """The lower of several bounds at each FPR: each bounds every test, so the lowest does too;
    its advantage is bounded by the least of theirs."""

    curves: tuple[Curve, ...]

    def tpr(self, fprs: np.ndarray) -> np.ndarray:
        return np.minimum.reduce([np.asarray(c.tpr(fprs), dtype=float) for c in self.curves])

    def advantage(self) -> float:
        return min(c.advantage() for c in self.curves)


# --- the composed guarantee ---------------------------------------------------------------------


@dataclass(frozen=True)
class Composed:
    """The composition of ``releases`` (guarantees, in order) read on the attacker's scale:
    ``upper`` bounds every test against any mechanisms with these guarantees, ``lower`` is
    attained by one (or is a lower estimate, for the Laplace mechanism's); ``exact`` where they
    are the same curve. ``how`` says how each was obtained; ``basic`` is basic composition's
    guarantee (None where the model has no ε to add)."""

    releases: tuple[risk.Guarantee, ...]
    upper: Curve
    lower: Curve
    exact: bool
    how: str
    basic: risk.Guarantee | None

    @property
    def k(self) -> int:
        """The number of releases composed."""
        return len(self.releases)

    def tpr(self, fprs: float | Sequence[float] | np.ndarray) -> float | np.ndarray:
        """The largest TPR at each FPR of ``fprs`` on the composed bound (``upper``).

        Parameters
        ----------
        fprs : float or array of float
            False-positive rates in [0, 1].

        Returns
        -------
        float or numpy.ndarray
            The TPR bound at each rate (a float for one rate).

        Raises
        ------
        ValueError
            If a rate lies outside [0, 1].
        """
        return _shaped(self.upper.tpr(unit_rates("fprs", fprs)), fprs)

    def tpr_attained(self, fprs: float | Sequence[float] | np.ndarray) -> float | np.ndarray:
        """The TPR at each FPR on the lower curve (attained by a composed mechanism, or the
        optimistic estimate); equal to ``tpr`` where ``exact``.

        Parameters
        ----------
        fprs : float or array of float
            False-positive rates in [0, 1].

        Returns
        -------
        float or numpy.ndarray
            The lower TPR at each rate.

        Raises
        ------
        ValueError
            If a rate lies outside [0, 1].
        """
        return _shaped(self.lower.tpr(unit_rates("fprs", fprs)), fprs)

    def advantage(self) -> float:
        """The largest advantage TPR − FPR on the composed bound.

        Returns
        -------
        float
            The advantage bound.
        """
        return self.upper.advantage()

    def advantage_attained(self) -> float:
        """The advantage on the lower curve.

        Returns
        -------
        float
            The attained (or optimistic) advantage.
        """
        return self.lower.advantage()

    def gap(self) -> float:
        """How far the bracket is open on the advantage: ``advantage`` − ``advantage_attained``
        (0 where exact).

        Returns
        -------
        float
            The width of the bracket.
        """
        return self.advantage() - self.advantage_attained()

    def posterior_after_positive(self, prior: float, fpr: float) -> float:
        """The largest posterior after a positive test at FPR α: p T(α)/(p T(α) + (1 − p) α),
        with T the composed bound.

        Parameters
        ----------
        prior : float
            The prior p in (0, 1).
        fpr : float
            The test's false-positive rate in (0, 1].

        Returns
        -------
        float
            The posterior.

        Raises
        ------
        ValueError
            If ``prior`` or ``fpr`` is out of range.
        """
        p, alpha = open_unit("prior", prior), positive("fpr", fpr)
        if alpha > 1:
            raise ValueError(f"fpr must lie in (0, 1], got {fpr!r}")
        t = float(self.tpr(alpha))
        return p * t / (p * t + (1 - p) * alpha)

    def largest_posterior(self, prior: float) -> float:
        """The largest posterior any test leaves from ``prior``: for pure ε (and the Laplace
        mechanism at ε = μ) releases, basic composition's p e^(kε)/(1 − p + p e^(kε)), which
        randomized response attains (every answer true: likelihood ratio e^(kε)), so composition
        read exactly gains nothing here; 1 for every other model.

        Parameters
        ----------
        prior : float
            The prior p in (0, 1).

        Returns
        -------
        float
            The largest posterior.

        Raises
        ------
        ValueError
            If ``prior`` is out of range.
        """
        p = open_unit("prior", prior)
        if self.basic is None or self.basic.model != "pure":
            return 1.0
        return risk.largest_posterior(self.basic, p)

    def singling_out(self, n: int) -> risk.SinglingOut:
        """The chance of picking out the right one of ``n`` candidates (n is not k): the bound
        1 − f(1/n), the composed TPR at FPR 1/n, with an attained value where a composed
        mechanism gives one: for μ-GDP and ρ-zCDP the k-fold Gaussian on a regular simplex, which
        is one Gaussian release of √(Σμ²) (``risk.simplex_gaussian_success``); NaN else.

        Parameters
        ----------
        n : int
            The number of candidates, at least 2.

        Returns
        -------
        risk.SinglingOut
            The bound, the attained value and the mechanism attaining it.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 2.
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
            raise ValueError(f"n must be an integer >= 2 (candidates), got {n!r}")
        count = int(n)
        bound = float(self.tpr(1 / count))
        models = {g.model for g in self.releases}
        if models <= {"gdp", "zcdp"}:
            mu = math.sqrt(sum(_gaussian_mu(g) ** 2 for g in self.releases))
            attained = risk.simplex_gaussian_success(mu, count)
            by = "the k-fold Gaussian mechanism on a regular simplex (one Gaussian of √(Σμ²))"
            return risk.SinglingOut(count, bound, attained, False, by, math.nan)
        return risk.SinglingOut(count, bound, math.nan, False, "none computed", math.nan)

    def summary(self) -> dict[str, float]:
        """The scale's numbers on the composed bound and on the lower curve.

        Returns
        -------
        dict
            advantage and TPR at FPR 1% and 0.1%, each with its attained value.
        """
        rates = np.array([0.01, 0.001])
        upper, lower = self.upper.tpr(rates), self.lower.tpr(rates)
        return {
            "advantage": self.advantage(),
            "advantage_attained": self.advantage_attained(),
            "tpr_at_fpr_1pct": float(upper[0]),
            "tpr_at_fpr_1pct_attained": float(lower[0]),
            "tpr_at_fpr_0.1pct": float(upper[1]),
            "tpr_at_fpr_0.1pct_attained": float(lower[1]),
        }


def _shaped(values: np.ndarray, fprs: Any) -> float | np.ndarray:
    values = np.minimum(np.asarray(values, dtype=float), 1.0)
    return float(values.reshape(-1)[0]) if np.ndim(fprs) == 0 else values


def _gaussian_mu(g: risk.Guarantee) -> float:
    return g.mu if g.model == "gdp" else risk.gaussian_mu_for_rho(g.rho)


def zcdp_randomized_response_epsilon(rho: float) -> float:
    """The largest ε at which randomized response is ρ-zCDP: the root of ε·tanh(ε/2) = ρ, its
    Kullback-Leibler divergence (the limit of D_a/a as a → 1, where D_a/a is largest); read
    from ``risk.advantage(risk.zcdp(ρ))`` = tanh(ε/2), which this randomized response attains.

    Parameters
    ----------
    rho : float
        ρ > 0.

    Returns
    -------
    float
        ε = 2 artanh(advantage).

    Raises
    ------
    ValueError
        If ``rho`` is not positive.

    Examples
    --------
    >>> round(zcdp_randomized_response_epsilon(0.015), 4)
    0.1734
    """
    t = risk.advantage(risk.zcdp(rho))
    return math.inf if t >= 1 else 2 * math.atanh(t)


def compose(
    guarantees: risk.Guarantee | Sequence[risk.Guarantee], k: int = 1, grid_step: float = GRID_STEP
) -> Composed:
    """The composition of ``k`` copies of a guarantee, or of a list of guarantees, read on the
    attacker's scale (the module docstring lists how each model is read).

    Parameters
    ----------
    guarantees : risk.Guarantee or sequence of risk.Guarantee
        One guarantee (composed ``k`` times) or the list of releases (then ``k`` must be 1).
    k : int
        The number of copies of a single guarantee, at least 1.
    grid_step : float
        dp-accounting's discretisation of the privacy loss, where it is used.

    Returns
    -------
    Composed
        The composed curve, as a bound and an attained (or optimistic) curve.

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer, a list is given with ``k`` ≠ 1, the list is empty, or
        ρ-zCDP is mixed with a model other than μ-GDP.

    Examples
    --------
    >>> c = compose(risk.pure(1.0), 10)
    >>> round(c.advantage(), 4), round(c.tpr(0.01), 4)
    (0.8696, 0.7634)
    """
    count = _releases(k)
    step = positive("grid_step", grid_step)
    if isinstance(guarantees, risk.Guarantee):
        return _compose_copies(guarantees, count, step)
    releases = tuple(guarantees)
    if count != 1:
        raise ValueError(f"k must be 1 when a list of guarantees is given, got {k!r}")
    if not releases or not all(isinstance(g, risk.Guarantee) for g in releases):
        raise ValueError("guarantees must be a Guarantee or a non-empty list of them")
    return _compose_list(releases, step)


# A composition is kept for the process, keyed by its releases (k copies of one guarantee by the
# guarantee and k): a composed distribution is built once however often the same releases are
# read (a table and its figure; the risk scale of one registry, at every column's run). The
# result is immutable; each curve builds its distribution on first use and keeps it.
@lru_cache(maxsize=64)
def _compose_copies(g: risk.Guarantee, k: int, step: float) -> Composed:
    return _composed((g,) * k, step)


@lru_cache(maxsize=64)
def _compose_list(releases: tuple[risk.Guarantee, ...], step: float) -> Composed:
    return _composed(releases, step)


def _composed(releases: tuple[risk.Guarantee, ...], step: float) -> Composed:
    """``compose`` of the checked ``releases`` on the grid ``step``."""
    models = {g.model for g in releases}
    n = len(releases)
    if len(set(releases)) == 1:
        g = releases[0]
        if g.model in ("pure", "approximate"):
            curve = RandomizedResponseCurve(g.epsilon, n, g.delta)
            how = (
                f"{n}-fold randomized response at ε = {g.epsilon:g}"
                + (f" with reveals at δ = {g.delta:g}" if g.delta > 0 else "")
                + ": exact (Kairouz, Oh & Viswanath 2015, Thm. 3.3)"
            )
            basic = risk.pure(n * g.epsilon) if g.delta == 0 else None
            if g.delta > 0 and n * g.delta < 1:
                basic = risk.approximate(n * g.epsilon, n * g.delta)
            return Composed(releases, curve, curve, True, how, basic)
        if g.model == "zcdp":
            return _zcdp_bracket(releases, step)
        if g.model == "laplace" and n == 1:  # one release: the mechanism's own curve, exact
            own = GuaranteeCurve(g)
            how = f"the Laplace mechanism at μ = Δ/b = {g.mu:g}: its own curve, exact"
            return Composed(releases, own, own, True, how, risk.pure(g.mu))
        if g.model == "laplace":
            return _pld_bracket(releases, step, f"{n} Laplace releases at μ = Δ/b = {g.mu:g}")
    if models == {"gdp"}:
        exact = GuaranteeCurve(risk.gdp(math.sqrt(sum(g.mu**2 for g in releases))))
        how = f"√(Σμ²)-GDP = {exact.g.mu:g}: exact (Dong, Roth & Su 2022, Cor. 3.3)"
        return Composed(releases, exact, exact, True, how, None)
    if models <= {"gdp", "zcdp"}:
        return _zcdp_bracket(releases, step)
    if "zcdp" in models:
        raise ValueError(
            "guarantees: ρ-zCDP composes here only with ρ-zCDP and μ-GDP (no privacy loss "
            f"distribution of its curve is used), got models {sorted(models)}"
        )
    return _pld_bracket(releases, step, f"{n} releases of models {sorted(models)}")


def _zcdp_bracket(releases: tuple[risk.Guarantee, ...], step: float = GRID_STEP) -> Composed:
    """ρ-zCDP releases (μ-GDP counted as ρ = μ²/2): Σρ-zCDP above, and for k copies of one ρ the
    lower, at each FPR, of that and the f-DP composition of the one-release curve
    (``zcdp_dominating_pair``, dp-accounting's pessimistic composition on the grid ``step``);
    below, the composed Gaussian and, for k copies of one ρ, k-fold randomized response at
    ``zcdp_randomized_response_epsilon``."""
    rhos = [g.rho if g.model == "zcdp" else g.mu**2 / 2 for g in releases]
    total = math.fsum(rhos)
    summed = GuaranteeCurve(risk.zcdp(total))
    if len(releases) == 1:  # one release: every point of the curve is attained (``risk``)
        how = f"ρ-zCDP, ρ = {total:g}: exact (the Rényi bounds on the test's two outcomes)"
        return Composed(releases, summed, summed, True, how, risk.zcdp(total))
    lowers: list[Curve] = [GuaranteeCurve(risk.gdp(math.sqrt(2 * total)))]
    upper: Curve = summed
    how = f"Σρ-zCDP, ρ = {total:g}"
    same = len(set(releases)) == 1 and releases[0].model == "zcdp"
    if same:
        rho, k = releases[0].rho, len(releases)

        def fdp() -> Any:
            return _self_compose(_zcdp_pld(rho, step), k)

        upper = MinCurve((summed, SymmetricPldCurve(fdp)))
        how += (
            f", and the {k}-fold f-DP composition of one release's curve (a dominating pair, "
            f"dp-accounting's pessimistic estimate, grid {step:g}), the lower of the two,"
        )
    how += " above; the composed Gaussian, μ = √(2Σρ)"
    if same:
        eps = zcdp_randomized_response_epsilon(releases[0].rho)
        lowers.append(RandomizedResponseCurve(eps, len(releases)))
        how += f", and {len(releases)}-fold randomized response at ε = {eps:.6g}, the larger,"
    how += " below: a bracket"
    lower = lowers[0] if len(lowers) == 1 else MaxCurve(tuple(lowers))
    return Composed(releases, upper, lower, False, how, risk.zcdp(total))


def _pld(g: risk.Guarantee, pessimistic: bool, step: float) -> Any:
    """One release's privacy loss distribution: dp-accounting's Laplace and Gaussian mechanisms
    (connect-the-dots above, privacy buckets below), and for (ε, δ) the four-outcome pair of
    Kairouz, Oh & Viswanath (randomized response for δ = 0), rounded up or down."""
    from dp_accounting.pld import privacy_loss_distribution

    if g.model in ("laplace", "gdp"):
        build = (
            privacy_loss_distribution.from_laplace_mechanism
            if g.model == "laplace"
            else privacy_loss_distribution.from_gaussian_mechanism
        )
        return build(
            1.0, sensitivity=g.mu, pessimistic_estimate=pessimistic,
            value_discretization_interval=step, use_connect_dots=pessimistic,
        )  # fmt: skip
    log_kept = math.log1p(-g.delta) if g.delta < 1 else -math.inf
    log_p = log_kept - float(np.logaddexp(0.0, -g.epsilon))
    log_q = log_kept - float(np.logaddexp(0.0, g.epsilon))
    first = {1: log_p, 2: log_q}
    second = {1: log_q, 2: log_p}
    if g.delta > 0:
        first[0], second[3] = math.log(g.delta), math.log(g.delta)
    return privacy_loss_distribution.from_two_probability_mass_functions(
        first, second, pessimistic_estimate=pessimistic, value_discretization_interval=step
    )


def _pld_bracket(releases: tuple[risk.Guarantee, ...], step: float, what: str) -> Composed:
    """dp-accounting's composition: pessimistic above, optimistic below (an (ε, δ)'s distribution
    has one form, its losses ±ε rounded outward)."""

    def build(pessimistic: bool) -> Callable[[], Any]:
        def composed() -> Any:
            if len(set(releases)) == 1:
                return _self_compose(_pld(releases[0], pessimistic, step), len(releases))
            pld = _pld(releases[0], pessimistic, step)
            for g in releases[1:]:
                pld = pld.compose(_pld(g, pessimistic, step))
            return pld

        return composed

    curves = [PldCurve(build(True)), PldCurve(build(False))]
    how = (
        f"{what}: dp-accounting's privacy loss distribution (grid {step:g}), pessimistic above, "
        "optimistic below"
    )
    models = {g.model for g in releases}
    basic = None
    if models <= {"pure", "laplace"}:
        basic = risk.pure(math.fsum(g.epsilon if g.model == "pure" else g.mu for g in releases))
    return Composed(releases, curves[0], curves[1], False, how, basic)


# a k-fold composition whose whole support has at most this many points is convolved untruncated
UNTRUNCATED_POINTS = 1 << 17


def _self_compose(pld: Any, k: int) -> Any:
    """``pld`` composed with itself ``k`` times. dp-accounting bounds the composed support by
    Chernoff's bound at 40 orders before its FFT, to truncate tails of mass at most 1e-15 (which
    it adds to the mass at infinity, on either estimate); where the whole support is small
    (``UNTRUNCATED_POINTS``) the FFT over all of it is cheaper than those bounds and truncates
    nothing, so both estimates keep their side exactly."""
    pmfs = [pld._pmf_remove] if pld._symmetric else [pld._pmf_remove, pld._pmf_add]
    widest = max(pmf.to_dense_pmf().size for pmf in pmfs)
    if (widest - 1) * k + 1 <= UNTRUNCATED_POINTS:
        return pld.self_compose(k, tail_mass_truncation=0.0)
    return pld.self_compose(k)


# --- one ρ-zCDP release's curve as a dominating pair, for its f-DP composition ------------------

# the one-release curve's samples, geometric in α over three spans: from ZCDP_LEAST_FPR to 1e-10,
# to 1e-4 and to the randomized-response point, with ZCDP_POINTS in each
ZCDP_LEAST_FPR = 1e-40
ZCDP_SPANS = (1e-10, 1e-4)
ZCDP_POINTS = (20, 40, 140)
# how far each sampled T(α) − α is raised, to cover risk's root finding (relative 1e-14 or so)
ZCDP_SAMPLE_MARGIN = 1e-9


def _chord(x: np.ndarray, y: np.ndarray, j: int) -> tuple[float, float]:
    """Slope and intercept of the chord through points j and j + 1."""
    slope = (y[j + 1] - y[j]) / (x[j + 1] - x[j])
    return float(slope), float(y[j] - slope * x[j])


def zcdp_dominating_pair(rho: float) -> tuple[np.ndarray, np.ndarray]:
    """A pair of discrete distributions (P, Q) whose trade-off curve lies on or below one ρ-zCDP
    release's exact curve (``risk.tpr_bound``) at every FPR: every ρ-zCDP mechanism is then
    post-processing of it in the f-DP sense, and the k-fold composition of (P, Q) bounds that of
    any k ρ-zCDP releases (Dong, Roth & Su 2022, Thm. 3.2: each such release is
    T(P, Q)-DP, so their composition is T(P, Q)^⊗k-DP).

    The curve T is concave and symmetric under (α, T) → (1 − T, 1 − α), so it is bounded on the
    half α ≤ α* (the randomized-response point, α* + T(α*) = 1) and mirrored. On the half, T is
    sampled at α_0 = 0 < α_1 < ... < α_n = α* (each T(α) − α raised by ``ZCDP_SAMPLE_MARGIN``,
    and α* taken from an advantage raised by 1e-12, so that each sample lies on or above the
    curve); concavity puts T on [α_j, α_(j+1)] below the extended chords of both neighbouring
    cells, so the path through their crossing (the tent) lies above T; on the first cell,
    below the second cell's chord extended to α = 0, whose value there is a mass at infinite
    loss; where the tent's apex is not inside its cell (chords parallel to rounding), the
    staircase through (α_j, T(α_(j+1))). Each segment of the path is one outcome, with
    probability its rise under P and its run under Q; the mirrored half swaps the two.

    Parameters
    ----------
    rho : float
        ρ > 0.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The probabilities of the outcomes under P (the rises, summing to 1) and Q (the runs),
        outcomes in order of falling likelihood ratio on the half, then mirrored.

    Raises
    ------
    ValueError
        If ``rho`` is not positive.
    """
    r = positive("rho", rho)
    return _zcdp_pair(r)


@lru_cache(maxsize=32)
def _zcdp_pair(rho: float) -> tuple[np.ndarray, np.ndarray]:
    t = min(risk.advantage(risk.zcdp(rho)) * (1 + 1e-12) + 1e-15, 1.0)
    a_star = (1 - t) / 2
    if a_star <= ZCDP_LEAST_FPR * 10:  # no test is bounded away from perfect: one reveal
        return np.array([1.0]), np.array([0.0])
    ends = [ZCDP_LEAST_FPR, *(min(e, a_star / 10) for e in ZCDP_SPANS), a_star]
    spans = [np.geomspace(a, b, n + 1)[:-1] for a, b, n in zip(ends, ends[1:], ZCDP_POINTS)]
    alphas = np.unique(np.concatenate(spans))
    tprs = risk.zcdp_tpr_rising(rho, alphas)
    tprs = np.minimum(alphas + (tprs - alphas) * (1 + ZCDP_SAMPLE_MARGIN), 1.0)
    # the half's samples with (0, 0) first and (α*, 1 − α*) last, then the mirror of the last
    # interior sample, which gives the last cell its right-hand chord
    x = np.concatenate([[0.0], alphas, [a_star], [1 - tprs[-1]]])
    y = np.concatenate([[0.0], tprs, [1 - a_star], [1 - alphas[-1]]])
    last = len(x) - 2  # the index of (α*, 1 − α*)
    vx, vy = [0.0, x[1]], [max(_line_at(_chord(x, y, 1), 0.0), 0.0), y[1]]
    for j in range(1, last):
        (s_left, c_left), (s_right, c_right) = _chord(x, y, j - 1), _chord(x, y, j + 1)
        apex = (c_right - c_left) / (s_left - s_right) if s_left > s_right else math.nan
        if x[j] < apex < x[j + 1]:
            vx.append(apex)
            vy.append(min(s_left * apex + c_left, s_right * apex + c_right))
        else:
            vx.append(x[j])
            vy.append(y[j + 1])
        vx.append(x[j + 1])
        vy.append(y[j + 1])
    runs, rises = np.diff(vx), np.diff(vy)
    runs, rises = np.maximum(runs, 0.0), np.maximum(rises, 0.0)
    # the half: a mass at infinity (the path's start above 0), then each segment's (rise, run)
    p_half = np.concatenate([[vy[0]], rises])
    q_half = np.concatenate([[0.0], runs])
    return np.concatenate([p_half, q_half[::-1]]), np.concatenate([q_half, p_half[::-1]])


def _line_at(line: tuple[float, float], x: float) -> float:
    return line[0] * x + line[1]


def _zcdp_pld(rho: float, step: float) -> Any:
    """The pessimistic privacy loss distribution of ``zcdp_dominating_pair`` (losses rounded up
    to the grid ``step``), built once for each (ρ, step)."""
    return _zcdp_pld_cached(positive("rho", rho), step)


@lru_cache(maxsize=32)
def _zcdp_pld_cached(rho: float, step: float) -> Any:
    from dp_accounting.pld import privacy_loss_distribution

    p, q = _zcdp_pair(rho)
    first = {i: math.log(m) for i, m in enumerate(p) if m > 0}
    second = {i: math.log(m) for i, m in enumerate(q) if m > 0}
    return privacy_loss_distribution.from_two_probability_mass_functions(
        first, second, pessimistic_estimate=True, value_discretization_interval=step
    )


# --- the textbook rules, read on the same scale ---------------------------------------------


def basic_composition(g: risk.Guarantee, k: int) -> risk.Guarantee:
    """Basic composition of ``k`` copies of ``g``: (kε, kδ)-DP for an ε (the Laplace mechanism at
    ε = μ), kρ-zCDP for ρ-zCDP (exact for μ-GDP: √k μ).

    Parameters
    ----------
    g : risk.Guarantee
        The per-release guarantee.
    k : int
        The number of releases, at least 1.

    Returns
    -------
    risk.Guarantee
        The composed guarantee, as the rule states it.

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer, or kδ reaches 1.

    Examples
    --------
    >>> basic_composition(risk.pure(1.0), 10).describe()
    'ε = 10'
    """
    n = _releases(k)
    if g.model == "pure":
        return risk.pure(n * g.epsilon)
    if g.model == "laplace":
        return risk.pure(n * g.mu)
    if g.model == "approximate":
        return risk.approximate(n * g.epsilon, n * g.delta)
    if g.model == "zcdp":
        return risk.zcdp(n * g.rho)
    return risk.gdp(math.sqrt(n) * g.mu)


def advanced_composition(
    g: risk.Guarantee, k: int, delta_prime: float = DELTA_PRIME
) -> risk.Guarantee:
    """The advanced composition theorem (Dwork, Rothblum & Vadhan 2010, Thm. III.3): k releases,
    each (ε, δ)-DP, are (ε′, kδ + δ′)-DP with ε′ = √(2k ln(1/δ′)) ε + kε(e^ε − 1). Valid, and
    looser than the exact composition (``compose``) at every k.

    Parameters
    ----------
    g : risk.Guarantee
        The per-release guarantee: pure ε, (ε, δ), or the Laplace mechanism (ε = μ).
    k : int
        The number of releases, at least 1.
    delta_prime : float
        The theorem's δ′ in (0, 1).

    Returns
    -------
    risk.Guarantee
        The (ε′, kδ + δ′) guarantee.

    Raises
    ------
    ValueError
        If the model has no ε, ``k`` is not a positive integer, ``delta_prime`` is outside (0, 1)
        or kδ + δ′ reaches 1.

    Examples
    --------
    >>> advanced_composition(risk.pure(0.1), 100).describe()
    '(ε, δ) = (6.30823, 1e-06)'
    """
    n, d = _releases(k), open_unit("delta_prime", delta_prime)
    if g.model not in ("pure", "approximate", "laplace"):
        raise ValueError(
            f"g.model must be one of pure, approximate, laplace (an ε to compose), got {g.model!r}"
        )
    eps = g.mu if g.model == "laplace" else g.epsilon
    delta = g.delta if g.model == "approximate" else 0.0
    total = math.sqrt(2 * n * math.log(1 / d)) * eps + n * eps * math.expm1(eps)
    return risk.approximate(total, n * delta + d)


def rules_table(
    g: risk.Guarantee, ks: Sequence[int], delta_prime: float = DELTA_PRIME, fpr: float = 0.01
) -> list[dict[str, float]]:
    """For each k of ``ks``: the advantage and the TPR at ``fpr`` of k copies of ``g``, exact (or
    bracketed) by ``compose``, and by basic and advanced composition read on the same scale.

    Parameters
    ----------
    g : risk.Guarantee
        The per-release guarantee (pure ε, (ε, δ) or Laplace for the advanced rule's column).
    ks : sequence of int
        Numbers of releases.
    delta_prime : float
        The advanced composition theorem's δ′.
    fpr : float
        The false-positive rate of the TPR columns, in (0, 1).

    Returns
    -------
    list of dict
        One row per k.

    Raises
    ------
    ValueError
        If a k, ``delta_prime`` or ``fpr`` is out of range.
    """
    alpha = open_unit("fpr", fpr)
    rows = []
    for k in ks:
        c = compose(g, k)
        basic = basic_composition(g, k)
        row = {
            "k": float(_releases(k)),
            "advantage": c.advantage(),
            "advantage_attained": c.advantage_attained(),
            "tpr": float(c.tpr(alpha)),
            "tpr_attained": float(c.tpr_attained(alpha)),
            "basic_advantage": risk.advantage(basic),
            "basic_tpr": risk.tpr_bound(basic, alpha),
        }
        if g.model in ("pure", "approximate", "laplace"):
            adv = advanced_composition(g, k, delta_prime)
            row["advanced_epsilon"] = adv.epsilon
            row["advanced_advantage"] = risk.advantage(adv)
            row["advanced_tpr"] = risk.tpr_bound(adv, alpha)
        rows.append(row)
    return rows


# --- the averaging attack's own test ------------------------------------------------------------


def averaging_advantage(epsilon: float, k: int) -> float:
    """The advantage of the averaging attacker's own test against k Laplace releases of one count
    at ε each (noise b = Δ/ε): "the mean of the k answers exceeds the midpoint of the two worlds'
    answers", whose advantage P(``|W| < kε/2``) is the largest of the mean's threshold tests (W,
    the sum of k standard Laplace variables, is symmetric and unimodal). In closed form: W = G₁ − G₂
    with G₁, G₂ ~ Gamma(k), whose density at x is e^(−a) Σ_j C(k − 1 + j, j) 2^(−(k + j))
    a^(k − 1 − j)/(k − 1 − j)! with ``a = |x|``, so P(``|W| < c``) = Σ_(j < k) 2 NB(j; k, ½)
    P(k − j, c), a sum of positive terms (NB the negative binomial law, P the regularised lower
    incomplete gamma function, scipy's ``gammainc``): full double precision at any k.

    Parameters
    ----------
    epsilon : float
        The ε of each release, > 0.
    k : int
        The number of releases, at least 1.

    Returns
    -------
    float
        The advantage TPR − FPR of the mean's best threshold test.

    Raises
    ------
    ValueError
        If ``epsilon`` is not positive or ``k`` is not a positive integer.

    Examples
    --------
    >>> round(averaging_advantage(1.0, 1), 4), round(averaging_advantage(1.0, 10), 4)
    (0.3935, 0.7462)
    """
    e, n = positive("epsilon", epsilon), _releases(k)
    j = np.arange(n)
    terms = 2 * stats.nbinom.pmf(j, n, 0.5) * special.gammainc(n - j, n * e / 2)
    return min(float(math.fsum(terms)), 1.0)


# --- the inverses: per-release noise for a risk over k releases ------------------------------


def epsilon_per_release(target: risk.RiskTarget, k: int, delta: float = 0.0) -> float:
    """The largest ε per release at which k (ε, δ)-DP releases allow at most ``target`` on their
    exact composed curve (k-fold randomized response, with reveals for δ > 0): brentq in ε, then
    moved down by units in the last place until the composed reading is at most the target. NaN
    where no ε ≥ 0 does (k releases at (0, δ) already allow 1 − (1 − δ)^k).

    Parameters
    ----------
    target : risk.RiskTarget
        The risk over all k releases (advantage, TPR at an FPR, or singling out by its bound).
    k : int
        The number of releases, at least 1.
    delta : float
        The δ of each release, in [0, 1).

    Returns
    -------
    float
        The per-release ε.

    Raises
    ------
    ValueError
        If ``k`` or ``delta`` is out of range.

    Examples
    --------
    >>> round(epsilon_per_release(risk.at_most_advantage(0.25), 10), 4)
    0.2068
    """
    n = _releases(k)
    d = float(delta)
    if not 0 <= d < 1:
        raise ValueError(f"delta must lie in [0, 1), got {delta!r}")

    def read(e: float) -> float:
        c = compose(risk.approximate(max(e, 0.0), d), n)
        return c.advantage() if target.kind == "advantage" else float(c.tpr(target.fpr))

    if read(0.0) > target.value:
        return math.nan
    single = risk.epsilon_for(target, 0.0)  # one release at kε would allow it: ε ≥ that/k
    high = max(single, 1e-300)
    while read(high) <= target.value:
        high *= 2
    low = single / n if d == 0 else 0.0
    if read(low) > target.value:
        low = 0.0
    found = optimize.brentq(lambda e: read(e) - target.value, low, high, xtol=1e-15, rtol=1e-14)
    return max(risk.safe_side(found, target.value, (read,), toward=-math.inf), 0.0)


def gaussian_noise_per_release(target: risk.RiskTarget, k: int, sensitivity: float = 1.0) -> float:
    """The least Gaussian σ per release at which k releases of sensitivity Δ allow at most
    ``target``: their composition is one Gaussian of shift √k Δ/σ (exact), so σ = √k Δ/μ with
    μ = ``risk.mu_for``, moved up until the composed risk, read exactly (mpmath) and as printed, is
    at most the target.

    Parameters
    ----------
    target : risk.RiskTarget
        The risk over all k releases.
    k : int
        The number of releases, at least 1.
    sensitivity : float
        Δ of each release, > 0.

    Returns
    -------
    float
        σ per release.

    Raises
    ------
    ValueError
        If ``k`` or ``sensitivity`` is out of range.

    Examples
    --------
    >>> round(gaussian_noise_per_release(risk.at_most_advantage(0.25), 100), 4)
    15.6917
    """
    n, width = _releases(k), positive("sensitivity", sensitivity)
    start = math.sqrt(n) * width / risk.mu_for("Gaussian", target)

    def exact(sigma: float) -> Any:
        with mpmath.workdps(risk.EXACT_DIGITS):
            mu = mpmath.sqrt(n) * risk.as_exact(width) / risk.as_exact(sigma)
            return risk.exact_reading(risk.Guarantee("gdp", mu=mu), target)

    def printed(sigma: float) -> float:
        return risk.reading(risk.gdp(math.sqrt(n) * width / sigma), target)

    return risk.safe_side(start, target.value, (exact, printed))


def laplace_noise_per_release(
    target: risk.RiskTarget, k: int, sensitivity: float = 1.0, grid_step: float = 1e-3
) -> float:
    """The least Laplace scale b per release at which k releases of sensitivity Δ allow at most
    ``target`` on dp-accounting's pessimistic composed curve (a bound on the true one), less
    ``privacy_loss.ACCOUNTANT_MARGIN`` (the FFT's last bits differ between CPUs): brentq in log b
    to a relative 1e-6, the larger end kept.

    Parameters
    ----------
    target : risk.RiskTarget
        The risk over all k releases.
    k : int
        The number of releases, at least 1.
    sensitivity : float
        Δ of each release, > 0.
    grid_step : float
        dp-accounting's discretisation of the privacy loss.

    Returns
    -------
    float
        b per release.

    Raises
    ------
    ValueError
        If ``k``, ``sensitivity`` or ``grid_step`` is out of range.

    Examples
    --------
    >>> round(laplace_noise_per_release(risk.at_most_advantage(0.25), 10), 2)
    4.78
    """
    n, width = _releases(k), positive("sensitivity", sensitivity)
    step = positive("grid_step", grid_step)
    limit = target.value - privacy_loss.ACCOUNTANT_MARGIN

    def excess(log_b: float) -> float:
        c = compose(risk.laplace(width / math.exp(log_b)), n, grid_step=step)
        value = c.advantage() if target.kind == "advantage" else float(c.tpr(target.fpr))
        return value - limit

    # one release of the k-fold sum's noise: b for a single Laplace release, times k (basic) above
    low = math.log(width / risk.mu_for("Laplace", target))
    high = low + math.log(n) + 1.0
    while excess(high) > 0:
        high += 1.0
    while excess(low) <= 0:
        low -= 1.0
    found = optimize.brentq(excess, low, high, xtol=1e-9, rtol=1e-6)
    b = math.exp(found)
    while excess(math.log(b)) > 0:
        b *= 1 + 1e-6
    return b
