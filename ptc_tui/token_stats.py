"""Token view-model of a trace: input tokens of every turn's request under each strategy,
totals, savings against `full`, cost at the model's price with and without prompt caching (the
provider's cache read, write and uncached parts of each request), and the provider's own counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace

from engine.history import STRATEGIES, HistoryOpts, Turn, Usage, iter_requests, render_turns
from engine.llm import MODEL_PROVIDERS
from engine.tokens import (CachePolicy, CacheSplit, CallCost, MessageCounts, Price, TokenCounter,
                           TokenEncoding, cache_policy, cache_prices, cache_splits, call_cost,
                           cost, encoding_for_model, price_for, sent_times)
from engine.trace import Trace

BASELINE = "full"


def strategy_order() -> tuple[str, ...]:
    """Every strategy, the `full` baseline first, then the registry's order."""
    return (BASELINE, *(s for s in STRATEGIES if s != BASELINE))


def turn_status(turn: Turn) -> str:
    """One word for how a turn ended: ok, error, return, fail or no code (a reply cut at the
    output limit is an error, reason `truncated`, whether or not code came before the cut)."""
    if turn.error is not None and turn.error.reason == "truncated":
        return "error"
    if turn.program is None:
        return "no code"
    if turn.error is not None:
        return "error"
    return turn.signal or "ok"


def trace_model(trace: Trace) -> str | None:
    """The model a trace's LLM spec names (`openai:gpt-4o-mini`), None for scripted/replay."""
    prefix, _, rest = trace.agent.llm.partition(":")
    return trace.agent.llm if prefix in MODEL_PROVIDERS and rest.strip() else None


def call_counter(trace: Trace):
    """`counted(turn) -> (input_tokens, output_tokens)`: our own count of a turn's request and
    reply with the encoding of the trace's model (engine.trace.otel's token counts)."""
    counter = TokenCounter(encoding_for_model(trace_model(trace)))
    return lambda turn: (counter.count_messages(turn.messages).total,
                         counter.count(turn.raw_response))


def turn_cost(turn: Turn, price: Price | None, counter: TokenCounter,
              modelled: CacheSplit | None = None) -> CallCost:
    """What `turn`'s LLM call cost: its recorded request and reply at `price`, with the
    provider's usage where reported (else counted with `counter`, and marked counted). Cache
    reads and writes the provider did not report are taken from `modelled` (see `run_costs`);
    without it they are none."""
    u = turn.usage or Usage()
    cached, written = u.cached_tokens, u.cache_write_tokens
    if cached is None and modelled is not None:
        cached, written = modelled.read, modelled.write
    priced = call_cost(price, counter, turn.messages, turn.raw_response,
                       u.input_tokens, u.output_tokens, cached, written)
    if u.cost_usd is None:
        return priced
    return replace(priced, usd=u.cost_usd, usd_reported=True)     # the bill beats our price


def run_costs(turns: Sequence[Turn], price: Price | None, counter: TokenCounter,
              model: str | None, caching: bool = True) -> list[CallCost]:
    """Every recorded LLM call of a run priced (`turn_cost`); with `caching`, at the cache
    prices of `model`'s provider and with the cache model's reads and writes where the provider
    reported none. The one way every recorded run is priced (stats, compare, experiments)."""
    if not caching:
        return [turn_cost(t, price, counter) for t in turns]
    priced = cache_prices(price, cache_policy(model))
    return [turn_cost(t, priced, counter, s)
            for t, s in zip(turns, recorded_splits(turns, counter, model))]


