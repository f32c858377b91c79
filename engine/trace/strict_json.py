"""JSON as a trace file must hold it: no key given twice, no NaN or infinite number, no integer
longer than a 64-bit number, no lone surrogate. Python's json module accepts all four (the second
of two keys silently wins, NaN and 1e400 become floats, a 5,000-digit integer raises a message
that echoes nothing useful, "\\ud800" becomes a string no file can hold); here each one is an
error naming the field."""

from __future__ import annotations

import json
import math
import re

MAX_INT_DIGITS = 19          # 2**63 has 19 digits: nothing a trace records needs more


class DuplicateKey(ValueError):
    """A JSON object that gives the same key twice."""


class _OutOfRange:
    """What an over-long integer or a non-finite number parses to, so the walk that follows
    can name the field that holds it (instead of failing inside the parser, without a place)."""

    def __init__(self, text: str):
        digits = len(text.lstrip("-"))
        is_integer = text.lstrip("-").isdigit()
        self.text = f"a {digits:,}-digit integer" if is_integer else f"{text[:20]!r}"
        try:
            self.integer = int(text) if is_integer else None
        except ValueError:         # past Python's own limit for reading an integer
            self.integer = None


def _object(pairs: list) -> dict:
    doc = dict(pairs)
    if len(doc) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(f"the key {_show(key)} appears twice in one object "
                                   "(the second would hide the first)")
            seen.add(key)
    return doc


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class BadValue(ValueError):
    """A number out of range or a lone surrogate; the message names the field."""


def loads(text: str, long_integers_in: str | None = None):
    """`text` parsed; json.JSONDecodeError for text that is not JSON, DuplicateKey naming the
    key, BadValue naming the field that holds an out-of-range number or a lone surrogate.
    `long_integers_in`: a top-level field holding another program's records as they were,
    where an integer of any length Python reads is kept (as a Python int)."""
    out_of_range = []

    def marked(value_text: str):
        out_of_range.append(value_text)
        return _OutOfRange(value_text)

    def parse_int(value_text: str):
        return marked(value_text) if len(value_text.lstrip("-")) > MAX_INT_DIGITS \
            else int(value_text)

    def parse_float(value_text: str):
        value = float(value_text)
        return value if math.isfinite(value) else marked(value_text)

    decoder = json.JSONDecoder(object_pairs_hook=_object, parse_int=parse_int,
                               parse_float=parse_float, parse_constant=marked)
    doc = decoder.decode(text)
    if out_of_range and long_integers_in and type(doc) is dict:
        _keep_integers(doc.get(long_integers_in))
    if out_of_range or "\\u" in text and _SURROGATE_ESCAPE.search(text):   # walk if need be
        problem = _walk(doc, "")
        if problem:
            raise BadValue(problem)
    return doc


def _walk(value, where: str) -> str | None:
    stack = [(value, where)]
    while stack:
        value, where = stack.pop()
        t = type(value)
        if t is _OutOfRange:
            return f"{where or 'the document'}: {value.text} is out of range for a trace"
        if t is str:
            if _lone_surrogate(value):
                return f"{where or 'the document'}: holds a lone surrogate (\\ud800-\\udfff), " \
                       "which is not text"
        elif t is dict:
            for key, item in reversed(list(value.items())):
                if _lone_surrogate(key):
                    return f"{where or 'the document'}: a key holds a lone surrogate"
                stack.append((item, f"{where}.{key}" if where else key))
        elif t is list:
            stack.extend((item, f"{where}[{i}]") for i, item in reversed(list(enumerate(value))))
    return None


def _keep_integers(value) -> None:
    """Each over-long integer inside `value` made a Python int again, in place."""
    stack = [value]
    while stack:
        node = stack.pop()
        items = node.items() if type(node) is dict else enumerate(node) if type(node) is list \
            else ()
        for key, item in list(items):
            if type(item) is _OutOfRange and item.integer is not None:
                node[key] = item.integer
            elif type(item) in (dict, list):
                stack.append(item)


def _lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _show(key: str) -> str:
    return repr(key[:40] + ("…" if len(key) > 40 else ""))
