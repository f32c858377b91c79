"""TokenScreen: per-turn input tokens of every strategy as one chart, totals, savings and cost
at a price model the user picks, with the provider's prompt caching or without (`c`); dismissed
with the picked model so the caller can keep it."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Select, Static

from engine.tokens import PriceTable, load_prices
from ptc_tui.view.token_chart import MARK, ColumnChart
from ptc_tui.view.formats import cost_text, percent_text
from ptc_tui.view.tokens import TokenView, TotalRow
from ptc_tui.view.trace_view import TraceView
from ptc_tui.widgets.literal import escape_controls, literal
from ptc_tui.widgets.token_columns import TokenColumns

STRATEGY_STYLES = {"full": "bright_blue", "coalesced": "green", "namespaced": "magenta",
                   "compaction": "yellow"}
SPARE_STYLES = ("cyan", "red", "bright_white")
TOTAL_COLUMNS = ("strategy", "input tokens", "saved vs full", "saved %", "through turn {turn}",
                 "cost", "saved")
CACHING_COLUMNS = ("cost with caching", "saved")
NO_PRICES = PriceTable("unknown", "", {})


def strategy_style(name: str, strategies: tuple[str, ...]) -> str:
    """A distinct colour per strategy, the same in the legend, the bars and the totals."""
    if name in STRATEGY_STYLES:
        return STRATEGY_STYLES[name]
    extra = [s for s in strategies if s not in STRATEGY_STYLES]
    return SPARE_STYLES[extra.index(name) % len(SPARE_STYLES)]


def legend_text(strategies: tuple[str, ...], turn: int, cached: bool = False) -> Text:
    """The strategies' colours, the selected turn, and what dim means when a column has a
    part read from the prompt cache."""
    text = Text()
    for name in strategies:
        text.append("■ ", strategy_style(name, strategies))
        text.append(f"{name}   ")
    text.append(f"{MARK} turn {turn}: selected in the main view", "bold")
    if cached:
        text.append("   ")
        text.append("█", "dim")
        text.append(" dim: read from the prompt cache")
    return text


def total_cells(row: TotalRow, strategies: tuple[str, ...],
                recorded: str | None) -> tuple[Text, ...]:
    """A strategy's totals, named `recorded` when they are what the trace was recorded with
    (its strategy, every limit as recorded), else `what-if`; each cost with its saving against
    `full`'s, the cost with caching too when it is on."""
    said = "recorded" if row.strategy == recorded else "what-if"
    name = f"{row.strategy} ({said}{', shown' * row.current})"
    cells = [Text(name, strategy_style(row.strategy, strategies)),
             *(Text(text, justify="right") for text in (
                 f"{row.tokens:,}", f"{row.saved:,}", percent_text(row.saved_percent),
                 f"{row.through:,}", cost_text(row.cost), percent_text(row.cost_saved_percent)))]
    if row.caching:
        cells += [Text(cost_text(row.cost_with_caching), justify="right"),
                  Text(percent_text(row.caching_saved_percent), justify="right")]
    return tuple(cells)


