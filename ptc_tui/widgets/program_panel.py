"""ProgramPanel: the selected turn's program (highlighted, error span marked), its prints,
tool calls and result."""

from __future__ import annotations

from rich.syntax import Syntax
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive

from ptc_tui.view import ErrorView, ProgramPane, TurnView
from ptc_tui.widgets.literal import escape_controls, literal
from ptc_tui.widgets.reply_text import call_text, reply_text, reply_title
from ptc_tui.widgets.text_panel import TextPanel, section


NO_TURN = "No turn yet. In a live run, n runs the first turn and c runs them all."


def _offset(lines: list[str], line: int, col: int) -> int:
    """Index in the escaped program of 1-based (`line`, `col`) of the raw program."""
    line = max(1, min(line, len(lines)))
    before = sum(len(escape_controls(x)) for x in lines[:line - 1])
    return before + len(escape_controls(lines[line - 1][:max(col - 1, 0)]))


def program_text(source: str, error: ErrorView | None) -> Text:
    code = escape_controls(source)
    text = Syntax(code, "clojure", theme="ansi_dark").highlight(code)
    text.style = ""          # no background of its own: the pane's shows through
    text.rstrip()
    if error is not None and error.line is not None and source:
        lines = source.splitlines(keepends=True) or [""]
        start = _offset(lines, error.line, error.col or 1)
        end = _offset(lines, error.end_line or error.line, error.end_col or (error.col or 1) + 1)
        text.stylize("bold white on red", start, max(end, start + 1))
    return text


def pane_blocks(pane: ProgramPane) -> list[tuple[Text, bool]]:
    """The program (a code block, not word-wrapped), then what it did (prose)."""
    after = after_text(pane)
    blocks = [(Text("(no code in this reply)", "italic"), False) if pane.program is None
              else (program_text(pane.program, pane.error), True)]
    return blocks + [(after, False)] if after.plain else blocks


def after_text(pane: ProgramPane) -> Text:
    """What the program did: its error, prints, tool calls and result."""
    text = Text()
    if pane.error is not None:
        text.append("\n\n")
        text.append_text(literal(pane.error.text, "bold red"))
    if pane.prints:
        section(text, f"prints ({len(pane.prints)})")
        text.append_text(literal("\n".join(pane.prints)))
    if pane.tool_calls:
        section(text, f"tool calls ({len(pane.tool_calls)})")
        for i, call in enumerate(pane.tool_calls):
            text.append("\n" if i else "")
            text.append_text(literal(call.call, "cyan"))
            text.append(" → ")
            text.append_text(literal(call.error, "red") if call.error is not None
                             else literal(call.result or ""))
            text.append(f"  ({call.duration_ms:.1f} ms)", "dim")
    if pane.result is not None:
        section(text, "result" + (f" ({pane.signal})" if pane.signal else ""))
        text.append_text(literal(pane.result))
    text.remove_suffix("\n")
    if text.plain.startswith("\n"):
        text = text[1:]
    return text


class ProgramPanel(TextPanel):
    """The call line, the model's reply (folded unless `reply_open`; a click on it or `r`
    unfolds it), then the program and what it did."""

    DEFAULT_CSS = """
    ProgramPanel { overflow-x: auto; }     /* code is not wrapped: long lines scroll sideways */
    """

    current: reactive[TurnView | None] = reactive(None)
    reply_open: reactive[bool] = reactive(False)

    class ReplyClicked(Message):
        """The user clicked the reply: fold or unfold it."""

    def __init__(self, **kwargs) -> None:
        super().__init__("program", **kwargs)
        self.head = Text()          # the call line and the reply, the first lines shown
        self.shown_turn: int | None = None

    def watch_current(self, current: TurnView | None) -> None:
        self._show(current)

    def watch_reply_open(self) -> None:
        self._show(self.current)

    def _show(self, current: TurnView | None) -> None:
        if current is None:
            self.head = Text()
            self.show(Text(NO_TURN, "dim italic"))
            return
        origin = {"parent": " · recorded", "fork": " · what-if"}
        self.border_title = (f"program · turn {current.number} · {current.status}"
                             + origin.get(current.origin, ""))
        head = call_text(current.call) if current.call is not None else Text()
        section(head, reply_title(current.reply, self.reply_open))
        head.append_text(reply_text(current.reply, self.reply_open))
        self.head = head
        text = head.copy()
        section(text, "program")
        text.remove_suffix("\n")
        self.show_blocks([(text, False), *pane_blocks(current.program)])
        if current.number != self.shown_turn:
            self.shown_turn = current.number
            self.scroll_home(animate=False)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.head.plain:
            return
        width = self.scrollable_content_region.width
        if self.scroll_offset.y + offset.y < len(self.head.wrap(self.app.console, width)):
            self.post_message(self.ReplyClicked())
