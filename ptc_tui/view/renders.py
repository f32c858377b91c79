"""Renders: the requests of every turn of one trace under one set of options, cached per trace
so that switching a strategy or a limit back is free, with one token counter for them all."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.history import STRATEGIES, HistoryOpts, RenderStats, iter_requests
from engine.llm import spec_model
from engine.tokens import (CachePolicy, CacheSplit, MessageCounts, RunCache, TokenCounter,
                           cache_policy, cache_splits, encoding_for_model)
from engine.trace import Trace


class Requests(Sequence):
    """The requests of every turn (element i: turn i + 1's messages and RenderStats), rendered
    in order only as far as they are asked for: the first screen of a long trace renders one.
    The app's counting thread and its UI thread may both ask; a lock keeps one rendering."""

    def __init__(self, source: Iterator, length: int):
        self._source, self._length = source, length
        self._done: list[tuple[tuple[dict, ...], RenderStats]] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._length))]
        if i < 0:
            i += self._length
        if not 0 <= i < self._length:
            raise IndexError(i)
        if i >= len(self._done):
            with self._lock:
                while len(self._done) <= i:
                    messages, stats = next(self._source)
                    self._done.append((tuple(messages), stats))
        return self._done[i]

    @property
    def rendered(self) -> int:
        """How many requests are rendered so far."""
        return len(self._done)


class SentTimes(Sequence):
    """When each turn's request was sent, in seconds from the run's start (engine.tokens.
    sent_times), summed only as far as asked for: a long trace's later turns may not be
    decoded yet."""

    def __init__(self, turns: Sequence):
        self._turns = turns
        self._done: list[float] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._turns)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        with self._lock:
            done = self._done
            while len(done) <= i:           # as sent_times: the turn before's LLM call and run
                before = self._turns[len(done) - 1] if done else None
                done.append(done[-1] + (before.llm_ms + before.run_ms) / 1000 if done else 0.0)
        return done[i]


@dataclass(frozen=True)
class Rendering:
    """What every turn was (or would have been) sent under `opts` (its strategy included; other
    options that only differ where the strategy does not look render the same).
    Requests are rendered, and their tokens counted, turn by turn as they are asked for, so
    the selected turn can be shown before the whole trace is rendered and counted."""

    opts: HistoryOpts
    requests: Requests
    counter: TokenCounter = field(repr=False, compare=False)
    sent_at: Sequence[float] = field(default=(), repr=False, compare=False)  # per request, s
    _counts: dict[int, MessageCounts] = field(default_factory=dict, repr=False, compare=False)
    _splits: dict[CachePolicy, tuple[CacheSplit, ...]] = field(default_factory=dict, repr=False,
                                                               compare=False)

    def count(self, i: int) -> MessageCounts:
        """The token counts of request `i` (0-based), counted once."""
        counts = self._counts.get(i)
        if counts is None:
            counts = self._counts[i] = self.counter.count_messages(self.requests[i][0])
        return counts

    def counted(self, i: int) -> MessageCounts | None:
        """The counts of request `i` if they are taken already, else None (nothing is done)."""
        return self._counts.get(i)

    @property
    def counts(self) -> tuple[MessageCounts, ...]:
        return tuple(self.count(i) for i in range(len(self.requests)))

    @property
    def total(self) -> int:
        return sum(c.total for c in self.counts)

    def cache_splits(self, policy: CachePolicy) -> tuple[CacheSplit, ...]:
        """Every request split by the cache model of `policy`, once per policy: the header,
        each opening of the token view and a change of an option this strategy does not read
        all reuse it."""
        splits = self._splits.get(policy)
        if splits is None:
            splits = self._splits[policy] = tuple(cache_splits(
                [m for m, _ in self.requests], self.counts, self.sent_at, policy, self.counter))
        return splits


# Turn views kept (Renders.kept_view): the latest made, so the last turns the counting worker
# made are ready for `G`, and a turn just left is ready to go back to.
VIEWS_KEPT = 8


