"""Pretty-printing a Lisp value over several lines for the memory pane's detail: a collection
too wide for the width gets one entry or item per line, nested ones indented, Clojure style."""

from __future__ import annotations

from engine.lisp import format_value, format_within
from engine.lisp.compare import map_items, set_items
from engine.lisp.values import Map

ITEMS = 50                 # entries or items of one collection shown; the rest are counted
CHARS = 2_000              # characters of one string shown
WIDTH = 60


def pretty(value, width: int = WIDTH) -> str:
    """`value` in Clojure syntax, one line when it fits `width`, else one entry per line."""
    return "\n".join(_lines(value, width))


def _flat(value) -> str:
    return format_value(value, ITEMS, CHARS, filter_hidden=False)[0]


def _lines(value, width: int) -> list[str]:
    kind = type(value)
    if kind not in (Map, tuple, frozenset) or not value:
        return [_flat(value)]
    flat = format_within(value, width, ITEMS, CHARS, filter_hidden=False)
    if flat is not None:           # fits on one line (learnt without writing a big one whole)
        return [flat]
    if kind is Map:
        opening, closing, body = "{", "}", _entries(value, width - 1)
    else:
        opening, closing = ("[", "]") if kind is tuple else ("#{", "}")
        items = value if kind is tuple else set_items(value)
        shown = [_lines(item, width - len(opening)) for item in items[:ITEMS]]
        body = (_packed([item[0] for item in shown], width - len(opening))
                if all(len(item) == 1 for item in shown) else [x for item in shown for x in item])
        if len(items) > ITEMS:
            body.append(f"... ({len(items) - ITEMS:,} more of {len(items):,} items)")
    lines = [opening + body[0], *(" " * len(opening) + line for line in body[1:])]
    lines[-1] += closing
    return lines


def _entries(m: Map, width: int) -> list[str]:
    entries = map_items(m)
    lines = []
    for key, item in entries[:ITEMS]:
        key_text = _flat(key)
        inner = _lines(item, max(width - len(key_text) - 1, 20))
        lines.append(f"{key_text} {inner[0]}")
        lines.extend(" " * (len(key_text) + 1) + line for line in inner[1:])
    if len(entries) > ITEMS:
        lines.append(f"... ({len(entries) - ITEMS:,} more of {len(entries):,} entries)")
    return lines


def _packed(words: list[str], width: int) -> list[str]:
    """`words` joined by spaces, a new line before one that would pass `width`."""
    lines = [words[0]]
    for word in words[1:]:
        if len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
