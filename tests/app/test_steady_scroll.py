"""A key that shows another turn redraws the panes whose content changed size (program,
messages, memory) without laying out the whole screen: their scrollbars and scroll range follow
the new content all the same. Asserted on state, never on time."""

import pytest
from textual.widget import Widget

from ptc_tui.app import PtcApp
from ptc_tui.widgets import MemoryPanel, MessagePanel, ProgramPanel
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio
PANES = (ProgramPanel, MessagePanel, MemoryPanel)


async def test_moving_between_turns_resizes_the_panes_content_without_a_layout(monkeypatch):
    asked: list[str] = []
    refresh = Widget.refresh

    def watched(self, *regions, layout=False, **kwargs):
        if layout and isinstance(self, PANES):
            asked.append(type(self).__name__)
        return refresh(self, *regions, layout=layout, **kwargs)
    monkeypatch.setattr(Widget, "refresh", watched)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", "2", "0", "enter")
        await settle(app, pilot)
        screen = app.screen
        panes = [screen.query_one(kind) for kind in PANES]
        messages = screen.query_one(MessagePanel)
        messages.scroll_end(animate=False)          # at the foot of turn 20's long request
        await pilot.pause()
        before = [p.virtual_size for p in panes]
        bars = [(p.show_vertical_scrollbar, p.show_horizontal_scrollbar) for p in panes]
        asked.clear()
        await pilot.press("colon", "7", "enter")    # a shorter request, less memory
        await settle(app, pilot)
        after = [p.virtual_size for p in panes]
        assert [(p.show_vertical_scrollbar, p.show_horizontal_scrollbar) for p in panes] == bars
        assert after[1].height < before[1].height and after[2].height < before[2].height
        assert asked == []                          # no pane asked for the screen's layout
        for pane in panes:                          # yet scrollbar and range follow the content
            if pane.show_vertical_scrollbar:
                assert pane.vertical_scrollbar.window_virtual_size == pane.virtual_size.height
            assert pane.scroll_y <= pane.max_scroll_y
        assert messages.max_scroll_y < before[1].height - messages.scrollable_content_region.height


async def test_a_turn_change_redraws_what_shows_the_turn_not_the_whole_screen(monkeypatch):
    """The screen's turn is not a reason to repaint the screen: the app's header and the
    footer's keys stay as drawn (Textual redrew every widget on screen once per key)."""
    drawn: list[str] = []
    render_lines = Widget.render_lines

    def watched(self, crop):
        drawn.append(type(self).__name__)
        return render_lines(self, crop)
    monkeypatch.setattr(Widget, "render_lines", watched)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert {"HeaderTitle", "FooterKey", "MessagePanel"} <= set(drawn)     # drawn at first
        drawn.clear()
        await pilot.press("j")
        await settle(app, pilot)
        assert app.screen.turn == 2
        assert {"MessagePanel", "ProgramPanel", "MemoryPanel"} <= set(drawn)
        assert not {"HeaderTitle", "FooterKey"} & set(drawn), sorted(set(drawn))
