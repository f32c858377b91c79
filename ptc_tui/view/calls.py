"""The LLM call of a turn as it was recorded: which model answered, input and output tokens (the
provider's, else counted and said so), LLM and program time, cost and why the reply ended; and
the run's totals of the same. Plain data for the program pane's call line and the header."""

from __future__ import annotations

from dataclasses import dataclass

from engine.history import Turn
from engine.llm import spec_model
from engine.tokens import (CacheSplit, PriceTable, TokenCounter, cache_policy, cache_prices,
                           load_prices, turn_cost)
from engine.trace import Trace


@dataclass(frozen=True)
class CallView:
    model: str                 # the model the provider said answered, else the run's LLM
    input_tokens: int
    input_counted: bool        # counted here: the provider did not report it
    output_tokens: int
    output_counted: bool
    cached_tokens: int         # of input_tokens, read from the provider's cache
    llm_ms: float
    run_ms: float
    cost: float | None         # None: the model's price is unknown
    finish_reason: str | None  # None: not reported
    cost_reported: bool = False    # the cost reported with the call, not priced here


@dataclass(frozen=True)
class RunTotals:
    input_tokens: int
    output_tokens: int
    counted: bool              # some of the tokens were counted here, not reported
    llm_ms: float
    run_ms: float
    cost: float | None         # None when any turn's price is unknown
    cost_reported: bool = False    # every turn's cost was reported with its call


def call_view(turn: Turn, trace: Trace, counter: TokenCounter, prices: PriceTable,
              modelled: CacheSplit | None = None) -> CallView:
    """The call of `turn`, priced as every recorded call is (`turn_cost`), with the prompt-cache
    model's split `modelled` where the provider reported no cache figures. A turn a fork took
    over from its parent names the parent's LLM, where the fork recorded it."""
    response = turn.response
    answered = response.model if response is not None and response.model else None
    llm = trace.agent.llm
    if trace.parent is not None and trace.parent.llm and turn.number < trace.parent.turn:
        llm = trace.parent.llm
    priced = answered or spec_model(llm)
    price = prices.price_for(priced) if priced else None
    c = turn_cost(turn, cache_prices(price, cache_policy(priced)), counter, modelled)
    return CallView(answered or llm, c.input_tokens, c.input_counted,
                    c.output_tokens, c.output_counted, c.cached_tokens, turn.llm_ms,
                    turn.run_ms, c.usd, response.finish_reason if response is not None else None,
                    c.usd_reported)


def run_totals(calls: list[CallView]) -> RunTotals:
    costs = [c.cost for c in calls]
    return RunTotals(sum(c.input_tokens for c in calls), sum(c.output_tokens for c in calls),
                     any(c.input_counted or c.output_counted for c in calls),
                     sum(c.llm_ms for c in calls), sum(c.run_ms for c in calls),
                     None if None in costs else sum(costs),
                     bool(calls) and all(c.cost_reported for c in calls))


def ms_text(ms: float) -> str:
    """`840 ms`, `1.2 s`."""
    return f"{ms / 1000:.1f} s" if ms >= 1000 else f"{ms:.0f} ms"


def prices_or_none() -> PriceTable:
    """The price table, or an empty one (every cost unknown) when the user's is broken: the
    token view says what is wrong with it."""
    try:
        return load_prices()
    except ValueError:
        return NO_PRICES


NO_PRICES = PriceTable("unknown", "", {})
