"""Pilot tests of the HelpScreen: the main screen's keys by area, and closing it."""

import re

import pytest
from textual.binding import Binding

from ptc_tui.app import PtcApp
from ptc_tui.screens.help_screen import HelpScreen
from ptc_tui.screens.trace_screen import TraceScreen
from ptc_tui.widgets.text_panel import TextPanel
from tests.app.conftest import WIDE, sample

pytestmark = pytest.mark.anyio

AREA_TITLES = {"turns": "Turns", "view": "View"}
KEY_ROW = re.compile(r"  \S.*?\s{2,}")     # a key row up to its description


def sections(app) -> dict[str, list[tuple[list[str], str]]]:
    """Area title → its (keys, description) rows, from the help text above the `about` rule."""
    keys = app.screen.query_one("#help-text", TextPanel).plain.split("── about ──")[0]
    blocks = [block.splitlines() for block in keys.strip().split("\n\n")]
    return {lines[0]: [parse(line) for line in lines[1:]] for lines in blocks}


def parse(row: str) -> tuple[list[str], str]:
    keys, description = re.fullmatch(r"\s+(.+?)\s{2,}(.+)", row).groups()
    return keys.split(" / "), description


async def open_help(app, pilot):
    closed = []
    app.push_screen(HelpScreen(app.screen), closed.append)
    await pilot.pause()
    return closed


async def test_help_lists_each_trace_screen_binding_under_its_area():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await open_help(app, pilot)
        listed = sections(app)
        expected = [b for b in TraceScreen.BINDINGS
                    if isinstance(b, Binding) and b.id and b.id.split(".")[0] in AREA_TITLES]
        assert {b.key.split(",")[0] for b in expected} >= {"j", "]", "s"}
        for b in expected:
            key = app.get_key_display(Binding(b.key.split(",")[0], b.action))
            rows = listed[AREA_TITLES[b.id.split(".")[0]]]
            assert any(key in keys and text.startswith(b.description) for keys, text in rows), \
                (key, rows)
        assert list(listed)[:2] == ["Turns", "View"]


async def test_help_shows_keys_in_display_form_and_leaves_out_widget_internals():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await open_help(app, pilot)
        turns = [key for keys, _ in sections(app)["Turns"] for key in keys]
        assert "]" in turns and "[" in turns
        assert "right_square_bracket" not in str(sections(app))
        described = [text for rows in sections(app).values() for _, text in rows]
        assert "Cursor up" not in described          # the turn table's own keys
        about = app.screen.query_one("#help-text", TextPanel).plain.split("── about ──")[1]
        assert "strategy" in about and "literally" in about


@pytest.mark.parametrize("key", ["escape", "q", "question_mark"])
async def test_escape_q_and_question_mark_close_the_help(key):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_help(app, pilot)
        await pilot.press(key)
        await pilot.pause()
        assert closed == [None]
        assert isinstance(app.screen, TraceScreen)


@pytest.mark.parametrize("key", ["question_mark", "f1"])
async def test_question_mark_and_f1_open_the_help_from_the_main_screen(key):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Next failed" in app.screen.query_one("#help-text", TextPanel).plain


@pytest.mark.parametrize("size", [(160, 45), (100, 40), (80, 24)])
async def test_a_wrapped_description_continues_under_its_own_column(size):
    """A description too long for the pane wraps within its column (a hanging indent): each
    continuation row starts where the descriptions start, and no word is lost."""
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=size) as pilot:
        await open_help(app, pilot)
        listed = sections(app)
        panel = app.screen.query_one("#help-text", TextPanel)
        rows = [row.plain.rstrip() for row in panel.laid_out]
        rows = rows[:rows.index("── about ──")]
        column = KEY_ROW.match(rows[1]).end()              # rows[0] is the first area's title
        shown, continued = [], 0
        for row in rows:
            if not row or row in listed:                      # a blank row or an area title
                continue
            if key_row := KEY_ROW.match(row):
                assert key_row.end() == column, row
                shown.append(row[column:])
            else:                                             # a description's continuation
                assert row.startswith(" " * column) and row[column] != " ", (column, row)
                shown[-1] += " " + row[column:]
                continued += 1
        assert continued > 0                 # some descriptions are wider than the pane
        assert shown == [text for rows in listed.values() for _, text in rows]
