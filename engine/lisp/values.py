"""The PTC-Lisp value model: keywords, symbols, vars, regexes, and the collection types.

nil is None, booleans bool, integers int (64-bit range enforced by arithmetic), floats float,
strings str. Vectors are tuples, maps are immutables.Map (a persistent hash map, so `assoc`
in a loop is not quadratic) or, as converted from host data, HostMap (a frozen dict, quick to
make and to read; see there); sets are frozensets; a boolean set item or map key (or a boolean
inside a vector or map used as one) is stored as a BoolKey (see there). Functions are plain
Python callables; `tool/name` as a value is a ToolValue.
"""

from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass
from types import BuiltinFunctionType, FunctionType, MethodType
from functools import partial

import immutables

from engine.lisp.running import current

Map = immutables.Map
Vector = tuple
Set = frozenset
EMPTY_MAP = immutables.Map()
EMPTY_VECTOR: tuple = ()
EMPTY_SET: frozenset = frozenset()


class HostMap(dict):
    """A map converted from host data (`data`, tool results): a copy of the host's dict, never
    changed. It is read as fast as a dict (conversion is most of the cost of a run on host
    data, and a copy is several times quicker to make than an immutables.Map); changing it
    (`set`, `delete`, `mutate`, `update`, as on a Map) gives a Map. It equals and hashes as
    the Map of the same entries, so either kind may stand for the other anywhere; code
    that tells maps from other values checks `type(x) in MAPS`."""

    __slots__ = ("_map",)

    def as_map(self) -> Map:
        """The same entries as a Map (made once, then kept)."""
        try:
            return self._map
        except AttributeError:
            m = self._map = Map(self)
            return m

    def set(self, key, value) -> Map:
        return self.as_map().set(key, value)

    def delete(self, key) -> Map:
        return self.as_map().delete(key)

    def mutate(self):
        return self.as_map().mutate()

    def update(self, *args, **kwargs) -> Map:     # a new map, as Map.update: never in place
        return self.as_map().update(*args, **kwargs)

    def __eq__(self, other):
        if type(other) is HostMap:
            return dict.__eq__(self, other)
        if type(other) is Map:
            return len(self) == len(other) and self.as_map() == other
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return hash(self.as_map())

    def __reduce__(self):
        return (HostMap, (dict(self),))

    def _frozen(self, *args, **kwargs):
        raise TypeError("a map is immutable")

    __setitem__ = __delitem__ = __ior__ = pop = popitem = clear = setdefault = _frozen


MAPS = frozenset({Map, HostMap})

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

    # (:k m) calls access.keyword_call, which access.py sets as Keyword.__call__


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


class BoolKey:
    """true or false stored as a set item or a map key. Python's `True == 1` and
    `hash(True) == hash(1)` would make `#{1 true}` one item and `{1 :a true :b}` one entry;
    stored as TRUE_KEY or FALSE_KEY, a boolean is a key of its own. Every reader of keys and
    items (compare.map_items, collection_items, the printer, the conversions) gives the
    boolean back, so programs never see these."""

    __slots__ = ("value",)

    def __init__(self, value: bool):
        object.__setattr__(self, "value", value)

    def __setattr__(self, attr, value):
        raise AttributeError("keys are immutable")

    def __reduce__(self):
        return (bool_key, (self.value,))

    def __repr__(self) -> str:
        return "true" if self.value else "false"


TRUE_KEY = BoolKey(True)
FALSE_KEY = BoolKey(False)


def bool_key(value: bool) -> BoolKey:
    """The one stored form of `value` (copies and unpickled keys are these same objects)."""
    return TRUE_KEY if value else FALSE_KEY


@dataclass(frozen=True, slots=True)
class ToolValue:
    """`tool/name` used as a value (`(map tool/get-order ids)`); prints as `#tool[name]`.

    It holds only the name: calling it calls the tool of that name in the run in progress,
    through the same path as `(tool/name ...)` (recording, limits, argument conversion). So
    a tool kept in memory with `def` works in a later turn while that tool exists there."""

    name: str

    def __call__(self, *args):
        return current().call_tool(self.name, args)

    def __repr__(self) -> str:
        return f"#tool[{self.name}]"


@dataclass(frozen=True, slots=True)
class FnInfo:
    """What the printer and error messages know of a compiled function."""

    name: str | None
    params: tuple[str, ...]
    arities: tuple[str, ...]


FN_INFO: "weakref.WeakKeyDictionary[object, FnInfo]" = weakref.WeakKeyDictionary()


FUNCTION_TYPES = (FunctionType, BuiltinFunctionType, MethodType, partial, ToolValue)


class LispFn(partial):
    """A function of the language as the host holds it (in a run's value and memory):
    called as the function itself, shown as PTC-Lisp shows it (`#fn[x]`), never as
    `<function ... at 0x...>`, wherever the host prints, logs or saves it."""

    __slots__ = ()

    def __eq__(self, other) -> bool:      # the same function, wrapped or not
        return self.func is (other.func if type(other) is LispFn else other)

    def __hash__(self) -> int:
        return hash(self.func)

    # shown by printer.pr_str, which printer.py sets as LispFn.__repr__ and __str__


# A ToolValue is kept as it is: it holds only a name, and prints and compares as itself.
_HOLDERS = frozenset({tuple, Map, HostMap, frozenset, *FUNCTION_TYPES}) - {ToolValue}


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
    if t is not tuple and t not in MAPS and t is not frozenset:
        return LispFn(value)
    key = id(value)
    if key in done:
        return done[key][1]
    parts = (*value.keys(), *value.values()) if t in MAPS else value
    new = value
    if not _HOLDERS.isdisjoint(map(type, parts)):
        if t in MAPS:
            new = Map({_with_lisp_functions(k, done): _with_lisp_functions(v, done)
                       for k, v in value.items()})
        else:
            new = t(_with_lisp_functions(v, done) for v in value)
    done[key] = (value, new)       # the value is kept so that its id stays its own
    return new


def is_fn(value) -> bool:
    """True for functions the language made (closures, builtins, combinators, tools)."""
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
    tuple: "vector", Map: "map", HostMap: "map", frozenset: "set", Symbol: "symbol", Var: "var", Regex: "regex",
    ToolValue: "function", BoolKey: "boolean",
}


def is_number(value) -> bool:
    t = type(value)
    return t is int or t is float


def is_nan(value) -> bool:
    return type(value) is float and math.isnan(value)
