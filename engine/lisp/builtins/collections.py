"""More sequence functions: partition, interleave, flatten, mapcat, take-while, keep...
and upstream's PTC-only helpers (pluck, sum-by, avg-by, min-by, max-by, distinct-by, zip).

As everywhere, sequence results are vectors (tuples), an empty result is [] and nil is an
empty collection. Count arguments accept integers and floats (`(/ n 2)` is a float here), a
float counting as the next integer up, as `take` does.
"""

from __future__ import annotations

import math
from itertools import chain, islice

from engine.lisp.access import as_fn, key_getter
from engine.lisp.builtins.registry import builtin
from engine.lisp.builtins import transducers as xf
from engine.lisp.builtins.sequences import Reduced, map_
from engine.lisp.builtins.transducers import NO_COLL
from engine.lisp.builtins.support import (check_size, checked_int, items, limits, show,
                                          type_error)
from engine.lisp.compare import check_key, compare, equals
from engine.lisp.errors import error
from engine.lisp.values import EMPTY_MAP, EMPTY_SET, HostMap, Keyword, MAPS, Map, as_key, type_name

_NOTHING = object()
_PLAIN = {int, float, str, Keyword}
_COLLECTIONS = (tuple, frozenset, Map, HostMap)


def _count(fname: str, n) -> int:
    """A count argument: an integer, or a float rounded up (as Clojure's take does)."""
    t = type(n)
    if t is int:
        return n
    if t is float and math.isfinite(n):
        return math.ceil(n)
    raise type_error(fname, "a number of items", n, f"({fname} n coll): the count comes first")


def _index(fname: str, i, what: str = "an integer index") -> int:
    """An index argument: an integer, or a float truncated (as Clojure's int cast does)."""
    t = type(i)
    if t is int:
        return i
    if t is float and math.isfinite(i):
        return int(i)
    raise type_error(fname, what, i)


def _shown(value) -> str:
    """`nil`, or the type and printed form of a value, for messages."""
    return "nil" if value is None else f"{type_name(value)} {show(value)}"


def _key_function(keyfn, role: str = "key function"):
    """A key argument: :key, "key", a [path] vector, or a function."""
    t = type(keyfn)
    if t is Keyword or t is str or t is tuple:
        return key_getter(keyfn)
    return as_fn(keyfn, role)


def _vector(seq) -> tuple:
    return seq if type(seq) is tuple else tuple(seq)


# --- chunking ------------------------------------------------------------------------------

def _chunk_total(length: int, n: int, starts: range) -> int:
    """Items in all chunks of at most n items starting at `starts` in `length` items."""
    if not starts:
        return 0
    full = len(range(starts.start, max(length - n + 1, starts.start), starts.step))
    return full * n + sum(length - i for i in starts[full:])


def _step_arg(fname: str, step) -> int:
    step = _count(fname, step)
    if step <= 0:
        raise error("type_error", f"{fname} expects a positive step, got {show(step)}",
                    f"a step of {show(step)} never advances: the result would be infinite")
    return step


@builtin("partition", "collections")
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
    n = _count("partition", n)
    step = _count("partition", step)
    seq = items("partition", source)
    padding = items("partition", pad) if coll is not _NOTHING else None
    length = len(seq)
    if not length:
        return ()
    if n < 0:   # Clojure: no chunk has -1 items; the padded form gives one empty chunk
        return () if padding is None else ((),)
    if step <= 0:
        if n <= length:   # a full chunk that never advances: Clojure loops forever
            _step_arg("partition", step)
        if padding is None:
            return ()
        return (tuple(chain(seq, islice(padding, n - length))),)
    if n == 0:
        check_size("partition", len(range(0, length, step)))
        return ((),) * len(range(0, length, step))
    starts = range(0, length - n + 1, step)
    if step < n:
        check_size("partition", len(starts) * n)
    chunks = [tuple(seq[i:i + n]) for i in starts]
    if padding is not None:
        nxt = len(starts) * step
        if nxt < length:
            chunks.append(tuple(chain(seq[nxt:], islice(padding, n - (length - nxt)))))
    return tuple(chunks)


