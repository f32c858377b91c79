"""TokenView: the token view-model of a trace: per-turn counts for each strategy, totals, savings
and cost at a chosen model's price, all plain data (no Textual, no Rich)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.tokens import Price, PriceTable, cost, usd_text
from engine.tokens.models import bare_model
from ptc_tui.token_stats import TokenStats, stats_from_counts, strategy_order, trace_model
from ptc_tui.view.trace_view import TraceView

def cost_text(value: float | None) -> str:
    """`$0.000613`: three significant figures, or `unknown` when the price is unknown."""
    return usd_text(value)


def price_text(price: Price | None) -> str:
    return "unknown" if price is None else f"${price.input:g}/M input"


def percent_text(percent: float | None) -> str:
    return "—" if percent is None else f"{percent:.1f}%"


@dataclass(frozen=True)
class TotalRow:
    strategy: str
    tokens: int
    saved: int                 # fewer than `full` (negative: more)
    saved_percent: float | None
    cost: float | None         # None: price unknown
    current: bool              # the strategy the main view shows
    through: int               # input tokens of the turns up to the selected one (cumulative)


def model_choices(own: str | None, table: PriceTable) -> tuple[str | None, ...]:
    """The trace's own model first (None for scripted/replay traces), then the priced ones."""
    return (own, *(name for name in table.models if name != bare_model(own)))


def model_label(name: str | None, own: bool = False) -> str:
    """A price model's name for the picker; the trace's own model says so."""
    if name is None:
        return "no model (prices unknown)"
    return f"{name} (the trace's)" if own else name


@dataclass(frozen=True)
class TokenView:
    stats: TokenStats
    table: PriceTable
    choices: tuple[str | None, ...]
    model: str | None          # the model whose prices are shown
    current: str               # the main view's strategy
    recorded: str              # the strategy the trace was run with

    @classmethod
    def of(cls, view: TraceView, table: PriceTable, model: str | None = None) -> "TokenView":
        """Counts under the view's options with its counter: the trace's encoding, whatever
        model is later picked for prices (so they match the main screen and stay cached)."""
        strategies = strategy_order()
        # the main view's renderings, cached per strategy: nothing is rendered or counted twice
        per_strategy = {s: [c.total for c in view.with_strategy(s).rendering.counts]
                        for s in strategies}
        stats = stats_from_counts(view.trace, strategies, view.opts, trace_model(view.trace),
                                  view.renders.counter.encoding, None, per_strategy)
        choices = model_choices(trace_model(view.trace), table)
        chosen = model if model in choices else choices[0]
        return cls(stats, table, choices, chosen, view.strategy,
                   view.trace.agent.history.strategy)

    def with_model(self, model: str | None) -> "TokenView":
        return replace(self, model=model)

    def step_model(self, step: int) -> "TokenView":
        i = self.choices.index(self.model) if self.model in self.choices else 0
        return self.with_model(self.choices[(i + step) % len(self.choices)])

    @property
    def price(self) -> Price | None:
        return self.table.price_for(self.model)

    @property
    def encoding(self) -> str:
        return self.stats.encoding.name

    def labels(self) -> tuple[str, ...]:
        """The picker's entries, in the order of `choices`."""
        return tuple(model_label(name, i == 0) for i, name in enumerate(self.choices))

    def price_line(self) -> str:
        """The chosen model, its input price and how the counts were made."""
        note = self.stats.encoding.note
        return (f"{price_text(self.price)} · prices as of {self.table.as_of} · "
                f"counted with {self.encoding} whatever the price model"
                + (f" ({note})" if note else ""))

    def totals(self, selected: int | None = None) -> tuple[TotalRow, ...]:
        """One row per strategy; `through` sums the turns up to `selected` (all when None)."""
        price = self.price
        turns = [t for t in self.stats.turns if selected is None or t.number <= selected]
        return tuple(TotalRow(t.strategy, t.tokens, t.saved, t.saved_percent,
                              cost(price, t.tokens), t.strategy == self.current,
                              sum(turn.tokens[t.strategy] for turn in turns))
                     for t in self.stats.totals)

    def reported_text(self) -> str | None:
        """The provider's own input-token count (of the requests as sent), when recorded."""
        turns = self.stats.turns
        counted = [t.reported for t in turns if t.reported is not None]
        if not counted:
            return None
        text = f"provider-reported input tokens (as sent, {self.recorded}): {sum(counted):,}"
        return text if len(counted) == len(turns) else \
            f"{text} for {len(counted)} of {len(turns)} turns"
