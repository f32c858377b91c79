"""Strings and clojure.string: subs, join, split, replace, trim, parse-long, name...

Reachable as plain names and as `str/x`, `clojure.string/x`, `string/x`. Strings count Unicode
code points; characters are 1-character strings. Every function that can build a long string
checks the result's length against the run's limit before building it.
"""

from __future__ import annotations

import math
import re as _py_re

from engine.lisp.access import as_fn
from engine.lisp.builtins.output import str_value
from engine.lisp.builtins.regex import (fast_ok, find_all, java_split, match_value,
                                        regex_timeout, time_left)
from engine.lisp.builtins.registry import builtin
from engine.lisp.builtins.support import (check_length, check_size, items, limits, show,
                                          type_error)
from engine.lisp.errors import PtcError, error
from engine.lisp.values import HostMap, INT_MAX, INT_MIN, Keyword, MAPS, Map, Regex, Symbol, is_fn

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
    s = _string("subs", s)
    n = len(s)
    i = min(max(_index("subs", start), 0), n)
    if end is None:
        return s[i:]
    j = min(max(_index("subs", end), i), n)
    return s[i:j]


@builtin("join", "strings")
def join(sep_or_coll, coll=_MISSING):
    """(join coll) or (join sep coll) the items as text (as str shows them), with sep between.

    nil items are empty text; a nil collection gives ""."""
    if coll is _MISSING:
        sep, coll = "", sep_or_coll
    else:
        sep = str_value(sep_or_coll) if sep_or_coll is not None else ""
    values = items("join", coll)
    cap = limits().string_length
    if type(values) is tuple and set(map(type, values)) == {str}:     # the usual case, in C
        total = sum(map(len, values)) + len(sep) * (len(values) - 1)
        if total > cap:
            check_length("join", total)
        return sep.join(values)
    parts = []
    total = -len(sep)
    for v in values:
        text = v if type(v) is str else ("" if v is None else str_value(v))
        total += len(text) + len(sep)
        if total > cap:
            check_length("join", total)
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
    s = _string("split", s)
    n = _limit("split", limit)
    if type(sep) is Regex:
        return java_split(sep.pattern, s, n)
    if type(sep) is not str:
        raise type_error("split", 'a separator string or regex such as #","', sep)
    if sep == "":
        check_size("split", len(s))
        if n > 0 and len(s) > n:
            return (*s[: n - 1], s[n - 1:])
        return tuple(s)
    check_size("split", s.count(sep) + 1)
    return tuple(s.split(sep, n - 1) if n > 0 else s.split(sep))


_LINE_BREAK = _py_re.compile(r"\r?\n")


@builtin("split-lines", "strings")
def split_lines(s):
    """(split-lines s) the lines of s, split at \\n or \\r\\n; trailing empty lines are dropped."""
    s = _string("split-lines", s)
    check_size("split-lines", s.count("\n") + 1)
    lines = _LINE_BREAK.split(s)
    while lines and lines[-1] == "":
        lines.pop()
    return tuple(lines)


# --- trimming and case ------------------------------------------------------------------

@builtin("trim", "strings")
def trim(s):
    """(trim s) s without whitespace at both ends."""
    return _string("trim", s).strip(WHITESPACE)


@builtin("triml", "strings")
def triml(s):
    """(triml s) s without whitespace at the start."""
    return _string("triml", s).lstrip(WHITESPACE)


@builtin("trimr", "strings")
def trimr(s):
    """(trimr s) s without whitespace at the end."""
    return _string("trimr", s).rstrip(WHITESPACE)


@builtin("trim-newline", "strings")
def trim_newline(s):
    """(trim-newline s) s without the newline and return characters at its end."""
    return _string("trim-newline", s).rstrip("\r\n")


def _case_checked(fname: str, s: str, changed: str) -> str:
    if len(changed) > len(s):       # "ß" upper-cases to "SS"
        check_length(fname, len(changed))
    return changed


@builtin("upper-case", "strings", aliases=("upcase",))
def upper_case(s):
    """(upper-case s) s in upper case."""
    if type(s) is str:
        changed = s.upper()
        return changed if len(changed) == len(s) else _case_checked("upper-case", s, changed)
    s = _text("upper-case", s)
    return _case_checked("upper-case", s, s.upper())


@builtin("lower-case", "strings", aliases=("downcase",))
def lower_case(s):
    """(lower-case s) s in lower case."""
    s = _text("lower-case", s)
    return _case_checked("lower-case", s, s.lower())


