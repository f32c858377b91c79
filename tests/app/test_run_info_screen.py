"""Pilot tests of the run-info screen (`i`): it opens over the trace, shows a reference run's
workflow calls, shows trace text literally, and closes."""

import pytest

from engine.trace import save_trace
from ptc_tui.app import PtcApp
from ptc_tui.screens.run_info_screen import RunInfoScreen, sections_text
from ptc_tui.screens.trace_screen import TraceScreen
from ptc_tui.view.run_info import Section
from ptc_tui.widgets.text_panel import TextPanel
from tests.app.conftest import WIDE, settle
from tests.view.test_run_info import imported

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("key", ["escape", "i"])
async def test_i_shows_the_run_as_recorded_and_closes(tmp_path, key):
    save_trace(imported(), tmp_path / "run.json")
    app = PtcApp(tmp_path / "run.json")
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, RunInfoScreen)
        text = app.screen.query_one("#run-info", TextPanel).plain
        assert "── the workflow's own LLM calls (1) ──" in text
        assert "[user] Grade the answer 6." in text
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, TraceScreen)


def test_trace_text_is_shown_literally_never_as_markup_or_terminal_control():
    text = sections_text([Section("workflow", "[bold red]A[/] \x1b[2J")])
    assert "[bold red]A[/] \\x1b[2J" in text.plain
    assert not text.spans or all(s.style == "bold" for s in text.spans)
