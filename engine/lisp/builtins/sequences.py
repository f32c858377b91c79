"""The sequence functions on the hot path of most programs: map, filter, remove, keep,
mapcat, reduce, reductions, some, distinct, range, repeat... and the ones run for their effects
(doall, dorun, run!).

Every result that is a sequence is a vector (tuple). nil is an empty collection.
"""

from __future__ import annotations

import math
from functools import partial
from itertools import chain, islice

from engine.lisp.access import as_fn, read_each
from engine.lisp.builtins import transducers as xf
from engine.lisp.builtins.math import add
from engine.lisp.builtins.registry import NAME, TWO_ARGUMENT_VARIANTS, builtin
from engine.lisp.builtins.support import (check_size, checked_int, CHUNK, chunks, index_arg,
                                          items, show, show_typed, thread_first_error, type_error)
from engine.lisp.builtins.transducers import NO_COLL, Reduced
from engine.lisp.compare import equals
from engine.lisp.keys import as_keys, check_keys, from_key
from engine.lisp.errors import error
from engine.lisp.values import HostMap, Keyword, MAPS, Map, is_fn


_NOTHING = object()
_PLAIN = {int, float, str, Keyword}


@builtin("map", "sequences", calls_fns=True)
def map_(f, coll=NO_COLL, *colls):
    """(map f coll) applies f to each item; (map f c1 c2 ...) stops at the shortest;
    (map f) is a transducer."""
    if coll is NO_COLL:
        return xf.map_xf(f)
    _check_order(NAME, f, coll)
    if not colls and type(f) is Keyword:
        seq = items(NAME, coll)
        if seq and set(map(type, seq)) == {HostMap}:      # (map :id records), in C
            return tuple(chain.from_iterable(map(partial(read_each, f), chunks(seq))))
    f = as_fn(f)
    if not colls:
        seq = items(NAME, coll)
        if len(seq) <= CHUNK:
            return tuple(map(f, seq))
        return tuple(chain.from_iterable(map(f, part) for part in chunks(seq)))
    return tuple(map(f, *[items(NAME, c) for c in (coll, *colls)]))


@builtin("mapv", "sequences", calls_fns=True)
def mapv(f, coll, *colls):
    """(mapv f coll ...) same as map."""
    return map_(f, coll, *colls)


@builtin("map-indexed", "sequences", calls_fns=True)
def map_indexed(f, coll):
    """(map-indexed f coll) calls (f index item)."""
    f = as_fn(f)
    return tuple(f(i, x) for i, x in enumerate(items(NAME, coll)))


def predicate(f, fname: str):
    return as_fn(f, "predicate")


@builtin("filter", "sequences", calls_fns=True)
def filter_(pred, coll=NO_COLL):
    """(filter pred coll) the items for which pred is truthy; (filter pred) a transducer."""
    if coll is NO_COLL:
        return xf.filter_xf(pred)
    _check_order(NAME, pred, coll)
    pred = predicate(pred, NAME)
    return tuple([x for part in chunks(items(NAME, coll)) for x in part
                  if (r := pred(x)) is not None and r is not False])


@builtin("filterv", "sequences", calls_fns=True)
def filterv(pred, coll):
    """(filterv pred coll) same as filter."""
    return filter_(pred, coll)


@builtin("remove", "sequences", calls_fns=True)
def remove(pred, coll=NO_COLL):
    """(remove pred coll) the items for which pred is falsy; (remove pred) a transducer."""
    if coll is NO_COLL:
        return xf.filter_xf(pred, keep_truthy=False)
    _check_order(NAME, pred, coll)
    pred = predicate(pred, NAME)
    return tuple([x for part in chunks(items(NAME, coll)) for x in part
                  if (r := pred(x)) is None or r is False])


@builtin("keep", "sequences", calls_fns=True)
def keep(f, coll=NO_COLL):
    """(keep f coll) the non-nil results of (f item); false is kept; (keep f) a transducer."""
    if coll is NO_COLL:
        return xf.keep_xf(f)
    f = as_fn(f)
    return tuple([r for x in items(NAME, coll) if (r := f(x)) is not None])


@builtin("keep-indexed", "sequences", calls_fns=True)
def keep_indexed(f, coll):
    """(keep-indexed f coll) the non-nil results of (f index item)."""
    f = as_fn(f)
    return tuple([r for i, x in enumerate(items(NAME, coll))
                  if (r := f(i, x)) is not None])


