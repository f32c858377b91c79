"""Values crossing the boundary: Python data in (tool results, `data`), plain Python out
(tool arguments, JSON). Cycles, foreign objects and nesting past the limit are refused.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from itertools import chain, compress, repeat
from operator import is_, itemgetter

from engine.lisp.compare import set_items
from engine.lisp.keys import as_key, check_key, from_key
from engine.lisp.errors import PtcError
from engine.lisp.printer import pr_str
from engine.lisp.values import (BoolKey, HostMap, INT_MAX, INT_MIN, Keyword, MAPS, Map, Regex,
                                Symbol, Var, is_fn, type_name)


class ConversionError(ValueError):
    """A value that is not data (or is too deep, or cyclic); the message says where."""


_KEPT = frozenset({str, float, bool, type(None), Keyword, BoolKey})   # data as they are
_COLLECTIONS = frozenset({tuple, Map, HostMap, frozenset})
_PATH_STEPS = 8        # a path in a message names at most this many steps, then "..."
_NAME = re.compile(r"[A-Za-z_][\w?!*-]*")


def from_python(value, max_depth: int = 100, where: str = "value", depth: int = 0):
    """Python data as PTC-Lisp data: dicts to maps, lists and tuples to vectors, sets to sets;
    `depth` is how deep `value` sits already (an entry of `data` sits one level down).

    Each distinct list or dict is converted once, so data that shares parts stays as small
    as it was (a list holding one sublist twice, sixty levels down, is sixty vectors, not
    2**60 items). A ConversionError names the place: `data/products[3].tags: ...`."""
    try:
        return _Converter(max_depth).convert(value, depth)
    except _Bad as e:
        steps = e.steps[::-1]
        path = "".join(steps[:_PATH_STEPS]) + ("..." if len(steps) > _PATH_STEPS else "")
        raise ConversionError(f"{where}{path}: {e.problem}") from None
    except RecursionError:
        raise ConversionError(f"{where}: nested too deeply to convert") from None


class _Bad(Exception):
    """A conversion problem; each container it passes through adds its step to the path."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem
        self.steps: list[str] = []


