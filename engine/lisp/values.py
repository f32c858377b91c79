"""The PTC-Lisp value model: keywords, symbols, vars, regexes, and the collection types.

nil is None, booleans bool, integers int (64-bit range enforced by arithmetic), floats float,
strings str. Vectors are tuples, maps are immutables.Map (a persistent hash map, so `assoc`
in a loop is not quadratic), sets are frozensets. Functions are plain Python callables.
"""

from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass
from types import BuiltinFunctionType, FunctionType, MethodType
from functools import partial

import immutables

Map = immutables.Map
Vector = tuple
Set = frozenset
EMPTY_MAP = immutables.Map()
EMPTY_VECTOR: tuple = ()
EMPTY_SET: frozenset = frozenset()

INT_MAX = 2**63 - 1
INT_MIN = -(2**63)


class Keyword:
    """`:name`. Interned weakly: `Keyword("a") is Keyword("a")`, and unused ones are freed."""

    __slots__ = ("name", "__weakref__")
    _interned: "weakref.WeakValueDictionary[str, Keyword]" = weakref.WeakValueDictionary()
    _lock = threading.Lock()

    def __new__(cls, name: str) -> "Keyword":
        kw = cls._interned.get(name)
        if kw is None:
            with cls._lock:
                kw = cls._interned.get(name)
                if kw is None:
                    kw = object.__new__(cls)
                    object.__setattr__(kw, "name", name)
                    cls._interned[name] = kw
        return kw

    @classmethod
    def existing(cls, name: str) -> "Keyword | None":
        """The keyword named `name` if any live value holds it, else None (no interning)."""
        return cls._interned.get(name)

    def __setattr__(self, attr, value):
        raise AttributeError("keywords are immutable")

    def __reduce__(self):
        return (Keyword, (self.name,))

    def __repr__(self) -> str:
        return ":" + self.name

    def __lt__(self, other: "Keyword") -> bool:
        return self.name < other.name

    def __call__(self, coll, default=None):
        return _access.keyword_call(self, coll, default)


class Symbol:
    """A symbol as a value (`(symbol "x")`): prints bare, compares by name."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        object.__setattr__(self, "name", name)

    def __setattr__(self, attr, value):
        raise AttributeError("symbols are immutable")

    def __eq__(self, other):
        return type(other) is Symbol and other.name == self.name

    def __hash__(self):
        return hash(("symbol", self.name))

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Var:
    """What `(def x ...)` and `#'x` return; prints as `#'x`."""

    name: str

    def __repr__(self) -> str:
        return f"#'{self.name}"


@dataclass(frozen=True, slots=True, eq=False)
class Regex:
    """A compiled pattern from `#"..."` or `re-pattern`; `source` is the text as written."""

    source: str
    pattern: object

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)


@dataclass(frozen=True, slots=True)
class FnInfo:
    """What the printer and error messages know of a compiled function."""

    name: str | None
    params: tuple[str, ...]
    arities: tuple[str, ...]


FN_INFO: "weakref.WeakKeyDictionary[object, FnInfo]" = weakref.WeakKeyDictionary()


FUNCTION_TYPES = (FunctionType, BuiltinFunctionType, MethodType, partial)


class LispFn(partial):
    """A function of the language as the host holds it (in a run's value and memory):
    called as the function itself, shown as PTC-Lisp shows it (`#fn[x]`), never as
    `<function ... at 0x...>`, wherever the host prints, logs or saves it."""

    __slots__ = ()

    def __eq__(self, other) -> bool:      # the same function, wrapped or not
        return self.func is (other.func if type(other) is LispFn else other)

    def __hash__(self) -> int:
        return hash(self.func)

    def __repr__(self) -> str:
        from engine.lisp.printer import pr_str
        return pr_str(self)

    __str__ = __repr__


_HOLDERS = frozenset({tuple, Map, frozenset, *FUNCTION_TYPES})


def with_lisp_functions(value):
    """`value` with each function in it (at any depth) as a LispFn; parts without functions
    are kept as they are, and a shared part is looked at once."""
    try:
        return _with_lisp_functions(value, {})
    except RecursionError:
        return value


def _with_lisp_functions(value, done: dict):
    t = type(value)
    if t is LispFn or t not in _HOLDERS:
        return value
    if t is not tuple and t is not Map and t is not frozenset:
        return LispFn(value)
    key = id(value)
    if key in done:
        return done[key][1]
    parts = (*value.keys(), *value.values()) if t is Map else value
    new = value
    if not _HOLDERS.isdisjoint(map(type, parts)):
        if t is Map:
            new = Map({_with_lisp_functions(k, done): _with_lisp_functions(v, done)
                       for k, v in value.items()})
        else:
            new = t(_with_lisp_functions(v, done) for v in value)
    done[key] = (value, new)       # the value is kept so that its id stays its own
    return new


def is_fn(value) -> bool:
    """True for functions the language made (closures, builtins, combinators)."""
    return isinstance(value, FUNCTION_TYPES)


def truthy(value) -> bool:
    return value is not None and value is not False


def type_name(value) -> str:
    """The PTC-Lisp name of a value's type, for error messages (never a Python type name)."""
    t = type(value)
    if value is None:
        return "nil"
    name = _TYPE_NAMES.get(t)
    if name:
        return name
    if isinstance(value, tuple):
        return "vector"
    if isinstance(value, frozenset):
        return "set"
    if is_fn(value):
        return "function"
    return "value"


_TYPE_NAMES = {
    bool: "boolean", int: "integer", float: "float", str: "string", Keyword: "keyword",
    tuple: "vector", Map: "map", frozenset: "set", Symbol: "symbol", Var: "var", Regex: "regex",
}


def is_number(value) -> bool:
    t = type(value)
    return t is int or t is float


def is_nan(value) -> bool:
    return type(value) is float and math.isnan(value)


from engine.lisp import access as _access  # noqa: E402  (access builds on this module)
