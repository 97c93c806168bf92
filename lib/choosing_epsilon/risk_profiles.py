"""Kazan & Reiter (2024): risk profiles r*(p, q), the bound of Theorem 1 on the posterior-to-prior
ratio, Theorem 2's ε at one (p, q), the ε a whole profile implies (Eq. 13), and the closed forms
of the paper's Table 4.

Notation as in the paper: p is the adversary's prior that a person is in the data, q the prior
that their value lies in the sensitive set S given that they are, and r*(p, q) the largest
posterior-to-prior ratio the agency accepts at those priors (``math.inf``: no bound there).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize

from ._validate import closed_unit, open_unit, positive, real

# r*(p, q): a function of two priors returning the bound (numpy arrays in, arrays out, where the
# function allows; ``grid_search`` falls back to numpy.vectorize where it does not)
Profile = Callable[[Any, Any], Any]

# the bounded optimiser's tolerance on p and q (scipy.optimize.minimize_scalar, method "bounded")
XATOL = 1e-10
# points per axis of the scan that only brackets the minimum before the optimiser refines it
SCAN_POINTS = 81
# the smallest p or q the general solver considers when a range starts at 0 (priors are > 0)
SMALLEST_PRIOR = 1e-12
_CAP = 1e6  # stands in for ε = ∞ inside the optimiser (a bound that binds nothing)


def _prior(name: str, value: float) -> float:
    x = real(name, value)
    if not 0 < x <= 1:
        raise ValueError(f"{name} must lie in (0, 1], got {value!r}")
    return x


def _bound(name: str, value: float) -> float:
    """A profile's value: a number >= 1 or math.inf (no bound)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a real number >= 1 or inf, got {value!r}")
    x = float(value)
    if math.isnan(x) or x < 1:
        raise ValueError(
            f"{name} must be >= 1 (allowed range [1, inf]: no posterior can fall below every "
            f"prior), got {value!r}"
        )
    return x


def relative_risk_bound(epsilon: float, p: float, q: float) -> float:
    """Eq. (11), Theorem 1: the largest posterior-to-prior ratio an ε-DP release allows.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε, >= 0.
    p : float
        The prior p that the person is in the data, in (0, 1].
    q : float
        The prior q that the person's value is in S, in (0, 1].

    Returns
    -------
    float
        The largest ratio of posterior to prior.

    Raises
    ------
    ValueError
        If ``epsilon`` is negative or a prior lies outside (0, 1].
    """
    e = math.exp(-positive("epsilon", epsilon)) if epsilon != 0 else 1.0
    p, q = _prior("p", p), _prior("q", q)
    return 1.0 / (q * p + e * e * (1 - q) * p + e * (1 - p))


def epsilon_at(p: float, q: float, r_star: float) -> float:
    """Eq. (12), Theorem 2: the largest ε whose Theorem 1 bound at (p, q) stays within r*.

    Written as log((√((1−p)² + 4p(1−q)c) + (1−p)) / (2c)) with c = 1/r* − pq, the paper's
    expression multiplied out, which has no cancellation and holds for q = 1 and p = 1 as well
    (Corollary 2). Where c ≤ 0 the bound exceeds 1/(pq) and binds nothing: ``math.inf``.

    Parameters
    ----------
    p : float
        The prior p that the person is in the data, in (0, 1].
    q : float
        The prior q that the person's value is in S, in (0, 1].
    r_star : float
        The bound r* on the ratio, >= 1 or inf.

    Returns
    -------
    float
        The ε (inf where the bound binds nothing).

    Raises
    ------
    ValueError
        If a prior lies outside (0, 1] or ``r_star`` is below 1 or not a number.
    """
    return _epsilon_at(_prior("p", p), _prior("q", q), _bound("r_star", r_star))


def _epsilon_at(p: float, q: float, r: float) -> float:
    """``epsilon_at`` for arguments already checked (priors in (0, 1], r >= 1 or inf)."""
    c = 1.0 / r - p * q
    if c <= 0:
        return math.inf
    a = 1.0 - p
    return math.log((math.sqrt(a * a + 4.0 * p * (1.0 - q) * c) + a) / (2.0 * c))


