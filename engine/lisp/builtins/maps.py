"""Maps: get, assoc, update, merge, select-keys, keys, vals, zipmap...

Lookups are flexible (`:a` finds "a", the exact key wins); writes (`assoc`, `update`,
`dissoc`, `merge`) use the key as written. nil is an empty map: `(assoc nil :a 1)` is
`{:a 1}`, `(keys nil)` is `[]`, `(merge)` and `(merge nil)` are `{}`.

Functions passed in (`update`, `merge-with`, `update-vals`...) are called in the canonical
key order, so their prints and tool calls are deterministic.
"""

from __future__ import annotations


from engine.lisp.access import MISSING, alternate_key, as_fn, flex_get, flex_lookup, get_path
from engine.lisp.builtins.registry import builtin, variant
from engine.lisp.builtins.support import (check_size, chunks, items, limits, show,
                                          thread_last_error, type_error)
from engine.lisp.compare import check_key, check_keys, equals, key_order, map_items, map_keys
from engine.lisp.errors import error
from engine.lisp.values import (EMPTY_MAP, HostMap, Keyword, MAPS, Map, as_key, as_keys, is_fn,
                                type_name)

_COLLECTIONS = (tuple, frozenset, Map, HostMap)
_NOTHING = object()     # an optional argument that was not given
_CHECK_FROM = 64        # maps smaller than this are never checked against collection_size


def _grown(fname: str, n: int) -> None:
    """Refuse a map about to hold `n` entries when that is over the collection limit
    (cheaply: this runs on every assoc into a big map)."""
    if n >= _CHECK_FROM and n > limits().collection_size:
        check_size(fname, n)


sorted_items = map_items   # canonical order; kept under this name for the builtins here
sorted_keys = map_keys


def _odd_pairs(fname: str, shape: str):
    return error("arity_error", f"{fname} expects key/value pairs, got an odd number of "
                                f"arguments", shape)


# --- reading -------------------------------------------------------------------------------

@builtin("get", "maps")
def get(m, k, default=None):
    """(get m k) or (get m k default): the value of key k (:a finds "a") or index k; default if absent."""
    return flex_get(m, k, default)


@variant("get", 2)
def get_2(m, k):
    if type(m) in MAPS:
        return flex_lookup(m, k, None)
    return flex_get(m, k)


def _path(fname: str, path) -> tuple:
    if type(path) is tuple:
        depth = limits().nesting_depth
        if len(path) > depth and fname in ("assoc-in", "update-in"):
            raise error("memory_exceeded", f"{fname}: a path of {len(path)} keys would nest "
                                           f"deeper than {depth} levels")
        return path
    if path is None:
        return ()
    hint = f"(get m {show(path)}) reads one key" if type(path) in (Keyword, str, int) \
        else None
    raise type_error(fname, "a path vector such as [:a :b]", path, hint)


@builtin("get-in", "maps")
def get_in(m, path, default=None):
    """(get-in m [k1 k2 ...]) or (get-in m path default): a nested value; default when it is nil."""
    return get_path(m, _path("get-in", path), default)


@builtin("find", "collections", calls_fns=True)
def find(m_or_pred, k_or_coll):
    """(find m k) the [key value] entry of k in map m, or nil; (find pred coll) the first match."""
    t = type(m_or_pred)
    if t in MAPS:
        m, k = m_or_pred, k_or_coll
        v = m.get(as_key(k), MISSING)
        if v is not MISSING:
            return (k, v)
        alt = alternate_key(k)
        if alt is not None:
            v = m.get(alt, MISSING)
            if v is not MISSING:
                return (alt, v)
        return None
    if m_or_pred is None:
        return None
    if t is tuple:
        k = k_or_coll
        if type(k) is int:
            return (k, m_or_pred[k]) if 0 <= k < len(m_or_pred) else None
        if is_fn(k) or type(k) is Keyword:
            raise error("type_error", "find: (find pred coll) takes the predicate first, got "
                                      f"a vector then {type_name(k)}",
                        "(find #(= (:id %) 3) items) or (find :active items)")
        return None
    pred = as_fn(m_or_pred, "predicate")
    for x in items("find", k_or_coll):
        r = pred(x)
        if r is not None and r is not False:
            return x
    return None


def _member(coll, x) -> bool:
    """Whether collection `coll` holds a value equal to x (true is not 1, as in `=`)."""
    if type(coll) is frozenset:      # items are stored with true apart from 1 (as_key)
        return as_key(x) in coll
    if x not in coll:
        return False
    t = type(x)
    if t is bool or t in _COLLECTIONS or ((t is int or t is float) and (x == 0 or x == 1)):
        return any(equals(x, y) for y in coll)
    return True


