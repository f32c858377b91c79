"""TokenView: the token view-model of a trace: per-turn counts for each strategy (and the part
the provider's prompt cache would serve), totals, savings and cost at a chosen model's price,
with prompt caching or without, all plain data (no Textual, no Rich)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from engine.history import BASELINE, strategy_order
from engine.llm import spec_model
from engine.tokens import (CachePolicy, CacheRuns, CacheSplit, Price, PriceTable, cache_policy,
                           caching_cost, cost)
from engine.tokens.models import bare_model
from ptc_tui.view.formats import cost_text, count_text, per_million_text, percent_text
from ptc_tui.view.renders import Rendering
from ptc_tui.view.token_stats import TokenStats, saving_percent, stats_from_counts
from ptc_tui.view.trace_view import TraceView


def price_text(price: Price | None) -> str:
    return "unknown" if price is None else f"{per_million_text(price.input)} input"


@dataclass(frozen=True)
class TotalRow:
    strategy: str
    tokens: int
    saved: int                 # fewer than `full` (negative: more)
    saved_percent: float | None
    cost: float | None         # None: price unknown
    current: bool              # the strategy the main view shows
    through: int               # input tokens of the turns up to the selected one (cumulative)
    cost_saved_percent: float | None = None    # cost less than `full`'s, in % of it
    cached: int = 0            # of `tokens`, read from the prompt cache (caching on)
    cache_write: int = 0       # of `tokens`, written to it
    cost_with_caching: float | None = None     # None: caching off, or price unknown
    caching_saved_percent: float | None = None # cost with caching less than `full`'s, in %
    caching: bool = False      # the caching figures are made (caching on)

    @property
    def shown_cost(self) -> float | None:
        """The cost the screen goes by: with caching when it is on."""
        return self.cost_with_caching if self.caching else self.cost

    @property
    def shown_saving(self) -> float | None:
        return self.caching_saved_percent if self.caching else self.cost_saved_percent


def model_choices(own: str | None, table: PriceTable) -> tuple[str | None, ...]:
    """The trace's own model first (None for scripted/replay traces), then the priced ones."""
    return (own, *(name for name in table.models if name != bare_model(own)))


def model_label(name: str | None, own: bool = False) -> str:
    """A price model's name for the picker; the trace's own model says so."""
    if name is None:
        return "no model (prices unknown)"
    return f"{name} (the trace's)" if own else name


@dataclass(frozen=True)
class RenderedRuns:
    """Every strategy's rendering under the main view's options, split by the cache model as
    `CacheRuns` splits them, each kept with its rendering (`Rendering.cache_splits`)."""
    renderings: Mapping[str, Rendering]

    def splits(self, strategy: str, policy: CachePolicy) -> tuple[CacheSplit, ...]:
        return self.renderings[strategy].cache_splits(policy)


