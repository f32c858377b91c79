"""Printing values: Clojure syntax (`pr_str`, `to_str`) and the truncating `format_value`.

Maps print with keys in canonical order (numbers < keywords < strings) and without commas,
so that output is deterministic. Every printer works within a character budget: a value that
shares structure (a vector of itself doubled sixty times) never expands without bound.
"""

from __future__ import annotations

import math

from engine.lisp.compare import map_items, set_items
from engine.lisp.keys import expanded_size, from_key
from engine.lisp.errors import error
from engine.lisp.values import (BoolKey, FN_INFO, Keyword, LispFn, MAPS, Regex, Symbol, ToolValue,
                                Var, is_fn)

MAX_DEPTH = 200
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


class _Full(Exception):
    """The output budget is spent."""


def quote_string(s: str) -> str:
    if not any(c in _ESCAPES for c in s):
        return f'"{s}"'
    return '"' + "".join(_ESCAPES.get(c, c) for c in s) + '"'


def clojure_float(x: float) -> str:
    """A float as Clojure's `pr-str` writes it: shortest digits, `1.0E20` beyond 1e7."""
    if x != x:
        return "##NaN"
    if math.isinf(x):
        return "##Inf" if x > 0 else "##-Inf"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    digits, exponent = _shortest_digits(abs(x))
    sign = "-" if x < 0 else ""
    if 1e-3 <= abs(x) < 1e7:
        point = exponent + 1
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        if point >= len(digits):
            return f"{sign}{digits}{'0' * (point - len(digits))}.0"
        return f"{sign}{digits[:point]}.{digits[point:]}"
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{sign}{mantissa}E{exponent}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """The shortest round-trip digits of x > 0 and the decimal exponent of the first digit."""
    text = f"{x:.17e}"
    for precision in range(1, 18):
        candidate = f"{x:.{precision - 1}e}"
        if float(candidate) == x:
            text = candidate
            break
    mantissa, exponent = text.split("e")
    return mantissa.replace(".", "").rstrip("0") or "0", int(exponent)


def compact_float(x: float) -> str:
    """A float with at most 10 decimals, trailing zeros trimmed (`3.3`, `0.0000000001`)."""
    if x != x or math.isinf(x) or abs(x) >= 1e21:
        return clojure_float(x)
    text = f"{x:.10f}".rstrip("0")
    if text.endswith("."):
        text += "0"
    return "0.0" if text == "-0.0" else text


def _fn_text(fn) -> str:
    if type(fn) is LispFn:
        fn = fn.func
    code = getattr(fn, "__code__", None)
    info = (FN_INFO.get(code) if code is not None else None) or FN_INFO.get(fn)
    if info is None:
        return "#fn[]"
    if info.params is None:
        return f"#<builtin {info.name}>"
    return "#fn[" + " ".join(info.params) + "]"


class _Writer:
    """Counts the text written until `budget` characters, then raises _Full; keeps it only
    until `keep` characters (all of it unless told)."""

    def __init__(self, budget: int, readable: bool, float_text, keep: int | None = None):
        self.parts: list[str] = []
        self.size = 0
        self.budget = budget
        self.keep = budget if keep is None else keep
        self.readable = readable
        self.float_text = float_text

    def add(self, text: str) -> None:
        if self.size < self.keep:
            self.parts.append(text)
        self.size += len(text)
        if self.size > self.budget:
            raise _Full

    def add_known(self, head: str, length: int) -> None:
        """A text of `length` characters starting with `head` (as much of it as is kept):
        counted whole and never stopping the count, since its length costs nothing to know."""
        if self.size < self.keep:
            self.parts.append(head)
        self.size += length

    def value(self, v, depth: int = 0) -> None:
        t = type(v)
        if t is str:
            self.add(quote_string(v) if self.readable else v)
        elif v is None:
            self.add("nil")
        elif t is bool or t is BoolKey:
            self.add(repr(from_key(v)).lower())
        elif t is int:
            self.add(str(v))
        elif t is float:
            self.add(self.float_text(v))
        elif t is Keyword:
            self.add(":" + v.name)
        elif depth > MAX_DEPTH:
            raise error("memory_exceeded", f"value nested deeper than {MAX_DEPTH} levels")
        elif t is tuple:
            self.seq("[", v, "]", depth)
        elif t in MAPS:
            self.add("{")
            for i, (k, x) in enumerate(map_items(v)):
                if i:
                    self.add(" ")
                self.value(k, depth + 1)
                self.add(" ")
                self.value(x, depth + 1)
            self.add("}")
        elif t is frozenset:
            self.seq("#{", set_items(v), "}", depth)
        elif t is Symbol:
            self.add(v.name)
        elif t is Var or t is ToolValue:
            self.add(repr(v))
        elif t is Regex:
            self.add('#"' + v.source + '"')
        elif is_fn(v):
            self.add(_fn_text(v))
        else:
            self.add("#<value>")

    def seq(self, open_, items, close, depth) -> None:
        self.add(open_)
        for i, x in enumerate(items):
            if i:
                self.add(" ")
            self.value(x, depth + 1)
        self.add(close)


def _write(value, readable: bool, limit: int | None, float_text) -> str:
    budget = limit if limit is not None else 1_000_000
    if budget > 100_000 and expanded_size(value, budget + 1) > budget:
        # every item prints at least one character: this text would be too long anyway
        raise error("memory_exceeded", f"printed value longer than {budget} characters")
    w = _Writer(budget, readable, float_text)
    try:
        w.value(value)
    except _Full:
        text = "".join(w.parts)
        if limit is None:
            raise error("memory_exceeded", f"printed value longer than {budget} characters") from None
        return text[:limit] + "..."
    return "".join(w.parts)


