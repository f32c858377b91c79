"""Predicates: nil?, some?, string?, map?, not, zero?, even?, empty?, contains?, every?, type..."""

from __future__ import annotations

import math

from engine.lisp.access import alternate_key, as_fn
from engine.lisp.builtins.registry import NAME, builtin
from engine.lisp.builtins.sequences import predicate
from engine.lisp.builtins.support import items, number, type_error
from engine.lisp.compare import equals
from engine.lisp.keys import as_key, check_key
from engine.lisp.errors import error
from engine.lisp.values import HostMap, Keyword, MAPS, Map, Regex, Symbol, is_fn, truthy, type_name


@builtin("nil?", "predicates", returns_bool=True)
def is_nil(x):
    """(nil? x) x is nil."""
    return x is None


@builtin("some?", "predicates", returns_bool=True)
def is_some(x):
    """(some? x) x is not nil."""
    return x is not None


@builtin("true?", "predicates", returns_bool=True)
def is_true(x):
    """(true? x) x is true."""
    return x is True


@builtin("false?", "predicates", returns_bool=True)
def is_false(x):
    """(false? x) x is false."""
    return x is False


@builtin("not", "predicates", returns_bool=True)
def not_(x):
    """(not x) true when x is nil or false."""
    return x is None or x is False


@builtin("boolean", "predicates", returns_bool=True)
def boolean(x):
    """(boolean x) false for nil and false, true otherwise."""
    return x is not None and x is not False


@builtin("boolean?", "predicates", returns_bool=True)
def is_boolean(x):
    """(boolean? x) x is true or false."""
    return type(x) is bool


@builtin("number?", "predicates", returns_bool=True)
def is_number(x):
    """(number? x) x is an integer or a float."""
    return type(x) is int or type(x) is float


@builtin("integer?", "predicates", returns_bool=True, aliases=("int?",))
def is_integer(x):
    """(integer? x) x is an integer."""
    return type(x) is int


@builtin("float?", "predicates", returns_bool=True, aliases=("double?",))
def is_float(x):
    """(float? x) x is a float."""
    return type(x) is float


@builtin("string?", "predicates", returns_bool=True)
def is_string(x):
    """(string? x) x is a string."""
    return type(x) is str


@builtin("char?", "predicates", returns_bool=True)
def is_char(x):
    """(char? x) x is a one-character string (characters are strings here)."""
    return type(x) is str and len(x) == 1


@builtin("keyword?", "predicates", returns_bool=True)
def is_keyword(x):
    """(keyword? x) x is a keyword."""
    return type(x) is Keyword


@builtin("symbol?", "predicates", returns_bool=True)
def is_symbol(x):
    """(symbol? x) x is a symbol."""
    return type(x) is Symbol


@builtin("vector?", "predicates", returns_bool=True, aliases=("sequential?", "seq?", "list?"))
def is_vector(x):
    """(vector? x) x is a vector (the one sequential type)."""
    return type(x) is tuple


@builtin("map?", "predicates", returns_bool=True)
def is_map(x):
    """(map? x) x is a map."""
    return type(x) in MAPS


@builtin("set?", "predicates", returns_bool=True)
def is_set(x):
    """(set? x) x is a set."""
    return type(x) is frozenset


@builtin("coll?", "predicates", returns_bool=True)
def is_coll(x):
    """(coll? x) x is a vector, map or set."""
    return type(x) in (tuple, Map, HostMap, frozenset)


@builtin("fn?", "predicates", returns_bool=True)
def is_function(x):
    """(fn? x) x is a function."""
    return is_fn(x)


@builtin("ifn?", "predicates", returns_bool=True)
def is_callable(x):
    """(ifn? x) x can be called: a function, keyword, map, set or vector."""
    t = type(x)
    return t is Keyword or t in MAPS or t is frozenset or t is tuple or is_fn(x)


@builtin("regex?", "predicates", returns_bool=True)
def is_regex(x):
    """(regex? x) x is a regex."""
    return type(x) is Regex


# --- numbers ------------------------------------------------------------------------------



@builtin("zero?", "predicates", returns_bool=True)
def is_zero(x):
    """(zero? x) x is 0."""
    return number(NAME, x) == 0


@builtin("pos?", "predicates", returns_bool=True)
def is_pos(x):
    """(pos? x) x > 0."""
    return number(NAME, x) > 0