def epsilon_at_printed(p: float, q: float, r_star: float) -> float:
    """Eq. (12) exactly as printed (two cases, q < 1 and q = 1), for checking ``epsilon_at``.

    Parameters
    ----------
    p : float
        The prior p that the person is in the data, in (0, 1].
    q : float
        The prior q that the person's value is in S, in (0, 1].
    r_star : float
        The bound r* on the ratio, >= 1 or inf.

    Returns
    -------
    float
        The ε by the printed cases.

    Raises
    ------
    ValueError
        If a prior lies outside (0, 1] or ``r_star`` is below 1 or not a number.
    """
    p, q = _prior("p", p), _prior("q", q)
    r = _bound("r_star", r_star)
    if q == 1:
        return math.log((1 - p) / (1 / r - p)) if 1 / r - p > 0 else math.inf
    if 1 / r - p * q <= 0:
        return math.inf
    root = math.sqrt((1 - p) ** 2 + 4 * p * (1 - q) * (1 / r - p * q)) - (1 - p)
    return math.log(2 * p * (1 - q) / root) if root > 0 else math.inf


@dataclass(frozen=True)
class Solution:
    """The ε a profile implies (Eq. 13) and the priors (p, q) where the minimum is reached."""

    epsilon: float
    p: float
    q: float


def _range(name: str, bounds: tuple[float, float]) -> tuple[float, float]:
    if len(bounds) != 2:
        raise ValueError(f"{name} must be a pair (lower, upper), got {bounds!r}")
    lo, hi = closed_unit(f"{name}[0]", bounds[0]), closed_unit(f"{name}[1]", bounds[1])
    if hi <= 0 or lo > hi:
        raise ValueError(
            f"{name} must satisfy 0 <= lower <= upper <= 1 and upper > 0, got {bounds!r}"
        )
    return max(lo, SMALLEST_PRIOR), hi


def _scalar(value: Any) -> Any:
    """A profile's value at one (p, q) as a Python number (numpy 0-d arrays included)."""
    if isinstance(value, np.ndarray) and value.size == 1:
        return float(value.reshape(()))
    return value


def _capped(value: float) -> float:
    return min(value, _CAP)


