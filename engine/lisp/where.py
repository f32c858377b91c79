"""`(where field op value)`: a predicate over maps, with flexible keys at every path step.

`=`, `not=`, `in` and `includes` treat keywords and strings alike (`(where :s = :active)`
matches "active"); ordering operators are false when either side is nil.
"""

from __future__ import annotations

from engine.lisp.access import get_path
from engine.lisp.compare import compare, equals
from engine.lisp.values import Keyword, truthy
from engine.lisp.keys import from_key


def _plain(v):
    return v.name if type(v) is Keyword else v


def _same(a, b) -> bool:
    return equals(_plain(a), _plain(b))


def where(path: tuple, op: str, value):
    def field(item):
        return get_path(item, path)

    if op == "truthy":
        def pred(item):
            return truthy(field(item))
    elif op in ("=", "not="):
        want = op == "="

        def pred(item):
            got = field(item)
            if got is None or value is None:
                return (got is None and value is None) == want
            return _same(got, value) == want
    elif op in (">", "<", ">=", "<="):
        test = {">": lambda c: c > 0, "<": lambda c: c < 0,
                ">=": lambda c: c >= 0, "<=": lambda c: c <= 0}[op]

        def pred(item):
            got = field(item)
            if got is None or value is None:
                return False
            return test(compare(got, value))
    elif op == "in":
        def pred(item):
            got = field(item)
            if got is None or type(value) not in (tuple, frozenset):
                return False
            return any(_same(got, from_key(v)) for v in value)
    else:  # includes
        def pred(item):
            got = field(item)
            if type(got) is str:
                return type(value) is str and value in got
            if type(got) in (tuple, frozenset):
                return any(_same(from_key(v), value) for v in got)
            return False
    return pred
