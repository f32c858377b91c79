"""TurnList: one row per turn: number, status glyph, tokens now (recorded or what-if) and under
`full`; in a live run, the row of an LLM call that failed."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.reactive import var

from ptc_tui.view import TurnRow
from ptc_tui.widgets.row_table import PADDING, Column, RowTable

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


def column_widths(labels: tuple[str, ...], cells: list[tuple[Text, ...]]) -> tuple[int, ...]:
    """The width each column needs for its label and the rows' `cells`."""
    return tuple(max([len(label), *(c.cell_len for c in column)])
                 for label, column in zip(labels, zip(*cells) if cells else [()] * 4))


class TurnList(RowTable):
    """The turns of the trace; the cursor follows the screen's selected turn."""

    ALLOW_MAXIMIZE = False       # as wide as its columns: `z` zooms the program pane instead

    DEFAULT_CSS = """
    TurnList {
        width: 28;                     /* until the rows are known: then as wide as they need */
        height: 1fr;
        border: round $primary-muted;
        border-title-color: $text;
        overflow-y: scroll;
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

    # vars, not reactives: a reactive repaints the whole list when it changes, and the list
    # draws again only the rows that change (the cursor's two on a key, a turn's new count)
    turn_rows: var[tuple[TurnRow, ...]] = var(())
    turn: var[int] = var(1)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.numbers: tuple[int, ...] = ()
        self.widths: tuple[int, ...] = ()
        self.labels: tuple[str, ...] = ()
        self.border_title = "turns"

    def watch_turn_rows(self, rows: tuple[TurnRow, ...]) -> None:
        cells = [row_cells(r) for r in rows]        # made once: a long trace has 1,000s
        labels = column_labels(rows)
        widths = column_widths(labels, cells)
        numbers = tuple(r.number for r in rows)
        if (numbers, widths, labels) == (self.numbers, self.widths, self.labels):
            # same turns, new counts: only the rows that changed are drawn again
            for i, row_cells_now in enumerate(cells):
                if row_cells_now != self.rows[i]:
                    self.update_row(i, row_cells_now)
            return
        self.numbers, self.widths, self.labels = numbers, widths, labels
        self.set_rows([Column(key, Text(label), width)
                       for key, label, width in zip(COLUMN_KEYS, labels, widths)], cells)
        # each column's cells and padding, the scrollbar's gutter and the border
        self.styles.width = sum(w + 2 * PADDING for w in widths) + \
            self.styles.scrollbar_size_vertical + 2
        self._follow(self.turn)

    def watch_turn(self, turn: int) -> None:
        self._follow(turn)

    def _follow(self, turn: int) -> None:
        if turn in self.numbers:
            self.move_cursor(self.numbers.index(turn))

    def on_row_table_cursor_moved(self, event: RowTable.CursorMoved) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.numbers):
            self.post_message(self.Selected(self, self.numbers[event.cursor_row]))
