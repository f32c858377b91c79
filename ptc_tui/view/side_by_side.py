"""Side-by-side diffs: two texts as aligned rows (same, changed, only left, only right), long
runs of identical lines folded, for the compare screen's programs and requests."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from ptc_tui.view.formats import count_text
from ptc_tui.view.panes import clipped
from ptc_tui.view.plain_text import text_lines

MAX_LINES = 5_000          # per side: a diff lays out every row it shows, so a side is cut
MAX_CHARS = 200_000        # here, with a line saying what was left out (panes.clipped)
CONTEXT = 3                # identical lines kept around a change when folding


@dataclass(frozen=True)
class SideRow:
    kind: str              # "same", "changed", "left" (only on the left), "right", "folded"
    left: str | None       # None: nothing on that side
    right: str | None


def request_text(messages: Sequence[dict]) -> str:
    """A request as text: each message under a `── ROLE ──` line."""
    return "\n".join(f"── {m['role'].upper()} ──\n{m.get('content') or ''}" for m in messages)


def side_by_side(left: str | None, right: str | None,
                 fold: bool = False) -> tuple[SideRow, ...]:
    """`left` and `right` aligned line by line; with `fold`, runs of identical lines longer
    than 2 × CONTEXT + 1 become one "folded" row saying how many were left out."""
    a = text_lines(clipped(left or "", MAX_LINES, MAX_CHARS))
    b = text_lines(clipped(right or "", MAX_LINES, MAX_CHARS))
    rows: list[SideRow] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    opcodes = matcher.get_opcodes()
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            same = [SideRow("same", x, x) for x in a[i1:i2]]
            rows += _folded(same, index == 0, index == len(opcodes) - 1) if fold else same
            continue
        left_lines, right_lines = a[i1:i2], b[j1:j2]
        for k in range(max(len(left_lines), len(right_lines))):
            x = left_lines[k] if k < len(left_lines) else None
            y = right_lines[k] if k < len(right_lines) else None
            kind = "changed" if x is not None and y is not None else ("left" if y is None
                                                                       else "right")
            rows.append(SideRow(kind, x, y))
    return tuple(rows)


def _folded(rows: list[SideRow], first: bool, last: bool) -> list[SideRow]:
    keep_before = 0 if first else CONTEXT       # lines after the change above
    keep_after = 0 if last else CONTEXT         # lines before the change below
    if len(rows) <= keep_before + keep_after + 1:
        return rows
    hidden = len(rows) - keep_before - keep_after
    note = f"⋯ {count_text(hidden, 'identical line')}"
    return [*rows[:keep_before], SideRow("folded", note, note),
            *rows[len(rows) - keep_after:]]

