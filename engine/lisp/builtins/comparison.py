"""Comparison: =, not=, ==, <, >, <=, >=, compare."""

from __future__ import annotations

from operator import ge, gt, le, lt

from engine.lisp.builtins.registry import NAME, builtin, variant
from engine.lisp.builtins.support import number
from engine.lisp.compare import compare, equals
from engine.lisp.errors import error
from engine.lisp.values import type_name


@builtin("=", "comparison", returns_bool=True)
def eq(x, *xs):
    """(= x y ...) structural equality; (= 1 1.0) is true."""
    return all(equals(x, y) for y in xs)


variant("=", 2)(equals)


@builtin("not=", "comparison", returns_bool=True)
def not_eq(x, *xs):
    """(not= x y ...) true when some arguments differ."""
    return not eq(x, *xs)


@builtin("==", "comparison", returns_bool=True)
def num_eq(x, *xs):
    """(== x y ...) numeric equality."""
    number(NAME, x)
    return all(number(NAME, y) == x for y in xs)


def _ordering(name, test):
    def compare2(a, b):
        ta, tb = type(a), type(b)
        if (ta is int or ta is float) and (tb is int or tb is float):
            return test(a, b)
        if ta is str and tb is str:
            return test(a, b)
        _refuse(name, a, b)

    def compare_all(x, *xs):
        if not xs:
            if type(x) not in (int, float, str):
                _refuse(name, x, x)
            return True
        for y in xs:
            if not compare2(x, y):
                return False
            x = y
        return True
    compare2.__name__ = compare2.__qualname__ = f"compare2_{test.__name__}"
    compare_all.__name__ = compare_all.__qualname__ = f"compare_{test.__name__}"
    compare_all.__doc__ = f"({name} x y ...) numbers with numbers or strings with strings."
    builtin(name, "comparison", returns_bool=True)(compare_all)
    variant(name, 2)(compare2)


def _refuse(name, a, b):
    raise error("type_error", f"{name} cannot compare {type_name(a)} with {type_name(b)}",
                "compare numbers with numbers and strings with strings; check for nil first")


_ordering("<", lt)
_ordering(">", gt)
_ordering("<=", le)
_ordering(">=", ge)


@builtin("compare", "comparison")
def compare_(a, b):
    """(compare a b) -1, 0 or 1; nil sorts first."""
    return compare(a, b)
