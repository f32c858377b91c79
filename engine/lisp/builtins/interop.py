"""The few Java interop calls upstream allows: dates and the current time, and java.lang's String
methods and number parsing.

Dates are plain data here, so programs stay printable, comparable and deterministic:
- a `java.util.Date` is its epoch milliseconds, an integer (`(java.util.Date. "2024-01-15")`
  is 1705276800000), so `<`, `-` and `sort` work on dates directly;
- a `java.time.LocalDate` is its ISO text "YYYY-MM-DD", a string, whose string order is
  date order.
The clock is read only by `(java.util.Date.)` and `(System/currentTimeMillis)`.
A text that is not a valid date is a `type_error` naming the formats accepted.

What the reference implementation admits of java.lang and LLMs write: the String methods
`.contains .startsWith .endsWith .indexOf .lastIndexOf .length .substring .trim` with Java's
semantics (indexes count UTF-16 code units, as Java's do), `Integer/parseInt` and
`Long/parseLong` (a decimal integer in range, else an error saying so).
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from datetime import date, datetime, timezone
from email.utils import parsedate_to_datetime

from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import index_arg, show, show_typed
from engine.lisp.errors import error
from engine.lisp.values import INT_MAX, INT_MIN, type_name


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_LOCAL_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_ISO_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]")
_MAX_TEXT = 100
_NOT_GIVEN = object()          # an optional argument left out


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _bad_date(fname: str, text: str, expected: str, example: str):
    return error("type_error", f"{fname}: cannot parse {show(text)} as a date; expected "
                               f"{expected}", f"for example {example}")


def _epoch_ms(dt: datetime) -> int:
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    delta = dt - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def _parse_date_text(fname: str, text: str) -> int:
    """Epoch milliseconds of an ISO-8601 date-time or date, or an RFC 2822 date (UTC when no
    offset is given)."""
    s = text.strip()
    if len(s) <= _MAX_TEXT:     # an empty text fails every parse below
        if _LOCAL_DATE.fullmatch(s):
            parsed = _try(lambda: datetime.combine(date.fromisoformat(s), datetime.min.time()))
        elif _ISO_DATE_TIME.match(s):
            iso = s[:-1] + "+00:00" if s[-1] in "Zz" else s
            parsed = _try(lambda: datetime.fromisoformat(iso[:10] + "T" + iso[11:]))
        else:
            parsed = _try(lambda: parsedate_to_datetime(s))
        if parsed is not None:
            return _epoch_ms(parsed)
    raise _bad_date(fname, text, "an ISO-8601 date-time or date, or an RFC 2822 date",
                    '"2024-01-15T10:30:00Z" or "2024-01-15"')


def _try(parse):
    try:
        return parse()
    except (ValueError, TypeError, IndexError, OverflowError):
        return None


@builtin("java.util.Date.", "interop")
def date_new(value=_NOT_GIVEN):
    """(java.util.Date. x) a date as epoch milliseconds (an integer); (java.util.Date.) is now.
    x: a number (|x| < 1e12 is read as seconds, else milliseconds) or a text
    ("2024-01-15T10:30:00Z", "2024-01-15", RFC 2822; UTC when no offset is given).
    An invalid text is a type_error."""
    if value is _NOT_GIVEN:
        return _now_ms()
    t = type(value)
    if t is int or t is float:
        if t is float and not math.isfinite(value):
            raise error("type_error", f"{NAME} expects a finite number, got {show(value)}")
        ms = int(value * 1000 if abs(value) < 1e12 else value)
        if INT_MIN <= ms <= INT_MAX:
            return ms
        raise error("type_error", f"{NAME}: {show(value)} is out of the range of dates")
    if t is str:
        return _parse_date_text(NAME, value)
    raise error("type_error", f"{NAME} expects a number of seconds or milliseconds or "
                              f"a date text, got {show_typed(value)}")


@builtin(".getTime", "interop")
def date_get_time(d):
    """(.getTime date) the date's epoch milliseconds (dates are already epoch milliseconds).
    A date text is parsed as by java.util.Date."""
    t = type(d)
    if t is int:
        return d
    if t is str:
        return _parse_date_text(NAME, d)
    raise error("type_error", f"{NAME} expects a date (from java.util.Date.), got "
                              f"{show_typed(d)}", "(.getTime (java.util.Date. text))")


@builtin("System/currentTimeMillis", "interop")
def current_time_millis():
    """(System/currentTimeMillis) the current time in epoch milliseconds (an integer)."""
    return _now_ms()


@builtin("LocalDate/parse", "interop")
def local_date_parse(text):
    """(LocalDate/parse "2024-01-15") a date as its ISO text "YYYY-MM-DD" (a string).
    Such dates compare and sort as strings; a text that is not a valid date is a type_error."""
    if type(text) is not str:
        raise error("type_error", f"{NAME} expects a text such as \"2024-01-15\", got "
                                  f"{show_typed(text)}")
    if _LOCAL_DATE.fullmatch(text):
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            pass
    raise _bad_date(NAME, text, "YYYY-MM-DD with a valid month and day",
                    '(LocalDate/parse "2024-01-15")')


# --- java.lang ----------------------------------------------------------------------------



_UNIT = 2                                   # bytes per UTF-16 code unit


def _units(method: str, s, what: str = "the receiver") -> bytes:
    """`s` as UTF-16 code units (big-endian bytes); a type_error for anything but a string.
    `method` is the builtin's name, with its dot (`.indexOf`)."""
    if type(s) is not str:
        hint = "(str x) makes a string of anything" if s is not None else None
        raise error("type_error", f"({method} s ...) needs a string as {what}, got "
                                  f"{type_name(s)}", hint)
    return s.encode("utf-16-be", "surrogatepass")