def _golden(f: Callable[[float], float], lo: float, hi: float, steps: int = 80) -> float:
    """Golden-section search on [lo, hi] for a function unimodal there: the bracket shrinks by
    0.618 per step, to the resolution of floating point after ``steps`` steps."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if b - a <= 4 * math.ulp(max(abs(a), abs(b))):
            break
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return c if fc <= fd else d


def _minimise_1d(
    f: Callable[[float], float],
    lo: float,
    hi: float,
    many: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[float, float]:
    """Minimum of ``f`` on [lo, hi]: a scan brackets it, the bounded optimiser refines it to
    ``XATOL``, and a golden-section search polishes it inside the optimiser's own tolerance
    window (its 1.5e-8 |x| relative term leaves a kink, where ε has a slope, short by up to
    that times the slope); the ends are candidates too (the minimum may sit on an edge)."""
    if lo == hi:
        return lo, f(lo)

    def capped(x: float) -> float:
        return _capped(f(x))

    # a scan even in log scale where the range spans decades, since profiles bend near 0
    xs = np.linspace(lo, hi, SCAN_POINTS)
    if hi / lo > 100:
        xs = np.unique(np.concatenate([np.geomspace(lo, hi, SCAN_POINTS), xs]))
    values = (
        np.minimum(many(xs), _CAP) if many is not None else np.array([capped(float(x)) for x in xs])
    )
    best = int(np.argmin(values))
    candidates = [(float(xs[best]), float(values[best]))]
    left, right = float(xs[max(best - 1, 0)]), float(xs[min(best + 1, xs.size - 1)])
    if right > left:
        found = optimize.minimize_scalar(
            capped,
            bounds=(left, right),
            method="bounded",
            options={"xatol": XATOL, "maxiter": 500},
        )
        x = float(found.x)
        candidates.append((x, float(found.fun)))
        window = 4 * (XATOL + 1.5e-8 * abs(x))
        polished = _golden(capped, max(left, x - window), min(right, x + window))
        candidates.append((polished, capped(polished)))
    candidates += [(lo, capped(lo)), (hi, capped(hi))]
    return min(candidates, key=lambda c: c[1])


def minimise(
    profile: Profile,
    p_range: tuple[float, float] = (0.0, 1.0),
    q_range: tuple[float, float] = (0.0, 1.0),
) -> Solution:
    """Eq. (13): the smallest Theorem 2 ε over the priors a profile bounds, by a bounded optimiser.

    ``profile(p, q)`` returns r* (>= 1, or ``math.inf`` where the agency sets no bound);
    ``p_range`` and ``q_range`` are the closed ranges of priors it bounds (a fixed p̃ is the range
    (p̃, p̃)). For each q the inner minimum over p is found by ``scipy.optimize.minimize_scalar``
    (bounded, xatol ``XATOL``) inside the cell of a scan of ``SCAN_POINTS`` points that holds the
    scan's minimum, the range's ends also tried; the outer minimum over q the same way. A range
    that starts at 0 starts at ``SMALLEST_PRIOR``, since the paper's priors are positive and
    its infima there are limits. The result is ``math.inf`` when the profile binds nowhere.

    Parameters
    ----------
    profile : callable
        r*(p, q): a number >= 1 or inf at each pair of priors.
    p_range, q_range : tuple of float
        The closed ranges of priors the profile bounds, 0 ≤ lower ≤ upper ≤ 1 with upper > 0.

    Returns
    -------
    Solution
        The smallest ε and the priors (p, q) where it is reached.

    Raises
    ------
    ValueError
        If ``profile`` is not callable, a range is out of bounds, or the profile returns a value
        below 1 or not a number.
    """
    if not callable(profile):
        raise ValueError(f"profile must be a function of (p, q), got {profile!r}")
    p_lo, p_hi = _range("p_range", p_range)
    q_lo, q_hi = _range("q_range", q_range)

    def eps(p: float, q: float) -> float:
        """Eq. (12) at (p, q), inside the ranges checked above: the profile's value is checked
        in full (and named in the error) only when it is not plainly a float >= 1."""
        r = _scalar(profile(p, q))
        if not (isinstance(r, float) and r >= 1):  # NaN fails the comparison
            r = _bound(f"profile({p!r}, {q!r})", r)
        return _epsilon_at(p, q, r)

    def r_many(p: np.ndarray, q: float) -> np.ndarray | None:
        """The profile at many p for one q in one call, where it takes arrays (else None)."""
        try:
            return np.broadcast_to(np.asarray(profile(p, q), dtype=float), p.shape)
        except (TypeError, ValueError):
            return None

    def eps_many(p: np.ndarray, q: float) -> np.ndarray:
        """ε at many p for one q in one call (the profile takes arrays)."""
        r = r_many(p, q)
        assert r is not None
        if np.isnan(r).any() or (r < 1).any():
            bad = float(r[np.isnan(r) | (r < 1)][0])
            raise ValueError(
                f"profile(p, {q!r}) must be >= 1 (allowed range [1, inf]), got {bad!r}"
            )
        return epsilon_grid(p, q, r)

    vectorised = r_many(np.array([p_lo, p_hi]), q_lo) is not None
    inner: dict[float, float] = {}

    def over_p(q: float) -> float:
        many = (lambda xs: eps_many(xs, q)) if vectorised else None
        p, value = _minimise_1d(lambda x: eps(x, q), p_lo, p_hi, many)
        inner[q] = p
        return value

    q, value = _minimise_1d(over_p, q_lo, q_hi)
    if q not in inner:
        over_p(q)
    p = inner[q]
    epsilon = eps(p, q)
    return Solution(epsilon=epsilon, p=p, q=q) if value < _CAP else Solution(math.inf, p, q)


def epsilon_grid(p: Any, q: Any, r_star: Any) -> np.ndarray:
    """Eq. (12) elementwise over arrays (``math.inf`` where the bound binds nothing).

    Parameters
    ----------
    p, q : array_like
        The priors.
    r_star : array_like
        The bound r* at each pair; the three broadcast against each other.

    Returns
    -------
    numpy.ndarray
        The ε at each element (inf where the bound binds nothing).
    """
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    r = np.asarray(r_star, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = 1.0 / r - p * q
        a = 1.0 - p
        value = np.log((np.sqrt(a * a + 4.0 * p * (1.0 - q) * c) + a) / (2.0 * c))
    return np.where(c > 0, value, math.inf)


def grid_search(profile: Profile, step: float = 1e-3) -> Solution:
    """The smallest Eq. (12) ε over the grid p, q ∈ {step, 2 step, ..., 1}, as the authors' code
    searches (step 10⁻³ there); the first minimum in (p, q) order is kept.

    Parameters
    ----------
    profile : callable
        r*(p, q): a number >= 1 or inf at each pair of priors.
    step : float
        The grid's step, in [1e-4, 0.5].

    Returns
    -------
    Solution
        The smallest ε on the grid and the priors where it is reached.

    Raises
    ------
    ValueError
        If ``step`` lies outside [1e-4, 0.5].
    """
    step = positive("step", step)
    if not 1e-4 <= step <= 0.5:
        raise ValueError(f"step must lie in [1e-4, 0.5], got {step!r}")
    n = round(1 / step)
    axis = np.minimum(step + np.arange(n) * step, 1.0)
    p, q = np.meshgrid(axis, axis, indexing="ij")
    try:
        r = np.broadcast_to(np.asarray(profile(p, q), dtype=float), p.shape)
    except (TypeError, ValueError):
        r = np.vectorize(lambda x, y: float(_scalar(profile(x, y))))(p, q)
    eps = epsilon_grid(p, q, r)
    i = int(np.argmin(eps))
    return Solution(float(eps.flat[i]), float(p.flat[i]), float(q.flat[i]))


# --- the paper's profiles, as functions a reader can pass to ``minimise`` -----------------------


def constant_profile(r_tilde: float) -> Profile:
    """Eq. (14): the same bound r̃ at every (p, q).

    Parameters
    ----------
    r_tilde : float
        The bound r̃, >= 1.

    Returns
    -------
    callable
        The profile r*(p, q), taking numbers or arrays.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    r = _bound("r_tilde", r_tilde)
    return lambda p, q: np.full(np.broadcast(p, q).shape, r)


