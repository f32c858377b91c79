"""Regular expressions: re-pattern, re-find, re-matches, re-seq, re-split, bounded in time.

Every match runs with the `regex` package's `timeout=` set to the time the run has left, so a
catastrophic pattern such as `(a+)+$` ends in a `timeout` error instead of hanging. Matches
follow Java's `Matcher.find` (an empty match moves the next search one character on), so
`re-seq` and `str/split` give Clojure's results.
"""

from __future__ import annotations

import time

from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import check_size, limits, type_error
from engine.lisp.errors import error
from engine.lisp.runtime import check_deadline, current_or_none
from engine.lisp.patterns import compile_regex as compile_pattern
from engine.lisp.values import Regex

_NO_CONTEXT_SECONDS = 1.0
_MIN_SECONDS = 0.001


def time_left() -> float:
    """Seconds the current run has left (at least a small positive value)."""
    ctx = current_or_none()
    if ctx is None:
        return _NO_CONTEXT_SECONDS
    return max(ctx.deadline - time.perf_counter(), _MIN_SECONDS)


def regex_timeout() -> Exception:
    ms = limits().time_ms
    return error("timeout", f"execution exceeded the time limit of {ms} ms (in a regex match)",
                 "simplify the regex: avoid nested repeats such as (a+)+ or (.*)*")


def as_pattern(fname: str, re):
    """The compiled pattern of a regex value; a string is compiled as a pattern too."""
    t = type(re)
    if t is Regex:
        return re.pattern
    if t is str:
        return compile_pattern(re).pattern
    raise type_error(fname, 'a regex such as #"\\d+"', re)


def subject(fname: str, s) -> str:
    if type(s) is str:
        return s
    raise type_error(fname, "a string to match", s)


def search(pattern, s: str, pos: int = 0):
    try:
        return pattern.search(s, pos, timeout=time_left())
    except TimeoutError:
        raise regex_timeout() from None


def full_match(pattern, s: str):
    try:
        return pattern.fullmatch(s, timeout=time_left())
    except TimeoutError:
        raise regex_timeout() from None


def find_all(pattern, s: str):
    """Successive matches as Java's Matcher.find gives them: after an empty match at i the
    next search starts at i + 1 (Python would try a longer match at i first). The run's
    deadline is checked at each match, since what is done with it is not timed."""
    pos, n = 0, len(s)
    while pos <= n:
        restart = None
        empty_at = -1
        try:
            for m in pattern.finditer(s, pos, timeout=time_left()):
                start, end = m.span()
                if start == empty_at and end != start:
                    restart = start + 1
                    break
                check_deadline()
                yield m
                empty_at = end if start == end else -1
        except TimeoutError:
            raise regex_timeout() from None
        if restart is None:
            return
        pos = restart


def match_value(m):
    """A match as Clojure gives it: the text, or [full g1 g2 ...] when the pattern has groups."""
    if m is None:
        return None
    if m.re.groups == 0:
        return m.group(0)
    return (m.group(0), *m.groups())


def fast_ok(pattern) -> bool:
    """Whether the `regex` package's own loops (findall, split, sub) give Java's matches.

    They differ from Java only after an empty match, where Python may still take a longer
    match at the same place; that needs an alternative or a lazy repeat that may take nothing
    (`??`, `*?`, `{0,n}?`; a lazy `+?` takes its body at least once, so it prefers the empty
    match only where its body already does), so other patterns take the fast path."""
    src = pattern.pattern
    return not ("|" in src or "??" in src or "*?" in src or "}?" in src)


def _timed(call, *args, **kwargs):
    try:
        return call(*args, timeout=time_left(), **kwargs)
    except TimeoutError:
        raise regex_timeout() from None


def java_split(pattern, s: str, limit: int) -> tuple:
    """`Pattern.split(s, limit)`: no empty first piece from an empty match at the start, at
    most `limit` pieces when it is positive, trailing empty pieces dropped when it is 0."""
    if limit == 1:
        return (s,)
    if pattern.groups == 0 and fast_ok(pattern):
        first = _timed(pattern.match, s)
        skip = first is not None and first.end() == 0
        maxsplit = limit - 1 + skip if limit > 0 else 0
        pieces = _timed(pattern.split, s, maxsplit)
        if skip:
            del pieces[0]
        check_size("split", len(pieces))
    else:
        pieces = []     # at most one more than the matches, which are at most len(s) + 1
        index = 0
        limited = limit > 0
        for m in find_all(pattern, s):
            start, end = m.span()
            if limited and len(pieces) >= limit - 1:
                break
            if index == 0 and start == 0 and end == 0:
                continue
            pieces.append(s[index:start])
            index = end
        if index == 0:
            return (s,)
        pieces.append(s[index:])
        check_size("split", len(pieces))
    if len(pieces) == 1:
        return (s,)
    if limit == 0:
        while pieces and pieces[-1] == "":
            pieces.pop()
    return tuple(pieces)


@builtin("re-pattern", "regex")
def re_pattern(s):
    """(re-pattern s) a regex from pattern text, as #"..." would give; at most 1000 characters."""
    if type(s) is Regex:
        return s
    if type(s) is not str:
        raise type_error(NAME, "a string", s)
    return compile_pattern(s)


@builtin("re-find", "regex")
def re_find(re, s):
    """(re-find re s) the first match of re in s, or nil; [full g1 g2 ...] when re has groups.

    A group that did not take part in the match is nil."""
    pattern = as_pattern(NAME, re)
    return match_value(search(pattern, subject(NAME, s)))


@builtin("re-matches", "regex")
def re_matches(re, s):
    """(re-matches re s) like re-find, but re must match the whole string, else nil."""
    pattern = as_pattern(NAME, re)
    return match_value(full_match(pattern, subject(NAME, s)))


@builtin("re-seq", "regex")
def re_seq(re, s):
    """(re-seq re s) every match of re in s, as re-find gives them; [] when none."""
    pattern = as_pattern(NAME, re)
    text = subject(NAME, s)
    if pattern.groups == 0 and fast_ok(pattern):
        found = _timed(pattern.findall, text)
    else:           # at most len(text) + 1 matches: built, then checked
        found = [match_value(m) for m in find_all(pattern, text)]
    check_size(NAME, len(found))
    return tuple(found)


@builtin("re-split", "regex")
def re_split(re, s):
    """(re-split re s) the pieces of s between matches of re (regex first); empty pieces are kept.

    Trailing empty pieces are kept too (unlike str/split), and the text of re's groups is kept
    between the pieces."""
    pattern = as_pattern(NAME, re)
    text = subject(NAME, s)
    pieces: list[str] = []
    index, n = 0, len(text)
    cap = limits().collection_size
    for m in find_all(pattern, text):
        start, end = m.span()
        if start == end and (start == 0 or start == n):
            continue
        pieces.append(text[index:start])
        pieces.extend(g if g is not None else "" for g in m.groups())
        index = end
        if len(pieces) > cap:
            check_size(NAME, len(pieces))
    pieces.append(text[index:])
    return tuple(pieces)
