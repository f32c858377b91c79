"""TurnDiff: a turn's program and last USER message against the previous turn's, as classified
unified-diff lines (header, hunk, added, removed, context) for the diff screen to colour, and
where the turn's request first departs from the previous request (where a prompt cache breaks)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ptc_tui.view.trace_view import TraceView


@dataclass(frozen=True)
class DiffLine:
    kind: str                 # "header", "hunk", "added", "removed" or "context"
    text: str


@dataclass(frozen=True)
class CacheBreak:
    """Where a request first differs from the previous turn's request: a provider's prompt
    cache can serve at most the messages before it; from it on every token is billed in full."""

    message: int              # 1-based: the first message that differs (messages + 1: none)
    messages: int             # in this request
    role: str | None          # of that message (None: none differs, the request only repeats)
    shared_tokens: int        # of the messages before it
    full_tokens: int          # from it to the end (the reply priming included)
    appends: bool             # the previous request is repeated whole: the history only grew

    def text(self) -> str:
        """One line for the diff screen."""
        if self.role is None:
            return (f"cache: the request is the previous one again ({self.shared_tokens:,} "
                    f"tokens can be read from a prompt cache, {self.full_tokens:,} billed in full)")
        how = ("new after the whole previous request" if self.appends else
               "the previous request had another message here")
        return (f"cache breaks at message {self.message} of {self.messages} ({self.role}, "
                f"{how}): {self.shared_tokens:,} tokens before it can be read from a prompt "
                f"cache, {self.full_tokens:,} from it on are billed in full")


@dataclass(frozen=True)
class TurnDiff:
    number: int
    previous: int | None      # None for the first turn: it is compared with nothing
    program: tuple[DiffLine, ...]
    message: tuple[DiffLine, ...]
    cache: CacheBreak | None = None   # None for the first turn


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


def cache_break(view: TraceView, index: int) -> CacheBreak | None:
    """Where request `index` (0-based) under the view's options departs from the one before."""
    if index == 0:
        return None
    rendering = view.rendering
    before, now = rendering.requests[index - 1][0], rendering.requests[index][0]
    k = 0
    while k < min(len(before), len(now)) and before[k] == now[k]:
        k += 1
    counts = rendering.count(index)
    shared = sum(counts.per_message[:k])
    return CacheBreak(k + 1, len(now), now[k]["role"] if k < len(now) else None, shared,
                      counts.total - shared, k == len(before))


def turn_diff(view: TraceView, number: int) -> TurnDiff:
    numbers = list(view.turns)
    i = numbers.index(number)
    return TurnDiff(number, numbers[i - 1] if i else None,
                    classify(view.program_diff(number)), classify(view.message_diff(number)),
                    cache_break(view, i))
