"""SideBySidePanel: two texts in two columns, aligned row by row, differences highlighted. Both
columns are one table in one scrolling pane, so they always scroll together."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ptc_tui.view.side_by_side import SideRow
from ptc_tui.widgets.literal import literal

LEFT = {"changed": "on #4b1d1d", "left": "on #4b1d1d", "folded": "dim italic"}
RIGHT = {"changed": "on #1d4b22", "right": "on #1d4b22", "folded": "dim italic"}


def rows_table(rows: tuple[SideRow, ...], left_title: str, right_title: str) -> Table:
    table = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False,
                  padding=(0, 1))
    table.add_column(literal(left_title, "bold"), ratio=1, overflow="fold")
    table.add_column(literal(right_title, "bold"), ratio=1, overflow="fold")
    for row in rows:
        table.add_row(_cell(row.left, LEFT.get(row.kind, "")),
                      _cell(row.right, RIGHT.get(row.kind, "")))
    return table


def _cell(text: str | None, style: str) -> Text:
    return Text("") if text is None else literal(text, style)


class SideBySidePanel(VerticalScroll, can_focus=True):
    DEFAULT_CSS = """
    SideBySidePanel {
        border: round $primary-muted;
        border-title-color: $text;
        height: 1fr;
        padding: 0 1;
        &:focus { border: round $primary; }
        Static { width: 1fr; }
    }
    """

    def __init__(self, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = title
        self.rows: tuple[SideRow, ...] = ()

    def compose(self):
        yield Static("")

    def show(self, rows: tuple[SideRow, ...], left_title: str, right_title: str) -> None:
        self.rows = rows
        self.query_one(Static).update(rows_table(rows, left_title, right_title))
        self.scroll_home(animate=False)