def _absolute(a: float, prior: Any, r: float) -> Any:
    with np.errstate(divide="ignore"):
        return np.maximum(a / np.asarray(prior, dtype=float), r)


def fixed_q_profile(a_tilde: float, q_tilde: float, r_tilde: float) -> Profile:
    """Eq. (15) (Eq. 17 at q̃ = 1): max{ã/(p q̃), r̃} at q = q̃, no bound elsewhere.

    Parameters
    ----------
    a_tilde : float
        The bound ã on the posterior, in (0, 1).
    q_tilde : float
        The prior q̃ the profile bounds, in (0, 1].
    r_tilde : float
        The bound r̃ on the ratio, >= 1.

    Returns
    -------
    callable
        The profile r*(p, q), taking numbers or arrays.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    a, qt, r = open_unit("a_tilde", a_tilde), _prior("q_tilde", q_tilde), _bound("r_tilde", r_tilde)
    return lambda p, q: np.where(np.asarray(q) == qt, _absolute(a, np.asarray(p) * qt, r), math.inf)


def fixed_p_profile(a_tilde: float, p_tilde: float, r_tilde: float) -> Profile:
    """Eq. (16): max{ã/(p̃ q), r̃} at p = p̃, no bound elsewhere.

    Parameters
    ----------
    a_tilde : float
        The bound ã on the posterior, in (0, 1).
    p_tilde : float
        The prior p̃ the profile bounds, in (0, 1].
    r_tilde : float
        The bound r̃ on the ratio, >= 1.

    Returns
    -------
    callable
        The profile r*(p, q), taking numbers or arrays.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    a, pt, r = open_unit("a_tilde", a_tilde), _prior("p_tilde", p_tilde), _bound("r_tilde", r_tilde)
    return lambda p, q: np.where(np.asarray(p) == pt, _absolute(a, pt * np.asarray(q), r), math.inf)


