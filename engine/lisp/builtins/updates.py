"""Writing to maps, and to vectors by index: assoc, dissoc, update, assoc-in, update-in,
merge, merge-with, update-vals, update-keys.

Writes use the key as written. nil is an empty map: `(assoc nil :a 1)` is `{:a 1}`, `(merge)`
and `(merge nil)` are `{}`. Functions passed in (`update`, `merge-with`, `update-vals`...) are
called in the canonical key order, so their prints and tool calls are deterministic.
"""

from __future__ import annotations

from engine.lisp.access import as_fn, flex_get, MISSING
from engine.lisp.builtins.maps import key_path, odd_pairs, sorted_items
from engine.lisp.builtins.registry import NAME, builtin, variant
from engine.lisp.builtins.support import check_size, limits, thread_last_error, type_error
from engine.lisp.keys import as_key, check_key, check_keys
from engine.lisp.errors import error
from engine.lisp.values import EMPTY_MAP, HostMap, Keyword, MAPS, Map, is_fn


_COLLECTIONS = (tuple, frozenset, Map, HostMap)
_CHECK_FROM = 64        # maps smaller than this are never checked against collection_size


def _grown(fname: str, n: int) -> None:
    """Refuse a map about to hold `n` entries when that is over the collection limit
    (cheaply: this runs on every assoc into a big map)."""
    if n >= _CHECK_FROM and n > limits().collection_size:
        check_size(fname, n)


def assoc_one(fname: str, coll, k, v):
    """`(assoc coll k v)` for one pair: maps by exact key, nil as {}, vectors by index."""
    t = type(coll)
    if t is Keyword and type(v) in MAPS:
        raise thread_last_error(fname)
    if t in MAPS:
        k = as_key(k)
        if len(coll) >= _CHECK_FROM and k not in coll:
            _grown(fname, len(coll) + 1)
        return coll.set(check_key(k), v)
    if coll is None:
        return Map(((as_key(check_key(k)), v),))
    if t is tuple:
        n = len(coll)
        if type(k) is not int:
            raise type_error(fname, "an integer index for a vector", k)
        if 0 <= k < n:
            return coll[:k] + (v,) + coll[k + 1:]
        if k == n:
            _grown(fname, n + 1)
            return coll + (v,)
        raise error("index_out_of_bounds",
                    f"{fname}: index {k} is out of bounds for a vector of {n} items",
                    "indexes go from 0 to (count v), where (count v) appends; (conj v x) "
                    "appends")
    raise type_error(fname, "a map, vector or nil", coll)


@builtin("assoc", "updates")
def assoc(m, k, v, *kvs):
    """(assoc m k v ...) m with key k (as written) set to v; vectors by index, (count v) appends."""
    if not kvs:
        return assoc_one(NAME, m, k, v)
    if len(kvs) % 2:
        raise odd_pairs(NAME, "(assoc m :a 1 :b 2)")
    if type(m) in MAPS:
        check_keys((k, *kvs[0::2]))
        with m.mutate() as mm:
            mm[as_key(k)] = v
            for i in range(0, len(kvs), 2):
                mm[as_key(kvs[i])] = kvs[i + 1]
            new = mm.finish()
        _grown(NAME, len(new))      # its keys may be new or not: at most len(kvs) // 2 more
        return new
    m = assoc_one(NAME, m, k, v)
    for i in range(0, len(kvs), 2):
        m = assoc_one(NAME, m, kvs[i], kvs[i + 1])
    return m


@variant("assoc", 3)
def assoc_3(m, k, v):
    if type(m) in MAPS:
        if type(k) in _COLLECTIONS:
            k = as_key(check_key(k))
        elif type(k) is bool:
            k = as_key(k)
        n = len(m)
        new = m.set(k, v)
        # one entry more, at most: checked after (as _grown, inline: this is every assoc)
        if n >= _CHECK_FROM and len(new) > n and n + 1 > limits().collection_size:
            check_size(NAME, n + 1)
        return new
    return assoc_one(NAME, m, k, v)


@builtin("dissoc", "updates")
def dissoc(m, *ks):
    """(dissoc m k ...) m without the keys k (exact keys); nil stays nil."""
    if type(m) in MAPS:
        if len(ks) == 1:
            k = as_key(ks[0])
            return m.delete(k) if k in m else m
        if not ks:
            return m
        with m.mutate() as mm:
            for k in ks:
                mm.pop(as_key(k), None)
            return mm.finish()
    if m is None:
        return None
    raise type_error(NAME, "a map", m)


def _vector_index(fname: str, v: tuple, k) -> None:
    if type(k) is not int:
        raise type_error(fname, "an integer index for a vector", k)
    if not 0 <= k <= len(v):
        raise error("index_out_of_bounds",
                    f"{fname}: index {k} is out of bounds for a vector of {len(v)} items")


