"""Every displayed equation and derivation step of Kazan & Reiter (2024), main text and appendix,
checked by symbolic algebra (sympy) or, for inequalities and signs, by evaluation on a grid.

Each check returns a ``Step``: the equations it covers, what the paper states, how it was
checked, and the verdict, ``verified`` or ``slip`` (a step that does not hold as printed, with the
computation that shows it). A rational identity is checked by ``sympy.cancel`` (difference zero);
one with roots, logarithms or exponentials by its difference at ``POINTS`` seeded random points of
its domain in 50-digit arithmetic (below 1e-30). Limits and series are sympy's; inequalities and
signs are evaluated on a grid of the stated domain.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import numpy as np
import pandas as pd
import sympy as sp

from choosing_epsilon import risk_profiles as rp

p, q, r, a, b, x, eps = sp.symbols("p q r a b x epsilon", positive=True)
# Eq. (12)'s square root for a general r*: D(c) with c = 1/r* − pq
c = sp.Symbol("c", positive=True)
ROOT_C = sp.sqrt((1 - p) ** 2 + 4 * p * (1 - q) * c)
EPS_C = sp.log(2 * p * (1 - q) / (ROOT_C - (1 - p)))  # Eq. (12), 0 < q < 1
# Lemma 2's function (r* = a/(pq)) and Lemma 3's (r* = r)
D2 = (1 - p) ** 2 + 4 * p**2 * q * (1 - q) * (1 / a - 1)
EPS2 = sp.log(2 * p * (1 - q)) - sp.log(sp.sqrt(D2) - (1 - p))
D3 = (1 - p) ** 2 + 4 * p * (1 - q) * (1 / r - p * q)
EPS3 = sp.log(2 * p * (1 - q)) - sp.log(sp.sqrt(D3) - (1 - p))

VERIFIED, SLIP = "verified", "slip"
POINTS = 100  # random points per identity that sympy.cancel cannot close
MECHANISMS_DRAWN = 200  # how many random ε-DP mechanisms (and priors) test Lemma 1 and Theorem 1
# where random points are drawn for each symbol (by name); other symbols: (0.02, 0.98)
RANGES = {"r": (1.0, 10.0), "n": (2.0, 100.0), "rprime": (1.0, 2.0), "epsilon": (0.01, 5.0)}
_RNG_SEED = 20241210


@dataclass(frozen=True)
class Step:
    equations: str
    statement: str
    method: str
    verdict: str
    detail: str
    claim_id: str = ""  # the ledger row of a slip (data/published/kazan_reiter_2024.csv)


def _zero(expr: sp.Expr, symbols: tuple[sp.Symbol, ...], domain: Callable[..., bool]) -> str:
    """Check that ``expr`` is identically zero: ``sympy.cancel`` where the expression is rational,
    else at ``POINTS`` seeded random points of the domain (``domain`` filters them) in 50-digit
    arithmetic (mpmath); return how it was shown (raises if it is not zero)."""
    roots = any(isinstance(e, sp.Pow) and not e.exp.is_Integer for e in sp.preorder_traversal(expr))
    if not roots and not expr.has(sp.log, sp.exp) and sp.cancel(sp.together(expr)) == 0:
        return "sympy.cancel gives 0"
    f = sp.lambdify(symbols, expr, "mpmath")
    rng = np.random.default_rng(_RNG_SEED)
    names = [s.name for s in symbols]
    low, high = zip(*(RANGES.get(n, (0.02, 0.98)) for n in names))
    worst, tried, drawn = mpmath.mpf(0), 0, 0
    with mpmath.workdps(50):
        while tried < POINTS:
            drawn += 1
            if drawn > 100_000:
                raise AssertionError("the domain holds almost none of the sampled points")
            point = rng.uniform(low, high)
            if not domain(*point):
                continue
            value = f(*(mpmath.mpf(float(v)) for v in point))
            worst = max(worst, abs(mpmath.mpc(value)))
            tried += 1
    if worst > mpmath.mpf(10) ** -30:
        raise AssertionError(f"not an identity: |difference| up to {float(worst):.3g}")
    return f"zero to {float(worst):.0e} at {POINTS} seeded random points (50-digit arithmetic)"


def _identity(
    equations: str,
    statement: str,
    lhs: sp.Expr,
    rhs: sp.Expr,
    *symbols: sp.Symbol,
    domain: Callable[..., bool] = lambda *_: True,
) -> Step:
    how = _zero(lhs - rhs, symbols, domain)
    return Step(equations, statement, "symbolic identity", VERIFIED, how)


def _grid(n: int = 60) -> np.ndarray:
    return np.linspace(1 / (n + 1), n / (n + 1), n)


# --- the main text -----------------------------------------------------------------------------


def geometric_mechanism() -> list[Step]:
    """Eq. (2): the pmf sums to 1 and has variance 2e^{-ε}/(1 − e^{-ε})² (Sec. 2.1)."""
    k = sp.Symbol("k", integer=True, nonnegative=True)
    al = sp.Symbol("alpha", positive=True)

    def series(term: sp.Expr) -> sp.Expr:  # Σ_{k≥0} term for 0 < α < 1
        total = sp.summation(term, (k, 0, sp.oo))
        return total.args[0][0] if isinstance(total, sp.Piecewise) else total

    one_side = series(al**k)  # Σ α^k
    squares = series(k**2 * al**k)  # Σ k² α^k
    total = (1 - al) / (1 + al) * (2 * one_side - 1)
    second = (1 - al) / (1 + al) * 2 * squares
    return [
        Step(
            "Eq. (2)",
            "the two-sided geometric pmf sums to 1",
            "symbolic sum",
            VERIFIED if sp.simplify(total - 1) == 0 else SLIP,
            f"(1−α)/(1+α) (2 Σ α^k − 1) with Σ α^k = {one_side} simplifies to 1",
        ),
        Step(
            "Sec. 2.1 (after Eq. 2)",
            "the variance is 2e^{-ε}/(1 − e^{-ε})²",
            "symbolic sum",
            VERIFIED if sp.simplify(second - 2 * al / (1 - al) ** 2) == 0 else SLIP,
            f"(1−α)/(1+α) · 2 Σ k² α^k, Σ k² α^k = {sp.simplify(squares)}, gives 2α/(1−α)²",
        ),
    ]


def risk_measures() -> list[Step]:
    """Eqs. (4)-(6): the decomposition (5) and r = a/(pq), on a random joint distribution."""
    rng = np.random.default_rng(_RNG_SEED)
    joint = rng.random((2, 2, 5))  # (I, Y ∈ S, t*), normalised
    joint /= joint.sum()
    t = 2
    prior = joint.sum(axis=2)
    post = joint[:, :, t] / joint[:, :, t].sum()
    r_direct = post[1, 1] / prior[1, 1]
    value_part = (post[1, 1] / post[1].sum()) / (prior[1, 1] / prior[1].sum())
    inclusion_part = post[1].sum() / prior[1].sum()
    p_i, q_i = prior[1].sum(), prior[1, 1] / prior[1].sum()
    gap = max(abs(r_direct - value_part * inclusion_part), abs(r_direct - post[1, 1] / (p_i * q_i)))
    return [
        Step(
            "Eqs. (4)-(6)",
            "r = (value ratio) × (inclusion ratio), Eq. (5); r = a/(pq)",
            "a random joint distribution of (I, Y ∈ S, T*) (seeded)",
            VERIFIED if gap < 1e-12 else SLIP,
            f"largest difference {gap:.1e}",
        ),
    ]


def lemma1_on_random_mechanisms(epsilon: float = 0.7, trials: int = MECHANISMS_DRAWN) -> list[Step]:
    """Lemma 1 (Eqs. 10, 44-60) and Theorem 1's bound (Eqs. 63-67) on random ε-DP mechanisms,
    built from the rest of the data Y₋ᵢ, and priors satisfying Assumption 2."""
    rng = np.random.default_rng(_RNG_SEED)
    worst44 = worst10 = worst_bayes = worst_theorem1 = 0.0
    fixed_data_gap = math.inf
    for _ in range(trials):
        # P[T* = t | Y₋ᵢ = y′, I = 0] over 6 outputs for 3 values y′ of the rest of the data
        absent = rng.random((3, 6)) + 0.1
        absent /= absent.sum(axis=1, keepdims=True)
        # P[T* = t | Yᵢ = y, Y₋ᵢ = y′, I = 1] for 4 values y: the absent law tilted by e^u,
        # |u| <= ε/2, renormalised by a factor within e^{±ε/2}: an ε-DP pair by design, Eq. (1)
        present = absent * np.exp(rng.uniform(-epsilon / 2, epsilon / 2, (4, 3, 6)))
        present /= present.sum(axis=2, keepdims=True)
        ratio = present / absent
        if ratio.max() > math.exp(epsilon) or ratio.min() < math.exp(-epsilon):
            raise AssertionError("a mechanism outside ε-DP was drawn")
        # the adversary's P_M[Y₋ᵢ = y′ | I = 0], also its P_M[Y₋ᵢ | Yᵢ = y, I = 1] (Assumption 2)
        rest = rng.dirichlet(np.ones(3))
        absent_t = rest @ absent  # (48) by (47): P_M[T* = t | I = 0]
        present_t = np.einsum("yjt,j->yt", present, rest)  # (45): P_M[T* = t | Yᵢ = y, I = 1]
        worst44 = max(worst44, np.abs(np.log(present_t / absent_t)).max() / epsilon)
        # the same sum over the agency's fixed data (a point mass on y′ = 0) is not (48)
        fixed_data_gap = min(fixed_data_gap, np.abs(absent[0] / absent_t - 1).max())
        values = rng.dirichlet(np.ones(4))  # P_M[Yᵢ = y | I = 1]; S holds the first two
        q_s = values[:2].sum()
        joint = values[:, None] * present_t  # P_M[Yᵢ = y, T* = t | I = 1]
        given_s = joint[:2].sum(axis=0) / q_s
        given_not = joint[2:].sum(axis=0) / (1 - q_s)
        # (49)-(50): Bayes through the posterior P_M[Yᵢ ∈ S | T*, I = 1]; (53): the sum over S
        via_posterior = joint.sum(axis=0) * (joint[:2].sum(axis=0) / joint.sum(axis=0))
        via_posterior /= q_s * absent_t
        via_sum = (present_t[:2] / absent_t * values[:2, None]).sum(axis=0) / q_s
        direct = given_s / absent_t
        worst_bayes = max(worst_bayes, np.abs(via_posterior - direct).max())
        worst_bayes = max(worst_bayes, np.abs(via_sum - direct).max())
        worst10 = max(
            worst10,
            np.abs(np.log(direct)).max() / epsilon,
            np.abs(np.log(given_s / given_not)).max() / (2 * epsilon),
        )
        # Theorem 1: the relative risk (61) from the joint of (I, Yᵢ ∈ S, T*), against (67)
        p_i = rng.uniform(0.02, 0.98)
        total = q_s * p_i * given_s + (1 - q_s) * p_i * given_not + (1 - p_i) * absent_t  # (65)
        risk = (q_s * p_i * given_s / total) / (q_s * p_i)
        e = math.exp(-epsilon)
        bound = 1 / (q_s * p_i + e**2 * (1 - q_s) * p_i + e * (1 - p_i))
        worst_theorem1 = max(worst_theorem1, float(np.max(risk / bound)))
    how = f"{trials} random ε-DP mechanisms (ε = {epsilon}) and priors (seeded)"
    return [
        Step(
            "Eqs. (44)-(46), (48)",
            "P_M[T* | Yᵢ = y, I = 1] / P_M[T* | I = 0] lies in [e^{-ε}, e^{ε}], by total "
            "probability over Y₋ᵢ, Assumption 2 and Eq. (1)",
            how,
            VERIFIED if worst44 <= 1 + 1e-12 else SLIP,
            f"largest |log ratio| / ε {worst44:.4f} (≤ 1)",
        ),
        Step(
            "Eq. (47)",
            "e^ε Σ P_M[T* | Y₋ᵢ = y′, I = 0] P[Y₋ᵢ = y′ | I = 0]",
            "reading; " + how,
            SLIP,
            "(47) writes the mechanism's probability with the subscript M and the prior of Y₋ᵢ "
            "without it, the reverse of (45)-(46); (48) needs the adversary's P_M[Y₋ᵢ | I = 0] "
            "(Assumption 2), not the agency's P, for which the data are fixed: the sum over "
            "a point mass on the agency's y₋ᵢ differs from P_M[T* | I = 0] by at least "
            f"{fixed_data_gap:.1%} (relative, at some output) in each of the {trials} cases",
        ),
        Step(
            "Eqs. (49)-(53)",
            "Bayes' theorem and the sum over y ∈ S give the ratio as a weighted sum (53)",
            how,
            VERIFIED if worst_bayes < 1e-12 else SLIP,
            f"the three forms differ by at most {worst_bayes:.1e}",
        ),
        Step(
            "Lemma 1, Eqs. (10), (54)-(60)",
            "the ratios lie in [e^{-ε}, e^{ε}] and [e^{-2ε}, e^{2ε}]; (56) is their product",
            how,
            VERIFIED if worst10 <= 1 + 1e-12 else SLIP,
            f"largest |log ratio| / bound {worst10:.4f} (≤ 1)",
        ),
        Step(
            "Theorem 1, Eqs. (11), (61)-(67)",
            "rᵢ ≤ 1/(qp + e^{-2ε}(1−q)p + e^{-ε}(1−p))",
            how + ", each with a random p",
            VERIFIED if worst_theorem1 <= 1 + 1e-12 else SLIP,
            f"largest rᵢ / bound {worst_theorem1:.4f} (≤ 1)",
        ),
    ]


def theorems_1_and_2() -> list[Step]:
    """Theorem 1 (Eqs. 11, 61-67), Theorem 2 (Eqs. 12, 68-78), Corollaries 1 and 2."""
    l1, l2, l0 = sp.symbols("L1 L2 L0", positive=True)
    r_bayes = l1 / (l1 * q * p + l2 * (1 - q) * p + l0 * (1 - p))  # (63) with (65)
    eq66 = 1 / (q * p + l2 / l1 * (1 - q) * p + l0 / l1 * (1 - p))
    root = (ROOT_C - (1 - p)) / (2 * p * (1 - q))  # (72) at equality: e^{-ε}
    sq = (4 * p * (1 - q) * c + 2 * (1 - p) ** 2 - 2 * (1 - p) * ROOT_C) / (4 * p**2 * (1 - q) ** 2)
    eq74 = c / (p * (1 - q)) + ((1 - p) ** 2 - (1 - p) * ROOT_C) / (2 * p**2 * (1 - q) ** 2)
    # (70)'s denominator with e^{-2ε} and e^{-ε} at their lower bounds (74) and (72)
    bound_at_root = q * p + eq74 * (1 - q) * p + root * (1 - p)
    eq75 = (
        q * p
        + c / (p * (1 - q)) * (1 - q) * p
        + ((1 - p) ** 2 - (1 - p) * ROOT_C) / (2 * p**2 * (1 - q) ** 2) * (1 - q) * p
        + (ROOT_C - (1 - p)) / (2 * p * (1 - q)) * (1 - p)
    )
    half = ((1 - p) - ROOT_C) * (1 - p) / (2 * p * (1 - q))
    eq76 = q * p + c + half - half
    e = sp.exp(-eps)
    cor1 = [
        (q * p + e**2 * (1 - q) * p + e**2 * (1 - p), q * p + e**2 * (1 - q * p)),
        (q * p + e**2 * (1 - q * p), e**2 + q * p * (1 - e**2)),
    ]
    cor2 = sp.log(2 * (1 - q) / sp.sqrt(4 * (1 - q) * c))
    in_unit = lambda *v: all(0 < t < 1 for t in v)  # noqa: E731
    steps = [
        _identity(
            "Eqs. (61)-(66)",
            "Bayes' theorem and the total probability (64)-(65) give (66)",
            r_bayes,
            eq66,
            l1,
            l2,
            l0,
            p,
            q,
        ),
        _identity(
            "Eqs. (71)-(72)",
            "e^{-ε} at equality in (71) is the bound (72)",
            sp.exp(-EPS_C),
            root,
            p,
            q,
            c,
            domain=in_unit,
        ),
        _identity("Eq. (73)", "the square of (72)", root**2, sq, p, q, c, domain=in_unit),
        _identity("Eq. (74)", "(73) simplified", sq, eq74, p, q, c, domain=in_unit),
        _identity(
            "Eqs. (70)-(75)",
            "(70)'s denominator with e^{-2ε}, e^{-ε} at their bounds (74), (72) (a lower bound, "
            "their factors (1−q)p and 1−p being ≥ 0) is the sum (75)",
            bound_at_root,
            eq75,
            p,
            q,
            c,
            domain=in_unit,
        ),
        _identity("Eqs. (75)-(76)", "(75) multiplied out", eq75, eq76, p, q, c, domain=in_unit),
        _identity(
            "Eqs. (76)-(77)",
            "the last two terms of (76) cancel: qp + (1/r* − pq) = 1/r*",
            eq76,
            c + p * q,
            p,
            q,
            c,
        ),
        _identity(
            "Eq. (68)",
            "Theorem 1's denominator (11) at q = 1 is p + e^{-ε}(1−p)",
            (q * p + e**2 * (1 - q) * p + e * (1 - p)).subs(q, 1),
            p + e * (1 - p),
            p,
            eps,
        ),
        _identity(
            "Eq. (69)",
            "q = 1: p + (1/r* − p)/(1−p) · (1−p) = 1/r*",
            p + c / (1 - p) * (1 - p),
            p + c,
            p,
            c,
        ),
        _identity(
            "Eq. (12), q = 1",
            "Theorem 2's second case solves p + e^{-ε}(1−p) = 1/r*",
            p + (c / (1 - p)) * (1 - p),
            c + p,
            p,
            c,
        ),
    ]
    steps += [
        _identity("Eqs. (80)-(81)", "Corollary 1: combining terms", lhs, rhs, p, q, eps)
        for lhs, rhs in cor1
    ]
    steps.append(
        _identity(
            "Eqs. (83)-(85)",
            "Corollary 2: Eq. (12) at p = 1",
            EPS_C.subs(p, 1),
            cor2,
            q,
            c,
            domain=in_unit,
        )
    )
    return steps


def section4_statements() -> list[Step]:
    """The closed forms and claims of Secs. 4-5 and App. B.2, D.1, D.2."""
    rp_ = sp.Symbol("rprime", positive=True)
    point = sp.log((1 - sp.Rational(1, 2)) / (1 / rp_ - sp.Rational(1, 2)))
    n = sp.Symbol("n", positive=True)
    eq38 = sp.log((1 - 1 / n) / (1 / (n * a) - 1 / n))
    e = sp.exp(-eps)
    eq43 = (q / (q + e**2 * (1 - q)), q * (1 / (q + e**2 * (1 - q))))
    bound_at_p_one = (1 / (q * p + e**2 * (1 - q) * p + e * (1 - p))).subs(p, 1)
    forms = _profile_forms()
    # Eq. (29): εᵢ(1, q) for r* = 1 + b/q is ½ log((1−q)(q+b)/(q(1−q−b))), stationary at
    # q = (1−b)/2, where it equals log((1+b)/(1−b))
    diff_eps = sp.Rational(1, 2) * sp.log((1 - q) * (q + b) / (q * (1 - q - b)))
    below_one = lambda v: v < 1  # noqa: E731
    at_half = _zero(diff_eps.subs(q, (1 - b) / 2) - sp.log((1 + b) / (1 - b)), (b,), below_one)
    stationary = _zero(sp.diff(diff_eps, q).subs(q, (1 - b) / 2), (b,), below_one)
    series = sp.series(sp.log((1 + b) / (1 - b)), b, 0, 3).removeO()
    lower = _lower_bound_half_log_r()
    steps = [
        _identity(
            "Sec. 4 (point profile)",
            "r*(0.5, 1) = r′ gives ε = log(r′/(2 − r′))",
            point,
            sp.log(rp_ / (2 - rp_)),
            rp_,
            domain=lambda v: v < 2,
        ),
        _identity(
            "Eq. (38)",
            "log((1 − 1/n)/(1/(nã) − 1/n)) = log((n − 1)ã/(1 − ã))",
            eq38,
            sp.log((n - 1) * a / (1 - a)),
            n,
            a,
            domain=lambda nn, aa: nn * aa > 1,
        ),
        _identity(
            "Eq. (43)",
            "Theorem 1 at p = 1 is 1/(q + e^{-2ε}(1 − q))",
            bound_at_p_one,
            1 / (q + e**2 * (1 - q)),
            q,
            eps,
        ),
        _identity("Eq. (43)", "ratio bound times q is the posterior bound", *eq43, q, eps),
        forms,
        _identity(
            "Footnote 8, Eqs. (27)-(28)",
            "posterior − prior ≤ b̃ ⟺ r ≤ (pq + b̃)/(pq)",
            (p * q + b) / (p * q),
            1 + b / (p * q),
            p,
            q,
            b,
        ),
        Step(
            "Eq. (29)",
            "the difference profile's ε is log((1 + b̃)/(1 − b̃))",
            "symbolic: εᵢ(1, q) stationary at q = (1 − b̃)/2 with that value; the solver "
            "(tests) finds the minimum there",
            VERIFIED,
            f"the value: {at_half}; the derivative there: {stationary}",
        ),
        Step(
            "Eq. (30)",
            "log(1 + b̃) − log(1 − b̃) ≈ (b̃ − b̃²/2) + (b̃ + b̃²/2) = 2b̃",
            "sympy series to second order",
            VERIFIED if sp.simplify(series - 2 * b) == 0 else SLIP,
            f"series to O(b̃³): {series}",
        ),
        Step(
            "Sec. 4",
            "when pq = ã (r* = 1) the recommended ε is 0",
            "symbolic: Eq. (11) with e^{-ε} = 1 equals 1 = 1/r*",
            VERIFIED,
            f"qp + (1−q)p + (1−p) simplifies to {sp.simplify(q * p + (1 - q) * p + (1 - p))}",
        ),
        lower,
    ]
    return steps


def _profile_forms() -> Step:
    """Eqs. (15)-(16) and footnotes 6-7: max{ã/(x·c̃), r̃} equals its piecewise form (a grid)."""
    worst = 0.0
    cases = 0
    for a_t in (0.01, 0.1, 0.25, 0.5, 0.9):
        for r_t in (1.2, 3.0, 6.0):
            # c̃ is the fixed prior (q̃ in (15), p̃ in (16)), on both sides of ã/r̃ (footnotes)
            for fixed in (0.5 * a_t / r_t, a_t / r_t, 0.3, 0.999, 1.0):
                x = np.append(_grid(400), [1.0, min(1.0, a_t / (fixed * r_t))])
                as_max = np.maximum(a_t / (x * fixed), r_t)
                kink = a_t / (fixed * r_t)
                piecewise = np.where(x < kink, a_t / (x * fixed), r_t)
                worst = max(worst, float(np.max(np.abs(as_max - piecewise))))
                cases += 1
    return Step(
        "Eqs. (15)-(16), footnotes 6-7",
        "max{ã/(p q̃), r̃} = ã/(p q̃) below p = ã/(q̃ r̃), r̃ from there (and in q for (16)); "
        "where q̃ ≤ ã/r̃ the first case covers every p ≤ 1",
        f"evaluation at 402 priors in {cases} cases of (ã, r̃, the fixed prior)",
        VERIFIED if worst < 1e-12 else SLIP,
        f"largest difference {worst:.1e} (rounding at the kink)",
    )


def _lower_bound_half_log_r() -> Step:
    """Sec. 4: the fixed-q̃ and fixed-p̃ profiles' ε is at least ½ log r̃ (grid of inputs)."""
    worst = math.inf
    for r_t in (1.2, 1.5, 3, 6, 20):
        for a_t in (0.01, 0.1, 0.25, 0.5, 0.9):
            for prior in (0.001, 0.01, 0.05, 0.2, 0.5, 0.9, 1.0):
                half = 0.5 * math.log(r_t)
                worst = min(
                    worst,
                    rp.fixed_q_epsilon(a_t, prior, r_t) - half,
                    rp.fixed_p_epsilon(a_t, prior, r_t) - half,
                )
    return Step(
        "Sec. 4 (after Eq. 16)",
        "the ε of profiles (15) and (16) is at least ½ log r̃",
        "Theorems 4 and 5 on a grid of 175 inputs each",
        VERIFIED if worst >= -1e-12 else SLIP,
        f"smallest ε − ½ log r̃: {worst:.4f}",
    )