@builtin("partition-all", "collections")
def partition_all(n, step_or_coll=NO_COLL, coll=_NOTHING):
    """(partition-all n coll) or (partition-all n step coll): chunks of n, the last may be
    short; (partition-all n) a transducer."""
    if step_or_coll is NO_COLL:
        n = _count("partition-all", n)
        if n <= 0:
            raise error("type_error", f"partition-all as a transducer needs a positive size, "
                                      f"got {n}")
        return xf.partition_all_xf(n)
    if coll is _NOTHING:
        step, source = n, step_or_coll
    else:
        step, source = step_or_coll, coll
    n = _count("partition-all", n)
    step = _count("partition-all", step)
    seq = items("partition-all", source)
    length = len(seq)
    if not length:
        return ()
    step = _step_arg("partition-all", step)
    starts = range(0, length, step)
    if n <= 0:
        check_size("partition-all", len(starts))
        return ((),) * len(starts)
    if step < n:
        check_size("partition-all", _chunk_total(length, n, starts))
    return tuple([tuple(seq[i:i + n]) for i in starts])


@builtin("partition-by", "collections", calls_fns=True)
def partition_by(f, coll):
    """(partition-by f coll) splits coll into runs of items with the same (f item)."""
    f = as_fn(f)
    seq = items("partition-by", coll)
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


@builtin("split-at", "collections")
def split_at(n, coll):
    """(split-at n coll) [(take n coll) (drop n coll)]."""
    n = _count("split-at", n)
    seq = items("split-at", coll)
    n = max(n, 0)
    return (tuple(seq[:n]), tuple(seq[n:]))


def _prefix_length(pred, seq) -> int:
    """How many leading items of seq satisfy pred."""
    i = 0
    for x in seq:
        r = pred(x)
        if r is None or r is False:
            return i
        i += 1
    return i


@builtin("split-with", "collections", calls_fns=True)
def split_with(pred, coll):
    """(split-with pred coll) [(take-while pred coll) (drop-while pred coll)]."""
    pred = as_fn(pred, "predicate")
    seq = items("split-with", coll)
    i = _prefix_length(pred, seq)
    return (tuple(seq[:i]), tuple(seq[i:]))


@builtin("take-while", "collections", calls_fns=True)
def take_while(pred, coll=NO_COLL):
    """(take-while pred coll) the leading items for which pred is truthy; (take-while pred)
    a transducer."""
    if coll is NO_COLL:
        return xf.take_while_xf(pred)
    pred = as_fn(pred, "predicate")
    seq = items("take-while", coll)
    return tuple(seq[:_prefix_length(pred, seq)])


@builtin("drop-while", "collections", calls_fns=True)
def drop_while(pred, coll=NO_COLL):
    """(drop-while pred coll) the items from the first for which pred is falsy;
    (drop-while pred) a transducer."""
    if coll is NO_COLL:
        return xf.drop_while_xf(pred)
    pred = as_fn(pred, "predicate")
    seq = items("drop-while", coll)
    return tuple(seq[_prefix_length(pred, seq):])


# --- combining -----------------------------------------------------------------------------

@builtin("interleave", "collections")
def interleave(*colls):
    """(interleave c1 c2 ...) first items of each, then second items...; stops at the shortest."""
    seqs = [items("interleave", c) for c in colls]
    if len(seqs) == 1:
        return _vector(seqs[0])
    check_size("interleave", min(map(len, seqs), default=0) * len(seqs))
    return tuple(chain.from_iterable(zip(*seqs)))


@builtin("interpose", "collections")
def interpose(sep, coll):
    """(interpose sep coll) the items with sep between each two."""
    seq = items("interpose", coll)
    if len(seq) < 2:
        return _vector(seq)
    out = [sep] * check_size("interpose", 2 * len(seq) - 1)
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
            raise error("memory_exceeded", f"flatten would build more than {cap} items")
    check_size("flatten", len(out))
    return tuple(out)


@builtin("mapcat", "collections", calls_fns=True)
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
                raise error("type_error", "mapcat: the function must return a collection, got "
                                          f"{_shown(p)}", "use map for one value per item")
            seqs.append(items("mapcat", p))
    check_size("mapcat", sum(map(len, seqs)))
    return tuple(chain.from_iterable(seqs))


@builtin("zip", "collections")
def zip_(c1, c2, *colls):
    """(zip c1 c2 ...) [[a1 b1] [a2 b2] ...], stopping at the shortest."""
    return tuple(zip(*[items("zip", c) for c in (c1, c2, *colls)]))


@builtin("cons", "collections")
def cons(x, coll):
    """(cons x coll) a vector of x followed by the items of coll."""
    seq = items("cons", coll)
    check_size("cons", len(seq) + 1)
    return (x, *seq)


@builtin("list", "collections")
def list_(*xs):
    """(list x ...) a vector of the arguments (there is one sequential type)."""
    return xs