def recorded_splits(turns: Sequence[Turn], counter: TokenCounter,
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
    return None if priced is None else sum(costs)


class CacheRuns:
    """Every strategy's requests of one trace, ready to be split by the cache model of any
    provider family; each (strategy, policy) is split once, on first use."""

    def __init__(self, trace: Trace, requests: Mapping[str, Sequence[Sequence[Mapping]]],
                 counts: Mapping[str, Sequence[MessageCounts]], counter: TokenCounter) -> None:
        self.requests, self.counts, self.counter = requests, counts, counter
        self.times = sent_times(trace.turns)
        self._splits: dict[tuple[str, CachePolicy], tuple[CacheSplit, ...]] = {}

    def splits(self, strategy: str, policy: CachePolicy) -> tuple[CacheSplit, ...]:
        key = (strategy, policy)
        found = self._splits.get(key)
        if found is None:
            found = self._splits[key] = tuple(cache_splits(
                self.requests[strategy], self.counts[strategy], self.times, policy, self.counter))
        return found

    def split_now(self, strategy: str, policy: CachePolicy,
                  requests: Sequence[Sequence[Mapping]], counts: Sequence[MessageCounts]) -> None:
        """Split `strategy`'s requests by `policy` now, keeping the splits, not the requests."""
        self._splits[(strategy, policy)] = tuple(cache_splits(requests, counts, self.times,
                                                              policy, self.counter))


@dataclass(frozen=True)
class TurnTokens:
    number: int
    status: str
    tokens: Mapping[str, int]          # strategy -> input tokens of this turn's request
    reported: int | None               # provider-reported input tokens (recorded request)
    cache: Mapping[str, CacheSplit] = field(default_factory=dict)   # strategy -> its split
    reported_cached: int | None = None  # provider-reported cache reads (recorded request)


@dataclass(frozen=True)
class StrategyTotal:
    strategy: str
    tokens: int
    saved: int                         # tokens fewer than `full` (negative: more)
    saved_percent: float | None        # None when `full` is 0 tokens
    cost: float | None                 # USD of `tokens` as input; None: price unknown
    cached: int = 0                    # of `tokens`, read from the prompt cache (modelled)
    cache_write: int = 0               # of `tokens`, written to it
    cost_with_caching: float | None = None   # USD of the same, each part at its price


@dataclass(frozen=True)
class TokenStats:
    strategies: tuple[str, ...]
    opts: HistoryOpts                  # the options every strategy was rendered with
    model: str | None
    encoding: TokenEncoding
    price: Price | None
    turns: tuple[TurnTokens, ...]
    totals: tuple[StrategyTotal, ...]
    baseline_tokens: int               # total under `full`, requested or not
    policy: CachePolicy | None = None  # the cache model's rules (None: caching not modelled)

    @property
    def has_reported(self) -> bool:
        return any(t.reported is not None for t in self.turns)

    @property
    def reported_total(self) -> int | None:
        """Sum of the provider's counts when every turn has one, else None."""
        counts = [t.reported for t in self.turns]
        return sum(counts) if counts and None not in counts else None

    @property
    def reported_cached_total(self) -> int | None:
        """The provider's cache reads summed when every turn reported them, else None."""
        counts = [t.reported_cached for t in self.turns]
        return sum(counts) if counts and None not in counts else None

    def total(self, strategy: str) -> StrategyTotal:
        return next(t for t in self.totals if t.strategy == strategy)


def history_opts(trace: Trace, overrides: Mapping | None = None) -> HistoryOpts:
    """The trace's own options with `overrides` (None values ignored) applied."""
    changes = {k: v for k, v in (overrides or {}).items() if v is not None}
    return trace.agent.history.with_changes(**changes) if changes else trace.agent.history


def check_strategies(strategies: Sequence[str] | None) -> tuple[str, ...]:
    """The requested strategies, each once, in the order given (default: all, `full` first)."""
    if not strategies:
        return strategy_order()
    for s in strategies:
        if s not in STRATEGIES:
            raise ValueError(f"unknown history strategy {s!r}; known: {', '.join(strategy_order())}")
    return tuple(dict.fromkeys(strategies))


def turn_tokens(trace: Trace, strategy: str, opts: HistoryOpts,
                counter: TokenCounter) -> list[int]:
    """Input tokens of each turn's request under `strategy` (what `stats` reports)."""
    requests = iter_requests(strategy, trace.turns, trace.context(), opts)
    return [counter.count_messages(messages).total for messages, _ in requests]


def token_stats(trace: Trace, strategies: Sequence[str] | None = None,
                overrides: Mapping | None = None, model: str | None = None,
                counter: TokenCounter | None = None, opts: HistoryOpts | None = None,
                caching: bool = True) -> TokenStats:
    """Token counts of `trace` under each strategy, with `opts` (else the trace's options with
    `overrides`). `model` (else the trace's LLM) picks the encoding, the price and the cache
    model (`caching=False`: costs without it); pass a `counter` kept per trace and encoding to
    reuse its cache."""
    chosen = check_strategies(strategies)
    opts = opts if opts is not None else history_opts(trace, overrides)
    model = model or trace_model(trace)
    if counter is None:
        counter = TokenCounter(encoding_for_model(model))
    # one strategy's requests at a time, dropped once counted and split: a long run's
    # requests under every strategy take many times its file's size
    policy = cache_policy(model)
    runs = CacheRuns(trace, {}, {}, counter) if caching else None
    per_strategy = {}
    for s in dict.fromkeys((BASELINE, *chosen)):
        requests = [m for m, _ in render_turns(s, trace.turns, trace.context(), opts)]
        counts = [counter.count_messages(m) for m in requests]
        per_strategy[s] = [c.total for c in counts]
        if runs is not None and policy is not None and s in chosen:
            runs.split_now(s, policy, requests, counts)
        del requests, counts
    return stats_from_counts(trace, chosen, opts, model, counter.encoding,
                             price_for(model) if model else None, per_strategy,
                             runs, policy)


def stats_from_counts(trace: Trace, strategies: Sequence[str], opts: HistoryOpts,
                      model: str | None, encoding: TokenEncoding, price: Price | None,
                      per_strategy: Mapping[str, Sequence[int]],
                      runs: CacheRuns | None = None,
                      policy: CachePolicy | None = None) -> TokenStats:
    """TokenStats from the input tokens of each turn under each of `strategies` (and `full`),
    for callers that already counted them (the app counts every strategy it shows once).
    With `runs` and `policy`, each request is also split by the cache model and priced so."""
    baseline = sum(per_strategy[BASELINE])
    splits = {s: runs.splits(s, policy) for s in strategies} if runs and policy else {}
    totals = []
    for s in strategies:
        total = sum(per_strategy[s])
        saved = baseline - total
        mine = splits.get(s, ())
        totals.append(StrategyTotal(s, total, saved,
                                    100.0 * saved / baseline if baseline else None,
                                    cost(price, total), sum(x.read for x in mine),
                                    sum(x.write for x in mine),
                                    caching_cost(price, policy, mine) if splits else None))
    turns = tuple(
        TurnTokens(t.number, turn_status(t), {s: per_strategy[s][i] for s in strategies},
                   t.usage.input_tokens if t.usage is not None else None,
                   {s: splits[s][i] for s in splits},
                   t.usage.cached_tokens if t.usage is not None else None)
        for i, t in enumerate(trace.turns))
    return TokenStats(tuple(strategies), opts, model, encoding, price, turns, tuple(totals),
                      baseline, policy if splits else None)


def stats_json(stats: TokenStats) -> dict:
    """The stats as plain JSON-ready data (`ptc-tui stats --json`)."""
    enc = stats.encoding
    price = stats.price
    return {
        "model": stats.model,
        "encoding": {"name": enc.name, "wanted": enc.wanted, "note": enc.note or None},
        "price": None if price is None else {
            "model": price.model, "input_per_million": price.input,
            "cached_input_per_million": price.cached_input, "output_per_million": price.output},
        "options": {k: v for k, v in asdict(stats.opts).items() if k != "strategy"},
        "strategies": list(stats.strategies),
        "caching": caching_json(stats.policy),
        "turns": [turn_json(t, stats.policy is not None) for t in stats.turns],
        "totals": {t.strategy: total_json(t, stats) for t in stats.totals},
        "full_input_tokens": stats.baseline_tokens,
        "reported_input_tokens": stats.reported_total,
        "reported_cached_tokens": stats.reported_cached_total,
    }


def caching_json(policy: CachePolicy | None) -> dict | None:
    """The cache model's rules (None: costs without caching, `--no-cache`)."""
    if policy is None:
        return None
    caches = policy.caches
    return {"family": policy.family, "min_prefix_tokens": policy.min_prefix if caches else None,
            "granularity_tokens": policy.granularity, "lifetime_seconds": policy.lifetime_s,
            "breakpoints": policy.breakpoints}


def turn_json(t: TurnTokens, caching: bool) -> dict:
    doc = {"turn": t.number, "status": t.status, "input_tokens": dict(t.tokens),
           "reported_input_tokens": t.reported}
    if caching:
        doc["cached_tokens"] = {s: split.read for s, split in t.cache.items()}
        doc["cache_write_tokens"] = {s: split.write for s, split in t.cache.items()}
        doc["reported_cached_tokens"] = t.reported_cached
    return doc


def total_json(t: StrategyTotal, stats: TokenStats) -> dict:
    doc = {"input_tokens": t.tokens, "saved_tokens": t.saved,
           "saved_percent": None if t.saved_percent is None else round(t.saved_percent, 2),
           "cost_usd": t.cost}
    if stats.policy is not None:
        full = stats.total(BASELINE).cost_with_caching if BASELINE in stats.strategies else None
        doc.update(cached_tokens=t.cached, cache_write_tokens=t.cache_write,
                   cost_with_caching_usd=t.cost_with_caching,
                   saved_percent_with_caching=saving_percent(full, t.cost_with_caching))
    return doc


def saving_percent(baseline: float | None, value: float | None) -> float | None:
    """How much less `value` is than `baseline`, in percent of it (None: either unknown)."""
    if baseline is None or value is None or baseline == 0:
        return None
    return round(100.0 * (baseline - value) / baseline, 2)