# --- the appendix proofs ------------------------------------------------------------------------


def lemma2() -> list[Step]:
    """Lemma 2 (Eqs. 20, 86-107), step by step."""
    in_unit = lambda *v: all(0 < t < 1 for t in v)  # noqa: E731
    k = 1 / a - 1
    root = sp.sqrt(D2)
    eq87 = sp.log(2 * p * (1 - q)) - sp.log(
        sp.sqrt((1 - p) ** 2 + 4 * p * (1 - q) * (p * q / a - p * q)) - (1 - p)
    )
    # ∂ε/∂p, Eqs. (89)-(94); (91) as printed, with −[(1−p) − p]√D, and with the sign that
    # (90) gives and (92) uses, −[(1−p) + p]√D
    eq89 = 1 / p - ((-2 * (1 - p) + 8 * p * q * (1 - q) * k) / (2 * root) + 1) / (root - (1 - p))
    eq90 = 1 / p + (((1 - p) - 4 * p * q * (1 - q) * k - root) / root) / (root - (1 - p))

    def eq91(sign: int) -> sp.Expr:
        top = D2 + p * (1 - p) - 4 * p**2 * q * (1 - q) * k - ((1 - p) + sign * p) * root
        return (top / root) / (p * (root - (1 - p)))

    eq92 = ((((1 - p) + p) * (1 - p) - root) / root) / (p * (root - (1 - p)))
    eq93 = (-(root - (1 - p)) / root) / (p * (root - (1 - p)))
    eq94 = -1 / (p * root)
    # ∂ε/∂q, Eqs. (95)-(97); (96) as printed has 4²qᵢ where (95) and (97) have 4pᵢ²qᵢ
    dq = sp.diff(EPS2, q)
    d_qq = sp.diff(q * (1 - q), q)
    eq95 = -1 / (1 - q) - (4 * p**2 * k * d_qq / (2 * root)) / (root - (1 - p))

    def eq96(coefficient: sp.Expr) -> sp.Expr:
        printed_root = sp.sqrt((1 - p) ** 2 + coefficient * q * (1 - q) * k)
        top = root - (1 - p) + 2 * p**2 * k * (1 - q) * d_qq / root
        return -top / ((1 - q) * (printed_root - (1 - p)))

    eq97 = -(D2 - (1 - p) * root + 2 * p**2 * k * (1 - q) * (1 - 2 * q)) / (
        root * (1 - q) * (root - (1 - p))
    )
    eq99 = D2 - (1 - p) * root + 2 * p**2 * k * (1 - q) * d_qq
    eq100 = (
        (1 - p) ** 2
        + 2 * p**2 * (1 - q) * (2 * q) * k
        - (1 - p) * root
        + 2 * p**2 * (1 - q) * k * (1 - 2 * q)
    )
    g = (1 - p) ** 2 - (1 - p) * root + 2 * p**2 * (1 - q) * k  # (101)
    eq102 = -(1 - p) * 4 * p**2 * (1 - 2 * q) * k / (2 * root) - 2 * p**2 * k
    eq103 = -2 * p**2 * k * ((1 - p) * (1 - 2 * q) / root + 1)
    eq104 = -2 * p**2 * k * (1 - (1 - p) * (2 * q - 1) / root)
    eq105 = -2 * p**2 * k * (1 - (1 - p) * 1 / (1 - p))
    at = {p: sp.Rational(3, 10), q: sp.Rational(1, 2), a: sp.Rational(1, 10)}
    printed91, right91 = float(eq91(-1).subs(at)), float(eq90.subs(at))
    printed96, right96 = float(eq96(sp.Integer(16)).subs(at)), float(eq95.subs(at))
    eight96 = float(eq96(sp.Integer(8)).subs(at))
    corrected91 = _zero(eq91(1) - eq90, (p, q, a), in_unit)
    corrected96 = _zero(eq96(4 * p**2) - eq95, (p, q, a), in_unit)

    def step(equations: str, statement: str, lhs: sp.Expr, rhs: sp.Expr) -> Step:
        return _identity(equations, statement, lhs, rhs, p, q, a, domain=in_unit)

    steps = [
        step(
            "Eqs. (86)-(88)",
            "Lemma 2's ε rewritten",
            EPS_C.subs(c, 1 / (a / (p * q)) - p * q),
            EPS2,
        ),
        step("Eq. (87)", "the middle form", eq87, EPS2),
        step("Eqs. (88)-(89)", "∂/∂p of (88), term by term", sp.diff(EPS2, p), eq89),
        step("Eqs. (89)-(90)", "the inner derivative combined over 2√D", eq89, eq90),
        Step(
            "Eq. (91)",
            "(90) over the common denominator p√D(√D − (1−p)), with −[(1−p) − p]√D",
            "evaluation; symbolic identity",
            SLIP,
            "the common denominator gives −(1−p)√D from the first term and −p√D from the "
            "second, −[(1−p) + p]√D, as (92) then uses: at p = 0.3, q = 0.5, ã = 0.1 the printed "
            f"(91) is {printed91:.4f} and (90) {right91:.4f}; with + it equals (90): "
            f"{corrected91}",
        ),
        step("Eqs. (90)-(92)", "(90) = (92), through (91) with the sign corrected", eq90, eq92),
        step("Eqs. (92)-(93)", "(1−p)² + p(1−p) = 1 − p in the numerator", eq92, eq93),
        step("Eqs. (93)-(94)", "∂ε/∂p = −1/(p√D)", eq93, eq94),
        step("Eq. (95)", "∂ε/∂q, term by term", dq, eq95),
        Step(
            "Eq. (96)",
            "(95) over the common denominator; the root in its denominator reads 4²qᵢ(1−qᵢ)",
            "evaluation; symbolic identity",
            SLIP,
            "a typo: the denominator's root has 4²qᵢ where the numerator's, (95) and (97) have "
            f"4pᵢ²qᵢ; at p = 0.3, q = 0.5, ã = 0.1 the printed (96) is {printed96:.4f} "
            f"({eight96:.4f} reading 4·2), (95) {right96:.4f}; with 4pᵢ² it equals (95): "
            f"{corrected96}",
        ),
        step("Eqs. (95)-(97)", "∂ε/∂q as the fraction (97)", eq95, eq97),
        _signs(
            "Eq. (98)",
            "√D − (1−p) > 0, so (97)'s denominator is positive",
            [(root - (1 - p), 1)],
            (p, q, a),
            lambda pp, qq, aa: True,
        ),
        step(
            "Eqs. (99)-(100)", "g, the numerator of (97), with ∂/∂q[q(1−q)] = 1 − 2q", eq99, eq100
        ),
        step("Eqs. (100)-(101)", "g simplified", eq100, g),
        step("Eqs. (101)-(102)", "g′(q)", sp.diff(g, q), eq102),
        step("Eqs. (102)-(103)", "g′(q) factored", eq102, eq103),
        step("Eqs. (103)-(104)", "(103) with 2q − 1 for 1/2 < q < 1", eq103, eq104),
        _identity("Eq. (107)", "g(1) = 0", g.subs(q, 1), sp.Integer(0), p, a),
        _signs(
            "Lemma 2, items 1-2",
            "∂ε/∂p < 0 and ∂ε/∂q < 0 on (0, 1)²",
            [(sp.diff(EPS2, p), -1), (dq, -1)],
            (p, q, a),
            lambda pp, qq, aa: True,
        ),
    ]
    value105 = sp.simplify(eq105)
    steps.append(
        Step(
            "Eqs. (104)-(106)",
            "the chain (104) < (105) < 0",
            "symbolic",
            SLIP if value105 == 0 else VERIFIED,
            f"(105) = −2p²(1/ã − 1)(1 − (1 − p)/(1 − p)) simplifies to {value105}: it "
            "is 0, not negative; g′ < 0 still follows from (104) < (105) = 0",
        )
    )
    return steps


