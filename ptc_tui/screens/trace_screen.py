"""TraceScreen: one loaded trace: header, turn list and the three panes of the selected turn.
The screen owns the view (strategy and limits) and the selected turn; widgets bind to them."""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from pathlib import Path

from textual import work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import ProgressBar, Select
from textual.worker import get_current_worker

from engine.history import strategy_order
from engine.llm import spec_model
from engine.trace import Trace, TraceError
from ptc_tui.screens.diff_screen import DiffScreen
from ptc_tui.screens.pane_layout import PaneLayoutActions
from ptc_tui.screens.trace_actions import TraceActions, every_turn
from ptc_tui.screens.turn_navigation import TurnNavigation
from ptc_tui.screens.run_info_screen import RunInfoScreen
from ptc_tui.screens.token_screen import TokenScreen
from ptc_tui.view import Header, MessagePane, TraceView, TurnRow, TurnView
from ptc_tui.view.run_info import run_info
from ptc_tui.widgets import (MemoryPanel, MessagePanel, ProgramPanel, TraceHeader, TurnList,
                             escape_controls)
from ptc_tui.widgets.memory_panel import MemoryPane
from ptc_tui.widgets.options_panel import OptionsPanel
from ptc_tui.widgets.steady_footer import SteadyFooter

STRATEGY_CYCLE = strategy_order()        # `s` goes round them; `full` is the baseline
COUNTING_NOTE_S = 0.2                    # how often the count of every turn says how far it is
# A first screen's lines that are not turn rows: the header (4), the footer, the turn list's
# border (2) and its column header (a test checks this against the layout). The counting bar
# shows only once the count has taken COUNTING_NOTE_S.
NOT_TURN_ROWS = 8


def turn_rows_shown(height: int) -> int:
    """How many turn rows a first screen `height` lines tall shows: the turns the loader
    counts before it (at least the first, whose panes it shows)."""
    return max(1, height - NOT_TURN_ROWS)


