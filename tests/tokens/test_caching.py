"""The prompt-cache model on hand-built requests: minimum prefix, granularity, expiry, rewritten
messages, Anthropic's breakpoints, and that caching never costs more without a write premium.

Texts are counted one token per word, so a message of w words is 4 + w tokens (3 of chat
overhead and 1 for the role) and every prefix length can be chosen exactly.
"""

import os
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tokens import (POLICIES, CacheSplit, Price, TokenCounter, cache_policy, cache_prices,
                           cache_splits, cost, sent_times)
from engine.tokens.caching import _common_chars, cache_family
from engine.tokens.encodings import TokenEncoding

OPENAI, ANTHROPIC, NONE = POLICIES["openai"], POLICIES["anthropic"], POLICIES["none"]


class Words:
    def encode_ordinary(self, text):
        return text.split()


def counter():
    return TokenCounter(TokenEncoding("words", "words", "", Words()))


def msg(role, tokens, word="w"):
    """A message of exactly `tokens` tokens (chat overhead included)."""
    return {"role": role, "content": " ".join([word] * (tokens - 4))}


def split_run(requests, policy, times=None):
    c = counter()
    counts = [c.count_messages(r) for r in requests]
    return cache_splits(requests, counts, times or [0.0] * len(requests), policy, c)


def test_a_message_is_four_tokens_plus_its_words():
    assert counter().count_messages([msg("user", 10)]).per_message == (10,)


@pytest.mark.parametrize("system, read", [(1024, 1024), (1023, 0), (1024 + 127, 1024),
                                          (1024 + 128, 1152), (1024 + 200, 1152)])
def test_openai_reads_from_1024_tokens_on_in_128_token_steps(system, read):
    first = [msg("system", system)]
    second = split_run([first, first + [msg("user", 50, "q")]], OPENAI)[1]
    assert second == CacheSplit(read, 0, system + 50 + 3 - read)


def test_the_first_request_reads_nothing():
    assert split_run([[msg("system", 3000)]], OPENAI) == [CacheSplit(0, 0, 3003)]


@pytest.mark.parametrize("gap, read", [(299.0, 2048), (300.0, 2048), (301.0, 0)])
def test_an_entry_expires_five_minutes_after_its_last_use(gap, read):
    first = [msg("system", 2048)]
    splits = split_run([first, first + [msg("user", 10)]], OPENAI, [0.0, gap])
    assert splits[1].read == read


def test_a_hit_keeps_the_entry_alive():
    base = [msg("system", 2048)]
    requests = [base, base + [msg("user", 10, "a")], base + [msg("user", 10, "b")]]
    # 450 s after the first request but 250 s after the second, which used the prefix again
    assert [s.read for s in split_run(requests, OPENAI, [0.0, 200.0, 450.0])] == [0, 2048, 2048]


def test_sent_times_add_each_turns_llm_and_program_time():
    class T:
        def __init__(self, llm, run):
            self.llm_ms, self.run_ms = llm, run
    assert sent_times([T(1000, 500), T(2000, 0), T(0, 0)]) == [0.0, 1.5, 3.5]


def test_a_strategy_that_rewrites_message_2_of_10_is_read_up_to_it():
    """Message 1 stays, message 2 is rewritten: the cache serves message 1 and the framing of
    message 2 (same role), nothing after it though messages 3-10 are the same again."""
    messages = [msg("system", 1500)] + [msg("user" if i % 2 else "assistant", 300, f"m{i}")
                                        for i in range(1, 10)]
    rewritten = messages[:1] + [msg("user", 40, "summary")] + messages[2:]
    splits = split_run([messages, rewritten], OPENAI)
    shared = 1500 + 3                          # message 1, then message 2's framing
    assert splits[1].read == 1024 + (shared - 1024) // 128 * 128
    assert splits[1].total == sum(1500 if i == 0 else 300 for i in range(10)) - 260 + 3


