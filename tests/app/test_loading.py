"""The trace the app is started with is loaded, rendered and counted in a thread behind a
"loading" screen: a huge trace shows at once and `q` quits while it loads; a file that cannot
be read is still one line on stderr and status 2, before the app starts when it can be."""

import asyncio
import threading

import pytest
from textual.app import App

import ptc_tui.app as app_module
import ptc_tui.app_loading as loading_module
from engine.agent import SubAgent
from engine.llm import ScriptedLLM
from engine.trace import save_trace
from ptc_tui.app import CHECKED_UP_FRONT_BYTES, PtcApp
from ptc_tui.launch import run_app
from ptc_tui.screens import TraceScreen
from ptc_tui.screens.loading_screen import LoadingScreen
from tests.app.conftest import WIDE, settle


@pytest.fixture(scope="module")
def huge_trace_file(tmp_path_factory):
    """A trace whose first reply is a few megabytes of text: larger than what is read before
    the app starts."""
    words = "word " * (CHECKED_UP_FRONT_BYTES // 5 + 1000)
    session = SubAgent(mission="Be verbose.", max_turns=2, name="verbose").start(ScriptedLLM(
        [words + "\n```clojure\n(def a 1)\n```", "```clojure\n(return a)\n```"]))
    while not session.done:
        session.step()
    path = tmp_path_factory.mktemp("huge") / "huge.json"
    save_trace(session.trace(), path)
    assert path.stat().st_size > CHECKED_UP_FRONT_BYTES
    return path


@pytest.fixture
def blocked_loader(monkeypatch):
    """The loader waits until the test sets the event it returns (then loads as usual)."""
    release, started = threading.Event(), threading.Event()
    load_view = loading_module.load_view

    def blocked(path, trace, options, first_turns):
        started.set()
        release.wait()
        return load_view(path, trace, options, first_turns)
    monkeypatch.setattr(loading_module, "load_view", blocked)
    yield release, started
    release.set()


@pytest.mark.while_loading
def test_a_huge_trace_shows_loading_at_once_and_q_quits_while_it_loads(huge_trace_file,
                                                                       blocked_loader):
    release, started = blocked_loader
    seen = {}

    async def open_then_quit():
        app = PtcApp(huge_trace_file)
        async with app.run_test(size=WIDE) as pilot:
            await pilot.pause()
            seen["screen"] = app.screen
            seen["text"] = str(app.screen.query_one("#loading").render())
            seen["loading"] = app.loading
            await pilot.press("q")
        seen["return_code"] = app.return_code
    # asyncio.run, as the app's own run: it waits for asyncio's default executor on exit, so
    # a load there (a Textual thread worker) would keep `q` waiting for the load.
    asyncio.run(open_then_quit())
    assert isinstance(seen["screen"], LoadingScreen) and seen["loading"]
    assert seen["text"] == f"loading {huge_trace_file}…"
    assert started.is_set() and not release.is_set()       # the load is still blocked
    assert seen["return_code"] == 0


@pytest.mark.while_loading
@pytest.mark.anyio
async def test_the_loaded_trace_replaces_the_loading_screen(huge_trace_file, blocked_loader):
    release, started = blocked_loader
    app = PtcApp(huge_trace_file)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LoadingScreen)
        release.set()
        await settle(app, pilot)
        assert isinstance(app.screen, TraceScreen) and not app.loading
        assert len(app.screen_stack) == 2               # the loading screen is gone
        assert app.screen.view.rows()[0].number == 1 and app.sub_title == "huge.json"
        await pilot.press("j")
        assert app.screen.turn == 2


@pytest.mark.anyio
async def test_a_broken_file_found_by_the_loader_ends_the_app_with_its_line(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setattr(app_module, "CHECKED_UP_FRONT_BYTES", 0)   # read behind the screen
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    app = PtcApp(bad)
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
    assert app.return_code == 2
    assert app.error_line.startswith(f"{bad}: not valid JSON") and "\n" not in app.error_line


def test_run_app_says_the_loaders_error_in_one_line_and_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(app_module, "CHECKED_UP_FRONT_BYTES", 0)
    monkeypatch.setattr(PtcApp, "run", lambda app: App.run(app, headless=True))
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ptc-tui-trace", "version": 1, "turns": [')
    assert run_app(bad) == 2
    err = capsys.readouterr().err
    assert err == f"ptc-tui: {bad}: the file ends in the middle of the JSON (truncated?)\n"


@pytest.mark.parametrize("make, problem", [
    (lambda p: p.mkdir(), "it is a folder, not a regular file"),
    (lambda p: None, "No such file"),
])
def test_a_file_that_cannot_be_read_is_refused_before_the_app_starts(tmp_path, monkeypatch,
                                                                    capsys, make, problem):
    monkeypatch.setattr(app_module, "CHECKED_UP_FRONT_BYTES", 0)   # however large it is
    monkeypatch.setattr(PtcApp, "run", lambda app: pytest.fail("the app started"))
    path = tmp_path / "trace.json"
    make(path)
    assert run_app(path) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ptc-tui: {path}: cannot read the file") and problem in err
    assert err.count("\n") == 1