class TraceScreen(TurnNavigation, PaneLayoutActions, TraceActions, Screen):
    # program and messages wider than memory from 140 columns, all three as wide from 200
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide"), (200, "-roomy")]

    BINDINGS = [
        Binding("j,down", "move(1)", "Next turn", id="turns.next", show=False),
        Binding("k,up", "move(-1)", "Previous turn", id="turns.previous", show=False),
        Binding("g", "first", "First turn", id="turns.first", show=False),
        Binding("G", "last", "Last turn", id="turns.last", show=False),
        Binding("]", "failed(1)", "Next failed", id="turns.next_failed", show=False),
        Binding("[", "failed(-1)", "Previous failed", id="turns.previous_failed", show=False),
        Binding("colon", "go_to", "Go to turn", id="turns.go_to", show=False),
        Binding("slash", "search", "Search", id="turns.search"),
        Binding("s", "cycle_strategy", "Strategy", id="view.strategy"),
        Binding("p", "limit('println_limit', 1)", "println+", id="view.println_more",
                tooltip="println_limit + 1: one more println call kept in the history"),
        Binding("P", "limit('println_limit', -1)", "println−", id="view.println_less",
                show=False, tooltip="println_limit − 1: one println call fewer"),
        Binding("t", "limit('tool_call_limit', 1)", "tools+", id="view.tool_calls_more",
                show=False, tooltip="tool_call_limit + 1: one more tool call kept"),
        Binding("T", "limit('tool_call_limit', -1)", "tools−", id="view.tool_calls_less",
                show=False, tooltip="tool_call_limit − 1: one tool call fewer"),
        Binding("o", "options", "Options", id="view.options"),
        Binding("escape", "close_options", "Close options", id="view.close_options",
                show=False),
        Binding("R", "recorded_options", "Recorded options", id="view.recorded",
                tooltip="back to the options the trace was recorded with (leave a what-if)"),
        Binding("r", "toggle_reply", "Reply", id="view.reply",
                tooltip="the model's whole reply, or its first lines (a click on it too)"),
        Binding("e", "toggle_whole_request", "Whole request", id="view.whole_request",
                show=False, tooltip="the request as sent, the system prompt unfolded and no "
                "message cut short of 5,000 lines; again: folded"),
        Binding("v,dollar_sign", "tokens", "Tokens", id="view.tokens"),
        Binding("d", "diff", "Diff", id="view.diff"),
        Binding("i", "run_info", "Run info", id="trace.run_info", show=False,
                tooltip="the run as recorded: outcome, every LLM call and its cost; for a "
                        "reference run also its workflow's own calls"),
        Binding("y", "copy_message", "Copy message", id="trace.copy_message", show=False),
        Binding("w", "copy_reply", "Copy reply", id="trace.copy_reply", show=False,
                tooltip="the model's whole reply, as it wrote it"),
        Binding("Y", "copy_request", "Copy request (JSON)", id="trace.copy_request", show=False),
        Binding("ctrl+s", "save", "Save", id="trace.save"),
        Binding("E", "export", "Export OTLP", id="trace.export", show=False,
                tooltip="the trace as OpenTelemetry OTLP/JSON"),
        Binding("f", "fork", "Fork here", id="trace.fork",
                tooltip="fork the run at this turn: earlier turns kept as recorded, this one "
                "on run again under another LLM or options (a what-if)"),
        Binding("F", "compare_parent", "Compare with parent", id="trace.compare_parent",
                show=False, tooltip="a fork against the run it was forked from, turn by turn"),
        *PaneLayoutActions.LAYOUT_BINDINGS,
    ]

    @dataclass
    class Counted(Message):
        """Every turn of `view` is counted: the turn list and the header can follow."""
        view: TraceView
        rows: tuple[TurnRow, ...]
        header: Header

    @dataclass
    class Broken(Message):
        """Reading `view`'s turns stopped at a broken one: `error` says which and why."""
        view: TraceView
        error: str

    @dataclass
    class Counting(Message):
        """`done` of `view`'s turns are counted so far."""
        view: TraceView
        done: int

    view: var[TraceView | None] = var(None, init=False)
    turn: var[int] = var(1, init=False)
    current: var[TurnView | None] = var(None, init=False)
    turn_rows: var[tuple[TurnRow, ...]] = var((), init=False)
    header_info: var[Header | None] = var(None, init=False)
    reply_open: var[bool] = var(False, init=False)
    whole_request: var[bool] = var(False, init=False)
    upcoming: var[MessagePane | None] = var(None, init=False)

    def __init__(self, view: TraceView, *, source: Path | None = None,
                 parent_trace: Trace | None = None, parent_name: str = "parent",
                 save_to: Path | None = None, price_model: str | None = None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.source = source                        # the file the trace was read from
        self.save_to = save_to                      # where ctrl+s offers to save it
        self.parent_trace = parent_trace            # a fork made here: the run it came from
        self.parent_name = parent_name
        self.saved_turns = len(view.trace.turns)     # turns already in a file
        self.price_model = price_model               # the token view's chosen model
        self.set_reactive(TraceScreen.view, view)
        numbers = view.turns
        self.set_reactive(TraceScreen.turn, min(numbers) if numbers else 0)
        self.set_reactive(TraceScreen.current, self._turn_view())
        counted = view.all_counted          # else counted in the background once mounted
        self.set_reactive(TraceScreen.turn_rows, self.shown_rows(
            view.rows() if counted else view.rows_so_far()))
        self.set_reactive(TraceScreen.header_info, self.shown_header(
            view.header() if counted else view.header_so_far()))

    def compose(self) -> ComposeResult:
        yield TraceHeader().data_bind(TraceScreen.header_info)
        yield ProgressBar(total=max(1, len(self.view.trace.turns)), show_eta=False,
                          id="counting")
        with Horizontal(id="body"):
            yield TurnList(id="turn-list").data_bind(TraceScreen.turn_rows, TraceScreen.turn)
            with Horizontal(id="panes"):
                yield ProgramPanel(id="program").data_bind(TraceScreen.current,
                                                           TraceScreen.reply_open)
                yield MessagePanel(id="messages").data_bind(
                    TraceScreen.current, TraceScreen.upcoming, TraceScreen.whole_request)
                with MemoryPane(id="memory-pane"):
                    yield MemoryPanel(id="memory").data_bind(TraceScreen.current)
            yield OptionsPanel(self.view.opts, id="options")
        yield SteadyFooter(id="footer", compact=True)

    def on_mount(self) -> None:
        if not self.view.all_counted:      # once the first screen is drawn: not competing
            self.call_after_refresh(self._count_after_first_screen, self.view)
        else:
            self.header_info = self.shown_header(self.view.header(self.caching_model))
            # The trace read and counted stays while the screen is open: Python's garbage
            # collector no longer goes through it (else each full collection did: ~130 ms,
            # every few keys on the 200-turn benchmark trace). Undone on unmount.
            gc.freeze()

    # --- state ------------------------------------------------------------------------------
    @property
    def numbers(self) -> list[int]:
        return list(self.view.turns)

    def _turn_view(self) -> TurnView | None:
        return self.view.turn(self.turn) if self.turn in self.view.turns else None

    @property
    def unsaved(self) -> bool:
        """Turns recorded here (a live run) that no file holds yet."""
        return len(self.view.trace.turns) > self.saved_turns

    @property
    def strategies(self) -> tuple[str, ...]:
        return STRATEGY_CYCLE

    @property
    def caching_model(self) -> str | None:
        """The model whose provider's prompt caching the header's cost saving is figured
        with: the token view's price model, else the trace's LLM; None when the user switched
        caching off (`c` in the token view)."""
        if not self.app.caching:
            return None
        return self.price_model or spec_model(self.view.trace.agent.llm)

    def watch_view(self, view: TraceView) -> None:
        """The selected turn first (its panes count one request), then every other count."""
        self.current = self._turn_view()
        if self.is_mounted:
            self.query_one(OptionsPanel).show_opts(view.opts)
            self.query_one("#counting", ProgressBar).update(progress=0)
        self.count_turns(view, self.caching_model)

    def _count_after_first_screen(self, view: TraceView) -> None:
        if view is self.view:                    # else a change already counts the new view
            self.count_turns(view, self.caching_model)

    # a description, else Textual builds one from repr(view): the whole trace
    @work(thread=True, exclusive=True, group="counts", description="count every turn")
    def count_turns(self, view: TraceView, caching_model: str | None) -> None:
        """Read (a long trace's turns are decoded as first needed), render and count every
        turn, saying how far it got every COUNTING_NOTE_S; each turn's panes are made once
        too, so their texts are ready when a key shows the turn; then the header's totals
        (with `caching_model`'s prompt caching, see `caching_model`). A broken turn stops it
        with a Broken message."""
        worker = get_current_worker()
        noted = time.monotonic()
        try:
            for i, number in enumerate(view.turns):
                if worker.is_cancelled:              # a newer change supersedes this one
                    return
                view.rendering.count(i), view.full_rendering.count(i), view.turn(number)
                if time.monotonic() - noted >= COUNTING_NOTE_S:
                    self.post_message(self.Counting(view, i + 1))
                    noted = time.monotonic()
            self.post_message(self.Counted(view, view.rows(), view.header(caching_model)))
        except TraceError as e:
            self.post_message(self.Broken(view, str(e)))

    def on_trace_screen_broken(self, event: Broken) -> None:
        if event.view is self.view:
            self.turn_rows = self.shown_rows(self.view.rows_so_far())
            self.query_one("#counting", ProgressBar).display = False
            self._show_broken(event.error)

    def _show_broken(self, error: str) -> None:
        self.notify(escape_controls(" ".join(error.split())), title="broken trace: the turns before it are shown",
                    severity="error", timeout=30, markup=False)

    def readable(self) -> bool:
        """Whether every turn can be read. A long trace's turns are decoded when first needed;
        a broken one is an error notification here instead."""
        turns = self.view.turns
        try:
            if turns:
                turns[max(turns)]
        except TraceError as e:
            self._show_broken(str(e))
            return False
        return True

    def on_trace_screen_counting(self, event: Counting) -> None:
        if event.view is self.view:
            bar = self.query_one("#counting", ProgressBar)
            bar.update(progress=event.done)
            bar.display = True

    def on_trace_screen_counted(self, event: Counted) -> None:
        if event.view is self.view:              # not a view already replaced by another
            self.turn_rows = self.shown_rows(event.rows)
            self.header_info = self.shown_header(event.header)
            self.query_one("#counting", ProgressBar).display = False
            gc.freeze()          # see on_mount

    def on_unmount(self) -> None:
        gc.unfreeze()

    def shown_rows(self, rows: tuple[TurnRow, ...]) -> tuple[TurnRow, ...]:
        """The turn list's rows: the view's (a live run adds a failed call's)."""
        return rows

    def shown_header(self, header: Header) -> Header:
        """The header: the view's (a live run adds a failed call)."""
        return header

    # --- actions ------------------------------------------------------------------------------
    @every_turn
    def action_diff(self) -> None:
        if self.current is not None:
            self.app.push_screen(DiffScreen(self.view, self.turn), self._go)

    @every_turn
    def action_run_info(self) -> None:
        self.app.push_screen(RunInfoScreen(run_info(self.view.trace, self.view.calls())))

    @every_turn
    def action_tokens(self) -> None:
        self.app.push_screen(TokenScreen(self.view, self.turn, model=self.price_model,
                                         caching=self.app.caching), self._tokens_closed)

    def _tokens_closed(self, model: str | None) -> None:
        self.price_model = model          # the next opening shows the same model
        if self.view.all_counted:         # the header's saving follows model and caching
            self.header_info = self.shown_header(self.view.header(self.caching_model))

    def set_strategy(self, name: str) -> None:
        self.view = self.view.with_strategy(name)

    def action_cycle_strategy(self) -> None:
        now = self.view.strategy
        i = STRATEGY_CYCLE.index(now) if now in STRATEGY_CYCLE else -1
        self.set_strategy(STRATEGY_CYCLE[(i + 1) % len(STRATEGY_CYCLE)])

    def action_limit(self, name: str, step: int) -> None:
        value = getattr(self.view.opts, name) + step
        if value < 0:
            self.notify(f"{name} is already 0", severity="warning")
            return
        self.view = self.view.with_options(**{name: value})

    async def action_options(self) -> None:
        await self._show_options(not self.query_one(OptionsPanel).display)

    async def _show_options(self, shown: bool) -> None:
        """The options panel shown (it takes the program pane's place, app.tcss) or hidden. A
        zoomed pane covers the panel: opening it unzooms, and zooming closes it (action_zoom)."""
        panel = self.query_one(OptionsPanel)
        if shown and self.maximized is not None:
            self.minimize()
        panel.display = shown
        for pane in self.query("#program, #turn-list, #memory-pane"):   # app.tcss
            pane.set_class(shown, "-options-open")
        if shown:
            await panel.make_rows()
            panel.query_one(Select).focus()
        else:
            self.query_one(TurnList).focus()

    async def action_zoom(self) -> None:
        """As PaneLayoutActions', the options panel closed first (the program pane it hides
        comes back: `z` from the turn list zooms it, as ever)."""
        panel = self.query_one(OptionsPanel)
        if self.maximized is None and panel.display:
            focused = self.focused
            await self._show_options(False)
            if focused is not None and panel not in focused.ancestors_with_self:
                focused.focus()               # the pane the user was on, not the turn list
        super().action_zoom()

    async def action_close_options(self) -> None:
        """Escape closes the options panel, as it closes every other overlay (when the panel
        is not open, escape goes on to the app: back to an experiment)."""
        if not self.query_one(OptionsPanel).display:
            raise SkipAction()
        await self.action_options()

    def action_recorded_options(self) -> None:
        if not self.view.what_if:
            self.notify("already the recorded options", severity="information")
            return
        self.view = self.view.with_opts(self.view.recorded_opts)

    def action_toggle_reply(self) -> None:
        self.reply_open = not self.reply_open
        if not self.query_one(ProgramPanel).display:      # the options panel took its place
            self.notify(f"the reply: {'whole' if self.reply_open else 'first lines'}, in the "
                        "program pane once the options panel is closed (escape)", timeout=3)

    def on_program_panel_reply_clicked(self) -> None:
        self.action_toggle_reply()

    def action_toggle_whole_request(self) -> None:
        self.whole_request = not self.whole_request

    def on_options_panel_changed(self, event: OptionsPanel.Changed) -> None:
        event.stop()
        if event.opts != self.view.opts:
            self.view = self.view.with_opts(event.opts)