def lemma3() -> list[Step]:
    """Lemma 3 (Eqs. 21, 108-140), step by step."""

    def domain(pp: float, qq: float, rr: float) -> bool:
        return 0 < pp < 1 and 0 < qq < 1 and rr * pp * qq < 1

    def step(equations: str, statement: str, lhs: sp.Expr, rhs: sp.Expr) -> Step:
        return _identity(equations, statement, lhs, rhs, p, q, r, domain=domain)

    root = sp.sqrt(D3)
    bracket = root - (1 - p)
    # ∂ε/∂p, Eqs. (110)-(114)
    eq110 = 1 / p - (sp.diff(D3, p) / (2 * root) + 1) / bracket
    d_p = -2 * (1 - p) + 4 * (1 - q) * (1 / r - p * q) - 4 * p * (1 - q) * q
    eq111 = 1 / p - ((d_p + 2 * root) / (2 * root)) / bracket
    rest = p * (1 - p) - 2 * p * (1 - q) * (1 / r - p * q) + 2 * p**2 * (1 - q) * q
    eq112 = ((D3 - (1 - p) * root) / root) / (p * bracket) + ((rest - p * root) / root) / (
        p * bracket
    )
    eq113 = ((D3 + rest - root) / root) / (p * bracket)
    eq114 = (2 * p * (1 - q) / r + (1 - p) - root) / (p * bracket * root)
    eq115 = (2 * p * (1 - q) / r / bracket - 1) / (p * root)
    # Eqs. (116)-(121): the square of 2p(1−q)/r̃ + (1−p), expanded and regrouped
    extra = 4 * p**2 * (1 - q) * (r**2 - 1) / r**2 * (q - 1 / (r + 1))
    eq117 = (2 * p * (1 - q) / r + (1 - p)) ** 2
    eq117_right = 4 * p**2 * (1 - q) ** 2 / r**2 + 4 * p * (1 - p) * (1 - q) / r + (1 - p) ** 2
    eq118 = eq117_right - extra + extra
    inner119 = p * (1 - q) / r**2 + (1 - p) / r - p * (r**2 - 1) / r**2 * (q - 1 / (r + 1))
    eq119 = 4 * p * (1 - q) * inner119 + extra + (1 - p) ** 2
    inner120 = (
        1 / r + p * (1 / r**2 - 1 / r + (r - 1) / r**2) - p * q * (1 / r**2 + (r**2 - 1) / r**2)
    )
    eq120 = 4 * p * (1 - q) * inner120 + extra + (1 - p) ** 2
    eq121 = 4 * p * (1 - q) * (1 / r - p * q) + extra + (1 - p) ** 2
    # ∂ε/∂q, Eqs. (125)-(127), and g, Eqs. (129)-(133)
    dq = sp.diff(EPS3, q)
    d_q = sp.diff((1 - q) * (1 / r - p * q), q)
    eq125 = -1 / (1 - q) - (4 * p * d_q / (2 * root)) / bracket
    eq126 = -(bracket + 2 * p * (1 - q) * d_q / root) / ((1 - q) * bracket)
    eq127 = -(D3 - (1 - p) * root + 2 * p * (1 - q) * d_q) / (root * (1 - q) * bracket)
    eq129 = D3 - (1 - p) * root + 2 * p * (1 - q) * d_q
    eq130 = (
        (1 - p) ** 2
        + 2 * p * (1 - q) * (2 / r - 2 * p * q)
        - (1 - p) * root
        + 2 * p * (1 - q) * (2 * p * q - p - 1 / r)
    )
    g = (1 - p) ** 2 - (1 - p) * root + 2 * p * (1 - q) * (1 / r - p)  # (131)
    eq132 = -(1 - p) * 4 * p * (2 * p * q - p - 1 / r) / (2 * root) - 2 * p * (1 / r - p)
    eq133 = 2 * p * ((1 - p) * (2 * p * (1 - q) + (1 / r - p)) / root - (1 / r - p))
    eq134 = 2 * p * ((1 - p) * (2 * p * (1 - q) - (p - 1 / r)) / root + (p - 1 / r))
    eq135 = 2 * p * ((1 - p) * (p - 1 / r) / sp.sqrt((1 - p) ** 2) + (p - 1 / r))
    eq139 = 2 * p * (1 - 1 / (p * r)) * (1 / r - p)
    worst_g = _grid_min(sp.diff(g, q), domain)
    fails135, above, example135 = _lemma3_eq135(eq134, eq135, domain)
    steps = [
        step(
            "Eqs. (108)-(109)",
            "Lemma 3's ε as a difference of logs",
            EPS_C.subs(c, 1 / r - p * q),
            EPS3,
        ),
        step("Eqs. (109)-(110)", "∂/∂p of (109), term by term", sp.diff(EPS3, p), eq110),
        step("Eqs. (110)-(111)", "∂D/∂p written out, over 2√D", eq110, eq111),
        step("Eqs. (111)-(112)", "1/p split off as (D − (1−p)√D)/(p√D(√D − (1−p)))", eq111, eq112),
        step("Eqs. (112)-(113)", "the two fractions added", eq112, eq113),
        step("Eqs. (113)-(114)", "the numerator simplified", eq113, eq114),
        step("Eq. (115)", "(114) rearranged", eq114, eq115),
        step("Eq. (117)", "the square expanded", eq117, eq117_right),
        step("Eqs. (117)-(118)", "the term of (116) added and subtracted", eq117_right, eq118),
        step("Eqs. (118)-(119)", "4p(1−q) factored out", eq118, eq119),
        step("Eqs. (119)-(120)", "regrouped by p and pq", eq119, eq120),
        step("Eqs. (120)-(121)", "the brackets are 0 and 1", eq120, eq121),
        _identity(
            "Eqs. (116), (121)",
            "(2p(1−q)/r̃ + (1−p))² = D + 4p²(1−q)(r̃²−1)/r̃² (q − 1/(r̃+1))",
            eq117,
            D3 + extra,
            p,
            q,
            r,
        ),
        _identity(
            "Eq. (122)",
            "at q = 1/(r̃+1): 2p(1−q)/r̃ = √D − (1−p)",
            (2 * p * (1 - q) / r).subs(q, 1 / (r + 1)),
            bracket.subs(q, 1 / (r + 1)),
            p,
            r,
            domain=lambda pp, rr: pp < 1,
        ),
        step("Eq. (125)", "∂ε/∂q, term by term", dq, eq125),
        step("Eqs. (125)-(126)", "over the common denominator (1−q)(√D − (1−p))", eq125, eq126),
        step("Eqs. (126)-(127)", "∂ε/∂q as the fraction (127)", eq126, eq127),
        _signs(
            "Eq. (128)",
            "√D − (1−p) > 0 where r̃ < 1/(pq), so (127)'s denominator is positive",
            [(bracket, 1)],
            (p, q, r),
            domain,
        ),
        step("Eqs. (129)-(130)", "g with ∂/∂q[(1−q)(1/r̃ − pq)] = 2pq − p − 1/r̃", eq129, eq130),
        step("Eqs. (130)-(131)", "g simplified", eq130, g),
        step("Eqs. (131)-(132)", "g′(q)", sp.diff(g, q), eq132),
        step("Eqs. (132)-(133)", "g′(q) factored", eq132, eq133),
        step("Eqs. (133)-(134)", "(133) written with p − 1/r̃", eq133, eq134),
        Step(
            "Eq. (135)",
            "(134) > 2p[(1−p)(p − 1/r̃)/√((1−p)²) + (p − 1/r̃)]",
            "evaluation on a grid of the domain (5 values of r̃, 99 of p, 199 of q)",
            SLIP if fails135 else VERIFIED,
            "the numerator's 2p(1−q) − (p − 1/r̃) is rightly lowered to p − 1/r̃, but then √D "
            "is replaced by the smaller 1 − p, which raises the fraction wherever p > 1/r̃: "
            f"there (134) ≤ (135) at {fails135} of {above} grid points, e.g. at {example135}",
        ),
        _identity(
            "Eqs. (135)-(136)",
            "(135) = 4p(p − 1/r̃)",
            eq135,
            4 * p * (p - 1 / r),
            p,
            r,
            domain=lambda pp, rr: pp < 1,
        ),
        _identity(
            "Eqs. (138)-(139)",
            "g(1/(pr̃))",
            g.subs(q, 1 / (p * r)),
            eq139,
            p,
            r,
            domain=lambda pp, rr: pp * rr > 0,
        ),
        _identity(
            "Eqs. (139)-(140)",
            "g(1/(pr̃)) = −2(pr̃ − 1)²/r̃² < 0 (0 only at pr̃ = 1, where 1/(pr̃) = 1)",
            eq139,
            -2 * (p * r - 1) ** 2 / r**2,
            p,
            r,
        ),
        _signs(
            "Lemma 3, items 1-4",
            "the signs of ∂ε/∂p (by q against 1/(r̃+1)) and ∂ε/∂q > 0 where r̃ < 1/(pq)",
            [(dq, 1)],
            (p, q, r),
            domain,
        ),
        _lemma3_p_signs(),
        Step(
            "Eq. (137)",
            "(136) = 4p(p − 1/r̃) > 0",
            "evaluation",
            SLIP,
            f"4p(p − 1/r̃) = {4 * 0.1 * (0.1 - 1 / 3):.4f} < 0 at p = 0.1, r̃ = 3: the last "
            "step fails wherever p < 1/r̃; g′ is positive there all the same (smallest value "
            f"on a grid of the domain {worst_g:.2e}), so item 4 of Lemma 3 holds, not its proof",
        ),
    ]
    return steps