@builtin("update", "updates", calls_fns=True)
def update(m, k, f, *args):
    """(update m k f & args) m with k set to (f old args...), k as written: (update m :n + 5)."""
    if type(m) is Keyword and type(args[-1] if args else f) in MAPS:
        raise thread_last_error(NAME)
    f = as_fn(f)
    t = type(m)
    if t in MAPS:
        old = m.get(as_key(k))
    elif m is None:
        old = None
    elif t is tuple:
        _vector_index(NAME, m, k)
        old = m[k] if k < len(m) else None
    else:
        raise type_error(NAME, "a map, vector or nil", m)
    return assoc_one(NAME, m, k, f(old, *args))


@variant("update", 3)
def update_3(m, k, f):
    if type(m) in MAPS:
        if not is_fn(f):
            f = as_fn(f)
        k = as_key(k)
        if len(m) >= _CHECK_FROM and k not in m:
            _grown(NAME, len(m) + 1)
        return m.set(k, f(m.get(k)))
    return update(m, k, f)


def _descend(fname: str, m, path: tuple):
    """The collections along `path` (all but its last key), each step looked up flexibly."""
    trail = []
    cur = m
    for key in path[:-1]:
        trail.append((cur, key))
        cur = flex_get(cur, key)
    return trail, cur


def _rebuild(fname: str, trail: list, value):
    for coll, key in reversed(trail):
        value = assoc_one(fname, coll, key, value)
    return value


@builtin("assoc-in", "updates")
def assoc_in(m, path, v):
    """(assoc-in m [k1 k2 ...] v) m with the nested value set to v, creating missing maps."""
    path = key_path(NAME, path, nests=True)
    if not path:
        return v
    trail, cur = _descend(NAME, m, path)
    return _rebuild(NAME, trail, assoc_one(NAME, cur, path[-1], v))


@builtin("update-in", "updates", calls_fns=True)
def update_in(m, path, f, *args):
    """(update-in m [k1 k2 ...] f & args) m with the nested value replaced by (f old args...)."""
    path = key_path(NAME, path, nests=True)
    f = as_fn(f)
    if not path:
        return f(m, *args)
    trail, cur = _descend(NAME, m, path)
    last = path[-1]
    if type(cur) is tuple:
        _vector_index(NAME, cur, last)
    elif cur is not None and type(cur) not in MAPS:
        raise type_error(NAME, "a map, vector or nil at the end of the path", cur)
    new = f(flex_get(cur, last), *args)
    return _rebuild(NAME, trail, assoc_one(NAME, cur, last, new))


@builtin("merge", "updates")
def merge(*maps):
    """(merge m1 m2 ...) one map of all the entries, later maps winning; nil counts as {}."""
    result = None
    for m in maps:
        t = type(m)
        if t in MAPS:
            if result is None or not result:
                result = m
            elif m:
                result = result.update(m)
                _grown(NAME, len(result))
        elif m is None:
            continue
        elif t is tuple and len(m) == 2:
            result = assoc_one(NAME, EMPTY_MAP if result is None else result, m[0], m[1])
        else:
            raise type_error(NAME, "maps", m)
    return EMPTY_MAP if result is None else result


@builtin("merge-with", "updates", calls_fns=True)
def merge_with(f, *maps):
    """(merge-with f m1 m2 ...) merge, combining values of a key found in several with (f old new)."""
    f = as_fn(f)
    result = None
    for m in maps:
        if m is None:
            continue
        if type(m) not in MAPS:
            raise type_error(NAME, "maps", m)
        if result is None or not result:
            result = m
            continue
        with result.mutate() as mm:
            for k, v in sorted_items(m):
                k = as_key(k)
                old = mm.get(k, MISSING)
                mm[k] = v if old is MISSING else f(old, v)
            result = mm.finish()
        _grown(NAME, len(result))
    return EMPTY_MAP if result is None else result


def _map_then_fn(fname: str, m, f) -> None:
    if type(m) not in MAPS and type(m) is not tuple and m is not None:
        hint = None
        if (is_fn(m) or type(m) is Keyword) and (type(f) in MAPS or f is None):
            hint = f"({fname} m f) takes the map first: use -> rather than ->> with {fname}"
        raise type_error(fname, "a map", m, hint)


@builtin("update-vals", "updates", calls_fns=True)
def update_vals(m, f):
    """(update-vals m f) m with every value v replaced by (f v); nil gives {}."""
    _map_then_fn(NAME, m, f)
    f = as_fn(f)
    if type(m) is tuple:
        return tuple(map(f, m))
    if not m:
        return EMPTY_MAP
    return Map([(as_key(k), f(v)) for k, v in sorted_items(m)])


@builtin("update-keys", "updates", calls_fns=True)
def update_keys(m, f):
    """(update-keys m f) m with every key k replaced by (f k); nil gives {}."""
    _map_then_fn(NAME, m, f)
    f = as_fn(f)
    if type(m) is tuple:
        return Map([(as_key(f(i)), v) for i, v in enumerate(m)]) if m else EMPTY_MAP
    if not m:
        return EMPTY_MAP
    return Map([(as_key(f(k)), v) for k, v in sorted_items(m)])
