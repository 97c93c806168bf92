"""Each formula written once: the known formulas of the package, found by the shape of their code.

``test_one_formula.py`` compares public functions by their values, so it cannot see a formula
written out again inside another function. Here each formula that has been repeated before is a
shape of Python's syntax tree, matched in every module of the package (and of ``site/`` and
``tools/``); the one function that defines it may hold it, and any other place must call that
function. Each shape is planted in a temporary module to show that it is caught, in every form
listed, and that its neighbours which are not the formula are not.

The shapes, and the function that holds each:

- ``accuracy``: the best accuracy of a guess at prior ½, (1 + advantage)/2, written with a name
  that says advantage (``risk.accuracy_from_advantage``);
- ``gaussian_mu``: the shift μ of the Gaussian mechanism whose advantage is η, 2Φ⁻¹((1 + η)/2) or
  2√2 erf⁻¹(η), or whose TPR at FPR α is t, Φ⁻¹(t) + Φ⁻¹(1 − α) (``risk._mu_for``, the body of
  ``risk.mu_for``);
- ``bounded_log_odds``: ln((n − 1)ρ/(1 − ρ)), the ε that keeps a posterior among n equally likely
  worlds at ρ (``possible_worlds.bounded_guarantee``);
- ``laplace_scale``: the Laplace scale Δ/ε, a sensitivity over an ε (``laplace.scale``, which also
  rounds it to the safe side);
- ``candidates``: the check that k, a number of candidates, is an integer of at least 2
  (``_validate.candidates``).

``PENDING`` names the functions that still repeat a formula and are to call the one function when
their module next changes: the list may only shrink, and an entry that matches nothing fails.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from choosing_epsilon.harness.paths import ROOT

# where the package's code lives: the shared package, the site and the tools
SOURCES = (ROOT / "lib" / "choosing_epsilon", ROOT / "site", ROOT / "tools")

# each shape: the (module, function) that defines it, the module as a path below lib/
DEFINED_IN = {
    "accuracy": ("choosing_epsilon/risk.py", "accuracy_from_advantage"),
    "gaussian_mu": ("choosing_epsilon/risk.py", "_mu_for"),
    "bounded_log_odds": ("choosing_epsilon/possible_worlds.py", "bounded_guarantee"),
    "laplace_scale": ("choosing_epsilon/laplace.py", "scale"),
    "candidates": ("choosing_epsilon/_validate.py", "candidates"),
}

# function (qualified name): the shapes it still repeats, by name so that an entry follows the
# function if it moves; none is left
PENDING: dict[str, set[str]] = {}


@dataclass(frozen=True)
class Found:
    """One repeat of a shape: where it is (file, function, line) and which shape."""

    path: str
    function: str
    line: int
    shape: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} ({self.function or 'module level'}): {self.shape}"


# --- what a piece of the tree names ---------------------------------------------------------------


def _called(node: ast.AST) -> str:
    """The name a call calls: ``ppf`` for ``stats.norm.ppf(x)``, ``log`` for ``math.log(x)``."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            return func.attr
        if isinstance(func, ast.Name):
            return func.id
    return ""


def _words(node: ast.AST) -> str:
    """Every name, attribute and string in ``node``, joined: what the expression speaks of."""
    parts = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            parts.append(sub.id)
        elif isinstance(sub, ast.Attribute):
            parts.append(sub.attr)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            parts.append(sub.value)
    return " ".join(parts).lower()


def _symbolic(node: ast.AST) -> bool:
    """Whether ``node`` calls sympy (``sp.log(...)``): an equation as a paper prints it, which a
    symbolic check must write out."""
    func = getattr(node, "func", None)
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in ("sp", "sympy")
    )


def _number(node: ast.AST, value: float) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
        and node.value == value
    )


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def _factors(node: ast.AST) -> list[ast.AST]:
    """The factors of a product a * b * c (the node itself if it is none)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    return [node]


def _one_plus(node: ast.AST) -> ast.AST | None:
    """x where ``node`` is 1 + x or x + 1, else None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if _number(node.left, 1):
            return node.right
        if _number(node.right, 1):
            return node.left
    return None


