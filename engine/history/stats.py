"""RenderStats: what a strategy left out of the request, so a user can see what the LLM missed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class CallRef(NamedTuple):
    """The `index`-th (0-based) tool call, or println call, of turn `turn`. A named tuple:
    renders hash thousands of them."""

    turn: int
    index: int


@dataclass(frozen=True)
class RenderStats:
    strategy: str
    tool_calls_total: int = 0
    tool_calls_dropped: tuple[CallRef, ...] = ()     # fell to tool_call_limit (oldest first)
    prints_total: int = 0
    prints_dropped: tuple[CallRef, ...] = ()         # fell to println_limit (oldest first)
    failed_turns_shown: tuple[int, ...] = ()
    failed_turns_collapsed: tuple[int, ...] = ()     # failed turns whose code/error are not shown
    samples_omitted: tuple[str, ...] = ()            # definitions shown without their sample
    results_unseen: tuple[CallRef, ...] = ()         # tool results neither printed nor sampled
    turns_dropped: tuple[int, ...] = ()              # whole turns left out (compaction)

    @property
    def tool_calls_shown(self) -> int:
        return self.tool_calls_total - len(self.tool_calls_dropped)

    @property
    def prints_shown(self) -> int:
        return self.prints_total - len(self.prints_dropped)

    @property
    def dropped_anything(self) -> bool:
        return bool(self.tool_calls_dropped or self.prints_dropped or self.failed_turns_collapsed
                    or self.samples_omitted or self.results_unseen or self.turns_dropped)
