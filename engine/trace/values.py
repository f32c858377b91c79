"""PTC-Lisp values as JSON and back, losslessly for data (a small tagged encoding).

Strings, numbers, booleans and nil are themselves; vectors are arrays; maps whose keys are all
strings or keywords are objects. Tags start with `~`, so a string that starts with `~` is
written with one more: keywords `"~:name"`, strings `"~~text"`, `{"~set": [...]}`,
`{"~map": [[k, v], ...]}` for other keys, `{"~fn": "#fn[x y]"}`, `{"~tool": "name"}`,
`{"~float": "NaN"}`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from immutables import Map

from engine.lisp import Keyword, PtcError
from engine.lisp.compare import key_order, map_items, set_items
from engine.lisp.keys import as_key, expanded_size
from engine.lisp.printer import pr_str
from engine.lisp.values import FN_INFO, FnInfo, MAPS, Regex, Symbol, ToolValue, Var, is_fn

MAX_DEPTH = 200            # deeper than any value the engine lets a program build (100)
MAX_ITEMS = 5_000_000      # a value that shares structure can expand past anything writable


class MalformedValue(ValueError):
    """A value in a trace that cannot be decoded; the message says where and why."""


def encode(value, depth: int = 0):
    """`value` as JSON-ready Python data."""
    t = type(value)
    if value is None or t is bool or t is int:
        return value
    if t is str:
        return "~" + value if value.startswith("~") else value
    if t is float:
        return value if math.isfinite(value) else {"~float": pr_str(value).lstrip("#")}
    if t is Keyword:
        return "~:" + value.name
    if t is ToolValue:
        return {"~tool": value.name}
    if is_fn(value):
        return {"~fn": pr_str(value)}
    if depth == 0 and isinstance(value, (tuple, Mapping, frozenset)) \
            and expanded_size(value, MAX_ITEMS + 1) > MAX_ITEMS:
        return {"~too-large": f"a value of more than {MAX_ITEMS} items"}
    if depth >= MAX_DEPTH:             # the marker itself at MAX_DEPTH, where decode reads it
        return {"~too-deep": "..."}
    if t is tuple or isinstance(value, list):
        return [encode(v, depth + 1) for v in value]
    if isinstance(value, Mapping):
        # canonical key order, so the same value always writes the same text
        items = map_items(value) if type(value) in MAPS else list(value.items())
        if all(type(k) is str or type(k) is Keyword for k, _ in items):
            return {encode(k): encode(v, depth + 1) for k, v in items}
        return {"~map": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in items]}
    if type(value) is frozenset:
        return {"~set": [encode(v, depth + 1) for v in set_items(value)]}
    if isinstance(value, set):
        return {"~set": [encode(v, depth + 1) for v in sorted(value, key=key_order)]}
    if t is Var:
        return {"~var": value.name}
    if t is Regex:
        return {"~regex": value.source}
    if t is Symbol:
        return {"~symbol": value.name}
    return {"~text": pr_str(value)}


_ITSELF = frozenset((int, float, bool, type(None)))     # decoded as they are, as is a string
                                                      # that does not start with a tag's ~


def decode(data, where: str = "value", depth: int = 0):
    """The PTC value that `encode` wrote; MalformedValue naming `where` for anything else."""
    t = type(data)
    if t is str:
        if not data.startswith("~"):
            return data
        if data.startswith("~:"):
            return Keyword(data[2:])
        if data.startswith("~~"):
            return data[1:]
        raise MalformedValue(f"{where}: unknown tag {data[:12]!r}")
    if t in _ITSELF:
        return data
    if depth > MAX_DEPTH:
        raise MalformedValue(f"{where}: nested deeper than {MAX_DEPTH} levels")
    depth += 1
    # the items that are themselves are taken here, not in a call each (a trace's values are
    # mostly numbers and plain strings: a third of reading a large trace was these calls)
    if t is list:
        return tuple([v if type(v) in _ITSELF or (type(v) is str and v[:1] != "~")
                       else decode(v, where, depth) for v in data])
    if t is dict:
        if len(data) == 1:
            (tag, body), = data.items()
            if tag.startswith("~") and not tag.startswith(("~:", "~~")):
                return _tagged(tag, body, where, depth - 1)
        return Map({(k if type(k) is str and k[:1] != "~" else decode(k, where, depth)):
                    (v if type(v) in _ITSELF or (type(v) is str and v[:1] != "~")
                     else decode(v, where, depth))
                    for k, v in data.items()})
    raise MalformedValue(f"{where}: unexpected {t.__name__}")


def _tagged(tag: str, body, where: str, depth: int):
    if tag == "~set" and type(body) is list:
        return frozenset(as_key(decode(v, where, depth + 1)) for v in body)
    if tag == "~map" and type(body) is list and all(type(p) is list and len(p) == 2 for p in body):
        return Map({as_key(decode(k, where, depth + 1)): decode(v, where, depth + 1)
                    for k, v in body})
    if tag == "~float" and body in ("NaN", "Inf", "-Inf"):
        return {"NaN": math.nan, "Inf": math.inf, "-Inf": -math.inf}[body]
    if tag == "~fn" and type(body) is str:
        return function_stub(body)
    if tag == "~tool" and type(body) is str:
        return ToolValue(body)
    if tag == "~var" and type(body) is str:
        return Var(body)
    if tag == "~symbol" and type(body) is str:
        return Symbol(body)
    if tag in ("~regex", "~text", "~too-large", "~too-deep") and type(body) is str:
        return f"{tag[1:]} {body}" if tag != "~regex" else body
    raise MalformedValue(f"{where}: malformed {tag!r} value")


def function_stub(text: str):
    """A function from a saved trace: it prints as it did (`#fn[x y]`) and is labelled
    `#fn[...]`, but cannot be called (its code was not saved)."""
    def saved_function(*_args):
        raise PtcError("not_callable", f"{text} comes from a saved trace and cannot be called")
    inner = text[4:-1] if text.startswith("#fn[") and text.endswith("]") else ""
    FN_INFO[saved_function] = FnInfo(None, tuple(inner.split()), ())
    return saved_function
