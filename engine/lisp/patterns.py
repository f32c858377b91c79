"""Regex patterns: Java syntax as Clojure writes it, compiled for the `regex` package with
the limits a sandbox needs (length, counted-repeat expansion, no shared pattern cache)."""

from __future__ import annotations

import re as _py_re

import regex as _regex

from engine.lisp.errors import PtcError, Span
from engine.lisp.values import Regex

MAX_PATTERN_CHARS = 1000
MAX_EXPANSION = 100_000
_COUNTED = _py_re.compile(r"\{(\d*)(?:,(\d*))?\}")
# Java's default: \w \d \s \b and case-insensitive matching are ASCII-only.
_FLAGS = _regex.V0 | _regex.ASCII


def compile_regex(source: str, span: Span | None = None) -> Regex:
    """A regex value from pattern text (a `#"..."` literal or `re-pattern`); parse_error when
    it is invalid, longer than 1,000 characters, or repeats too much."""
    if len(source) > MAX_PATTERN_CHARS:
        raise PtcError("parse_error", f"regex of {len(source)} characters is longer than "
                                      f"{MAX_PATTERN_CHARS}", span)
    if expansion(source) > MAX_EXPANSION:
        raise PtcError("parse_error", f"regex #\"{source[:40]}\" repeats too much: its counted "
                                      f"repeats such as {{1000}} multiply to more than "
                                      f"{MAX_EXPANSION} items", span,
                       "use smaller repeat counts, or + and * for open-ended repeats")
    try:
        pattern = _regex.compile(java_to_python(source), _FLAGS, cache_pattern=False)
    except (_regex.error, ValueError, OverflowError, RecursionError, MemoryError) as e:
        raise PtcError("parse_error", f"invalid regex #\"{source[:60]}\": {e}", span) from None
    return Regex(source, pattern)


def java_to_python(source: str) -> str:
    """Java pattern text for the `regex` package compiled with ASCII (Java's default for \\w,
    \\d, \\s and case folding). What differs: Java's \\z (very end) is \\Z in Python, Java's
    \\Z (end, or before a final newline) is (?=\\n?\\Z), and \\p{L}-style classes, which are
    Unicode in Java, are scoped Unicode (?u:...) outside brackets."""
    if "\\" not in source:
        return source
    out, i, in_class = [], 0, False
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            nxt = source[i + 1]
            if nxt in "pP" and not in_class and source[i + 2:i + 3] == "{":
                close = source.find("}", i + 3)
                if close > 0:
                    out.append(f"(?u:{source[i:close + 1]})")
                    i = close + 1
                    continue
            out.append({"z": "\\Z", "Z": "(?=\\n?\\Z)"}.get(nxt, c + nxt) if not in_class
                       else c + nxt)
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


def expansion(source: str) -> int:
    """An upper bound of how many items the `regex` package expands `source` into: it writes
    out the mandatory part of a counted repeat, so `((a{1000}){1000}){1000}` (23 characters)
    would need gigabytes. Sizes add up along the pattern and multiply through nested repeats."""
    stack = [[0, 0]]        # per open group: [size of the finished items, size of the last item]
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        top = stack[-1]
        if c == "\\":
            j = i + 2
            if source[i + 1:i + 2] in ("p", "P", "N", "x", "g", "k") and source[j:j + 1] == "{":
                close = source.find("}", j)
                j = n if close < 0 else close + 1
            top[0] += top[1]
            top[1] = 1
            i = j
        elif c == "[":
            j = i + 1
            if source[j:j + 1] == "^":
                j += 1
            if source[j:j + 1] == "]":
                j += 1
            while j < n and source[j] != "]":
                j += 2 if source[j] == "\\" else 1
            top[0] += top[1]
            top[1] = 1
            i = j + 1
        elif c == "(":
            stack.append([0, 0])
            i += 1
        elif c == ")":
            total, last = stack.pop() if len(stack) > 1 else (0, 0)
            parent = stack[-1]
            parent[0] += parent[1]
            parent[1] = total + last
            i += 1
        elif c == "|":
            top[0] += top[1]
            top[1] = 0
            i += 1
        elif c == "{" and (m := _COUNTED.match(source, i)) and (m.group(1) or m.group(2)):
            top[1] *= max(int(m.group(1) or 0), 1)
            if top[0] + top[1] > MAX_EXPANSION:
                return top[0] + top[1]
            i = m.end()
        elif c in "*+?":
            i += 1
        else:
            top[0] += top[1]
            top[1] = 1
            i += 1
    while len(stack) > 1:
        total, last = stack.pop()
        stack[-1][0] += stack[-1][1] + total + last
        stack[-1][1] = 0
    return stack[0][0] + stack[0][1]
