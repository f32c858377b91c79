"""Equality, ordering and the canonical order of map keys.

`=` is structural and `(= 1 1.0)` is true; booleans never equal numbers. Ordering follows
Clojure's `compare` (nil first, vectors by length then items) but refuses to compare values
of different kinds with a type_error instead of guessing.
"""

from __future__ import annotations

import math
from functools import cmp_to_key

from engine.lisp.errors import error
from engine.lisp.values import Keyword, Map, Symbol, is_fn, type_name


def equals(a, b) -> bool:
    if a is b:
        return not (type(a) is float and a != a)
    ta, tb = type(a), type(b)
    if ta is bool or tb is bool:
        return False
    if is_fn(a) or is_fn(b):
        return False
    return a == b


def _kind(value) -> str:
    t = type(value)
    if t is int or t is float:
        return "number"
    if t is bool:
        return "boolean"
    if t is str:
        return "string"
    if t is Keyword:
        return "keyword"
    if t is tuple:
        return "vector"
    if t is Symbol:
        return "symbol"
    return type_name(value)


def compare(a, b) -> int:
    """-1, 0 or 1, as Clojure's `compare`; type_error for values of different kinds."""
    if a is None:
        return 0 if b is None else -1
    if b is None:
        return 1
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        raise error("type_error", f"cannot compare {type_name(a)} with {type_name(b)}")
    if ka == "number":
        if (type(a) is float and math.isnan(a)) or (type(b) is float and math.isnan(b)):
            return 0
        return (a > b) - (a < b)
    if ka in ("string", "boolean"):
        return (a > b) - (a < b)
    if ka in ("keyword", "symbol"):
        return (a.name > b.name) - (a.name < b.name)
    if ka == "vector":
        if len(a) != len(b):
            return -1 if len(a) < len(b) else 1
        for x, y in zip(a, b):
            c = compare(x, y)
            if c:
                return c
        return 0
    raise error("type_error", f"cannot order values of type {type_name(a)}")


compare_key = cmp_to_key(compare)


def sorted_values(values, reverse: bool = False) -> list:
    """Values in `compare` order: plain sort when they are all numbers or all strings."""
    values = list(values)
    kinds = {type(v) for v in values}
    if kinds <= {int, float} or kinds == {str}:
        if float in kinds and any(v != v for v in values):
            return sorted(values, key=compare_key, reverse=reverse)
        return sorted(values, reverse=reverse)
    return sorted(values, key=compare_key, reverse=reverse)


_KEY_RANK = {int: 1, float: 1, bool: 0, Keyword: 2, str: 3, Symbol: 4, tuple: 5}


def key_order(key):
    """Sort key for map keys: nil, booleans, numbers, keywords, strings, then the rest."""
    t = type(key)
    if key is None:
        return (-1, 0)
    rank = _KEY_RANK.get(t)
    if rank is None or t is tuple:
        from engine.lisp.printer import pr_str
        return (6, pr_str(key, limit=50))
    if t is Keyword or t is Symbol:
        return (rank, key.name)
    if t is float and key != key:
        return (rank, math.inf)
    return (rank, key)


def map_items(m: Map) -> list:
    """The entries of `m` in canonical key order (what seq, keys, vals and printing use)."""
    items = list(m.items())
    if len(items) > 1:
        try:
            items.sort(key=lambda kv: key_order(kv[0]))
        except TypeError:
            items.sort(key=lambda kv: repr(key_order(kv[0])))
    return items


def map_keys(m: Map) -> list:
    keys = list(m.keys())
    if len(keys) > 1:
        if all(type(k) is Keyword for k in keys):
            keys.sort(key=lambda k: k.name)
        else:
            keys.sort(key=key_order)
    return keys
