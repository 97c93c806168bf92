"""The examples in the docstrings of ``choosing_epsilon.risk``, run as doctests by ``make test`` and
``make test-fast`` (which collect tests/ only; ``pytest --doctest-modules
lib/choosing_epsilon/risk.py`` runs the same examples). Every public function of the module (those
of its ``__all__``, or else every one not prefixed by an underscore) shows at least one example,
and the API reference (docs/api.md, ``make site``) shows it under the function. An example prints
its result at a stated precision (``round(x, 4)``, 20 digits of an exact reading), so that it holds
on any CPU, and carries no doctest directive: none is skipped, none compared loosely."""

from __future__ import annotations

import doctest
import inspect
import io

import pytest

from choosing_epsilon import risk


def public_functions() -> list[str]:
    """The functions of ``risk`` a reader may call, in the order of the source."""
    names = getattr(risk, "__all__", None)
    functions = [
        name
        for name, obj in vars(risk).items()
        if inspect.isfunction(obj) and obj.__module__ == risk.__name__
    ]
    if names is not None:
        return [name for name in functions if name in names]
    return [name for name in functions if not name.startswith("_")]


PUBLIC = public_functions()


def examples(name: str) -> list[doctest.DocTest]:
    """The doctests of function ``name`` of ``risk``, run in the module's namespace."""
    finder = doctest.DocTestFinder(recurse=False)
    return finder.find(getattr(risk, name), f"risk.{name}", module=risk, globs=dict(vars(risk)))


def test_the_public_functions_are_found():
    assert {"pure", "advantage", "epsilon_for", "noise_for", "singling_out"} <= set(PUBLIC)
    assert not any(name.startswith("_") for name in PUBLIC)


@pytest.mark.parametrize("name", PUBLIC)
def test_each_public_function_shows_an_example_that_holds(name):
    tests = examples(name)
    shown = [example for test in tests for example in test.examples]
    assert shown, f"risk.{name} shows no example (a '>>>' line in its docstring)"
    assert all(example.want for example in shown), f"risk.{name}: an example shows no output"
    assert not any(example.options for example in shown), f"risk.{name}: a doctest directive"
    runner = doctest.DocTestRunner(optionflags=0)
    report = io.StringIO()
    for test in tests:
        runner.run(test, out=report.write, clear_globs=True)
    assert runner.failures == 0, report.getvalue()
    assert runner.tries == len(shown)
