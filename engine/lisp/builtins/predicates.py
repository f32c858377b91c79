"""Type predicates and logic: nil?, some?, string?, map?, not, identity..."""

from __future__ import annotations

from engine.lisp.builtins.registry import builtin
from engine.lisp.values import HostMap, Keyword, MAPS, Map, Regex, Symbol, is_fn


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


@builtin("identity", "functions")
def identity(x):
    """(identity x) returns x."""
    return x


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
