"""Token view-model of a trace: input tokens of every turn's request under each strategy,
totals, savings against `full`, cost at the model's price, and the provider's own counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from engine.history import STRATEGIES, HistoryOpts, Turn, Usage, iter_requests
from engine.tokens import (CallCost, Price, TokenCounter, TokenEncoding, call_cost, cost,
                           encoding_for_model, price_for)
from engine.trace import Trace

BASELINE = "full"
# LLM spec prefixes that name a real model (the others, scripted: and replay:, name a file).
MODEL_PROVIDERS = ("openai", "anthropic", "openrouter", "ollama")


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


def turn_cost(turn: Turn, price: Price | None, counter: TokenCounter) -> CallCost:
    """What `turn`'s LLM call cost: its recorded request and reply at `price`, with the
    provider's usage where reported (else counted with `counter`, and marked counted)."""
    u = turn.usage or Usage()
    return call_cost(price, counter, turn.messages, turn.raw_response,
                     u.input_tokens, u.output_tokens, u.cached_tokens)


@dataclass(frozen=True)
class TurnTokens:
    number: int
    status: str
    tokens: Mapping[str, int]          # strategy -> input tokens of this turn's request
    reported: int | None               # provider-reported input tokens (recorded request)


@dataclass(frozen=True)
class StrategyTotal:
    strategy: str
    tokens: int
    saved: int                         # tokens fewer than `full` (negative: more)
    saved_percent: float | None        # None when `full` is 0 tokens
    cost: float | None                 # USD of `tokens` as input; None: price unknown


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

    @property
    def has_reported(self) -> bool:
        return any(t.reported is not None for t in self.turns)

    @property
    def reported_total(self) -> int | None:
        """Sum of the provider's counts when every turn has one, else None."""
        counts = [t.reported for t in self.turns]
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
                counter: TokenCounter | None = None, opts: HistoryOpts | None = None) -> TokenStats:
    """Token counts of `trace` under each strategy, with `opts` (else the trace's options with
    `overrides`). `model` (else the trace's LLM) picks the encoding and the price; pass a
    `counter` kept per trace and encoding to reuse its cache."""
    chosen = check_strategies(strategies)
    opts = opts if opts is not None else history_opts(trace, overrides)
    model = model or trace_model(trace)
    if counter is None:
        counter = TokenCounter(encoding_for_model(model))
    per_strategy = {s: turn_tokens(trace, s, opts, counter)
                    for s in dict.fromkeys((BASELINE, *chosen))}
    return stats_from_counts(trace, chosen, opts, model, counter.encoding,
                             price_for(model) if model else None, per_strategy)


def stats_from_counts(trace: Trace, strategies: Sequence[str], opts: HistoryOpts,
                      model: str | None, encoding: TokenEncoding, price: Price | None,
                      per_strategy: Mapping[str, Sequence[int]]) -> TokenStats:
    """TokenStats from the input tokens of each turn under each of `strategies` (and `full`),
    for callers that already counted them (the app counts every strategy it shows once)."""
    baseline = sum(per_strategy[BASELINE])
    totals = []
    for s in strategies:
        total = sum(per_strategy[s])
        saved = baseline - total
        totals.append(StrategyTotal(s, total, saved,
                                    100.0 * saved / baseline if baseline else None,
                                    cost(price, total)))
    turns = tuple(
        TurnTokens(t.number, turn_status(t), {s: per_strategy[s][i] for s in strategies},
                   t.usage.input_tokens if t.usage is not None else None)
        for i, t in enumerate(trace.turns))
    return TokenStats(tuple(strategies), opts, model, encoding, price, turns, tuple(totals),
                      baseline)


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
        "turns": [{"turn": t.number, "status": t.status, "input_tokens": dict(t.tokens),
                   "reported_input_tokens": t.reported} for t in stats.turns],
        "totals": {t.strategy: {"input_tokens": t.tokens, "saved_tokens": t.saved,
                                "saved_percent": None if t.saved_percent is None
                                else round(t.saved_percent, 2),
                                "cost_usd": t.cost} for t in stats.totals},
        "full_input_tokens": stats.baseline_tokens,
        "reported_input_tokens": stats.reported_total,
    }
