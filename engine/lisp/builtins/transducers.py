"""Transducers, as in Clojure: `(map f)`, `(filter p)`, `(take n)`... without a collection
return a transducer, composed with `comp` and used by `into`, `transduce` and `sequence`.

A transducer is a plain function from a reducing function to a reducing function; a reducing
function takes no arguments (init), one (completion) or two (step). A step may return
`(reduced x)` to stop: the transduction then consumes no more items. Stateful transducers
(take, drop, distinct...) keep their state in the reducing function they build, so each use
starts afresh. The one-argument forms of the sequence functions (in sequences.py,
slicing.py and grouping.py) build their transducer here.
"""

from __future__ import annotations

from engine.lisp.access import as_fn
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import chunks, items, limits, type_error
from engine.lisp.compare import equals
from engine.lisp.keys import as_key, check_key
from engine.lisp.errors import error
from engine.lisp.values import is_fn, truthy


NO_COLL = object()   # a sequence function called without its collection: a transducer


class Reduced:
    """What `(reduced x)` returns: stops reduce (or a transduction) early with x."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _ensure_reduced(x):
    return x if type(x) is Reduced else Reduced(x)


def _stepper(make_step):
    """A transducer whose step is `make_step(rf)(acc, x)`; init and completion pass through."""
    def transducer(rf):
        step = make_step(rf)

        def reducing(*args):
            if len(args) == 2:
                return step(args[0], args[1])
            return rf(*args)
        return reducing
    return transducer


def map_xf(f):
    f = as_fn(f)
    return _stepper(lambda rf: lambda acc, x: rf(acc, f(x)))


def filter_xf(pred, keep_truthy: bool = True):
    pred = as_fn(pred, "predicate")
    return _stepper(lambda rf: lambda acc, x: rf(acc, x) if truthy(pred(x)) is keep_truthy
                    else acc)


def keep_xf(f):
    f = as_fn(f)

    def make(rf):
        def step(acc, x):
            v = f(x)
            return acc if v is None else rf(acc, v)
        return step
    return _stepper(make)


def mapcat_xf(f):
    f = as_fn(f)
    return _stepper(lambda rf: lambda acc, x: _concat_step(rf, acc, f(x)))


def _concat_step(rf, acc, coll):
    """Each item of `coll` into `rf`; a reduced result stops at once and stays reduced."""
    for x in items("cat", coll):
        acc = rf(acc, x)
        if type(acc) is Reduced:
            return acc
    return acc


def take_xf(n: int):
    def make(rf):
        left = n

        def step(acc, x):
            nonlocal left
            current, left = left, left - 1
            if current > 0:
                acc = rf(acc, x)
            return _ensure_reduced(acc) if left <= 0 else acc
        return step
    return _stepper(make)


def drop_xf(n: int):
    def make(rf):
        left = n

        def step(acc, x):
            nonlocal left
            if left > 0:
                left -= 1
                return acc
            return rf(acc, x)
        return step
    return _stepper(make)


def take_while_xf(pred):
    pred = as_fn(pred, "predicate")
    return _stepper(lambda rf: lambda acc, x: rf(acc, x) if truthy(pred(x)) else Reduced(acc))


def drop_while_xf(pred):
    pred = as_fn(pred, "predicate")

    def make(rf):
        dropping = True

        def step(acc, x):
            nonlocal dropping
            if dropping and truthy(pred(x)):
                return acc
            dropping = False
            return rf(acc, x)
        return step
    return _stepper(make)


def distinct_xf():
    def make(rf):
        seen: set = set()

        def step(acc, x):
            k = as_key(check_key(x))
            if k in seen:
                return acc
            seen.add(k)
            return rf(acc, x)
        return step
    return _stepper(make)


def dedupe_xf():
    def make(rf):
        previous = NO_COLL

        def step(acc, x):
            nonlocal previous
            same = previous is not NO_COLL and equals(previous, x)
            previous = x
            return acc if same else rf(acc, x)
        return step
    return _stepper(make)


def partition_all_xf(n: int):
    def transducer(rf):
        buffer: list = []

        def reducing(*args):
            if len(args) == 2:
                buffer.append(args[1])
                if len(buffer) < n:
                    return args[0]
                chunk = tuple(buffer)
                buffer.clear()
                return rf(args[0], chunk)
            if len(args) == 1 and buffer:    # completion: the short last chunk
                chunk = tuple(buffer)
                buffer.clear()
                acc = rf(args[0], chunk)
                return rf(acc.value if type(acc) is Reduced else acc)
            return rf(*args)
        return reducing
    return transducer


@builtin("cat", "transducers")
def cat(rf):
    """cat, the transducer that concatenates collections: (into [] cat [[1 2] [3]])."""
    rf = _reducing_fn(NAME, rf)

    def reducing(*args):
        if len(args) == 2:
            return _concat_step(rf, args[0], args[1])
        return rf(*args)
    return reducing


def _transducer(fname: str, xf):
    if not is_fn(xf):
        raise type_error(fname, "a transducer such as (map f) or (comp (filter p) (take 3))", xf)
    return xf


def _reducing_fn(fname: str, f):
    if not is_fn(f):
        raise type_error(fname, "a reducing function", f)
    return f


def _reduce(rf, acc, coll, fname: str):
    """Steps `rf` over the items of `coll` until one returns reduced; the final value."""
    for part in chunks(items(fname, coll)):
        for x in part:
            acc = rf(acc, x)
            if type(acc) is Reduced:
                return acc.value
    return acc


def transform(fname: str, xf, coll) -> tuple:
    """The items `xf` makes of `coll`, as a vector (what into and sequence collect)."""
    cap = limits().collection_size
    out: list = []

    def collect(*args):
        if len(args) == 2:
            out.append(args[1])
            if len(out) > cap:
                raise error("memory_exceeded", f"{fname} would build more than {cap} items")
        return None

    rf = _transducer(fname, xf)(collect)
    rf(_reduce(rf, None, coll, fname))
    return tuple(out)


@builtin("transduce", "transducers", calls_fns=True)
def transduce(xf, f, init_or_coll, coll=NO_COLL):
    """(transduce xf f coll) or (transduce xf f init coll): reduce with (xf f), starting from
    init or (f); at the end calls (f result), as + conj and str allow."""
    f = as_fn(_reducing_fn(NAME, f))
    rf = _transducer(NAME, xf)(f)
    if coll is NO_COLL:
        init, coll = f(), init_or_coll
    else:
        init = init_or_coll
    return rf(_reduce(rf, init, coll, NAME))


@builtin("sequence", "transducers", calls_fns=True)
def sequence(xf_or_coll, coll=NO_COLL):
    """(sequence coll) the items as a vector; (sequence xf coll) the items xf makes of coll."""
    if coll is NO_COLL:
        return tuple(items(NAME, xf_or_coll))
    return transform(NAME, xf_or_coll, coll)


@builtin("completing", "transducers")
def completing(f, cf=None):
    """(completing f) or (completing f cf): f with a completion arity (identity, or cf) for
    transduce: (transduce xf (completing (fn [acc x] ...)) init coll).

    Not `calls_fns`: it calls nothing before it returns, and whatever calls the function it
    returns (a builtin that calls functions, or a function of the program) counts the depth."""
    f = as_fn(_reducing_fn(NAME, f))
    cf = as_fn(cf) if cf is not None else None

    def completed(*args):
        if len(args) == 1:
            return args[0] if cf is None else cf(args[0])
        return f(*args)
    return completed
