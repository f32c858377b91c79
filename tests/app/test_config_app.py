"""The config file in the app: a `[keys]` table rebinds a binding by its id (the new key works,
the old one no longer does, and help and the footer show it), the theme, and the options and
price model a trace opens with. Escape closes the options panel."""

import pytest
from textual.widgets._footer import FooterKey

from ptc_tui.app import PtcApp
from ptc_tui.config import Config, load_config
from ptc_tui.keymap import app_bindings
from ptc_tui.screens.token_screen import TokenScreen
from ptc_tui.screens.trace_screen import TraceScreen
from ptc_tui.widgets.options_panel import OptionsPanel
from ptc_tui.widgets.turn_list import TurnList
from tests.app.conftest import WIDE, sample, settle
from tests.app.test_help_screen import open_help, sections

pytestmark = pytest.mark.anyio


def configured(tmp_path, text: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(path)


def footer(app) -> dict[str, str]:
    """Description -> key, as the footer shows them."""
    return {k.description: k.key_display or k.key for k in app.screen.query(FooterKey)}


async def test_a_rebound_key_works_and_help_and_footer_show_it(tmp_path):
    config = configured(tmp_path, '[keys]\nturns.next = "n"\n"view.options" = "O"\n')
    app = PtcApp(sample("error_recovery"), config=config)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("j")                      # no longer bound
        await pilot.pause()
        assert app.screen.turn == 1
        await pilot.press("n", "n")
        await pilot.pause()
        assert app.screen.turn == 3
        assert footer(app)["Options"] == "O"
        await pilot.press("o")
        await pilot.pause()
        assert not app.screen.query_one(OptionsPanel).display
        await pilot.press("O")
        await pilot.pause()
        assert app.screen.query_one(OptionsPanel).display
        await pilot.press("escape")
        await open_help(app, pilot)
        rows = {description: keys for area in sections(app).values()
                for keys, description in area}
        assert rows["Next turn"] == ["n"] and rows["Options"] == ["O"]


async def test_the_command_palette_names_the_rebound_key(tmp_path):
    config = configured(tmp_path, '[keys]\n"view.options" = "O"\n')
    app = PtcApp(sample("error_recovery"), config=config)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        helps = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert helps["Options"].endswith("(O)")


async def test_the_theme_strategy_limits_and_price_model_a_trace_opens_with(tmp_path):
    config = configured(tmp_path, '[app]\ntheme = "nord"\nstrategy = "namespaced"\n'
                        'println_limit = 2\n[prices]\nmodel = "gpt-4o-mini"\n')
    app = PtcApp(sample("error_recovery"), config=config)
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert app.theme == "nord"
        screen = app.screen
        assert isinstance(screen, TraceScreen)
        assert (screen.view.opts.strategy, screen.view.opts.println_limit) == ("namespaced", 2)
        assert screen.view.what_if                          # R goes back to the recorded
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, TokenScreen) and app.screen.tokens.model == "gpt-4o-mini"


async def test_caching_off_in_the_file_is_where_the_app_starts(tmp_path):
    config = configured(tmp_path, '[prices]\nmodel = "gpt-4.1"\ncaching = false\n')
    app = PtcApp(sample("tool_heavy"), config=config)
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert app.caching is False and app.screen.header_info.caching is None
        await pilot.press("v")
        await pilot.pause()
        assert not app.screen.tokens.caching
    config = configured(tmp_path, '[prices]\nmodel = "gpt-4.1"\n')
    app = PtcApp(sample("tool_heavy"), config=config)
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert app.caching is True and app.screen.header_info.caching.model == "gpt-4.1"


async def test_without_a_config_a_trace_opens_as_recorded():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        assert not app.screen.view.what_if and app.theme == "textual-dark"


async def test_escape_closes_the_options_panel_from_any_focus():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        panel = app.screen.query_one(OptionsPanel)
        await pilot.press("o")
        await pilot.pause()
        assert panel.display and panel.has_focus_within
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.display and app.screen.query_one(TurnList).has_focus
        await pilot.press("o", "tab")                      # focus on a number input
        await pilot.pause()
        assert panel.has_focus_within
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.display
        await pilot.press("o")
        await pilot.click(TurnList)                        # the panel open, focus elsewhere
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.display and isinstance(app.screen, TraceScreen)


def test_every_binding_id_in_the_source_can_be_rebound():
    import re
    from pathlib import Path
    source = Path(__file__).parents[2] / "ptc_tui"
    ids = {m for path in source.rglob("*.py")
           for m in re.findall(r'\bid="([a-z_]+\.[a-z_]+)"', path.read_text())}
    assert len(ids) > 40 and ids == set(app_bindings())