def test_a_message_that_grew_is_read_as_far_as_the_words_it_shares():
    """Inside the first differing message only its common start is read, less one token that
    may straddle the point where the two part. The start is short, so it is counted exactly
    (the words after it are long: their share of the message would be far fewer tokens), and
    the prefix ends one token short of a 128-token step, so one token more is a step more."""
    system = msg("system", 1283)
    before = {"role": "user", "content": " ".join(["x"] * 300)}
    after = {"role": "user", "content": " ".join(["x"] * 250 + ["y" * 20] * 100)}
    splits = split_run([[system, before], [system, after]], OPENAI)
    shared = 1283 + 2 + 1 + 250 - 1           # framing: 2 + the role; 250 words, less one
    assert shared == 1024 + 4 * 128 - 1
    assert splits[1].read == 1024 + 3 * 128


def test_the_longest_prefix_of_any_live_earlier_request_is_read():
    a = [msg("system", 2000), msg("user", 1000, "a")]
    b = [msg("system", 2000), msg("user", 500, "b")]
    again = [msg("system", 2000), msg("user", 1000, "a"), msg("user", 10)]
    assert split_run([a, b, again], OPENAI)[2].read == 1024 + (3000 - 1024) // 128 * 128


def test_a_request_that_repeats_an_earlier_one_but_not_the_last_reads_it():
    a = [msg("system", 2000, "a"), msg("user", 100)]
    b = [msg("system", 2000, "b"), msg("user", 100)]
    assert [s.read for s in split_run([a, b, a], OPENAI)] == [0, 0, 1024 + (2100 - 1024) // 128 * 128]


def test_a_message_is_a_prefix_only_where_it_was_sent():
    """The same message sent first in a later request is not the prefix it ended before."""
    first = [msg("system", 2000, "a"), msg("user", 2000, "u")]
    assert [s.read for s in split_run([first, first[1:]], OPENAI)] == [0, 0]


def test_a_long_message_that_only_grew_is_read_as_far_as_it_was_sent():
    """The earlier message is the start of the new one: however long, its tokens are counted
    exactly (the long words added after it would make its share of the message far fewer)."""
    system = msg("system", 1500)
    before = {"role": "user", "content": " ".join(["x"] * 3000)}
    after = {"role": "user", "content": " ".join(["x"] * 3000 + ["y" * 20] * 100)}
    splits = split_run([[system, before], [system, after]], OPENAI)
    shared = 1500 + 3 + 3000 - 1
    assert splits[1].read == 1024 + (shared - 1024) // 128 * 128


@pytest.mark.parametrize("gap, read", [(300.0, 2100), (301.0, 0)])
def test_an_anthropic_entry_lives_five_minutes_after_its_last_hit(gap, read):
    """Request 2 is sent 200 s after the first and reads the system prompt's entry, which
    writes the task's; request 3, `gap` seconds later, reads both while they are alive."""
    s = split_run(full_history(3), ANTHROPIC, [0.0, 200.0, 200.0 + gap])
    assert s[2].read == read


def test_no_caching_family_reads_nothing():
    base = [msg("system", 5000)]
    assert split_run([base, base + [msg("user", 5)]], NONE) == \
        [CacheSplit(0, 0, 5003), CacheSplit(0, 0, 5008)]


def full_history(turns):
    """`full`: every request is the previous one plus a reply and a new user message."""
    requests, messages = [], [msg("system", 2000), msg("user", 100, "task")]
    for i in range(turns):
        requests.append(list(messages))
        messages += [msg("assistant", 200, f"a{i}"), msg("user", 300, f"u{i}")]
    return requests


def test_anthropic_writes_at_the_breakpoint_and_reads_it_in_the_next_request():
    """Breakpoints: the system prompt, and the end of what the request shares with the previous
    one. So request n writes request n-1's messages and request n+1 reads them."""
    s = split_run(full_history(4), ANTHROPIC)
    assert s[0] == CacheSplit(0, 2000, 100 + 3)                 # the system prompt written
    assert s[1] == CacheSplit(2000, 100, 500 + 3)               # ... read; the task written
    assert s[2] == CacheSplit(2100, 500, 500 + 3)
    assert s[3] == CacheSplit(2600, 500, 500 + 3)


def test_anthropic_below_its_minimum_caches_nothing():
    requests = [[msg("system", 1000), msg("user", 10)], [msg("system", 1000), msg("user", 10),
                                                         msg("assistant", 10)]]
    assert [s.read + s.write for s in split_run(requests, ANTHROPIC)] == [0, 0]


def test_anthropic_with_a_rewriting_strategy_reads_the_unchanged_start_only():
    """A strategy that rewrites everything after the task: the shared prefix (system prompt
    and task) is all the breakpoints ever cover."""
    head = [msg("system", 2000), msg("user", 100, "task")]
    requests = [head + [msg("user", 50 + i, f"s{i}")] for i in range(4)]
    s = split_run(requests, ANTHROPIC)
    assert s[0] == CacheSplit(0, 2000, 153)
    assert s[1] == CacheSplit(2000, 100, 51 + 3)
    assert s[2] == CacheSplit(2100, 0, 52 + 3) and s[3] == CacheSplit(2100, 0, 53 + 3)


def test_families_of_models_and_llm_specs():
    assert cache_family("openai:gpt-4.1") == "openai"
    assert cache_family("gpt-5-mini") == "openai" and cache_family("o3") == "openai"
    assert cache_family("anthropic:claude-sonnet-4-5") == "anthropic"
    assert cache_family("openrouter:anthropic/claude-3-haiku") == "anthropic"
    assert cache_family("gemini-2.5-flash") == "gemini"
    assert cache_family("ollama:gpt-oss") == "none"              # local, whatever its name
    assert cache_family("openai:llama3") == "none"
    assert cache_family(None) == "none" and cache_family("scripted:x.py") == "none"
    assert cache_policy("claude-sonnet-4").min_prefix == 1024


@pytest.mark.parametrize("model, tokens", [
    ("claude-opus-4-5", 4096), ("claude-opus-4-6", 4096), ("claude-haiku-4-5", 4096),
    ("claude-sonnet-4-6", 2048), ("claude-3-5-haiku", 2048), ("claude-3-haiku-20240307", 2048),
    ("claude-sonnet-4-5", 1024), ("anthropic:claude-opus-4-1", 1024)])
def test_anthropic_models_cache_from_their_own_minimum(model, tokens):
    """The minimums of Anthropic's prompt-caching page, model by model."""
    assert cache_policy(model).min_prefix == tokens


def test_cache_prices_fill_in_the_family_ratios_only_where_the_model_has_none():
    bare = Price("m", 2.0, 8.0)
    filled = cache_prices(bare, ANTHROPIC)
    assert (filled.cached_input, filled.cache_write) == (pytest.approx(0.2), 2.5)
    own = Price("m", 2.0, 8.0, cached_input=0.5, cache_write=3.0)
    assert cache_prices(own, ANTHROPIC) == own
    assert cache_prices(None, OPENAI) is None
    # uncached 1M, read 1M, written 1M: each at its own rate
    assert cost(filled, 1_000_000, 0, 1_000_000, 1_000_000) == pytest.approx(2.0 + 0.2 + 2.5)


@st.composite
def runs(draw):
    """A run of requests made from a few long messages, sent at increasing times."""
    pool = [msg(role, tokens, word) for role, tokens, word in
            draw(st.lists(st.tuples(st.sampled_from(["system", "user", "assistant"]),
                                    st.integers(4, 900), st.sampled_from("abc")),
                          min_size=1, max_size=6))]
    requests = draw(st.lists(st.lists(st.sampled_from(pool), max_size=8), min_size=1,
                             max_size=8))
    gaps = draw(st.lists(st.floats(0, 400), min_size=len(requests), max_size=len(requests)))
    times = [sum(gaps[:i + 1]) for i in range(len(gaps))]
    return requests, times


@settings(max_examples=150, deadline=None)
@given(runs(), st.sampled_from(sorted(POLICIES)))
def test_cached_never_exceeds_input_and_the_parts_add_up(run, family):
    requests, times = run
    c = counter()
    counts = [c.count_messages(r) for r in requests]
    splits = cache_splits(requests, counts, times, POLICIES[family], c)
    for split, count in zip(splits, counts):
        assert 0 <= split.read <= count.total and split.write >= 0 and split.uncached >= 0
        assert split.total == count.total


@settings(max_examples=150, deadline=None)
@given(runs(), st.sampled_from([f for f, p in POLICIES.items() if p.write_ratio == 1.0]),
       st.floats(0.01, 20), st.floats(0, 1))
def test_without_a_write_premium_caching_never_costs_more(run, family, input_price, ratio):
    requests, times = run
    policy = POLICIES[family]
    price = Price("m", input_price, 1.0, cached_input=input_price * ratio)
    c = counter()
    counts = [c.count_messages(r) for r in requests]
    splits = cache_splits(requests, counts, times, policy, c)
    priced = cache_prices(price, policy)
    for split, count in zip(splits, counts):
        assert cost(priced, split.uncached, 0, split.read, split.write) <= \
            cost(price, count.total) + 1e-12


def test_the_shipped_policies_have_no_write_premium_but_anthropics():
    assert [f for f, p in POLICIES.items() if p.write_ratio > 1] == ["anthropic"]
    assert all(p.read_ratio <= 1 for p in POLICIES.values())
    assert replace(OPENAI, min_prefix=5).caches and not NONE.caches


def test_a_long_common_start_is_taken_as_its_share_of_the_message():
    """Past EXACT_CHARS the common start is not encoded again: its tokens are its share of the
    message's count (exact here, where every word is one token of two characters)."""
    system = msg("system", 1200)
    before = {"role": "user", "content": " ".join(["x"] * 3000 + ["z"] * 10)}
    after = {"role": "user", "content": " ".join(["x"] * 3000 + ["y"] * 1000)}
    splits = split_run([[system, before], [system, after]], OPENAI)
    shared = 1200 + 3 + 3000 - 1
    assert splits[1].read == 1024 + (shared - 1024) // 128 * 128


@given(st.text(alphabet="ab\n", max_size=40), st.text(alphabet="ab\n", max_size=40),
       st.text(alphabet="ab", max_size=40))
def test_the_common_start_of_two_messages_is_found_exactly(start, a, b):
    """Where a rewritten message parts from the one sent before it in its place."""
    first, second = start + a, start + b
    assert _common_chars(first, second) == len(os.path.commonprefix([first, second]))


def test_the_prefix_tree_does_not_keep_every_long_message_sent(monkeypatch):
    """A summarising strategy sends a new long user message each turn; the cache model keeps
    what it needs to find shared prefixes, not the messages (a long run's would weigh as much
    as its file), while it is fed a run one request at a time."""
    import gc
    import tracemalloc
    import engine.tokens.counter as counter_module
    from engine.tokens.caching import RunCache
    monkeypatch.setattr(counter_module, "LONG_TEXTS_KEPT", 0)    # the counter keeps one
    c = counter()
    system = msg("system", 2000)
    gc.collect()
    tracemalloc.start()
    run = RunCache(OPENAI, c)
    splits = []
    for i in range(40):                                   # 40 messages of 40 KB, one by one
        request = [system, {"role": "user", "content": f"summary {i} " + "x " * 20_000}]
        splits.append(run.send(request, c.count_messages(request), 0.0))
    del request
    gc.collect()
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert all(s.read >= 1024 for s in splits[1:])        # the system prompt, read each time
    assert kept < 300_000                                  # not 1.6 MB of messages
