"""Pilot tests of the SearchDialog (`/`) and the GoToDialog (go to turn N)."""

from dataclasses import replace

import pytest
from textual.widgets import Input, OptionList

from engine.trace import load_trace
from ptc_tui.app import PtcApp
from ptc_tui.screens.search_dialog import MAX_SHOWN, GoToDialog, SearchDialog
from ptc_tui.view import TraceView
from tests.app.conftest import WIDE, sample

pytestmark = pytest.mark.anyio


async def open_dialog(app, pilot, dialog):
    closed = []
    app.push_screen(dialog, closed.append)
    await pilot.pause()
    return closed


def prompts(app) -> list[str]:
    hits = app.screen.query_one(OptionList)
    return [hits.get_option_at_index(i).prompt.plain for i in range(hits.option_count)]


def count(app) -> str:
    return str(app.screen.query_one("#search-count").content)


@pytest.mark.parametrize("name", ["error_recovery", "long_exploration"])
async def test_typing_a_print_finds_it_and_enter_returns_its_turn(view_of, name):
    view = view_of(name)
    turn = next(t for t in view.trace.turns if t.prints)
    needle = turn.prints[-1][:30]
    hits = view.search(needle)
    app = PtcApp(sample(name))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_dialog(app, pilot, SearchDialog(app.screen.view))
        await pilot.press(*needle)
        await pilot.pause()
        shown = prompts(app)
        assert len(shown) == len(hits)
        assert f"turn {turn.number} · prints · {turn.prints[-1].strip()}" in shown
        assert count(app) == (f"{len(hits)} match" + ("es" if len(hits) > 1 else ""))
        await pilot.press("enter")
        await pilot.pause()
        assert closed == [hits[0].turn]


async def test_down_arrow_picks_a_later_hit(view_of):
    hits = view_of("long_exploration").search("csat")
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_dialog(app, pilot, SearchDialog(app.screen.view))
        await pilot.press(*"CSAT", "down", "down", "down", "enter")
        await pilot.pause()
        assert closed == [hits[2].turn]


async def test_a_common_letter_caps_the_list_and_says_how_many_more(view_of):
    hits = view_of("long_exploration").search("e")
    assert len(hits) > MAX_SHOWN
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await open_dialog(app, pilot, SearchDialog(app.screen.view))
        await pilot.press("e")
        await pilot.pause()
        shown = prompts(app)
        assert len(shown) == MAX_SHOWN + 1
        assert shown[-1] == f"… {len(hits) - MAX_SHOWN:,} more"
        assert count(app) == f"{len(hits):,} matches (first {MAX_SHOWN} shown)"


async def test_no_matches_and_escape_returns_none():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_dialog(app, pilot, SearchDialog(app.screen.view))
        await pilot.press(*"zqzqzq", "enter")
        await pilot.pause()
        assert count(app) == "no matches" and prompts(app) == []
        assert isinstance(app.screen, SearchDialog) and closed == []
        await pilot.press("escape")
        await pilot.pause()
        assert closed == [None]


async def test_markup_in_the_search_and_in_trace_text_is_shown_literally():
    trace = load_trace(sample("error_recovery"))
    turns = list(trace.turns)
    turns[1] = replace(turns[1], prints=("[bold]red[/bold] \x1b[31malert",))
    view = TraceView.of(replace(trace, turns=tuple(turns)))
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_dialog(app, pilot, SearchDialog(view))
        await pilot.press(*"[bold]")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "[bold]"
        shown = prompts(app)
        assert len(shown) == len(view.search("[bold]"))
        assert shown[0] == "turn 2 · prints · [bold]red[/bold] \\x1b[31malert"
        assert all(p.endswith("[bold]red[/bold] \\x1b[31malert") for p in shown)
        await pilot.press("enter")
        await pilot.pause()
        assert closed == [2]


@pytest.mark.parametrize("keys, result", [
    (["5", "enter"], 5), (["a", "-", "3", "enter"], 3), (["escape"], None),
    (["9", "9", "enter", "backspace", "backspace", "7", "enter"], 7)])
async def test_go_to_accepts_a_turn_number(view_of, keys, result):
    numbers = tuple(view_of("error_recovery").turns)
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_dialog(app, pilot, GoToDialog(numbers))
        await pilot.press(*keys)
        await pilot.pause()
        assert closed == [result]


@pytest.mark.parametrize("typed, error", [("99", "no turn 99; turns 1–8"), ("0", "no turn 0"),
                                          ("", "type a turn number")])
async def test_go_to_an_unknown_turn_shows_why_and_stays(view_of, typed, error):
    numbers = tuple(view_of("error_recovery").turns)
    assert (numbers[0], numbers[-1]) == (1, 8)
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_dialog(app, pilot, GoToDialog(numbers))
        await pilot.press(*typed, "enter")
        await pilot.pause()
        assert error in str(app.screen.query_one("#goto-error").content)
        assert isinstance(app.screen, GoToDialog) and closed == []


async def test_clicking_a_hit_returns_its_turn(view_of):
    hits = view_of("error_recovery").search("89.9 delivered")
    assert len({h.turn for h in hits}) == len(hits) > 3          # one hit a turn
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_dialog(app, pilot, SearchDialog(app.screen.view))
        await pilot.press(*"89.9 delivered")
        await pilot.pause()
        # one line per hit here; the list's top border is its first row
        await pilot.click(OptionList, offset=(4, 3))
        await pilot.pause()
        assert closed == [hits[2].turn]
