"""TurnNavigation: how the trace screen moves between turns (keys, the turn list, go-to and
search). A turn not counted yet (a long trace is counted in the background) is made ready in a
worker, and shown once it is, so the screen never waits for a long trace's every turn."""

from __future__ import annotations

from dataclasses import dataclass

from textual import work
from textual.message import Message

from engine.trace import TraceError
from engine.trace.lazy_turns import known_error
from ptc_tui.screens.search_dialog import GoToDialog, SearchDialog
from ptc_tui.screens.trace_actions import every_turn
from ptc_tui.view import TraceView
from ptc_tui.view.trace_view import neighbour
from ptc_tui.widgets import TurnList


class TurnNavigation:
    """Mixed into TraceScreen (which gives `view`, `turn`, `current`, `numbers`, `_turn_view`,
    `_show_broken`, `readable`, its Broken message and Textual's `app` and `notify`)."""

    _waiting_for: int | None = None      # a turn asked for before it was counted

    @dataclass
    class Ready(Message):
        """Turn `number` of `view`, asked for before it was counted, can show now."""
        view: TraceView
        number: int

    def watch_turn(self) -> None:
        self.current = self._turn_view()

    def on_turn_list_selected(self, event: TurnList.Selected) -> None:
        self._go(event.number)

    def _go(self, number: int | None) -> None:
        if number is None or number not in self.view.turns:
            return
        self._waiting_for = None                   # a later key overrides an earlier wait
        if self.view.counted(number):
            self.turn = number
            return
        error = known_error(self.view.trace.turns, self.view.turns.index_of(number))
        if error is not None:
            self._show_broken(str(error))
            return
        # a long trace still counting: the turns before it are read, rendered and counted in a
        # worker (it can take seconds), not while the screen waits for it
        if number - self.view.rendering.requests.rendered > 1:
            self.notify(f"turn {number} shows once the turns before it are counted",
                        timeout=3)
        self._waiting_for = number
        self._make_ready(self.view, number)

    @work(thread=True, group="go", description="read a turn")
    def _make_ready(self, view: TraceView, number: int) -> None:
        try:
            view.turn(number)
        except TraceError as e:
            self.post_message(self.Broken(view, str(e)))
            return
        self.post_message(self.Ready(view, number))

    def on_turn_navigation_ready(self, event: Ready) -> None:
        if event.view is self.view and event.number == self._waiting_for:
            self._waiting_for = None
            self.turn = event.number

    def action_move(self, step: int) -> None:
        if self.numbers:
            self._go(neighbour(self.numbers, self.turn, step))

    def action_first(self) -> None:
        self._go(self.numbers[0] if self.numbers else None)

    def action_last(self) -> None:
        self._go(self.numbers[-1] if self.numbers else None)

    @every_turn
    def action_failed(self, direction: int) -> None:
        found = (self.view.next_failed(self.turn) if direction > 0
                 else self.view.previous_failed(self.turn))
        if found is None:
            self.notify("no more failed turns", severity="information")
        self._go(found)

    def action_go_to(self) -> None:
        self.app.push_screen(GoToDialog(tuple(self.numbers)), self._go)

    @every_turn
    def action_search(self) -> None:
        self.app.push_screen(SearchDialog(self.view), self._go)
