"""The strategies: each is one module that registers itself by name (`registry.STRATEGIES`).

A strategy is a class whose instances accumulate the finished turns of a run one by one
(`add`) and render the request for the next turn from what they hold (`render`); it never
calls the LLM and never changes a turn. `engine.history.render` builds one from scratch
for a pure, one-off render; the app and the token counts keep one and feed it turn by turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from engine.history.strategies.registry import BASELINE, STRATEGIES, register, strategy_order

if TYPE_CHECKING:
    from engine.history.context import RenderContext
    from engine.history.opts import HistoryOpts
    from engine.history.stats import RenderStats
    from engine.history.turn import Turn

__all__ = ["BASELINE", "STRATEGIES", "Strategy", "register", "strategy_order"]


class Strategy(Protocol):
    name: str
    options: tuple[str, ...]   # the HistoryOpts fields it reads: options equal on these render
                               # the same requests, so a cache can key on them alone

    def __init__(self, context: RenderContext, opts: HistoryOpts): ...

    def add(self, turn: Turn) -> None:
        """Take in one finished turn (turns arrive in order, each once)."""

    def render(self, memory: Mapping) -> tuple[list[dict], RenderStats]:
        """The messages for the next request, given the memory after the last turn added."""


# the strategies shipped with the engine register themselves when imported
from engine.history.strategies import coalesced, compaction, full, namespaced  # noqa: E402,F401
