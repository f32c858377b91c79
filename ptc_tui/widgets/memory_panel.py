"""The memory pane: `MemoryPanel`, a table of the definitions after the selected turn (those
this turn made marked), and under it `MemoryDetail`, the chosen definition in full."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive

from ptc_tui.view import MemoryRow, TurnView
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.row_table import HEADER_HEIGHT, Column, RowTable
from ptc_tui.widgets.steady_scroll import SteadyScroll
from ptc_tui.widgets.text_panel import TextPanel, section

# The short columns first: a pane a third of the screen wide still shows who defined what.
COLUMNS = ("", "name", "type", "turn", "sample", "doc")
SAMPLE = COLUMNS.index("sample")
MIN_SAMPLE_WIDTH = 12
# Left out, in this order, where the sample would be narrower than MIN_SAMPLE_WIDTH (off the
# pane's edge): the definition under the table shows both.
DROPPED_WHEN_NARROW = (COLUMNS.index("turn"), COLUMNS.index("type"))
MIN_DOC_CELLS = 2 + len("doc")      # the doc column starts on screen only where its title fits


def row_cells(row: MemoryRow) -> tuple[Text, ...]:
    """A row's cells; a value without a sample (nil, an empty collection, a function: the
    history shows its type alone) shows its type, dimmed, where the sample goes, so that it
    reads whole where the type column is left out."""
    sample = literal(row.sample) if row.sample is not None else literal(row.type, "dim")
    return (Text("●", "yellow") if row.changed else Text(""), literal(row.name, "bold"),
            literal(row.type, "cyan"),
            Text("" if row.defined_in is None else str(row.defined_in), justify="right"),
            sample, literal(row.doc or "", "italic"))


def column_layout(cells: list[tuple[Text, ...]], room: int) -> list[tuple[int, int]]:
    """The columns of rows of `cells` (row_cells) shown in `room` cells, as (index in COLUMNS,
    width): the short ones at the width they need, the sample what they leave (turn, then
    type, left out rather than the sample under MIN_SAMPLE_WIDTH), and the doc its own width
    (read whole below the table)."""
    widths = [max([len(label), *(c[i].cell_len for c in cells)]) for i, label in
              enumerate(COLUMNS)]
    shown = list(range(len(COLUMNS)))

    def left() -> int:
        short = [i for i in shown if i < SAMPLE]
        return room - 2 * (len(short) + 1) - sum(widths[i] for i in short)   # 1 padding a side
    for column in DROPPED_WHEN_NARROW:
        if left() >= min(widths[SAMPLE], MIN_SAMPLE_WIDTH):
            break
        shown.remove(column)
    widths[SAMPLE] = max(min(left(), widths[SAMPLE]), MIN_SAMPLE_WIDTH)
    if 0 < left() - widths[SAMPLE] < MIN_DOC_CELLS:
        widths[SAMPLE] = left()       # else a sliver of the doc column showed at the edge
    return [(i, widths[i]) for i in shown]


def definition_text(row: MemoryRow) -> Text:
    """One definition in full: name and type, where it was defined, its docstring, its value."""
    text = literal(row.name, "bold")
    text.append(" · ")
    text.append_text(literal(row.type, "cyan"))
    if row.defined_in is None:
        text.append("\nnot defined by any turn of this trace", "dim")
    else:
        text.append(f"\ndefined in turn {row.defined_in}" + " (this turn)" * row.changed)
        if row.defined_before:
            earlier = ", ".join(map(str, row.defined_before))
            text.append(f"; before that in turn{'s' * (len(row.defined_before) > 1)} {earlier}")
    if row.doc:
        text.append("\n")
        text.append_text(literal(row.doc, "italic"))
    section(text, "value")
    text.append_text(literal(row.whole or "nil"))
    return text


class MemoryPanel(SteadyScroll, RowTable):
    """The definitions table; the row under the cursor (keys or mouse) is `chosen`."""

    DEFAULT_CSS = """
    MemoryPanel {
        border: round $primary-muted;
        border-title-color: $text;
        height: 1fr;
        width: 1fr;
        overflow-y: scroll;
        &:focus { border: round $accent; border-title-style: bold; }
    }
    """

    current: reactive[TurnView | None] = reactive(None)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "memory"
        self.rows_shown: tuple[MemoryRow, ...] = ()
        self.room = 0                       # the width the columns were laid out for

    @property
    def chosen(self) -> MemoryRow | None:
        rows = self.rows_shown
        return rows[self.cursor_row] if 0 <= self.cursor_row < len(rows) else None

    def watch_current(self, current: TurnView | None) -> None:
        if current is None:
            return
        name = self.chosen.name if self.chosen is not None else None
        self.rows_shown = current.memory
        self._fill()
        names = [r.name for r in current.memory]
        # the same definition, followed from turn to turn; else the first
        self.move_cursor(names.index(name) if name in names else 0)
        self.border_title = f"memory after turn {current.number} ({len(current.memory)})"
        self._show_chosen()

    def on_resize(self) -> None:
        # a horizontal scrollbar only where it leaves rows to read under the header: at 80×24
        # the pane has room for one row, and the scrollbar took it (the doc column runs past
        # the edge; the definition beside the table shows it whole)
        self.styles.overflow_x = "auto" if self.size.height >= HEADER_HEIGHT + 3 else "hidden"
        if self.scrollable_content_region.width != self.room:
            self._fill()          # an empty table too: its columns are laid out for the width

    def _fill(self) -> None:
        self.room = self.scrollable_content_region.width
        cells = [row_cells(row) for row in self.rows_shown]
        layout = column_layout(cells, self.room)
        self.set_rows([Column(COLUMNS[i] or "changed", Text(COLUMNS[i]), width)
                       for i, width in layout],
                      [tuple(row[i] for i, _ in layout) for row in cells])

    def on_row_table_cursor_moved(self, event: RowTable.CursorMoved) -> None:
        event.stop()
        self._show_chosen()

    def _show_chosen(self) -> None:
        """The chosen definition in full, in the pane's detail under the table, now: drawn in
        the same frame as the table (a message left it a frame behind, the old turn's)."""
        if isinstance(self.parent, MemoryPane):
            self.parent.show_row(self.chosen)


class MemoryDetail(TextPanel):
    """The chosen definition in full, under the table."""

    def __init__(self, **kwargs) -> None:
        super().__init__("definition", **kwargs)

    def show_row(self, row: MemoryRow | None) -> None:
        self.set_title("definition" if row is None else f"definition · {row.name}")
        self.show(definition_text(row) if row is not None else
                  Text("No definitions after this turn.", "dim italic"))


class MemoryPane(Vertical):
    """The table over the detail; zoomed (`z`) as one pane."""

    ALLOW_MAXIMIZE = True
    DEFAULT_CSS = """
    MemoryPane {
        width: 1fr; height: 1fr;
        & > MemoryDetail { height: 1fr; }
    }
    """

    def compose(self) -> ComposeResult:
        yield MemoryDetail(id="memory-detail")

    def show_row(self, row: MemoryRow | None) -> None:
        """`row` in full in the detail (None: the turn has no definitions); nothing before
        the detail is mounted."""
        for detail in self.query(MemoryDetail):
            detail.show_row(row)
