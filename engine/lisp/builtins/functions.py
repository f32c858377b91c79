"""Higher-order functions: partial, comp, complement, juxt, fnil, every-pred, pmap, identity, apply...

Every function these builtins return is a plain Python function, so compiled code calls it
directly. Callable data (keywords, maps, sets, vectors) is accepted wherever a function is,
through `as_fn`. `pmap` and `pcalls` run sequentially, in order, so
their prints and tool calls are recorded in input order.

Only the builtins that call a function before they return (apply, trampoline, pmap, pcalls)
are marked `calls_fns`; the others return a function and call nothing, and whatever calls
the function they return (a builtin that calls functions, or a function of the program)
counts the depth.
"""

from __future__ import annotations

import time

from engine.lisp.access import as_fn
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.support import items, show, type_error
from engine.lisp.errors import error
from engine.lisp.running import RUNNING, timeout as _timeout
from engine.lisp.values import HostMap, is_fn, Map, MAPS, type_name


_clock = time.perf_counter


def _tick() -> None:
    """A timeout once the run's deadline has passed. Compiled functions check the deadline on
    entry; the functions returned here check it too, so that builtins calling only builtins
    through them ((reduce (partial reduce +) 0 rows)) cannot run past the time limit."""
    ctx = RUNNING.s
    if ctx is not None and _clock() > ctx.deadline:
        _timeout()


def _fns(fname: str, fs, role: str = "function") -> list:
    out = []
    for f in fs:
        if f is None:
            raise error("type_error", f"{fname} expects {role}s, got nil",
                        f"pass a function such as inc, :key or #(...) to {fname}")
        out.append(as_fn(f, role))
    return out


@builtin("partial", "functions")
def hof_partial(f, *fixed):
    """(partial f x ...) f with its first arguments fixed: ((partial + 10) 1 2) is 13."""
    g = _fns(NAME, (f,))[0]
    if not fixed:
        return f

    def partial_fn(*more):
        _tick()
        return g(*fixed, *more)
    return partial_fn


@builtin("comp", "functions")
def hof_comp(*fs):
    """(comp f g ...) composes right to left: ((comp f g) x) is (f (g x)); (comp) is identity."""
    fs = _fns(NAME, fs)
    if not fs:
        def comp_identity(*args):
            if len(args) != 1:
                raise error("arity_error", f"(comp) is identity and takes 1 argument, got "
                                           f"{len(args)}")
            return args[0]
        return comp_identity
    if len(fs) == 1:
        return fs[0]
    last, rest = fs[-1], tuple(reversed(fs[:-1]))

    def composed(*args):
        _tick()
        value = last(*args)
        for g in rest:
            value = g(value)
        return value
    return composed


@builtin("complement", "functions")
def hof_complement(f):
    """(complement f) a function returning true where f returns nil or false, else false."""
    f = _fns(NAME, (f,))[0]

    def complemented(*args):
        _tick()
        r = f(*args)
        return r is None or r is False
    return complemented


@builtin("constantly", "functions")
def hof_constantly(x):
    """(constantly x) a function that takes any arguments and always returns x."""
    def constant_fn(*args):
        return x
    return constant_fn


@builtin("juxt", "functions")
def hof_juxt(*fs):
    """(juxt f g ...) a function returning the vector [(f x) (g x) ...]: ((juxt :a :b) m)."""
    fs = tuple(_fns(NAME, fs))

    def juxtaposed(*args):
        _tick()
        return tuple([f(*args) for f in fs])
    return juxtaposed


def _pred_major(ps, args):
    """The calls (p x) in Clojure's order: every predicate over the first three arguments,
    then, for each further argument, every predicate."""
    head, tail = args[:3], args[3:]
    for p in ps:
        for x in head:
            yield p(x)
    for x in tail:
        for p in ps:
            yield p(x)


@builtin("every-pred", "functions")
def hof_every_pred(p, *ps):
    """(every-pred p ...) a predicate: true when every p is truthy for every argument."""
    preds = tuple(_fns(NAME, (p, *ps), "predicate"))

    def every_pred_fn(*args):
        _tick()
        for r in _pred_major(preds, args):
            if r is None or r is False:
                return False
        return True
    return every_pred_fn


@builtin("some-fn", "functions")
def hof_some_fn(p, *ps):
    """(some-fn p ...) a function returning the first truthy (p x) over all p and arguments."""
    preds = tuple(_fns(NAME, (p, *ps), "predicate"))

    def some_fn_fn(*args):
        _tick()
        last = None
        for i, r in enumerate(_pred_major(preds, args)):
            if r is not None and r is not False:
                return r
            last = r
        # Clojure: `or` over the first three arguments, then `some` (nil) over the rest
        return None if len(args) > 3 else last
    return some_fn_fn


@builtin("all-of", "functions")
def hof_all_of(*preds):
    """(all-of p ...) a predicate true when every p is truthy. With no predicates always true.
    (filter (all-of (where :active) (where :age > 18)) users)"""
    preds = tuple(_fns(NAME, preds, "predicate"))

    def all_of_fn(*args):
        _tick()
        for p in preds:
            r = p(*args)
            if r is None or r is False:
                return False
        return True
    return all_of_fn


