"""Shared checks for builtins: argument types, collection views, result sizes."""

from __future__ import annotations

import math
from functools import partial
from itertools import chain

from engine.lisp.access import as_fn, key_getter, read_each
from engine.lisp.compare import collection_items
from engine.lisp.errors import error
from engine.lisp.limits import Limits
from engine.lisp.printer import pr_str
from engine.lisp.runtime import RUNNING, check_deadline
from engine.lisp.values import EMPTY_MAP, INT_MAX, INT_MIN, Keyword, Map, type_name


def show(value) -> str:
    """A short printed form of a value for error messages."""
    return pr_str(value, limit=40)


def type_error(fname: str, expected: str, got, hint: str | None = None):
    return error("type_error", f"{fname} expects {expected}, got {show_typed(got)}", hint)


def number(fname: str, x):
    t = type(x)
    if t is int or t is float:
        return x
    raise type_error(fname, "a number", x)


def integer(fname: str, x) -> int:
    if type(x) is int:
        return x
    raise type_error(fname, "an integer", x)


def checked_int(value: int) -> int:
    """`value` if it fits in 64 bits, else an arithmetic_error, as in Clojure."""
    if INT_MIN <= value <= INT_MAX:
        return value
    raise error("arithmetic_error", "integer overflow",
                "use floats (such as 1.0) for very large numbers")


def string(fname: str, x) -> str:
    if type(x) is str:
        return x
    raise type_error(fname, "a string", x)


def items(fname: str, coll) -> tuple | list | str:
    """What sequence functions iterate: vectors, nil (empty), map entries (in key order),
    set items (in canonical order) and string characters."""
    if type(coll) is tuple:
        if len(coll) > CHUNK:
            check_deadline()
        return coll
    seq = collection_items(coll)
    if seq is None:
        raise type_error(fname, "a collection", coll)
    return seq


_DEFAULT_LIMITS = Limits()
CHUNK = 8192   # builtins check the deadline every CHUNK items of a big collection


def thread_last_error(fname: str):
    """`(->> m (assoc :k v))` put the map last: say to use -> instead."""
    return error("type_error", f"{fname} takes the map first: ({fname} m key ...)",
                 "with ->> the value goes last; use -> with map functions such as assoc, "
                 "update and dissoc")


def thread_first_error(fname: str):
    """`(-> coll (map f))` put the collection first: say to use ->> instead."""
    return error("type_error", f"{fname} takes the function first and the collection last: "
                               f"({fname} f coll)",
                 "with -> the value goes first; use ->> with sequence functions such as map, "
                 "filter and reduce")


def limits() -> Limits:
    """The limits of the run in progress (the defaults outside a run)."""
    ctx = RUNNING.s
    return _DEFAULT_LIMITS if ctx is None else ctx.limits


def check_size(fname: str, n: int) -> int:
    """Refuse to build a collection of `n` items before building it."""
    if n > CHUNK:
        check_deadline()
    cap = limits().collection_size
    if n > cap:
        raise error("memory_exceeded", f"{fname} would build {n} items, more than the limit "
                                       f"of {cap}")
    return n


def check_length(fname: str, n: int) -> int:
    """Refuse to build a string of `n` characters before building it."""
    cap = limits().string_length
    if n > cap:
        raise error("memory_exceeded", f"{fname} would build a string of {n} characters, more "
                                       f"than the limit of {cap}")
    return n


def build_map(entries: dict) -> Map:
    """A map of `entries`; a big one is built a chunk at a time, with deadline checks in
    between (one call building a million-entry map would otherwise take half a second)."""
    if len(entries) <= CHUNK:
        return Map(entries) if entries else EMPTY_MAP
    result = EMPTY_MAP
    pairs = list(entries.items())
    for part in chunks(pairs):
        result = result.update(part)
    return result


def chunks(seq):
    """`seq` in slices, checking the run's deadline between them, so that one builtin call
    over a huge collection (with a builtin function, which never checks) stays bounded."""
    if len(seq) <= CHUNK:
        yield seq
        return
    for start in range(0, len(seq), CHUNK):
        check_deadline()
        yield seq[start:start + CHUNK]


def count_arg(fname: str, n) -> int:
    """A count argument: an integer, or a float rounded up (as Clojure's take does)."""
    t = type(n)
    if t is int:
        return n
    if t is float and math.isfinite(n):
        return math.ceil(n)
    raise type_error(fname, "a number of items", n, f"({fname} n coll): the count comes first")


def index_arg(fname: str, i, what: str = "an integer index") -> int:
    """An index argument: an integer, or a float truncated (as Clojure's int cast does)."""
    t = type(i)
    if t is int:
        return i
    if t is float and math.isfinite(i):
        return int(i)
    raise type_error(fname, what, i)


def show_typed(value) -> str:
    """`nil`, or the type and printed form of a value, for messages."""
    return "nil" if value is None else f"{type_name(value)} {show(value)}"


def key_function(keyfn, role: str = "key function"):
    """A key argument: :key, "key", a [path] vector, or a function."""
    t = type(keyfn)
    if t is Keyword or t is str or t is tuple:
        return key_getter(keyfn)
    return as_fn(keyfn, role)


def keys_of_each(keyfn, seq) -> list:
    """`(keyfn item)` for each item of `seq`."""
    if type(keyfn) in (Keyword, str, tuple):
        return list(chain.from_iterable(map(partial(read_each, keyfn), chunks(seq))))
    getter = key_function(keyfn)
    return [getter(x) for part in chunks(seq) for x in part]


def vector_of(seq) -> tuple:
    return seq if type(seq) is tuple else tuple(seq)
