"""Renders: the requests of every turn of one trace under one set of options, cached per trace
so that switching a strategy or a limit back is free, with one token counter for them all."""

from __future__ import annotations

from dataclasses import dataclass

from engine.history import HistoryOpts, RenderStats, render_turns
from engine.tokens import MessageCounts, TokenCounter, encoding_for_model
from engine.trace import Trace
from ptc_tui.token_stats import trace_model


@dataclass(frozen=True)
class Rendering:
    """What every turn was (or would have been) sent under `opts` (its strategy included)."""

    opts: HistoryOpts
    requests: tuple[tuple[tuple[dict, ...], RenderStats], ...]   # element i: turn i + 1
    counts: tuple[MessageCounts, ...]

    @property
    def total(self) -> int:
        return sum(c.total for c in self.counts)


class Renders:
    """One per loaded trace: the trace is immutable, so a rendering never goes stale."""

    def __init__(self, trace: Trace, counter: TokenCounter | None = None):
        self.trace = trace
        self.counter = counter if counter is not None else TokenCounter(
            encoding_for_model(trace_model(trace)))
        self._cache: dict[HistoryOpts, Rendering] = {}

    def get(self, opts: HistoryOpts) -> Rendering:
        cached = self._cache.get(opts)
        if cached is None:
            requests = render_turns(opts.strategy, self.trace.turns, self.trace.context(), opts)
            cached = self._cache[opts] = Rendering(
                opts,
                tuple((tuple(messages), stats) for messages, stats in requests),
                tuple(self.counter.count_messages(messages) for messages, _ in requests))
        return cached

    def __len__(self) -> int:
        return len(self._cache)
