"""A long trace opens as a short one does: the first screen shows once the turns on it are
rendered and counted; the others are counted in the background with a progress bar, and the
turn list and header fill in when they are done. Asserted on state, never on time."""

import gc
import json
import threading

import pytest
from textual.widgets import ProgressBar
from textual.widgets._footer import FooterKey

import ptc_tui.app as app_module
import ptc_tui.app_loading as loading_module
import ptc_tui.screens.trace_screen as trace_screen
from benchmarks.long_trace import long_trace
from engine.trace import TraceError, load_trace, save_trace
from engine.trace.lazy_turns import decoded_turns
from ptc_tui.app import PtcApp
from ptc_tui.screens import TraceScreen
from ptc_tui.screens.trace_screen import turn_rows_shown
from ptc_tui.view import TraceView
from ptc_tui.view.renders import Rendering
from ptc_tui.widgets import TurnList
from tests.app.conftest import settle

ROWS = 50                                  # the terminal's: more than the turns on screen
TURNS = ROWS + 30
HELD_AT = ROWS + 10                       # the background count waits here until let go


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
@pytest.mark.parametrize("height", [37, 24])
async def test_the_loader_counts_the_turns_the_first_screen_lists(long, monkeypatch, height):
    gate = hold_counting(monkeypatch)
    monkeypatch.setattr(trace_screen, "COUNTING_NOTE_S", 60)   # no counting bar: as at first
    load_view, asked = loading_module.load_view, []

    def spied(path, trace, options, first_turns):
        view = load_view(path, trace, options, first_turns)
        asked.append((first_turns, [view.rendering.counted(i) is not None for i in range(TURNS)]))
        return view
    monkeypatch.setattr(loading_module, "load_view", spied)
    app = PtcApp(long)
    async with app.run_test(size=(160, height)) as pilot:
        try:
            while not app.screen.query(FooterKey):        # the screen laid out, footer and all
                await pilot.pause()
            turns = app.screen.query_one(TurnList)
            shown = turns.scrollable_content_region.height - turns.header_height
            first = [r.number for r in app.screen.turn_rows[:shown] if r.tokens is not None]
        finally:
            gate.set()
        await settle(app, pilot)
    assert asked == [(shown, [True] * shown + [False] * (TURNS - shown))]
    assert first == list(range(1, shown + 1))        # every row on the first screen counted


def test_the_loader_leaves_what_it_read_out_of_later_garbage_collections(long, tmp_path):
    try:
        view = loading_module.load_view(long, None, None, 5)
        assert gc.isenabled()                    # paused while reading, then on again
        assert gc.get_freeze_count() > 0
        assert not any(o is view.trace for o in gc.get_objects())
    finally:
        gc.unfreeze()
    (tmp_path / "broken.json").write_text("{ not json")
    with pytest.raises(TraceError):
        loading_module.load_view(tmp_path / "broken.json", None, None, 5)
    assert gc.isenabled()


def hold_counting(monkeypatch) -> threading.Event:
    """The background count waits at turn HELD_AT until the returned event is set."""
    gate = threading.Event()
    count = Rendering.count

    def held(self, i):
        if i >= HELD_AT and threading.current_thread() is not threading.main_thread():
            gate.wait(60)
        return count(self, i)
    monkeypatch.setattr(Rendering, "count", held)
    return gate


@pytest.mark.anyio
async def test_the_first_screen_shows_before_every_turn_is_counted(long, monkeypatch):
    gate = hold_counting(monkeypatch)
    monkeypatch.setattr(trace_screen, "COUNTING_NOTE_S", 0)
    app = PtcApp(long)
    async with app.run_test(size=(160, ROWS)) as pilot:
        try:
            screen = app.screen
            assert isinstance(screen, TraceScreen) and screen.current.number == 1
            rows = screen.turn_rows
            assert len(rows) == TURNS
            assert all(r.tokens is not None for r in rows[:turn_rows_shown(ROWS)])
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


