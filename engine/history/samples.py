"""Samples of values for summaries: Clojure syntax, cut by the truncating printer (docs/history-rules.md, TRN-001..005)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from engine.lisp import format_value
from engine.lisp.values import is_fn


def sample_text(value, limit: int, printable_limit: int) -> str | None:
    """`[1 2 3 ...] (10 items, showing first 3)`, `"long string..."`: at most `limit` items of
    a collection and `printable_limit` characters of a string (HistoryOpts' sample limits, which
    every caller passes); None when a sample would say nothing the type label does not (nil,
    an empty collection, a function; DEF-003/004)."""
    if value is None or is_fn(value):
        return None
    if isinstance(value, (Mapping, Set, frozenset)) or (
            isinstance(value, Sequence) and not isinstance(value, str)):
        if len(value) == 0:
            return None
    return format_value(value, limit, printable_limit)[0]
