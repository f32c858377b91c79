"""Text from traces is shown literally: no Rich markup, no terminal escapes."""

import dataclasses

import pytest
from rich.text import Text

from engine.trace import load_trace, save_trace
from ptc_tui.app import PtcApp
from ptc_tui.view import ErrorView
from ptc_tui.widgets import MemoryPanel, MessagePanel, ProgramPanel, escape_controls, literal
from ptc_tui.widgets.literal import Pieces
from ptc_tui.widgets.program_panel import program_text
from tests.app.conftest import WIDE, sample

pytestmark = pytest.mark.anyio

HOSTILE = ("[bold red]x[/]", "\x1b[2J cleared?", "bell\x07 and \x9b csi")


async def drawn_lines(panel, pilot) -> str:
    """Every line `panel` draws, page by page as the user would scroll through it."""
    lines = []
    for top in range(0, panel.virtual_size.height, panel.size.height):
        panel.scroll_to(y=top, animate=False)
        await pilot.pause()
        lines += [panel.render_line(y).text for y in range(panel.size.height)]
    return "\n".join(lines)


@pytest.mark.parametrize("pieces", [
    [(h, "bold") for h in HOSTILE],
    [("plain ", ""), ("", "red"), ("styled\n", "green"), ("\r\x08tail", "")],
    [("plain ", ""), ("[bold]x[/]", "red"), ("→ …\n\t", "green"), ("é", "")],   # none to escape
    [],
])
def test_pieces_make_the_text_appending_literals_makes(pieces):
    """A request's hundreds of parts put together at once: the same text and styles as
    appending each part as a literal, control characters escaped, markup kept as written."""
    made, expected = Pieces(), Text()
    for piece, style in pieces:
        made.append(piece, style)
        expected.append_text(literal(piece, style))
    text = made.text()
    assert (text.plain, text.spans) == (expected.plain, expected.spans)
    assert "\x1b" not in text.plain and "\x07" not in text.plain


def test_escape_controls_keeps_newlines_and_tabs():
    assert escape_controls("a\x1b[2Jb\n\tc\x7f") == "a\\x1b[2Jb\n\tc\\x7f"
    assert literal("[bold]x[/]").plain == "[bold]x[/]"


async def test_markup_and_escapes_in_prints_are_shown_literally(tmp_path):
    trace = load_trace(sample("error_recovery"))
    turns = list(trace.turns)
    turns[1] = dataclasses.replace(turns[1], prints=HOSTILE)
    path = tmp_path / "hostile.json"
    save_trace(dataclasses.replace(trace, turns=tuple(turns)), path)

    app = PtcApp(path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("j")
        await pilot.pause()
        shown = app.screen.query_one(ProgramPanel).plain
        assert "[bold red]x[/]" in shown
        assert "\\x1b[2J cleared?" in shown and "\x1b" not in shown
        assert "bell\\x07 and \\x9b csi" in shown
        # what the screen drew holds the brackets and the escaped ESC too
        drawn = await drawn_lines(app.screen.query_one(ProgramPanel), pilot)
        assert "[bold red]x[/]" in drawn and "\\x1b[2J cleared?" in drawn


async def test_memory_cells_are_text_not_markup():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("G")
        table = app.screen.query_one(MemoryPanel)
        assert table.row_count == len(table.rows_shown) > 0
        names = [table.get_row_at(i)[1].plain for i in range(table.row_count)]
        assert names == [r.name for r in table.rows_shown]


async def test_hostile_prints_are_literal_in_the_message_pane_too(tmp_path):
    trace = load_trace(sample("error_recovery"))
    turns = list(trace.turns)
    turns[1] = dataclasses.replace(turns[1], prints=HOSTILE)
    path = tmp_path / "hostile.json"
    save_trace(dataclasses.replace(trace, turns=tuple(turns)), path)
    app = PtcApp(path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("j", "j")
        shown = app.screen.query_one(MessagePanel).plain
        assert "[bold red]x[/]" in shown and "\x1b" not in shown


def test_error_span_is_marked_on_the_escaped_program():
    error = ErrorView("parse_error", "m", None, 2, 1, 2, 2, "t")
    text = program_text('(a "\x1b")\n(b', error)
    marked = [text.plain[s.start:s.end] for s in text.spans if "red" in str(s.style)]
    assert marked == ["("] and text.plain.startswith('(a "\\x1b")')