def printed_line(values, readable: bool, keep: int, count_to: int) -> tuple[str, int, bool]:
    """What one `prn` (readable) or `println` call prints for `values`, joined by spaces: its
    first `keep` characters, its full length, and False; or, when that length is more than
    `count_to`, `count_to` and True.
    println shows strings raw and (as upstream) a non-empty vector of characters (1-character
    strings, such as (take 3 "abcdef")) as its text. A string's length is known at once;
    counting the rest stops past `count_to`, so a huge or self-sharing value costs at most
    that much printing."""
    w = _Writer(count_to, True, clojure_float if readable else compact_float, keep)
    try:
        for i, v in enumerate(values):
            if i:
                w.add(" ")
            if readable:
                w.value(v)
            elif type(v) is str:
                w.add_known(v[:keep], len(v))
            elif _is_characters(v):
                w.add_known("".join(v[:keep]), len(v))
            else:
                w.value(v)
    except _Full:
        return "".join(w.parts)[:keep], count_to, True
    return "".join(w.parts)[:keep], w.size, False


def _is_characters(v) -> bool:
    return type(v) is tuple and bool(v) and all(type(c) is str and len(c) == 1 for c in v)


def pr_str(value, limit: int | None = None) -> str:
    """Readable Clojure syntax (strings quoted). With `limit`, cut there and end in `...`."""
    return _write(value, True, limit, clojure_float)


LispFn.__repr__ = LispFn.__str__ = pr_str   # the host sees a function as the language shows it


def to_str(value, limit: int | None = None) -> str:
    """What `(str value)` gives: nil is empty, strings as they are, the rest as `pr_str`."""
    t = type(value)
    if t is str:
        return value
    if value is None:
        return ""
    if t is int:
        return str(value)
    if t is Keyword:
        return ":" + value.name
    if t is float:
        if value != value:
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return clojure_float(value)
    return _write(value, True, limit, clojure_float)


def print_str(value, limit: int | None = None) -> str:
    """What `println` shows for one argument: strings raw, other values in Clojure syntax."""
    if type(value) is str:
        return value
    return _write(value, True, limit, compact_float)


# --- The truncating formatter used for samples (docs/ptc-lisp-rules.md) ---------------------

def format_value(value, limit: int | None = None, printable_limit: int | None = None,
                 filter_hidden: bool = True) -> tuple[str, bool]:
    """`value` in Clojure syntax, cut to `limit` items per collection and `printable_limit`
    characters per string. Returns the text and whether anything was cut.

    `[1 2 ...] (5 items, showing first 2)`; maps keep `min(limit, printable_limit // 30)`
    entries and end in ` ...}` when entries were dropped; keys starting with `_` are hidden.
    """
    f = _Formatter(limit, filter_hidden)
    try:
        text = f.value(value, printable_limit, 0)
    except _Full:
        return "...", True
    return text, f.truncated


def format_within(value, width: int, limit: int | None = None,
                  printable_limit: int | None = None, filter_hidden: bool = True) -> str | None:
    """format_value's text of `value` if it is at most `width` characters, else None, found
    out as soon as the text passes `width` (a big value is not written whole to learn that)."""
    f = _Formatter(limit, filter_hidden, budget=width)
    try:
        text = f.value(value, printable_limit, 0)
    except _Full:
        return None
    return text if len(text) <= width else None


class _Formatter:
    def __init__(self, limit, filter_hidden, budget: int = 1_000_000):
        self.limit = limit
        self.filter_hidden = filter_hidden
        self.truncated = False
        self.spent = 0              # characters of strings and scalars: never more than written
        self.budget = budget

    def charge(self, text: str) -> str:
        self.spent += len(text)
        if self.spent > self.budget:
            raise _Full
        return text

    def value(self, v, printable, depth) -> str:
        t = type(v)
        if t is str:
            if printable is not None and len(v) > printable:
                self.truncated = True
                return self.charge(quote_string(v[:printable] + "..."))
            return self.charge(quote_string(v))
        if t is float:
            return compact_float(v)
        if depth > MAX_DEPTH:
            self.truncated = True
            return "..."
        if t is tuple or t is frozenset:
            return self.sequence(v, printable, depth)
        if t in MAPS:
            return self.map(v, printable, depth)
        return self.charge(print_str(v) if t is not Symbol else v.name)

    def sequence(self, v, printable, depth) -> str:
        open_, close = ("[", "]") if type(v) is tuple else ("#{", "}")
        items = v
        if type(v) is frozenset:
            items = set_items(v)
        n = len(items)
        shown = items if self.limit is None or n <= self.limit else items[: self.limit]
        body = " ".join(self.value(x, printable, depth + 1) for x in shown)
        if len(shown) < n:
            self.truncated = True
            more = " ..." if body else "..."
            return f"{open_}{body}{more}{close} ({n} items, showing first {len(shown)})"
        return f"{open_}{body}{close}"

    def map(self, m, printable, depth) -> str:
        items = map_items(m)
        if self.filter_hidden:
            items = [(k, x) for k, x in items if not _hidden(k)]
        keep = self.limit
        if printable is not None:
            by_size = max(printable // 30, 1)
            keep = by_size if keep is None else min(keep, by_size)
        kept = items if keep is None else items[:keep]
        per_value = None
        if printable is not None and kept:
            per_value = max((printable - 10 * len(kept)) // len(kept), 10)
        parts = [f"{self.value(k, None, depth + 1)} {self.value(x, per_value, depth + 1)}"
                 for k, x in kept]
        if len(kept) < len(items):
            self.truncated = True
            parts.append("...")
        return "{" + " ".join(parts) + "}"


def _hidden(key) -> bool:
    t = type(key)
    return (t is Keyword and key.name.startswith("_")) or (t is str and key.startswith("_"))
