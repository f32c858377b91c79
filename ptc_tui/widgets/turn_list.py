"""TurnList: one row per turn: number, status glyph, tokens now (recorded or what-if) and under
`full`; in a live run, the row of an LLM call that failed."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from ptc_tui.view import TurnRow

GLYPHS = {"ok": ("✓", "green"), "error": ("✗", "red"), "return": ("⏎", "bold green"),
          "fail": ("⚑", "bold red"), "no_code": ("∅", "yellow"),
          "call_failed": ("⚠", "bold red")}
NOT_READ = ("…", "dim")     # status "pending": a long trace's turn not decoded yet
# What each glyph means, for the help screen's legend.
GLYPH_MEANINGS = {"ok": "the program ran", "error": "the program failed (an error the LLM is "
                  "shown)", "return": "the program returned the answer", "fail": "the program "
                  "called (fail ...)", "no_code": "the reply had no code",
                  "call_failed": "the LLM call failed (live run; n retries it)"}
# In a fork, beside the status: a turn taken over as recorded, or one the fork ran (a what-if).
ORIGINS = {"parent": ("◦", "dim"), "fork": ("✱", "bold magenta")}
COLUMN_KEYS = ("number", "status", "tokens", "full")
COLUMN_LABELS = ("#", "", "recorded", "full")   # counts under the recorded options
WHAT_IF_LABELS = ("#", "", "what-if", "full")    # other options: what would have been sent


def column_labels(rows: tuple[TurnRow, ...]) -> tuple[str, ...]:
    return WHAT_IF_LABELS if any(r.what_if for r in rows) else COLUMN_LABELS


def row_cells(row: TurnRow) -> tuple[Text, ...]:
    glyph, style = GLYPHS.get(row.status, NOT_READ if row.status == "pending" else ("?", ""))
    status = Text(glyph, style)
    if row.origin:
        status.append(*ORIGINS[row.origin])
    if row.status == "call_failed":
        return (Text(str(row.number), justify="right"), status, Text("–", justify="right"),
                Text("–", justify="right"))
    return (Text(str(row.number), justify="right"), status, _count(row.tokens),
            _count(row.full_tokens))


def _count(tokens: int | None) -> Text:
    """A count, or `…` for one not taken yet (a long trace is counted in the background)."""
    return Text("…" if tokens is None else f"{tokens:,}", justify="right")


def column_widths(rows: tuple[TurnRow, ...]) -> tuple[int, ...]:
    """The width each column needs for `rows`. The table gets them as fixed widths: its own
    auto widths are settled on idle, and a row drawn before that stays cut ("1,11")."""
    cells = [row_cells(r) for r in rows]
    return tuple(max([len(label), *(c.cell_len for c in column)])
                 for label, column in zip(column_labels(rows), zip(*cells) if cells else [()] * 4))


class TurnList(DataTable):
    """The turns of the trace; the cursor follows the screen's selected turn."""

    ALLOW_MAXIMIZE = False       # as wide as its columns: `z` zooms the program pane instead

    DEFAULT_CSS = """
    TurnList {
        width: 28;                     /* until the rows are known: then as wide as they need */
        height: 1fr;
        border: round $primary-muted;
        border-title-color: $text;
        scrollbar-gutter: stable;
        &:focus { border: round $accent; border-title-style: bold; }
    }
    """

    @dataclass
    class Selected(Message):
        """The user moved the cursor to turn `number`."""
        turn_list: "TurnList"
        number: int

        @property
        def control(self) -> "TurnList":
            return self.turn_list

    turn_rows: reactive[tuple[TurnRow, ...]] = reactive(())
    turn: reactive[int] = reactive(1)

    def __init__(self, **kwargs) -> None:
        self.numbers: tuple[int, ...] = ()     # before DataTable's init, which sets reactives
        self.widths: tuple[int, ...] = ()
        self.labels: tuple[str, ...] = ()
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.border_title = "turns"

    def watch_turn_rows(self, rows: tuple[TurnRow, ...]) -> None:
        widths = column_widths(rows)
        labels = column_labels(rows)
        if (tuple(r.number for r in rows), widths, labels) == (self.numbers, self.widths,
                                                               self.labels):
            # same turns, new counts: update in place so the cursor never moves
            for r in rows:
                for key, cell in zip(COLUMN_KEYS, row_cells(r)):
                    self.update_cell(str(r.number), key, cell)
            return
        with self.prevent(DataTable.RowHighlighted):
            self.clear(columns=True)
            for label, key, width in zip(column_labels(rows), COLUMN_KEYS, widths):
                self.add_column(label, key=key, width=width)
            self.numbers, self.widths = tuple(r.number for r in rows), widths
            self.labels = labels
            for r in rows:
                self.add_row(*row_cells(r), key=str(r.number))
            # each column's cells and padding, the scrollbar's gutter and the border
            self.styles.width = sum(w + 2 * self.cell_padding for w in widths) + \
                self.styles.scrollbar_size_vertical + 2
        self._follow(self.turn)

    def watch_turn(self, turn: int) -> None:
        self._follow(turn)

    def _follow(self, turn: int) -> None:
        if turn in self.numbers and self.cursor_row != self.numbers.index(turn):
            self.move_cursor(row=self.numbers.index(turn))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.numbers):
            self.post_message(self.Selected(self, self.numbers[event.cursor_row]))
