"""Whether the LLM saw a tool result: the pieces `RenderStats.results_unseen` is built from.

A successful turn's tool result counts as seen in a request when
- it is nil (nothing to see), or
- a definition shown *with a sample* in that request has it as its value (the same object,
  or equal under PTC-Lisp `=`), or
- a println call of the same turn that the request shows contains its printed text
  (`print_str(result)`, at most its first 200 characters: prints are cut when captured, so
  a long result is recognised by its beginning).
Otherwise the LLM saw at most the call and the result's type. Strategies decide which
definitions are sampled and which prints are shown; this module only does the matching.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from engine.history.types import type_of
from engine.lisp.compare import KEY_BUDGET, equals, expanded_size
from engine.lisp.printer import print_str
from engine.lisp.values import Map

NEEDLE_CHARS = 200
_COLLECTIONS = frozenset({tuple, frozenset, Map})


def printed_text(value) -> str | None:
    """The first 200 characters `println` would show for `value`; None when there is nothing
    to look for (nil, the empty string, or a value the printer refuses)."""
    if value is None:
        return None
    try:
        text = print_str(value, NEEDLE_CHARS)
    except Exception:     # a value too large or deep to print: nobody saw it printed whole
        return None
    return text[:NEEDLE_CHARS] or None


def last_print_containing(needle: str | None, prints: Sequence[str]) -> int:
    """Index of the last of `prints` that contains `needle`, or -1."""
    if needle is None:
        return -1
    for i in range(len(prints) - 1, -1, -1):
        if needle in prints[i]:
            return i
    return -1


def _bucket(value) -> str:
    """Values that may be `=` share a bucket: one for all numbers (`(= 1 1.0)`), else the type
    label, which carries the size of a collection, so most unequal values are never compared."""
    t = type(value)
    if t is int or t is float:
        return "number"
    return type_of(value)


def _comparable(value) -> bool:
    """Whether `value` is small enough to hash and compare in bounded time (the engine's own
    bound for `=` and map keys); a flat collection is checked at C speed."""
    t = type(value)
    if t not in _COLLECTIONS:
        return True
    if len(value) + 1 >= KEY_BUDGET:
        return False
    parts = (value.keys(), value.values()) if t is Map else (value,)
    if all(_COLLECTIONS.isdisjoint(set(map(type, p))) for p in parts):
        return True
    return expanded_size(value, KEY_BUDGET) < KEY_BUDGET


class Equality:
    """PTC `=` between the values of a run, remembered: a strategy keeps one for all its
    renders, so each value is fingerprinted once and each pair compared once.

    Entries keep their values alive, so the ids they are keyed by stay theirs.
    """

    def __init__(self):
        self._prints: dict[int, tuple[object, tuple | None]] = {}
        self._pairs: dict[tuple[int, int], tuple[object, object, bool]] = {}

    def fingerprint(self, value) -> tuple | None:
        """(bucket, hash), equal for `=` values; None for a value compared by identity only."""
        entry = self._prints.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        try:
            fp = (_bucket(value), hash(value)) if _comparable(value) else None
        except Exception:      # unhashable or odd: identity is all we can tell
            fp = None
        self._prints[id(value)] = (value, fp)
        return fp

    def equal(self, a, b) -> bool:
        key = (id(a), id(b))
        entry = self._pairs.get(key)
        if entry is not None and entry[0] is a and entry[1] is b:
            return entry[2]
        try:
            result = equals(a, b)
        except Exception:
            result = False
        self._pairs[key] = (a, b, result)
        return result


class ValueIndex:
    """A set of PTC values answering `value in index`: identity first, then `=` against the
    values with the same fingerprint only (no scan of every value for every tool result).
    Pass the `Equality` a strategy keeps so that later renders reuse its work."""

    def __init__(self, values: Iterable = (), equality: Equality | None = None):
        self._equality = equality if equality is not None else Equality()
        self._ids: set[int] = set()
        self._by_print: dict[tuple, list] = defaultdict(list)
        self._keep: list = []      # the ids above stay valid while the values live
        for v in values:
            self.add(v)

    def add(self, value) -> None:
        self._keep.append(value)
        self._ids.add(id(value))
        fp = self._equality.fingerprint(value)
        if fp is not None:
            self._by_print[fp].append(value)

    def __contains__(self, value) -> bool:
        if id(value) in self._ids:
            return True
        if not self._by_print:
            return False
        fp = self._equality.fingerprint(value)
        if fp is None:
            return False
        return any(self._equality.equal(c, value) for c in self._by_print.get(fp, ()))

    def __bool__(self) -> bool:
        return bool(self._keep)