def _half_of_one_plus(node: ast.AST) -> ast.AST | None:
    """x where ``node`` is (1 + x)/2, (x + 1)/2, 0.5 * (1 + x) or (1 + x) * 0.5, else None."""
    if not isinstance(node, ast.BinOp):
        return None
    if isinstance(node.op, ast.Div) and _number(node.right, 2):
        return _one_plus(node.left)
    if isinstance(node.op, ast.Mult):
        for half, other in ((node.left, node.right), (node.right, node.left)):
            if _number(half, 0.5):
                return _one_plus(other)
    return None


# --- the shapes -----------------------------------------------------------------------------------


def accuracy(node: ast.AST) -> bool:
    """(1 + advantage)/2 in any of ``_half_of_one_plus``'s forms, the x naming an advantage."""
    x = _half_of_one_plus(node)
    return x is not None and "adv" in _words(x)


def gaussian_mu(node: ast.AST) -> bool:
    """Φ⁻¹((1 + η)/2) (a normal quantile of ``_half_of_one_plus``), 2√2 erf⁻¹(η) (a product of
    erfinv, 2 and √2, or of erfinv and √8), or Φ⁻¹(t) + Φ⁻¹(1 − α) (the sum of a ppf and an isf,
    in either order, or the difference of two ppf)."""
    if _called(node) in ("ppf", "ndtri") and node.args:  # type: ignore[attr-defined]
        return _half_of_one_plus(node.args[0]) is not None  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        factors = _factors(node)
        if any(_called(f) == "erfinv" for f in factors):
            roots = [f for f in factors if _called(f) == "sqrt" and f.args]  # type: ignore[attr-defined]
            two = any(_number(f, 2) for f in factors)
            return any(_number(r.args[0], 8) for r in roots) or (  # type: ignore[attr-defined]
                two and any(_number(r.args[0], 2) for r in roots)  # type: ignore[attr-defined]
            )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return {_called(node.left), _called(node.right)} == {"ppf", "isf"}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return _called(node.left) == _called(node.right) == "ppf"
    return False


def bounded_log_odds(node: ast.AST) -> bool:
    """log((n − 1)ρ/(1 − ρ)), the product in either order: a log of a quotient whose denominator is
    1 − ρ and whose numerator multiplies ρ by some n − 1."""
    if _called(node) not in ("log", "log10", "log2") or len(node.args) != 1:  # type: ignore[attr-defined]
        return False
    if _symbolic(node):
        return False  # sympy's expression of a printed equation, checked, not computed
    arg = node.args[0]  # type: ignore[attr-defined]
    if not (isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div)):
        return False
    below = arg.right
    if not (isinstance(below, ast.BinOp) and isinstance(below.op, ast.Sub)):
        return False
    if not _number(below.left, 1):
        return False
    rho = below.right
    factors = _factors(arg.left)
    minus_one = [
        f
        for f in factors
        if isinstance(f, ast.BinOp) and isinstance(f.op, ast.Sub) and _number(f.right, 1)
    ]
    return bool(minus_one) and any(_same(f, rho) for f in factors)


def laplace_scale(node: ast.AST) -> bool:
    """A sensitivity over an ε: a quotient whose numerator speaks of a sensitivity (``sens``, or
    ``width``, the range it spans) and whose denominator of an ε (``eps``), neither a product or a
    sum."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
        return False
    top, bottom = node.left, node.right
    if isinstance(top, ast.BinOp) or isinstance(bottom, ast.BinOp):
        return False  # a product or sum above or below is another quantity
    return any(w in _words(top) for w in ("sens", "width")) and _an_epsilon(bottom)


def _an_epsilon(node: ast.AST) -> bool:
    """Whether ``node`` is an ε itself: a name or attribute that says eps, or such a value passed
    through a check or a conversion (``positive("epsilon", epsilon)``, ``float(eps)``), not a
    function of one (``gdp_mu_for_epsilon_delta(e, d)``)."""
    if isinstance(node, ast.Name):
        return "eps" in node.id.lower()
    if isinstance(node, ast.Attribute):
        return "eps" in node.attr.lower()
    if _called(node) in ("positive", "nonnegative", "real", "float"):
        return any(_an_epsilon(arg) for arg in node.args)  # type: ignore[attr-defined]
    return False


def candidates(node: ast.AST) -> bool:
    """A check that k is an integer of at least 2: a function that both tests ``isinstance(k,
    ...)`` and compares ``k < 2``."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    typed = compared = False
    for sub in ast.walk(node):
        if _called(sub) == "isinstance" and sub.args:  # type: ignore[attr-defined]
            first = sub.args[0]  # type: ignore[attr-defined]
            typed |= isinstance(first, ast.Name) and first.id == "k"
        if isinstance(sub, ast.Compare) and len(sub.ops) == 1:
            left, op, right = sub.left, sub.ops[0], sub.comparators[0]
            is_k = isinstance(left, ast.Name) and left.id == "k"
            compared |= is_k and isinstance(op, ast.Lt) and _number(right, 2)
    return typed and compared