def _arg(method: str, s) -> bytes:
    if s is None:
        raise error("type_error", f"String{method} argument is null",
                    f"pass a string to {method}")
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
    return _index(_units(NAME, s), _arg(NAME, sub)) >= 0


@builtin(".startsWith", "interop")
def java_starts_with(s, prefix):
    """(.startsWith s prefix)"""
    return _units(NAME, s).startswith(_arg(NAME, prefix))


@builtin(".endsWith", "interop")
def java_ends_with(s, suffix):
    """(.endsWith s suffix)"""
    return _units(NAME, s).endswith(_arg(NAME, suffix))


@builtin(".indexOf", "interop")
def java_index_of(s, sub, start=0):
    """(.indexOf s sub) / (.indexOf s sub from) the first index of sub, -1 when absent."""
    if type(start) is not int:      # true and false are not integers here
        raise error("type_error", f"{NAME} needs an integer start, got {type_name(start)}")
    units, needle = _units(NAME, s), _arg(NAME, sub)
    if not needle:
        return min(max(start, 0), len(units) // _UNIT)
    return _index(units, needle, start)


@builtin(".lastIndexOf", "interop")
def java_last_index_of(s, sub):
    """(.lastIndexOf s sub) the last index of sub, -1 when absent."""
    units, needle = _units(NAME, s), _arg(NAME, sub)
    return len(units) // _UNIT if not needle else _index(units, needle, last=True)


@builtin(".length", "interop")
def java_length(s):
    """(.length s) the length in UTF-16 code units (count gives characters)."""
    return len(_units(NAME, s)) // _UNIT


@builtin(".substring", "interop")
def java_substring(s, begin, end=_NOT_GIVEN):
    """(.substring s begin) / (.substring s begin end), indexes in UTF-16 code units (a float
    index is truncated, as Java's int cast does)."""
    units = _units(NAME, s)
    n = len(units) // _UNIT
    begin = index_arg(NAME, begin)
    end = n if end is _NOT_GIVEN else index_arg(NAME, end)   # no end: to the end; nil is an error
    if not 0 <= begin <= end <= n:
        raise error("index_out_of_bounds", f"begin {begin}, end {end}, length {n}",
                    "(subs s start end) counts characters; both need 0 <= start <= end <= length")
    try:
        return units[begin * _UNIT:end * _UNIT].decode("utf-16-be")
    except UnicodeDecodeError:
        raise error("index_out_of_bounds", f"{NAME} {begin} {end} cuts a character in two",
                    "use (subs s start end), which counts characters") from None


@builtin(".trim", "interop")
def java_trim(s):
    """(.trim s) s without leading and trailing characters up to U+0020 (Java's trim)."""
    _units(NAME, s)
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
    return _parse(NAME, text, -2**31, 2**31 - 1)


@builtin("Long/parseLong", "interop")
def java_parse_long(text):
    """(Long/parseLong s) the long written in s; an error for anything else or out of range."""
    return _parse(NAME, text, -2**63, 2**63 - 1)
