"""clojure.string: join, split, trim, upper-case, includes?, index-of, blank?, escape... and
subs.

Reachable as plain names and as `str/x`, `clojure.string/x`, `string/x`. Strings count Unicode
code points; characters are 1-character strings. Every function that can build a long string
checks the result's length against the run's limit before building it. `replace` is in
string_replace.py, `format` in string_format.py.
"""

from __future__ import annotations

import math
import re as _py_re

from engine.lisp.access import as_fn
from engine.lisp.builtins.conversion import str_value
from engine.lisp.builtins.regex import java_split
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import check_length, check_size, items, limits, type_error
from engine.lisp.values import HostMap, Map, MAPS, Regex


_MISSING = object()


# Java's Character.isWhitespace, which clojure.string/trim and blank? use: no-break spaces
# (U+00A0, U+2007, U+202F) are not whitespace.
WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
              "\u2008\u2009\u200a\u2028\u2029\u205f\u3000")


def _string(fname: str, s, what: str = "a string") -> str:
    if type(s) is str:
        return s
    raise type_error(fname, what, s)


def _text(fname: str, s) -> str:
    """Functions that Clojure applies to `(.toString s)`: any value but nil, as `str` shows it."""
    if type(s) is str:
        return s
    if s is None:
        raise type_error(fname, "a string", s)
    text = str_value(s)
    check_length(fname, len(text))
    return text


def _index(fname: str, i) -> int:
    t = type(i)
    if t is int:
        return i
    if t is float and math.isfinite(i):
        return int(i)
    raise type_error(fname, "an integer index", i)


# --- substrings and joining -------------------------------------------------------------



@builtin("subs", "strings")
def subs(s, start, end=None):
    """(subs s start) or (subs s start end) the characters from start to end; indices are clamped.

    The end is exclusive; indices out of range are clamped to the string instead of failing."""
    s = _string(NAME, s)
    n = len(s)
    i = min(max(_index(NAME, start), 0), n)
    if end is None:
        return s[i:]
    j = min(max(_index(NAME, end), i), n)
    return s[i:j]


@builtin("join", "strings")
def join(sep_or_coll, coll=_MISSING):
    """(join coll) or (join sep coll) the items as text (as str shows them), with sep between.

    nil items are empty text; a nil collection gives ""."""
    if coll is _MISSING:
        sep, coll = "", sep_or_coll
    else:
        sep = str_value(sep_or_coll) if sep_or_coll is not None else ""
    values = items(NAME, coll)
    cap = limits().string_length
    if type(values) is tuple and set(map(type, values)) == {str}:     # the usual case, in C
        total = sum(map(len, values)) + len(sep) * (len(values) - 1)
        if total > cap:
            check_length(NAME, total)
        return sep.join(values)
    parts = []
    total = -len(sep)
    for v in values:
        text = v if type(v) is str else ("" if v is None else str_value(v))
        total += len(text) + len(sep)
        if total > cap:
            check_length(NAME, total)
        parts.append(text)
    return sep.join(parts)


# --- splitting ----------------------------------------------------------------------------



def _limit(fname: str, limit) -> int:
    if limit is None:
        return 0
    if type(limit) is int:
        return limit
    raise type_error(fname, "an integer limit", limit)


@builtin("split", "strings")
def split(s, sep, limit=None):
    """(split s sep) or (split s sep limit) pieces of s between separators (a string or a regex).
    With a string separator empty pieces are kept, trailing ones too; "" splits into
    characters. With a regex trailing empty pieces are dropped, as in Clojure. A positive limit
    gives at most that many pieces, the last holding the rest of s."""
    s = _string(NAME, s)
    n = _limit(NAME, limit)
    if type(sep) is Regex:
        return java_split(sep.pattern, s, n)
    if type(sep) is not str:
        raise type_error(NAME, 'a separator string or regex such as #","', sep)
    if sep == "":
        check_size(NAME, len(s))
        if n > 0 and len(s) > n:
            return (*s[: n - 1], s[n - 1:])
        return tuple(s)
    check_size(NAME, s.count(sep) + 1)
    return tuple(s.split(sep, n - 1) if n > 0 else s.split(sep))


_LINE_BREAK = _py_re.compile(r"\r?\n")


@builtin("split-lines", "strings")
def split_lines(s):
    """(split-lines s) the lines of s, split at \\n or \\r\\n; trailing empty lines are dropped."""
    s = _string(NAME, s)
    check_size(NAME, s.count("\n") + 1)
    lines = _LINE_BREAK.split(s)
    while lines and lines[-1] == "":
        lines.pop()
    return tuple(lines)


# --- trimming and case ------------------------------------------------------------------