SHAPES: dict[str, Callable[[ast.AST], bool]] = {
    "accuracy": accuracy,
    "gaussian_mu": gaussian_mu,
    "bounded_log_odds": bounded_log_odds,
    "laplace_scale": laplace_scale,
    "candidates": candidates,
}


# --- the search -----------------------------------------------------------------------------------


def _walk(node: ast.AST, where: str = "") -> Iterator[tuple[ast.AST, str]]:
    """Every node of the tree with the qualified name of the function (or class) it lies in; a
    definition belongs to its own name (``candidates`` matches a function)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        where = f"{where}.{node.name}" if where else node.name
    yield node, where
    for child in ast.iter_child_nodes(node):
        yield from _walk(child, where)


def repeats(source: str, path: str) -> list[Found]:
    """Every match of every shape in ``source`` (a module's text; ``path`` names it), outside the
    function that defines the shape."""
    found = []
    for node, where in _walk(ast.parse(source)):
        for shape, matches in SHAPES.items():
            if matches(node) and DEFINED_IN[shape] != (path, where):
                found.append(Found(path, where, getattr(node, "lineno", 0), shape))
    return found


def _relative(path: Path) -> str:
    """A source's path as ``DEFINED_IN`` names it: below lib/ for the package, else below the
    repository."""
    base = ROOT / "lib" if (ROOT / "lib") in path.parents else ROOT
    return path.relative_to(base).as_posix()


def tree_repeats() -> list[Found]:
    """Every repeat of every shape in the package, the site and the tools."""
    found = []
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            found += repeats(path.read_text(encoding="utf-8"), _relative(path))
    return found


def _pending(f: Found) -> bool:
    return f.shape in PENDING.get(f.function, set())


def test_no_formula_is_written_out_beside_its_function():
    unexpected = [f for f in tree_repeats() if not _pending(f)]
    assert not unexpected, "write these as a call to the shape's function (DEFINED_IN):\n" + (
        "\n".join(map(str, unexpected))
    )


def test_each_pending_repeat_is_still_there():
    """An entry of ``PENDING`` that no longer matches was fixed: remove it, so the list shrinks."""
    found = {(f.function, f.shape) for f in tree_repeats()}
    listed = {(fn, s) for fn, shapes in PENDING.items() for s in shapes}
    stale = sorted(listed - found)
    assert not stale, f"fixed, remove from PENDING: {stale}"


def test_each_shape_is_defined_where_it_is_said_to_be():
    """The defining function exists and holds its shape (a rename would silently allow any copy)."""
    for shape, (path, function) in DEFINED_IN.items():
        source = (ROOT / "lib" / path).read_text(encoding="utf-8")
        held = [
            where
            for node, where in _walk(ast.parse(source))
            if SHAPES[shape](node) and where == function
        ]
        assert held, f"{path} has no function {function} holding the shape {shape}"


# --- planted copies: each form of each shape is caught, and its near neighbours are not -----------

PLANTED = {
    "accuracy": [
        "(1 + advantage) / 2",
        "(largest_advantage + 1) / 2",
        "0.5 * (1 + adv)",
        "(1 + g.advantage) * 0.5",
        "(1 + risk.advantage(g)) / 2",
    ],
    "gaussian_mu": [
        "2 * stats.norm.ppf((1 + target) / 2)",
        "2 * math.sqrt(2) * special.erfinv(eta)",
        "math.sqrt(8) * erfinv(eta)",
        "stats.norm.ppf(tpr) + stats.norm.isf(fpr)",
        "norm.isf(alpha) + norm.ppf(t)",
        "stats.norm.ppf(t) - stats.norm.ppf(alpha)",
    ],
    "bounded_log_odds": [
        "math.log((n - 1) * rho / (1 - rho))",
        "np.log(rho * (n_people - 1) / (1 - rho))",
        "math.log(gamma * (k - 1) / (1 - gamma))",
    ],
    "laplace_scale": [
        "sensitivity / epsilon",
        "1.0 / (sens / eps)",
        "classes.sensitivity / positive('epsilon', epsilon)",
        "stats.laplace(scale=sensitivity / epsilon)",
        "width / eps",
    ],
}
# expressions that share a part of a shape and are another quantity
NEIGHBOURS = [
    "(lo + hi) / 2",
    "(1 + p) / 2",  # a probability's two-sided quantile level, no advantage
    "math.sqrt(2) * special.erfinv(p)",  # Φ⁻¹((1 + p)/2), no factor 2
    "stats.norm.cdf(stats.norm.ppf(alpha) + mu)",
    "math.log((n - 1) / rho)",
    "math.log(rho / (1 - rho))",
    "width * log_odds / epsilon",
    "np.sum(deltas / moved, axis=1) / epsilon",
    "laplace.scale(sensitivity, epsilon)",
    "width / gdp_mu_for_epsilon_delta(epsilon, delta)",  # Δ over a μ found from an ε
    "sp.log((n - 1) * a / (1 - a))",  # a printed equation, checked by symbolic algebra
]
CANDIDATE_CHECKS = [
    """
    def _candidates(k):
        if not isinstance(k, (int, np.integer)) or k < 2:
            raise ValueError(f"k must be an integer >= 2, got {k!r}")
        return int(k)
    """,
    """
    def check(k):
        if isinstance(k, bool) or not isinstance(k, int):
            raise ValueError("k must be an integer")
        if k < 2:
            raise ValueError("k must be >= 2")
        return k
    """,
]


def _shapes_in(source: str, path: str = "planted.py") -> set[str]:
    return {f.shape for f in repeats(textwrap.dedent(source), path)}


@pytest.mark.parametrize(
    ("shape", "expression"), [(s, e) for s, forms in PLANTED.items() for e in forms]
)
def test_a_planted_copy_is_caught(shape, expression, tmp_path):
    module = tmp_path / "planted.py"
    module.write_text(f"def somewhere(x):\n    return {expression}\n", encoding="utf-8")
    found = repeats(module.read_text(encoding="utf-8"), "planted.py")
    assert shape in {f.shape for f in found}
    assert all(f.function == "somewhere" and f.line == 2 for f in found if f.shape == shape)


@pytest.mark.parametrize("check", CANDIDATE_CHECKS)
def test_a_planted_candidates_check_is_caught(check):
    assert _shapes_in(check) == {"candidates"}


@pytest.mark.parametrize("expression", NEIGHBOURS)
def test_a_neighbour_of_a_shape_is_not_caught(expression):
    assert _shapes_in(f"def somewhere(x):\n    return {expression}\n") == set()


def test_a_shape_is_allowed_in_its_own_function_and_nowhere_else():
    """The defining function holds its shape; the same function name in another module, or another
    function of the defining module, does not."""
    body = "def accuracy_from_advantage(a):\n    return (1 + a_advantage) / 2\n"
    assert _shapes_in(body, "choosing_epsilon/risk.py") == set()
    assert _shapes_in(body, "choosing_epsilon/calibration.py") == {"accuracy"}
    other = "def reading(a):\n    return (1 + a_advantage) / 2\n"
    assert _shapes_in(other, "choosing_epsilon/risk.py") == {"accuracy"}


def test_a_repeat_in_a_method_or_a_nested_function_is_named_by_its_qualified_name():
    source = """
    class Accountant:
        def _mu(self, target):
            def inner(t):
                return 2 * stats.norm.ppf((1 + t) / 2)
            return inner(target)
    """
    (found,) = repeats(textwrap.dedent(source), "planted.py")
    assert (found.function, found.shape) == ("Accountant._mu.inner", "gaussian_mu")