class _Converter:
    """One conversion: `done` maps the id of each container converted so far to (the
    container, kept alive so its id stays its own; the result; its height in levels)."""

    def __init__(self, max_depth: int):
        self.max_depth = max_depth
        self.done: dict[int, tuple] = {}
        self.open: set[int] = set()      # containers being converted: met again, a cycle

    def convert(self, value, depth: int):
        t = type(value)
        if t in _KEPT:
            return value
        if t is int:
            if not INT_MIN <= value <= INT_MAX:
                raise _Bad(f"an integer past the 64-bit range ({_digits(value)}) cannot be "
                           f"used as data; pass it as a float or a string")
            return value
        ident = id(value)
        seen = self.done.get(ident)
        if seen is not None:
            if depth + seen[2] > self.max_depth:
                raise _Bad(f"nested deeper than {self.max_depth} levels")
            return seen[1]
        if depth >= self.max_depth:
            raise _Bad(f"nested deeper than {self.max_depth} levels")
        if ident in self.open:
            raise _Bad("contains itself (a cycle)")
        self.open.add(ident)
        if t is dict or t in MAPS:
            result, height = self.mapping(value, depth)
        elif t is list or t is tuple:
            result, height = self.sequence(value, depth)
        else:
            result, height = self.other(value, depth)
        self.open.discard(ident)
        self.done[ident] = (value, result, height)
        return result

    def height(self, original, converted) -> int:
        return self.done[id(original)][2] if type(converted) in _COLLECTIONS else 0

    def mapping(self, value, depth: int):
        if type(value) is dict and _names_to_scalars(value):      # the common case, in C
            return HostMap(value), 1
        out = {}
        height = 1
        for k, v in value.items():
            if type(k) not in _KEPT:
                try:
                    key = self.key(k, depth)
                except _Bad as e:
                    e.steps.append(" (a key)")
                    raise
                height = max(height, self.height(k, key) + 1)
            else:
                key = as_key(k)          # true and 1 stay two keys
            if type(v) in _KEPT:
                out[key] = v
                continue
            try:
                converted = out[key] = self.convert(v, depth + 1)
            except _Bad as e:
                e.steps.append(_key_step(k))
                raise
            if type(converted) in _COLLECTIONS:
                height = max(height, self.done[id(v)][2] + 1)
        return HostMap(out), height

    def sequence(self, value, depth: int):
        types = set(map(type, value))
        if types == {dict}:                           # the common cases, in C
            if _records(value) and depth + 2 <= self.max_depth:
                return tuple(map(HostMap, value)), 2
        elif _scalars(value, types):
            return tuple(value), 1
        out = []
        height = 1
        for i, v in enumerate(value):
            try:
                converted = self.convert(v, depth + 1)
            except _Bad as e:
                e.steps.append(f"[{i}]")
                raise
            out.append(converted)
            if type(converted) in _COLLECTIONS:
                height = max(height, self.done[id(v)][2] + 1)
        return tuple(out), height

    def key(self, k, depth: int):
        key = self.convert(k, depth + 1)
        if type(key) in _COLLECTIONS:
            try:
                check_key(key)
                hash(key)
            except TypeError:
                raise _Bad("a map key or set item must not be a map") from None
            except PtcError as e:
                raise _Bad(e.message) from None
        return as_key(key)

    def other(self, value, depth: int):
        """Sets, dict and list subclasses, dataclasses, pydantic models, enums of numbers
        or strings; anything else is not data."""
        if isinstance(value, (set, frozenset)):
            items = [self.key(v, depth) for v in value]
            heights = [self.height(v, k) for v, k in zip(value, items)]
            return frozenset(items), 1 + max(heights, default=0)
        if isinstance(value, (dict, Map)):
            return self.mapping(value, depth)
        if isinstance(value, (list, tuple)):
            return self.sequence(value, depth)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            return self.mapping(fields, depth)
        dump = getattr(type(value), "model_dump", None)
        if callable(dump):
            plain = value.model_dump()
            dumped = self.convert(plain, depth)
            return dumped, self.height(plain, dumped)
        if isinstance(value, (int, float, str)):      # subclasses such as IntEnum or StrEnum
            return self.convert(_plain(value), depth), 0
        raise _Bad(f"{_kind_of(value)} cannot be used as data (data is nil, booleans, "
                   f"numbers, strings, lists and maps)")


_SCALARS = _KEPT | {int}
_NAMES = frozenset({str, Keyword})


def _scalars(values, types: set | None = None) -> bool:
    """Whether `values` (a list or tuple, whose `types` may be given) are all nil, booleans,
    strings, keywords, floats and integers of 64 bits; checked without a Python loop, as
    JSON data is mostly this."""
    if types is None:
        types = set(map(type, values))
    if int not in types:
        return _SCALARS.issuperset(types)
    if len(types) > 1:
        if not _SCALARS.issuperset(types):
            return False
        values = list(compress(values, map(is_, map(type, values), repeat(int))))
    return INT_MIN <= min(values) and max(values) <= INT_MAX


def _names_to_scalars(d: dict) -> bool:
    """A dict of string or keyword keys to scalars: a map as it is (a HostMap copy)."""
    return _NAMES.issuperset(map(type, d)) and _scalars(list(d.values()))


def _records(values) -> bool:
    """A list of dicts (and nothing else) of string keys to scalars: the shape of most tool
    results and data."""
    first = values[0]
    if set(map(len, values)) == {len(first)} and _NAMES.issuperset(map(type, first)):
        try:       # every record has the keys of the first (and no other): check by column
            return all(_scalars(list(map(itemgetter(k), values))) for k in first)
        except KeyError:
            pass
    if not _NAMES.issuperset(map(type, set(chain.from_iterable(values)))):
        return False
    return _scalars(list(chain.from_iterable(map(dict.values, values))))


def _digits(n: int) -> str:
    """A big integer, or how many digits it has when that is too long to show."""
    return str(n) if n.bit_length() <= 128 else f"about {int(n.bit_length() * 0.30103) + 1} digits"


