"""Pilot tests of forking in the app: `f` opens the fork dialog with the trace's LLM and the
options on screen, the fork opens as a live run stepped with n/c, its turns say which are
recorded (from the parent) and which are what-ifs, and `F` compares it with its parent."""

import shutil

import pytest
from textual.widgets import DataTable, Input, Select, Static

from engine.trace import load_trace
from ptc_tui.app import PtcApp
from ptc_tui.screens import LiveScreen, TraceScreen
from ptc_tui.screens.compare_screen import CompareScreen
from ptc_tui.screens.fork_dialog import ForkDialog
from ptc_tui.widgets.live_status import LiveStatus
from ptc_tui.widgets import MessagePanel, ProgramPanel, TraceHeader, TurnList
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio
SAMPLE = "strategy_comparison"


async def open_dialog(app, pilot, turn: int, *keys: str) -> ForkDialog:
    await settle(app, pilot)
    await pilot.press(*keys, *["j"] * (turn - 1), "f")
    await pilot.pause()
    assert isinstance(app.screen, ForkDialog)
    return app.screen


def cells(app) -> list[list[str]]:
    table = app.screen.query_one(TurnList)
    return [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_f_opens_the_dialog_with_the_traces_llm_and_the_options_on_screen():
    app = PtcApp(sample(SAMPLE))
    async with app.run_test(size=WIDE) as pilot:
        dialog = await open_dialog(app, pilot, 5, "s", "s", "p")     # namespaced, println 4
        assert dialog.at == 5
        assert dialog.query_one("#fork-strategy", Select).value == "namespaced"
        assert dialog.query_one("#fork-println_limit", Input).value == "4"
        assert dialog.query_one("#fork-tool_call_limit", Input).value == "5"
        assert dialog.query_one("#fork-max_turns", Input).value == "12"
        llm = dialog.query_one("#fork-llm", Input)
        assert llm.value == "" and "replay of this trace's replies" in llm.placeholder
        await pilot.press("escape")
        assert isinstance(app.screen, TraceScreen) and len(app.screen_stack) == 2


async def test_the_dialog_refuses_a_bad_value_in_place():
    app = PtcApp(sample(SAMPLE))
    async with app.run_test(size=WIDE) as pilot:
        dialog = await open_dialog(app, pilot, 5)
        dialog.query_one("#fork-max_turns", Input).value = "3"
        await pilot.pause()                   # the edit clears the error line: before the click
        await pilot.click("#fork-start")
        await pilot.pause()
        assert app.screen is dialog
        assert "max_turns: at least 5" in str(dialog.query_one("#fork-error", Static).content)
        dialog.query_one("#fork-max_turns", Input).value = "12"
        await pilot.pause()                   # each edit's Changed clears the line: before the click
        dialog.query_one("#fork-agent", Input).value = "no_such_agent.py"
        await pilot.pause()
        await pilot.click("#fork-start")
        await pilot.pause()
        assert "agent file: no such file" in str(dialog.query_one("#fork-error", Static).content)


async def test_the_fork_opens_as_a_live_run_labelled_recorded_and_what_if():
    app = PtcApp(sample(SAMPLE))
    async with app.run_test(size=WIDE) as pilot:
        await open_dialog(app, pilot, 5, "s", "s")                    # namespaced
        await pilot.press("enter")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        session = screen.session
        assert session.parent.turn == 5 and session.opts.strategy == "namespaced"
        assert len(session.turns) == 4 and screen.turn == 4
        assert [row[1] for row in cells(app)] == ["✓◦", "✓◦", "✓◦", "✗◦"]
        assert screen.query_one(ProgramPanel).border_title.endswith("· recorded")
        message = screen.query_one(MessagePanel)       # the request the parent sent, said so
        assert message.plain.startswith("taken over from the parent: the request it sent")
        assert message.border_title == "what the LLM saw"
        header = str(screen.query_one(TraceHeader).content).split("\n")
        assert header[-1].startswith("◦ recorded  ✱ what-if  fork of strategy_comparison.json "
                                     "at turn 5: turns 1–4 recorded (parent), 5 on what-if")
        assert "strategy namespaced" in header[-1]
        status = str(screen.query_one(LiveStatus).content)
        assert "fork at turn 5" in status and "4 of 12 turns" in status

        await pilot.press("n")                                        # one what-if turn
        await settle(app, pilot)
        assert len(session.turns) == 5 and screen.turn == 5
        assert cells(app)[4][1] == "✓✱"
        assert screen.query_one(ProgramPanel).border_title.endswith("· what-if")
        assert not screen.query_one(MessagePanel).plain.startswith("taken over from the parent")
        sent = session.turns[4].messages
        assert sent != load_trace(sample(SAMPLE)).turns[4].messages
        assert any(";; === tools ===" in m["content"] for m in sent)   # namespaced's format

        await pilot.press("c")                                        # to the end
        await settle(app, pilot)
        assert session.done and session.result.fail is None
        assert len(cells(app)) == 11


async def test_F_compares_the_fork_with_its_parent():
    app = PtcApp(sample(SAMPLE))
    async with app.run_test(size=WIDE) as pilot:
        await open_dialog(app, pilot, 5)
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("c")
        await settle(app, pilot)
        await pilot.press("F")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        c = screen.comparison
        assert (c.a.name, c.b.name) == ("strategy_comparison.json", "this fork")
        assert c.first_divergent_turn is None and len(c.pairs) == 11
        assert screen.turn == 5               # no program differs: the fork's first own turn
        assert [p.b.from_parent for p in c.pairs[:5]] == [True] * 4 + [False]
        # the B side's status cells mark its parent's turns ◦ and its own ✱, as the turn list
        table = screen.query_one(DataTable)
        marks = [table.get_row_at(i)[5].plain[1:] for i in range(6)]
        assert marks == ["◦"] * 4 + ["✱"] * 2
        assert all(len(table.get_row_at(i)[1].plain) == 1 for i in range(6))   # A: no mark
        await pilot.press("escape")
        assert isinstance(app.screen, LiveScreen)


async def test_F_finds_a_saved_forks_parent_beside_it(tmp_path, monkeypatch, notified):
    from engine.agent import fork, fork_llm
    from engine.trace import save_trace
    parent_path = tmp_path / "parent.json"
    shutil.copy(sample("product_search"), parent_path)
    parent = load_trace(parent_path)
    session = fork(parent, 2, fork_llm(None, parent, 2), parent_file=parent_path)
    while not session.done:
        session.step()
    save_trace(session.trace(), tmp_path / "fork.json")
    monkeypatch.chdir(tmp_path.parent)
    app = PtcApp(tmp_path / "fork.json")
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert [row[1] for row in cells(app)] == ["✓◦", "✓✱", "⏎✱"]
        await pilot.press("F")
        await settle(app, pilot)
        assert isinstance(app.screen, CompareScreen)
        assert app.screen.comparison.a.name == "parent.json"
        assert notified == []


async def test_F_on_a_trace_that_is_not_a_fork_says_so(notified):
    app = PtcApp(sample(SAMPLE))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        await pilot.press("F")
        await pilot.pause()
        assert isinstance(app.screen, TraceScreen)
        assert any("this trace is not a fork" in n for n in notified)


async def test_a_fork_that_cannot_start_is_a_notification(notified):
    app = PtcApp(sample(SAMPLE))
    async with app.run_test(size=WIDE) as pilot:
        dialog = await open_dialog(app, pilot, 3)
        dialog.query_one("#fork-llm", Input).value = "nope:model"
        await pilot.pause()
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, TraceScreen)
        assert any("unknown LLM spec 'nope:model'" in n for n in notified)