@builtin("mapcat", "sequences", calls_fns=True)
def mapcat(f, coll=NO_COLL, *colls):
    """(mapcat f coll ...) concatenates the collections (f item) returns; (mapcat f) a
    transducer."""
    if coll is NO_COLL:
        return xf.mapcat_xf(f)
    parts = map_(f, coll, *colls)
    seqs = []
    for p in parts:
        t = type(p)
        if t is tuple:
            seqs.append(p)
        elif p is not None:
            if t not in (Map, HostMap, frozenset, str):
                raise error("type_error", f"{NAME}: the function must return a collection, got "
                                          f"{show_typed(p)}", "use map for one value per item")
            seqs.append(items(NAME, p))
    check_size(NAME, sum(map(len, seqs)))
    return tuple(chain.from_iterable(seqs))


def _check_order(fname: str, f, coll) -> None:
    if (type(coll) is Keyword or is_fn(coll)) and (f is None or type(f) in (tuple, Map, HostMap, frozenset)):
        raise thread_first_error(fname)


# --- reducing ------------------------------------------------------------------------------



@builtin("reduced", "sequences")
def reduced(x):
    """(reduced x) inside a reducing function stops reduce with x."""
    return Reduced(x)


@builtin("reduce", "sequences", calls_fns=True)
def reduce_(f, init_or_coll, *coll):
    """(reduce f coll) or (reduce f init coll): (f acc item) over the items."""
    f = as_fn(f)
    start = _fold_start(init_or_coll, coll)
    if start is None:
        return f()
    acc, seq = start
    if f is _ADD and type(acc) in (int, float) and _NUMBERS.issuperset(map(type, seq)):
        return _checked_sum(acc, seq)
    f = TWO_ARGUMENT_VARIANTS.get(f, f)   # a builtin's fixed-arity fast path
    for part in chunks(seq):
        for x in part:
            acc = f(acc, x)
            if type(acc) is Reduced:
                return acc.value
    return acc


def _fold_start(init_or_coll, coll: tuple):
    """Where reduce and reductions start: (init, the items) or, with no init, (the first item,
    the rest); None for no init and no items, where the answer is (f)."""
    if coll:
        if len(coll) > 1:
            raise error("arity_error", f"{NAME} expects 2 or 3 arguments, got {len(coll) + 2}")
        return init_or_coll, items(NAME, coll[0])
    seq = items(NAME, init_or_coll)
    return (seq[0], seq[1:]) if seq else None


def _checked_sum(acc, seq):
    """(reduce + ...) over numbers in C; an integer total must fit in 64 bits."""
    total = sum(seq, acc)
    return checked_int(total) if type(total) is int else total


_ADD = add
_NUMBERS = frozenset({int, float})


@builtin("reduce-kv", "sequences", calls_fns=True)
def reduce_kv(f, init, m):
    """(reduce-kv f init m) calls (f acc key value) over a map's entries."""
    f = as_fn(f)
    if m is None:
        return init
    if type(m) is tuple:
        pairs = enumerate(m)
    elif type(m) in MAPS:
        pairs = items(NAME, m)
    else:
        raise type_error(NAME, "a map", m)
    acc = init
    for k, v in pairs:
        acc = f(acc, k, v)
        if type(acc) is Reduced:
            return acc.value
    return acc


@builtin("reductions", "sequences", calls_fns=True)
def reductions(f, init_or_coll, *coll):
    """(reductions f coll) or (reductions f init coll): the intermediate values of reduce."""
    f = as_fn(f)
    start = _fold_start(init_or_coll, coll)
    if start is None:
        return (f(),)
    acc, seq = start
    if type(acc) is Reduced:
        return (acc.value,)
    out = [acc]
    for x in seq:
        acc = f(acc, x)
        if type(acc) is Reduced:
            out.append(acc.value)
            break
        out.append(acc)
    return tuple(out)


@builtin("some", "sequences", calls_fns=True)
def some(pred, coll):
    """(some pred coll) the first truthy (pred item), or nil."""
    pred = predicate(pred, NAME)
    for x in items(NAME, coll):
        r = pred(x)
        if r is not None and r is not False:
            return r
    return None


