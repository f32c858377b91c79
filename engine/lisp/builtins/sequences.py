"""The core sequence functions, on the hot path of most programs: map, filter, reduce,
range, count, first/rest, conj, into, sort, sort-by, group-by...

Every result that is a sequence is a vector (tuple). nil is an empty collection.
"""

from __future__ import annotations

import math
from itertools import chain
from functools import cmp_to_key, partial
from operator import ne

from engine.lisp.access import as_fn, key_getter, read_each
from engine.lisp.builtins.math import add
from engine.lisp.builtins.registry import BUILTINS, TWO_ARGUMENT_VARIANTS, builtin, variant
from engine.lisp.builtins import transducers as xf
from engine.lisp.builtins.transducers import NO_COLL, Reduced
from engine.lisp.builtins.support import (CHUNK, build_map, check_size, checked_int, chunks, items, show,
                                          thread_first_error, type_error)
from engine.lisp.compare import check_key, check_keys, compare, sorted_values
from engine.lisp.errors import error
from engine.lisp.values import (HostMap, Keyword, MAPS, Map, as_key, as_keys, from_key, is_fn,
                                truthy, type_name)


@builtin("map", "collections", calls_fns=True)
def map_(f, coll=NO_COLL, *colls):
    """(map f coll) applies f to each item; (map f c1 c2 ...) stops at the shortest;
    (map f) is a transducer."""
    if coll is NO_COLL:
        return xf.map_xf(f)
    _check_order("map", f, coll)
    if not colls and type(f) is Keyword:
        seq = items("map", coll)
        if seq and set(map(type, seq)) == {HostMap}:      # (map :id records), in C
            return tuple(chain.from_iterable(map(partial(read_each, f), chunks(seq))))
    f = as_fn(f)
    if not colls:
        seq = items("map", coll)
        if len(seq) <= CHUNK:
            return tuple(map(f, seq))
        return tuple(chain.from_iterable(map(f, part) for part in chunks(seq)))
    return tuple(map(f, *[items("map", c) for c in (coll, *colls)]))


@builtin("mapv", "collections", calls_fns=True)
def mapv(f, coll, *colls):
    """(mapv f coll ...) same as map."""
    return map_(f, coll, *colls)


@builtin("map-indexed", "collections", calls_fns=True)
def map_indexed(f, coll):
    """(map-indexed f coll) calls (f index item)."""
    f = as_fn(f)
    return tuple(f(i, x) for i, x in enumerate(items("map-indexed", coll)))


def predicate(f, fname: str):
    return as_fn(f, "predicate")


@builtin("filter", "collections", calls_fns=True)
def filter_(pred, coll=NO_COLL):
    """(filter pred coll) the items for which pred is truthy; (filter pred) a transducer."""
    if coll is NO_COLL:
        return xf.filter_xf(pred)
    _check_order("filter", pred, coll)
    pred = predicate(pred, "filter")
    return tuple([x for part in chunks(items("filter", coll)) for x in part
                  if (r := pred(x)) is not None and r is not False])


@builtin("filterv", "collections", calls_fns=True)
def filterv(pred, coll):
    """(filterv pred coll) same as filter."""
    return filter_(pred, coll)


@builtin("remove", "collections", calls_fns=True)
def remove(pred, coll=NO_COLL):
    """(remove pred coll) the items for which pred is falsy; (remove pred) a transducer."""
    if coll is NO_COLL:
        return xf.filter_xf(pred, keep_truthy=False)
    _check_order("remove", pred, coll)
    pred = predicate(pred, "remove")
    return tuple([x for part in chunks(items("remove", coll)) for x in part
                  if (r := pred(x)) is None or r is False])


def _check_order(fname: str, f, coll) -> None:
    if (type(coll) is Keyword or is_fn(coll)) and (f is None or type(f) in (tuple, Map, HostMap, frozenset)):
        raise thread_first_error(fname)


@builtin("reduced", "collections")
def reduced(x):
    """(reduced x) inside a reducing function stops reduce with x."""
    return Reduced(x)


@builtin("reduce", "collections", calls_fns=True)
def reduce_(f, init_or_coll, *coll):
    """(reduce f coll) or (reduce f init coll): (f acc item) over the items."""
    f = as_fn(f)
    if coll:
        if len(coll) > 1:
            raise error("arity_error", f"reduce expects 2 or 3 arguments, got {len(coll) + 2}")
        acc, seq = init_or_coll, items("reduce", coll[0])
    else:
        seq = items("reduce", init_or_coll)
        if not seq:
            return f()
        acc, seq = seq[0], seq[1:]
    if f is _ADD and type(acc) in (int, float) and _NUMBERS.issuperset(map(type, seq)):
        return _checked_sum(acc, seq)
    f = TWO_ARGUMENT_VARIANTS.get(f, f)   # a builtin's fixed-arity fast path
    for part in chunks(seq):
        for x in part:
            acc = f(acc, x)
            if type(acc) is Reduced:
                return acc.value
    return acc