def _lemma3_eq135(
    eq134: sp.Expr, eq135: sp.Expr, domain: Callable[..., bool]
) -> tuple[int, int, str]:
    """Where p > 1/r̃, count the grid points at which (134) > (135) fails; one example."""
    f = sp.lambdify((p, q, r), (eq134, eq135), "numpy")
    fails = above = 0
    for rr in (1.2, 1.5, 3.0, 6.0, 20.0):
        for pp in _grid(99):
            if pp <= 1 / rr:
                continue
            qs = _grid(199)
            qs = qs[[domain(pp, qq, rr) for qq in qs]]
            v134, v135 = f(pp, qs, rr)
            above += qs.size
            fails += int(np.sum(v134 <= v135))
    v134, v135 = (float(v) for v in f(0.9, 0.1, 3.0))
    example = f"p = 0.9, q = 0.1, r̃ = 3: (134) = {v134:.4f}, (135) = {v135:.4f}"
    return fails, above, example


def _grid_min(expr: sp.Expr, domain: Callable[..., bool]) -> float:
    f = sp.lambdify((p, q, r), expr, "numpy")
    worst = math.inf
    for rr in (1.2, 1.5, 3.0, 6.0, 20.0):
        for pp in _grid(99):
            qs = _grid(199) * min(1.0, 1 / (pp * rr))
            qs = qs[[domain(pp, qq, rr) for qq in qs]]
            worst = min(worst, float(np.min(f(pp, qs, rr))))
    return worst


