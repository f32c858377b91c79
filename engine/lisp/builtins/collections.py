"""Collections an item at a time: count, first, nth, peek, pop, subvec, seq, find, and
building them: conj, into, vec, vector, list, cons; concat, interleave, interpose, flatten, zip.

Every result that is a sequence is a vector (tuple). nil is an empty collection.
"""

from __future__ import annotations

import math
from itertools import chain

from engine.lisp.builtins import transducers as xf
from engine.lisp.builtins.registry import NAME, builtin, variant
from engine.lisp.builtins.support import (check_size, chunks, count_arg, index_arg, items,
                                          limits, show, type_error, vector_of)
from engine.lisp.builtins.transducers import NO_COLL
from engine.lisp.keys import as_key, as_keys, check_key, check_keys
from engine.lisp.errors import error
from engine.lisp.values import EMPTY_MAP, EMPTY_SET, MAPS, Map, type_name


_NOTHING = object()
_CHECK_FROM = 64   # vectors shorter than this grow by conj unchecked, as maps by assoc (updates.py)


@builtin("count", "collections")
def count(coll):
    """(count coll) number of items; characters of a string; nil is 0."""
    t = type(coll)
    if t is tuple or t is str or t in MAPS or t is frozenset:
        return len(coll)
    if coll is None:
        return 0
    raise type_error(NAME, "a collection or string", coll)


@builtin("first", "collections")
def first(coll):
    """(first coll) the first item, or nil."""
    if type(coll) is tuple:
        return coll[0] if coll else None
    seq = items(NAME, coll)
    return seq[0] if seq else None


@builtin("second", "collections")
def second(coll):
    """(second coll) the second item, or nil."""
    seq = items(NAME, coll)
    return seq[1] if len(seq) > 1 else None


@builtin("last", "collections")
def last(coll):
    """(last coll) the last item, or nil."""
    seq = items(NAME, coll)
    return seq[-1] if seq else None


@builtin("rest", "collections")
def rest(coll):
    """(rest coll) all but the first item; [] when none."""
    seq = items(NAME, coll)
    return tuple(seq[1:])


@builtin("next", "collections")
def next_(coll):
    """(next coll) all but the first item; nil when none."""
    seq = items(NAME, coll)
    return tuple(seq[1:]) if len(seq) > 1 else None


@builtin("nth", "collections")
def nth(coll, index, default=None):
    """(nth coll i) the item at i, or nil (or default) when out of range."""
    if type(index) is not int:
        if type(index) is not float or not math.isfinite(index):
            raise type_error(NAME, "an integer index", index)
        index = int(index)   # as Clojure: (nth v 1.0) is (nth v 1); (/ n 2) is a float here
    seq = items(NAME, coll)
    return seq[index] if 0 <= index < len(seq) else default


@builtin("ffirst", "collections")
def ffirst(coll):
    """(ffirst coll) the first item of the first item."""
    seq = items(NAME, coll)
    if not seq:
        return None
    inner = items(NAME, seq[0])
    return inner[0] if inner else None


@builtin("fnext", "collections")
def fnext(coll):
    """(fnext coll) the second item, as (first (next coll))."""
    seq = items(NAME, coll)
    return seq[1] if len(seq) > 1 else None


@builtin("nfirst", "collections")
def nfirst(coll):
    """(nfirst coll) (next (first coll)): the first item without its first item, or nil."""
    seq = items(NAME, coll)
    if not seq:
        return None
    inner = items(NAME, seq[0])
    return tuple(inner[1:]) if len(inner) > 1 else None


@builtin("nnext", "collections")
def nnext(coll):
    """(nnext coll) the items after the second, or nil when none."""
    seq = items(NAME, coll)
    return tuple(seq[2:]) if len(seq) > 2 else None


@builtin("nthnext", "collections")
def nthnext(coll, n):
    """(nthnext coll n) the items after the first n, or nil when none."""
    n = count_arg(NAME, n)
    seq = items(NAME, coll)
    rest = seq[max(n, 0):]
    return tuple(rest) if rest else None