def two_dimensional_profile(a_tilde: float, r_tilde: float) -> Profile:
    """Eq. (33): max{ã/(p q), r̃} at every (p, q).

    Parameters
    ----------
    a_tilde : float
        The bound ã on the posterior, in (0, 1).
    r_tilde : float
        The bound r̃ on the ratio, >= 1.

    Returns
    -------
    callable
        The profile r*(p, q), taking numbers or arrays.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    a, r = open_unit("a_tilde", a_tilde), _bound("r_tilde", r_tilde)
    return lambda p, q: _absolute(a, np.asarray(p) * np.asarray(q), r)


def box_profile(
    r_tilde: float, p_bounds: tuple[float, float], q_bounds: tuple[float, float]
) -> Profile:
    """Eq. (25): r̃ for p̃0 ≤ p ≤ p̃1 and q̃0 ≤ q ≤ q̃1, no bound elsewhere.

    Parameters
    ----------
    r_tilde : float
        The bound r̃ on the ratio, >= 1.
    p_bounds, q_bounds : tuple of float
        The box's ranges of priors, 0 ≤ lower ≤ upper ≤ 1 with upper > 0.

    Returns
    -------
    callable
        The profile r*(p, q), taking numbers or arrays.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    r = _bound("r_tilde", r_tilde)
    (p0, p1), (q0, q1) = _box("p_bounds", p_bounds), _box("q_bounds", q_bounds)

    def profile(p: Any, q: Any) -> Any:
        p, q = np.asarray(p), np.asarray(q)
        return np.where((p0 <= p) & (p <= p1) & (q0 <= q) & (q <= q1), r, math.inf)

    return profile


def difference_profile(b_tilde: float) -> Profile:
    """Eq. (28): posterior minus prior at most b̃, that is r* = 1 + b̃/(p q).

    Parameters
    ----------
    b_tilde : float
        The bound b̃ on posterior minus prior, in (0, 1).

    Returns
    -------
    callable
        The profile r*(p, q), taking numbers or arrays.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    b = open_unit("b_tilde", b_tilde)
    return lambda p, q: 1 + b / (np.asarray(p) * np.asarray(q))


def _box(name: str, bounds: tuple[float, float]) -> tuple[float, float]:
    if len(bounds) != 2:
        raise ValueError(f"{name} must be a pair (lower, upper), got {bounds!r}")
    lo, hi = closed_unit(f"{name}[0]", bounds[0]), closed_unit(f"{name}[1]", bounds[1])
    if not (lo <= hi and hi > 0):
        raise ValueError(f"{name} must satisfy 0 <= lower <= upper <= 1, upper > 0, got {bounds!r}")
    return lo, hi


# --- Table 4's closed forms --------------------------------------------------------------------


def constant_epsilon(r_tilde: float) -> float:
    """Theorem 3, Eq. (22): ε = ½ log r̃ for the constant profile.

    Parameters
    ----------
    r_tilde : float
        The bound r̃, >= 1.

    Returns
    -------
    float
        The profile's ε.

    Raises
    ------
    ValueError
        If ``r_tilde`` is below 1 or not a number.
    """
    return 0.5 * math.log(_bound("r_tilde", r_tilde))


def fixed_q_epsilon(a_tilde: float, q_tilde: float, r_tilde: float) -> float:
    """Theorem 5, Eq. (24): the ε of the fixed-q̃ profile (15), in its four cases.

    The third case is the printed log(2ã(1−q̃)/(√(d² + 4ãq̃(1−q̃)(1−ã)) − d)), d = r̃q̃ − ã,
    multiplied out to log((√(d² + 4ãq̃(1−q̃)(1−ã)) + d)/(2q̃(1−ã))): the same number without the
    cancellation that makes the printed form 0/0 as q̃ nears ã/r̃. A q̃ within 1e-12 (relative)
    of ã/r̃ is on that boundary, where the cases meet.

    Parameters
    ----------
    a_tilde : float
        The bound ã on the posterior, in (0, 1).
    q_tilde : float
        The prior q̃, in (0, 1].
    r_tilde : float
        The ratio r̃ bounding the posterior-to-prior ratio elsewhere, > 1.

    Returns
    -------
    float
        The profile's ε.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    a, q, r = open_unit("a_tilde", a_tilde), _prior("q_tilde", q_tilde), _bound("r_tilde", r_tilde)
    if r <= 1:
        raise ValueError(f"r_tilde must be > 1 (allowed range (1, inf)), got {r_tilde!r}")
    if q == 1:
        return math.log((r - a) / (1 - a))
    if _at_most(q * r, a):
        return 0.5 * math.log(a * (1 - q) / (q * (1 - a)))
    if _at_most(q * (r + 1), 1):
        return 0.5 * math.log((1 - q) / (1 / r - q))
    d = r * q - a
    return math.log((math.sqrt(d * d + 4 * a * q * (1 - q) * (1 - a)) + d) / (2 * q * (1 - a)))


