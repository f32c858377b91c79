"""A pane given new text redraws only the rows on screen that changed (a late turn's request
mostly opens with the rows the turn before showed); what shows is then what a pane drawn
afresh shows, row for row and style for style."""

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region

from ptc_tui.app import PtcApp
from ptc_tui.widgets import MessagePanel
from ptc_tui.widgets.memory_panel import MemoryDetail
from ptc_tui.widgets.row_table import Column, RowTable
from ptc_tui.widgets.steady_scroll import SteadyScroll
from ptc_tui.widgets.text_panel import TextPanel
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio


class PanelApp(App):
    def compose(self) -> ComposeResult:
        yield TextPanel("pane")


class SteadyTable(SteadyScroll, RowTable):
    """A table whose new size redraws nothing by itself, as the memory table's."""

    DEFAULT_CSS = "SteadyTable { overflow-y: scroll; }"


class TableApp(App):
    def compose(self) -> ComposeResult:
        yield SteadyTable()


def drawn(panel) -> list:
    """The pane's lines as the screen gets them now (cached lines included)."""
    return panel.render_lines(Region(0, 0, *panel.size))


def afresh(panel) -> list:
    """The pane's lines drawn with every cache emptied."""
    panel._strips.clear()
    panel._styles_cache.clear()
    return drawn(panel)


def count_rows_drawn(monkeypatch, kind) -> list[int]:
    """The rows of panes of `kind` drawn from now on (made, not taken from those kept)."""
    rows: list[int] = []
    draw_row = kind.draw_row

    def counted(self, row, *args):
        if type(self) is kind:
            rows.append(row)
        return draw_row(self, row, *args)
    monkeypatch.setattr(kind, "draw_row", counted)
    return rows


def text(lines: list[tuple[str, str]]) -> Text:
    t = Text()
    for i, (line, style) in enumerate(lines):
        t.append(("\n" if i else "") + line, style)
    return t


async def test_only_the_rows_that_changed_are_drawn_again(monkeypatch):
    rows = count_rows_drawn(monkeypatch, TextPanel)
    app = PanelApp()
    async with app.run_test(size=(40, 20)) as pilot:
        panel = app.query_one(TextPanel)
        same = [(f"line {i}", "") for i in range(30)]
        panel.show(text(same))
        await pilot.pause()
        drawn(panel)
        rows.clear()
        changed = list(same)
        changed[3] = ("line 3 is new", "")
        changed[5] = ("line 5", "bold")         # the same characters in another style
        changed[7] = ("line 7", "")             # the same row again
        panel.show(text(changed))
        await pilot.pause()
        now = drawn(panel)
        assert sorted(set(rows)) == [3, 5]
        assert now == afresh(panel)
        assert "line 3 is new" in now[1 + 3].text     # under the border


async def test_a_shorter_or_longer_text_shows_as_drawn_afresh():
    app = PanelApp()
    async with app.run_test(size=(40, 20)) as pilot:
        panel = app.query_one(TextPanel)
        for count in (30, 5, 12, 0, 40):
            panel.show(text([(f"row {i} of {count}" if i % 2 else "same", "") for i in
                             range(count)]))
            await pilot.pause()
            assert drawn(panel) == afresh(panel), count


async def test_a_late_turn_redraws_part_of_the_request_and_none_of_an_unchanged_definition(
        monkeypatch):
    messages_rows = count_rows_drawn(monkeypatch, MessagePanel)
    detail_rows = count_rows_drawn(monkeypatch, MemoryDetail)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", "2", "0", "enter")
        await settle(app, pilot)
        messages = app.screen.query_one(MessagePanel)
        detail = app.screen.query_one(MemoryDetail)
        shown = (detail.border_title, detail.plain)
        messages_rows.clear()
        detail_rows.clear()
        await pilot.press("j")
        await settle(app, pilot)
        assert app.screen.turn == 21
        on_screen = messages.scrollable_content_region.height
        assert 0 < len(messages_rows) < on_screen          # the system prompt's rows stay
        assert drawn(messages) == afresh(messages)
        if (detail.border_title, detail.plain) == shown:   # the same definition, unchanged
            assert detail_rows == []
        else:
            assert detail_rows
        assert drawn(detail) == afresh(detail)


COLUMNS = [Column("name", Text("name"), 10), Column("value", Text("value"), 12)]


def table_rows(values: list[tuple[str, str]]) -> list[tuple[Text, ...]]:
    return [(Text(f"v{i}"), Text(value, style)) for i, (value, style) in enumerate(values)]


async def test_a_table_draws_again_only_the_rows_that_changed(monkeypatch):
    rows = count_rows_drawn(monkeypatch, SteadyTable)
    app = TableApp()
    async with app.run_test(size=(40, 20)) as pilot:
        table = app.query_one(SteadyTable)
        values = [(str(i), "") for i in range(30)]
        table.set_rows(COLUMNS, table_rows(values))
        await pilot.pause()
        drawn(table)
        rows.clear()
        values[2] = ("two", "")
        values[4] = ("4", "bold")               # the same characters in another style
        table.set_rows(COLUMNS, table_rows(values))
        await pilot.pause()
        now = drawn(table)
        assert sorted(set(rows)) == [2, 4]
        assert now == afresh(table)


async def test_a_table_cut_short_under_its_cursor_shows_the_cursor_on_its_last_row():
    app = TableApp()
    async with app.run_test(size=(40, 20)) as pilot:
        table = app.query_one(SteadyTable)
        values = [(str(i), "") for i in range(30)]
        table.set_rows(COLUMNS, table_rows(values))
        table.move_cursor(10)
        await pilot.pause()
        drawn(table)
        table.set_rows(COLUMNS, table_rows(values[:5]))     # the same first five rows
        await pilot.pause()
        assert table.cursor_row == 4
        assert drawn(table) == afresh(table)
