"""render and render_turns: the messages a strategy sends, for one request or for every turn."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from engine.history.context import RenderContext
from engine.history.opts import HistoryOpts
from engine.history.stats import RenderStats
from engine.history.strategies import STRATEGIES
from engine.history.turn import Turn


def render(strategy: str, turns: Sequence[Turn], memory: Mapping, context: RenderContext,
           opts: HistoryOpts | None = None) -> tuple[list[dict], RenderStats]:
    """The request for turn `len(turns) + 1` under `strategy`. Pure: same input, same output."""
    renderer = _renderer(strategy, context, opts)
    for turn in turns:
        renderer.add(turn)
    return renderer.render(memory)


def render_turns(strategy: str, turns: Sequence[Turn], context: RenderContext,
                 opts: HistoryOpts | None = None) -> list[tuple[list[dict], RenderStats]]:
    """The request of every turn of a run: element i is what turn i + 1 was (or would have
    been) sent. One pass over the turns, each added once to the strategy's
    accumulated state."""
    return list(iter_requests(strategy, turns, context, opts))


def iter_requests(strategy: str, turns: Iterable[Turn], context: RenderContext,
                  opts: HistoryOpts | None = None) -> Iterator[tuple[list[dict], RenderStats]]:
    """render_turns one request at a time, so a caller that only counts them never holds
    every request of a long run at once. The first request sees an empty memory."""
    renderer = _renderer(strategy, context, opts)
    memory: Mapping = {}
    for turn in turns:
        yield renderer.render(memory)
        renderer.add(turn)
        memory = turn.memory


def _renderer(strategy: str, context: RenderContext, opts: HistoryOpts | None):
    opts = (opts or HistoryOpts()).with_changes(strategy=strategy)
    return STRATEGIES[strategy](context, opts)
