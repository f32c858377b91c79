"""SteadyFooter: the footer's keys are made again only when the keys it shows change; a change
of focus or of an action's state that changes them still shows at once."""

import pytest
from textual.app import App
from textual.binding import Binding
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from ptc_tui.app import PtcApp
from ptc_tui.widgets.steady_footer import SteadyFooter
from tests.app.conftest import sample, settle

pytestmark = pytest.mark.anyio


def shown(app) -> list[tuple[str, str, bool]]:
    return [(k.key, k.description, k.disabled) for k in app.screen.query(FooterKey)]


async def test_tab_from_pane_to_pane_keeps_the_footers_keys():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        keys, before = list(app.screen.query(FooterKey)), shown(app)
        assert before                                      # the screen's keys are there
        for _ in range(4):
            focused = app.focused
            await pilot.press("tab")
            await settle(app, pilot)
            assert app.focused is not focused
        assert shown(app) == before
        assert all(a is b for a, b in zip(app.screen.query(FooterKey), keys, strict=True))


class Pane(Static, can_focus=True):
    pass


class Marked(Pane):
    BINDINGS = [Binding("m", "mark", "Mark")]

    def action_mark(self) -> None:
        pass


class FooterApp(App):
    BINDINGS = [Binding("s", "stop", "Stop")]
    ENABLE_COMMAND_PALETTE = False
    running = True

    def compose(self):
        yield Pane("plain", id="plain")
        yield Marked("marked", id="marked")
        yield SteadyFooter()

    def check_action(self, action, parameters):
        return self.running if action == "stop" else True

    def action_stop(self) -> None:
        self.running = False
        self.refresh_bindings()


async def test_keys_that_come_and_go_with_focus_or_an_actions_state_show_at_once():
    app = FooterApp()
    async with app.run_test() as pilot:
        app.query_one("#plain").focus()
        await pilot.pause()
        assert [(key, description) for key, description, _ in shown(app)] == [("s", "Stop")]
        app.query_one("#marked").focus()
        await pilot.pause()
        assert sorted(description for _, description, _ in shown(app)) == ["Mark", "Stop"]
        app.query_one("#plain").focus()
        await pilot.pause()
        assert [description for _, description, _ in shown(app)] == ["Stop"]
        await pilot.press("s")
        await pilot.pause()
        assert shown(app) == []                            # hidden once it cannot run
