"""Sets and clojure.set: set, disj, union, intersection, difference, select, join...

The clojure.set functions take sets, with nil as the empty set, and always return a set
(Clojure sometimes returns nil or, given vectors, a vector). A vector is refused with a hint
to write (set v). The relational ones (project, rename, index, join) take any collection
of maps, as in Clojure. `union`, `intersection`, `difference`, `subset?`, `superset?`,
`rename-keys` and `map-invert` also answer to their plain names; `select`, `project`,
`rename`, `index` and `join` only with a prefix (`set/join`), since `join` is the string
join and the other names are common words.
"""

from __future__ import annotations

from engine.lisp.access import as_fn, flex_entry
from engine.lisp.builtins.maps import keys_of, sorted_items, sorted_keys
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import check_size, items, type_error
from engine.lisp.keys import as_key, as_keys, check_keys
from engine.lisp.values import EMPTY_MAP, EMPTY_SET, MAPS, Map

_NOTHING = object()


@builtin("set", "sets")
def set_(coll):
    """(set coll) a set of the items of coll (a vector, string, map entries...); nil gives #{}."""
    if type(coll) is frozenset:
        return coll
    seq = items(NAME, coll)
    check_keys(seq)
    return frozenset(as_keys(seq))


@builtin("hash-set", "sets")
def hash_set(*xs):
    """(hash-set x ...) a set of the arguments."""
    check_keys(xs)
    return frozenset(as_keys(xs))


@builtin("sorted-set", "sets")
def sorted_set(*xs):
    """(sorted-set x ...) same as hash-set: every set prints in sorted order."""
    check_keys(xs)
    return frozenset(as_keys(xs))


@builtin("disj", "sets")
def disj(s, *xs):
    """(disj s x ...) set s without the items x; nil stays nil."""
    if type(s) is frozenset:
        return s.difference(as_keys(xs)) if xs else s
    if s is None:
        return None
    raise type_error(NAME, "a set", s, "(remove #{x} coll) drops items from a vector"
                     if type(s) is tuple else None)


def _set(fname: str, s) -> frozenset:
    if type(s) is frozenset:
        return s
    if s is None:
        return EMPTY_SET
    raise type_error(fname, "sets", s, "make a set with (set coll)" if type(s) is tuple
                     else None)


@builtin("clojure.set/union", "sets", aliases=("union",))
def union(*sets):
    """(set/union s1 s2 ...) the items in any of the sets; nil counts as #{}."""
    result = EMPTY_SET.union(*[_set(NAME, s) for s in sets])
    check_size(NAME, len(result))
    return result


@builtin("clojure.set/intersection", "sets", aliases=("intersection",))
def intersection(s1, *sets):
    """(set/intersection s1 s2 ...) the items in every one of the sets."""
    return _set(NAME, s1).intersection(*[_set(NAME, s) for s in sets])


@builtin("clojure.set/difference", "sets", aliases=("difference",))
def difference(s1, *sets):
    """(set/difference s1 s2 ...) the items of s1 that are in none of the other sets."""
    return _set(NAME, s1).difference(*[_set(NAME, s) for s in sets])


@builtin("clojure.set/subset?", "sets", returns_bool=True, aliases=("subset?",))
def is_subset(s1, s2):
    """(set/subset? s1 s2) every item of s1 is in s2."""
    return _set(NAME, s1) <= _set(NAME, s2)


@builtin("clojure.set/superset?", "sets", returns_bool=True, aliases=("superset?",))
def is_superset(s1, s2):
    """(set/superset? s1 s2) every item of s2 is in s1."""
    return _set(NAME, s1) >= _set(NAME, s2)


@builtin("clojure.set/select", "sets", calls_fns=True)
def set_select(pred, s):
    """(set/select pred s) the items of set s for which pred is truthy."""
    pred = as_fn(pred, "predicate")
    s = _set(NAME, s)
    keep = []
    for x in items(NAME, s):
        r = pred(x)
        if r is not None and r is not False:
            keep.append(x)
    return s if len(keep) == len(s) else frozenset(as_keys(keep))