@builtin("neg?", "predicates", returns_bool=True)
def is_neg(x):
    """(neg? x) x < 0."""
    return number(NAME, x) < 0


@builtin("even?", "predicates", returns_bool=True)
def is_even(x):
    """(even? n) for integers."""
    if type(x) is int:
        return x % 2 == 0
    raise _parity_error(NAME, x)


@builtin("odd?", "predicates", returns_bool=True)
def is_odd(x):
    """(odd? n) for integers."""
    if type(x) is int:
        return x % 2 == 1
    raise _parity_error(NAME, x)


def _parity_error(fname, x):
    return error("type_error" if type(x) is not float else "arithmetic_error",
                 f"{fname} expects an integer, got {type_name(x)}")


@builtin("nan?", "predicates", returns_bool=True)
def is_nan(x):
    """(nan? x) x is ##NaN."""
    return number(NAME, x) != x


@builtin("infinite?", "predicates", returns_bool=True)
def is_infinite(x):
    """(infinite? x) x is ##Inf or ##-Inf."""
    return type(number(NAME, x)) is float and math.isinf(x)


# --- collections --------------------------------------------------------------------------



@builtin("empty?", "predicates", returns_bool=True)
def is_empty(coll):
    """(empty? coll) no items; nil is empty."""
    if coll is None:
        return True
    t = type(coll)
    if t is tuple or t is str or t in MAPS or t is frozenset:
        return len(coll) == 0
    raise type_error(NAME, "a collection", coll)


_COLLECTIONS = (tuple, frozenset, Map, HostMap)


def _member(coll, x) -> bool:
    """Whether collection `coll` holds a value equal to x (true is not 1, as in `=`)."""
    if type(coll) is frozenset:      # items are stored with true apart from 1 (as_key)
        return as_key(x) in coll
    if x not in coll:
        return False
    t = type(x)
    if t is bool or t in _COLLECTIONS or ((t is int or t is float) and (x == 0 or x == 1)):
        return any(equals(x, y) for y in coll)
    return True


@builtin("contains?", "predicates", returns_bool=True)
def contains(coll, k):
    """(contains? coll x) map has key x, set has member x, vector has the VALUE x (not index)."""
    t = type(coll)
    if type(k) in _COLLECTIONS:
        check_key(k)
    if t in MAPS:
        if as_key(k) in coll:
            return True
        alt = alternate_key(k)
        return alt is not None and alt in coll
    if t is frozenset or t is tuple:
        return _member(coll, k)
    if coll is None:
        return False
    if t is str:
        if type(k) is int:
            return 0 <= k < len(coll)
        raise type_error(NAME, "an index for a string", k,
                         "(str/includes? s sub) tests for a substring")
    raise type_error(NAME, "a map, set or vector", coll)


@builtin("every?", "predicates", returns_bool=True, calls_fns=True)
def every(pred, coll):
    """(every? pred coll) pred is truthy for every item (true when empty)."""
    pred = predicate(pred, NAME)
    return all(truthy(pred(x)) for x in items(NAME, coll))


@builtin("not-any?", "predicates", returns_bool=True, calls_fns=True)
def not_any(pred, coll):
    """(not-any? pred coll) pred is falsy for every item (true when empty)."""
    pred = as_fn(pred, "predicate")
    for x in items(NAME, coll):
        r = pred(x)
        if r is not None and r is not False:
            return False
    return True


@builtin("not-every?", "predicates", returns_bool=True, calls_fns=True)
def not_every(pred, coll):
    """(not-every? pred coll) pred is falsy for some item (false when empty)."""
    pred = as_fn(pred, "predicate")
    for x in items(NAME, coll):
        r = pred(x)
        if r is None or r is False:
            return True
    return False


_KINDS = {bool: "boolean", int: "number", float: "number", str: "string", tuple: "vector",
          Map: "map", HostMap: "map", frozenset: "set", Keyword: "keyword", Regex: "regex"}


@builtin("type", "predicates")
def type_keyword(x):
    """(type x) x's kind as the reference implementation names it: :string, :number, :boolean,
    :keyword, :vector, :map, :set, :regex, :function, else :unknown; nil for nil."""
    if x is None:
        return None
    kind = _KINDS.get(type(x)) or ("function" if is_fn(x) else "unknown")
    return Keyword(kind)
