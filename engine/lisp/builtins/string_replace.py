"""`replace` and `replace-first`: in a string, by a string, a character or a regex, with a
replacement string ($1 groups) or a function of the match; and clojure.core's
`(replace smap coll)`.
"""

from __future__ import annotations


from engine.lisp.access import as_fn
from engine.lisp.builtins.conversion import str_value
from engine.lisp.builtins.regex import fast_ok, find_all, match_value, regex_timeout, time_left
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import (check_length, items, limits, show, string,
                                          type_error)
from engine.lisp.errors import error, PtcError
from engine.lisp.values import HostMap, is_fn, Keyword, Map, MAPS, Regex


_MISSING = object()


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
        check_length(fname, total + len(s) - end)      # the result if no more matched
        out.append(s[index:start])
        out.append(text)
        index = end
        done += 1
        if count is not None and done >= count:
            break
    if not done:
        return s
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
    s = string(fname, s)
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


@builtin("replace", "string-replace", calls_fns=True)
def replace(s, match, replacement=_MISSING):
    """(replace s match replacement) every match replaced; match is a string or regex ($1 = group).

    A string match is replaced literally. With a regex, the replacement may use $1 (or ${name})
    for groups and \\$ for a dollar sign; it may also be a function of the match (the text, or
    [full g1 ...] when the regex has groups). (replace smap coll), with two arguments, replaces
    the items of coll that are keys of the map smap by their values."""
    if replacement is _MISSING:
        return _replace_items(s, match)
    return _string_replace(NAME, s, match, replacement, None)


@builtin("replace-first", "string-replace", calls_fns=True)
def replace_first(s, match, replacement):
    """(replace-first s match replacement) like replace, for the first match only."""
    return _string_replace(NAME, s, match, replacement, 1)