@dataclass(frozen=True)
class TokenView:
    stats: TokenStats
    table: PriceTable
    choices: tuple[str | None, ...]
    model: str | None          # the model whose prices are shown
    current: str               # the main view's strategy
    recorded: str              # the strategy the trace was run with
    runs: CacheRuns | RenderedRuns | None = field(default=None, compare=False, repr=False)
    caching: bool = True       # costs with the provider's prompt caching (else without)

    @classmethod
    def of(cls, view: TraceView, table: PriceTable, model: str | None = None,
           caching: bool = True) -> "TokenView":
        """Counts under the view's options with its counter: the trace's encoding, whatever
        model is later picked for prices (so they match the main screen and stay cached)."""
        strategies = strategy_order()
        # the main view's renderings, cached per strategy: nothing is rendered or counted twice
        renderings = {s: view.with_strategy(s).rendering for s in strategies}
        counts = {s: r.counts for s, r in renderings.items()}
        per_strategy = {s: [c.total for c in counts[s]] for s in strategies}
        own = spec_model(view.trace.agent.llm)
        stats = stats_from_counts(view.trace, strategies, view.opts, own,
                                  view.renders.counter.encoding, None, per_strategy)
        runs = RenderedRuns(renderings)
        choices = model_choices(own, table)
        chosen = model if model in choices else choices[0]
        return cls(stats, table, choices, chosen, view.strategy,
                   view.trace.agent.history.strategy, runs, caching)

    def with_model(self, model: str | None) -> "TokenView":
        return replace(self, model=model)

    def with_caching(self, caching: bool) -> "TokenView":
        return replace(self, caching=caching)

    @property
    def policy(self) -> CachePolicy:
        """The prompt-cache rules of the chosen model's provider."""
        return cache_policy(self.model)

    def splits(self, strategy: str) -> tuple[CacheSplit, ...]:
        """Each turn's request under `strategy` split by the cache model (all uncached when
        caching is off)."""
        if not self.caching or self.runs is None:
            return tuple(CacheSplit(0, 0, t.tokens[strategy]) for t in self.stats.turns)
        return self.runs.splits(strategy, self.policy)

    def turn_cache(self) -> tuple[dict[str, CacheSplit], ...]:
        """Per turn, each strategy's request split into cached and uncached parts."""
        per_strategy = {s: self.splits(s) for s in self.stats.strategies}
        return tuple({s: per_strategy[s][i] for s in per_strategy}
                     for i in range(len(self.stats.turns)))

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
        """One row per strategy; `through` sums the turns up to `selected` (all when None).
        Costs are without caching and, when it is on, with it; each with its saving against
        `full`'s cost of the same kind."""
        price, policy = self.price, self.policy
        turns = [t for t in self.stats.turns if selected is None or t.number <= selected]
        full = cost(price, self.stats.baseline_tokens)
        full_caching = caching_cost(price, policy, self.splits(BASELINE)) if self.caching \
            else None
        rows = []
        for t in self.stats.totals:
            plain = cost(price, t.tokens)
            row = TotalRow(t.strategy, t.tokens, t.saved, t.saved_percent, plain,
                           t.strategy == self.current,
                           sum(turn.tokens[t.strategy] for turn in turns),
                           saving_percent(full, plain))
            if self.caching:
                splits = self.splits(t.strategy)
                with_caching = caching_cost(price, policy, splits)
                row = replace(row, cached=sum(s.read for s in splits),
                              cache_write=sum(s.write for s in splits),
                              cost_with_caching=with_caching,
                              caching_saved_percent=saving_percent(full_caching, with_caching),
                              caching=True)
            rows.append(row)
        return tuple(rows)

    def summary(self) -> str:
        """One line for the top of the screen: the shown strategy's cost and its saving against
        `full`, with caching or without, and which of the two it is."""
        if not self.caching:
            how = "without prompt caching (c: with)"
        elif self.policy.family == "none":      # a local model, or a provider not known
            how = "with prompt caching (none known for this model; c: without)"
        else:
            how = f"with prompt caching ({self.policy.family} rules; c: without)"
        row = next((r for r in self.totals() if r.current), None)
        if row is None:
            return f"costs {how}"
        saved = row.shown_saving
        if saved is None:
            change = "saving against full unknown"
        elif saved >= 0:
            change = f"saves {percent_text(saved)} against full"
        else:
            change = f"costs {percent_text(-saved)} more than full"
        return f"{row.strategy}: {cost_text(row.shown_cost)}, {change} · costs {how}"

    def reported_text(self) -> str | None:
        """The provider's own input-token count (of the requests as sent), when recorded."""
        turns = self.stats.turns
        counted = [t.reported for t in turns if t.reported is not None]
        if not counted:
            return None
        text = f"provider-reported input tokens (as sent, {self.recorded}): {sum(counted):,}"
        text = text if len(counted) == len(turns) else \
            f"{text} for {len(counted)} of {len(turns)} turns"
        cached = self.reported_cache_text()
        return f"{text} · {cached}" if cached else text

    def reported_cache_text(self) -> str | None:
        """The provider's cache reads beside the model's for the same requests (the recorded
        strategy, under the trace's own model), so a user sees how close the model is."""
        pairs = [(t.reported_cached, i) for i, t in enumerate(self.stats.turns)
                 if t.reported_cached is not None]
        if not pairs or self.runs is None or self.recorded not in self.stats.strategies:
            return None
        splits = self.runs.splits(self.recorded, cache_policy(trace_model_of(self)))
        modelled = sum(splits[i].read for _, i in pairs)
        return (f"cached: {sum(n for n, _ in pairs):,} reported, {modelled:,} by the cache "
                f"model ({count_text(len(pairs), 'turn')})")


def trace_model_of(tokens: TokenView) -> str | None:
    """The trace's own model (the first choice), whatever price model is picked."""
    return tokens.choices[0]