def _signs(
    equations: str,
    statement: str,
    checks: list[tuple[sp.Expr, int]],
    symbols: tuple[sp.Symbol, ...],
    domain: Callable[..., bool],
) -> Step:
    """Each expression has the stated sign (−1 or 1) on a grid of the domain."""
    worst = math.inf
    for expr, sign in checks:
        f = sp.lambdify(symbols, sign * expr, "numpy")
        for third in (0.05, 0.25, 0.5, 0.9) if symbols[2] == a else (1.2, 1.5, 3.0, 6.0):
            for pp in _grid(60):
                qs = _grid(60)
                qs = qs[[domain(pp, qq, third) for qq in qs]]
                if qs.size:
                    worst = min(worst, float(np.min(f(pp, qs, third))))
    return Step(
        equations,
        statement,
        "evaluation on a 60 × 60 grid of the domain, 4 values of the third input",
        VERIFIED if worst > 0 else SLIP,
        f"smallest signed value {worst:.2e} (> 0)",
    )


def _lemma3_p_signs() -> Step:
    f = sp.lambdify((p, q, r), sp.diff(EPS3, p), "numpy")
    bad = 0
    for rr in (1.2, 1.5, 3.0, 6.0):
        edge = 1 / (rr + 1)
        for pp in _grid(60):
            for qq in _grid(60):
                if rr * pp * qq >= 1 or abs(qq - edge) < 1e-9:
                    continue
                value = f(pp, qq, rr)
                bad += (value >= 0) if qq < edge else (value <= 0)
            flat = f(pp, edge, rr)
            bad += abs(flat) > 1e-9
    return Step(
        "Lemma 3, items 1-3",
        "∂ε/∂p < 0, = 0, > 0 as q <, =, > 1/(r̃+1)",
        "evaluation on a 60 × 60 grid, 4 values of r̃",
        VERIFIED if bad == 0 else SLIP,
        f"points of the wrong sign: {bad}",
    )


