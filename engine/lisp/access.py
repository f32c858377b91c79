"""Flexible key access (`:name` and `"name"` find the same entry) and callable data.

Exact key wins when both forms are present, even if its value is falsy.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_

from engine.lisp.errors import error
from engine.lisp.printer import pr_str
from engine.lisp.values import HostMap, Keyword, MAPS, Map, Regex, Var, is_fn, type_name
from engine.lisp.keys import as_key

MISSING = object()


def alternate_key(key):
    """The other spelling of a key: `:a` for `"a"` and back; None when there is none."""
    t = type(key)
    if t is Keyword:
        return key.name
    if t is str:
        return Keyword.existing(key)
    return None


def flex_lookup(m: Map, key, default=MISSING):
    """The value under `key` or its alternate spelling in map `m`, else `default`."""
    t = type(key)
    if t is bool or t is tuple or t in MAPS or t is frozenset:
        key = as_key(key)
    value = m.get(key, MISSING)
    if value is MISSING:
        alt = alternate_key(key)
        if alt is not None:
            value = m.get(alt, MISSING)
        if value is MISSING:
            return default
    return value


def flex_entry(m: Map, key):
    """(stored key, value) of `key` or its alternate spelling in map `m`, else None."""
    key = as_key(key)
    value = m.get(key, MISSING)
    if value is not MISSING:
        return key, value
    alt = alternate_key(key)
    if alt is not None:
        value = m.get(alt, MISSING)
        if value is not MISSING:
            return alt, value
    return None


def flex_get(coll, key, default=None):
    """`get`: maps flexibly, vectors and strings by index, sets by membership."""
    t = type(coll)
    if t in MAPS:
        return flex_lookup(coll, key, default)
    if coll is None:
        return default
    if t is tuple or t is str:
        if type(key) is int and 0 <= key < len(coll):
            return coll[key]
        return default
    if t is frozenset:
        try:
            return key if as_key(key) in coll else default
        except TypeError:
            return default
    return default


def flex_contains(coll, key) -> bool:
    """Whether `flex_get` would find `key` (present with a nil value counts)."""
    t = type(coll)
    if t in MAPS:
        return flex_lookup(coll, key) is not MISSING
    return flex_get(coll, key, MISSING) is not MISSING


def get_path(coll, path, default=None):
    """`get-in`: a flexible step per path element; `default` when the result is nil."""
    for key in path:
        coll = flex_get(coll, key)
        if coll is None:
            return default
    return default if coll is None else coll


def keyword_call(kw: Keyword, coll, default=None):
    """`(:k m)` and `(:k m default)`."""
    t = type(coll)
    if t in MAPS:
        return flex_lookup(coll, kw, default)
    if coll is None:
        return default
    if t is frozenset:
        return kw if kw in coll else default
    hint = f"use (map {kw!r} coll) to read the key from every item" if t is tuple else None
    raise error("invalid_keyword_call",
                f"({kw!r} x) needs a map, got {type_name(coll)}", hint)


Keyword.__call__ = keyword_call     # a keyword is a function of a map


def path_getter(path: tuple):
    """A one-argument function reading `path` (a vector of keys) from its argument."""
    def get_at_path(coll):
        return get_path(coll, path)
    return get_at_path


def key_getter(key):
    """A one-argument function reading `key` (keyword, string, or vector path)."""
    if type(key) is tuple:
        return path_getter(key)
    alt = key.name if type(key) is Keyword else None

    def get_key(coll):
        if type(coll) in MAPS:   # the common case, inline: exact key, then the other spelling
            value = coll.get(key, MISSING)
            if value is not MISSING:
                return value
            other = alt if alt is not None else alternate_key(key)
            return None if other is None else coll.get(other)
        return flex_get(coll, key)
    return get_key


def read_each(key, part) -> list:
    """What `key_getter(key)` reads from each item of `part` (a vector or a slice of one).
    Records from host data (all HostMaps) are read in C, the other spelling of the key
    looked up only where the exact key is absent."""
    if type(key) is tuple or not part or set(map(type, part)) != {HostMap}:
        getter = key_getter(key)
        return [getter(x) for x in part]
    values = list(map(dict.get, part, repeat(key), repeat(MISSING)))
    absent = list(map(is_, values, repeat(MISSING)))
    if not any(absent):
        return values
    alt = alternate_key(key)
    others = list(map(dict.get, part, repeat(alt))) if alt is not None else [None] * len(part)
    if all(absent):
        return others
    return [other if gone else value for value, other, gone in zip(values, others, absent)]


def as_fn(f, role: str = "function"):
    """Callable data as a function: keywords, maps and sets read; functions pass through."""
    if is_fn(f):
        return f
    t = type(f)
    if t is Keyword:
        def read_keyword(*args):
            if not 1 <= len(args) <= 2:
                raise _data_arity(f, "a map and an optional default", len(args))
            return keyword_call(f, *args)
        return read_keyword
    if t in MAPS:
        def read_map(*args):
            if not 1 <= len(args) <= 2:
                raise _data_arity(f, "a key and an optional default", len(args))
            return flex_lookup(f, args[0], args[1] if len(args) == 2 else None)
        return read_map
    if t is frozenset:
        def member(*args):
            if len(args) != 1:
                raise _data_arity(f, "one value", len(args))
            try:
                return args[0] if as_key(args[0]) in f else None
            except TypeError:
                return None
        return member
    if t is tuple:
        def nth_of_vector(*args):
            if len(args) != 1:
                raise _data_arity(f, "one index", len(args))
            index = args[0]
            if type(index) is int and 0 <= index < len(f):
                return f[index]
            raise _vector_call_error(f, index, role)
        return nth_of_vector
    if t is Var:
        raise error("not_callable", f"a var is not callable: {f!r}", f"call ({f.name} ...) directly")
    if t is Regex:
        raise error("not_callable", "a regex is not callable", "use (re-find re s)")
    raise error("not_callable", f"not callable: {pr_str(f, limit=40)} ({type_name(f)})")


def _vector_call_error(vector: tuple, index, role: str):
    """A vector is a function of an index; anything else is the usual mistake of a path."""
    shown = pr_str(vector, limit=40)
    if type(index) is int:
        return error("type_error", f"index {index} is out of range for vector {shown}",
                     "use (get v i) or (nth v i) to get nil instead")
    if len(vector) == 1 and type(vector[0]) is Keyword:
        hint = f"use {vector[0]!r} instead of {shown}"
    else:
        hint = f"a path needs a function: #(get-in % {shown})"
    return error("type_error", f"a vector used as a {role} takes an integer index, got "
                               f"{type_name(index)}", hint)


def _data_arity(value, expected: str, got: int):
    return error("arity_error", f"{type_name(value)} {pr_str(value, limit=30)} called as a "
                                f"function takes {expected}, got {got} arguments")
