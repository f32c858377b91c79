"""Order: sort, sort-by, reverse, rseq, and the item with the smallest or largest key (min-key and max-key,
and upstream's min-by and max-by).
"""

from __future__ import annotations

from functools import cmp_to_key
from itertools import islice

from engine.lisp.access import as_fn
from engine.lisp.builtins.registry import BUILTINS, NAME, builtin
from engine.lisp.builtins.support import items, key_function, keys_of_each, show_typed, type_error
from engine.lisp.compare import compare, sorted_values
from engine.lisp.errors import error
from engine.lisp.values import HostMap, is_fn, Keyword, Map


def comparator(f, fname):
    """A cmp function for Python's sort from a PTC comparator returning a boolean (like <) or
    a number (like compare). Python's sort only asks whether a comes before b (a negative
    result), so a false comparator need not be asked again whether b comes before a: its
    answer would change nothing. (:asc and :desc are sorted natively, see _direction.)"""
    f = as_fn(f, "comparator")

    def cmp(a, b):
        r = f(a, b)
        if r is True:
            return -1
        if r is False or r is None:
            return 0
        if type(r) in (int, float):
            return -1 if r < 0 else 0
        raise type_error(fname, "a comparator returning a boolean or a number", r)
    return cmp


def _direction(f):
    """True/False for a plain descending/ascending comparator we can sort natively."""
    if f is BUILTINS["<"].fn or f is BUILTINS["compare"].fn or f == Keyword("asc"):
        return False
    if f is BUILTINS[">"].fn or f == Keyword("desc"):
        return True
    return None


@builtin("sort", "ordering", calls_fns=True)
def sort(comp_or_coll, coll=None, *extra):
    """(sort coll) or (sort comp coll): items in order; comp like < or >, or :asc/:desc."""
    if coll is None and not extra and not (is_fn(comp_or_coll) or type(comp_or_coll) is Keyword):
        return tuple(sorted_values(items(NAME, comp_or_coll)))
    comp, seq = comp_or_coll, items(NAME, coll)
    descending = _direction(comp)
    if descending is not None:
        return tuple(sorted_values(seq, reverse=descending))
    return tuple(sorted(seq, key=cmp_to_key(comparator(comp, NAME))))


@builtin("reverse", "ordering")
def reverse(coll):
    """(reverse coll) the items in reverse order."""
    return tuple(reversed(items(NAME, coll)))


@builtin("rseq", "ordering")
def rseq(v):
    """(rseq v) the items of a vector in reverse order; nil when empty."""
    if type(v) is tuple:
        return v[::-1] if v else None
    raise type_error(NAME, "a vector", v, "use reverse for other collections")


_NO_COLL = object()   # (sort-by k comp nil) has an explicit nil collection


@builtin("sort-by", "ordering", calls_fns=True)
def sort_by(keyfn, comp_or_coll, coll=_NO_COLL):
    """(sort-by keyfn coll) or (sort-by keyfn comp coll); keyfn may be :key, "key" or a path."""
    if coll is _NO_COLL:
        comp, seq_in = None, comp_or_coll
    else:
        comp, seq_in = comp_or_coll, coll
        if (is_fn(coll) or type(coll) is Keyword) and type(comp_or_coll) in (tuple, Map, HostMap):
            raise error("type_error", f"{NAME} expects (sort-by key comparator coll): the "
                                      "collection comes last", "(sort-by :price > items)")
    seq = items(NAME, seq_in)
    keys = keys_of_each(keyfn, seq)
    descending = False if comp is None else _direction(comp)
    if descending is not None:
        order = _sorted_indexes(keys, descending)
    else:
        cmp = comparator(comp, NAME)
        order = sorted(range(len(seq)), key=cmp_to_key(lambda i, j: cmp(keys[i], keys[j])))
    return tuple(map(seq.__getitem__, order))


_NUMBERS = frozenset({int, float})


def _sorted_indexes(keys: list, descending: bool) -> list:
    """The indexes of `keys` in `compare` order. Numbers (NaN too: compare finds it neither
    less nor greater, as `<` does) and strings need no compare: Python's own `<` is the same."""
    kinds = set(map(type, keys))
    if kinds <= _NUMBERS or kinds == {str}:
        return sorted(range(len(keys)), key=keys.__getitem__, reverse=descending)
    ckey = cmp_to_key(compare)
    return sorted(range(len(keys)), key=lambda i: ckey(keys[i]), reverse=descending)


def _extreme_by(fname: str, key, coll, largest: bool):
    getter = key_function(key)
    pairs = [(k, x) for x in items(fname, coll) if (k := getter(x)) is not None]
    if not pairs:
        return None
    kinds = {type(k) for k, _ in pairs}
    if kinds <= _NUMBERS or kinds == {str}:   # as in _sorted_indexes
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


@builtin("min-by", "ordering", calls_fns=True)
def min_by(key, coll):
    """(min-by key coll) the item with the smallest key value, skipping nil keys; nil if none.

    The first of equal keys wins."""
    return _extreme_by(NAME, key, coll, False)


@builtin("max-by", "ordering", calls_fns=True)
def max_by(key, coll):
    """(max-by key coll) the item with the largest key value, skipping nil keys; nil if none.

    The first of equal keys wins."""
    return _extreme_by(NAME, key, coll, True)


def _extreme_key(fname: str, k, x, more, largest: bool):
    if not more:
        return x
    f = key_function(k)
    candidates = (x, *more)
    keys = [f(c) for c in candidates]
    kinds = {type(v) for v in keys}
    if not (kinds <= {int, float} or kinds == {str}):
        bad = next(v for v in keys if type(v) not in (int, float))
        raise error("type_error", f"{fname} expects the key function to return numbers, got "
                                  f"{show_typed(bad)}",
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


@builtin("max-key", "ordering", calls_fns=True)
def max_key(k, x, *more):
    """(max-key f x y ...) the argument with the largest (f arg); use (apply max-key f coll).

    The last of equal keys wins, as in Clojure."""
    return _extreme_key(NAME, k, x, more, True)


@builtin("min-key", "ordering", calls_fns=True)
def min_key(k, x, *more):
    """(min-key f x y ...) the argument with the smallest (f arg); use (apply min-key f coll).

    The last of equal keys wins, as in Clojure."""
    return _extreme_key(NAME, k, x, more, False)