def theorem3() -> list[Step]:
    """Theorem 3 (Eqs. 22, 141-156)."""
    eps_p1 = sp.Rational(1, 2) * sp.log((1 - q) / (1 / r - q))
    eps_q1 = sp.log((1 - p) / (1 / r - p))
    lim_p0 = sp.limit((2 * p * (1 - q)) / (sp.sqrt(D3) - (1 - p)), p, 0)
    eq154 = sp.log(2 * p / (sp.sqrt((1 - p) ** 2 + 4 * p / r) - (1 - p)))
    eq155 = sp.log(2 * p / (sp.sqrt((1 - p) ** 2 + 4 * p * (1 / r - p)) - (1 - p)))
    at = {p: sp.Rational(1, 5), r: 3}
    printed, right = float(eq155.subs(at)), float(eq154.subs(at))
    infimum = [rp.epsilon_at(1.0, qq, 3.0) - 0.5 * math.log(3) for qq in (0.1, 0.01, 0.001)]
    root = sp.sqrt(D3)
    d_p = -2 * (1 - p) + 4 * (1 - q) * (1 / r - p * q) - 4 * p * q * (1 - q)  # in (151)
    eq151 = 2 * (1 - q) / (d_p / (2 * root) + 1)
    eq152 = sp.simplify(eq151.subs(p, 0))
    return [
        _identity(
            "Eqs. (142)-(143), (172)",
            "at p = 1 (Corollary 2 with r* = r̃): ε(1, q) = ½ log((1 − q)/(1/r̃ − q))",
            EPS3.subs(p, 1),
            eps_p1,
            q,
            r,
            domain=lambda qq, rr: qq * rr < 1,
        ),
        _identity(
            "Eq. (144)",
            "∂ε(1, q)/∂q",
            sp.diff(eps_p1, q),
            sp.Rational(1, 2) * (-1 / (1 - q) + 1 / (1 / r - q)),
            q,
            r,
        ),
        _identity(
            "Eq. (147)", "∂ε(p, 1)/∂p", sp.diff(eps_q1, p), -1 / (1 - p) + 1 / (1 / r - p), p, r
        ),
        Step(
            "Eqs. (145), (148)",
            "the limits ½ log r̃ (q → 0) and log r̃ (p → 0)",
            "sympy.limit",
            VERIFIED
            if sp.simplify(sp.limit(eps_p1, q, 0) - sp.log(r) / 2) == 0
            and sp.simplify(sp.limit(eps_q1, p, 0) - sp.log(r)) == 0
            else SLIP,
            "limits equal ½ log r̃ and log r̃",
        ),
        Step(
            "Eqs. (149)-(152)",
            "L'Hôpital: lim_{p→0} ε(p, q) = log r̃",
            "sympy.limit",
            VERIFIED if sp.simplify(lim_p0 - r) == 0 else SLIP,
            f"the limit inside the log is {sp.simplify(lim_p0)}",
        ),
        _identity(
            "Eqs. (150)-(151)",
            "L'Hôpital: the derivatives in p of 2p(1−q) and of √D − (1−p)",
            sp.diff(2 * p * (1 - q), p) / sp.diff(root - (1 - p), p),
            eq151,
            p,
            q,
            r,
            domain=lambda pp, qq, rr: pp * qq * rr < 1,
        ),
        Step(
            "Eqs. (151)-(152)",
            "(151) at p = 0 is r̃ (√1 in the denominator)",
            "sympy.simplify",
            VERIFIED if sp.simplify(eq152 - r) == 0 else SLIP,
            f"(151) at p = 0 simplifies to {eq152}",
        ),
        _identity(
            "Eq. (154)",
            "lim_{q→0} ε(p, q)",
            sp.limit(EPS3, q, 0),
            eq154,
            p,
            r,
            domain=lambda pp, rr: rr > 1,
        ),
        Step(
            "Eq. (155)",
            "the q → 0 limit (154) differentiated",
            "evaluation",
            SLIP,
            f"(155) writes 1/r̃ − p inside the root where (154) has 1/r̃ (the q → 0 limit of "
            f"1/r̃ − pq): at p = 1/5, r̃ = 3 the printed function is {printed:.4f}, (154) "
            f"{right:.4f}; (156) differentiates (154), as it should",
        ),
        _identity(
            "Eq. (156)",
            "the derivative of (154)",
            sp.diff(eq154, p),
            (2 * p / r / (sp.sqrt((1 - p) ** 2 + 4 * p / r) - (1 - p)) - 1)
            / (p * sp.sqrt((1 - p) ** 2 + 4 * p / r)),
            p,
            r,
            domain=lambda pp, rr: rr > 1,
        ),
        Step(
            "Eq. (13), Theorem 3",
            "½ log r̃ is the minimum of εᵢ over (0, 1]²",
            "evaluation",
            SLIP,
            "an infimum, not attained: εᵢ(1, q) − ½ log r̃ = "
            + ", ".join(f"{d:.2e}" for d in infimum)
            + " at q = 0.1, 0.01, 0.001 (r̃ = 3), positive at every q > 0, and εᵢ is larger "
            "still at p < 1 (Lemma 3); the proof itself takes q → 0",
        ),
    ]


