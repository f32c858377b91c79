"""RowTable: a table of one-line rows under a header, with a row cursor, zebra stripes and
DataTable's look, drawn with Textual's line API: a row's line is made once, when first drawn,
and made again only when the cursor comes or goes, the width or the focus changes. A key that
moves the cursor redraws two rows, not every cell on screen (DataTable renders each visible
cell through Rich again whenever its cursor moves). The rows go to the screen between the
border's cells (QuickLines)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ptc_tui.widgets.literal import same_look
from ptc_tui.widgets.quick_lines import QuickLines
from ptc_tui.widgets.quick_scrollbar import QuickScrollBars

HEADER_HEIGHT = 1
PADDING = 1                           # a space on each side of a cell


@dataclass(frozen=True)
class Column:
    key: str
    label: Text
    width: int                        # of its cells, padding not counted

    @property
    def render_width(self) -> int:
        return self.width + 2 * PADDING


def row_segments(cells: tuple[Text, ...], columns: tuple[Column, ...], console,
                 width: int = 0) -> list[Segment]:
    """One row's cells side by side as segments, each cut or padded to its column's width (on
    the side its `justify` says) with a space either side, then spaces up to `width` cells.
    Made directly, not by joining the cells into one Text and rendering that, and with
    unstyled text and padding run together into one segment: a jump to the end of a long
    trace draws a screenful of new rows in one frame, and every segment is cut and styled
    again on its way to the screen (tests compare the two ways, cell by cell)."""
    segments: list[Segment] = []
    pad = " " * PADDING
    plain = ""                     # unstyled text not yet in a segment
    used = 0                       # cells so far
    for cell, column in zip(cells, columns):
        used += column.render_width
        if cell.cell_len > column.width:
            cell = cell.copy()
            cell.truncate(column.width, overflow="crop")
        room = " " * (column.width - cell.cell_len)
        before, after = (pad + room, pad) if cell.justify == "right" else (pad, room + pad)
        plain += before
        for segment in _cell_segments(cell, console):
            if segment.style:
                segments.append(Segment(plain))
                segments.append(segment)
                plain = ""
            else:
                plain += segment.text
        plain += after
    segments.append(Segment(plain + " " * (width - used)))
    return [segment for segment in segments if segment.text]


def _cell_segments(cell: Text, console) -> list[Segment]:
    """A cell's own segments, its style under its spans' (Text.render leaves the base style
    out of a text without spans)."""
    if cell.spans:
        return list(cell.render(console))
    style = console.get_style(cell.style, default=Style.null())
    return [Segment(cell.plain, style or None)]


def same_cells(a: tuple[Text, ...], b: tuple[Text, ...]) -> bool:
    """Whether two rows draw the same."""
    return len(a) == len(b) and all(map(same_look, a, b))


class RowTable(QuickScrollBars, QuickLines, ScrollView, can_focus=True):
    """Rows (tuples of Text cells) under `columns`; `cursor_row` is the highlighted one.
    Keys and clicks that move the cursor post `CursorMoved`; `move_cursor` does not."""

    BINDINGS = [
        Binding("up", "cursor(-1)", "Cursor up", show=False),
        Binding("down", "cursor(1)", "Cursor down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,ctrl+home", "edge(-1)", "Top", show=False),
        Binding("end,ctrl+end", "edge(1)", "Bottom", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
    ]

    COMPONENT_CLASSES = {"row-table--header", "row-table--even-row", "row-table--odd-row",
                         "row-table--cursor"}

    # DataTable's colours, for the same look as the app's other tables
    DEFAULT_CSS = """
    RowTable {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .row-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .row-table--header { background-tint: $foreground 5%; }
        }
        &:dark > .row-table--even-row { background: $surface-darken-1 40%; }
        & > .row-table--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .row-table--header { background: ansi_bright_blue; color: ansi_default; }
        & > .row-table--even-row { background: $surface-lighten-1 50%; }
        & > .row-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    header_height = HEADER_HEIGHT

    @dataclass
    class CursorMoved(Message):
        """The user moved the cursor to row `cursor_row` (a key or a click)."""
        table: "RowTable"
        cursor_row: int

        @property
        def control(self) -> "RowTable":
            return self.table

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.columns: dict[str, Column] = {}
        self.rows: list[tuple[Text, ...]] = []
        self.cursor_row = 0
        self._strips: dict[tuple[int, bool], Strip] = {}    # (row, under the cursor) -> line
        self._drawn_as: tuple = ()          # what the cached strips were made for

    # --- content ----------------------------------------------------------------------------
    @property
    def ordered_columns(self) -> list[Column]:
        return list(self.columns.values())

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def get_row_at(self, index: int) -> tuple[Text, ...]:
        return self.rows[index]

    def set_rows(self, columns: list[Column], rows: list[tuple[Text, ...]]) -> None:
        """Show `rows` under `columns`; the cursor stays on its row number where it can. Under
        the same columns, only the rows on screen that changed are drawn again."""
        same_columns = list(self.columns.values()) == columns
        before = self.rows
        self.columns = {c.key: c for c in columns}
        self.rows = rows
        width = sum(c.render_width for c in columns)
        self.virtual_size = Size(width, len(rows) + HEADER_HEIGHT)
        cursor, self.cursor_row = self.cursor_row, min(self.cursor_row, max(len(rows) - 1, 0))
        if not same_columns:
            self._strips.clear()
            self.refresh()
            return
        top = self.scroll_offset.y
        for row in range(top, top + self.scrollable_content_region.height - HEADER_HEIGHT):
            old = before[row] if row < len(before) else None
            new = rows[row] if row < len(rows) else None
            if old is None and new is None:
                continue
            if old is None or new is None or not same_cells(old, new):
                self._strips.pop((row, False), None)
                self._strips.pop((row, True), None)
                self.refresh_line(row + HEADER_HEIGHT)
            elif row in (cursor, self.cursor_row) and cursor != self.cursor_row:
                self.refresh_line(row + HEADER_HEIGHT)       # the cursor came or went

    def update_row(self, index: int, cells: tuple[Text, ...]) -> None:
        """Row `index` with new cells of the same widths."""
        self.rows[index] = cells
        self._strips.pop((index, False), None)
        self._strips.pop((index, True), None)
        self.refresh_line(index + HEADER_HEIGHT)

    # --- the cursor -------------------------------------------------------------------------
    def move_cursor(self, row: int) -> None:
        """Put the cursor on `row` (kept within the rows) and scroll it into view."""
        row = max(0, min(row, len(self.rows) - 1))
        old, self.cursor_row = self.cursor_row, row
        if row != old:
            self.refresh_line(old + HEADER_HEIGHT)
            self.refresh_line(row + HEADER_HEIGHT)
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        room = self.scrollable_content_region.height - HEADER_HEIGHT
        if room <= 0:
            return
        top = self.scroll_y
        if self.cursor_row < top:
            top = self.cursor_row
        elif self.cursor_row >= top + room:
            top = self.cursor_row - room + 1
        if top != self.scroll_y:
            self.scroll_to(y=top, animate=False, immediate=True)

    def _user_moves(self, row: int) -> None:
        before = self.cursor_row
        self.move_cursor(row)
        if self.rows and self.cursor_row != before:
            self.post_message(self.CursorMoved(self, self.cursor_row))

    def action_cursor(self, step: int) -> None:
        self._user_moves(self.cursor_row + step)

    def action_page(self, direction: int) -> None:
        room = max(1, self.scrollable_content_region.height - HEADER_HEIGHT)
        self._user_moves(self.cursor_row + direction * room)

    def action_edge(self, direction: int) -> None:
        self._user_moves(0 if direction < 0 else len(self.rows) - 1)

    def on_resize(self) -> None:
        self._scroll_to_cursor()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.y >= HEADER_HEIGHT:
            row = offset.y - HEADER_HEIGHT + self.scroll_offset.y
            if row < len(self.rows):
                event.stop()
                self._user_moves(row)

    # --- drawing ----------------------------------------------------------------------------
    def render_lines(self, crop):
        self._take_styles()
        return super().render_lines(crop)

    def _take_styles(self) -> None:
        """The styles, once for all the lines drawn at a time (a widget's rich_style is costly
        to make); the lines made before are dropped when the styles or the width change."""
        drawn_as = (self.size.width, self.rich_style, self.get_pseudo_class_state(),
                    self.app.theme)
        if drawn_as != self._drawn_as:
            self._strips.clear()
            self._drawn_as = drawn_as
            self._base = drawn_as[1]
            self._header = self.get_component_rich_style("row-table--header")
            self._zebra = (self.get_component_rich_style("row-table--even-row"),
                           self.get_component_rich_style("row-table--odd-row"))
            self._cursor = self.get_component_rich_style("row-table--cursor")

    def render_line(self, y: int) -> Strip:
        if not self._drawn_as:
            self._take_styles()
        scroll_x, scroll_y = self.scroll_offset
        width = self._drawn_as[0]
        if y < HEADER_HEIGHT:
            strip = self._strips.get((-1, False))
            if strip is None:
                labels = tuple(c.label for c in self.columns.values())
                strip = self._line(labels, self._header)
                self._strips[-1, False] = strip
        else:
            row = y - HEADER_HEIGHT + scroll_y
            if row >= len(self.rows):
                return Strip.blank(width, self._base)
            key = (row, row == self.cursor_row)
            strip = self._strips.get(key)
            if strip is None:
                strip = self._strips[key] = self.draw_row(*key)
        return strip.crop_extend(scroll_x, scroll_x + width, self._base)

    def draw_row(self, row: int, under_cursor: bool) -> Strip:
        """Row `row`'s line, in its zebra stripe or under the cursor (render_line keeps it
        until the row, the cursor, the width or the styles change)."""
        style = self._zebra[row % 2]
        post = Style()
        if under_cursor:
            style += self._cursor
            post = Style.from_color(self._cursor.color)   # over the cells' own colours
        return self._line(self.rows[row], style, post)

    def _line(self, cells: tuple[Text, ...], style: Style, post: Style | None = None) -> Strip:
        """A row of `cells` drawn in `style`, its background carried on to the pane's edge."""
        room = max(self._drawn_as[0], self.virtual_size.width)
        segments = row_segments(cells, tuple(self.columns.values()), self.app.console, room)
        return Strip(Segment.apply_style(segments, style, post), room)
