"""The trace screen's compact footer at narrow widths: the command palette key, docked right,
reaches the screen's edge, so no binding scrolled under it shows a stray letter there."""

import pytest
from textual.widgets import Footer

from ptc_tui.app import PtcApp
from tests.app.conftest import sample, settle

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 30), (160, 45)], ids=str)
async def test_the_palette_key_covers_the_footers_last_column(size):
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        footer = app.screen.query_one(Footer)
        palette = footer.query_one(".-command-palette")
        assert palette.region.right == footer.region.right == size[0]
        hidden = [k for k in footer.query("FooterKey") if k is not palette
                  and k.region.right > palette.region.x]
        assert size[0] >= 160 or hidden           # narrow: bindings run under the palette key