def theorems_4_and_5() -> list[Step]:
    """Theorems 4 and 5 (Eqs. 23-24, 157-176) and their statements."""
    pt, qt = sp.symbols("ptilde qtilde", positive=True)
    eq159 = sp.log((1 - pt) / (pt / a - pt))
    at_kink = EPS_C.subs({q: a / (pt * r), p: pt}).subs(c, 1 / r - pt * a / (pt * r))
    eq165 = sp.log(
        2
        * (pt * r - a)
        / (sp.sqrt(r**2 * (1 - pt) ** 2 + 4 * (pt * r - a) * (1 - a)) - r * (1 - pt))
    )
    eq168 = sp.Rational(1, 2) * sp.log((1 - qt) / (qt / a - qt))
    at_kink5 = EPS_C.subs({p: a / (qt * r), q: qt}).subs(c, 1 / r - a / (qt * r) * qt)
    eq174 = sp.log(
        2
        * a
        * (1 - qt)
        / (sp.sqrt((qt * r - a) ** 2 + 4 * a * qt * (1 - qt) * (1 - a)) - (qt * r - a))
    )
    eq176 = sp.log((1 - a / r) / (1 / r - a / r))
    # Theorem 5's first case at q~ = 0.05, a~ = 0.25, r~ = 3: εᵢ(p) at p = 1 and just below
    prof = rp.fixed_q_profile(0.25, 0.05, 3.0)
    at_one = rp.epsilon_at(1.0, 0.05, float(np.asarray(prof(1.0, 0.05))))
    below = rp.epsilon_at(0.99, 0.05, float(np.asarray(prof(0.99, 0.05))))
    b_prof = rp.fixed_p_profile(0.15, 0.05, 3.0)
    theorem4_at_q_one = rp.epsilon_at(0.05, 1.0, float(np.asarray(b_prof(0.05, 1.0))))
    theorem4_below_q_one = rp.epsilon_at(0.05, 0.99, float(np.asarray(b_prof(0.05, 0.99))))
    pos = lambda *v: True  # noqa: E731
    theorem4_domain = lambda pp, aa, rr: pp * rr > aa and pp < 1 and aa < 1  # noqa: E731
    theorem5_domain = lambda qq, aa, rr: qq * rr > aa and qq < 1 and aa < 1  # noqa: E731
    return [
        _identity(
            "Eq. (159)",
            "Theorem 4, first case",
            eq159,
            sp.log(a * (1 - pt) / (pt * (1 - a))),
            pt,
            a,
            domain=pos,
        ),
        _identity(
            "Eqs. (164)-(165)",
            "Theorem 4, second case: Eq. (12) at q = ã/(p̃r̃)",
            at_kink,
            eq165,
            pt,
            a,
            r,
            domain=theorem4_domain,
        ),
        _identity(
            "Eqs. (161)-(163), (170)-(171)",
            "where r* ≥ 1/(pq) (1/r* − pq ≤ 0) the root is at most √((1−p)²): the bracket of "
            "(12) is at most 0 and ε = ∞; at equality it is 0",
            ROOT_C.subs(c, 0) - (1 - p),
            sp.Integer(0),
            p,
            q,
            domain=lambda pp, qq: pp < 1,
        ),
        _identity(
            "Eq. (168)",
            "Theorem 5, first case",
            eq168,
            sp.Rational(1, 2) * sp.log(a * (1 - qt) / (qt * (1 - a))),
            qt,
            a,
        ),
        _identity(
            "Eqs. (173)-(174)",
            "Theorem 5, third case: Eq. (12) at p = ã/(q̃r̃)",
            at_kink5,
            eq174,
            qt,
            a,
            r,
            domain=theorem5_domain,
        ),
        _identity(
            "Eq. (176)",
            "Theorem 5, q̃ = 1",
            eq176,
            sp.log((r - a) / (1 - a)),
            a,
            r,
            domain=lambda aa, rr: rr > aa,
        ),
        Step(
            "Theorem 4 (App. B.1)",
            "the minimum is taken over 0 < qᵢ < 1",
            "evaluation",
            SLIP,
            "App. B.1 states Theorem 4 for 0 < qᵢ < 1, but its proof (App. E) minimises over "
            "(0, 1] and in the first case, and at Table 5's agencies B and C, the minimum is at "
            f"qᵢ = 1: at ã = 0.15, p̃ = 0.05, r̃ = 3, εᵢ = {theorem4_at_q_one:.4f} at q = 1 and "
            f"{theorem4_below_q_one:.4f} at q = 0.99 (App. E restates it with 0 < qᵢ ≤ 1)",
        ),
        Step(
            "Theorem 5 (Apps. B.1, E)",
            "the minimum is taken over 0 < pᵢ < 1",
            "evaluation",
            SLIP,
            "both statements restrict to 0 < pᵢ < 1, yet the first two cases are "
            f"attained at pᵢ = 1 (Eqs. 168, 172): at ã = 0.25, q̃ = 0.05, r̃ = 3, εᵢ = "
            f"{at_one:.4f} at p = 1 and {below:.4f} at p = 0.99",
        ),
        Step(
            "Eq. (169)",
            "the piecewise profile of Theorem 5's proof",
            "reading",
            SLIP,
            "its left side reads r*(p̃, qᵢ), copied from Theorem 4's (160), where the profile "
            "is a function of pᵢ at q̃: r*(pᵢ, q̃) (the cases, 0 < pᵢ < ã/(q̃r̃), are in pᵢ; "
            f"at ã = 0.25, q̃ = 1, r̃ = 3 the kink is at pᵢ = {0.25 / 3:.4f})",
        ),
    ]


