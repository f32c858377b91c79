"""What a recorded run's LLM calls cost (engine.tokens.recorded): the provider's usage and
reported cost where there are some, else our own counts, and the prompt-cache model's reads
and writes where the provider reported none."""

import pytest

from engine.history import Turn
from engine.history.turn import Usage
from engine.tokens import (POLICIES, CacheRuns, CacheSplit, Price, TokenCounter, cache_policy,
                           caching_cost, cost, recorded_splits, run_costs, total_cost, turn_cost)

PRICE = Price("gpt-4.1", input=2.0, output=8.0, cached_input=0.5)
MODEL = "openai:gpt-4.1"
SYSTEM = {"role": "system", "content": "reference " * 1500}       # past OpenAI's 1,024 tokens
REPLY = "```clojure\n(def x 1)\n```"


def turn(number, usage=None):
    """A recorded turn whose request repeats the long system prompt of the turns before."""
    messages = (SYSTEM, *({"role": "user", "content": f"turn {n}"} for n in range(1, number + 1)))
    return Turn(number, REPLY, "(def x 1)", messages=messages, usage=usage, llm_ms=1000.0,
                run_ms=10.0)


def test_the_providers_reported_cost_is_the_calls_cost_and_marked_so():
    reported = turn(1, Usage(input_tokens=5000, output_tokens=100, cost_usd=0.125))
    c = turn_cost(reported, PRICE, TokenCounter())
    assert (c.usd, c.usd_reported) == (0.125, True)
    assert (c.input_tokens, c.output_tokens, c.counted) == (5000, 100, False)
    assert total_cost([c, c]).usd_reported and total_cost([c, c]).usd == 0.25
    priced = turn_cost(turn(1, Usage(input_tokens=5000, output_tokens=100)), PRICE,
                       TokenCounter())
    assert (priced.usd, priced.usd_reported) == (cost(PRICE, 5000, 100), False)
    assert not total_cost([c, priced]).usd_reported


def test_counts_the_provider_did_not_report_are_counted_and_marked():
    counter = TokenCounter()
    c = turn_cost(turn(2), PRICE, counter)
    assert c.input_tokens == counter.count_messages(turn(2).messages).total
    assert c.output_tokens == counter.count(REPLY)
    assert c.input_counted and c.output_counted and c.cached_tokens == 0


def test_modelled_cache_reads_and_writes_fill_in_only_what_the_provider_did_not_report():
    modelled = CacheSplit(read=1024, write=0, uncached=500)
    c = turn_cost(turn(2, Usage(input_tokens=2000, output_tokens=10)), PRICE, TokenCounter(),
                  modelled)
    assert (c.cached_tokens, c.usd) == (1024, cost(PRICE, 2000 - 1024, 10, 1024))
    reported = turn_cost(turn(2, Usage(input_tokens=2000, output_tokens=10, cached_tokens=0)),
                         PRICE, TokenCounter(), modelled)
    assert reported.cached_tokens == 0             # the provider said: nothing from the cache


def test_a_run_is_priced_with_the_cache_model_unless_caching_is_off():
    turns = [turn(n) for n in (1, 2, 3)]
    counter = TokenCounter()
    cached = run_costs(turns, PRICE, counter, MODEL)
    plain = run_costs(turns, PRICE, counter, MODEL, caching=False)
    splits = recorded_splits(turns, counter, MODEL)
    assert [c.cached_tokens for c in cached] == [s.read for s in splits]
    assert cached[0].cached_tokens == 0 and cached[1].cached_tokens >= 1024
    assert [c.cached_tokens for c in plain] == [0, 0, 0]
    assert [c.input_tokens for c in cached] == [c.input_tokens for c in plain]
    assert total_cost(cached).usd < total_cost(plain).usd


def test_the_input_cost_of_split_requests_prices_each_part_and_is_unknown_without_a_price():
    splits = [CacheSplit(read=0, write=0, uncached=2000), CacheSplit(read=1024, write=0,
                                                                       uncached=100)]
    policy = POLICIES["openai"]
    assert caching_cost(PRICE, policy, splits) == pytest.approx(
        (2000 * 2.0 + 1024 * 0.5 + 100 * 2.0) / 1e6)
    assert caching_cost(None, policy, splits) is None


def test_other_renderings_are_split_once_per_strategy_and_policy():
    turns = [turn(n) for n in (1, 2, 3)]
    counter = TokenCounter()
    requests = {"full": [t.messages for t in turns]}
    counts = {"full": [counter.count_messages(t.messages) for t in turns]}
    runs = CacheRuns(turns, requests, counts, counter)
    policy = cache_policy(MODEL)
    first = runs.splits("full", policy)
    assert first == tuple(recorded_splits(turns, counter, MODEL))
    assert runs.splits("full", policy) is first                   # kept, not split again
    assert runs.splits("full", POLICIES["none"]) != first         # another policy, its own
    now = CacheRuns(turns, {}, {}, counter)
    now.split_now("full", policy, zip(requests["full"], counts["full"]))
    assert now.splits("full", policy) == first
