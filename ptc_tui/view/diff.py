"""TurnDiff: a turn's program and last USER message against the previous turn's, as classified
unified-diff lines (header, hunk, added, removed, context) for the diff screen to colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ptc_tui.view.trace_view import TraceView


@dataclass(frozen=True)
class DiffLine:
    kind: str                 # "header", "hunk", "added", "removed" or "context"
    text: str


@dataclass(frozen=True)
class TurnDiff:
    number: int
    previous: int | None      # None for the first turn: it is compared with nothing
    program: tuple[DiffLine, ...]
    message: tuple[DiffLine, ...]


def classify(lines: Sequence[str]) -> tuple[DiffLine, ...]:
    """Each line of a unified diff with its kind; an empty diff means no change."""
    out = []
    for i, line in enumerate(lines):
        # only the first two lines are file headers: a removed "-- x" line reads "--- x" too
        if i < 2 and line.startswith(("--- ", "+++ ")):
            kind = "header"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind = "added"
        elif line.startswith("-"):
            kind = "removed"
        else:
            kind = "context"
        out.append(DiffLine(kind, line))
    return tuple(out)


def turn_diff(view: TraceView, number: int) -> TurnDiff:
    numbers = list(view.turns)
    i = numbers.index(number)
    return TurnDiff(number, numbers[i - 1] if i else None,
                    classify(view.program_diff(number)), classify(view.message_diff(number)))
