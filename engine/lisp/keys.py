"""How values are stored as set items and map keys: true and false as keys of their own
(BoolKey, at any depth of a vector or map key), and a bound on the size of a key or a compared
value once its shared parts are counted, so hashing or comparing it always ends."""

from __future__ import annotations

from engine.lisp.errors import error
from engine.lisp.values import FALSE_KEY, MAPS, TRUE_KEY, BoolKey, HostMap, Map

COLLECTIONS = (tuple, frozenset, Map, HostMap)


def as_key(x):
    """`x` as it is stored as a set item or map key: booleans as TRUE_KEY / FALSE_KEY, at any
    depth of a vector or map value (`[true]` as `[TRUE_KEY]`, so that `#{[1] [true]}` has
    two items); set items and map keys inside are stored forms already. A collection that
    would expand past the comparison budget once shared parts are counted is refused
    (memory_exceeded), as hashing it would never end."""
    if x is True:
        return TRUE_KEY
    if x is False:
        return FALSE_KEY
    t = type(x)
    if t is tuple or t in MAPS or t is frozenset:
        check_key(x)
        if t is not frozenset and _holds(x, bool):
            return _swapped(x, as_key, {})
    return x


def as_keys(xs):
    """`as_key` of each of `xs` (`xs` itself when it holds no boolean)."""
    if type(xs) is str:
        return xs
    types = set(map(type, xs))
    if bool in types or tuple in types or not MAPS.isdisjoint(types):
        return [as_key(x) for x in xs]
    return xs


def from_key(k):
    """The value a stored set item or map key stands for."""
    t = type(k)
    if t is BoolKey:
        return k.value
    if (t is tuple or t in MAPS) and _holds(k, BoolKey):
        return _swapped(k, from_key, {})
    return k


def has_bool_keys(coll) -> bool:
    """Whether a set or map holds true or false as an item or key, at any depth."""
    if TRUE_KEY in coll or FALSE_KEY in coll:
        return True
    types = set(map(type, coll))
    return (tuple in types or not MAPS.isdisjoint(types)) and any(
        _holds(k, BoolKey) for k in coll if type(k) is tuple or type(k) in MAPS)


def _holds(value, kind: type) -> bool:
    """Whether `kind` (bool or BoolKey) is an item of vector `value` or a value of map
    `value`, at any depth through vectors and map values; shared parts looked at once."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        parts = v.values() if type(v) in MAPS else v
        types = set(map(type, parts))
        if kind in types:
            return True
        if tuple in types or not MAPS.isdisjoint(types):
            stack.extend(p for p in parts if type(p) is tuple or type(p) in MAPS)
    return False


def _swapped(value, swap, done: dict):
    """`value` with `swap` (as_key or from_key) applied to each vector item and map value,
    through vectors and map values; each shared part is made once."""
    key = id(value)
    if key in done:
        return done[key][1]
    if type(value) in MAPS:
        new = Map({k: _swap_one(v, swap, done) for k, v in value.items()})
    else:
        new = tuple(_swap_one(v, swap, done) for v in value)
    done[key] = (value, new)       # the value is kept so that its id stays its own
    return new


def _swap_one(v, swap, done: dict):
    t = type(v)
    if t is tuple or t in MAPS:
        return _swapped(v, swap, done)
    return swap(v) if t is bool or t is BoolKey else v


KEY_BUDGET = 100_000   # items a compared or hashed value may expand to


def expanded_size(value, budget: int) -> int:
    """How many items `value` holds, counting a shared part each time it occurs, up to
    `budget`. Each distinct part is visited once, so a vector of itself doubled sixty times
    costs sixty steps, not 2**60."""
    if type(value) not in COLLECTIONS:
        return 1
    sizes: dict[int, int] = {}
    stack = [(value, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes:
            continue
        parts = _parts(node)
        if not children_done:
            stack.append((node, True))
            stack.extend((p, False) for p in parts if type(p) in COLLECTIONS and id(p) not in sizes)
            continue
        total = 1
        for p in parts:
            total += sizes[id(p)] if type(p) in COLLECTIONS else 1
            if total >= budget:
                return budget
        sizes[key] = total
    return sizes[id(value)]


def _parts(node):
    if type(node) in MAPS:
        return [*node.keys(), *node.values()]
    return node


def check_key(value):
    """`value`, if it can be hashed and compared in bounded time; else memory_exceeded."""
    if type(value) in COLLECTIONS and expanded_size(value, KEY_BUDGET) >= KEY_BUDGET:
        raise error("memory_exceeded", f"value too large to compare or use as a key (more than "
                                       f"{KEY_BUDGET} items once shared parts are counted)")
    return value


def check_keys(values) -> None:
    """check_key on every collection among `values`."""
    for v in values:
        if type(v) in COLLECTIONS:
            check_key(v)
