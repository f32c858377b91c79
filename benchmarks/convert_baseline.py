"""The conversion of host data as it was before the speed work of issue 11 (convert.py at
commit 3b89c63): each value converted one at a time, each dict into an immutables.Map.
Kept only as the baseline that `lisp_bench.py` measures today's conversion against, in the
same run; it is not used by the engine."""

from __future__ import annotations

from engine.lisp.values import INT_MAX, INT_MIN, Keyword, Map


class BaselineError(ValueError):
    """A value the old conversion refused."""


def baseline_from_python(value, max_depth: int = 100, where: str = "value"):
    return _from(value, max_depth, 0, set(), where)


def _from(value, max_depth, depth, path_ids: set, where):
    t = type(value)
    if value is None or t is bool or t is str or t is float or t is Keyword:
        return value
    if t is int:
        if not INT_MIN <= value <= INT_MAX:
            raise BaselineError(f"{where}: an integer of {value.bit_length()} bits does not "
                                f"fit in 64 bits")
        return value
    if depth >= max_depth:
        raise BaselineError(f"{where}: nested deeper than {max_depth} levels")
    ident = id(value)
    if ident in path_ids:
        raise BaselineError(f"{where}: contains itself (a cycle)")
    path_ids.add(ident)
    try:
        if isinstance(value, (Map, dict)):
            return Map({_key(k, max_depth, depth, path_ids, where):
                        _from(v, max_depth, depth + 1, path_ids, where) for k, v in value.items()})
        if isinstance(value, (list, tuple)):
            return tuple(_from(v, max_depth, depth + 1, path_ids, where) for v in value)
    finally:
        path_ids.discard(ident)
    raise BaselineError(f"{where}: not JSON-shaped data")


def _key(k, max_depth, depth, path_ids, where):
    key = _from(k, max_depth, depth + 1, path_ids, where)
    try:
        hash(key)
    except TypeError:
        raise BaselineError(f"{where}: a map key must not be a map") from None
    return key