@builtin("nthrest", "collections")
def nthrest(coll, n):
    """(nthrest coll n) the items after the first n; [] when none."""
    n = count_arg(NAME, n)
    seq = items(NAME, coll)
    if n <= 0:
        return () if coll is None else coll
    return tuple(seq[n:])


@builtin("peek", "collections")
def peek(coll):
    """(peek v) the last item of a vector, or nil when empty."""
    if type(coll) is tuple:
        return coll[-1] if coll else None
    if coll is None:
        return None
    raise type_error(NAME, "a vector", coll, "use last or first")


@builtin("pop", "collections")
def pop(coll):
    """(pop v) the vector without its last item; an empty vector is an error."""
    if type(coll) is tuple:
        if not coll:
            raise error("index_out_of_bounds", f"{NAME} of an empty vector",
                        "check (empty? v) first, or use butlast, which gives []")
        return coll[:-1]
    if coll is None:
        return None
    raise type_error(NAME, "a vector", coll, "use butlast or rest")


@builtin("subvec", "collections")
def subvec(v, start, end=_NOTHING):
    """(subvec v start) or (subvec v start end): the items from index start up to end."""
    if type(v) is not tuple:
        raise type_error(NAME, "a vector", v, "use (vec coll) first, or take/drop")
    start = index_arg(NAME, start)
    end = len(v) if end is _NOTHING else index_arg(NAME, end)
    if not 0 <= start <= end <= len(v):
        raise error("index_out_of_bounds",
                    f"{NAME} {start} to {end} is out of range for a vector of {len(v)} items",
                    "0 <= start <= end <= (count v); use take and drop to clamp")
    return v[start:end]


@builtin("empty", "collections")
def empty(coll):
    """(empty coll) an empty collection of the same kind ([] {} #{}); nil for other values."""
    t = type(coll)
    if t is tuple:
        return ()
    if t in MAPS:
        return EMPTY_MAP
    if t is frozenset:
        return EMPTY_SET
    return None


@builtin("not-empty", "collections")
def not_empty(coll):
    """(not-empty coll) coll, or nil when it is empty."""
    t = type(coll)
    if t is tuple or t in MAPS or t is frozenset or t is str:
        return coll if coll else None
    if coll is None:
        return None
    raise type_error(NAME, "a collection", coll)


@builtin("seq", "collections")
def seq(coll):
    """(seq coll) the items as a vector, or nil when empty."""
    s = items(NAME, coll)
    return tuple(s) if s else None


# --- building ------------------------------------------------------------------------------



@builtin("conj", "collections")
def conj(coll=None, *xs):
    """(conj coll x ...) adds to the end of a vector, into a set, or [k v] into a map."""
    t = type(coll)
    if t is tuple:
        check_size(NAME, len(coll) + len(xs))
        return coll + xs
    if coll is None:
        return xs
    if t is frozenset:
        check_size(NAME, len(coll) + len(xs))
        check_keys(xs)
        return coll.union(as_keys(xs))
    if t in MAPS:
        return _into_map(NAME, coll, xs)
    raise type_error(NAME, "a collection", coll)


@variant("conj", 2)
def conj_2(coll, x):
    if type(coll) is tuple:
        if len(coll) >= _CHECK_FROM and len(coll) >= limits().collection_size:
            check_size(NAME, len(coll) + 1)
        return coll + (x,)
    return conj(coll, x)


def _into_map(fname: str, m: Map, entries) -> Map:
    with m.mutate() as mm:
        for e in chain.from_iterable(chunks(entries)):
            if type(e) in MAPS:
                for k, v in e.items():
                    mm[k] = v
            elif type(e) is tuple and len(e) == 2:
                mm[as_key(check_key(e[0]))] = e[1]
            elif e is None:
                continue
            else:
                raise error("type_error", f"{fname}: a map entry must be a [key value] vector "
                                          f"or a map, got {type_name(e)} {show(e)}")
        result = mm.finish()
    check_size(fname, len(result))
    return result


