"""A table row's segments (row_segments) draw exactly as its cells joined into one Text and
rendered by Rich, the way the rows were made before: same characters, each in the same style;
and a row of plain cells is one segment, not one per cell and padding."""

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text

from ptc_tui.widgets.row_table import PADDING, Column, row_segments
from ptc_tui.widgets.turn_list import row_cells
from ptc_tui.view import TurnRow

CONSOLE = Console(width=200, color_system="truecolor")
STYLES = ("", "bold", "dim", "cyan", "bold red", "italic", "yellow on blue")


def joined(cells: tuple[Text, ...], columns: tuple[Column, ...]) -> Text:
    """The cells side by side as one Text: how the rows were drawn before row_segments."""
    line = Text(no_wrap=True, end="")
    pad = " " * PADDING
    for cell, column in zip(cells, columns):
        if cell.cell_len > column.width:
            cell = cell.copy()
            cell.truncate(column.width, overflow="crop")
        room = " " * (column.width - cell.cell_len)
        if cell.justify == "right":
            line.append(pad + room)
            line.append_text(cell)
            line.append(pad)
        else:
            line.append(pad)
            line.append_text(cell)
            line.append(room + pad)
    return line


def by_cell(segments) -> list[tuple[str, Style]]:
    """Each character with the style it is drawn in (a missing style is the null style)."""
    return [(char, segment.style or Style.null()) for segment in segments
            for char in segment.text]


@st.composite
def cells(draw) -> Text:
    plain = draw(st.text(st.sampled_from("ab 1,…→✓⚑中文🙂"), max_size=12))
    cell = Text(plain, style=draw(st.sampled_from(STYLES)),
                justify=draw(st.sampled_from(("left", "right", None))))
    if plain and draw(st.booleans()):
        start = draw(st.integers(0, len(plain) - 1))
        end = draw(st.integers(start, len(plain)))
        cell.spans.append(Span(start, end, draw(st.sampled_from(STYLES[1:]))))
    return cell


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(cells(), st.integers(0, 10)), min_size=1, max_size=6))
def test_a_row_draws_as_its_cells_joined(row):
    row_cells_ = tuple(cell for cell, _ in row)
    columns = tuple(Column(str(i), Text(""), width) for i, (_, width) in enumerate(row))
    expected = list(joined(row_cells_, columns).render(CONSOLE))
    assert by_cell(row_segments(row_cells_, columns, CONSOLE)) == by_cell(expected)


def test_a_turn_rows_plain_cells_run_together():
    """A turn's row: its number and counts are plain, so padding and all run into the
    segments either side of the one styled cell, the status glyph."""
    cells_ = row_cells(TurnRow(12, "ok", 1234, 5678, "", False))
    columns = tuple(Column(str(i), Text(""), w) for i, w in enumerate((3, 2, 6, 6)))
    segments = row_segments(cells_, columns, CONSOLE)
    assert [s.text for s in segments] == ["  12  ", "✓", "    1,234   5,678 "]
    assert segments[1].style == Style.parse("green")
    assert segments[0].style is None and segments[2].style is None
    assert by_cell(segments) == by_cell(joined(cells_, columns).render(CONSOLE))


def test_a_row_is_padded_to_the_width_in_its_last_plain_segment():
    cells_ = (Text("a", "bold"), Text("b"))
    columns = (Column("x", Text(""), 1), Column("y", Text(""), 1))
    segments = row_segments(cells_, columns, CONSOLE, width=10)
    assert [s.text for s in segments] == [" ", "a", "  b" + " " * 5]
    assert sum(s.cell_length for s in segments) == 10


def test_an_empty_row_is_its_padding():
    columns = (Column("a", Text(""), 3),)
    assert row_segments((Text(""),), columns, CONSOLE) == [Segment(" " * 5)]
