"""What compiled code runs with: the helpers it calls and `GLOBALS`, the one table of every
global name the compiler (compiler.py, fused.py, inline.py) may emit, with its value.

The generated code of every run starts from `base_globals()`: this table, then each builtin
under its Python name. The compiler checks each helper it emits against the table
(`helper`), so a name missing here fails when a program is compiled, not when it runs.
"""

from __future__ import annotations

import ast
import time
import types

from engine.lisp.access import MISSING, as_fn, flex_lookup, keyword_call
from engine.lisp.builtins import BUILTINS
from engine.lisp.builtins.support import chunks, items
from engine.lisp.builtins.transducers import Reduced
from engine.lisp.compare import collection_items
from engine.lisp.keys import as_keys, check_keys
from engine.lisp.errors import Signal, error
from engine.lisp.printer import pr_str
from engine.lisp.running import RUNNING, current, timeout
from engine.lisp.values import EMPTY_MAP, MAPS, Keyword, Map, type_name
from engine.lisp.where import where


def _too_deep():
    depth = current().limits.recursion_depth
    raise error("recursion_limit_exceeded", f"more than {depth} nested function calls",
                "use loop/recur or reduce instead of deep recursion")


def _loop_limit():
    n = current().limits.loop_iterations
    raise error("loop_limit_exceeded", f"loop ran more than {n} iterations",
                "use reduce, map or filter over the collection instead of loop/recur")


def _too_big():
    n = current().limits.collection_size
    raise error("memory_exceeded", f"collection larger than {n} items")


def _arity_mismatch(label: str, expected: str, got: int):
    raise error("arity_mismatch", f"{label} expects {expected} arguments, got {got}")


def _make_map(flat: tuple):
    if not flat:
        return EMPTY_MAP
    keys = flat[0::2]
    check_keys(keys)
    try:
        return Map(zip(as_keys(keys), flat[1::2]))
    except TypeError:
        raise error("type_error", "a map key must not be a function or contain a map value "
                                  "that cannot be compared") from None


def _make_plain_map(flat: tuple):
    """A map literal whose keys are keywords, strings or integers written in the source."""
    return Map(zip(flat[0::2], flat[1::2]))


def _make_set(items: tuple):
    check_keys(items)
    try:
        return frozenset(as_keys(items))
    except TypeError:
        raise error("type_error", "a set item must be comparable data") from None


def _seq_pattern(value):
    t = type(value)
    if t is tuple:
        return value
    if value is None:
        return ()
    if t is str:
        return tuple(value)
    raise error("destructure_error", f"cannot destructure a {type_name(value)} with a vector "
                                     "pattern; it needs a vector or nil",
                "use a map pattern {:keys [...]} for maps")


def _keyword_arguments(rest: tuple):
    """The rest arguments `:a 1 :b 2` (or one trailing map) of `[& {:keys [a b]}]` as a map."""
    if len(rest) == 1 and type(rest[0]) in MAPS:
        return rest[0]
    if len(rest) % 2 == 0:
        try:
            return Map(zip(as_keys(rest[0::2]), rest[1::2]))
        except TypeError:
            pass
    raise error("destructure_error", "the arguments after & of a map destructuring must come "
                f"in key value pairs, got {len(rest)} value{'s' * (len(rest) != 1)}")


def _map_pattern(value):
    t = type(value)
    if t in MAPS or value is None:
        return value
    raise error("destructure_error", f"cannot destructure a {type_name(value)} with a map "
                                     "pattern; it needs a map or nil",
                "use a vector pattern [a b] for vectors")


def _nth_or_nil(seq: tuple, i: int):
    return seq[i] if i < len(seq) else None


def _nthrest(seq: tuple, i: int):
    return seq[i:]


def _field(m, kw, name: str):
    """`(:k m)`: the keyword, else its name (maps from JSON have string keys), else nil."""
    if type(m) in MAPS:
        value = m.get(kw, MISSING)
        return m.get(name) if value is MISSING else value
    return keyword_call(kw, m)


def _dget(m, key):
    if m is None:
        return None
    return flex_lookup(m, key, None)


def _dget_or_missing(m, key):
    if m is None:
        return MISSING
    return flex_lookup(m, key, MISSING)


def _no_match(value):
    raise error("no_matching_clause", f"no matching clause for {pr_str(value, limit=60)}",
                "add a default as the last form")


def _previous(index: int):
    """`*1`, `*2`, `*3`: the value of the program `index + 1` turns back, or nil."""
    return current().previous[index]


def _return(value):
    raise Signal("return", value)


def _fail(value):
    raise Signal("fail", value)


def _iterate(coll):
    """What doseq and for iterate over: items, map entries, characters; nil is empty."""
    seq = collection_items(coll)
    if seq is None:
        raise error("type_error", f"expected a collection to iterate over, got {type_name(coll)}")
    return seq



GLOBALS: dict[str, object] = {
    "_h": RUNNING,                    # generated functions start with `_r = _h.s`
    "_len": len, "_tuple": tuple, "_type": type, "_int": int, "_NUMS": frozenset({int, float}),
    "_STR_INT": frozenset({str, int}), "_Map": Map,
    "_PLAIN_KEYS": frozenset({str, int, float, Keyword, type(None)}),   # map keys as they are
    "_MAPS": MAPS, "_Function": types.FunctionType, "_Reduced": Reduced, "_MISSING": MISSING,
    "_items": items, "_chunks": chunks, "_clock": time.perf_counter,
    "_as_fn": as_fn, "_keyword_get": keyword_call, "_where": where,
    "_timeout": timeout,
    "_too_deep": _too_deep,
    "_loop_limit": _loop_limit,
    "_too_big": _too_big,
    "_arity_mismatch": _arity_mismatch,
    "_make_map": _make_map,
    "_make_plain_map": _make_plain_map,
    "_make_set": _make_set,
    "_seq_pattern": _seq_pattern,
    "_keyword_arguments": _keyword_arguments,
    "_map_pattern": _map_pattern,
    "_nth_or_nil": _nth_or_nil,
    "_nthrest": _nthrest,
    "_field": _field,
    "_dget": _dget,
    "_dget_or_missing": _dget_or_missing,
    "_no_match": _no_match,
    "_previous": _previous,
    "_return": _return,
    "_fail": _fail,
    "_iterate": _iterate,
}


def helper(name: str) -> ast.Name:
    """Generated code's load of the global `name`; KeyError when GLOBALS lacks it."""
    if name not in GLOBALS:
        raise KeyError(f"compiled code would load {name}, which helpers.GLOBALS lacks")
    return ast.Name(name, ast.Load())


def base_globals() -> dict:
    """What every run's globals start from: GLOBALS and the builtins."""
    g = {"__builtins__": {}, **GLOBALS}
    for b in BUILTINS.values():
        g[b.pyname] = b.fn
        for n, fn in b.variants.items():
            g[f"{b.pyname}__{n}"] = fn
    return g
