"""Printing and string conversion: println, print, prn, pr-str, str."""

from __future__ import annotations

from engine.lisp.builtins.registry import builtin, variant
from engine.lisp.builtins.support import check_length, limits
from engine.lisp.printer import pr_str, print_str, to_str


def _print(text: str) -> None:
    from engine.lisp.runtime import current
    current().add_print(text)


def _joined(values, convert) -> str:
    cap = limits().print_total_chars + 1
    return " ".join(convert(v, limit=cap) for v in values)


@builtin("println", "output")
def println(*values):
    """(println x ...) prints its arguments joined by spaces; strings print without quotes."""
    _print(_joined(values, print_str))


@builtin("print", "output")
def print_(*values):
    """(print x ...) like println; each call is one entry of the output."""
    _print(_joined(values, print_str))


@builtin("prn", "output")
def prn(*values):
    """(prn x ...) prints values readably: strings keep their quotes."""
    _print(_joined(values, pr_str))


@builtin("pr-str", "output")
def pr_str_(*values):
    """(pr-str x ...) the readable text of the values, joined by spaces."""
    cap = limits().string_length
    text = " ".join(pr_str(v, limit=cap + 1) for v in values)
    check_length("pr-str", len(text))
    return text


def _str1(x):
    if type(x) is str:
        return x
    return to_str(x, limit=limits().string_length + 1)


@builtin("str", "strings")
def str_(*values):
    """(str x ...) concatenates values as text; nil is empty, collections print as Clojure."""
    if not values:
        return ""
    parts = [_str1(v) for v in values]
    total = sum(map(len, parts))
    check_length("str", total)
    return "".join(parts)


@variant("str", 1)
def str_1(x):
    if type(x) is str:
        return x
    text = _str1(x)
    check_length("str", len(text))
    return text


@variant("str", 2)
def str_2(a, b):
    a = a if type(a) is str else _str1(a)
    b = b if type(b) is str else _str1(b)
    check_length("str", len(a) + len(b))
    return a + b