@builtin("any-of", "functions")
def hof_any_of(*preds):
    """(any-of p ...) a predicate true when some p is truthy. With no predicates always false."""
    preds = tuple(_fns(NAME, preds, "predicate"))

    def any_of_fn(*args):
        _tick()
        for p in preds:
            r = p(*args)
            if r is not None and r is not False:
                return True
        return False
    return any_of_fn


@builtin("none-of", "functions")
def hof_none_of(*preds):
    """(none-of p ...) a predicate true when no p is truthy. With no predicates always true."""
    some_pred = hof_any_of(*_fns(NAME, preds, "predicate"))

    def none_of_fn(*args):
        return not some_pred(*args)
    return none_of_fn


_NONE = object()


@builtin("fnil", "functions")
def hof_fnil(f, x, y=_NONE, z=_NONE):
    """(fnil f x) f with a nil first argument replaced by x: (update m :n (fnil inc 0)).
    (fnil f x y) and (fnil f x y z) also replace a nil second and third argument."""
    f = _fns(NAME, (f,))[0]
    defaults = tuple(d for d in (x, y, z) if d is not _NONE)
    n = len(defaults)

    def fnil_fn(*args):
        _tick()
        head = [defaults[i] if a is None else a for i, a in enumerate(args[:n])]
        return f(*head, *args[n:])
    return fnil_fn


_MEMO_NODES = 10_000      # arguments bigger than this are not cached (the key would be costly)
_MEMO_ENTRIES = 100_000   # a memoized function caches at most this many results


class _TooBig(Exception):
    pass


def _memo_key(args: tuple):
    """A hashable key telling apart what `=` would not (1, 1.0 and true), or None when the
    arguments are too big to key cheaply."""
    budget = [_MEMO_NODES]

    def key(v):
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        t = type(v)
        if t is tuple:
            return ("v", tuple([key(x) for x in v]))
        if t in MAPS:
            return ("m", frozenset([(key(k), key(x)) for k, x in v.items()]))
        if t is frozenset:
            return ("s", frozenset([key(x) for x in v]))
        return (t, v)
    try:
        k = tuple([key(a) for a in args])
        hash(k)
        return k
    except (_TooBig, TypeError):
        return None


@builtin("memoize", "functions")
def hof_memoize(f):
    """(memoize f) f caching its result for each distinct list of arguments."""
    f = _fns(NAME, (f,))[0]
    cache: dict = {}

    def memoized(*args):
        _tick()
        k = _memo_key(args)
        if k is None:
            return f(*args)
        hit = cache.get(k, cache)
        if hit is not cache:
            return hit
        value = f(*args)
        if len(cache) < _MEMO_ENTRIES:
            cache[k] = value
        return value
    return memoized


@builtin("trampoline", "functions", calls_fns=True)
def hof_trampoline(f, *args):
    """(trampoline f x ...) calls (f x ...), then calls each function result with no arguments.
    Returns the first result that is not a function (mutual recursion without deep stacks)."""
    value = _fns(NAME, (f,))[0](*args)
    while is_fn(value):
        _tick()
        value = value()
    return value


@builtin("pmap", "functions", calls_fns=True)
def hof_pmap(f, coll, *colls):
    """(pmap f coll) like map (runs in order here): (pmap #(tool/fetch %) ids)."""
    f = _fns(NAME, (f,))[0]
    if not colls:
        seqs = ((x,) for x in items(NAME, coll))
    else:
        seqs = zip(*[items(NAME, c) for c in (coll, *colls)])
    out = []
    for xs in seqs:
        _tick()
        out.append(f(*xs))
    return tuple(out)


@builtin("pcalls", "functions", calls_fns=True)
def hof_pcalls(*thunks):
    """(pcalls f g ...) calls each function of no arguments, in order: [(f) (g) ...]."""
    for t in thunks:
        if not is_fn(t):
            raise error("type_error", f"{NAME} expects functions of no arguments, got "
                                      f"{type_name(t)} {show(t)}",
                        "wrap each call: (pcalls #(tool/a) #(tool/b))")
    out = []
    for t in thunks:
        _tick()
        out.append(t())
    return tuple(out)


@builtin("identity", "functions")
def identity(x):
    """(identity x) returns x."""
    return x


@builtin("apply", "functions", calls_fns=True)
def apply(f, *args):
    """(apply f x ... coll) calls f with the x's and then the items of coll."""
    if not args:
        raise error("arity_error", f"{NAME} expects a function and a collection",
                    "(apply max [1 2 3])")
    last_arg = args[-1]
    if type(last_arg) not in (tuple, frozenset, Map, HostMap, str) and last_arg is not None:
        raise type_error(NAME, "a collection as its last argument", last_arg)
    return as_fn(f)(*args[:-1], *items(NAME, last_arg))
