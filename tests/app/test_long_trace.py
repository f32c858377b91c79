"""A long trace opens as a short one does: the first screen shows once the turns on it are
rendered and counted; the others are counted in the background with a progress bar, and the
turn list and header fill in when they are done. Asserted on state, never on time."""

import threading

import pytest
from textual.widgets import ProgressBar

import ptc_tui.screens.trace_screen as trace_screen
from benchmarks.long_trace import long_trace
from engine.trace import save_trace
from ptc_tui.app import FIRST_SCREEN_TURNS, PtcApp
from ptc_tui.screens import TraceScreen
from ptc_tui.view import TraceView
from ptc_tui.view.renders import Rendering
from tests.app.conftest import settle

TURNS = FIRST_SCREEN_TURNS + 30
HELD_AT = FIRST_SCREEN_TURNS + 10          # the background count waits here until let go


@pytest.fixture(scope="module")
def long(tmp_path_factory):
    path = tmp_path_factory.mktemp("long") / "long.json"
    save_trace(long_trace(TURNS), path)
    return path


def test_a_view_renders_and_counts_only_what_is_asked(long):
    from engine.trace import load_trace
    view = TraceView.of(load_trace(long))
    view.turn(1)
    assert view.rendering.requests.rendered == 1 and view.full_rendering.requests.rendered == 1
    rows = view.rows_so_far()
    assert rows[0].tokens is not None and all(r.tokens is None for r in rows[1:])
    assert view.header_so_far().tokens is None and not view.all_counted
    view.count_first(5)
    assert [r.tokens is not None for r in view.rows_so_far()] == [True] * 5 + [False] * (TURNS - 5)
    whole = view.rows()                          # every turn, and the same counts as before
    header = view.header()                       # every LLM call too
    assert view.all_counted and whole == view.rows_so_far()
    assert header.tokens == sum(r.tokens for r in whole)


@pytest.mark.anyio
async def test_the_first_screen_shows_before_every_turn_is_counted(long, monkeypatch):
    gate = threading.Event()
    count = Rendering.count

    def held(self, i):
        if i >= HELD_AT and threading.current_thread() is not threading.main_thread():
            gate.wait(60)
        return count(self, i)
    monkeypatch.setattr(Rendering, "count", held)
    monkeypatch.setattr(trace_screen, "COUNTING_NOTE_S", 0)
    app = PtcApp(long)
    async with app.run_test(size=(160, 50)) as pilot:
        try:
            screen = app.screen
            assert isinstance(screen, TraceScreen) and screen.current.number == 1
            rows = screen.turn_rows
            assert len(rows) == TURNS
            assert all(r.tokens is not None for r in rows[:FIRST_SCREEN_TURNS])
            assert all(r.tokens is None for r in rows[HELD_AT:])
            assert screen.header_info.tokens is None
            for _ in range(50):                   # the progress note reaches the screen
                await pilot.pause()
                bar = screen.query_one("#counting", ProgressBar)
                if bar.progress == HELD_AT:
                    break
            assert bar.display and bar.progress == HELD_AT and bar.total == TURNS
            await pilot.press("j")                # the keys work meanwhile
            assert screen.turn == 2 and screen.current.number == 2
        finally:
            gate.set()
        await settle(app, pilot)
        assert all(r.tokens is not None for r in screen.turn_rows)
        assert screen.header_info.tokens == sum(r.tokens for r in screen.turn_rows)
        assert not screen.query_one("#counting", ProgressBar).display
        assert screen.turn_rows == screen.view.rows()
