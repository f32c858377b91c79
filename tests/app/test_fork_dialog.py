"""The fork dialog's lines show whole at every common terminal size: the title and the hint under
the button wrap in the dialog rather than being cut at its edge."""

import pytest
from textual.geometry import Region
from textual.widgets import Label

from ptc_tui.app import PtcApp
from ptc_tui.screens.fork_dialog import ForkDialog
from tests.app.conftest import sample, settle

pytestmark = pytest.mark.anyio
HINT = ("enter: fork · escape: cancel · the fork opens as a live run: n runs a turn, c runs to "
        "the end")
TITLE = "Fork at turn 4: turns 1–3 are kept as recorded, turn 4 on runs again (a what-if)"


def shown(label: Label) -> str:
    """The label's text as drawn, its lines joined by spaces."""
    w, h = label.region.size
    return " ".join(" ".join(s.text.split()) for s in label.render_lines(Region(0, 0, w, h)))


@pytest.mark.parametrize("size", [(160, 45), (100, 30), (80, 24)], ids=str)
async def test_the_dialogs_title_and_hint_show_whole(size):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("colon", "4", "enter")
        await settle(app, pilot)
        await pilot.press("f")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ForkDialog) and dialog.at == 4
        box = dialog.query_one("#fork-dialog").content_region
        for label, text in ((dialog.query_one(".hint", Label), HINT),
                            (dialog.query_one(".title", Label), TITLE)):
            assert box.contains_region(label.region), label
            assert shown(label) == text