@builtin("trim", "strings")
def trim(s):
    """(trim s) s without whitespace at both ends."""
    return _string(NAME, s).strip(WHITESPACE)


@builtin("triml", "strings")
def triml(s):
    """(triml s) s without whitespace at the start."""
    return _string(NAME, s).lstrip(WHITESPACE)


@builtin("trimr", "strings")
def trimr(s):
    """(trimr s) s without whitespace at the end."""
    return _string(NAME, s).rstrip(WHITESPACE)


@builtin("trim-newline", "strings")
def trim_newline(s):
    """(trim-newline s) s without the newline and return characters at its end."""
    return _string(NAME, s).rstrip("\r\n")


def _case_checked(fname: str, s: str, changed: str) -> str:
    if len(changed) > len(s):       # "ß" upper-cases to "SS"
        check_length(fname, len(changed))
    return changed


@builtin("upper-case", "strings", aliases=("upcase",))
def upper_case(s):
    """(upper-case s) s in upper case."""
    if type(s) is str:
        changed = s.upper()
        return changed if len(changed) == len(s) else _case_checked(NAME, s, changed)
    s = _text(NAME, s)
    return _case_checked(NAME, s, s.upper())


@builtin("lower-case", "strings", aliases=("downcase",))
def lower_case(s):
    """(lower-case s) s in lower case."""
    s = _text(NAME, s)
    return _case_checked(NAME, s, s.lower())


@builtin("capitalize", "strings")
def capitalize(s):
    """(capitalize s) s with its first character in upper case and the rest in lower case."""
    s = _text(NAME, s)
    return _case_checked(NAME, s, s[:1].upper() + s[1:].lower())


# --- searching ----------------------------------------------------------------------------



@builtin("starts-with?", "strings", returns_bool=True)
def starts_with(s, prefix):
    """(starts-with? s prefix) true when s begins with prefix."""
    return _text(NAME, s).startswith(_string(NAME, prefix, "a prefix string"))


@builtin("ends-with?", "strings", returns_bool=True)
def ends_with(s, suffix):
    """(ends-with? s suffix) true when s ends with suffix."""
    return _text(NAME, s).endswith(_string(NAME, suffix, "a suffix string"))


@builtin("includes?", "strings", returns_bool=True)
def includes(s, part):
    """(includes? s part) true when part occurs in s."""
    if type(s) is str and type(part) is str:
        return part in s
    if type(s) in (tuple, frozenset, Map, HostMap):
        raise type_error(NAME, "a string", s,
                         "for a collection use (contains? coll x) or (some #{x} coll)")
    return _string(NAME, part, "a string to look for") in _text(NAME, s)


@builtin("index-of", "strings")
def index_of(s, value, start=None):
    """(index-of s value) or (index-of s value from) the index of value in s, or nil.

    With from, the search starts at that index."""
    s = _text(NAME, s)
    value = _string(NAME, value, "a string or character to look for")
    i = 0 if start is None else _index(NAME, start)
    i = min(max(i, 0), len(s))
    found = s.find(value, i)
    return None if found < 0 else found


@builtin("last-index-of", "strings")
def last_index_of(s, value, start=None):
    """(last-index-of s value) or (last-index-of s value from) the index of the last value, or nil.

    With from, the match must start at or before that index."""
    s = _text(NAME, s)
    value = _string(NAME, value, "a string or character to look for")
    if start is None:
        found = s.rfind(value)
    else:
        i = _index(NAME, start)
        if i < 0:
            return None
        found = s.rfind(value, 0, min(i, len(s)) + len(value))
    return None if found < 0 else found


@builtin("blank?", "strings", returns_bool=True)
def blank(s):
    """(blank? s) true when s is nil, empty or only whitespace."""
    if s is None:
        return True
    return _string(NAME, s).strip(WHITESPACE) == ""


@builtin("clojure.string/reverse", "strings")
def string_reverse(s):
    """(str/reverse s) the characters of s in reverse order, as a string."""
    return _string(NAME, s)[::-1]


@builtin("escape", "strings", calls_fns=True)
def escape(s, cmap):
    """(escape s cmap) s with each character c replaced by (cmap c) unless that is nil.

    cmap is a map of characters to replacements, or a function."""
    s = _string(NAME, s)
    if type(cmap) in MAPS:
        def lookup(c):
            return cmap.get(c)
    else:
        lookup = as_fn(cmap)
    cap = limits().string_length
    parts = []
    total = 0
    for c in s:
        r = lookup(c)
        text = c if r is None or r is False else (r if type(r) is str else str_value(r))
        total += len(text)
        if total > cap:
            check_length(NAME, total)
        parts.append(text)
    return "".join(parts)