@pytest.mark.anyio
@pytest.mark.parametrize("then", ["", "k"])
async def test_the_last_turn_asked_for_while_counting_shows_once_counted(long, monkeypatch,
                                                                        notified, then):
    gate = hold_counting(monkeypatch)                  # the count waits at HELD_AT
    app = PtcApp(long)
    async with app.run_test(size=(160, ROWS)) as pilot:
        try:
            screen = app.screen
            await pilot.press("j")
            await pilot.press("G")                     # needs every turn before it counted
            await pilot.pause()
            assert screen.turn == 2 and screen.current.number == 2    # not waiting for it
            assert notified == [f"turn {TURNS} shows once the turns before it are counted"]
            if then:
                await pilot.press(then)                # a later key wins
        finally:
            gate.set()
        await settle(app, pilot)
        expected = 1 if then else TURNS
        assert screen.turn == expected and screen.current.number == expected
        assert screen.query_one(TurnList).cursor_row == expected - 1


@pytest.mark.anyio
async def test_a_counted_trace_is_left_out_of_garbage_collections_while_shown(long):
    app = PtcApp(long)
    async with app.run_test(size=(160, ROWS)) as pilot:
        await settle(app, pilot)
        trace = app.screen.view.trace
        assert app.screen.view.all_counted
        # a full collection no longer walks the trace's objects (gc.freeze)
        assert not any(o is trace for o in gc.get_objects())
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0                 # the screen gone: collected as before
    assert any(o is trace for o in gc.get_objects())


@pytest.mark.anyio
async def test_a_key_to_the_next_turn_draws_again_only_the_turn_lists_two_rows(long,
                                                                               monkeypatch):
    app = PtcApp(long)
    async with app.run_test(size=(160, ROWS)) as pilot:
        await settle(app, pilot)
        turns = app.screen.query_one(TurnList)
        drawn = []
        draw_row = TurnList.draw_row
        monkeypatch.setattr(TurnList, "draw_row", lambda self, row, under_cursor:
                            drawn.append(row) or draw_row(self, row, under_cursor))
        await pilot.press("j")
        await settle(app, pilot)
        assert app.screen.turn == 2 and turns.cursor_row == 1
        # the rows of turns 1 (the cursor leaves it) and 2
        assert sorted(set(drawn)) == [0, 1]


@pytest.fixture(scope="module")
def broken(long, tmp_path_factory):
    """`long` with turn BROKEN's prints broken: found only when that turn is decoded."""
    doc = json.loads(long.read_text())
    doc["turns"][BROKEN - 1]["prints"] = [7]
    path = tmp_path_factory.mktemp("broken") / "broken.json"
    path.write_text(json.dumps(doc))
    return path


BROKEN = HELD_AT + 5


@pytest.mark.anyio
async def test_a_broken_turn_far_in_shows_the_first_screen_then_a_clear_error(
        long, broken, monkeypatch, notified):
    monkeypatch.setattr(app_module, "CHECKED_UP_FRONT_BYTES", 0)     # read behind the screen
    gate = hold_counting(monkeypatch)
    app = PtcApp(broken)
    async with app.run_test(size=(160, ROWS)) as pilot:
        try:
            while app.loading:
                await pilot.pause(0.01)
            screen = app.screen
            assert isinstance(screen, TraceScreen) and screen.current.number == 1
            assert decoded_turns(screen.view.trace.turns) < BROKEN - 1
            assert [r.status for r in screen.turn_rows[BROKEN - 1:]] == \
                ["pending"] * (TURNS - BROKEN + 1)
            cells = app.screen.query_one(TurnList).get_row_at(TURNS - 1)
            assert cells[1].plain == "…"
        finally:
            gate.set()
        await settle(app, pilot)
        error = f"{broken}: turns[{BROKEN - 1}].prints[0]: expected a string"
        assert notified == [error]
        assert not screen.query_one("#counting", ProgressBar).display
        recorded = TraceView.of(load_trace(long)).rows_so_far()[:BROKEN - 1]
        assert [r.status for r in screen.turn_rows[:BROKEN - 1]] == [r.status for r in recorded]
        await pilot.press("G")                # the last turn cannot be read: stays, says why
        await pilot.pause()
        assert screen.turn == 1 and notified == [error, error]
        await pilot.press("colon", *str(BROKEN - 1), "enter")     # the turn before it can
        await pilot.pause()
        assert screen.turn == BROKEN - 1 and screen.current.number == BROKEN - 1
        await pilot.press("v")                # needs every turn: refused with the error
        await pilot.pause()
        assert app.screen is screen and notified[-1] == error
        assert app.return_code is None and app.is_running
