"""CompareScreen: two runs turn by turn (aligned on turn numbers): status, input tokens, tool
calls and prints of each side, both outcomes, answers, totals and cost, the first turn whose
programs differ marked, and the selected turn's two programs and two requests side by side."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ptc_tui.view.compare import Comparison, RunSummary, SideTurn
from ptc_tui.view.reply import reply_lines, reply_view
from ptc_tui.view.side_by_side import request_text, side_by_side
from ptc_tui.view.formats import cost_text
from ptc_tui.view.trace_view import neighbour
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.side_by_side import SideBySidePanel
from ptc_tui.widgets.turn_list import GLYPHS, ORIGINS
from ptc_tui.widgets.steady_footer import SteadyFooter

LABELS = ("#", "A", "tokens", "tools", "prints", "B", "tokens", "tools", "prints", "program")


def summary_text(label: str, run: RunSummary) -> Text:
    text = Text()
    text.append(f"{label} ", "bold reverse")
    text.append(" ")
    text.append_text(literal(f"{run.name} · {run.llm}", "cyan"))
    text.append(" · ")
    text.append_text(literal(run.outcome, "green" if run.outcome == "returned" else "red"))
    text.append(f" · {run.turns} turns · {run.input_tokens:,} input + {run.output_tokens:,} "
                f"output tokens · cost {cost_text(run.cost)}")
    if run.fork_of:
        text.append_text(literal(f" · fork of {run.fork_of}", "magenta"))
    text.append("\n   answer: ")
    text.append_text(literal(run.answer))
    return text


def header_text(c: Comparison) -> Text:
    text = summary_text("A", c.a)
    text.append("\n")
    text.append_text(summary_text("B", c.b))
    text.append("\n")
    first = c.first_divergent_turn
    text.append("every program is identical" if first is None
                else f"first divergent turn: {first} (◀; d goes there)", "bold")
    for warning in c.warnings:
        text.append(f"\nwarning: {warning}", "yellow")
    return text


def side_cells(side: SideTurn | None) -> list[Text]:
    if side is None:
        return [Text("–", "dim"), Text(""), Text(""), Text("")]
    glyph, style = GLYPHS.get(side.status, ("?", ""))
    status = Text(glyph, style)
    if side.origin:
        status.append(*ORIGINS[side.origin])     # ◦ recorded in the parent, ✱ run by the fork
    return [status, Text(f"{side.input_tokens:,}", justify="right"),
            Text(str(side.tool_calls), justify="right"), Text(str(side.prints), justify="right")]


class CompareScreen(Screen):
    DEFAULT_CSS = """
    CompareScreen {
        layout: vertical;
        #compare-header {
            height: auto; padding: 0 1; background: $panel;
            text-wrap: nowrap; text-overflow: ellipsis;     /* a long answer is cut with … */
        }
        #compare-turns { height: 1fr; min-height: 5; }
        #compare-programs { height: 1fr; }
        #compare-requests { height: 2fr; }
    }
    """

    BINDINGS = [
        Binding("j,down", "move(1)", "Next turn", id="compare.next", show=False),
        Binding("k,up", "move(-1)", "Previous turn", id="compare.previous", show=False),
        Binding("g", "first", "First turn", id="compare.first", show=False),
        Binding("G", "last", "Last turn", id="compare.last", show=False),
        Binding("d", "first_divergent", "First difference", id="compare.first_divergent",
                tooltip="go to the first turn whose programs differ"),
        Binding("r", "toggle_replies", "Replies", id="compare.replies",
                tooltip="each model's whole reply, or its first lines, above its program"),
        Binding("J", "scroll_requests(1)", "Scroll requests", id="compare.scroll_down",
                tooltip="scroll both requests down a page (they scroll together)"),
        Binding("K", "scroll_requests(-1)", "Scroll up", id="compare.scroll_up",
                show=False, tooltip="scroll both requests up a page"),
        Binding("escape,q", "close", "Close", id="compare.close"),
    ]

    turn: var[int] = var(0, init=False)
    replies_open: var[bool] = var(False, init=False)

    def __init__(self, comparison: Comparison, **kwargs) -> None:
        super().__init__(**kwargs)
        self.comparison = comparison
        self.numbers = [p.number for p in comparison.pairs]
        self.set_reactive(CompareScreen.turn, comparison.start_turn)

    def compose(self) -> ComposeResult:
        yield Static(header_text(self.comparison), id="compare-header")
        yield DataTable(cursor_type="row", zebra_stripes=True, id="compare-turns")
        yield SideBySidePanel("replies and programs", id="compare-programs")
        yield SideBySidePanel("requests", id="compare-requests")
        yield SteadyFooter(compact=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for i, label in enumerate(LABELS):
            table.add_column(label, key=str(i))
        first = self.comparison.first_divergent_turn
        for p in self.comparison.pairs:
            mark = ("◀ first" if p.number == first else "≠") if not p.same_program else ""
            table.add_row(Text(str(p.number), justify="right"), *side_cells(p.a),
                          *side_cells(p.b), Text(mark, "bold yellow"), key=str(p.number))
        table.focus()
        self.show_turn()

    # --- selection ----------------------------------------------------------------------------
    def watch_turn(self) -> None:
        self.show_turn()

    def watch_replies_open(self) -> None:
        self.show_turn()

    def action_toggle_replies(self) -> None:
        self.replies_open = not self.replies_open

    def show_turn(self) -> None:
        if self.turn not in self.numbers:
            return
        table = self.query_one(DataTable)
        row = self.numbers.index(self.turn)
        if table.cursor_row != row:
            table.move_cursor(row=row)
        c, n = self.comparison, self.turn
        a, b = c.turn_of(0, n), c.turn_of(1, n)
        programs = side_by_side(_program(a, self.replies_open), _program(b, self.replies_open))
        left = request_text(a.messages) if a else None
        right = request_text(b.messages) if b else None
        # identical requests are shown whole; different ones with the sameness folded
        requests = side_by_side(left, right, fold=left != right)
        panel = self.query_one("#compare-programs", SideBySidePanel)
        panel.border_title = ("replies and programs · whole replies (r folds)"
                              if self.replies_open else
                              "replies and programs · replies folded (r: whole replies)")
        panel.show(programs, f"A · turn {n}", f"B · turn {n}")
        panel = self.query_one("#compare-requests", SideBySidePanel)
        panel.border_title = ("requests · the same" if left == right
                              else "requests · differences highlighted")
        panel.show(requests, f"A · request {n}", f"B · request {n}")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        # a key moving the selection moves the cursor too: an event it left behind is stale
        if event.cursor_row == event.data_table.cursor_row < len(self.numbers):
            self.turn = self.numbers[event.cursor_row]

    # --- actions ------------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        if self.numbers:
            self.turn = neighbour(self.numbers, self.turn, step)

    def action_first(self) -> None:
        if self.numbers:
            self.turn = self.numbers[0]

    def action_last(self) -> None:
        if self.numbers:
            self.turn = self.numbers[-1]

    def action_first_divergent(self) -> None:
        first = self.comparison.first_divergent_turn
        if first is None:
            self.notify("every program is identical", severity="information")
        else:
            self.turn = first

    def action_scroll_requests(self, direction: int) -> None:
        panel = self.query_one("#compare-requests", SideBySidePanel)
        if direction > 0:
            panel.scroll_page_down(animate=False)
        else:
            panel.scroll_page_up(animate=False)

    def action_close(self) -> None:
        if len(self.app.screen_stack) <= 2:       # opened by `ptc-tui compare`: nothing below
            self.app.exit()
        else:
            self.dismiss()


def _program(turn, whole_reply: bool) -> str | None:
    """The turn's reply (folded unless `whole_reply`), then its program."""
    if turn is None:
        return "(no such turn in this run)"
    reply = "\n".join(line for _, line in reply_lines(reply_view(turn.raw_response),
                                                       whole_reply))
    program = turn.program if turn.program is not None else "(no code in this reply)"
    return f"── reply ──\n{reply}\n── program ──\n{program}"
