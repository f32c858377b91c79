"""TraceScreen: one loaded trace: header, turn list and the three panes of the selected turn.
The screen owns the view (strategy and limits) and the selected turn; widgets bind to them."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer

from ptc_tui.view import TraceView, TurnView
from ptc_tui.widgets import MemoryPanel, MessagePanel, ProgramPanel, TraceHeader, TurnList

STRATEGY_CYCLE = ("full", "coalesced", "namespaced", "compaction")


class TraceScreen(Screen):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]

    BINDINGS = [
        Binding("j,down", "move(1)", "Next", id="turns.next"),
        Binding("k,up", "move(-1)", "Previous", id="turns.previous"),
        Binding("g", "first", "First", id="turns.first", show=False),
        Binding("G", "last", "Last", id="turns.last", show=False),
        Binding("]", "failed(1)", "Next failed", id="turns.next_failed"),
        Binding("[", "failed(-1)", "Prev failed", id="turns.previous_failed"),
        Binding("s", "cycle_strategy", "Strategy", id="view.strategy"),
        Binding("p", "limit('println_limit', 1)", "println+", id="view.println_more"),
        Binding("P", "limit('println_limit', -1)", "println−", id="view.println_less",
                show=False),
        Binding("t", "limit('tool_call_limit', 1)", "tools+", id="view.tool_calls_more"),
        Binding("T", "limit('tool_call_limit', -1)", "tools−", id="view.tool_calls_less",
                show=False),
    ]

    view: reactive[TraceView | None] = reactive(None, init=False)
    turn: reactive[int] = reactive(1, init=False)
    current: reactive[TurnView | None] = reactive(None, init=False)

    def __init__(self, view: TraceView, **kwargs) -> None:
        super().__init__(**kwargs)
        self.set_reactive(TraceScreen.view, view)
        numbers = view.turns
        self.set_reactive(TraceScreen.turn, min(numbers) if numbers else 0)
        self.set_reactive(TraceScreen.current, self._turn_view())

    def compose(self) -> ComposeResult:
        yield TraceHeader().data_bind(TraceScreen.view)
        with Horizontal(id="body"):
            yield TurnList(id="turn-list").data_bind(TraceScreen.view, TraceScreen.turn)
            with Horizontal(id="panes"):
                yield ProgramPanel(id="program").data_bind(TraceScreen.current)
                yield MessagePanel(id="messages").data_bind(TraceScreen.current)
                yield MemoryPanel(id="memory").data_bind(TraceScreen.current)
        yield Footer()

    # --- state ------------------------------------------------------------------------------
    @property
    def numbers(self) -> list[int]:
        return [t.number for t in self.view.trace.turns]

    def _turn_view(self) -> TurnView | None:
        return self.view.turn(self.turn) if self.turn in self.view.turns else None

    def watch_view(self) -> None:
        self.current = self._turn_view()

    def watch_turn(self) -> None:
        self.current = self._turn_view()

    def on_turn_list_selected(self, event: TurnList.Selected) -> None:
        self.turn = event.number

    # --- actions ------------------------------------------------------------------------------
    def _go(self, number: int | None) -> None:
        if number is not None and number in self.view.turns:
            self.turn = number

    def action_move(self, step: int) -> None:
        numbers = self.numbers
        if numbers:
            i = numbers.index(self.turn) + step
            self._go(numbers[max(0, min(i, len(numbers) - 1))])

    def action_first(self) -> None:
        self._go(self.numbers[0] if self.numbers else None)

    def action_last(self) -> None:
        self._go(self.numbers[-1] if self.numbers else None)

    def action_failed(self, direction: int) -> None:
        found = (self.view.next_failed(self.turn) if direction > 0
                 else self.view.previous_failed(self.turn))
        if found is None:
            self.notify("no more failed turns", severity="information")
        self._go(found)

    def action_cycle_strategy(self) -> None:
        now = self.view.strategy
        i = STRATEGY_CYCLE.index(now) if now in STRATEGY_CYCLE else -1
        self.view = self.view.with_strategy(STRATEGY_CYCLE[(i + 1) % len(STRATEGY_CYCLE)])

    def action_limit(self, name: str, step: int) -> None:
        value = getattr(self.view.opts, name) + step
        if value < 0:
            self.notify(f"{name} is already 0", severity="warning")
            return
        self.view = self.view.with_options(**{name: value})