@builtin("capitalize", "strings")
def capitalize(s):
    """(capitalize s) s with its first character in upper case and the rest in lower case."""
    s = _text("capitalize", s)
    return _case_checked("capitalize", s, s[:1].upper() + s[1:].lower())


# --- searching ----------------------------------------------------------------------------

@builtin("starts-with?", "strings", returns_bool=True)
def starts_with(s, prefix):
    """(starts-with? s prefix) true when s begins with prefix."""
    return _text("starts-with?", s).startswith(_string("starts-with?", prefix, "a prefix string"))


@builtin("ends-with?", "strings", returns_bool=True)
def ends_with(s, suffix):
    """(ends-with? s suffix) true when s ends with suffix."""
    return _text("ends-with?", s).endswith(_string("ends-with?", suffix, "a suffix string"))


@builtin("includes?", "strings", returns_bool=True)
def includes(s, part):
    """(includes? s part) true when part occurs in s."""
    if type(s) is str and type(part) is str:
        return part in s
    if type(s) in (tuple, frozenset, Map, HostMap):
        raise type_error("includes?", "a string", s,
                         "for a collection use (contains? coll x) or (some #{x} coll)")
    return _string("includes?", part, "a string to look for") in _text("includes?", s)


@builtin("index-of", "strings")
def index_of(s, value, start=None):
    """(index-of s value) or (index-of s value from) the index of value in s, or nil.

    With from, the search starts at that index."""
    s = _text("index-of", s)
    value = _string("index-of", value, "a string or character to look for")
    i = 0 if start is None else _index("index-of", start)
    i = min(max(i, 0), len(s))
    found = s.find(value, i)
    return None if found < 0 else found


@builtin("last-index-of", "strings")
def last_index_of(s, value, start=None):
    """(last-index-of s value) or (last-index-of s value from) the index of the last value, or nil.

    With from, the match must start at or before that index."""
    s = _text("last-index-of", s)
    value = _string("last-index-of", value, "a string or character to look for")
    if start is None:
        found = s.rfind(value)
    else:
        i = _index("last-index-of", start)
        if i < 0:
            return None
        found = s.rfind(value, 0, min(i, len(s)) + len(value))
    return None if found < 0 else found


@builtin("blank?", "strings", returns_bool=True)
def blank(s):
    """(blank? s) true when s is nil, empty or only whitespace."""
    if s is None:
        return True
    return _string("blank?", s).strip(WHITESPACE) == ""


@builtin("clojure.string/reverse", "strings")
def string_reverse(s):
    """(str/reverse s) the characters of s in reverse order, as a string."""
    return _string("str/reverse", s)[::-1]


@builtin("escape", "strings", calls_fns=True)
def escape(s, cmap):
    """(escape s cmap) s with each character c replaced by (cmap c) unless that is nil.

    cmap is a map of characters to replacements, or a function."""
    s = _string("escape", s)
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
            check_length("escape", total)
        parts.append(text)
    return "".join(parts)


# --- replacing ----------------------------------------------------------------------------

def _template(fname: str, replacement: str, pattern):
    """Java's replacement syntax: $1 and ${name} insert groups, \\x is a literal x.
    Returns a list of strings and group numbers."""
    parts: list = []
    literal: list[str] = []
    groups = pattern.groups
    i, n = 0, len(replacement)

    def bad(message):
        return error("type_error", f"{fname}: bad replacement {show(replacement)}: {message}",
                     "write \\\\$ for a literal $ in a regex replacement")

    while i < n:
        c = replacement[i]
        if c == "\\":
            if i + 1 >= n:
                raise bad("a \\ at the end escapes nothing")
            literal.append(replacement[i + 1])
            i += 2
        elif c == "$":
            i += 1
            if i >= n:
                raise bad("$ without a group number")
            if replacement[i] == "{":
                close = replacement.find("}", i)
                if close < 0:
                    raise bad("${ without a closing }")
                name = replacement[i + 1:close]
                if name not in pattern.groupindex:
                    raise bad(f"no group named {name}")
                ref = pattern.groupindex[name]
                i = close + 1
            else:
                if not "0" <= replacement[i] <= "9":
                    raise bad(f"$ must be followed by a group number, got {replacement[i]}")
                ref = ord(replacement[i]) - 48
                i += 1
                while i < n and "0" <= replacement[i] <= "9":
                    longer = ref * 10 + ord(replacement[i]) - 48
                    if longer > groups:     # Java takes the longest group number that exists
                        break
                    ref = longer
                    i += 1
                if ref > groups:
                    raise bad(f"no group {ref} (the regex has {groups})")
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(ref)
        else:
            literal.append(c)
            i += 1
    if literal:
        parts.append("".join(literal))
    return parts


