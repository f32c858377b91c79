"""Token statistics of a trace: input tokens of every turn's request under each history
strategy, totals, savings against `full`, cost at a model's price with and without prompt
caching (the provider's cache read, write and uncached parts of each request), and the
provider's own counts. The `stats` command and the token screen both read them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from engine.history import BASELINE, STRATEGIES, HistoryOpts, iter_requests, strategy_order
from engine.llm import spec_model
from engine.tokens import (CachePolicy, CacheRuns, CacheSplit, Price, TokenCounter, TokenEncoding,
                           cache_policy, caching_cost, cost, encoding_for_model, price_for)
from engine.trace import Trace
from ptc_tui.view.renders import with_parents_requests
from ptc_tui.view.status import turn_status


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
            raise ValueError(f"unknown history strategy {s!r}; "
                             f"known: {', '.join(strategy_order())}")
    return tuple(dict.fromkeys(strategies))


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
    model = model or spec_model(trace.agent.llm)
    if counter is None:
        counter = TokenCounter(encoding_for_model(model))
    # one request at a time, dropped once counted and split: a long run's requests under one
    # strategy take many times its file's size
    policy = cache_policy(model)
    runs = CacheRuns(trace.turns, {}, {}, counter) if caching else None
    per_strategy = {}
    for s in dict.fromkeys((BASELINE, *chosen)):
        totals = per_strategy[s] = []
        requests = iter_requests(s, trace.turns, trace.context(), opts)
        if opts.with_changes(strategy=s) == trace.agent.history:
            requests = with_parents_requests(trace, requests)
        counted = _counted(requests, counter, totals)
        if runs is not None and policy is not None and s in chosen:
            runs.split_now(s, policy, counted)
        else:
            for _ in counted:
                pass
    return stats_from_counts(trace, chosen, opts, model, counter.encoding,
                             price_for(model) if model else None, per_strategy,
                             runs, policy)


def _counted(requests: Iterator, counter: TokenCounter, totals: list[int]) -> Iterator:
    """(messages, their counts) of each of `requests` in turn, each total added to `totals`."""
    for messages, _ in requests:
        counts = counter.count_messages(messages)
        totals.append(counts.total)
        yield messages, counts


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


def saving_percent(baseline: float | None, value: float | None) -> float | None:
    """How much less `value` is than `baseline`, in percent of it (None: either unknown)."""
    if baseline is None or value is None or baseline == 0:
        return None
    return round(100.0 * (baseline - value) / baseline, 2)