async def test_ctrl_s_offers_the_path_the_fork_command_was_given(tmp_path):
    from engine.agent import fork, fork_llm
    from ptc_tui.screens.open_dialog import SaveDialog
    parent = load_trace(sample("product_search"))
    session = fork(parent, 2, fork_llm(None, parent, 2))
    app = PtcApp(session=session, save_path=tmp_path / "what-if.json")
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog)
        assert app.screen.query_one(Input).value == str(tmp_path / "what-if.json")
        await pilot.press("enter")
        await pilot.pause()
    assert load_trace(tmp_path / "what-if.json").parent.turn == 2


async def test_a_live_runs_fork_keeps_its_real_tools_and_replays_its_replies():
    from engine.agent.files import load_agent_file
    demo = load_agent_file(sample("product_search").with_suffix(".py"))
    app = PtcApp(session=demo.agent.start(demo.scripted_llm()))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n")
        await settle(app, pilot)
        await pilot.press("n")
        await settle(app, pilot)
        await pilot.press("f")
        await pilot.pause()
        dialog = app.screen
        assert "the live run's own tools" in dialog.query_one("#fork-agent", Input).placeholder
        await pilot.press("enter")
        await settle(app, pilot)
        fork_screen = app.screen
        assert isinstance(fork_screen, LiveScreen) and fork_screen.session.parent.tools == "agent"
        assert fork_screen.session.parent.file is None           # the live run was not saved
        await pilot.press("c")
        await settle(app, pilot)
        assert fork_screen.session.result.return_value == ("Laptop", "Monitor")
        await pilot.press("F")
        await settle(app, pilot)
        assert isinstance(app.screen, CompareScreen)
        assert app.screen.comparison.a.name == "the run forked"
