"""The panes' scrollbars are QuickScrollBars: the cells Textual's own scrollbar draws (glyphs,
colours, the mouse actions of the track and the thumb) as they move, drawn without Textual's
line pipeline, and a scrollbar that appears costs the screen one layout, not two. Asserted on
state; the look is also in the snapshots."""

import pytest
from textual.geometry import Region
from textual.screen import Screen

from ptc_tui.app import PtcApp
from ptc_tui.widgets import MemoryPanel, MessagePanel, ProgramPanel, TurnList
from ptc_tui.widgets.quick_scrollbar import QuickScrollBar
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio


def cells(lines) -> list[list[tuple]]:
    """What shows of each cell: its character, its background, its foreground where a glyph
    shows it, and the mouse action it carries."""
    rows = []
    for line in lines:
        row = []
        for segment in line:
            style = segment.style
            fore, back = style.color, style.bgcolor
            if style.reverse:
                fore, back = back, fore
            for char in segment.text:
                row.append((char, back, fore if char != " " else None, style.meta))
        rows.append(row)
    return rows


def textual_cells(app, bar) -> list[list[tuple]]:
    """The cells of Textual's own drawing of `bar` now (its renderable, at its size)."""
    width, height = bar.size
    options = app.console.options.update_dimensions(width, height)
    return cells(app.console.render_lines(bar.render(), options, pad=False))


async def test_the_scrollbars_draw_the_cells_textual_draws_wherever_they_are():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", "2", "0", "enter")     # a long request: both bars show
        await settle(app, pilot)
        messages = app.screen.query_one(MessagePanel)
        bar = messages.vertical_scrollbar
        assert isinstance(bar, QuickScrollBar) and messages.show_vertical_scrollbar
        whole = Region(0, 0, *bar.size)
        seen = set()
        for y in (0, messages.max_scroll_y // 3, messages.max_scroll_y):
            messages.scroll_to(y=y, animate=False, immediate=True)
            await pilot.pause()
            drawn = cells(bar.render_lines(whole))
            assert drawn == textual_cells(app, bar)
            seen.add(str(drawn))
        assert len(seen) == 3                          # the thumb moved, and was drawn anew
        bar.mouse_over = True                          # the hover colours
        assert cells(bar.render_lines(whole)) == textual_cells(app, bar)
        top = cells(bar.render_lines(Region(0, 0, bar.size.width, 2)))
        assert top == textual_cells(app, bar)[:2]      # a part of it, when asked for a part


async def test_a_horizontal_scrollbar_draws_as_textual_draws_it():
    app = PtcApp(sample("fail_not_found"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("G")                        # a 96-character line of code
        await settle(app, pilot)
        shown = [p for p in app.screen.query(ProgramPanel) if p.show_horizontal_scrollbar]
        assert shown
        bar = shown[0].horizontal_scrollbar
        assert isinstance(bar, QuickScrollBar)
        shown[0].scroll_to(x=shown[0].max_scroll_x, animate=False, immediate=True)
        await pilot.pause()
        assert cells(bar.render_lines(Region(0, 0, *bar.size))) == textual_cells(app, bar)


async def test_every_pane_of_the_trace_screen_has_them():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        for kind in (ProgramPanel, MessagePanel, MemoryPanel, TurnList):
            pane = app.screen.query_one(kind)
            assert isinstance(pane.vertical_scrollbar, QuickScrollBar), kind.__name__
            assert isinstance(pane.horizontal_scrollbar, QuickScrollBar), kind.__name__


async def test_a_turn_whose_panes_need_scrolling_costs_no_layout_of_the_screen(monkeypatch):
    """The panes keep their vertical scrollbars (an empty track when everything fits): a
    scrollbar that came and went made Textual lay out the whole screen again, about a fifth of
    `G` on a long trace."""
    layouts = []
    refresh_layout = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(type(self).__name__)
        return refresh_layout(self, *args, **kwargs)
    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        messages = app.screen.query_one(MessagePanel)
        assert messages.max_scroll_y == 0                     # turn 1's request fits
        assert messages.show_vertical_scrollbar               # its track is there all the same
        layouts.clear()
        await pilot.press("G")                                # the last turn's does not fit
        await settle(app, pilot)
        assert messages.max_scroll_y > 0
        assert "TraceScreen" not in layouts, layouts


async def test_a_click_on_the_track_below_the_thumb_scrolls_the_pane_down():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("G")
        await settle(app, pilot)
        messages = app.screen.query_one(MessagePanel)
        bar = messages.vertical_scrollbar
        assert messages.scroll_y == 0 and messages.max_scroll_y > 0
        await pilot.click(bar, offset=(0, bar.size.height - 1))   # the track's foot
        await settle(app, pilot)
        assert messages.scroll_y > 0