def _callable(f) -> bool:
    return is_fn(f) or type(f) in (Map, HostMap, Keyword, frozenset)


_FAST_REPLACE_CHARS = 8_000_000


def _fast_replace(fname: str, s: str, pattern, replacement: str, count: int | None):
    """The replacement done by the `regex` package in C, when it gives Java's result and the
    result cannot be huge: the pattern passes `fast_ok` and the replacement uses no group but
    $0 (a group in a lookahead could repeat the whole rest of s at every match). None when
    the slow path must run."""
    if not fast_ok(pattern):
        return None
    try:
        template = _template(fname, replacement, pattern)
    except PtcError:
        return None         # Java reports a bad replacement only when something matches
    if any(type(p) is int and p != 0 for p in template):
        return None
    literal = sum(len(p) for p in template if type(p) is str)
    whole = sum(1 for p in template if type(p) is int)
    n = len(s)
    if n + (n + 1) * literal + whole * n > _FAST_REPLACE_CHARS:
        return None
    python_template = "".join(p.replace("\\", "\\\\") if type(p) is str else "\\g<0>"
                              for p in template)
    try:
        result = pattern.sub(python_template, s, count=count or 0, timeout=time_left())
    except TimeoutError:
        raise regex_timeout() from None
    check_length(fname, len(result))
    return result


def _regex_replace(fname: str, s: str, pattern, replacement, count: int | None) -> str:
    cap = limits().string_length
    if type(replacement) is str:
        fast = _fast_replace(fname, s, pattern, replacement, count)
        if fast is not None:
            return fast
        make = None
        template = None
    elif _callable(replacement):
        f = as_fn(replacement)
        template = None

        def make(m):
            r = f(match_value(m))
            return r if type(r) is str else ("" if r is None else str_value(r))
    else:
        raise type_error(fname, "a replacement string or function", replacement)
    out: list[str] = []
    total = 0
    index = 0
    done = 0
    for m in find_all(pattern, s):
        start, end = m.span()
        if make is not None:
            text = make(m)
        else:
            if template is None:
                template = _template(fname, replacement, pattern)
            text = "".join(p if type(p) is str else (m.group(p) or "") for p in template)
        total += (start - index) + len(text)
        if total > cap:
            check_length(fname, total + len(s) - end)
        out.append(s[index:start])
        out.append(text)
        index = end
        done += 1
        if count is not None and done >= count:
            break
    if not done:
        return s
    total += len(s) - index
    check_length(fname, total)
    out.append(s[index:])
    return "".join(out)


def _literal_replace(fname: str, s: str, match: str, replacement, count: int | None) -> str:
    if type(replacement) is not str:
        if not _callable(replacement):
            raise type_error(fname, "a replacement string or function", replacement)
        import regex
        pattern = regex.compile(regex.escape(match))
        return _regex_replace(fname, s, pattern, replacement, count)
    found = s.count(match) if match else len(s) + 1
    if count is not None:
        found = min(found, count)
    check_length(fname, len(s) + found * (len(replacement) - len(match)))
    return s.replace(match, replacement, -1 if count is None else count)


def _string_replace(fname: str, s, match, replacement, count: int | None) -> str:
    s = _string(fname, s)
    if type(match) is Regex:
        return _regex_replace(fname, s, match.pattern, replacement, count)
    if type(match) is str:
        return _literal_replace(fname, s, match, replacement, count)
    raise type_error(fname, "a string or regex to replace", match)


def _replace_items(smap, coll) -> tuple:
    """Core (replace smap coll): items found as keys of smap (or indices of a vector smap)
    are replaced by their values."""
    values = items("replace", coll)
    if type(smap) in MAPS:
        def swap(x):
            try:
                return smap.get(x, x)
            except TypeError:
                return x
    elif type(smap) is tuple:
        def swap(x):
            return smap[x] if type(x) is int and 0 <= x < len(smap) else x
    else:
        raise type_error("replace", "a map of replacements (replace smap coll), or a string "
                                    "(replace s match replacement)", smap)
    return tuple(swap(x) for x in values)