@builtin("contains?", "predicates", returns_bool=True)
def contains(coll, k):
    """(contains? coll x) map has key x, set has member x, vector has the VALUE x (not index)."""
    t = type(coll)
    if type(k) in _COLLECTIONS:
        check_key(k)
    if t in MAPS:
        if as_key(k) in coll:
            return True
        alt = alternate_key(k)
        return alt is not None and alt in coll
    if t is frozenset or t is tuple:
        return _member(coll, k)
    if coll is None:
        return False
    if t is str:
        if type(k) is int:
            return 0 <= k < len(coll)
        raise type_error("contains?", "an index for a string", k,
                         "(str/includes? s sub) tests for a substring")
    raise type_error("contains?", "a map, set or vector", coll)


@builtin("keys", "maps")
def keys(m):
    """(keys m) the keys of map m in sorted order; [] for nil or {}."""
    if type(m) in MAPS:
        return tuple(sorted_keys(m))
    if m is None:
        return ()
    raise type_error("keys", "a map", m)


@builtin("vals", "maps")
def vals(m):
    """(vals m) the values of map m, in the sorted order of their keys; [] for nil or {}."""
    if type(m) in MAPS:
        if len(m) < 2:
            return tuple(m.values())
        return tuple([v for _, v in sorted_items(m)])
    if m is None:
        return ()
    raise type_error("vals", "a map", m)


@builtin("entries", "maps")
def entries(m):
    """(entries m) the [key value] entries of map m, sorted by key; [] for nil."""
    if type(m) in MAPS:
        return tuple(sorted_items(m))
    if m is None:
        return ()
    raise type_error("entries", "a map", m)


def _entry(fname: str, e):
    if type(e) is tuple and len(e) == 2:
        return e
    raise type_error(fname, "a map entry [key value]", e,
                     "map entries come from (seq m), (entries m) or (first m)")


@builtin("key", "maps")
def key(e):
    """(key entry) the key of a [key value] map entry."""
    return _entry("key", e)[0]


@builtin("val", "maps")
def val(e):
    """(val entry) the value of a [key value] map entry."""
    return _entry("val", e)[1]


@builtin("select-keys", "maps")
def select_keys(m, ks):
    """(select-keys m [k ...]) a map of just those keys (looked up flexibly); missing ones left out."""
    return keys_of("select-keys", m, ks)


def keys_of(fname: str, m, ks):
    """`select-keys` for builtins that use it (their name goes in error messages)."""
    t = type(ks)
    if t is tuple or t is frozenset or ks is None:
        wanted = items(fname, ks)
    else:
        raise type_error(fname, "a vector of keys", ks,
                         f"(select-keys m [{show(ks)}])" if t is Keyword or t is str else None)
    if type(m) in MAPS:
        out = [(as_key(k), v) for k in wanted if (v := flex_lookup(m, k, MISSING)) is not MISSING]
        return Map(out) if out else EMPTY_MAP
    if m is None:
        return EMPTY_MAP
    if type(m) is tuple:
        n = len(m)
        return Map([(k, m[k]) for k in wanted if type(k) is int and 0 <= k < n])
    raise type_error(fname, "a map", m)


# --- writing -------------------------------------------------------------------------------

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