def _key_step(k) -> str:
    """How a path names the entry under key `k`: `.name`, `["a b"]`, `[3]`, `[:k]`."""
    t = type(k)
    if t is str:
        return f".{k}" if _NAME.fullmatch(k) else f"[{json.dumps(k)}]" if len(k) <= 40 else "[...]"
    if t is Keyword:
        return f"[:{k.name}]"
    if t is int or t is float or t is bool or k is None:
        return f"[{'nil' if k is None else str(k).lower() if t is bool else k}]"
    return "[...]"


def _kind_of(value) -> str:
    """What a foreign value is, in words a program's author knows (no Python type names)."""
    if callable(value):
        return "a function"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "binary data"
    if isinstance(value, complex):
        return "a complex number"
    return "an object"


def _plain(value):
    for base in (int, float, str):
        if isinstance(value, base):
            return base(value)
    raise AssertionError(value)


def to_python(value, depth: int = 0):
    """PTC-Lisp data as plain Python: keywords to strings, vectors to lists, maps to dicts
    with string keys (when the key is a keyword or string), sets to sets."""
    t = type(value)
    if value is None or t is bool or t is int or t is str:
        return value
    if t is float:
        return value
    if t is Keyword or t is Symbol:
        return value.name
    if depth > 200:
        raise ConversionError("value nested too deeply to convert")
    if t is tuple:
        return [to_python(v, depth + 1) for v in value]
    if t in MAPS:
        keys = _plain_keys(value)
        return {k: to_python(v, depth + 1) for k, v in zip(keys, value.values())}
    if t is frozenset:
        return set(_plain_keys(value))
    if t is Var:
        return f"#'{value.name}"
    if t is Regex:
        return value.source
    if is_fn(value):
        raise ConversionError("a function cannot be passed to a tool")
    raise ConversionError(f"cannot convert a {type_name(value)}")


def _plain_keys(coll) -> list:
    """The plain keys of a map (or items of a set), in its order. Keys that Python would
    take for one (true and 1, false and 0, :a and "a") are given as their printed forms
    ("true", "1", ":a", "\"a\""), so that no entry is lost; if a printed form is then taken
    for another key, every key is given as its printed form."""
    return _kept_apart(coll, [_plain_key(k) for k in coll])


def _kept_apart(keys, plain: list) -> list:
    """`plain`, the plain forms of `keys`, with those that two keys share given as printed
    forms (every one, if that still leaves two the same)."""
    if len(set(plain)) == len(plain):
        return plain
    seen: dict = {}
    for p in plain:
        seen[p] = seen.get(p, 0) + 1
    apart = [pr_str(from_key(k)) if seen[p] > 1 else p for k, p in zip(keys, plain)]
    if len(set(apart)) == len(apart):
        return apart
    return [pr_str(from_key(k)) for k in keys]


def _plain_key(k):
    k = from_key(k)
    t = type(k)
    if t is Keyword or t is Symbol:
        return k.name
    if t is tuple:
        return tuple(_plain_key(x) for x in k)
    if t is frozenset:
        return frozenset(_plain_key(x) for x in k)
    if t in MAPS:
        return pr_str(k)
    return k


def to_json(value):
    """Like `to_python`, but JSON-ready: sets become sorted lists, non-string keys strings
    (keys that would then be one, :a and "a", 1 and "1", are given as printed forms, as
    `to_python` gives them), NaN and infinities the strings "##NaN", "##Inf", "##-Inf"."""
    t = type(value)
    if t is float and (math.isnan(value) or math.isinf(value)):
        return "##NaN" if math.isnan(value) else ("##Inf" if value > 0 else "##-Inf")
    if t is tuple:
        return [to_json(v) for v in value]
    if t is frozenset:
        return [to_json(v) for v in set_items(value)]
    if t in MAPS:
        keys = _kept_apart(value.keys(), [k.name if type(k) is Keyword else
                                          k if type(k) is str else pr_str(k) for k in value])
        return {k: to_json(v) for k, v in zip(keys, value.values())}
    if is_fn(value):
        return pr_str(value)
    return to_python(value)
