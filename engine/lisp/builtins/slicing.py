"""Parts of a sequence: take, drop, take-while, drop-while, take-last, drop-last, butlast,
take-nth, split-at, split-with.

Count arguments accept integers and floats (`(/ n 2)` is a float here), a float counting as the
next integer up, as Clojure's `take` does.
"""

from __future__ import annotations


from engine.lisp.access import as_fn
from engine.lisp.builtins import transducers as xf
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import count_arg, items, vector_of
from engine.lisp.builtins.transducers import NO_COLL
from engine.lisp.errors import error


_NOTHING = object()


@builtin("take", "slicing")
def take(n, coll=NO_COLL):
    """(take n coll) the first n items; (take n) a transducer."""
    n = count_arg(NAME, n)
    if coll is NO_COLL:
        return xf.take_xf(n)
    return tuple(items(NAME, coll)[:n]) if n > 0 else ()


@builtin("drop", "slicing")
def drop(n, coll=NO_COLL):
    """(drop n coll) all but the first n items; (drop n) a transducer."""
    n = count_arg(NAME, n)
    if coll is NO_COLL:
        return xf.drop_xf(n)
    return tuple(items(NAME, coll)[max(n, 0):])


@builtin("take-while", "slicing", calls_fns=True)
def take_while(pred, coll=NO_COLL):
    """(take-while pred coll) the leading items for which pred is truthy; (take-while pred)
    a transducer."""
    if coll is NO_COLL:
        return xf.take_while_xf(pred)
    pred = as_fn(pred, "predicate")
    seq = items(NAME, coll)
    return tuple(seq[:_prefix_length(pred, seq)])


@builtin("drop-while", "slicing", calls_fns=True)
def drop_while(pred, coll=NO_COLL):
    """(drop-while pred coll) the items from the first for which pred is falsy;
    (drop-while pred) a transducer."""
    if coll is NO_COLL:
        return xf.drop_while_xf(pred)
    pred = as_fn(pred, "predicate")
    seq = items(NAME, coll)
    return tuple(seq[_prefix_length(pred, seq):])


def _prefix_length(pred, seq) -> int:
    """How many leading items of seq satisfy pred."""
    i = 0
    for x in seq:
        r = pred(x)
        if r is None or r is False:
            return i
        i += 1
    return i


@builtin("split-at", "slicing")
def split_at(n, coll):
    """(split-at n coll) [(take n coll) (drop n coll)]."""
    n = count_arg(NAME, n)
    seq = items(NAME, coll)
    n = max(n, 0)
    return (tuple(seq[:n]), tuple(seq[n:]))


@builtin("split-with", "slicing", calls_fns=True)
def split_with(pred, coll):
    """(split-with pred coll) [(take-while pred coll) (drop-while pred coll)]."""
    pred = as_fn(pred, "predicate")
    seq = items(NAME, coll)
    i = _prefix_length(pred, seq)
    return (tuple(seq[:i]), tuple(seq[i:]))


@builtin("take-last", "slicing")
def take_last(n, coll):
    """(take-last n coll) the last n items."""
    n = count_arg(NAME, n)
    seq = items(NAME, coll)
    return tuple(seq[-n:]) if n > 0 else ()


@builtin("drop-last", "slicing")
def drop_last(n_or_coll, coll=_NOTHING):
    """(drop-last coll) all but the last item; (drop-last n coll) all but the last n."""
    if coll is _NOTHING:
        n, coll = 1, n_or_coll
    else:
        n = count_arg(NAME, n_or_coll)
    seq = items(NAME, coll)
    if n <= 0:
        return vector_of(seq)
    return tuple(seq[:-n])


@builtin("butlast", "slicing")
def butlast(coll):
    """(butlast coll) all but the last item; [] when none."""
    return tuple(items(NAME, coll)[:-1])


@builtin("take-nth", "slicing")
def take_nth(n, coll):
    """(take-nth n coll) every nth item, starting with the first."""
    n = count_arg(NAME, n)
    seq = items(NAME, coll)
    if not seq:
        return ()
    if n <= 0:
        raise error("type_error", f"{NAME} expects a positive step, got {n}",
                    "a step below 1 would repeat the first item forever")
    return tuple(seq[::n])