def _at_most(x: float, y: float) -> bool:
    """x <= y, counting x within 1e-12 (relative) of y as equal: a case boundary of Table 4."""
    return x <= y or math.isclose(x, y, rel_tol=1e-12)


def fixed_p_epsilon(a_tilde: float, p_tilde: float, r_tilde: float) -> float:
    """Theorem 4, Eq. (23): the ε of the fixed-p̃ profile (16), in its two cases.

    The second case is the printed log(2d/(√(r̃²(1−p̃)² + 4d(1−ã)) − r̃(1−p̃))), d = p̃r̃ − ã,
    multiplied out to log((√(r̃²(1−p̃)² + 4d(1−ã)) + r̃(1−p̃))/(2(1−ã))), free of the 0/0 the
    printed form meets at p̃ = ã/r̃ (Table 5's agency B sits there: 0.05 = 0.15/3).

    Parameters
    ----------
    a_tilde : float
        The bound ã on the posterior, in (0, 1).
    p_tilde : float
        The prior p̃, in (0, 1].
    r_tilde : float
        The ratio r̃ bounding the posterior-to-prior ratio elsewhere, > 1.

    Returns
    -------
    float
        The profile's ε.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    a, p, r = open_unit("a_tilde", a_tilde), _prior("p_tilde", p_tilde), _bound("r_tilde", r_tilde)
    if r <= 1:
        raise ValueError(f"r_tilde must be > 1 (allowed range (1, inf)), got {r_tilde!r}")
    if _at_most(p * r, a):
        return math.log(a * (1 - p) / (p * (1 - a)))
    d, x = p * r - a, r * (1 - p)
    return math.log((math.sqrt(x * x + 4 * d * (1 - a)) + x) / (2 * (1 - a)))


def fixed_p_epsilon_printed(a_tilde: float, p_tilde: float, r_tilde: float) -> float:
    """Eq. (23)'s second case exactly as printed (NaN or a wrong sign where it is 0/0).

    Parameters
    ----------
    a_tilde : float
        The bound ã on the posterior.
    p_tilde : float
        The prior p̃.
    r_tilde : float
        The bound r̃ on the ratio.

    Returns
    -------
    float
        The printed form's value, unchecked (NaN where it is 0/0).
    """
    a, p, r = float(a_tilde), float(p_tilde), float(r_tilde)
    d = p * r - a
    with np.errstate(all="ignore"):
        ratio = np.float64(2 * d) / (
            math.sqrt(r * r * (1 - p) ** 2 + 4 * d * (1 - a)) - r * (1 - p)
        )
        return float(np.log(ratio))


def box_epsilon(
    r_tilde: float, p_bounds: tuple[float, float], q_bounds: tuple[float, float]
) -> float:
    """Eq. (26): the ε of the box profile (25), in its four cases (each is Theorem 2's ε at one
    corner of the box, or its limit log r̃ as p → 0); q̃0 = 0 is taken as ``SMALLEST_PRIOR``.

    Parameters
    ----------
    r_tilde : float
        The ratio r̃ bounding the posterior-to-prior ratio elsewhere, > 1.
    p_bounds, q_bounds : tuple of float
        The box's ranges of priors, 0 ≤ lower ≤ upper ≤ 1 with upper > 0.

    Returns
    -------
    float
        The profile's ε.

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    r = _bound("r_tilde", r_tilde)
    if r <= 1:
        raise ValueError(f"r_tilde must be > 1, got {r_tilde!r}")
    (p0, p1), (q0, _) = _box("p_bounds", p_bounds), _box("q_bounds", q_bounds)

    if q0 == 1:
        return math.log((1 - p0) / (1 / r - p0))
    if _at_most(q0 * (r + 1), 1):
        return epsilon_at(p1, max(q0, SMALLEST_PRIOR), r)
    return epsilon_at(p0, q0, r) if p0 > 0 else math.log(r)