def wording() -> list[Step]:
    """Statements that name one variable where the formula or figure uses another, and the
    captions of Figs. 1 and 5 against what the authors' code draws."""
    at = {p: 0.5, q: 0.5, a: 0.1}
    d_p, d_q = float(sp.diff(EPS2, p).subs(at)), float(sp.diff(EPS2, q).subs(at))
    agency2 = rp.fixed_p_profile(0.1, 0.05, 3.0)
    along = [rp.epsilon_at(0.05, qq, float(np.asarray(agency2(0.05, qq)))) for qq in (0.2, 1.0)]
    lowest = rp.minimise(agency2, p_range=(0.05, 0.05), q_range=(0.2, 1.0))
    # the authors' code is the forensics' (which imports this module: imported here, not above)
    from choosing_epsilon.papers.kazan_reiter_2024.forensics import authors_fig5_epsilon

    drawn_fig5 = authors_fig5_epsilon()
    infinite = int(np.sum(drawn_fig5.p * drawn_fig5.q >= 1 / 3))  # r* = 3 ≥ 1/(pq): εᵢ = ∞
    nan = int(np.isnan(drawn_fig5.epsilon).sum())
    minus_inf = np.isneginf(drawn_fig5.epsilon)
    minus_inf_at = ", ".join(
        f"p = {p_:g}, q = {q_:g}"
        for p_, q_ in zip(drawn_fig5.p[minus_inf], drawn_fig5.q[minus_inf])
    )
    drawn = rp.fixed_q_epsilon(0.1, 0.999, 3.0)
    stated = rp.fixed_q_epsilon(0.1, 1.0, 3.0)
    return [
        Step(
            "Eq. (89)",
            "'Taking the partial derivative with respect to qᵢ gives ∂ε/∂pᵢ'",
            "reading; evaluation",
            SLIP,
            "the derivative taken in (89)-(94) is with respect to pᵢ (the one with respect "
            "to qᵢ follows in (95)); at p = q = 0.5, ã = 0.1 the two are "
            f"{d_p:.4f} and {d_q:.4f}",
        ),
        Step(
            "Sec. 4, Example 2",
            "'the lower plot displays the maximal ε ... for each pᵢ' (Fig. 1, second column)",
            "reading; evaluation",
            SLIP,
            "that panel's axis is qᵢ at pᵢ = p̃ = 0.05 fixed, as the upper plot's sentence and "
            f"the authors' code say: with p = 0.05 throughout, its εᵢ falls from "
            f"{along[0]:.4f} at q = 0.2 to its minimum {lowest.epsilon:.4f} at q = "
            f"{lowest.q:.4f} (where r* turns flat) and rises again to {along[1]:.4f} at q = 1",
        ),
        Step(
            "Fig. 5 caption",
            "'all εᵢ(pᵢ, qᵢ) > 4 are truncated to 4'",
            "the authors' grid (200 × 200, log-spaced from 0.01 to 1)",
            SLIP,
            f"at {infinite:,} of the {drawn_fig5.epsilon.size:,} grid points pq ≥ 1/r̃ = 1/3, where "
            "r* = 3 binds nothing and εᵢ = ∞, the authors' code computes no value that the "
            f"truncation to 4 catches: the log of a negative number (NaN) at {nan:,} of them, "
            f"and at {minus_inf_at} the log of −0, −∞ (kept by the truncation, which only lowers "
            "values above 4); ggplot draws both grey, not in the colour of 4 (the grey corner of "
            "the original's lower panel)",
        ),
        Step(
            "Fig. 1 caption",
            "Agency 1's profile is (15) with q̃ = 1",
            "the authors' code",
            SLIP,
            "code_for_paper.R draws Agency 1 at q̃ = 0.999 (tq <- 0.999); its lowest εᵢ "
            f"is then {drawn:.5f} against {stated:.5f} at the stated q̃ = 1 (a difference "
            f"of {drawn - stated:.1e}, far below the figure's resolution, two pixels being "
            "0.014)",
        ),
    ]


SLIP_IDS = {
    "Eq. (47)": "e_lemma1_eq47_measure",
    "Eq. (89)": "e_lemma2_eq89_variable",
    "Eq. (91)": "e_lemma2_eq91_sign",
    "Eq. (96)": "e_lemma2_eq96_typo",
    "Eqs. (104)-(106)": "e_lemma2_eq105_sign",
    "Eq. (135)": "e_lemma3_eq135_bound",
    "Eq. (137)": "e_lemma3_eq137_sign",
    "Eq. (155)": "e_theorem3_eq155",
    "Eq. (13), Theorem 3": "e_theorem3_infimum",
    "Theorem 4 (App. B.1)": "b1_theorem4_range",
    "Theorem 5 (Apps. B.1, E)": "e_theorem5_range",
    "Eq. (169)": "e_theorem5_eq169_variables",
    "Sec. 4, Example 2": "s4_example2_axis_variable",
    "Fig. 5 caption": "fig5_caption_truncation",
    "Fig. 1 caption": "fig1_caption_q_tilde",
}


def all_steps() -> pd.DataFrame:
    """Every check above, in the paper's order, as a table; a slip carries its ledger row's id."""
    steps = (
        geometric_mechanism()
        + risk_measures()
        + lemma1_on_random_mechanisms()
        + theorems_1_and_2()
        + section4_statements()
        + wording()
        + lemma2()
        + lemma3()
        + theorem3()
        + theorems_4_and_5()
    )
    table = pd.DataFrame([s.__dict__ for s in steps])
    slips = table.verdict == SLIP
    table.loc[slips, "claim_id"] = table.loc[slips, "equations"].map(SLIP_IDS)
    if table.loc[slips, "claim_id"].isna().any():
        raise AssertionError(f"a slip without a ledger row: {table[slips].equations.tolist()}")
    return table
