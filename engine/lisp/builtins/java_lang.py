"""What the reference implementation admits of java.lang and LLMs write: the String methods
`.contains .startsWith .endsWith .indexOf .lastIndexOf .length .substring .trim` with Java's
semantics (indexes count UTF-16 code units, as Java's do), `Integer/parseInt` and
`Long/parseLong` (a decimal integer in range, else an error saying so), and `type`, the
reference's keyword for a value's kind (`:string`, `:number`, `:map`, ...; nil for nil)."""

from __future__ import annotations

import unicodedata

from engine.lisp.builtins.registry import builtin
from engine.lisp.errors import error
from engine.lisp.values import HostMap, Keyword, Map, Regex, is_fn, type_name

_UNIT = 2                                   # bytes per UTF-16 code unit


def _units(method: str, s, what: str = "the receiver") -> bytes:
    """`s` as UTF-16 code units (big-endian bytes); a type_error for anything but a string."""
    if type(s) is not str:
        hint = "(str x) makes a string of anything" if s is not None else None
        raise error("type_error", f"(.{method} s ...) needs a string as {what}, got "
                                  f"{type_name(s)}", hint)
    return s.encode("utf-16-be", "surrogatepass")


def _arg(method: str, s) -> bytes:
    if s is None:
        raise error("type_error", f"String.{method} argument is null",
                    f"pass a string to .{method}")
    return _units(method, s, "its argument")


def _index(haystack: bytes, needle: bytes, start: int = 0, last: bool = False) -> int:
    """Java's indexOf / lastIndexOf over code units: matches start on a unit boundary."""
    if last:
        at = haystack.rfind(needle)
        while at > 0 and at % _UNIT:
            at = haystack.rfind(needle, 0, at + len(needle) - 1)
    else:
        at = haystack.find(needle, max(start, 0) * _UNIT)
        while at >= 0 and at % _UNIT:
            at = haystack.find(needle, at + 1)
    return -1 if at < 0 else at // _UNIT


@builtin(".contains", "interop")
def java_contains(s, sub):
    """(.contains s sub) whether sub occurs in s."""
    return _index(_units("contains", s), _arg("contains", sub)) >= 0


@builtin(".startsWith", "interop")
def java_starts_with(s, prefix):
    """(.startsWith s prefix)"""
    return _units("startsWith", s).startswith(_arg("startsWith", prefix))


@builtin(".endsWith", "interop")
def java_ends_with(s, suffix):
    """(.endsWith s suffix)"""
    return _units("endsWith", s).endswith(_arg("endsWith", suffix))


@builtin(".indexOf", "interop")
def java_index_of(s, sub, start=0):
    """(.indexOf s sub) / (.indexOf s sub from) the first index of sub, -1 when absent."""
    if type(start) is not int or isinstance(start, bool):
        raise error("type_error", f".indexOf needs an integer start, got {type_name(start)}")
    units, needle = _units("indexOf", s), _arg("indexOf", sub)
    if not needle:
        return min(max(start, 0), len(units) // _UNIT)
    return _index(units, needle, start)


@builtin(".lastIndexOf", "interop")
def java_last_index_of(s, sub):
    """(.lastIndexOf s sub) the last index of sub, -1 when absent."""
    units, needle = _units("lastIndexOf", s), _arg("lastIndexOf", sub)
    return len(units) // _UNIT if not needle else _index(units, needle, last=True)


@builtin(".length", "interop")
def java_length(s):
    """(.length s) the length in UTF-16 code units (count gives characters)."""
    return len(_units("length", s)) // _UNIT


@builtin(".substring", "interop")
def java_substring(s, begin, end=None):
    """(.substring s begin) / (.substring s begin end), indexes in UTF-16 code units."""
    units = _units("substring", s)
    n = len(units) // _UNIT
    end = n if end is None else end
    for x in (begin, end):
        if type(x) is not int or isinstance(x, bool):
            raise error("type_error", f".substring needs integer indexes, got {type_name(x)}")
    if not 0 <= begin <= end <= n:
        raise error("index_out_of_bounds", f"begin {begin}, end {end}, length {n}",
                    "(subs s start end) counts characters; both need 0 <= start <= end <= length")
    try:
        return units[begin * _UNIT:end * _UNIT].decode("utf-16-be")
    except UnicodeDecodeError:
        raise error("index_out_of_bounds", f".substring {begin} {end} cuts a character in two",
                    "use (subs s start end), which counts characters") from None


@builtin(".trim", "interop")
def java_trim(s):
    """(.trim s) s without leading and trailing characters up to U+0020 (Java's trim)."""
    _units("trim", s)
    return s.strip("".join(map(chr, range(0x21))))


def _parse(name: str, text, low: int, high: int) -> int:
    if type(text) is not str:
        raise error("type_error", f"{name} needs a string, got {type_name(text)}",
                    "(str x) makes a string of anything")
    sign, digits = (text[0], text[1:]) if text[:1] in ("+", "-") else ("", text)
    values = [unicodedata.decimal(c, None) if ord(c) < 0x10000 else None for c in digits]
    if not digits or None in values:
        raise error("type_error", f'{name}: For input string: "{text[:100]}"',
                    "(parse-long s) gives nil instead of an error for text that is not a number")
    n = int("".join(map(str, values)))
    n = -n if sign == "-" else n
    if not low <= n <= high:
        raise error("type_error", f'{name}: For input string: "{text[:100]}" (out of range '
                                  f"{low}..{high})")
    return n


@builtin("Integer/parseInt", "interop")
def java_parse_int(text):
    """(Integer/parseInt s) the int written in s; an error for anything else or out of range."""
    return _parse("Integer/parseInt", text, -2**31, 2**31 - 1)


@builtin("Long/parseLong", "interop")
def java_parse_long(text):
    """(Long/parseLong s) the long written in s; an error for anything else or out of range."""
    return _parse("Long/parseLong", text, -2**63, 2**63 - 1)


_KINDS = {bool: "boolean", int: "number", float: "number", str: "string", tuple: "vector",
          Map: "map", HostMap: "map", frozenset: "set", Keyword: "keyword", Regex: "regex"}


@builtin("type", "predicates")
def type_keyword(x):
    """(type x) x's kind as the reference implementation names it: :string, :number, :boolean,
    :keyword, :vector, :map, :set, :regex, :function, else :unknown; nil for nil."""
    if x is None:
        return None
    kind = _KINDS.get(type(x))
    if kind is None:
        kind = "vector" if isinstance(x, tuple) else "set" if isinstance(x, frozenset) \
            else "map" if isinstance(x, (Map, HostMap)) else "function" if is_fn(x) else "unknown"
    return Keyword(kind)
