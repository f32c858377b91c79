"""Pilot tests of the OptionsPanel: clicks and keys change options; only valid changes post."""

import pytest
from textual.app import App
from textual.widgets import Input, Select, Static

from engine.history import HistoryOpts
from ptc_tui.view.options import BY_NAME, FIELDS
from ptc_tui.widgets.options_panel import OptionsPanel, field_id

pytestmark = pytest.mark.anyio
SIZE = (100, 60)      # tall enough that every row is on screen to be clicked


class PanelApp(App):
    """Just the panel; collects every Changed it posts."""

    def __init__(self, opts: HistoryOpts) -> None:
        super().__init__()
        self.opts = opts
        self.changes: list[HistoryOpts] = []

    def compose(self):
        yield OptionsPanel(self.opts)

    def on_options_panel_changed(self, event: OptionsPanel.Changed) -> None:
        self.changes.append(event.opts)


@pytest.fixture
def recorded(view_of):
    """Options a sample trace was recorded with (println_limit 6 and a strategy of its own)."""
    return view_of("long_exploration").opts


def row(app, name: str):
    return app.query_one(f"#{field_id(name)}")


def shown(app, name: str) -> str:
    return row(app, name).query_one(Select if BY_NAME[name].kind == "choice" else Input).value


def error(app, name: str) -> str:
    widget = row(app, name).query_one(".error", Static)
    return str(widget.render()) if widget.has_class("-shown") else ""


async def type_into(pilot, name: str, text: str) -> None:
    await pilot.click(f"#{field_id(name)} Input")
    await pilot.press("end", "ctrl+u", *text)
    await pilot.pause()


async def test_every_option_shows_its_value_and_mounting_posts_nothing(recorded):
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert {f.name: shown(app, f.name) for f in FIELDS} == {
            f.name: (getattr(recorded, f.name) if f.kind == "choice"
                     else f.show(getattr(recorded, f.name))) for f in FIELDS}
        assert app.changes == []


async def test_plus_and_minus_buttons_post_each_new_value(recorded):
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#option-println-limit .more")
        await pilot.click("#option-println-limit .less")
        await pilot.click("#option-println-limit .less")
        await pilot.pause()
        n = recorded.println_limit
        assert [c.println_limit for c in app.changes] == [n + 1, n, n - 1]
        assert app.changes[-1] == recorded.with_changes(println_limit=n - 1)
        assert shown(app, "println_limit") == str(n - 1)


async def test_minus_at_zero_posts_nothing():
    app = PanelApp(HistoryOpts(tool_call_limit=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#option-tool-call-limit .less")
        await pilot.pause()
        assert app.changes == [] and shown(app, "tool_call_limit") == "0"
        await pilot.click("#option-tool-call-limit .more")
        await pilot.pause()
        assert app.changes == [HistoryOpts(tool_call_limit=1)]


async def test_typing_a_number_posts_it(recorded):
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "tool_call_limit", "4")
        assert app.changes == [recorded.with_changes(tool_call_limit=4)]
        assert error(app, "tool_call_limit") == ""


async def test_a_negative_or_empty_value_shows_an_error_and_posts_nothing(recorded):
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "sample_limit", "-2")
        assert app.changes == []
        assert "≥ 0" in error(app, "sample_limit")
        assert row(app, "sample_limit").query_one(Input).has_class("-invalid")
        await pilot.press("end", "ctrl+u")
        await pilot.pause()
        assert app.changes == [] and "whole number" in error(app, "sample_limit")
        await pilot.press("5")
        await pilot.pause()
        assert app.changes == [recorded.with_changes(sample_limit=5)]
        assert error(app, "sample_limit") == ""


async def test_compaction_tokens_may_be_emptied_to_turn_it_off():
    app = PanelApp(HistoryOpts(strategy="compaction", compaction_tokens=5000))
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "compaction_tokens", "")
        assert app.changes[-1].compaction_tokens is None
        assert error(app, "compaction_tokens") == ""
        await pilot.press("1", "2")
        await pilot.pause()
        assert app.changes[-1] == HistoryOpts(strategy="compaction", compaction_tokens=12)


async def test_up_and_down_in_a_number_input_step_it(recorded):
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#option-args-printable-limit Input")
        await pilot.press("up", "up", "down")
        await pilot.pause()
        step, n = BY_NAME["args_printable_limit"].step, recorded.args_printable_limit
        assert [c.args_printable_limit for c in app.changes] == [n + step, n + 2 * step, n + step]


@pytest.mark.parametrize("name", ["strategy", "sample_rule", "errors"])
async def test_choosing_in_a_select_posts_the_choice(recorded, name):
    choices = BY_NAME[name].choices
    current = choices.index(getattr(recorded, name))
    target = (current + 1) % len(choices)
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(f"#{field_id(name)} Select")      # opens the list on the current one
        await pilot.press(*(["down"] * target if target > current else ["up"] * current),
                          "enter")
        await pilot.pause()
        assert app.changes == [recorded.with_changes(**{name: choices[target]})]


async def test_show_opts_updates_the_controls_without_posting(recorded):
    other = recorded.with_changes(strategy="full", println_limit=2, compaction_tokens=900,
                                  keep_recent_turns=recorded.keep_recent_turns + 1)
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "keep_recent_turns", "-")        # an error, cleared by show_opts
        await type_into(pilot, "sample_limit", "-")             # one show_opts leaves alone
        app.query_one(OptionsPanel).show_opts(other)
        await pilot.pause()
        assert shown(app, "strategy") == "full"
        assert shown(app, "println_limit") == "2" and shown(app, "compaction_tokens") == "900"
        assert shown(app, "keep_recent_turns") == str(other.keep_recent_turns)
        assert error(app, "keep_recent_turns") == ""
        assert shown(app, "sample_limit") == "-" and error(app, "sample_limit")
        assert app.changes == []
        await pilot.click("#option-println-limit .more")      # later changes start from `other`
        await pilot.pause()
        assert app.changes == [other.with_changes(println_limit=3)]


async def test_late_echoes_of_the_panels_own_changes_leave_the_typed_text_alone(recorded):
    app = PanelApp(recorded)
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "println_limit", "12")
        assert [c.println_limit for c in app.changes] == [1, 12]
        panel = app.query_one(OptionsPanel)
        for echo in list(app.changes):            # what the main screen sends back, late
            panel.show_opts(echo)
            await pilot.pause()
            assert shown(app, "println_limit") == "12"
        panel.show_opts(recorded)                 # a change made elsewhere is shown
        await pilot.pause()
        assert shown(app, "println_limit") == str(recorded.println_limit)
        assert len(app.changes) == 2
