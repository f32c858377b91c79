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

from collections.abc import Iterable, Sequence

from engine.history.types import type_of
from engine.lisp.compare import equals
from engine.lisp.keys import KEY_BUDGET
from engine.lisp.printer import print_str
from engine.lisp.values import HostMap, MAPS, Map

NEEDLE_CHARS = 200
_COLLECTIONS = frozenset({tuple, frozenset, Map, HostMap})


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
    for i in reversed(range(len(prints))):
        if needle in prints[i]:
            return i
    return -1


def _comparable(value) -> bool:
    """Whether `value` is small enough to hash and compare in bounded time (the engine's own
    bound for `=` and map keys). Counting stops at the bound, so a value that shares
    structure (a vector of itself doubled sixty times) costs at most that many steps."""
    if type(value) not in _COLLECTIONS:
        return True
    budget = KEY_BUDGET
    stack = [value]
    while stack:
        node = stack.pop()
        budget -= len(node) + 1
        if budget <= 0:
            return False
        for part in (node.values() if type(node) in MAPS else node):
            if type(part) in _COLLECTIONS:
                stack.append(part)
        if type(node) in MAPS:
            stack.extend(k for k in node.keys() if type(k) in _COLLECTIONS)
    return True


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
            fp = (bucket(value), hash(value)) if _comparable(value) else None
        except Exception:      # unhashable or odd: identity is all we can tell
            fp = None
        self._prints[id(value)] = (value, fp)
        return fp

    def equal(self, a, b) -> bool:
        key = (id(a), id(b))
        entry = self._pairs.get(key)
        if entry is not None and entry[0] is a and entry[1] is b:
            return entry[2]
        fa, fb = self.fingerprint(a), self.fingerprint(b)
        if fa is not None and fb is not None:
            # both already shown small enough to compare: skip `equals`' own size checks
            result = fa == fb and (a is b or (type(a) is not bool and type(b) is not bool
                                              and a == b))
        else:
            try:
                result = equals(a, b)
            except Exception:
                result = False
        self._pairs[key] = (a, b, result)
        return result


_UNKNOWN = object()


def bucket(value) -> str:
    """Values that may be `=` share a bucket: one for all numbers (`(= 1 1.0)`), else the type
    label, which carries the size of a collection, so most unequal values are never compared."""
    t = type(value)
    if t is int or t is float:
        return "number"
    return type_of(value)


class ValueIndex:
    """A set of PTC values answering `value in index`: identity first, then, only among the
    values in the same bucket (type and size), fingerprint and `=`; so no tool result is
    compared with every value, and most are never hashed. It takes the `Equality` a strategy
    keeps so that later renders reuse its work."""

    def __init__(self, equality: Equality):
        self._equality = equality
        self._ids: set[int] = set()
        self._buckets: dict[str, list] = {}      # also keeps the ids above valid

    def add(self, value, value_bucket: str) -> None:
        """Add `value`, whose `bucket(value)` the caller has at hand."""
        self._ids.add(id(value))
        self._buckets.setdefault(value_bucket, []).append(value)

    def __contains__(self, value) -> bool:
        if id(value) in self._ids:
            return True
        candidates = self._buckets.get(bucket(value))
        if not candidates:
            return False
        eq = self._equality
        fp = eq.fingerprint(value)
        if fp is None:
            return False
        return any(eq.fingerprint(c) == fp and eq.equal(c, value) for c in candidates)


class ToolResults:
    """The non-nil tool results of a run's successful turns, indexed by identity and
    fingerprint as they are added, to tell which ones a request let the LLM see."""

    def __init__(self, equality: Equality):
        self._equality = equality
        self._all: list[tuple] = []                  # (ref, result, print index or -1)
        self._by_id: dict[int, list] = {}
        self._by_print: dict[tuple, list] = {}

    def add(self, ref, result, print_index: int) -> None:
        """A call's result; `print_index` is the run-wide index of the last print of its
        turn that contains the result's text, or -1."""
        if result is None:
            return
        entry = (ref, result, print_index)
        self._all.append(entry)
        self._by_id.setdefault(id(result), []).append(entry)
        fp = self._equality.fingerprint(result)
        if fp is not None:
            self._by_print.setdefault(fp, []).append(entry)

    def unseen(self, sampled: Iterable, window: int) -> tuple:
        """Refs of the results not shown by a print at index `window` or later and not held
        by any of the `sampled` values: a lookup per sampled value, not a scan per result."""
        eq = self._equality
        seen: set = set()
        for value in sampled:
            seen.update(ref for ref, _, _ in self._by_id.get(id(value), ()))
            fp = eq.fingerprint(value)
            for ref, result, _ in self._by_print.get(fp, ()) if fp is not None else ():
                if ref not in seen and eq.equal(result, value):
                    seen.add(ref)
        return tuple(ref for ref, _, at in self._all if at < window and ref not in seen)
