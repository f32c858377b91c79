"""Type labels of the summary format (docs/history-rules.md, TYP-001..012): `list[3]`, `map[0]`, `string`, `#fn[...]`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from engine.lisp import Keyword
from engine.lisp.values import is_fn


def type_of(value) -> str:
    """The label a definition or a tool result gets in a summary."""
    if value is None:
        return "nil"                                    # TYP-010
    t = type(value)
    if t is bool:
        return "boolean"                                # TYP-008
    if t is int:
        return "integer"                                # TYP-006
    if t is float:
        return "float"                                  # TYP-007
    if t is str:
        return "string"                                 # TYP-005
    if t is Keyword:
        return "keyword"                                # TYP-009
    if isinstance(value, Mapping):
        return f"map[{len(value)}]"                     # TYP-003/004
    if isinstance(value, (Set, frozenset)):
        return f"set[{len(value)}]"                     # TYP-012
    if isinstance(value, Sequence):
        return f"list[{len(value)}]"                    # TYP-001/002
    if is_fn(value):
        return "#fn[...]"                               # TYP-011
    return "unknown"
