"""Prompt caching as providers bill it: which part of each request of a run is read from the
provider's cache, which part is written to it and which is billed in full.

    policy = cache_policy("openai:gpt-4.1")                 # the provider family's rules
    splits = cache_splits(requests, counts, sent_at, policy, counter)
    splits[3].read, splits[3].write, splits[3].uncached     # tokens of request 4
    cost(cache_prices(price, policy), s.uncached, 0, s.read, s.write)   # what it cost

A request is served from the cache for the longest prefix it shares with an earlier request of
the same run whose cache entry is still alive (`lifetime_s` after its last use), cut to the
provider's minimum and granularity. Prefixes are compared message by message (a dict probe
each); only the first message that differs is looked into, against the message the latest
request sent in its place, for the characters they share (counted when short, else taken as
their share of the message's count: nothing long is encoded again).

Families (checked 2026-11-25; sources beside each):
- openai: automatic for every request of 1,024 tokens and more, hits in 128-token steps; entries
  live 5-10 minutes after their last use (we take 5); no write premium; cached input at the
  model's `cached_input` (25-50% of input for gpt-4.1/gpt-4o, 10% for gpt-5)
  (platform.openai.com/docs/guides/prompt-caching, .../docs/pricing).
- anthropic: only prefixes ending at a `cache_control` breakpoint are cached; the client puts
  one on the system prompt and one on the last message of the prefix the request shares with
  the previous one (what the strategy did not rewrite). Reads at 10% of input, writes at 125%
  (the 5-minute cache, refreshed on every hit); 1,024 tokens at least, more for some models
  (platform.claude.com/docs/en/build-with-claude/prompt-caching, .../about-claude/pricing).
- gemini: implicit caching of repeated prefixes from 1,024 tokens (2.5 Flash; Pro wants more),
  hits at 25% of input, no write premium; lifetime not documented, we take 5 minutes
  (ai.google.dev/gemini-api/docs/caching).
- none: local models (ollama), unknown providers and scripted runs: nothing is cached.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

from .counter import TOKENS_PER_MESSAGE, MessageCounts, TokenCounter
from .models import bare_model, starts_family
from .prices import Price

NEVER = 1 << 62        # a minimum prefix no request reaches: nothing is cached
EXACT_CHARS = 4096     # a differing message's common start up to this long is counted exactly


@dataclass(frozen=True)
class CachePolicy:
    """How one provider family caches prompts and bills the cache."""

    family: str                # "openai", "anthropic", "gemini" or "none"
    min_prefix: int            # tokens: a shorter prefix is never cached
    granularity: int           # a cache hit is min_prefix plus a multiple of this
    lifetime_s: float          # an entry lives this long after its last use
    read_ratio: float          # cached input / input price, for a model without cached_input
    write_ratio: float         # written input / input price, for a model without cache_write
    breakpoints: bool          # only prefixes ending at a breakpoint are cached (Anthropic)
    min_prefix_by_model: tuple[tuple[str, int], ...] = ()   # (model family, its minimum)

    @property
    def caches(self) -> bool:
        return self.min_prefix < NEVER

    def for_model(self, model: str | None) -> "CachePolicy":
        """This policy with the model's own minimum prefix, when it has one."""
        name = bare_model(model)
        own = [(k, n) for k, n in self.min_prefix_by_model if starts_family(name, k)]
        if not own:
            return self
        return replace(self, min_prefix=max(own, key=lambda kn: len(kn[0]))[1])


POLICIES: Mapping[str, CachePolicy] = {
    "openai": CachePolicy("openai", 1024, 128, 300.0, 0.5, 1.0, False),
    "anthropic": CachePolicy("anthropic", 1024, 1, 300.0, 0.1, 1.25, True, (
        # larger minimums on the models' pages (checked 2026-11-25)
        ("claude-opus-4-5", 4096), ("claude-opus-4-6", 4096), ("claude-haiku-4-5", 4096),
        ("claude-sonnet-4-6", 2048), ("claude-3-5-haiku", 2048), ("claude-3-haiku", 2048))),
    "gemini": CachePolicy("gemini", 1024, 1, 300.0, 0.25, 1.0, False),
    "none": CachePolicy("none", NEVER, 1, 0.0, 1.0, 1.0, False),
}
OPENAI_FAMILIES = ("gpt", "chatgpt", "o1", "o3", "o4")
LOCAL_PROVIDERS = ("ollama",)


