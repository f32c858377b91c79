"""Pilot tests of a live run: one turn per key, continue and pause, a failing LLM call and a
raising tool reported as notifications with nothing lost, saving at any time, quitting."""

import pytest

from engine.agent import SubAgent
from engine.agent.files import load_agent_file
from engine.llm import LLMError, ScriptedLLM
from engine.trace import load_trace
from ptc_tui.app import PtcApp
from ptc_tui.screens import LiveScreen
from ptc_tui.widgets.live_status import LiveStatus
from ptc_tui.screens.open_dialog import SaveDialog
from ptc_tui.widgets import ProgramPanel, TraceHeader, TurnList
from ptc_tui.widgets.program_panel import NO_TURN
from ptc_tui.widgets.turn_list import GLYPHS
from sample_traces import HERE
from tests.app.conftest import WIDE, settle

pytestmark = pytest.mark.anyio


def demo_session():
    demo = load_agent_file(HERE / "product_search.py")
    return demo.agent.start(demo.scripted_llm())


def status_line(app) -> str:
    return str(app.screen.query_one(LiveStatus).content)


async def test_the_live_screen_starts_empty_and_says_what_to_press():
    app = PtcApp(session=demo_session())
    async with app.run_test(size=WIDE):
        assert isinstance(app.screen, LiveScreen)
        assert app.screen.view.trace.turns == ()
        assert app.screen.query_one(TurnList).row_count == 0
        assert "0 of 5 turns" in status_line(app) and "n runs the next turn" in status_line(app)
        assert app.screen.query_one(ProgramPanel).plain == NO_TURN


async def test_each_n_runs_one_turn_and_the_screen_follows_it():
    session = demo_session()
    app = PtcApp(session=session)
    async with app.run_test(size=WIDE) as pilot:
        for number in (1, 2):
            await pilot.press("n")
            await settle(app, pilot)
            assert len(session.turns) == number
            assert app.screen.turn == number
            assert app.screen.query_one(TurnList).row_count == number
            assert session.turns[-1].program.strip() in app.screen.query_one(ProgramPanel).plain
            assert f"{number} of 5 turns" in status_line(app)
            table = app.screen.query_one(TurnList)         # drawn whole, not cut ("1,11")
            row = app.screen.view.rows()[-1]
            drawn = table.render_line(number).text.split()
            assert drawn == [str(number), GLYPHS[row.status][0], f"{row.tokens:,}",
                             f"{row.full_tokens:,}"]
        assert not session.done


async def test_c_runs_to_the_end_and_another_step_is_refused(notified):
    session = demo_session()
    app = PtcApp(session=session)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("c")
        await settle(app, pilot)
        assert session.done and session.result.fail is None
        assert [t.number for t in app.screen.view.trace.turns] == [1, 2, 3]
        assert app.screen.view.trace.outcome.status == "returned"
        assert [n for n in notified if "has ended" in n] == ["the run has ended: returned"]
        assert "ended: returned" in status_line(app)
        await pilot.press("n")
        await settle(app, pilot)
        assert len(session.turns) == 3
        assert any("ctrl+s saves it" in n for n in notified), notified


async def test_a_new_turn_leaves_an_earlier_selection_alone():
    app = PtcApp(session=demo_session())
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n")
        await settle(app, pilot)
        await pilot.press("n")
        await settle(app, pilot)
        await pilot.press("k")
        assert app.screen.turn == 1
        await pilot.press("n")
        await settle(app, pilot)
        assert app.screen.turn == 1 and app.screen.query_one(TurnList).row_count == 3


class FlakyLLM:
    """The demo's replies, but call number `fail_on` raises as an HTTP client would."""

    name = "flaky"

    def __init__(self, replies, fail_on: int):
        self.scripted = ScriptedLLM(list(replies))
        self.fail_on, self.calls = fail_on, 0

    def __call__(self, messages):
        self.calls += 1
        if self.calls == self.fail_on:
            raise LLMError("openai", "HTTP 503: upstream overloaded")
        return self.scripted(messages)


