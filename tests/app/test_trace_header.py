"""The trace screen's header: four lines whatever the options (so the panes under it never jump
when the strategy changes), each fitting a 160-column terminal, the tokens and their savings on
the fourth."""

from dataclasses import replace

import pytest

from ptc_tui.app import PtcApp
from ptc_tui.view.formats import percent_text
from ptc_tui.widgets import TraceHeader
from ptc_tui.widgets.trace_header import header_text
from sample_traces import HERE
from tests.app.conftest import sample, settle

pytestmark = pytest.mark.anyio
SAMPLES = sorted(p.stem for p in HERE.glob("*.json"))
SCREEN_160 = (160, 45)
PRICED = ("v", "m", "escape")     # the token view's first priced model: caching in the header


def lines_of(app) -> list[str]:
    return str(app.screen.query_one(TraceHeader).content).split("\n")


async def press(app, pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(app, pilot)


@pytest.mark.parametrize("name", SAMPLES)
async def test_every_header_line_fits_160_columns_under_namespaced_with_caching(name):
    app = PtcApp(sample(name))
    async with app.run_test(size=SCREEN_160) as pilot:
        await settle(app, pilot)
        await press(app, pilot, *PRICED)
        while app.screen.view.strategy != "namespaced":
            await press(app, pilot, "s")
        header, h = app.screen.query_one(TraceHeader), app.screen.header_info
        assert app.caching and h.caching is not None and h.what_if
        lines = lines_of(app)
        assert len(lines) == 4 and header.region.height == 4
        assert lines[2].startswith("recorded: ")
        assert lines[2].endswith("| viewing: namespaced (what-if; R: recorded)")
        assert lines[3].startswith(f"tokens: {h.tokens:,} would be sent, ")
        if h.saved:
            assert f"{abs(h.saved):,} {'fewer' if h.saved > 0 else 'more'} than full " \
                   f"({percent_text(abs(h.saved_percent))})" in lines[3]
        assert f" · with prompt caching ({h.caching.model}): cost" in lines[3]
        for line in lines[1:]:                  # the mission alone may be cut with …
            assert len(line) <= header.content_region.width == 158, line


async def test_the_header_keeps_its_height_when_the_strategy_changes():
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=SCREEN_160) as pilot:
        await settle(app, pilot)
        header = app.screen.query_one(TraceHeader)
        heights = {header.region.height}
        for key in ("s", "s", "s", "s", "p", "R"):
            await press(app, pilot, key)
            heights.add(header.region.height)
        assert heights == {4}
        assert lines_of(app)[3].startswith("tokens: ") and " sent, " in lines_of(app)[3]


def test_while_counting_the_fourth_line_says_so(view_of):
    counting = replace(view_of("long_exploration").header(), tokens=None, saved_percent=None)
    lines = header_text(counting).plain.split("\n")
    assert len(lines) == 4 and lines[3] == "counting tokens…"
