"""MemoryPanel: the definitions after the selected turn, those this turn made marked."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import DataTable

from ptc_tui.view import MemoryRow, TurnView
from ptc_tui.widgets.literal import literal

# The short columns first: a pane a third of the screen wide still shows who defined what.
COLUMNS = ("", "name", "type", "turn", "sample", "doc")


def row_cells(row: MemoryRow) -> tuple[Text, ...]:
    return (Text("●", "yellow") if row.changed else Text(""), literal(row.name, "bold"),
            literal(row.type, "cyan"),
            Text("" if row.defined_in is None else str(row.defined_in), justify="right"),
            literal(row.sample or ""), literal(row.doc or "", "italic"))


class MemoryPanel(DataTable):
    DEFAULT_CSS = """
    MemoryPanel {
        border: round $primary-muted;
        border-title-color: $text;
        height: 1fr;
        width: 1fr;
        &:focus { border: round $primary; }
    }
    """

    current: reactive[TurnView | None] = reactive(None)

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.border_title = "memory"
        self.rows_shown: tuple[MemoryRow, ...] = ()

    def watch_current(self, current: TurnView | None) -> None:
        if current is None:
            return
        if not self.columns:
            for label in COLUMNS:
                self.add_column(label)
        self.clear()
        self.rows_shown = current.memory
        for row in current.memory:
            self.add_row(*row_cells(row))
        self.border_title = f"memory after turn {current.number} ({len(current.memory)})"