def cache_family(model: str | None) -> str:
    """The caching family of an LLM spec or model name (`openai:gpt-4.1`, `claude-sonnet-4`)."""
    spec = (model or "").strip().lower()
    if spec.split(":", 1)[0] in LOCAL_PROVIDERS:
        return "none"
    name = bare_model(spec)
    if name.startswith("claude"):
        return "anthropic"
    if name.startswith("gemini"):
        return "gemini"
    if any(starts_family(name.split("-")[0], f) for f in OPENAI_FAMILIES):
        return "openai"
    return "none"


def cache_policy(model: str | None) -> CachePolicy:
    """The caching rules the provider of `model` applies (family "none" when unknown)."""
    return POLICIES[cache_family(model)].for_model(model)


def cache_prices(price: Price | None, policy: CachePolicy) -> Price | None:
    """`price` with the family's ratios filled in where the model has no cached_input or
    cache_write price of its own, so that `cost()` prices every part of a split."""
    if price is None:
        return None
    return replace(price,
                   cached_input=price.cached_input if price.cached_input is not None
                   else price.input * policy.read_ratio,
                   cache_write=price.cache_write if price.cache_write is not None
                   else price.input * policy.write_ratio)


@dataclass(frozen=True, slots=True)
class CacheSplit:
    """One request's input tokens: read from the cache, written to it, and billed in full."""

    read: int
    write: int
    uncached: int

    @property
    def total(self) -> int:
        return self.read + self.write + self.uncached


def sent_times(turns: Sequence) -> list[float]:
    """Seconds from the run's start at which each turn's request was sent (turns have
    `llm_ms` and `run_ms`: the LLM call and the program that followed it)."""
    times, now = [], 0.0
    for t in turns:
        times.append(now)
        now += (t.llm_ms + t.run_ms) / 1000
    return times


def cache_splits(requests: Sequence[Sequence[Mapping]], counts: Sequence[MessageCounts],
                 sent_at: Sequence[float], policy: CachePolicy,
                 counter: TokenCounter) -> list[CacheSplit]:
    """Each request of one run split into cache read, write and uncached tokens.

    `counts[i]` are request i's token counts (per message; their total is the input), sent at
    `sent_at[i]` seconds. Pure: the same requests give the same splits.
    """
    cache = RunCache(policy, counter)
    return [cache.send(messages, c, t) for messages, c, t in zip(requests, counts, sent_at)]


class RunCache:
    """The cache model of one run fed a request at a time, in the order they were sent: for
    requests asked for turn by turn (`cache_splits` splits them all at once)."""

    def __init__(self, policy: CachePolicy, counter: TokenCounter) -> None:
        self._cache = _PrefixCache(policy, counter) if policy.caches else None

    def send(self, messages: Sequence[Mapping], counts: MessageCounts,
             now: float) -> CacheSplit:
        """The split of the next request (`counts` its token counts, sent at `now` s)."""
        if self._cache is None:
            return CacheSplit(0, 0, counts.total)
        return self._cache.send(messages, counts, now)