def difference_epsilon(b_tilde: float) -> float:
    """Eq. (29): ε = log((1 + b̃)/(1 − b̃)) for a bound b̃ on posterior minus prior.

    Parameters
    ----------
    b_tilde : float
        The bound b̃ on posterior minus prior, in (0, 1).

    Returns
    -------
    float
        The ε.

    Raises
    ------
    ValueError
        If ``b_tilde`` lies outside (0, 1).
    """
    b = open_unit("b_tilde", b_tilde)
    return math.log1p(b) - math.log1p(-b)


def point_epsilon(r_prime: float) -> float:
    """Sec. 4: the point profile r*(0.5, 1) = r′ < 2 gives ε = log(r′/(2 − r′)).

    Parameters
    ----------
    r_prime : float
        The bound r′ at (0.5, 1), in [1, 2).

    Returns
    -------
    float
        The ε.

    Raises
    ------
    ValueError
        If ``r_prime`` lies outside [1, 2).
    """
    r = _bound("r_prime", r_prime)
    if not r < 2:
        raise ValueError(f"r_prime must lie in [1, 2), got {r_prime!r}")
    return math.log(r / (2 - r))


def lee_clifton_epsilon(n: int, a_tilde: float) -> float:
    """Eq. (38): Lee & Clifton's setting (p = 1/n, q = 1, a bound ã on the posterior) gives
    ε = log((n − 1)ã/(1 − ã)); ã must exceed the prior 1/n.

    Parameters
    ----------
    n : int
        The number of rows, at least 2.
    a_tilde : float
        The bound ã on the posterior, in (1/n, 1).

    Returns
    -------
    float
        The ε.

    Raises
    ------
    ValueError
        If ``n`` is not an integer of at least 2 or ``a_tilde`` lies outside (1/n, 1).
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    a = open_unit("a_tilde", a_tilde)
    if not a > 1 / n:
        raise ValueError(f"a_tilde must exceed the prior 1/n = {1 / n:.6g}, got {a_tilde!r}")
    # Lee & Clifton's Eq. (7) at Δv = Δf, ã their ρ; imported here, as it brings numba and pandas
    from . import possible_worlds

    return possible_worlds.bounded_guarantee(n, a)


def survey_agency_epsilon(prior: float, posterior_threshold: float, r_tilde: float = 3.0) -> float:
    """The ε a survey's agency gets from Kazan & Reiter's fixed-p̃ profile (Eq. 16, Theorem 4).

    The profile proposed for the synthesis: the adversary's prior that a person took part is
    ``prior`` (p̃), the posterior of a disclosure may reach ``posterior_threshold`` (ã) where the
    prior of the value is small, and the ratio r̃ elsewhere (the paper's Example 2 uses r̃ = 3).
    It reads nothing private: only the three stated numbers.

    Parameters
    ----------
    prior : float
        The prior p̃ that a person took part, in (0, 1).
    posterior_threshold : float
        The bound ã on the posterior, in (0, 1).
    r_tilde : float
        The bound r̃ on the ratio elsewhere, > 1.

    Returns
    -------
    float
        The agency's ε (``fixed_p_epsilon``).

    Raises
    ------
    ValueError
        If a parameter is out of range.
    """
    p = open_unit("prior", prior)
    a = open_unit("posterior_threshold", posterior_threshold)
    return fixed_p_epsilon(a, p, r_tilde)


# --- a concrete mechanism and prior where Theorem 1's bound is reached ----------------------------


def signed_count_risk(epsilon: float, p: float, q: float, t_star: Any) -> np.ndarray:
    """The exact posterior-to-prior ratio (Eq. 4) at released values ``t_star`` for a signed count.

    The statistic adds +1 for each person in the data whose value is in S and −1 for each person
    whose value is not; the adversary knows the others' total (0 here, Assumption 2 holds) and
    the release adds geometric noise (Eq. 2). Person i shifts the total by +1 (in S), −1 (not in
    S) or 0 (absent), so the likelihood ratios reach e^{±ε} and e^{±2ε} of Lemma 1 and, at every
    t* ≥ 1, the ratio equals Theorem 1's bound.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε of the geometric noise, > 0.
    p : float
        The prior p that the person is in the data, in (0, 1].
    q : float
        The prior q that the person's value is in S, in (0, 1].
    t_star : array_like
        The released values t*.

    Returns
    -------
    numpy.ndarray
        The ratio of posterior to prior at each released value.

    Raises
    ------
    ValueError
        If ``epsilon`` is not > 0 or a prior lies outside (0, 1].
    """
    from . import geometric

    p, q = _prior("p", p), _prior("q", q)
    noise = geometric.distribution(epsilon)
    t = np.asarray(t_star)
    in_s, not_s, absent = noise.pmf(t - 1), noise.pmf(t + 1), noise.pmf(t)
    return in_s / (p * q * in_s + p * (1 - q) * not_s + (1 - p) * absent)


@dataclass(frozen=True)
class SimulatedRisk:
    """A Monte Carlo estimate of the ratio over the releases t* ≥ 1, with its standard error."""

    ratio: float
    standard_error: float
    releases: int  # draws with t* ≥ 1


def simulate_signed_count_risk(
    epsilon: float, p: float, q: float, n_draws: int, rng: np.random.Generator
) -> SimulatedRisk:
    """Draw (I, Y, T*) from the adversary's prior and the mechanism of ``signed_count_risk`` and
    estimate P(Y ∈ S, I = 1 | T* ≥ 1) / (p q), where the exact ratio is Theorem 1's bound.

    Parameters
    ----------
    epsilon : float
        The privacy parameter ε of the geometric noise, > 0.
    p : float
        The prior p that the person is in the data, in (0, 1].
    q : float
        The prior q that the person's value is in S, in (0, 1].
    n_draws : int
        How many draws, at least 2.
    rng : numpy.random.Generator
        The seeded generator.

    Returns
    -------
    SimulatedRisk
        The estimated ratio, its standard error and the draws with t* ≥ 1 (NaN where none).

    Raises
    ------
    ValueError
        If ``epsilon`` is not > 0, a prior lies outside (0, 1], or ``n_draws`` is not an integer of
        at least 2.
    """
    from . import geometric

    p, q = _prior("p", p), _prior("q", q)
    if isinstance(n_draws, bool) or not isinstance(n_draws, (int, np.integer)) or n_draws < 2:
        raise ValueError(f"n_draws must be an integer >= 2, got {n_draws!r}")
    included = rng.random(n_draws) < p
    in_s = included & (rng.random(n_draws) < q)
    shift = np.where(included, np.where(in_s, 1, -1), 0)
    released = geometric.release(shift, epsilon, rng)
    hit = released >= 1
    m = int(hit.sum())
    if m == 0:
        return SimulatedRisk(math.nan, math.nan, 0)
    share = float(in_s[hit].mean())
    return SimulatedRisk(share / (p * q), math.sqrt(share * (1 - share) / m) / (p * q), m)