@builtin("assoc", "maps")
def assoc(m, k, v, *kvs):
    """(assoc m k v ...) m with key k (as written) set to v; vectors by index, (count v) appends."""
    if not kvs:
        return assoc_one("assoc", m, k, v)
    if len(kvs) % 2:
        raise _odd_pairs("assoc", "(assoc m :a 1 :b 2)")
    if type(m) in MAPS:
        _grown("assoc", len(m) + 1 + len(kvs) // 2)
        check_keys((k, *kvs[0::2]))
        with m.mutate() as mm:
            mm[as_key(k)] = v
            for i in range(0, len(kvs), 2):
                mm[as_key(kvs[i])] = kvs[i + 1]
            return mm.finish()
    m = assoc_one("assoc", m, k, v)
    for i in range(0, len(kvs), 2):
        m = assoc_one("assoc", m, kvs[i], kvs[i + 1])
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
            check_size("assoc", n + 1)
        return new
    return assoc_one("assoc", m, k, v)


@builtin("dissoc", "maps")
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
    raise type_error("dissoc", "a map", m)


def _vector_index(fname: str, v: tuple, k) -> None:
    if type(k) is not int:
        raise type_error(fname, "an integer index for a vector", k)
    if not 0 <= k <= len(v):
        raise error("index_out_of_bounds",
                    f"{fname}: index {k} is out of bounds for a vector of {len(v)} items")


@builtin("update", "maps", calls_fns=True)
def update(m, k, f, *args):
    """(update m k f & args) m with k set to (f old args...), k as written: (update m :n + 5)."""
    if type(m) is Keyword and type(args[-1] if args else f) in MAPS:
        raise thread_last_error("update")
    f = as_fn(f)
    t = type(m)
    if t in MAPS:
        old = m.get(as_key(k))
    elif m is None:
        old = None
    elif t is tuple:
        _vector_index("update", m, k)
        old = m[k] if k < len(m) else None
    else:
        raise type_error("update", "a map, vector or nil", m)
    return assoc_one("update", m, k, f(old, *args))


@variant("update", 3)
def update_3(m, k, f):
    if type(m) in MAPS:
        if not is_fn(f):
            f = as_fn(f)
        k = as_key(k)
        if len(m) >= _CHECK_FROM and k not in m:
            _grown("update", len(m) + 1)
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


@builtin("assoc-in", "maps")
def assoc_in(m, path, v):
    """(assoc-in m [k1 k2 ...] v) m with the nested value set to v, creating missing maps."""
    path = _path("assoc-in", path)
    if not path:
        return v
    trail, cur = _descend("assoc-in", m, path)
    return _rebuild("assoc-in", trail, assoc_one("assoc-in", cur, path[-1], v))


@builtin("update-in", "maps", calls_fns=True)
def update_in(m, path, f, *args):
    """(update-in m [k1 k2 ...] f & args) m with the nested value replaced by (f old args...)."""
    path = _path("update-in", path)
    f = as_fn(f)
    if not path:
        return f(m, *args)
    trail, cur = _descend("update-in", m, path)
    last = path[-1]
    if type(cur) is tuple:
        _vector_index("update-in", cur, last)
    elif cur is not None and type(cur) not in MAPS:
        raise type_error("update-in", "a map, vector or nil at the end of the path", cur)
    new = f(flex_get(cur, last), *args)
    return _rebuild("update-in", trail, assoc_one("update-in", cur, last, new))


@builtin("merge", "maps")
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
                _grown("merge", len(result))
        elif m is None:
            continue
        elif t is tuple and len(m) == 2:
            result = assoc_one("merge", EMPTY_MAP if result is None else result, m[0], m[1])
        else:
            raise type_error("merge", "maps", m)
    return EMPTY_MAP if result is None else result


@builtin("merge-with", "maps", calls_fns=True)
def merge_with(f, *maps):
    """(merge-with f m1 m2 ...) merge, combining values of a key found in several with (f old new)."""
    f = as_fn(f)
    result = None
    for m in maps:
        if m is None:
            continue
        if type(m) not in MAPS:
            raise type_error("merge-with", "maps", m)
        if result is None or not result:
            result = m
            continue
        with result.mutate() as mm:
            for k, v in sorted_items(m):
                k = as_key(k)
                old = mm.get(k, MISSING)
                mm[k] = v if old is MISSING else f(old, v)
            result = mm.finish()
        _grown("merge-with", len(result))
    return EMPTY_MAP if result is None else result


def _map_then_fn(fname: str, m, f) -> None:
    if type(m) not in MAPS and type(m) is not tuple and m is not None:
        hint = None
        if (is_fn(m) or type(m) is Keyword) and (type(f) in MAPS or f is None):
            hint = f"({fname} m f) takes the map first: use -> rather than ->> with {fname}"
        raise type_error(fname, "a map", m, hint)


@builtin("update-vals", "maps", calls_fns=True)
def update_vals(m, f):
    """(update-vals m f) m with every value v replaced by (f v); nil gives {}."""
    _map_then_fn("update-vals", m, f)
    f = as_fn(f)
    if type(m) is tuple:
        return tuple(map(f, m))
    if not m:
        return EMPTY_MAP
    return Map([(as_key(k), f(v)) for k, v in sorted_items(m)])


@builtin("update-keys", "maps", calls_fns=True)
def update_keys(m, f):
    """(update-keys m f) m with every key k replaced by (f k); nil gives {}."""
    _map_then_fn("update-keys", m, f)
    f = as_fn(f)
    if type(m) is tuple:
        return Map([(as_key(f(i)), v) for i, v in enumerate(m)]) if m else EMPTY_MAP
    if not m:
        return EMPTY_MAP
    return Map([(as_key(f(k)), v) for k, v in sorted_items(m)])


# --- building ------------------------------------------------------------------------------

@builtin("zipmap", "maps")
def zipmap(ks, vs):
    """(zipmap keys vals) a map from each key to the value at the same position."""
    keys = items("zipmap", ks)
    check_keys(keys)
    pairs = list(zip(as_keys(keys), items("zipmap", vs)))
    if not pairs:
        return EMPTY_MAP
    with EMPTY_MAP.mutate() as mm:
        for part in chunks(pairs):
            for k, v in part:
                mm[k] = v
        return mm.finish()


def _pairs_map(fname: str, kvs: tuple) -> Map:
    if len(kvs) % 2:
        raise _odd_pairs(fname, f"({fname} :a 1 :b 2)")
    if not kvs:
        return EMPTY_MAP
    check_keys(kvs[0::2])
    return Map(zip(as_keys(kvs[0::2]), kvs[1::2]))


@builtin("hash-map", "maps")
def hash_map(*kvs):
    """(hash-map k v ...) a map of the key/value pairs; a repeated key keeps its last value."""
    return _pairs_map("hash-map", kvs)


@builtin("array-map", "maps")
def array_map(*kvs):
    """(array-map k v ...) same as hash-map (every map prints in sorted key order)."""
    return _pairs_map("array-map", kvs)


@builtin("sorted-map", "maps")
def sorted_map(*kvs):
    """(sorted-map k v ...) same as hash-map: every map prints and iterates in sorted key order."""
    return _pairs_map("sorted-map", kvs)


# --- clojure.walk --------------------------------------------------------------------------

def _walk_keys(fname: str, x, convert):
    """`x` with `convert` applied to every map key, deeply (through vectors, sets and maps,
    keys included). Shared substructure is converted once; unchanged parts are kept as is."""
    done: dict = {}
    max_depth = limits().nesting_depth

    def walk(x, depth=0):
        t = type(x)
        if t not in MAPS and t is not tuple and t is not frozenset:
            return x
        xid = id(x)
        r = done.get(xid)
        if r is not None:
            return r
        if depth >= max_depth:
            raise error("memory_exceeded", f"{fname}: the value is nested more than "
                                           f"{max_depth} levels deep")
        depth += 1
        if t in MAPS:
            changed = False
            pairs = []
            for k, v in x.items():
                k2 = convert(walk(k, depth))
                v2 = walk(v, depth)
                changed = changed or k2 is not k or v2 is not v
                pairs.append((k2, v2))
            if not changed:
                r = x
            else:
                r = Map(pairs)
                if len(r) < len(x):     # two keys became one: decide deterministically
                    r = _without_collisions(x, pairs)
        else:
            new = [walk(y, depth) for y in x]
            if any(a is not b for a, b in zip(new, x)):
                r = tuple(new) if t is tuple else frozenset(new)
            else:
                r = x
        done[xid] = r
        return r

    return walk(x)


def _without_collisions(x: Map, pairs: list) -> Map:
    """The converted map when two keys convert to the same one: a key already in the
    target form wins, then the last converted one in the original keys' sorted order."""
    originals = list(x.keys())
    converted = sorted((i for i, (k, _) in enumerate(pairs) if k is not originals[i]),
                       key=lambda i: key_order(originals[i]))
    kept = [i for i, (k, _) in enumerate(pairs) if k is originals[i]]
    return Map([pairs[i] for i in converted + kept])


def _to_keyword(k):
    return Keyword(k) if type(k) is str else k


def _keyword_name(k):
    if type(k) is not Keyword:
        return k
    name = k.name
    slash = name.find("/")
    return name[slash + 1:] if 0 < slash < len(name) - 1 else name


@builtin("clojure.walk/keywordize-keys", "maps", aliases=("keywordize-keys",))
def keywordize_keys(x):
    """(keywordize-keys x) x with every string map key turned into a keyword, deeply."""
    return _walk_keys("keywordize-keys", x, _to_keyword)


@builtin("clojure.walk/stringify-keys", "maps", aliases=("stringify-keys",))
def stringify_keys(x):
    """(stringify-keys x) x with every keyword map key turned into a string, deeply."""
    return _walk_keys("stringify-keys", x, _keyword_name)
