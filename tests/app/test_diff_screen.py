"""Pilot tests of the DiffScreen: which turns are compared, walking turns, closing."""

from dataclasses import replace

import pytest
from rich.text import Text

from engine.trace import load_trace
from ptc_tui.app import PtcApp
from ptc_tui.screens.diff_screen import DiffScreen, diff_text
from ptc_tui.view import TraceView
from ptc_tui.view.diff import classify
from ptc_tui.widgets.text_panel import TextPanel
from tests.app.conftest import WIDE, sample

pytestmark = pytest.mark.anyio


async def open_diff(app, pilot, turn, view=None):
    closed = []
    app.push_screen(DiffScreen(view or app.screen.view, turn), closed.append)
    await pilot.pause()
    return closed


def shown(app):
    title = str(app.screen.query_one("#diff-title").content)
    return (title, app.screen.query_one("#program-diff", TextPanel).plain,
            app.screen.query_one("#message-diff", TextPanel).plain)


async def test_both_diffs_of_the_turn_against_the_previous_one(view_of):
    view = view_of("error_recovery")
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await open_diff(app, pilot, 3)
        title, program, message = shown(app)
        assert title == "Diff: turn 3 vs turn 2"
        assert program == "\n".join(view.program_diff(3))
        assert message == "\n".join(view.message_diff(3))
        assert any(line.startswith("+") for line in program.splitlines()[2:])


@pytest.mark.parametrize("keys, turn", [
    (["escape"], 4), (["q"], 4), (["j", "escape"], 5), (["k", "k", "q"], 2),
    (["j"] * 9 + ["escape"], 8), (["k"] * 9 + ["escape"], 1)])
async def test_j_and_k_walk_the_turns_and_closing_returns_the_turn(view_of, keys, turn):
    view = view_of("error_recovery")
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        closed = await open_diff(app, pilot, 4)
        await pilot.press(*keys[:-1])
        assert shown(app)[0].startswith(f"Diff: turn {turn} vs ")
        assert shown(app)[1].endswith("\n".join(view.program_diff(turn)))
        await pilot.press(keys[-1])
        await pilot.pause()
        assert closed == [turn]
        assert not isinstance(app.screen, DiffScreen)


async def test_first_turn_is_compared_with_nothing(view_of):
    view = view_of("error_recovery")
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await open_diff(app, pilot, 1)
        title, program, _ = shown(app)
        assert title == "Diff: turn 1 vs nothing"
        cache = str(app.screen.query_one("#diff-cache").content)
        assert cache == "cache: the first request, nothing cached before it"
        assert program.startswith("first turn: nothing before it")
        assert program.endswith("\n".join(view.program_diff(1)))


async def test_an_unchanged_program_says_no_change():
    trace = load_trace(sample("error_recovery"))
    turns = list(trace.turns)
    turns[2] = replace(turns[2], program=turns[1].program)
    view = TraceView.of(replace(trace, turns=tuple(turns)))
    assert view.program_diff(3) == ()
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await open_diff(app, pilot, 3, view)
        assert shown(app)[1] == "no change"
        assert shown(app)[2] == "\n".join(view.message_diff(3))


@pytest.mark.parametrize("width, side_by_side", [(160, True), (100, False)])
async def test_panes_side_by_side_when_wide_stacked_when_narrow(width, side_by_side):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=(width, 40)) as pilot:
        await open_diff(app, pilot, 2)
        program = app.screen.query_one("#program-diff").region
        message = app.screen.query_one("#message-diff").region
        assert (program.y == message.y) is side_by_side


def test_added_removed_and_hunk_lines_are_coloured_and_trace_text_is_literal():
    lines = classify(["--- turn 1", "+++ turn 2", "@@ -1 +1 @@", "-[bold]old[/bold]",
                      "+[red]new\x1b[0m", " same"])
    text = diff_text(lines, first=False)
    assert text.plain.splitlines() == ["--- turn 1", "+++ turn 2", "@@ -1 +1 @@",
                                       "-[bold]old[/bold]", "+[red]new\\x1b[0m", " same"]
    styles = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert styles["@@ -1 +1 @@"] == "cyan"
    assert styles["-[bold]old[/bold]"] == "red"
    assert styles["+[red]new\\x1b[0m"] == "green"
    assert isinstance(text, Text) and " same" not in styles