@builtin("repeat", "collections")
def repeat(n, x=_NOTHING):
    """(repeat n x) a vector of n times x; a count is required."""
    if x is _NOTHING:
        raise error("arity_error", "(repeat x) would be infinite: repeat needs a count",
                    f"give the count first: (repeat 3 {show(n)})")
    n = _index("repeat", n, "a count")   # Clojure truncates a float count here
    if n <= 0:
        return ()
    check_size("repeat", n)
    return (x,) * n


@builtin("repeatedly", "collections", calls_fns=True)
def repeatedly(n, f=_NOTHING):
    """(repeatedly n f) a vector of n results of calling f with no arguments."""
    if f is _NOTHING:
        raise error("arity_error", "(repeatedly f) would be infinite: repeatedly needs a count",
                    "give the count first: (repeatedly 3 f)")
    n = _index("repeatedly", n, "a count")
    if n <= 0:
        return ()
    check_size("repeatedly", n)
    f = as_fn(f)
    return tuple(f() for _ in range(n))


# --- ends of sequences ---------------------------------------------------------------------

@builtin("take-last", "collections")
def take_last(n, coll):
    """(take-last n coll) the last n items."""
    n = _count("take-last", n)
    seq = items("take-last", coll)
    return tuple(seq[-n:]) if n > 0 else ()


@builtin("drop-last", "collections")
def drop_last(n_or_coll, coll=_NOTHING):
    """(drop-last coll) all but the last item; (drop-last n coll) all but the last n."""
    if coll is _NOTHING:
        n, coll = 1, n_or_coll
    else:
        n = _count("drop-last", n_or_coll)
    seq = items("drop-last", coll)
    if n <= 0:
        return _vector(seq)
    return tuple(seq[:-n])


@builtin("butlast", "collections")
def butlast(coll):
    """(butlast coll) all but the last item; [] when none."""
    return tuple(items("butlast", coll)[:-1])


@builtin("take-nth", "collections")
def take_nth(n, coll):
    """(take-nth n coll) every nth item, starting with the first."""
    n = _count("take-nth", n)
    seq = items("take-nth", coll)
    if not seq:
        return ()
    if n <= 0:
        raise error("type_error", f"take-nth expects a positive step, got {n}",
                    "a step below 1 would repeat the first item forever")
    return tuple(seq[::n])


@builtin("nthnext", "collections")
def nthnext(coll, n):
    """(nthnext coll n) the items after the first n, or nil when none."""
    n = _count("nthnext", n)
    seq = items("nthnext", coll)
    rest = seq[max(n, 0):]
    return tuple(rest) if rest else None


@builtin("nthrest", "collections")
def nthrest(coll, n):
    """(nthrest coll n) the items after the first n; [] when none."""
    n = _count("nthrest", n)
    seq = items("nthrest", coll)
    if n <= 0:
        return () if coll is None else coll
    return tuple(seq[n:])


@builtin("ffirst", "collections")
def ffirst(coll):
    """(ffirst coll) the first item of the first item."""
    seq = items("ffirst", coll)
    if not seq:
        return None
    inner = items("ffirst", seq[0])
    return inner[0] if inner else None


@builtin("fnext", "collections")
def fnext(coll):
    """(fnext coll) the second item, as (first (next coll))."""
    seq = items("fnext", coll)
    return seq[1] if len(seq) > 1 else None


@builtin("nfirst", "collections")
def nfirst(coll):
    """(nfirst coll) (next (first coll)): the first item without its first item, or nil."""
    seq = items("nfirst", coll)
    if not seq:
        return None
    inner = items("nfirst", seq[0])
    return tuple(inner[1:]) if len(inner) > 1 else None


@builtin("nnext", "collections")
def nnext(coll):
    """(nnext coll) the items after the second, or nil when none."""
    seq = items("nnext", coll)
    return tuple(seq[2:]) if len(seq) > 2 else None


@builtin("peek", "collections")
def peek(coll):
    """(peek v) the last item of a vector, or nil when empty."""
    if type(coll) is tuple:
        return coll[-1] if coll else None
    if coll is None:
        return None
    raise type_error("peek", "a vector", coll, "use last or first")


@builtin("pop", "collections")
def pop(coll):
    """(pop v) the vector without its last item; an empty vector is an error."""
    if type(coll) is tuple:
        if not coll:
            raise error("index_out_of_bounds", "pop of an empty vector",
                        "check (empty? v) first, or use butlast, which gives []")
        return coll[:-1]
    if coll is None:
        return None
    raise type_error("pop", "a vector", coll, "use butlast or rest")