def _rel(fname: str, xrel) -> list | tuple:
    """The maps of a relation: any collection of maps (a set, a vector) or nil."""
    rel = items(fname, xrel)
    for x in rel:
        if type(x) not in MAPS:
            raise type_error(fname, "a collection of maps", x)
    return rel


@builtin("clojure.set/project", "sets")
def project(xrel, ks):
    """(set/project rel [k ...]) the set of the maps of rel, each cut down to the keys ks."""
    return frozenset([keys_of(NAME, x, ks) for x in _rel(NAME, xrel)])


def _map(fname: str, m) -> Map:
    if type(m) in MAPS:
        return m
    if m is None:
        return EMPTY_MAP
    raise type_error(fname, "a map", m)


@builtin("clojure.set/rename-keys", "sets", aliases=("rename-keys",))
def rename_keys(m, kmap):
    """(set/rename-keys m {old new ...}) m with each key old renamed to new (old found flexibly)."""
    m = _map(NAME, m)
    kmap = _map(NAME, kmap)
    if not m or not kmap:
        return m
    found = []
    for old, new in sorted_items(kmap):
        entry = flex_entry(m, old)
        if entry is not None:
            found.append((entry[0], new, entry[1]))
    if not found:
        return m
    with m.mutate() as mm:
        for stored, _, _ in found:
            mm.pop(stored, None)
        for _, new, v in found:
            mm[as_key(new)] = v
        return mm.finish()


@builtin("clojure.set/rename", "sets")
def rename(xrel, kmap):
    """(set/rename rel {old new ...}) the set of the maps of rel with their keys renamed."""
    return frozenset([rename_keys(x, kmap) for x in _rel(NAME, xrel)])


@builtin("clojure.set/map-invert", "sets", aliases=("map-invert",))
def map_invert(m):
    """(set/map-invert m) a map from each value of m to its key."""
    m = _map(NAME, m)
    if not m:
        return EMPTY_MAP
    return Map([(as_key(v), k) for k, v in sorted_items(m)])


def _index(fname: str, rel, ks) -> dict:
    groups: dict = {}
    for x in rel:
        groups.setdefault(keys_of(fname, x, ks), []).append(x)
    return groups


@builtin("clojure.set/index", "sets")
def index(xrel, ks):
    """(set/index rel [k ...]) a map from each {k v ...} combination to the set of maps having it."""
    groups = _index(NAME, _rel(NAME, xrel), ks)
    if not groups:
        return EMPTY_MAP
    return Map([(k, frozenset(v)) for k, v in groups.items()])


@builtin("clojure.set/join", "sets")
def set_join(xrel, yrel, km=_NOTHING):
    """(set/join rel1 rel2) or (set/join rel1 rel2 {k1 k2}): merged pairs of maps agreeing on keys."""
    xs, ys = _rel(NAME, xrel), _rel(NAME, yrel)
    if km is _NOTHING:
        if not xs or not ys:
            return EMPTY_SET
        shared = set(xs[0].keys()) & set(ys[0].keys())
        ks = tuple(k for k in sorted_keys(xs[0]) if as_key(k) in shared)
        r, s = (xs, ys) if len(xs) <= len(ys) else (ys, xs)
        idx = _index(NAME, r, ks)
        keyed = [(x, idx.get(keys_of(NAME, x, ks))) for x in s]
    else:
        km = _map(NAME, km)
        if len(xs) <= len(ys):
            r, s, k = xs, ys, map_invert(km)
        else:
            r, s, k = ys, xs, km
        idx = _index(NAME, r, tuple(v for _, v in sorted_items(k)))
        from_keys = tuple(sorted_keys(k))
        keyed = [(x, idx.get(rename_keys(keys_of(NAME, x, from_keys), k))) for x in s]
    check_size(NAME, sum(len(found) for _, found in keyed if found))
    return frozenset([y.update(x) for x, found in keyed if found for y in found])
