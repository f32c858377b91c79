"""Pilot tests of the app as a whole: opening traces and samples (a corrupt one loses nothing),
the command palette, the clipboard, the mouse, and the dialogs wired into the main screen."""

import json
import os

import pytest
from textual.color import Color
from textual.widgets import Select

from ptc_tui.app import PtcApp
from ptc_tui.screens import LiveScreen, TraceScreen
from ptc_tui.screens.diff_screen import DiffScreen
from ptc_tui.screens.open_dialog import OpenDialog, SamplePickerDialog
from ptc_tui.screens.token_screen import TokenScreen
from ptc_tui.widgets import MessagePanel, ProgramPanel, TurnList
from ptc_tui.widgets.options_panel import OptionsPanel
from tests.app.conftest import WIDE, sample, settle
from tests.app.test_live_screen import demo_session

pytestmark = pytest.mark.anyio


async def choose(app, pilot, dialog_type, result):
    """The dialog on top is a `dialog_type`; answer it with `result` as the user would."""
    await pilot.pause()
    assert isinstance(app.screen, dialog_type)
    app.screen.dismiss(result)
    await settle(app, pilot)


async def test_ctrl_o_opens_another_trace(view_of):
    app = PtcApp(sample("single_shot"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("ctrl+o")
        await choose(app, pilot, OpenDialog, sample("tool_heavy"))
        assert isinstance(app.screen, TraceScreen)
        assert app.screen.view.trace == view_of("tool_heavy").trace
        assert app.sub_title == "tool_heavy.json"
        assert app.screen.query_one(TurnList).row_count == len(app.screen.view.trace.turns)
        assert len(app.screen_stack) == 2            # replaced, not stacked


@pytest.mark.parametrize("content", ['{"version": 1, "turns": [', "\xff\xfe not utf-8", "[]"])
async def test_a_corrupt_trace_is_a_notification_and_the_current_one_stays(tmp_path, content,
                                                                         notified):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content.encode("latin-1"))
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("j", "j")
        before = app.screen
        await pilot.press("ctrl+o")
        await choose(app, pilot, OpenDialog, bad)
        assert app.screen is before and app.screen.turn == 3 and app.is_running
        assert app.sub_title == "error_recovery.json"
        assert any("bad.json" in n for n in notified)


async def test_ctrl_e_picks_a_bundled_sample(view_of):
    app = PtcApp(sample("single_shot"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("ctrl+e")
        await choose(app, pilot, SamplePickerDialog, sample("fail_not_found"))
        assert app.screen.view.trace == view_of("fail_not_found").trace


async def test_an_unsaved_live_run_is_not_replaced_by_opening_a_trace(notified):
    app = PtcApp(session=demo_session())
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n")
        await settle(app, pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, LiveScreen)
        assert any("not saved" in n for n in notified)


async def test_the_command_palette_runs_the_apps_own_commands():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for title in ("Search", "Go to turn", "Tokens", "Diff", "Save", "Open", "Samples",
                      "Options", "Help", "Theme", "Strategy: namespaced"):
            assert title in titles
        assert app.screen.view.strategy != "namespaced"
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Strategy: namespaced")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TraceScreen) and app.screen.view.strategy == "namespaced"


async def test_y_copies_the_user_message_and_Y_the_whole_request(view_of):
    view = view_of("error_recovery")
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("j", "j", "y")
        assert app.clipboard == view.last_user_message(3) and "Turns left" in app.clipboard
        await pilot.press("Y")
        messages, _ = view.rendering.requests[2]
        assert json.loads(app.clipboard) == list(messages)


async def test_clicking_a_turn_selects_it():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        table = app.screen.query_one(TurnList)
        top = table.styles.gutter.top                       # the border
        await pilot.click(TurnList, offset=(2, top + table.header_height + 4))   # the fifth row
        await pilot.pause()
        assert app.screen.turn == 5
        assert "turn 5" in app.screen.query_one(ProgramPanel).border_title


async def test_the_options_panel_changes_every_pane_at_once(view_of):
    base = view_of("long_exploration")
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.press(*["j"] * 6)
        panel = app.screen.query_one(OptionsPanel)
        assert not panel.display
        await pilot.press("o")
        assert panel.display and panel.has_focus_within
        await pilot.click("#option-println-limit .less")
        await settle(app, pilot)
        expected = base.with_options(println_limit=base.opts.println_limit - 1)
        assert app.screen.view.opts == expected.opts and app.screen.turn == 7
        shown = app.screen.query_one(MessagePanel).plain
        assert shown.startswith("what the LLM would see under these options")
        assert f"what-if: {expected.turn(7).messages.tokens:,} tokens" in shown
        table = app.screen.query_one(TurnList)
        assert [table.get_row_at(i)[2].plain for i in range(table.row_count)] == \
            [f"{r.tokens:,}" for r in expected.rows()]
        await pilot.press("p")                       # keys and panel stay in step
        await pilot.pause()
        assert panel.query_one("#option-println-limit Input").value == str(base.opts.println_limit)


async def test_the_options_panel_is_made_on_first_opening_with_the_options_then_in_force(view_of):
    """Hidden, the panel is one widget (its hundred are made on `o`), and the limits changed
    by keys before that show in it."""
    base = view_of("long_exploration")
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        panel = app.screen.query_one(OptionsPanel)
        assert not panel.children
        await pilot.press("p", "p", "t")
        await settle(app, pilot)
        await pilot.press("o")
        assert panel.has_focus_within
        assert panel.query_one("#option-println-limit Input").value == \
            str(base.opts.println_limit + 2)
        assert panel.query_one("#option-tool-call-limit Input").value == \
            str(base.opts.tool_call_limit + 1)
        assert len(list(panel.walk_children())) > 50


async def test_the_options_panels_border_says_whether_the_focus_is_in_it():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        panel = app.screen.query_one(OptionsPanel)

        def border() -> Color:
            return panel.styles.border_top[1]

        def theme(name: str) -> Color:
            return Color.parse(app.theme_variables[name])
        await pilot.press("o")
        await pilot.pause()
        assert panel.has_focus_within and border() == theme("primary")
        await pilot.press("tab")                       # from field to field: still in it
        await pilot.pause()
        assert panel.has_focus_within and border() == theme("primary")
        app.screen.query_one(TurnList).focus()
        await pilot.pause()
        assert border() == theme("primary-muted")
        panel.query_one(Select).focus()
        await pilot.pause()
        before = theme("primary")
        app.theme = "nord"                                 # another theme: its own colour
        await settle(app, pilot)
        assert border() == theme("primary") != before


@pytest.mark.parametrize("width, program_shown", [(160, False), (200, True)])
async def test_the_options_panel_takes_the_program_panes_place_below_200_columns(
        width, program_shown):
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(width, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("G", "o")
        await settle(app, pilot)
        screen = app.screen
        program = screen.query_one(ProgramPanel)
        memory = screen.query_one("#memory")
        assert screen.query_one(OptionsPanel).display and program.display == program_shown
        # the request and the memory's title are not squeezed: "memory after turn 26 (20)"
        assert memory.border_title == "memory after turn 26 (20)"
        assert memory.outer_size.width >= len(memory.border_title) + 5      # ╭─ title ─╮
        assert screen.query_one(MessagePanel).outer_size.width >= 40
        await pilot.press("escape")
        await settle(app, pilot)
        assert program.display and program.outer_size.width >= 40


async def test_below_140_columns_the_open_options_panel_leaves_the_request_and_memory():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        memory, pane = app.screen.query_one("#memory"), app.screen.query_one("#memory-pane")
        assert memory.outer_size.width < pane.size.width        # beside the definition
        await pilot.press("o")
        await settle(app, pilot)
        turns = app.screen.query_one(TurnList)
        assert not app.screen.query_one(ProgramPanel).display and not turns.display
        assert memory.outer_size.width == pane.size.width       # over it: the whole width
        assert app.screen.query_one(MessagePanel).outer_size.width >= 50
        await pilot.press("j")                                  # the keys still move
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen.turn == 2 and turns.display and app.focused is turns


async def test_zoom_and_the_options_panel_take_turns():
    """A zoomed pane covers the panel: `z` closes the panel and zooms as ever (from the turn
    list, the program pane, which the panel hid: it zoomed a hidden pane, a blank screen);
    `o` while zoomed unzooms and shows the panel (it opened hidden, focus in it)."""
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        screen, panel = app.screen, app.screen.query_one(OptionsPanel)
        program = screen.query_one(ProgramPanel)
        await pilot.press("o")
        screen.query_one(TurnList).focus()
        await pilot.press("z")
        await settle(app, pilot)
        assert not panel.display and program.display and screen.maximized is program
        await pilot.press("o")
        await settle(app, pilot)
        assert screen.maximized is None and panel.display and panel.has_focus_within
        screen.query_one(MessagePanel).focus()                 # z on a pane the panel leaves
        await pilot.press("z")
        await settle(app, pilot)
        assert screen.maximized is screen.query_one(MessagePanel) and not panel.display


async def test_r_with_the_program_pane_hidden_says_where_the_reply_shows(notified):
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("o")
        app.screen.query_one(TurnList).focus()
        await pilot.press("r")
        assert app.screen.reply_open
        assert notified[-1].startswith("the reply: whole, in the program pane once the options")


async def test_go_to_search_and_diff_move_the_main_selection(view_of):
    view = view_of("error_recovery")
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", "6", "enter")
        await pilot.pause()
        assert app.screen.turn == 6
        first = view.search("Error")[0].turn
        assert first != 6
        await pilot.press("slash", *"Error")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.turn == first
        await pilot.press("g", "d")
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        await pilot.press("j", "j", "escape")
        await pilot.pause()
        assert app.screen.turn == 3


async def test_the_token_view_remembers_the_chosen_model():
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, TokenScreen)
        await pilot.press("m", "m", "escape")
        await pilot.pause()
        chosen = app.screen.price_model
        assert chosen is not None
        await pilot.press("v")
        await pilot.pause()
        assert app.screen.tokens.model == chosen


async def test_E_exports_the_trace_as_otlp_json(tmp_path, notified):
    from engine.trace.otel import loads_otlp
    from ptc_tui.screens.open_dialog import SaveDialog
    target = tmp_path / "run.otlp.json"
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("E")
        await choose(app, pilot, SaveDialog, target)
        back = loads_otlp(target.read_text(encoding="utf-8"), str(target))
        assert [t.program for t in back.turns] == [t.program for t in app.screen.view.trace.turns]
        assert any(f"wrote 8 turns to {target}" in n for n in notified)


async def test_a_save_that_fails_is_a_notification(tmp_path, notified):
    from ptc_tui.screens.open_dialog import SaveDialog
    app = PtcApp(sample("single_shot"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("ctrl+s")
        await choose(app, pilot, SaveDialog, tmp_path / "no-such-dir" / "run.json")
        assert app.is_running and any("no-such-dir" in n and "No such file" in n
                                      for n in notified)


async def test_opening_a_fifo_is_a_notification_and_q_still_quits(tmp_path, notified):
    """A FIFO named like a trace: refused by its type at once (opening it would block until a
    writer came), the current trace stays and `q` quits."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        before = app.screen
        await pilot.press("ctrl+o")
        await choose(app, pilot, OpenDialog, fifo)
        assert app.screen is before
        assert any("pipe.json: cannot read the file: it is a FIFO" in n for n in notified)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