def _checked_sum(acc, seq):
    """(reduce + ...) over numbers in C; an integer total must fit in 64 bits."""
    total = sum(seq, acc)
    return checked_int(total) if type(total) is int else total


_ADD = add
_NUMBERS = frozenset({int, float})


@builtin("reduce-kv", "collections", calls_fns=True)
def reduce_kv(f, init, m):
    """(reduce-kv f init m) calls (f acc key value) over a map's entries."""
    f = as_fn(f)
    if m is None:
        return init
    if type(m) is tuple:
        pairs = enumerate(m)
    elif type(m) in MAPS:
        pairs = items("reduce-kv", m)
    else:
        raise type_error("reduce-kv", "a map", m)
    acc = init
    for k, v in pairs:
        acc = f(acc, k, v)
        if type(acc) is Reduced:
            return acc.value
    return acc


def _number(fname, x):
    if type(x) in (int, float):
        return x
    raise type_error(fname, "a number", x)


@builtin("range", "collections")
def range_(start_or_end, end=None, step=None):
    """(range n), (range start end) or (range start end step); always finite."""
    if end is None:
        start, end, step = 0, _number("range", start_or_end), 1
    else:
        start, end = _number("range", start_or_end), _number("range", end)
        step = 1 if step is None else _number("range", step)
    if step == 0:
        return ()
    if all(type(v) is int for v in (start, end, step)):
        r = range(start, end, step)
        check_size("range", len(r))
        return tuple(r)
    span = (end - start) / step
    if span != span or span <= 0:
        return ()
    if math.isinf(span):
        raise error("memory_exceeded", "range to an infinite end would never stop",
                    "give a finite end, e.g. (range 0 100)")
    n = check_size("range", math.ceil(span))
    if type(start) is int and type(step) is int:   # a float end only: integers all along
        return tuple(range(start, math.ceil(end) if step > 0 else math.floor(end), step))
    # As Clojure: start as given, then repeated addition of step (not start + i * step).
    out = []
    x = start
    while (x < end) if step > 0 else (x > end):
        if len(out) > n:   # rounding, or a step too small to move x
            check_size("range", len(out))
        out.append(x)
        x += step
    return tuple(out)


@builtin("count", "collections")
def count(coll):
    """(count coll) number of items; characters of a string; nil is 0."""
    t = type(coll)
    if t is tuple or t is str or t in MAPS or t is frozenset:
        return len(coll)
    if coll is None:
        return 0
    raise type_error("count", "a collection or string", coll)


@builtin("first", "collections")
def first(coll):
    """(first coll) the first item, or nil."""
    if type(coll) is tuple:
        return coll[0] if coll else None
    seq = items("first", coll)
    return seq[0] if seq else None


@builtin("second", "collections")
def second(coll):
    """(second coll) the second item, or nil."""
    seq = items("second", coll)
    return seq[1] if len(seq) > 1 else None


@builtin("last", "collections")
def last(coll):
    """(last coll) the last item, or nil."""
    seq = items("last", coll)
    return seq[-1] if seq else None


@builtin("rest", "collections")
def rest(coll):
    """(rest coll) all but the first item; [] when none."""
    seq = items("rest", coll)
    return tuple(seq[1:])


@builtin("next", "collections")
def next_(coll):
    """(next coll) all but the first item; nil when none."""
    seq = items("next", coll)
    return tuple(seq[1:]) if len(seq) > 1 else None


@builtin("nth", "collections")
def nth(coll, index, default=None):
    """(nth coll i) the item at i, or nil (or default) when out of range."""
    if type(index) is not int:
        if type(index) is not float or not math.isfinite(index):
            raise type_error("nth", "an integer index", index)
        index = int(index)   # as Clojure: (nth v 1.0) is (nth v 1); (/ n 2) is a float here
    seq = items("nth", coll)
    return seq[index] if 0 <= index < len(seq) else default


@builtin("conj", "collections")
def conj(coll=None, *xs):
    """(conj coll x ...) adds to the end of a vector, into a set, or [k v] into a map."""
    t = type(coll)
    if t is tuple:
        check_size("conj", len(coll) + len(xs))
        return coll + xs
    if coll is None:
        return xs
    if t is frozenset:
        check_size("conj", len(coll) + len(xs))
        check_keys(xs)
        return coll.union(as_keys(xs))
    if t in MAPS:
        return _into_map("conj", coll, xs)
    raise type_error("conj", "a collection", coll)


