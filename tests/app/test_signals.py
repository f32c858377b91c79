"""The app stopped by a signal (SIGINT, SIGTERM, SIGHUP from a closed terminal): a live run's
unsaved turns are saved, to its --save file or to the autosave folder that the next start names;
the exit status is 128 + the signal's number."""

import os
import signal

import pytest

from engine.trace import load_trace
from ptc_tui.app import PtcApp
from ptc_tui.autosave import autosave_folder
from tests.app.conftest import WIDE, settle
from tests.app.test_live_screen import demo_session

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


async def test_a_live_run_with_save_writes_every_turn(tmp_path):
    saved = tmp_path / "run.json"
    app = PtcApp(session=demo_session(), save_path=saved)
    async with app.run_test(size=WIDE) as pilot:
        for number in (1, 2):
            await pilot.press("n")
            await settle(app, pilot)
            assert len(load_trace(saved).turns) == number
            assert not app.screen.unsaved
        await pilot.press("q")                  # nothing unsaved: no warning, it quits
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
async def test_a_signal_autosaves_the_unsaved_turns_and_the_next_start_names_the_file(signum):
    session = demo_session()
    app = PtcApp(session=session)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n")
        await settle(app, pilot)
        os.kill(os.getpid(), signum)
        await pilot.pause(0.2)
    assert app.return_code == 128 + signum
    [autosaved] = autosave_folder().glob("*.json")
    assert len(load_trace(autosaved).turns) == 1
    assert str(autosaved) in app.saved_on_signal

    again = PtcApp(session=demo_session())
    async with again.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert any(str(autosaved) in str(n.message) for n in again._notifications)
    third = PtcApp(session=demo_session())         # named once, not at every start
    async with third.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert not any(str(autosaved) in str(n.message) for n in third._notifications)


async def test_a_signal_with_nothing_unsaved_writes_nothing(tmp_path):
    app = PtcApp(session=demo_session())
    async with app.run_test(size=WIDE) as pilot:
        os.kill(os.getpid(), signal.SIGTERM)
        await pilot.pause(0.2)
    assert app.return_code == 143 and app.saved_on_signal is None
    assert not autosave_folder().exists()
