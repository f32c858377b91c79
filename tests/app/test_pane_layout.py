"""Pilot tests of the main screen's layout: tab between panes, `z` zooms one, `W` wraps code,
pane widths follow the terminal's, and the layout a user chose stays for the next trace."""

import pytest

from ptc_tui.app import PtcApp
from ptc_tui.widgets import MemoryPanel, MessagePanel, ProgramPanel, TurnList
from ptc_tui.widgets.memory_panel import MemoryDetail, MemoryPane
from ptc_tui.widgets.text_panel import CONTINUED
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio
LONG_LINE_TURN = 4        # strategy_comparison: a 95-character line of code


async def test_tab_and_shift_tab_move_focus_from_pane_to_pane():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        screen = app.screen
        order = [TurnList, ProgramPanel, MessagePanel, MemoryPanel, MemoryDetail]
        assert isinstance(app.focused, TurnList)
        for kind in order[1:]:
            await pilot.press("tab")
            assert isinstance(app.focused, kind)
        await pilot.press("shift+tab")
        assert isinstance(app.focused, MemoryPanel)
        # the focused pane's border stands out from the others'
        focused, other = screen.query_one(MemoryPanel), screen.query_one(ProgramPanel)
        assert focused.styles.border_top[1] != other.styles.border_top[1]


@pytest.mark.parametrize("pane, tabs", [(ProgramPanel, 1), (MessagePanel, 2), (MemoryPane, 3)])
async def test_z_zooms_the_focused_pane_and_z_or_escape_restores_it(pane, tabs):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        screen = app.screen
        await pilot.press(*["tab"] * tabs, "z")
        await pilot.pause()
        zoomed = screen.query_one(pane)
        assert screen.maximized is zoomed and app.pane_layout.zoomed == zoomed.id
        assert zoomed.region.width == WIDE[0]                 # the whole width
        assert not screen.query_one(TurnList).region          # the rest hidden
        assert screen.query_one("#footer").region             # the footer stays
        assert screen.active_bindings["z"].binding.description == "Zoom"
        await pilot.press("j")                                # keys still move the turn
        assert screen.turn == 2 and screen.maximized is zoomed
        await pilot.press("z")
        await pilot.pause()
        assert screen.maximized is None and app.pane_layout.zoomed is None
        assert zoomed.region.width < WIDE[0] // 2
        await pilot.press("z", "escape")
        await pilot.pause()
        assert screen.maximized is None and app.pane_layout.zoomed is None


async def test_z_from_the_turn_list_zooms_the_program_pane_and_says_so(notified):
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=WIDE) as pilot:
        screen = app.screen
        assert isinstance(app.focused, TurnList)              # where the app starts
        await pilot.press("z")
        await pilot.pause()
        program = screen.query_one(ProgramPanel)
        assert screen.maximized is program and app.focused is program
        assert program.region.width == WIDE[0]
        assert not screen.query_one(TurnList).region
        assert notified[-1].startswith("the turn list is as wide as it needs: zoomed the "
                                       "program pane")
        await pilot.press("j")                                # keys still move the turn
        assert screen.turn == 2
        await pilot.press("z")
        await pilot.pause()
        assert screen.maximized is None and screen.query_one(TurnList).region


async def test_program_code_scrolls_sideways_until_w_wraps_it(view_of):
    view = view_of("strategy_comparison")
    code = view.turn(LONG_LINE_TURN).program.program
    longest = max(code.splitlines(), key=len)
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press(*["j"] * (LONG_LINE_TURN - 1))
        await pilot.pause()
        panel = app.screen.query_one(ProgramPanel)
        width = panel.scrollable_content_region.width
        assert len(longest) > width
        lines = [line.plain for line in panel.laid_out]
        assert longest in lines                               # one line, not wrapped
        assert panel.virtual_size.width >= len(longest) > panel.size.width
        assert not any(line.startswith(CONTINUED) for line in lines)
        await pilot.press("tab", "right", "right", "right")
        assert panel.scroll_x == 3                            # arrows scroll it sideways

        await pilot.press("W")
        await pilot.pause()
        lines = [line.plain for line in panel.laid_out]
        assert app.pane_layout.wrap_code and longest not in lines
        assert all(len(line) <= width for line in lines)
        start = next(i for i, line in enumerate(lines) if longest.startswith(line))
        rest = longest[len(lines[start]):]
        joined = "".join(line.removeprefix(CONTINUED) for line in lines[start + 1:start + 4]
                         if line.startswith(CONTINUED))
        assert joined.startswith(rest[:20])                   # the same line, marked ↪ after
        assert panel.scroll_x == 0
        await pilot.press("W")
        await pilot.pause()
        assert longest in [line.plain for line in panel.laid_out]


async def test_prose_in_the_program_pane_is_still_word_wrapped(view_of):
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("r")                                 # the whole reply: long lines
        await pilot.pause()
        panel = app.screen.query_one(ProgramPanel)
        width = panel.scrollable_content_region.width
        code = view_of("strategy_comparison").turn(1).program.program.splitlines()
        long_prose = [line for line in panel.plain.splitlines()
                      if line not in code and len(line) > width]
        assert long_prose                                       # some prose needs wrapping
        assert all(line.cell_len <= width for line in panel.laid_out if line.plain not in code)


@pytest.mark.parametrize("size", [(140, 45), (160, 45), (199, 45)])
async def test_between_140_and_200_columns_code_and_messages_are_wider_than_memory(size):
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=size):
        screen = app.screen
        program, messages, memory = (screen.query_one(w).region.width
                                     for w in (ProgramPanel, MessagePanel, MemoryPane))
        assert program > memory and messages > memory
        turns = screen.query_one(TurnList)
        # as narrow as its columns: cells and padding, the scrollbar's gutter, the border
        assert turns.region.width == sum(c.render_width for c in
                                         turns.columns.values()) + 2 + 2


async def test_above_200_columns_every_pane_is_comfortable():
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=(240, 50)):
        widths = [app.screen.query_one(w).region.width
                  for w in (ProgramPanel, MessagePanel, MemoryPane)]
        assert min(widths) >= 60 and max(widths) - min(widths) <= 1


async def test_the_layout_a_user_chose_stays_for_the_next_trace():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("tab", "tab", "z", "W")
        await pilot.pause()
        first = app.screen
        assert first.maximized is first.query_one(MessagePanel)
        app.open_trace(sample("tool_heavy"))
        await settle(app, pilot)
        screen = app.screen
        assert screen is not first and screen.source == sample("tool_heavy")
        assert screen.maximized is screen.query_one(MessagePanel)
        assert app.focused is screen.query_one(MessagePanel)
        assert screen.query_one(ProgramPanel).wrap_code