@variant("conj", 2)
def conj_2(coll, x):
    if type(coll) is tuple:
        if len(coll) >= 1_000_000:
            check_size("conj", len(coll) + 1)
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
        source = items("into", xf_or_from)
    else:
        source = xf.transform("into", xf_or_from, from_)
    if t is tuple:
        check_size("into", len(to) + len(source))
        return to + tuple(source)
    if to is None:
        return tuple(source)
    if t is frozenset:
        check_size("into", len(to) + len(source))
        check_keys(source)
        return to.union(as_keys(source))
    if t in MAPS:
        return _into_map("into", to, source)
    raise type_error("into", "a collection to add to", to)


@builtin("vec", "collections")
def vec(coll):
    """(vec coll) the items as a vector; nil gives []."""
    return tuple(items("vec", coll))


@builtin("vector", "collections")
def vector(*xs):
    """(vector x ...) a vector of the arguments."""
    return xs


@builtin("concat", "collections")
def concat(*colls):
    """(concat c1 c2 ...) one vector of all items; nil counts as empty."""
    seqs = [items("concat", c) for c in colls]
    check_size("concat", sum(map(len, seqs)))
    out: list = []
    for s in seqs:
        out.extend(s)
    return tuple(out)


@builtin("take", "collections")
def take(n, coll=NO_COLL):
    """(take n coll) the first n items; (take n) a transducer."""
    n = _count_arg("take", n)
    if coll is NO_COLL:
        return xf.take_xf(n)
    return tuple(items("take", coll)[:n]) if n > 0 else ()


@builtin("drop", "collections")
def drop(n, coll=NO_COLL):
    """(drop n coll) all but the first n items; (drop n) a transducer."""
    n = _count_arg("drop", n)
    if coll is NO_COLL:
        return xf.drop_xf(n)
    return tuple(items("drop", coll)[max(n, 0):])


def _count_arg(fname, n) -> int:
    if type(n) is int:
        return n
    if type(n) is float and math.isfinite(n):
        return math.ceil(n)
    raise type_error(fname, "a number of items", n, f"({fname} n coll): the count comes first")


@builtin("reverse", "collections")
def reverse(coll):
    """(reverse coll) the items in reverse order."""
    return tuple(reversed(items("reverse", coll)))


@builtin("empty?", "predicates", returns_bool=True)
def is_empty(coll):
    """(empty? coll) no items; nil is empty."""
    if coll is None:
        return True
    t = type(coll)
    if t is tuple or t is str or t in MAPS or t is frozenset:
        return len(coll) == 0
    raise type_error("empty?", "a collection", coll)


@builtin("seq", "collections")
def seq(coll):
    """(seq coll) the items as a vector, or nil when empty."""
    s = items("seq", coll)
    return tuple(s) if s else None


@builtin("some", "collections", calls_fns=True)
def some(pred, coll):
    """(some pred coll) the first truthy (pred item), or nil."""
    pred = predicate(pred, "some")
    for x in items("some", coll):
        r = pred(x)
        if r is not None and r is not False:
            return r
    return None


@builtin("every?", "predicates", returns_bool=True, calls_fns=True)
def every(pred, coll):
    """(every? pred coll) pred is truthy for every item (true when empty)."""
    pred = predicate(pred, "every?")
    return all(truthy(pred(x)) for x in items("every?", coll))


# --- sorting ---------------------------------------------------------------------------

def comparator(f, fname):
    """A cmp function from a PTC comparator: boolean (like <) or -1/0/1 results; or a
    :asc/:desc keyword."""
    if type(f) is Keyword and f.name in ("asc", "desc"):
        sign = 1 if f.name == "asc" else -1
        return lambda a, b: sign * compare(a, b)
    f = as_fn(f, "comparator")

    def cmp(a, b):
        r = f(a, b)
        if r is True:
            return -1
        if r is False or r is None:
            return 1 if truthy(f(b, a)) else 0
        if type(r) in (int, float):
            return (r > 0) - (r < 0)
        raise type_error(fname, "a comparator returning a boolean or a number", r)
    return cmp


def _direction(f):
    """True/False for a plain descending/ascending comparator we can sort natively."""
    if f is BUILTINS["<"].fn or f is BUILTINS["compare"].fn or f == Keyword("asc"):
        return False
    if f is BUILTINS[">"].fn or f == Keyword("desc"):
        return True
    return None


@builtin("sort", "collections", calls_fns=True)
def sort(comp_or_coll, coll=None, *extra):
    """(sort coll) or (sort comp coll): items in order; comp like < or >, or :asc/:desc."""
    if coll is None and not extra and not (is_fn(comp_or_coll) or type(comp_or_coll) is Keyword):
        return tuple(sorted_values(items("sort", comp_or_coll)))
    comp, seq = comp_or_coll, items("sort", coll)
    descending = _direction(comp)
    if descending is not None:
        return tuple(sorted_values(seq, reverse=descending))
    return tuple(sorted(seq, key=cmp_to_key(comparator(comp, "sort"))))


