"""DiffScreen: a turn's program and message against the previous turn's; `j`/`k` walk the
turns and closing dismisses with the turn the user ended on, so the main screen can follow."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer, Static

from ptc_tui.view import TraceView
from ptc_tui.view.diff import DiffLine, turn_diff
from ptc_tui.view.trace_view import neighbour
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.text_panel import TextPanel

STYLES = {"header": "bold", "hunk": "cyan", "added": "green", "removed": "red", "context": ""}


def diff_text(lines: tuple[DiffLine, ...], first: bool) -> Text:
    """The diff coloured by kind, every line literal; a note when there is nothing to compare."""
    text = Text()
    if first:
        text.append("first turn: nothing before it, so all of it is new\n\n", "italic")
    if not lines:
        text.append("empty" if first else "no change", "italic")
    for i, line in enumerate(lines):
        text.append("\n" if i else "")
        text.append_text(literal(line.text, STYLES[line.kind]))
    return text


class DiffScreen(Screen[int]):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (140, "-wide")]

    DEFAULT_CSS = """
    DiffScreen {
        layout: vertical;
        #diff-title { height: 1; padding: 0 1; background: $panel; text-style: bold; }
        #diff-cache { height: auto; padding: 0 1; background: $panel; color: $text-muted; }
        #diff-panes { height: 1fr; }
        &.-narrow #diff-panes { layout: vertical; }
    }
    """

    BINDINGS = [
        Binding("j", "move(1)", "Next turn", id="diff.next"),
        Binding("k", "move(-1)", "Previous turn", id="diff.previous"),
        Binding("escape,q", "close", "Close", id="diff.close"),
    ]

    turn: var[int] = var(0, init=False)

    def __init__(self, view: TraceView, turn: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view
        self.numbers = list(view.turns)
        fallback = self.numbers[0] if self.numbers else 0
        self.set_reactive(DiffScreen.turn, turn if turn in view.turns else fallback)

    def compose(self) -> ComposeResult:
        yield Static(id="diff-title", markup=False)
        yield Static(id="diff-cache", markup=False)
        with Horizontal(id="diff-panes"):
            yield TextPanel("program", id="program-diff")
            yield TextPanel("message", id="message-diff")
        yield Footer()

    def on_mount(self) -> None:
        self.show_turn()
        self.query_one("#program-diff").focus()    # so the arrows scroll the diff

    def watch_turn(self) -> None:
        self.show_turn()

    def show_turn(self) -> None:
        title = self.query_one("#diff-title", Static)
        program = self.query_one("#program-diff", TextPanel)
        message = self.query_one("#message-diff", TextPanel)
        if self.turn not in self.view.turns:
            title.update("Diff: this trace has no turns")
            return
        diff = turn_diff(self.view, self.turn)
        against = f"turn {diff.previous}" if diff.previous is not None else "nothing"
        title.update(f"Diff: turn {diff.number} vs {against}")
        self.query_one("#diff-cache", Static).update(
            diff.cache.text() if diff.cache is not None
            else "cache: the first request, nothing cached before it")
        first = diff.previous is None
        program.set_title(f"program · turn {diff.number} vs {against}")
        message.set_title(f"last user message · turn {diff.number} vs {against}")
        program.show(diff_text(diff.program, first))
        message.show(diff_text(diff.message, first))
        program.scroll_home(animate=False)
        message.scroll_home(animate=False)

    def action_move(self, step: int) -> None:
        if self.numbers:
            self.turn = neighbour(self.numbers, self.turn, step)

    def action_close(self) -> None:
        self.dismiss(self.turn)
