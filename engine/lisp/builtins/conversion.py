"""Values to and from text: str, parse-long, parse-double, parse-boolean, name, namespace,
keyword, symbol, char.
"""

from __future__ import annotations

import math
import re as _py_re

from engine.lisp.builtins.registry import NAME, builtin, variant
from engine.lisp.builtins.support import check_length, limits, type_error
from engine.lisp.errors import error
from engine.lisp.printer import to_str
from engine.lisp.values import INT_MAX, INT_MIN, Keyword, Regex, Symbol


_MISSING = object()


def str_value(x) -> str:
    """What `(str x)` gives for one value (a regex gives its pattern text, as in Clojure),
    cut just past the string length limit so that callers' length checks fail."""
    t = type(x)
    if t is str:
        return x
    if t is int:
        return str(x)
    if x is None:
        return ""
    if t is Keyword:
        return ":" + x.name
    if t is bool:
        return "true" if x else "false"
    if t is float and 1e-3 <= abs(x) < 1e7:
        return repr(x)      # Clojure's form in this range: the shortest digits, no exponent
    if t is Regex:
        return x.source
    return to_str(x, limit=limits().string_length + 1)


_str1 = str_value


@builtin("str", "conversion")
def str_(*values):
    """(str x ...) concatenates values as text; nil is empty, collections print as Clojure."""
    if len(values) == 1:
        return str_1(values[0])
    if not values:
        return ""
    if len(values) <= 8:       # the usual (str "id-" n): each part is at most a limit long
        parts = [v if type(v) is str else str(v) if type(v) is int else _str1(v)
                 for v in values]
        total = sum(map(len, parts))
        if total > limits().string_length:
            check_length(NAME, total)
        return "".join(parts)
    cap = limits().string_length
    parts = []
    total = 0
    for v in values:
        text = v if type(v) is str else _str1(v)
        total += len(text)
        if total > cap:
            check_length(NAME, total)
        parts.append(text)
    return "".join(parts)


@variant("str", 1)
def str_1(x):
    if type(x) is str:
        return x
    text = _str1(x)
    check_length(NAME, len(text))
    return text


@variant("str", 2)
def str_2(a, b):
    if type(a) is not str:
        a = str(a) if type(a) is int else _str1(a)
    if type(b) is not str:
        b = str(b) if type(b) is int else _str1(b)
    check_length(NAME, len(a) + len(b))
    return a + b


# --- parsing ------------------------------------------------------------------------------



_LONG = _py_re.compile(r"[+-]?[0-9]+")
_DOUBLE = _py_re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|Infinity|NaN)")


@builtin("parse-long", "conversion")
def parse_long(s):
    """(parse-long s) the integer written in s (the whole string, such as "-42"), else nil."""
    if type(s) is not str or not _LONG.fullmatch(s):
        return None
    digits = s.lstrip("+-").lstrip("0")
    if len(digits) > 19:            # past 64 bits however many zeros lead
        return None
    n = int(digits or "0")
    n = -n if s[0] == "-" else n
    return n if INT_MIN <= n <= INT_MAX else None


@builtin("parse-double", "conversion")
def parse_double(s):
    """(parse-double s) the float written in s (the whole string: "1.5", "2", "1e3", "NaN"), or nil.

    Whitespace and forms such as "1." or ".5" give nil, as upstream did."""
    if type(s) is not str or not _DOUBLE.fullmatch(s):
        return None
    return float(s.replace("Infinity", "inf"))


@builtin("parse-boolean", "conversion")
def parse_boolean(s):
    """(parse-boolean s) true for "true", false for "false", else nil."""
    if type(s) is str:
        if s == "true":
            return True
        if s == "false":
            return False
    return None


# --- names, keywords, symbols, characters -------------------------------------------------



def _split_name(full: str) -> tuple[str | None, str]:
    """Clojure's split of `ns/name` at the first slash (a lone "/" is a name)."""
    i = full.find("/")
    if i < 0 or full == "/":
        return None, full
    return full[:i], full[i + 1:]


@builtin("name", "conversion")
def name(x):
    """(name x) the name of a keyword, symbol or string, without namespace: (name :a/b) is "b"."""
    t = type(x)
    if t is str:
        return x
    if t is Keyword or t is Symbol:
        return _split_name(x.name)[1]
    raise type_error(NAME, "a keyword, symbol or string", x)


@builtin("namespace", "conversion")
def namespace(x):
    """(namespace x) the namespace of a keyword or symbol ((namespace :a/b) is "a"), or nil."""
    t = type(x)
    if t is Keyword or t is Symbol:
        return _split_name(x.name)[0]
    raise type_error(NAME, "a keyword or symbol", x)


def _name_part(fname: str, x) -> str:
    if type(x) is str:
        return x
    raise type_error(fname, "a string", x)


@builtin("keyword", "conversion")
def keyword(ns_or_name, name_=_MISSING):
    """(keyword name) or (keyword ns name) a keyword from a string: (keyword "a") is :a.

    (keyword "ns" "a") is :ns/a; a keyword is returned as it is; other values give nil."""
    if name_ is _MISSING:
        x = ns_or_name
        t = type(x)
        if t is Keyword:
            return x
        if t is str:
            check_length(NAME, len(x))
            return Keyword(x)
        if t is Symbol:
            return Keyword(x.name)
        return None
    local = _name_part(NAME, name_)
    if ns_or_name is None:
        return Keyword(local)
    return Keyword(_name_part(NAME, ns_or_name) + "/" + local)


@builtin("symbol", "conversion")
def symbol(ns_or_name, name_=_MISSING):
    """(symbol name) or (symbol ns name) a symbol from a string (or keyword)."""
    if name_ is _MISSING:
        x = ns_or_name
        t = type(x)
        if t is Symbol:
            return x
        if t is str or t is Keyword:
            return Symbol(x if t is str else x.name)
        raise type_error(NAME, "a string, keyword or symbol", x)
    local = _name_part(NAME, name_)
    if ns_or_name is None:
        return Symbol(local)
    return Symbol(_name_part(NAME, ns_or_name) + "/" + local)


@builtin("char", "conversion")
def char(x):
    """(char n) the character with code n, as a 1-character string: (char 97) is "a"."""
    t = type(x)
    if t is str and len(x) == 1:
        return x
    if t is float and math.isfinite(x):
        x, t = int(x), int
    if t is not int:
        raise type_error(NAME, "a character code (an integer)", x)
    if not 0 <= x <= 0x10FFFF or 0xD800 <= x <= 0xDFFF:
        raise error("arithmetic_error", f"{NAME}: {x} is not a character code (0 to 1114111, "
                                        "not 55296 to 57343)")
    return chr(x)
