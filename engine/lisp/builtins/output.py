"""Printing: println, print, prn, pr-str, and doc."""

from __future__ import annotations

from engine.lisp.builtins.registry import BUILTINS, NAME, builtin
from engine.lisp.builtins.support import check_length, limits
from engine.lisp.errors import error
from engine.lisp.printer import pr_str, printed_line
from engine.lisp.running import current


MEASURED_CUTS = 10   # a print's full length is counted up to 10 times its cut, no further


def _print_line(values, readable: bool) -> None:
    """One entry of the output: the values joined by spaces, built only up to the per-call
    print limit (it is cut there anyway) and measured only up to ten times that, so a print
    of a huge value costs no more than printing ten times the part of it shown."""
    cut = limits().print_chars
    current().add_print(*printed_line(values, readable, cut, MEASURED_CUTS * cut))


@builtin("println", "output")
def println(*values):
    """(println x ...) prints its arguments joined by spaces; strings print without quotes.

    Floats show at most 10 decimals. As upstream, a vector of characters (such as
    (take 3 "abcdef")) prints as its text. Each call is one entry of the output, cut after
    2000 characters."""
    _print_line(values, False)


@builtin("print", "output")
def print_(*values):
    """(print x ...) like println; each call is one entry of the output."""
    _print_line(values, False)


@builtin("prn", "output")
def prn(*values):
    """(prn x ...) prints values readably: strings keep their quotes."""
    _print_line(values, True)


@builtin("pr-str", "output")
def pr_str_(*values):
    """(pr-str x ...) the readable text of the values, joined by spaces."""
    cap = limits().string_length
    parts = []
    size = -1
    for v in values:
        text = pr_str(v, limit=cap + 1)     # a text cut there is too long: an error
        size = check_length(NAME, size + len(text) + 1)
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
    text = text or f'No documentation found for "{ref}".'
    current().add_print(text, len(text))
    return None
