"""The few Java interop calls upstream allows: dates and the current time.

Dates are plain data here, so programs stay printable, comparable and deterministic:
- a `java.util.Date` is its epoch milliseconds, an integer (`(java.util.Date. "2024-01-15")`
  is 1705276800000), so `<`, `-` and `sort` work on dates directly;
- a `java.time.LocalDate` is its ISO text "YYYY-MM-DD", a string, whose string order is
  date order.
The clock is read only by `(java.util.Date.)` and `(System/currentTimeMillis)`.
A text that is not a valid date is a `type_error` naming the formats accepted.
"""

from __future__ import annotations

import math
import re
import time
from datetime import date, datetime, timezone
from email.utils import parsedate_to_datetime

from engine.lisp.builtins.registry import builtin
from engine.lisp.builtins.support import show
from engine.lisp.errors import error
from engine.lisp.values import INT_MAX, INT_MIN, type_name

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_LOCAL_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_ISO_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]")
_MAX_TEXT = 100
_NOW = object()


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _got(x) -> str:
    return "nil" if x is None else f"{type_name(x)} {show(x)}"


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
    if 0 < len(s) <= _MAX_TEXT:
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
def date_new(value=_NOW):
    """(java.util.Date. x) a date as epoch milliseconds (an integer); (java.util.Date.) is now.
    x: a number (|x| < 1e12 is read as seconds, else milliseconds) or a text
    ("2024-01-15T10:30:00Z", "2024-01-15", RFC 2822; UTC when no offset is given).
    An invalid text is a type_error."""
    if value is _NOW:
        return _now_ms()
    t = type(value)
    if t is int or t is float:
        if t is float and not math.isfinite(value):
            raise error("type_error", f"java.util.Date. expects a finite number, got {show(value)}")
        ms = int(value * 1000 if abs(value) < 1e12 else value)
        if INT_MIN <= ms <= INT_MAX:
            return ms
        raise error("type_error", f"java.util.Date.: {show(value)} is out of the range of dates")
    if t is str:
        return _parse_date_text("java.util.Date.", value)
    raise error("type_error", f"java.util.Date. expects a number of seconds or milliseconds or "
                              f"a date text, got {_got(value)}")


@builtin(".getTime", "interop")
def date_get_time(d):
    """(.getTime date) the date's epoch milliseconds (dates are already epoch milliseconds).
    A date text is parsed as by java.util.Date."""
    t = type(d)
    if t is int:
        return d
    if t is str:
        return _parse_date_text(".getTime", d)
    raise error("type_error", f".getTime expects a date (from java.util.Date.), got "
                              f"{_got(d)}", "(.getTime (java.util.Date. text))")


@builtin("System/currentTimeMillis", "interop")
def current_time_millis():
    """(System/currentTimeMillis) the current time in epoch milliseconds (an integer)."""
    return _now_ms()


@builtin("LocalDate/parse", "interop")
def local_date_parse(text):
    """(LocalDate/parse "2024-01-15") a date as its ISO text "YYYY-MM-DD" (a string).
    Such dates compare and sort as strings; a text that is not a valid date is a type_error."""
    if type(text) is not str:
        raise error("type_error", f"LocalDate/parse expects a text such as \"2024-01-15\", got "
                                  f"{_got(text)}")
    if _LOCAL_DATE.fullmatch(text):
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            pass
    raise _bad_date("LocalDate/parse", text, "YYYY-MM-DD with a valid month and day",
                    '(LocalDate/parse "2024-01-15")')