class TokenScreen(ModalScreen[str | None]):
    """Tokens of every strategy under the main view's options; `m`/`M` change price model."""

    DEFAULT_CSS = """
    TokenScreen {
        align: center middle;
        #token-dialog {
            width: 96%; height: 94%;
            border: round $primary; border-title-color: $text;
            background: $surface; padding: 0 1;
        }
        #token-model { height: auto; }
        #token-model-select { width: 44; }
        #token-price { width: 1fr; padding: 0 0 0 2; }
        #token-legend { height: auto; }
        #token-summary { height: auto; text-style: bold; }
        #token-totals { height: auto; max-height: 8; }
        #token-reported { height: auto; color: $text-muted; }
    }
    """

    BINDINGS = [
        Binding("escape,q", "close", "Close", id="tokens.close"),
        Binding("m", "step_model(1)", "Next model", id="tokens.next_model"),
        Binding("M", "step_model(-1)", "Previous model", id="tokens.previous_model"),
        Binding("c", "toggle_caching", "Caching on/off", id="tokens.caching",
                tooltip="Show costs with the provider's prompt caching, or without it"),
    ]
    AUTO_FOCUS = "#token-chart"

    tokens: var[TokenView | None] = var(None, init=False)

    def __init__(self, view: TraceView, turn: int, model: str | None = None,
                 caching: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.turn = turn
        recorded = view.recorded_opts
        # only the recorded strategy's counts are recorded, and only under the recorded limits
        self.recorded = (recorded.strategy if view.opts.with_changes(strategy=recorded.strategy)
                         == recorded else None)
        self.problems: list[tuple[str, str]] = []     # (message, severity), shown once mounted
        try:
            table = load_prices()
        except ValueError as e:
            table = NO_PRICES
            self.problems.append((f"{e}; costs are unknown", "warning"))
        try:
            self.set_reactive(TokenScreen.tokens, TokenView.of(view, table, model, caching))
        except Exception as e:       # a trace the counts cannot be made for: say so, don't crash
            self.problems.append((f"token view: {e}", "error"))

    def compose(self) -> ComposeResult:
        tokens = self.tokens
        if tokens is None:
            return
        with Vertical(id="token-dialog") as dialog:
            dialog.border_title = f"Input tokens per turn · {len(tokens.stats.turns)} turns"
            with Horizontal(id="token-model"):
                # the trace's own model name is trace text: shown literally, never as markup
                yield Select(tuple((literal(label), i) for i, label in enumerate(tokens.labels())),
                             allow_blank=False, value=tokens.choices.index(tokens.model),
                             compact=True, id="token-model-select")
                yield Static(tokens.price_line(), id="token-price", markup=False)
            yield Static(tokens.summary(), id="token-summary", markup=False)
            yield Static(legend_text(tokens.stats.strategies, self.turn,
                                     any(map(any, self.chart_of(tokens).cached))),
                         id="token-legend")
            strategies = tokens.stats.strategies
            yield TokenColumns(self.chart_of(tokens),
                               {s: strategy_style(s, strategies) for s in strategies},
                               id="token-chart")
            yield DataTable(id="token-totals", cursor_type="none", zebra_stripes=True)
            yield Static(tokens.reported_text() or "no provider-reported counts in this trace",
                         id="token-reported", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        for message, severity in self.problems:
            self.notify(escape_controls(message), severity=severity, markup=False)
        if self.tokens is None:
            self.dismiss(None)
            return
        self.watch_tokens(self.tokens)

    def watch_tokens(self, tokens: TokenView) -> None:
        chart = self.chart_of(tokens)
        self.query_one("#token-model-select", Select).value = tokens.choices.index(tokens.model)
        self.query_one("#token-price", Static).update(tokens.price_line())
        self.query_one("#token-summary", Static).update(tokens.summary())
        self.query_one("#token-legend", Static).update(
            legend_text(tokens.stats.strategies, self.turn, any(map(any, chart.cached))))
        self.query_one("#token-chart", TokenColumns).show(chart)
        table = self.query_one("#token-totals", DataTable)
        table.clear(columns=True)
        table.add_columns(*(label.format(turn=self.turn) for label in TOTAL_COLUMNS),
                          *(CACHING_COLUMNS if tokens.caching else ()))
        table.add_rows(total_cells(row, tokens.stats.strategies, self.recorded)
                       for row in tokens.totals(self.turn))

    def chart_of(self, tokens: TokenView) -> ColumnChart:
        return ColumnChart.of(tokens.stats, self.turn, tokens.turn_cache() if tokens.caching else ())

    def on_select_changed(self, event: Select.Changed) -> None:
        if self.tokens is not None and isinstance(event.value, int):
            self.tokens = self.tokens.with_model(self.tokens.choices[event.value])

    def action_step_model(self, step: int) -> None:
        if self.tokens is not None:
            self.tokens = self.tokens.step_model(step)

    def action_toggle_caching(self) -> None:
        """Costs with prompt caching or without, here and in the main screen's header, for
        every trace opened while the app runs."""
        if self.tokens is not None:
            self.tokens = self.tokens.with_caching(not self.tokens.caching)
            self.app.caching = self.tokens.caching

    def action_close(self) -> None:
        self.dismiss(self.tokens.model if self.tokens is not None else None)
