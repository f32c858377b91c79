"""What the LLM calls of a recorded run cost: each turn's request and reply priced with the
provider's usage where it was reported (else counted), and its prompt-cache reads and writes
taken from the cache model where the provider reported none.

A turn here is any record with `messages` (the request), `raw_response` (the reply), `usage`
(the provider's counts, or None), `llm_ms` and `run_ms`: engine.history's `Turn`.

    costs = run_costs(trace.turns, price_for(model), TokenCounter(enc), model)
    total_cost(costs).usd
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from .caching import (CachePolicy, CacheSplit, RunCache, cache_policy, cache_prices, cache_splits,
                      sent_times)
from .counter import MessageCounts, TokenCounter
from .encodings import encoding_for_model
from .prices import CallCost, Price, call_cost, cost, dollars


def call_counter(model: str | None):
    """`counted(turn) -> (input_tokens, output_tokens)`: our own count of a turn's request and
    reply with the encoding of `model` (engine.trace.otel's token counts)."""
    counter = TokenCounter(encoding_for_model(model))
    return lambda turn: (counter.count_messages(turn.messages).total,
                         counter.count(turn.raw_response))


def turn_cost(turn, price: Price | None, counter: TokenCounter,
              modelled: CacheSplit | None = None) -> CallCost:
    """What `turn`'s LLM call cost: its recorded request and reply at `price`, with the
    provider's usage where reported (else counted with `counter`, and marked counted). Cache
    reads and writes the provider did not report are taken from `modelled` (see `run_costs`);
    without it they are none."""
    u = turn.usage
    if u is None:
        input_tokens = output_tokens = cached = written = reported_usd = None
    else:
        input_tokens, output_tokens = u.input_tokens, u.output_tokens
        cached, written, reported_usd = u.cached_tokens, u.cache_write_tokens, u.cost_usd
    if cached is None and modelled is not None:
        cached, written = modelled.read, modelled.write
    priced = call_cost(price, counter, turn.messages, turn.raw_response,
                       input_tokens, output_tokens, cached, written)
    if reported_usd is None:
        return priced
    return replace(priced, usd=reported_usd, usd_reported=True)     # the bill beats our price


def run_costs(turns: Sequence, price: Price | None, counter: TokenCounter,
              model: str | None, caching: bool = True) -> list[CallCost]:
    """Every recorded LLM call of a run priced (`turn_cost`); with `caching`, at the cache
    prices of `model`'s provider and with the cache model's reads and writes where the provider
    reported none. The one way every recorded run is priced (stats, compare, experiments)."""
    if not caching:
        return [turn_cost(t, price, counter) for t in turns]
    priced = cache_prices(price, cache_policy(model))
    return [turn_cost(t, priced, counter, s)
            for t, s in zip(turns, recorded_splits(turns, counter, model))]


def recorded_splits(turns: Sequence, counter: TokenCounter,
                    model: str | None) -> list[CacheSplit]:
    """The recorded requests of a run split by the cache model of `model`'s provider."""
    requests = [t.messages for t in turns]
    return cache_splits(requests, [counter.count_messages(m) for m in requests],
                        sent_times(turns), cache_policy(model), counter)


def caching_cost(price: Price | None, policy: CachePolicy,
                 splits: Sequence[CacheSplit]) -> float | None:
    """The input cost of requests split by the cache model, each part at its price."""
    priced = cache_prices(price, policy)
    costs = [cost(priced, s.uncached, 0, s.read, s.write) for s in splits]
    return None if priced is None else dollars(sum(costs))


class CacheRuns:
    """Other requests for the same turns (a run rendered under each history strategy), ready
    to be split by the cache model of any provider family; each (strategy, policy) is split
    once, on first use. `turns` give the times the requests were sent."""

    def __init__(self, turns: Sequence, requests: Mapping[str, Sequence[Sequence[Mapping]]],
                 counts: Mapping[str, Sequence[MessageCounts]], counter: TokenCounter) -> None:
        self.requests, self.counts, self.counter = requests, counts, counter
        self.times = sent_times(turns)
        self._splits: dict[tuple[str, CachePolicy], tuple[CacheSplit, ...]] = {}

    def splits(self, strategy: str, policy: CachePolicy) -> tuple[CacheSplit, ...]:
        key = (strategy, policy)
        found = self._splits.get(key)
        if found is None:
            found = self._splits[key] = tuple(cache_splits(
                self.requests[strategy], self.counts[strategy], self.times, policy, self.counter))
        return found

    def split_now(self, strategy: str, policy: CachePolicy,
                  requests: Iterable[tuple[Sequence[Mapping], MessageCounts]]) -> None:
        """Split `strategy`'s requests, (messages, their counts) in the order they were sent,
        by `policy` now, one at a time, keeping the splits, not the requests."""
        cache = RunCache(policy, self.counter)
        self._splits[(strategy, policy)] = tuple(
            cache.send(messages, counts, now) for (messages, counts), now in zip(requests,
                                                                                 self.times))