async def test_a_failing_llm_call_is_a_notification_and_the_turn_can_be_retried(notified):
    demo = load_agent_file(HERE / "product_search.py")
    session = demo.agent.start(FlakyLLM(demo.replies, fail_on=2))
    app = PtcApp(session=session)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("c")
        await settle(app, pilot)
        assert len(session.turns) == 1 and not session.done
        assert any("HTTP 503: upstream overloaded" in n and "Nothing recorded is lost (1 turn kept)" in n
                   for n in notified)
        # the failed call stays on screen after its notification: a row, and the header
        table = app.screen.query_one(TurnList)
        assert table.row_count == 2 and app.is_running
        assert [c.plain for c in table.get_row_at(1)] == ["2", "⚠", "–", "–"]
        header = str(app.screen.query_one(TraceHeader).content)
        assert "turn 2: LLM call failed: openai: HTTP 503: upstream overloaded · n retries it" \
            in header
        await pilot.press("c")
        await settle(app, pilot)
        assert session.done and len(session.turns) == 3
        assert "⚠" not in [table.get_row_at(i)[1].plain for i in range(table.row_count)]
        assert "n retries it" not in str(app.screen.query_one(TraceHeader).content)


async def test_a_raising_tool_is_a_notification_and_the_turn_is_recorded(notified):
    def lookup(sku: str) -> dict:
        """Look a product up."""
        raise ValueError(f"no product {sku} [bold red]gone[/] \x1b[2J")
    agent = SubAgent(mission="Find product X1.", tools={"lookup": lookup}, max_turns=2)
    session = agent.start(ScriptedLLM(['```clojure\n(tool/lookup {:sku "X1"})\n```',
                                       '```clojure\n(return "gone")\n```']))
    app = PtcApp(session=session)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n")
        await settle(app, pilot)
        [turn] = app.screen.view.trace.turns
        assert turn.error is not None and turn.error.reason == "tool_error"
        [notice] = [n for n in notified if "tool/lookup raised" in n]
        assert "no product X1 [bold red]gone[/] \\x1b[2J" in notice and "\x1b" not in notice
        await pilot.press("n")
        await settle(app, pilot)
        assert session.done and session.result.return_value == "gone"


async def test_ctrl_s_saves_the_run_so_far_and_quitting_unsaved_asks_twice(tmp_path, notified):
    session = demo_session()
    app = PtcApp(session=session)
    target = tmp_path / "run.json"
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n")
        await settle(app, pilot)
        await pilot.press("q")
        assert app.is_running and any("1 turn not saved" in n for n in notified)
        await pilot.press("ctrl+s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SaveDialog)
        dialog.dismiss(target)
        await pilot.pause()
        saved = load_trace(target)
        assert [t.program for t in saved.turns] == [session.turns[0].program]
        assert saved.outcome.status == "running"
        assert not app.screen.unsaved
        await pilot.press("q")
        assert not app.is_running


QUIT_DURING_CALL = '''
import threading
from engine.agent import SubAgent
from ptc_tui.app import PtcApp

never = threading.Event()

def stuck_llm(messages):
    never.wait()             # an LLM call that does not come back

async def press_n_then_quit(pilot):
    await pilot.press("n")
    await pilot.pause(0.2)
    assert pilot.app.screen.running
    await pilot.press("q")

app = PtcApp(session=SubAgent(mission="m", max_turns=2).start(stuck_llm))
app.run(headless=True, size=(120, 40), auto_pilot=press_n_then_quit)
print("exited")
'''


def test_quitting_while_an_llm_call_is_in_flight_does_not_wait_for_it():
    import subprocess
    import sys
    from pathlib import Path
    done = subprocess.run([sys.executable, "-c", QUIT_DURING_CALL], capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and done.stdout.strip().endswith("exited"), done.stderr[-2000:]