_NO_COLL = object()   # (sort-by k comp nil) has an explicit nil collection


@builtin("sort-by", "collections", calls_fns=True)
def sort_by(keyfn, comp_or_coll, coll=_NO_COLL):
    """(sort-by keyfn coll) or (sort-by keyfn comp coll); keyfn may be :key, "key" or a path."""
    if coll is _NO_COLL:
        comp, seq_in = None, comp_or_coll
    else:
        comp, seq_in = comp_or_coll, coll
        if (is_fn(coll) or type(coll) is Keyword) and type(comp_or_coll) in (tuple, Map, HostMap):
            raise error("type_error", "sort-by expects (sort-by key comparator coll): the "
                                      "collection comes last", "(sort-by :price > items)")
    seq = items("sort-by", seq_in)
    keys = _keys_of_each(keyfn, seq)
    descending = False if comp is None else _direction(comp)
    if descending is not None:
        order = _sorted_indexes(keys, descending)
    else:
        cmp = comparator(comp, "sort-by")
        order = sorted(range(len(seq)), key=cmp_to_key(lambda i, j: cmp(keys[i], keys[j])))
    return tuple(map(seq.__getitem__, order))


def _keys_of_each(keyfn, seq) -> list:
    """`(keyfn item)` for each item of `seq`."""
    if type(keyfn) in (Keyword, str, tuple):
        return list(chain.from_iterable(map(partial(read_each, keyfn), chunks(seq))))
    getter = _key_function(keyfn)
    return [getter(x) for part in chunks(seq) for x in part]


def _sorted_indexes(keys: list, descending: bool) -> list:
    kinds = set(map(type, keys))
    if kinds <= _NUMBERS and not (float in kinds and any(map(ne, keys, keys))) or kinds == {str}:
        return sorted(range(len(keys)), key=keys.__getitem__, reverse=descending)
    ckey = cmp_to_key(compare)
    return sorted(range(len(keys)), key=lambda i: ckey(keys[i]), reverse=descending)


def _key_function(keyfn):
    if type(keyfn) in (Keyword, str, tuple):
        return key_getter(keyfn)
    return as_fn(keyfn, "key function")


_COLLECTIONS = (tuple, Map, HostMap, frozenset) # keys whose hash is checked first (check_key)
_PLAIN_KEYS = frozenset({str, int, float, Keyword, type(None)})


@builtin("group-by", "collections", calls_fns=True)
def group_by(keyfn, coll):
    """(group-by f coll) a map from (f item) to the vector of items, in order."""
    seq = items("group-by", coll)
    keys = _keys_of_each(keyfn, seq)
    groups: dict = {}
    pairs = list(zip(seq, keys))
    if _PLAIN_KEYS.issuperset(map(type, keys)):     # strings, numbers...: stored as they are
        for part in chunks(pairs):
            for x, k in part:
                group = groups.get(k)
                if group is None:
                    groups[k] = [x]
                else:
                    group.append(x)
        return build_map({k: tuple(v) for k, v in groups.items()})
    for x, k in chain.from_iterable(chunks(pairs)):
        try:
            if type(k) in _COLLECTIONS:
                k = as_key(check_key(k))
            elif type(k) is bool:
                k = as_key(k)
            group = groups.get(k)
            if group is None:
                group = groups[k] = []
            group.append(x)
        except TypeError:
            raise error("type_error", f"group-by: cannot use {type_name(k)} as a key") from None
    return build_map({k: tuple(v) for k, v in groups.items()})


@builtin("frequencies", "collections")
def frequencies(coll):
    """(frequencies coll) a map from each distinct item to how often it occurs."""
    counts: dict = {}
    seq = items("frequencies", coll)
    check_keys(seq)
    for part in chunks(as_keys(seq)):
        for x in part:
            counts[x] = counts.get(x, 0) + 1
    return build_map(counts)


@builtin("distinct", "collections")
def distinct(coll=NO_COLL):
    """(distinct coll) the items without repeats, first occurrence kept; (distinct) a
    transducer."""
    if coll is NO_COLL:
        return xf.distinct_xf()
    seq = items("distinct", coll)
    check_keys(seq)
    keyed = as_keys(seq)
    if keyed is seq:
        return tuple(dict.fromkeys(seq))
    return tuple(map(from_key, dict.fromkeys(keyed)))


@builtin("apply", "functions", calls_fns=True)
def apply(f, *args):
    """(apply f x ... coll) calls f with the x's and then the items of coll."""
    if not args:
        raise error("arity_error", "apply expects a function and a collection",
                    "(apply max [1 2 3])")
    last_arg = args[-1]
    if type(last_arg) not in (tuple, frozenset, Map, HostMap, str) and last_arg is not None:
        raise type_error("apply", "a collection as its last argument", last_arg)
    return as_fn(f)(*args[:-1], *items("apply", last_arg))
