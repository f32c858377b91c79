"""Token counts of chat messages, with each distinct text encoded once per counter.

The counts estimate what a provider bills for the prompt: content and role tokens plus the chat
format's fixed overhead, the way OpenAI's cookbook counts them for current models
("How to count tokens with tiktoken"): 3 tokens per message, 1 more (plus the name's own tokens)
when a message has a "name", and 3 for priming the reply. Other providers frame messages
differently and Anthropic's tokenizer is not public, so for them it is an approximation. The
usage a provider reports is the real figure; other code keeps it beside these estimates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter

from .encodings import TokenEncoding, encoding_for_model

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING = 3

# Where a long text is cut so that its count is the sum of its lines' counts: after a newline,
# before a character that is neither white space nor "/". tiktoken cuts a text into pieces with
# its encoding's regular expression before merging, and in cl100k_base and o200k_base no piece
# runs on past such a point (a run of newlines ends a piece unless white space follows, or in
# o200k a "/"). Property tests check the sum against the whole text's count.
LINE_START = re.compile(r"(?<=\n)(?=[^\s/])")
SPLIT_FROM = 2048      # characters: a shorter text is encoded whole
# Characters of long texts whose whole counts are kept, the oldest let go first: more than any
# one request holds (a million tokens is about 4 MB), far less than a long run's summaries.
LONG_TEXTS_KEPT = 4_000_000


@dataclass(frozen=True, slots=True)
class MessageCounts:
    """Tokens per message, each including its chat overhead; `total` adds the reply priming."""

    per_message: tuple[int, ...]
    total: int


class TokenCounter:
    """Counts tokens with a cache keyed by text, so an unchanged message is never re-encoded.

    Renders of one trace repeat most of their messages (a conversation grows by a turn at a
    time; summaries change rarely), so after the first render a count is mostly dict lookups.
    A long new text is counted line by line, its lines cached too: a summary that repeats most
    of the last one's lines (a strategy's re-render after an option change) costs the encoding
    of its new lines only. The cache lives as long as the counter: keep one counter per trace
    and encoding. A long text's whole count is kept only among the latest LONG_TEXTS_KEPT
    characters of long texts: a summarising strategy sends a new long summary every turn, which
    no later request repeats, and keeping them all would hold as much as the run's file (its
    lines stay cached: counting one again costs a split and lookups).
    """

    def __init__(self, encoding: TokenEncoding | None = None) -> None:
        self.encoding = encoding if encoding is not None else encoding_for_model(None)
        self._cache: dict[str | None, int] = {}       # texts shorter than SPLIT_FROM
        self._long: dict[str, int] = {}               # the latest long texts, oldest first
        self._long_chars = 0

    def count(self, text: str) -> int:
        """Tokens in `text` alone, without chat overhead."""
        n = self._cache.get(text)
        return self._lookup([text])[0] if n is None else n

    def count_many(self, texts: Iterable[str]) -> list[int]:
        """Tokens in each text; the ones not seen before are encoded together, once each."""
        return self._lookup(list(texts))

    def count_messages(self, messages: Sequence[Mapping[str, str]]) -> MessageCounts:
        """Counts of `{"role", "content"[, "name"]}` messages as one request's prompt.

        A content of None (an assistant message that only calls tools) counts as empty.
        """
        roles = self._lookup(list(map(_role, messages)))
        contents = self._lookup(list(map(_content, messages)))
        per_message = [TOKENS_PER_MESSAGE + r + c for r, c in zip(roles, contents)]
        for i in [i for i, m in enumerate(messages) if "name" in m]:
            per_message[i] += TOKENS_PER_NAME + self.count(messages[i]["name"])
        return MessageCounts(tuple(per_message), sum(per_message) + REPLY_PRIMING)

    def _lookup(self, texts: list[str | None]) -> list[int]:
        # One dict probe per text: hashing a re-rendered (new but equal) string is most of the
        # cost of a hit, so probing twice (once to find the misses, once to read) would show.
        cache = self._cache
        counts = list(map(cache.get, texts))
        if None in counts:
            long = self._long
            counts = [long.get(t) if n is None and t else n for t, n in zip(texts, counts)]
        if None in counts:
            missing = list(dict.fromkeys(t for t, n in zip(texts, counts) if n is None))
            found = dict(zip(missing, self._encode([t or "" for t in missing])))
            for text, n in found.items():
                if text is not None and len(text) >= SPLIT_FROM:
                    self._keep_long(text, n)
                else:
                    cache[text] = n
            counts = [found[t] if n is None else n for t, n in zip(texts, counts)]
        return counts

    def _keep_long(self, text: str, n: int) -> None:
        long = self._long
        long[text] = n
        self._long_chars += len(text)
        while self._long_chars > LONG_TEXTS_KEPT and len(long) > 1:
            oldest = next(iter(long))
            self._long_chars -= len(oldest)
            del long[oldest]

    def _encode(self, texts: list[str]) -> list[int]:
        """Counts of texts not in the cache: a long one as the sum of its lines' (looked up, so
        only lines never seen are encoded), the others encoded whole, together."""
        counts: list[int | None] = []
        for text in texts:
            lines = LINE_START.split(text) if len(text) >= SPLIT_FROM else ()
            counts.append(sum(self._lookup(lines)) if len(lines) > 1 else None)
        encoded = iter(self.encoding.count_many([t for t, n in zip(texts, counts) if n is None]))
        return [next(encoded) if n is None else n for n in counts]


_role = itemgetter("role")
_content = itemgetter("content")
