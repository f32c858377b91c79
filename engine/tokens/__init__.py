"""Token counts of the messages an LLM received (tiktoken, offline) and what they cost.

    enc = encoding_for_model("gpt-4o")        # enc.name, enc.wanted, enc.note
    counts = TokenCounter(enc).count_messages(messages)   # counts.per_message, counts.total
    cost(price_for("gpt-4o"), counts.total)   # USD, or None when the price is unknown
    call_cost(price, counter, messages, reply, input_tokens=1200, cached_tokens=1024)
                                             # one LLM call; unreported counts are counted
    s = cache_splits(requests, counts, sent_at, cache_policy("openai:gpt-4.1"), counter)[i]
                                             # request i: s.read, s.write, s.uncached tokens
    usd_text(0.000613)                       # "$0.000613": three significant figures

Counts are estimates of what a provider bills (see `counter`); a provider's own usage report,
kept by other code, is the real figure.
"""

from .caching import (POLICIES, CachePolicy, CacheSplit, RunCache, cache_policy,
                      cache_prices, cache_splits, sent_times)
from .counter import MessageCounts, TokenCounter
from .encodings import TokenEncoding, encoding_for_model
from .prices import (CallCost, Price, PriceTable, call_cost, cost, load_prices, price_for,
                     total_cost, usd_text)

__all__ = ["POLICIES", "CachePolicy", "CacheSplit", "CallCost", "MessageCounts", "Price",
           "PriceTable", "RunCache", "TokenCounter", "TokenEncoding", "cache_policy",
           "cache_prices", "cache_splits", "call_cost", "cost", "encoding_for_model",
           "load_prices", "price_for", "sent_times", "total_cost", "usd_text"]
