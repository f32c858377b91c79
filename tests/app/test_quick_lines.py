"""The panes' content rows are put together by QuickLines (their line between the border and
padding cells Textual drew for the first one), and draw exactly what Textual's styles pipeline
draws: every cell's character and style, on every pane of the trace screen, in every state
that changes how a row looks (focus, zoom, theme, scrolling, size, partial crops), and for
other borders and padding. A pane styled with what QuickLines does not repeat (tint), or
whose rows differ in width, is drawn by Textual."""

import pytest
from rich.segment import Segment
from textual.app import App
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from ptc_tui.app import PtcApp
from ptc_tui.widgets.quick_lines import QuickLines
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio


def cells(strips: list[Strip]) -> list[list[tuple]]:
    return [[(char, segment.style) for segment in strip for char in segment.text]
            for strip in strips]


def forget(pane) -> None:
    """Drop the rows QuickLines made (and the edges they were made with)."""
    pane._edges = pane._rows = None


def crops(widget) -> list[Region]:
    width, height = widget.region.size
    return [Region(0, 0, width, height),                 # the whole pane
            Region(0, 2, width, height - 4),             # no border row
            Region(3, 1, width - 5, min(4, height - 1)),  # a piece, as a clipped pane is drawn
            Region(0, height - 3, width, 3)]             # the last rows and the bottom border


def check_quick_panes(screen) -> list[str]:
    """Each shown QuickLines pane drawn both ways, compared; the names of the panes whose
    rows QuickLines made."""
    made = []
    for pane in screen.query("*"):
        if not isinstance(pane, QuickLines) or not pane.display or pane.region.height < 5:
            continue
        for crop in crops(pane):
            forget(pane)
            quick = cells(pane.render_lines(crop))
            pane._styles_cache.clear()                   # Textual's rows drawn again
            assert quick == cells(Widget.render_lines(pane, crop)), (type(pane).__name__, crop)
        if pane._rows:
            made.append(type(pane).__name__)
    return made


ALL_PANES = {"TurnList", "ProgramPanel", "MessagePanel", "MemoryPanel", "MemoryDetail"}


@pytest.mark.parametrize("keys", [
    [],                                        # the first turn, the turn list focused
    ["G"],                                     # the last turn: a cursor row, long panes
    ["tab"],                                   # another pane focused: its border's colour
    ["colon", "2", "0", "enter", "tab", "tab"],  # a long request, scrolled below
])
async def test_every_pane_draws_the_rows_textual_draws(keys):
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
        await settle(app, pilot)
        if keys[-1:] == ["tab"]:
            app.screen.focused.scroll_to(y=5, animate=False, immediate=True)
            await settle(app, pilot)
        assert set(check_quick_panes(app.screen)) == ALL_PANES


async def test_a_zoomed_pane_a_light_theme_a_small_screen_and_code_scrolled_sideways():
    app = PtcApp(sample("large_data"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        tall_enough = {"TurnList", "ProgramPanel", "MessagePanel"}   # the memory's are short
        assert set(check_quick_panes(app.screen)) >= tall_enough
        app.theme = "textual-light"
        await settle(app, pilot)
        assert set(check_quick_panes(app.screen)) >= tall_enough
        await pilot.press("tab", "right", "right", "right")   # long code lines scroll sideways
        await settle(app, pilot)
        assert app.screen.focused.id == "program" and app.screen.focused.scroll_x > 0
        assert set(check_quick_panes(app.screen)) >= tall_enough
        await pilot.press("z")                                 # the program pane, zoomed
        await settle(app, pilot)
        assert check_quick_panes(app.screen) == ["ProgramPanel"]


async def test_rows_are_kept_until_their_line_or_the_edges_change():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", "2", "0", "enter")      # a request longer than its pane
        await settle(app, pilot)
        pane = app.screen.query_one("MessagePanel")
        assert pane.max_scroll_y > 3
        whole = Region(0, 0, *pane.region.size)
        first = pane.render_lines(whole)
        again = pane.render_lines(whole)
        # the compositor keeps a row's cuts with the row object: the same one, not a copy
        assert all(a is b for a, b in zip(first[2:-1], again[2:-1]))
        pane.scroll_to(y=3, animate=False, immediate=True)  # new lines, the same edges
        await settle(app, pilot)
        scrolled = pane.render_lines(whole)
        pane._styles_cache.clear()
        assert cells(scrolled) == cells(Widget.render_lines(pane, whole)) != cells(first)
        pane.scroll_to(y=0, animate=False, immediate=True)
        await settle(app, pilot)
        first = pane.render_lines(whole)
        pane.focus()                                       # the border's colour changes
        await settle(app, pilot)
        focused = pane.render_lines(whole)
        assert not any(a is b for a, b in zip(first[2:-1], focused[2:-1]))
        assert cells(focused) != cells(first)
        pane._styles_cache.clear()
        assert cells(focused) == cells(Widget.render_lines(pane, whole))


async def test_a_tinted_pane_is_drawn_by_textual():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        pane = app.screen.query_one("ProgramPanel")
        pane.styles.tint = "red 40%"
        await settle(app, pilot)
        forget(pane)
        whole = Region(0, 0, *pane.region.size)
        tinted = cells(pane.render_lines(whole))
        assert pane._rows is None                          # no row made by QuickLines
        pane._styles_cache.clear()
        assert tinted == cells(Widget.render_lines(pane, whole))


class Lines(QuickLines, ScrollView):
    """A pane of given lines, each a segment of its own width (widths may differ)."""

    def __init__(self, lines: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines = lines
        self.border_title = "lines"

    def on_mount(self) -> None:
        self.virtual_size = Size(20, len(self.lines))

    def render_line(self, y: int) -> Strip:
        text = self.lines[y] if y < len(self.lines) else ""
        return Strip([Segment(text, self.rich_style)])


class LinesApp(App):
    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.pane_lines = lines

    def compose(self):
        yield Lines(self.pane_lines)


def lines_app(lines: list[str], css: str) -> App:
    """An app of one Lines pane styled with `css`."""
    return type("StyledLinesApp", (LinesApp,), {"CSS": f"Lines {{ {css} }}"})(lines)


EVEN = [f"row {i:02d} " + "·" * 10 for i in range(30)]


@pytest.mark.parametrize("css", [
    "border: round red; padding: 0 1; width: 30; height: 12;",
    "border: heavy green; padding: 1 2; width: 34; height: 14;",   # padding rows above, below
    "border: none; padding: 0; width: 26; height: 8;",             # no border: row 0 the first
    "border: tall blue; border-title-align: center; width: 28; height: 10;",
])
async def test_other_borders_and_padding_draw_as_textual_draws_them(css):
    app = lines_app(EVEN, css)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        pane = app.query_one(Lines)
        for crop in crops(pane):
            forget(pane)
            quick = cells(pane.render_lines(crop))
            pane._styles_cache.clear()
            assert quick == cells(Widget.render_lines(pane, crop)), crop
        assert pane._rows                                  # QuickLines made the last crop's


async def test_rows_of_different_widths_are_drawn_by_textual():
    app = lines_app(["short", "a longer row", "mid row"] * 5,
                    "border: round red; width: 30; height: 10;")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        pane = app.query_one(Lines)
        whole = Region(0, 0, *pane.region.size)
        forget(pane)
        quick = cells(pane.render_lines(whole))
        assert pane._rows is None
        pane._styles_cache.clear()
        assert quick == cells(Widget.render_lines(pane, whole))
