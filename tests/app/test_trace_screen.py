"""Pilot tests of the TraceScreen: state, not pixels."""

import pytest

from ptc_tui.app import PtcApp
from ptc_tui.launch import run_app
from ptc_tui.screens import STRATEGY_CYCLE
from ptc_tui.widgets import MemoryPanel, MessagePanel, ProgramPanel, TraceHeader, TurnList
from ptc_tui.widgets.trace_header import header_text
from ptc_tui.widgets.turn_list import GLYPHS
from engine.trace import load_trace
from ptc_tui.view import TraceView
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio


def turn_list_cells(app):
    table = app.screen.query_one(TurnList)
    return [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_turn_list_has_one_row_per_turn_with_its_status(view_of):
    rows = view_of("error_recovery").rows()
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE):
        cells = turn_list_cells(app)
        assert [c[0] for c in cells] == [str(r.number) for r in rows]
        assert [c[1] for c in cells] == [GLYPHS[r.status][0] for r in rows]
        assert {r.status for r in rows} >= {"ok", "error", "no_code", "return"}


@pytest.mark.parametrize("keys, turn", [
    ("end", 26), ("end home", 1), ("pagedown", 14), ("pagedown pagedown pageup", 13),
    ("end up", 25), ("ctrl+end ctrl+home", 1),
])
async def test_the_turn_lists_own_keys_move_the_selection_and_keep_the_cursor_in_view(keys, turn):
    app = PtcApp(sample("long_exploration"))         # 26 turns, 13 rows on screen
    async with app.run_test(size=(120, 21)) as pilot:
        await pilot.press(*keys.split())
        await pilot.pause()
        table = app.screen.query_one(TurnList)
        assert app.screen.turn == turn and table.cursor_row == turn - 1
        rows_shown = table.scrollable_content_region.height - table.header_height
        assert rows_shown == 13
        assert table.scroll_y <= table.cursor_row < table.scroll_y + rows_shown
        assert f"turn {turn}" in app.screen.query_one(ProgramPanel).border_title


@pytest.mark.parametrize("keys, turn", [
    ("j", 2), ("j j", 3), ("j j k", 2), ("G", 8), ("G g", 1), ("down down", 3), ("G up", 7),
    ("k", 1), ("G j", 8),
])
async def test_keys_move_the_selection_and_the_program_pane_follows(view_of, keys, turn):
    view = view_of("error_recovery")
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press(*keys.split())
        await pilot.pause()
        assert app.screen.turn == turn
        assert app.screen.query_one(TurnList).cursor_row == turn - 1
        program = view.trace.turns[turn - 1].program
        shown = app.screen.query_one(ProgramPanel).plain
        assert (program.strip() in shown) if program else "no code" in shown


async def test_brackets_jump_between_failed_turns(view_of):
    failed = view_of("error_recovery").failed_turns()
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        seen = []
        for _ in failed[1:]:
            await pilot.press("]")
            seen.append(app.screen.turn)
        assert seen == list(failed[1:])
        await pilot.press("[")
        assert app.screen.turn == failed[-2]
        await pilot.press("G", "]")          # none after the last turn: stays put
        assert app.screen.turn == 8


async def test_s_cycles_the_strategy_and_every_count_follows(view_of):
    base = view_of("error_recovery")
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("j", "j")
        start = app.screen.view.strategy
        i = STRATEGY_CYCLE.index(start)
        for step in range(1, len(STRATEGY_CYCLE) + 1):
            await pilot.press("s")
            await settle(app, pilot)
            name = STRATEGY_CYCLE[(i + step) % len(STRATEGY_CYCLE)]
            expected = base.with_strategy(name)
            assert app.screen.view.strategy == name
            assert app.screen.turn == 3                      # selection kept
            header = app.screen.query_one(TraceHeader)
            assert str(header.content) == header_text(expected.header()).plain
            assert f"\ntokens: {expected.header().tokens:,} " in str(header.content)
            assert [c[2] for c in turn_list_cells(app)] == [f"{r.tokens:,}"
                                                          for r in expected.rows()]
            assert [c[3] for c in turn_list_cells(app)] == [f"{r.full_tokens:,}"
                                                          for r in expected.rows()]
            messages = app.screen.query_one(MessagePanel).plain
            said = "recorded" if name == start else "what-if"
            assert f"{said}: {expected.turn(3).messages.tokens:,} tokens" in messages
        assert app.screen.view.strategy == start


