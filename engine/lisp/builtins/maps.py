"""Maps: get, get-in, keys, vals, select-keys, find, zipmap, hash-map, and clojure.walk's
keywordize-keys and stringify-keys. Writing to maps is in updates.py.

Lookups are flexible (`:a` finds "a", the exact key wins). nil is an empty map: `(keys nil)` is
`[]`.
"""

from __future__ import annotations

from engine.lisp.access import alternate_key, as_fn, flex_get, flex_lookup, get_path, MISSING
from engine.lisp.builtins.registry import NAME, builtin, variant
from engine.lisp.builtins.support import chunks, items, limits, show, type_error
from engine.lisp.compare import key_order, map_items, map_keys
from engine.lisp.keys import as_key, as_keys, check_keys
from engine.lisp.errors import error
from engine.lisp.values import EMPTY_MAP, HostMap, Keyword, MAPS, Map, is_fn, type_name


_COLLECTIONS = (tuple, frozenset, Map, HostMap)
_NOTHING = object()     # an optional argument that was not given
sorted_items = map_items   # canonical order; kept under this name for the builtins here
sorted_keys = map_keys


def odd_pairs(fname: str, shape: str):
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


def key_path(fname: str, path, nests: bool = False) -> tuple:
    """A path argument as a tuple of keys; `nests`: a path a write will build maps along."""
    if type(path) is tuple:
        depth = limits().nesting_depth
        if len(path) > depth and nests:
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
    return get_path(m, key_path(NAME, path), default)


@builtin("find", "maps", calls_fns=True)
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
            raise error("type_error", f"{NAME}: (find pred coll) takes the predicate first, got "
                                      f"a vector then {type_name(k)}",
                        "(find #(= (:id %) 3) items) or (find :active items)")
        return None
    pred = as_fn(m_or_pred, "predicate")
    for x in items(NAME, k_or_coll):
        r = pred(x)
        if r is not None and r is not False:
            return x
    return None


@builtin("keys", "maps")
def keys(m):
    """(keys m) the keys of map m in sorted order; [] for nil or {}."""
    if type(m) in MAPS:
        return tuple(sorted_keys(m))
    if m is None:
        return ()
    raise type_error(NAME, "a map", m)


@builtin("vals", "maps")
def vals(m):
    """(vals m) the values of map m, in the sorted order of their keys; [] for nil or {}."""
    if type(m) in MAPS:
        if len(m) < 2:
            return tuple(m.values())
        return tuple([v for _, v in sorted_items(m)])
    if m is None:
        return ()
    raise type_error(NAME, "a map", m)


@builtin("entries", "maps")
def entries(m):
    """(entries m) the [key value] entries of map m, sorted by key; [] for nil."""
    if type(m) in MAPS:
        return tuple(sorted_items(m))
    if m is None:
        return ()
    raise type_error(NAME, "a map", m)


def _entry(fname: str, e):
    if type(e) is tuple and len(e) == 2:
        return e
    raise type_error(fname, "a map entry [key value]", e,
                     "map entries come from (seq m), (entries m) or (first m)")


@builtin("key", "maps")
def key(e):
    """(key entry) the key of a [key value] map entry."""
    return _entry(NAME, e)[0]


@builtin("val", "maps")
def val(e):
    """(val entry) the value of a [key value] map entry."""
    return _entry(NAME, e)[1]


@builtin("select-keys", "maps")
def select_keys(m, ks):
    """(select-keys m [k ...]) a map of just those keys (looked up flexibly); missing ones left out."""
    return keys_of(NAME, m, ks)


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


# --- building ------------------------------------------------------------------------------



@builtin("zipmap", "maps")
def zipmap(ks, vs):
    """(zipmap keys vals) a map from each key to the value at the same position."""
    keys = items(NAME, ks)
    check_keys(keys)
    pairs = list(zip(as_keys(keys), items(NAME, vs)))
    if not pairs:
        return EMPTY_MAP
    with EMPTY_MAP.mutate() as mm:
        for part in chunks(pairs):
            for k, v in part:
                mm[k] = v
        return mm.finish()


def _pairs_map(fname: str, kvs: tuple) -> Map:
    if len(kvs) % 2:
        raise odd_pairs(fname, f"({fname} :a 1 :b 2)")
    if not kvs:
        return EMPTY_MAP
    check_keys(kvs[0::2])
    return Map(zip(as_keys(kvs[0::2]), kvs[1::2]))


@builtin("hash-map", "maps")
def hash_map(*kvs):
    """(hash-map k v ...) a map of the key/value pairs; a repeated key keeps its last value."""
    return _pairs_map(NAME, kvs)


@builtin("array-map", "maps")
def array_map(*kvs):
    """(array-map k v ...) same as hash-map (every map prints in sorted key order)."""
    return _pairs_map(NAME, kvs)


@builtin("sorted-map", "maps")
def sorted_map(*kvs):
    """(sorted-map k v ...) same as hash-map: every map prints and iterates in sorted key order."""
    return _pairs_map(NAME, kvs)


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