@builtin("replace", "strings", calls_fns=True)
def replace(s, match, replacement=_MISSING):
    """(replace s match replacement) every match replaced; match is a string or regex ($1 = group).

    A string match is replaced literally. With a regex, the replacement may use $1 (or ${name})
    for groups and \\$ for a dollar sign; it may also be a function of the match (the text, or
    [full g1 ...] when the regex has groups). (replace smap coll), with two arguments, replaces
    the items of coll that are keys of the map smap by their values."""
    if replacement is _MISSING:
        return _replace_items(s, match)
    return _string_replace("replace", s, match, replacement, None)


@builtin("replace-first", "strings", calls_fns=True)
def replace_first(s, match, replacement):
    """(replace-first s match replacement) like replace, for the first match only."""
    return _string_replace("replace-first", s, match, replacement, 1)


# --- parsing ------------------------------------------------------------------------------

_LONG = _py_re.compile(r"[+-]?[0-9]+")
_DOUBLE = _py_re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|Infinity|NaN)")


@builtin("parse-long", "strings")
def parse_long(s):
    """(parse-long s) the integer written in s (the whole string, such as "-42"), else nil."""
    if type(s) is not str or len(s) > 40 or not _LONG.fullmatch(s):
        return None
    n = int(s)
    return n if INT_MIN <= n <= INT_MAX else None


@builtin("parse-double", "strings")
def parse_double(s):
    """(parse-double s) the float written in s (the whole string: "1.5", "2", "1e3", "NaN"), or nil.

    Whitespace and forms such as "1." or ".5" give nil, as upstream did."""
    if type(s) is not str or len(s) > 400 or not _DOUBLE.fullmatch(s):
        return None
    return float(s.replace("Infinity", "inf"))


@builtin("parse-boolean", "strings")
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


@builtin("name", "strings")
def name(x):
    """(name x) the name of a keyword, symbol or string, without namespace: (name :a/b) is "b"."""
    t = type(x)
    if t is str:
        return x
    if t is Keyword or t is Symbol:
        return _split_name(x.name)[1]
    raise type_error("name", "a keyword, symbol or string", x)


@builtin("namespace", "strings")
def namespace(x):
    """(namespace x) the namespace of a keyword or symbol ((namespace :a/b) is "a"), or nil."""
    t = type(x)
    if t is Keyword or t is Symbol:
        return _split_name(x.name)[0]
    raise type_error("namespace", "a keyword or symbol", x)


def _name_part(fname: str, x) -> str:
    if type(x) is str:
        return x
    raise type_error(fname, "a string", x)


@builtin("keyword", "strings")
def keyword(ns_or_name, name_=_MISSING):
    """(keyword name) or (keyword ns name) a keyword from a string: (keyword "a") is :a.

    (keyword "ns" "a") is :ns/a; a keyword is returned as it is; other values give nil."""
    if name_ is _MISSING:
        x = ns_or_name
        t = type(x)
        if t is Keyword:
            return x
        if t is str:
            check_length("keyword", len(x))
            return Keyword(x)
        if t is Symbol:
            return Keyword(x.name)
        return None
    local = _name_part("keyword", name_)
    if ns_or_name is None:
        return Keyword(local)
    return Keyword(_name_part("keyword", ns_or_name) + "/" + local)


@builtin("symbol", "strings")
def symbol(ns_or_name, name_=_MISSING):
    """(symbol name) or (symbol ns name) a symbol from a string (or keyword)."""
    if name_ is _MISSING:
        x = ns_or_name
        t = type(x)
        if t is Symbol:
            return x
        if t is str or t is Keyword:
            return Symbol(x if t is str else x.name)
        raise type_error("symbol", "a string, keyword or symbol", x)
    local = _name_part("symbol", name_)
    if ns_or_name is None:
        return Symbol(local)
    return Symbol(_name_part("symbol", ns_or_name) + "/" + local)


@builtin("char", "strings")
def char(x):
    """(char n) the character with code n, as a 1-character string: (char 97) is "a"."""
    t = type(x)
    if t is str and len(x) == 1:
        return x
    if t is float and math.isfinite(x):
        x, t = int(x), int
    if t is not int:
        raise type_error("char", "a character code (an integer)", x)
    if not 0 <= x <= 0x10FFFF or 0xD800 <= x <= 0xDFFF:
        raise error("arithmetic_error", f"char: {x} is not a character code (0 to 1114111, "
                                        "not 55296 to 57343)")
    return chr(x)