@builtin("into", "collections")
def into(to, xf_or_from=None, from_=NO_COLL):
    """(into to from) adds the items of from to the collection to; (into to xf from) adds
    the items the transducer xf makes of from."""
    t = type(to)
    if from_ is NO_COLL:
        source = items(NAME, xf_or_from)
    else:
        source = xf.transform(NAME, xf_or_from, from_)
    if t is tuple:
        check_size(NAME, len(to) + len(source))
        return to + tuple(source)
    if to is None:
        return tuple(source)
    if t is frozenset:
        check_size(NAME, len(to) + len(source))
        check_keys(source)
        return to.union(as_keys(source))
    if t in MAPS:
        return _into_map(NAME, to, source)
    raise type_error(NAME, "a collection to add to", to)


@builtin("vec", "collections")
def vec(coll):
    """(vec coll) the items as a vector; nil gives []."""
    return tuple(items(NAME, coll))


@builtin("vector", "collections")
def vector(*xs):
    """(vector x ...) a vector of the arguments."""
    return xs


@builtin("list", "collections")
def list_(*xs):
    """(list x ...) a vector of the arguments (there is one sequential type)."""
    return xs


@builtin("list*", "collections")
def list_star(first, *more):
    """(list* x ... coll) a vector of the x's followed by the items of coll."""
    args = (first, *more)
    seq = items(NAME, args[-1])
    check_size(NAME, len(args) - 1 + len(seq))
    return (*args[:-1], *seq)


@builtin("cons", "collections")
def cons(x, coll):
    """(cons x coll) a vector of x followed by the items of coll."""
    seq = items(NAME, coll)
    check_size(NAME, len(seq) + 1)
    return (x, *seq)


# --- combining -----------------------------------------------------------------------------



@builtin("concat", "collections")
def concat(*colls):
    """(concat c1 c2 ...) one vector of all items; nil counts as empty."""
    seqs = [items(NAME, c) for c in colls]
    check_size(NAME, sum(map(len, seqs)))
    out: list = []
    for s in seqs:
        out.extend(s)
    return tuple(out)


@builtin("interleave", "collections")
def interleave(*colls):
    """(interleave c1 c2 ...) first items of each, then second items...; stops at the shortest."""
    seqs = [items(NAME, c) for c in colls]
    if len(seqs) == 1:
        return vector_of(seqs[0])
    check_size(NAME, min(map(len, seqs), default=0) * len(seqs))
    return tuple(chain.from_iterable(zip(*seqs)))


@builtin("interpose", "collections")
def interpose(sep, coll):
    """(interpose sep coll) the items with sep between each two."""
    seq = items(NAME, coll)
    if len(seq) < 2:
        return vector_of(seq)
    out = [sep] * check_size(NAME, 2 * len(seq) - 1)
    out[0::2] = seq
    return tuple(out)


@builtin("flatten", "collections")
def flatten(coll):
    """(flatten coll) the non-vector items of nested vectors, in order; [] for a non-vector.

    Maps, sets and strings inside stay whole."""
    if type(coll) is not tuple:
        return ()
    if not any(type(x) is tuple for x in coll):
        return coll
    cap = limits().collection_size
    out: list = []
    stack = [iter(coll)]
    pushes = 0
    while stack:
        for x in stack[-1]:
            if type(x) is tuple:
                stack.append(iter(x))
                break
            out.append(x)
        else:
            stack.pop()
            continue
        pushes += 1   # empty vectors add no items but cost a step: bound both
        if pushes > cap or len(out) > cap:
            raise error("memory_exceeded", f"{NAME} would build more than {cap} items")
    check_size(NAME, len(out))
    return tuple(out)


@builtin("zip", "collections")
def zip_(c1, c2, *colls):
    """(zip c1 c2 ...) [[a1 b1] [a2 b2] ...], stopping at the shortest."""
    return tuple(zip(*[items(NAME, c) for c in (c1, c2, *colls)]))