@builtin("subvec", "collections")
def subvec(v, start, end=_NOTHING):
    """(subvec v start) or (subvec v start end): the items from index start up to end."""
    if type(v) is not tuple:
        raise type_error("subvec", "a vector", v, "use (vec coll) first, or take/drop")
    start = _index("subvec", start)
    end = len(v) if end is _NOTHING else _index("subvec", end)
    if not 0 <= start <= end <= len(v):
        raise error("index_out_of_bounds",
                    f"subvec {start} to {end} is out of range for a vector of {len(v)} items",
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
    raise type_error("not-empty", "a collection", coll)


@builtin("dedupe", "collections")
def dedupe(coll=NO_COLL):
    """(dedupe coll) the items without consecutive repeats; (dedupe) a transducer."""
    if coll is NO_COLL:
        return xf.dedupe_xf()
    seq = items("dedupe", coll)
    if not seq:
        return ()
    if set(map(type, seq)) <= _PLAIN:   # != is = for these
        return (seq[0], *[b for a, b in zip(seq, islice(seq, 1, None)) if a != b])
    out = [seq[0]]
    for a, b in zip(seq, islice(seq, 1, None)):
        if not equals(a, b):
            out.append(b)
    return tuple(out)


@builtin("keep", "collections", calls_fns=True)
def keep(f, coll=NO_COLL):
    """(keep f coll) the non-nil results of (f item); false is kept; (keep f) a transducer."""
    if coll is NO_COLL:
        return xf.keep_xf(f)
    f = as_fn(f)
    return tuple([r for x in items("keep", coll) if (r := f(x)) is not None])


@builtin("keep-indexed", "collections", calls_fns=True)
def keep_indexed(f, coll):
    """(keep-indexed f coll) the non-nil results of (f index item)."""
    f = as_fn(f)
    return tuple([r for i, x in enumerate(items("keep-indexed", coll))
                  if (r := f(i, x)) is not None])


@builtin("not-any?", "predicates", returns_bool=True, calls_fns=True)
def not_any(pred, coll):
    """(not-any? pred coll) pred is falsy for every item (true when empty)."""
    pred = as_fn(pred, "predicate")
    for x in items("not-any?", coll):
        r = pred(x)
        if r is not None and r is not False:
            return False
    return True


@builtin("not-every?", "predicates", returns_bool=True, calls_fns=True)
def not_every(pred, coll):
    """(not-every? pred coll) pred is falsy for some item (false when empty)."""
    pred = as_fn(pred, "predicate")
    for x in items("not-every?", coll):
        r = pred(x)
        if r is None or r is False:
            return True
    return False


# --- by a key: upstream's PTC helpers ------------------------------------------------------

@builtin("pluck", "collections", calls_fns=True)
def pluck(key, coll):
    """(pluck key coll) the value of key (:key, "key", [path] or function) in every item."""
    getter = _key_function(key)
    return tuple(map(getter, items("pluck", coll)))


def _numbers_by(fname: str, key, coll) -> list:
    getter = _key_function(key)
    values = [v for v in map(getter, items(fname, coll)) if v is not None]
    for v in values:
        t = type(v)
        if t is not int and t is not float:
            raise error("type_error", f"{fname} expects numbers, got {_shown(v)} for key "
                                      f"{show(key)}",
                        "convert strings first, e.g. (parse-double s)" if t is str else None)
    return values


@builtin("sum-by", "collections", calls_fns=True)
def sum_by(key, coll):
    """(sum-by key coll) the sum of the key's values; nil values are skipped; empty is 0."""
    total = sum(_numbers_by("sum-by", key, coll))
    return checked_int(total) if type(total) is int else total


@builtin("avg-by", "collections", calls_fns=True)
def avg_by(key, coll):
    """(avg-by key coll) the mean of the key's values as a float, skipping nils; nil if none."""
    values = _numbers_by("avg-by", key, coll)
    if not values:
        return None
    return sum(values) / len(values)


def _extreme_by(fname: str, key, coll, largest: bool):
    getter = _key_function(key)
    pairs = [(k, x) for x in items(fname, coll) if (k := getter(x)) is not None]
    if not pairs:
        return None
    kinds = {type(k) for k, _ in pairs}
    if (kinds <= {int, float} and not any(k != k for k, _ in pairs)) or kinds == {str}:
        pick = max if largest else min
        return pick(pairs, key=_first)[1]
    best_key, best = pairs[0]
    for k, x in islice(pairs, 1, None):
        c = compare(k, best_key)
        if (c > 0) if largest else (c < 0):
            best_key, best = k, x
    return best


def _first(pair):
    return pair[0]


@builtin("min-by", "collections", calls_fns=True)
def min_by(key, coll):
    """(min-by key coll) the item with the smallest key value, skipping nil keys; nil if none.

    The first of equal keys wins."""
    return _extreme_by("min-by", key, coll, False)


@builtin("max-by", "collections", calls_fns=True)
def max_by(key, coll):
    """(max-by key coll) the item with the largest key value, skipping nil keys; nil if none.

    The first of equal keys wins."""
    return _extreme_by("max-by", key, coll, True)


@builtin("distinct-by", "collections", calls_fns=True)
def distinct_by(key, coll):
    """(distinct-by key coll) the first item for each distinct key value, in order."""
    getter = _key_function(key)
    seen: dict = {}
    try:
        for x in items("distinct-by", coll):
            k = getter(x)
            if type(k) in _COLLECTIONS:
                check_key(k)
            seen.setdefault(as_key(k), x)
    except TypeError:
        raise error("type_error", "distinct-by: a key value must be comparable data") from None
    return tuple(seen.values())


def _extreme_key(fname: str, k, x, more, largest: bool):
    if not more:
        return x
    f = _key_function(k)
    candidates = (x, *more)
    keys = [f(c) for c in candidates]
    kinds = {type(v) for v in keys}
    if not (kinds <= {int, float} or kinds == {str}):
        bad = next((v for v in keys if type(v) not in (int, float)), keys[0])
        raise error("type_error", f"{fname} expects the key function to return numbers, got "
                                  f"{_shown(bad)}",
                    "use max-by/min-by to skip nil keys" if bad is None else None)
    # Clojure's algorithm: the first two compare strictly, then the last of equal keys wins.
    x, kx, y, ky = candidates[0], keys[0], candidates[1], keys[1]
    if (kx > ky) if largest else (kx < ky):
        best, best_key = x, kx
    else:
        best, best_key = y, ky
    for c, kc in zip(islice(candidates, 2, None), islice(keys, 2, None)):
        if (kc >= best_key) if largest else (kc <= best_key):
            best, best_key = c, kc
    return best


@builtin("max-key", "collections", calls_fns=True)
def max_key(k, x, *more):
    """(max-key f x y ...) the argument with the largest (f arg); use (apply max-key f coll).

    The last of equal keys wins, as in Clojure."""
    return _extreme_key("max-key", k, x, more, True)


@builtin("min-key", "collections", calls_fns=True)
def min_key(k, x, *more):
    """(min-key f x y ...) the argument with the smallest (f arg); use (apply min-key f coll).

    The last of equal keys wins, as in Clojure."""
    return _extreme_key("min-key", k, x, more, False)


# --- more of clojure.core's sequence functions -------------------------------------------

@builtin("reductions", "collections", calls_fns=True)
def reductions(f, init_or_coll, *coll):
    """(reductions f coll) or (reductions f init coll): the intermediate values of reduce."""
    f = as_fn(f)
    if coll:
        if len(coll) > 1:
            raise error("arity_error", f"reductions expects 2 or 3 arguments, got {len(coll) + 2}")
        acc, seq = init_or_coll, items("reductions", coll[0])
    else:
        seq = items("reductions", init_or_coll)
        if not seq:
            return (f(),)
        acc, seq = seq[0], islice(seq, 1, None)
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


@builtin("list*", "collections")
def list_star(first, *more):
    """(list* x ... coll) a vector of the x's followed by the items of coll."""
    args = (first, *more)
    seq = items("list*", args[-1])
    check_size("list*", len(args) - 1 + len(seq))
    return (*args[:-1], *seq)


@builtin("rseq", "collections")
def rseq(v):
    """(rseq v) the items of a vector in reverse order; nil when empty."""
    if type(v) is tuple:
        return v[::-1] if v else None
    raise type_error("rseq", "a vector", v, "use reverse for other collections")


@builtin("doall", "collections")
def doall(n_or_coll, coll=_NOTHING):
    """(doall coll) returns coll: sequences are never lazy here, so there is nothing to force."""
    return n_or_coll if coll is _NOTHING else coll


@builtin("dorun", "collections")
def dorun(n_or_coll, coll=_NOTHING):
    """(dorun coll) returns nil: sequences are never lazy here, so there is nothing to force."""
    return None


@builtin("run!", "collections", calls_fns=True)
def run_(proc, coll):
    """(run! f coll) calls (f item) for each item, for its effects (println, tool calls); nil."""
    proc = as_fn(proc)
    for x in items("run!", coll):
        r = proc(x)
        if type(r) is Reduced:
            break
    return None