class Renders:
    """One per loaded trace: the trace is immutable, so a rendering never goes stale."""

    def __init__(self, trace: Trace, counter: TokenCounter | None = None):
        self.trace = trace
        self.counter = counter if counter is not None else TokenCounter(
            encoding_for_model(spec_model(trace.agent.llm)))
        self._cache: dict[tuple, Rendering] = {}
        self.sent_at = SentTimes(trace.turns)         # when each request was sent, s
        self.calls: dict = {}               # turn index -> its CallView, made once
        self._recorded_cache = RunCache(cache_policy(spec_model(trace.agent.llm)), self.counter)
        self._recorded_splits: list[CacheSplit] = []
        self._recorded_lock = threading.Lock()
        self.dropped_made: dict = {}        # what requests left out (dropped_items)
        self.samples: dict = {}             # memory values' sample texts (memory_rows)
        self._views: dict = {}              # (options, turn) -> its view, the latest made
        self._views_lock = threading.Lock()

    def kept_view(self, key: tuple, make):
        """`make()`, kept under `key` among the VIEWS_KEPT latest made (the counting thread
        and the UI thread both ask)."""
        with self._views_lock:
            found = self._views.get(key)
        if found is None:
            found = make()
            with self._views_lock:
                self._views[key] = found
                while len(self._views) > VIEWS_KEPT:
                    del self._views[next(iter(self._views))]
        return found

    def get(self, opts: HistoryOpts) -> Rendering:
        """The rendering under `opts`; options the strategy does not read share one (so a
        limit change re-renders and recounts only the strategies that use the limit)."""
        key = (opts.strategy, *(getattr(opts, name) for name in STRATEGIES[opts.strategy].options))
        cached = self._cache.get(key)
        if cached is None:
            recorded = opts == self.trace.agent.history
            if self.trace.upstream is not None and recorded:
                requests = iter(self.recorded())
            else:
                requests = iter_requests(opts.strategy, self.trace.turns, self.trace.context(),
                                         opts)
                if recorded:
                    requests = with_parents_requests(self.trace, requests)
            cached = self._cache[key] = Rendering(
                opts, Requests(requests, len(self.trace.turns)), self.counter, self.sent_at)
        return cached

    def recorded_split(self, i: int) -> CacheSplit:
        """Turn `i`'s (0-based) recorded request split by the cache model of the trace's LLM.
        The model sees each request once, in order, up to the latest asked for: a turn costs
        one more request, not the whole run before it again."""
        with self._recorded_lock:         # the counting thread and the UI thread both ask
            done = self._recorded_splits
            while len(done) <= i:
                messages = self.trace.turns[len(done)].messages
                done.append(self._recorded_cache.send(
                    messages, self.counter.count_messages(messages), self.sent_at[len(done)]))
        return done[i]

    def recorded(self) -> list:
        """A run imported from the reference implementation, under the options it was
        imported with: the requests it recorded (not ours to re-render), each tool call shown
        in its assistant message (and counted with it)."""
        strategy = self.trace.agent.history.strategy
        return [(tuple(with_tool_calls(m) for m in t.messages), RenderStats(strategy))
                for t in self.trace.turns]

    def __len__(self) -> int:
        return len(self._cache)


def with_parents_requests(trace: Trace, rendered: Iterator) -> Iterator:
    """`rendered`, the requests of `trace` under the options it recorded; for a fork that
    changed a history option, the turns it took over from its parent with the requests the
    parent sent (under the parent's options), the fork's own as rendered (as it sent them)."""
    parent = trace.parent
    if parent is None or not parent.requests_differ:
        yield from rendered
        return
    for i, request in enumerate(rendered):
        if i < parent.turn - 1:
            request = (trace.turns[i].messages, RenderStats(request[1].strategy))
        yield request


def with_tool_calls(message: dict) -> dict:
    """`message` with its tool calls (as the reference recorded them) written after its text."""
    calls = message.get("tool_calls")
    if not calls:
        return message
    shown = [f"[tool call {c.get('name')}: "
             f"{json.dumps(c.get('args', c.get('arguments')), ensure_ascii=False)}]"
             if type(c) is dict else f"[tool call: {json.dumps(c, ensure_ascii=False)}]"
             for c in calls]
    return {**message, "content": "\n".join([message.get("content") or "", *shown]).strip()}
