"""Items gathered by a key or into chunks: group-by, frequencies, partition,
partition-all, partition-by, and upstream's PTC helpers (pluck, sum-by, avg-by, distinct-by).
"""

from __future__ import annotations

from itertools import chain, islice

from engine.lisp.access import as_fn
from engine.lisp.builtins import transducers as xf
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import (build_map, check_size, checked_int, chunks, count_arg,
                                          items, key_function, keys_of_each, show, show_typed)
from engine.lisp.builtins.transducers import NO_COLL
from engine.lisp.compare import equals
from engine.lisp.keys import as_key, as_keys, check_key, check_keys
from engine.lisp.errors import error
from engine.lisp.values import HostMap, Keyword, Map, type_name


_NOTHING = object()
_COLLECTIONS = (tuple, frozenset, Map, HostMap)
_PLAIN_KEYS = frozenset({str, int, float, Keyword, type(None)})


@builtin("group-by", "grouping", calls_fns=True)
def group_by(keyfn, coll):
    """(group-by f coll) a map from (f item) to the vector of items, in order."""
    seq = items(NAME, coll)
    keys = keys_of_each(keyfn, seq)
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
            raise error("type_error", f"{NAME}: cannot use {type_name(k)} as a key") from None
    return build_map({k: tuple(v) for k, v in groups.items()})


@builtin("frequencies", "grouping")
def frequencies(coll):
    """(frequencies coll) a map from each distinct item to how often it occurs."""
    counts: dict = {}
    seq = items(NAME, coll)
    check_keys(seq)
    for part in chunks(as_keys(seq)):
        for x in part:
            counts[x] = counts.get(x, 0) + 1
    return build_map(counts)


# --- chunking ------------------------------------------------------------------------------



def _chunk_total(length: int, n: int, starts: range) -> int:
    """Items in all chunks of at most n items starting at `starts` in `length` items."""
    if not starts:
        return 0
    full = len(range(starts.start, max(length - n + 1, starts.start), starts.step))
    return full * n + sum(length - i for i in starts[full:])


def _step_arg(fname: str, step) -> int:
    step = count_arg(fname, step)
    if step <= 0:
        raise error("type_error", f"{fname} expects a positive step, got {show(step)}",
                    f"a step of {show(step)} never advances: the result would be infinite")
    return step


@builtin("partition", "grouping")
def partition(n, step_or_coll, pad_or_coll=_NOTHING, coll=_NOTHING):
    """(partition n coll), (partition n step coll) or (partition n step pad coll): chunks of n.

    A chunk starts every step items (default n); an incomplete last chunk is dropped, or
    filled from pad when pad is given."""
    if pad_or_coll is _NOTHING:
        step, pad, source = n, None, step_or_coll
    elif coll is _NOTHING:
        step, pad, source = step_or_coll, None, pad_or_coll
    else:
        step, pad, source = step_or_coll, pad_or_coll, coll
    n = count_arg(NAME, n)
    step = count_arg(NAME, step)
    seq = items(NAME, source)
    padding = items(NAME, pad) if coll is not _NOTHING else None
    length = len(seq)
    if not length:
        return ()
    if n < 0:   # Clojure: no chunk has -1 items; the padded form gives one empty chunk
        return () if padding is None else ((),)
    if step <= 0:
        if n <= length:   # a full chunk that never advances: Clojure loops forever
            _step_arg(NAME, step)
        if padding is None:
            return ()
        return (tuple(chain(seq, islice(padding, n - length))),)
    if n == 0:
        check_size(NAME, len(range(0, length, step)))
        return ((),) * len(range(0, length, step))
    starts = range(0, length - n + 1, step)
    if step < n:
        check_size(NAME, len(starts) * n)
    chunks = [tuple(seq[i:i + n]) for i in starts]
    if padding is not None:
        nxt = len(starts) * step
        if nxt < length:
            chunks.append(tuple(chain(seq[nxt:], islice(padding, n - (length - nxt)))))
    return tuple(chunks)


@builtin("partition-all", "grouping")
def partition_all(n, step_or_coll=NO_COLL, coll=_NOTHING):
    """(partition-all n coll) or (partition-all n step coll): chunks of n, the last may be
    short; (partition-all n) a transducer."""
    if step_or_coll is NO_COLL:
        n = count_arg(NAME, n)
        if n <= 0:
            raise error("type_error", f"{NAME} as a transducer needs a positive size, "
                                      f"got {n}")
        return xf.partition_all_xf(n)
    if coll is _NOTHING:
        step, source = n, step_or_coll
    else:
        step, source = step_or_coll, coll
    n = count_arg(NAME, n)
    step = count_arg(NAME, step)
    seq = items(NAME, source)
    length = len(seq)
    if not length:
        return ()
    step = _step_arg(NAME, step)
    starts = range(0, length, step)
    if n <= 0:
        check_size(NAME, len(starts))
        return ((),) * len(starts)
    if step < n:
        check_size(NAME, _chunk_total(length, n, starts))
    return tuple([tuple(seq[i:i + n]) for i in starts])


@builtin("partition-by", "grouping", calls_fns=True)
def partition_by(f, coll):
    """(partition-by f coll) splits coll into runs of items with the same (f item)."""
    f = as_fn(f)
    seq = items(NAME, coll)
    if not seq:
        return ()
    chunks = []
    current = [seq[0]]
    last = f(seq[0])
    for x in islice(seq, 1, None):
        k = f(x)
        if equals(k, last):
            current.append(x)
        else:
            chunks.append(tuple(current))
            current = [x]
            last = k
    chunks.append(tuple(current))
    return tuple(chunks)


# --- by a key: upstream's PTC helpers ------------------------------------------------------



@builtin("pluck", "grouping", calls_fns=True)
def pluck(key, coll):
    """(pluck key coll) the value of key (:key, "key", [path] or function) in every item."""
    getter = key_function(key)
    return tuple(map(getter, items(NAME, coll)))


def _numbers_by(fname: str, key, coll) -> list:
    getter = key_function(key)
    values = [v for v in map(getter, items(fname, coll)) if v is not None]
    for v in values:
        t = type(v)
        if t is not int and t is not float:
            raise error("type_error", f"{fname} expects numbers, got {show_typed(v)} for key "
                                      f"{show(key)}",
                        "convert strings first, e.g. (parse-double s)" if t is str else None)
    return values


@builtin("sum-by", "grouping", calls_fns=True)
def sum_by(key, coll):
    """(sum-by key coll) the sum of the key's values; nil values are skipped; empty is 0."""
    total = sum(_numbers_by(NAME, key, coll))
    return checked_int(total) if type(total) is int else total


@builtin("avg-by", "grouping", calls_fns=True)
def avg_by(key, coll):
    """(avg-by key coll) the mean of the key's values as a float, skipping nils; nil if none."""
    values = _numbers_by(NAME, key, coll)
    if not values:
        return None
    return sum(values) / len(values)


@builtin("distinct-by", "grouping", calls_fns=True)
def distinct_by(key, coll):
    """(distinct-by key coll) the first item for each distinct key value, in order."""
    getter = key_function(key)
    seen: dict = {}
    try:
        for x in items(NAME, coll):
            k = getter(x)
            if type(k) in _COLLECTIONS:
                check_key(k)
            seen.setdefault(as_key(k), x)
    except TypeError:
        raise error("type_error", f"{NAME}: a key value must be comparable data") from None
    return tuple(seen.values())