@builtin("distinct", "sequences")
def distinct(coll=NO_COLL):
    """(distinct coll) the items without repeats, first occurrence kept; (distinct) a
    transducer."""
    if coll is NO_COLL:
        return xf.distinct_xf()
    seq = items(NAME, coll)
    check_keys(seq)
    keyed = as_keys(seq)
    if keyed is seq:
        return tuple(dict.fromkeys(seq))
    return tuple(map(from_key, dict.fromkeys(keyed)))


@builtin("dedupe", "sequences")
def dedupe(coll=NO_COLL):
    """(dedupe coll) the items without consecutive repeats; (dedupe) a transducer."""
    if coll is NO_COLL:
        return xf.dedupe_xf()
    seq = items(NAME, coll)
    if not seq:
        return ()
    if set(map(type, seq)) <= _PLAIN:   # != is = for these
        return (seq[0], *[b for a, b in zip(seq, islice(seq, 1, None)) if a != b])
    out = [seq[0]]
    for a, b in zip(seq, islice(seq, 1, None)):
        if not equals(a, b):
            out.append(b)
    return tuple(out)


# --- making sequences ----------------------------------------------------------------------



def _number(fname, x):
    if type(x) in (int, float):
        return x
    raise type_error(fname, "a number", x)


@builtin("range", "sequences")
def range_(start_or_end, end=None, step=None):
    """(range n), (range start end) or (range start end step); always finite."""
    if end is None:
        start, end, step = 0, _number(NAME, start_or_end), 1
    else:
        start, end = _number(NAME, start_or_end), _number(NAME, end)
        step = 1 if step is None else _number(NAME, step)
    if step == 0:
        return ()
    if all(type(v) is int for v in (start, end, step)):
        r = range(start, end, step)
        check_size(NAME, len(r))
        return tuple(r)
    span = (end - start) / step
    if span != span or span <= 0:
        return ()
    if math.isinf(span):
        raise error("memory_exceeded", f"{NAME} to an infinite end would never stop",
                    "give a finite end, e.g. (range 0 100)")
    n = check_size(NAME, math.ceil(span))
    if type(start) is int and type(step) is int:   # a float end only: integers all along
        return tuple(range(start, math.ceil(end) if step > 0 else math.floor(end), step))
    # As Clojure: start as given, then repeated addition of step (not start + i * step).
    out = []
    x = start
    while (x < end) if step > 0 else (x > end):
        if len(out) > n:   # rounding, or a step too small to move x
            check_size(NAME, len(out))
        out.append(x)
        x += step
    return tuple(out)


@builtin("repeat", "sequences")
def repeat(n, x=_NOTHING):
    """(repeat n x) a vector of n times x; a count is required."""
    if x is _NOTHING:
        raise error("arity_error", "(repeat x) would be infinite: repeat needs a count",
                    f"give the count first: (repeat 3 {show(n)})")
    n = index_arg(NAME, n, "a count")   # Clojure truncates a float count here
    check_size(NAME, n)
    return (x,) * n   # () for a count of 0 or less


@builtin("repeatedly", "sequences", calls_fns=True)
def repeatedly(n, f=_NOTHING):
    """(repeatedly n f) a vector of n results of calling f with no arguments."""
    if f is _NOTHING:
        raise error("arity_error", "(repeatedly f) would be infinite: repeatedly needs a count",
                    "give the count first: (repeatedly 3 f)")
    n = index_arg(NAME, n, "a count")
    if n <= 0:
        return ()
    check_size(NAME, n)
    f = as_fn(f)
    return tuple(f() for _ in range(n))


# --- effects -------------------------------------------------------------------------------



@builtin("doall", "sequences")
def doall(n_or_coll, coll=_NOTHING):
    """(doall coll) returns coll: sequences are never lazy here, so there is nothing to force."""
    return n_or_coll if coll is _NOTHING else coll


@builtin("dorun", "sequences")
def dorun(n_or_coll, coll=_NOTHING):
    """(dorun coll) returns nil: sequences are never lazy here, so there is nothing to force."""
    return None


@builtin("run!", "sequences", calls_fns=True)
def run_(proc, coll):
    """(run! f coll) calls (f item) for each item, for its effects (println, tool calls); nil."""
    proc = as_fn(proc)
    for x in items(NAME, coll):
        r = proc(x)
        if type(r) is Reduced:
            break
    return None
