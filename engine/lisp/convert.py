"""Values crossing the boundary: Python data in (tool results, `data`), plain Python out
(tool arguments, JSON). Cycles, foreign objects and nesting past the limit are refused.
"""

from __future__ import annotations

import dataclasses
import math

from engine.lisp.values import (INT_MAX, INT_MIN, BoolKey, Keyword, Map, Regex, Symbol, Var, as_key,
                                from_key, is_fn, type_name)


class ConversionError(ValueError):
    """A value that is not data (or is too deep, or cyclic); the message says where."""


def from_python(value, max_depth: int = 100, where: str = "value"):
    """Python data as PTC-Lisp data: dicts to maps, lists and tuples to vectors, sets to sets."""
    return _from(value, max_depth, 0, set(), where)


def _from(value, max_depth, depth, path_ids: set, where):
    t = type(value)
    if value is None or t is bool or t is str or t is float or t is Keyword or t is BoolKey:
        return value
    if t is int:
        if not INT_MIN <= value <= INT_MAX:
            raise ConversionError(f"{where}: an integer of {value.bit_length()} bits does not "
                                  f"fit in 64 bits")
        return value
    if depth >= max_depth:
        raise ConversionError(f"{where}: nested deeper than {max_depth} levels")
    ident = id(value)
    if ident in path_ids:
        raise ConversionError(f"{where}: contains itself (a cycle)")
    path_ids.add(ident)
    try:
        if isinstance(value, (Map, dict)):
            return Map({_key(k, max_depth, depth, path_ids, where):
                        _from(v, max_depth, depth + 1, path_ids, where) for k, v in value.items()})
        if isinstance(value, (list, tuple)):
            return tuple(_from(v, max_depth, depth + 1, path_ids, where) for v in value)
        if isinstance(value, (set, frozenset)):
            return frozenset(_key(v, max_depth, depth, path_ids, where) for v in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            return _from(fields, max_depth, depth, path_ids - {ident}, where)
        dump = getattr(type(value), "model_dump", None)
        if callable(dump):
            return _from(value.model_dump(), max_depth, depth, path_ids - {ident}, where)
        if isinstance(value, (int, float, str)):      # subclasses such as IntEnum or StrEnum
            return _from(_plain(value), max_depth, depth, path_ids, where)
    finally:
        path_ids.discard(ident)
    raise ConversionError(f"{where}: {_kind_of(value)} cannot be used as data (data is nil, "
                          f"booleans, numbers, strings, lists and maps)")


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


def _key(k, max_depth, depth, path_ids, where):
    key = _from(k, max_depth, depth + 1, path_ids, where)
    try:
        hash(key)
    except TypeError:
        raise ConversionError(f"{where}: a map key or set item must not be a map") from None
    return as_key(key)


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
    if t is Map:
        return {_plain_key(k): to_python(v, depth + 1) for k, v in value.items()}
    if t is frozenset:
        return {_plain_key(v) for v in value}
    if t is Var:
        return f"#'{value.name}"
    if t is Regex:
        return value.source
    if is_fn(value):
        raise ConversionError("a function cannot be passed to a tool")
    raise ConversionError(f"cannot convert a {type_name(value)}")


def _plain_key(k):
    k = from_key(k)
    t = type(k)
    if t is Keyword or t is Symbol:
        return k.name
    if t is tuple:
        return tuple(_plain_key(x) for x in k)
    if t is frozenset:
        return frozenset(_plain_key(x) for x in k)
    if t is Map:
        from engine.lisp.printer import pr_str
        return pr_str(k)
    return k


def to_json(value):
    """Like `to_python`, but JSON-ready: sets become sorted lists, non-string keys strings,
    NaN and infinities the strings "##NaN", "##Inf", "##-Inf"."""
    t = type(value)
    if t is float and (math.isnan(value) or math.isinf(value)):
        return "##NaN" if math.isnan(value) else ("##Inf" if value > 0 else "##-Inf")
    if t is tuple:
        return [to_json(v) for v in value]
    if t is frozenset:
        from engine.lisp.compare import set_items
        return [to_json(v) for v in set_items(value)]
    if t is Map:
        from engine.lisp.printer import pr_str
        return {(k.name if type(k) is Keyword else k if type(k) is str else pr_str(k)): to_json(v)
                for k, v in value.items()}
    if is_fn(value):
        from engine.lisp.printer import pr_str
        return pr_str(value)
    return to_python(value)
