"""Printing: println, print, prn, pr-str, and doc."""

from __future__ import annotations

from engine.lisp.builtins.registry import BUILTINS, NAME, builtin
from engine.lisp.builtins.support import check_length, limits
from engine.lisp.errors import error
from engine.lisp.printer import pr_str, print_str
from engine.lisp.running import current


def _print(text: str) -> None:
    current().add_print(text)


def _joined(values, convert) -> str:
    """The values' texts joined by spaces, built only just past the per-call print limit
    (the print is cut there anyway), so printing a huge value many times stays cheap."""
    budget = limits().print_chars + 1
    parts = []
    size = 0
    for v in values:
        if parts:
            size += 1
        text = convert(v, limit=max(budget - size, 1))
        parts.append(text)
        size += len(text)
        if size >= budget:
            break
    return " ".join(parts)


def _shown(value, limit: int) -> str:
    """One println argument: strings raw, and (as upstream) a non-empty vector of characters
    (1-character strings, such as (take 3 "abcdef")) joined into its text."""
    if type(value) is tuple and value and all(type(c) is str and len(c) == 1 for c in value):
        return "".join(value[:limit + 1])
    return print_str(value, limit=limit)


@builtin("println", "output")
def println(*values):
    """(println x ...) prints its arguments joined by spaces; strings print without quotes.

    Floats show at most 10 decimals. As upstream, a vector of characters (such as
    (take 3 "abcdef")) prints as its text. Each call is one entry of the output, cut after
    2000 characters."""
    _print(_joined(values, _shown))


@builtin("print", "output")
def print_(*values):
    """(print x ...) like println; each call is one entry of the output."""
    _print(_joined(values, _shown))


@builtin("prn", "output")
def prn(*values):
    """(prn x ...) prints values readably: strings keep their quotes."""
    _print(_joined(values, pr_str))


@builtin("pr-str", "output")
def pr_str_(*values):
    """(pr-str x ...) the readable text of the values, joined by spaces."""
    cap = limits().string_length
    parts = []
    size = -1
    for v in values:
        text = pr_str(v, limit=cap + 1)
        size += len(text) + 1
        if size > cap:
            check_length(NAME, size)
        parts.append(text)
    return " ".join(parts)


@builtin("doc", "output")
def doc(ref):
    """(doc "name") prints the documentation of a builtin, or of a function this program
    defined with a docstring, and returns nil (as the reference implementation does, whose
    preludes it also documents); else it prints `No documentation found for "name".`"""
    if type(ref) is not str:
        raise error("type_error", "(doc ...) takes the name as a string",
                    '(doc "map"), (doc "my-fn")')
    found = BUILTINS.get(ref)
    text = found.doc if found is not None and found.doc else next(
        (d.doc for d in reversed(current().definitions) if d.name == ref and d.doc), None)
    _print(text if text else f'No documentation found for "{ref}".')
    return None
