"""Token counts of the messages an LLM received (tiktoken, offline) and what they cost.

    enc = encoding_for_model("gpt-4o")        # enc.name, enc.wanted, enc.note
    counts = TokenCounter(enc).count_messages(messages)   # counts.per_message, counts.total
    cost(price_for("gpt-4o"), counts.total)   # USD, or None when the price is unknown
    call_cost(price, counter, messages, reply, input_tokens=1200, cached_tokens=1024)
                                             # one LLM call; unreported counts are counted
    s = cache_splits(requests, counts, sent_at, cache_policy("openai:gpt-4.1"), counter)[i]
                                             # request i: s.read, s.write, s.uncached tokens
    run_costs(trace.turns, price, counter, model)   # every recorded call of a run priced

Counts are estimates of what a provider bills (see `counter`); a provider's own usage report,
kept by other code, is the real figure.
"""

from .caching import (POLICIES, CachePolicy, CacheSplit, RunCache, cache_policy,
                      cache_prices, cache_splits, sent_times)
from .counter import MessageCounts, TokenCounter
from .encodings import TokenEncoding, encoding_for_model
from .prices import (CallCost, Price, PriceTable, call_cost, cost, load_prices, price_for,
                     total_cost)
from .recorded import (CacheRuns, call_counter, caching_cost, recorded_splits, run_costs,
                       turn_cost)

__all__ = ["POLICIES", "CachePolicy", "CacheRuns", "CacheSplit", "CallCost", "MessageCounts",
           "Price", "PriceTable", "RunCache", "TokenCounter", "TokenEncoding", "cache_policy",
           "cache_prices", "cache_splits", "call_cost", "call_counter", "caching_cost", "cost",
           "encoding_for_model", "load_prices", "price_for", "recorded_splits", "run_costs",
           "sent_times", "total_cost", "turn_cost"]