class _PrefixCache:
    """The prefixes a run has sent, as a tree of messages: node 0 is the empty prefix, and
    `children[(node, role, digest of the content, name)]` the prefix one message longer (a
    digest, not the text: a long run under a summarising strategy sends a new long message
    every turn, and the tree would keep them all, as large as the run's file). `used[node]` is
    when a request last sent the prefix (automatic caching) or last hit or wrote its entry
    (breakpoints)."""

    def __init__(self, policy: CachePolicy, counter: TokenCounter) -> None:
        self.policy, self.counter = policy, counter
        self.children: dict[tuple, int] = {}
        self.latest: dict[int, tuple[tuple, int]] = {}   # node -> the last message sent after it
        self.used: dict[int, float] = {}
        self.previous: list[int] = []          # the path of the previous request
        self.previous_messages: Sequence[Mapping] = ()
        self.previous_time = -math.inf

    def alive(self, node: int, now: float) -> bool:
        used = self.used.get(node)
        return used is not None and now - used <= self.policy.lifetime_s

    def path(self, messages: Sequence[Mapping]) -> tuple[list[int], list[tuple], int]:
        """The nodes of every prefix of `messages` (created where new), shortest first;
        (node, message, child) where this request parts from the previous one; and how many
        messages it shares with the previous one."""
        before = self.previous_messages
        if list(messages[:len(before)]) == list(before):
            k = len(before)             # the history only grew (one comparison in C)
        else:
            k = 0
            while k < len(before) and k < len(messages) and messages[k] == before[k]:
                k += 1                  # as the previous request: its nodes, nothing hashed
        path, children, followed = self.previous[:k], self.children, []
        node = path[-1] if path else 0
        for m in messages[k:]:
            key = (m.get("role"), m.get("content"), m.get("name"))
            edge = (node, key[0], _digest(key[1]), key[2])
            child = children.get(edge)
            if child is None:
                child = children[edge] = len(children) + 1
            followed.append((node, key, child))
            path.append(child)
            node = child
        return path, followed, k

    def send(self, messages: Sequence[Mapping], counts: MessageCounts, now: float) -> CacheSplit:
        path, followed, as_before = self.path(messages)
        ends = list(accumulate(counts.per_message))   # tokens of each prefix, overhead included
        if self.policy.breakpoints:
            read, write = self._breakpoints(messages, path, ends, now, as_before)
        else:
            read, write = self._automatic(messages, path, ends, now, as_before), 0
        for node, key, child in followed:
            self.latest[node] = (key, child)
        self.previous, self.previous_messages, self.previous_time = path, messages, now
        return CacheSplit(read, write, counts.total - read - write)

    def _automatic(self, messages, path, ends, now, as_before: int) -> int:
        """Every prefix sent is cached; a hit is the shared prefix cut to the granularity.
        The `as_before` messages shared with the previous request were all sent with it."""
        used, oldest = self.used, now - self.policy.lifetime_s
        k = as_before if self.previous_time >= oldest else 0
        while k < len(path) and used.get(path[k], -math.inf) >= oldest:
            k += 1
        shared = ends[k - 1] if k else 0
        # the first differing message is looked into only when it could add to the hit
        if k < len(messages) and self._hit(ends[k]) > self._hit(shared):
            shared += self._partial(messages[k], path[k - 1] if k else 0, now)
        used.update(dict.fromkeys(path, now))
        return self._hit(shared)

    def _hit(self, shared: int) -> int:
        """The tokens a provider serves from a shared prefix of `shared` tokens."""
        p = self.policy
        if shared < p.min_prefix:
            return 0
        return p.min_prefix + (shared - p.min_prefix) // p.granularity * p.granularity

    def _partial(self, message: Mapping, parent: int, now: float) -> int:
        """Tokens at the start of `message` that the message the latest request sent in its
        place shares, if its entry is alive: the framing when the role is the same, and the
        tokens of their common characters less one (the token that may straddle where they
        part). Those are counted when they are the whole earlier message (counted already) or
        short; a long common start that is not is taken as its share of the message's count
        (within about 10% on the samples), so that nothing long is ever encoded again."""
        latest = self.latest.get(parent)
        if latest is None:
            return 0
        (role, other, _), child = latest
        if role != message.get("role") or not self.alive(child, now):
            return 0
        content = message.get("content") or ""
        same = _common_chars(content, other or "")
        framing = TOKENS_PER_MESSAGE - 1 + self.counter.count(role or "")
        if not same:
            return framing
        if same == len(other or "") or same <= EXACT_CHARS:
            tokens = self.counter.count(content[:same])
        else:
            tokens = self.counter.count(content) * same // len(content)
        return framing + max(tokens - 1, 0)

    def _breakpoints(self, messages, path, ends, now, as_before: int) -> tuple[int, int]:
        """Breakpoints at the system prompt and at the end of the `as_before` messages shared
        with the previous request; the longest alive entry at or before the last one is read,
        the rest up to it written (when it is long enough to be cached at all)."""
        system = 1 if messages and messages[0].get("role") == "system" else 0
        marks = {i for i in (system, as_before) if i and ends[i - 1] >= self.policy.min_prefix}
        if not marks:
            return 0, 0
        last = max(marks)
        hit = next((i for i in range(last, 0, -1) if self.alive(path[i - 1], now)), 0)
        read = ends[hit - 1] if hit else 0
        if hit:
            self.used[path[hit - 1]] = now
        for i in marks:
            self.used[path[i - 1]] = now
        return read, ends[last - 1] - read


def _digest(content: str | None) -> bytes | None:
    """A message's content told apart from any other by 16 bytes (BLAKE2b)."""
    if content is None:
        return None
    return hashlib.blake2b(content.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _common_chars(a: str, b: str) -> int:
    """Length of the longest common prefix of `a` and `b`: a binary search comparing only the
    half still in doubt (slices compared in C; about twice the shorter string copied in all)."""
    low, high = 0, min(len(a), len(b))      # a[:low] == b[:low]; they differ before high + 1
    while low < high:
        mid = (low + high + 1) // 2
        if a[low:mid] == b[low:mid]:
            low = mid
        else:
            high = mid - 1
    return low
