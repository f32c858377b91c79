"""Equality, ordering and the canonical order of map keys.

`=` is structural and `(= 1 1.0)` is true; booleans never equal numbers, at any depth. Ordering follows
Clojure's `compare` (nil first, vectors by length then items) but refuses to compare values
of different kinds with a type_error instead of guessing.
"""

from __future__ import annotations

import math
from functools import cmp_to_key
from operator import attrgetter, itemgetter

from engine.lisp.errors import error
from engine.lisp.keys import COLLECTIONS, as_key, check_key, from_key, has_bool_keys
from engine.lisp.values import Keyword, LispFn, MAPS, Map, Symbol, ToolValue, is_fn, type_name


_COLLECTIONS_SET = frozenset(COLLECTIONS)


def equals(a, b) -> bool:
    if a is b:
        return not (type(a) is float and a != a)
    ta, tb = type(a), type(b)
    if ta is bool or tb is bool:
        return False
    if ta in COLLECTIONS and (tb is ta or ta in MAPS and tb in MAPS):
        check_key(a)
        check_key(b)
        return a == b and _same_kinds(a, b)
    elif is_fn(a) or is_fn(b):
        if ta is LispFn or tb is LispFn:
            return a == b            # the same function, one of them as the host holds it
        return ta is ToolValue and tb is ToolValue and a == b   # the same tool, by name
    return a == b


def _same_kinds(a, b) -> bool:
    """For collections that Python finds equal: whether no boolean stands where the other has
    a number, at any depth (Python's `True == 1` would make `(= [1] [true])` true)."""
    stack = [(a, b)]
    seen: set = set()
    while stack:
        x, y = stack.pop()
        if (id(x), id(y)) in seen:
            continue
        seen.add((id(x), id(y)))
        t = type(x)
        if t is tuple:
            kinds = set(map(type, x)) | set(map(type, y))
            if bool not in kinds and _COLLECTIONS_SET.isdisjoint(kinds):
                continue   # only scalars, none boolean: Python's == was right
            pairs = zip(x, y)
        elif t in MAPS:   # keys: true and false are stored as keys of their own (BoolKey)
            kinds = set(map(type, x.values())) | set(map(type, y.values()))
            if bool not in kinds and _COLLECTIONS_SET.isdisjoint(kinds):
                continue
            pairs = ((v, y[k]) for k, v in x.items())
        else:   # frozenset: items as map keys; collections in it need their partners
            if not _set_partners_agree(x, y):
                return False
            continue
        for p, q in pairs:
            if type(p) is bool or type(q) is bool:
                if type(p) is not type(q):
                    return False
            elif type(p) in COLLECTIONS and p is not q:
                stack.append((p, q))
    return True


def _set_partners_agree(x: frozenset, y: frozenset) -> bool:
    """Each collection in set `x` has an equal partner in `y` of the same kinds."""
    if _COLLECTIONS_SET.isdisjoint(set(map(type, x))):
        return True
    inner = [p for p in x if type(p) in COLLECTIONS]
    if not inner:
        return True
    by_hash: dict = {}
    for q in y:
        if type(q) in COLLECTIONS:
            by_hash.setdefault(hash(q), []).append(q)
    return all(any(p == q and _same_kinds(p, q) for q in by_hash.get(hash(p), ()))
               for p in inner)


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
    """Negative, zero or positive, as Clojure's `compare`; type_error for values of
    different kinds. Values that share structure are checked once, here, before the walk."""
    if type(a) is tuple and type(b) is tuple:
        check_key(a)
        check_key(b)
    return _compare(a, b)


def _compare(a, b) -> int:
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
    if ka == "string":
        return _string_compare(a, b)
    if ka == "boolean":
        return (a > b) - (a < b)
    if ka in ("keyword", "symbol"):
        return _string_compare(a.name, b.name)
    if ka == "vector":
        if len(a) != len(b):
            return -1 if len(a) < len(b) else 1
        for x, y in zip(a, b):
            c = _compare(x, y)
            if c:
                return c
        return 0
    raise error("type_error", f"cannot order values of type {type_name(a)}")


def _string_compare(a: str, b: str) -> int:
    """As Java's String.compareTo, which Clojure's compare uses: the difference of the first
    differing characters, else of the lengths."""
    for x, y in zip(a, b):
        if x != y:
            return ord(x) - ord(y)
    return len(a) - len(b)


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


def _plain_kind(keys) -> str | None:
    """"keyword", "plain" (all strings, or all numbers without NaN) or None (mixed)."""
    kinds = set(map(type, keys))
    if kinds == {Keyword}:
        return "keyword"
    if kinds == {str} or (kinds <= {int, float} and not (float in kinds and
                                                          any(k != k for k in keys))):
        return "plain"
    return None


def _keyword_name(kv):
    return kv[0].name


def map_items(m: Map) -> list:
    """The entries of `m` in canonical key order (what seq, keys, vals and printing use)."""
    items = list(m.items())
    if has_bool_keys(m):
        items = [(from_key(k), v) for k, v in items]
    if len(items) < 2:
        return items
    kind = _plain_kind(m.keys())
    if kind == "keyword":
        items.sort(key=_keyword_name)
    elif kind == "plain":
        items.sort(key=itemgetter(0))
    else:
        try:
            items.sort(key=lambda kv: key_order(kv[0]))
        except TypeError:
            items.sort(key=lambda kv: repr(key_order(kv[0])))
    return items


def collection_items(coll):
    """The items a sequence function walks, in canonical order: a vector itself, nil as
    empty, map entries by key, set items sorted, string characters; None for other values."""
    t = type(coll)
    if t is tuple or t is str:
        return coll
    if coll is None:
        return ()
    if t in MAPS:
        return map_items(coll)
    if t is frozenset:
        return set_items(coll)
    return None


def set_items(s: frozenset) -> list:
    """The items of set `s` in canonical order."""
    if has_bool_keys(s):
        return sorted(map(from_key, s), key=key_order)
    return sorted(s, key=key_order)


def contains_key(coll, x) -> bool:
    """Whether set or map `coll` holds `x` as an item or key (true is not 1)."""
    return as_key(x) in coll


def map_keys(m: Map) -> list:
    keys = list(m.keys())
    if has_bool_keys(m):
        keys = [from_key(k) for k in keys]
    if len(keys) > 1:
        kind = _plain_kind(keys)
        if kind == "keyword":
            keys.sort(key=attrgetter("name"))
        elif kind == "plain":
            keys.sort()
        else:
            keys.sort(key=key_order)
    return keys