async def test_p_raises_println_limit_and_the_dropped_prints_change(view_of):
    base = view_of("long_exploration")
    limit = base.opts.println_limit
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press(*["j"] * 6)                          # turn 7
        before = app.screen.query_one(MessagePanel).plain
        await pilot.press("p")
        await pilot.pause()
        after = app.screen.query_one(MessagePanel).plain
        assert app.screen.view.opts.println_limit == limit + 1
        assert app.screen.turn == 7
        dropped = lambda v: [d for d in v.turn(7).messages.dropped if d.kind == "print"]
        assert len(dropped(base.with_options(println_limit=limit + 1))) < len(dropped(base))
        assert f"dropped ({len(base.turn(7).messages.dropped)})" in before
        assert (f"dropped ({len(base.with_options(println_limit=limit + 1).turn(7).messages.dropped)})"
                in after)
        await pilot.press("P", "P")
        assert app.screen.view.opts.println_limit == limit - 1


async def test_t_and_T_change_tool_call_limit(view_of):
    limit = view_of("tool_heavy").opts.tool_call_limit
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("t", "t", "T")
        assert app.screen.view.opts.tool_call_limit == limit + 1


async def test_limits_never_go_below_zero():
    app = PtcApp(sample("single_shot"))
    async with app.run_test(size=WIDE) as pilot:
        app.screen.view = app.screen.view.with_options(println_limit=0)
        await pilot.press("P")
        assert app.screen.view.opts.println_limit == 0


@pytest.mark.parametrize("width, narrow", [(160, False), (100, True)])
async def test_panes_stack_when_narrow(width, narrow):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=(width, 50)):
        assert app.screen.has_class("-narrow") is narrow
        program, messages = app.screen.query_one(ProgramPanel), app.screen.query_one(MessagePanel)
        if narrow:
            assert messages.region.y > program.region.y
        else:
            assert messages.region.x > program.region.x


async def test_q_quits():
    app = PtcApp(sample("single_shot"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("q")
        assert app.return_code == 0 and not app.is_running


def test_run_app_reports_a_bad_file_without_starting(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run_app(bad) == 2                    # as every command says of a bad file
    err = capsys.readouterr().err
    assert err.startswith(f"ptc-tui: {bad}: not valid JSON") and err.count("\n") == 1


async def test_the_system_prompt_is_folded_so_the_user_message_shows_first():
    trace_file = sample("error_recovery")
    app = PtcApp(trace_file)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("j", "j")
        shown = app.screen.query_one(MessagePanel).plain
        view = TraceView.of(load_trace(trace_file))
        system, user = view.turn(3).messages.messages[:2]
        assert system.content.splitlines()[0] in shown
        assert system.content not in shown and "more lines, the same on every turn" in shown
        assert user.content in shown
        assert shown.index(user.content[:40]) < 400


async def test_a_focused_pane_scrolls_and_draws_the_lines_it_scrolls_to():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("G")
        panel = app.screen.query_one(MessagePanel)
        panel.focus()
        await pilot.pause()
        assert panel.virtual_size.height > panel.size.height       # more than one screen
        await pilot.press("pagedown")
        await pilot.pause()
        assert panel.scroll_offset.y > 0
        top = panel.render_line(0).text.strip()
        assert top and top in panel.plain
        await pilot.press("end")
        await pilot.pause()
        last = panel.render_line(panel.size.height - 1).text.strip()
        assert panel.plain.rstrip().endswith(last)


async def test_memory_rows_show_type_defining_turn_sample_and_doc(view_of):
    view = view_of("long_exploration")
    number = max(t.number for t in view.trace.turns if t.definitions and t.error is None)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", *str(number), "enter")
        await pilot.pause()
        assert app.screen.turn == number
        table = app.screen.query_one(MemoryPanel)
        rows = view.turn(number).memory
        cells = [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]
        # a narrow pane leaves out the turn, then the type (the definition below shows both)
        shown = [c.label.plain for c in table.columns.values()]
        assert {"name", "sample", "doc"} <= set(shown)
        whole = [{"": "●" if r.changed else "", "name": r.name, "type": r.type,
                  "turn": "" if r.defined_in is None else str(r.defined_in),
                  "sample": r.type if r.sample is None else r.sample,   # no sample: its type
                  "doc": r.doc or ""} for r in rows]
        assert cells == [[w[label] for label in shown] for w in whole]
        assert any(r.doc for r in rows) and any(r.changed for r in rows)
