"""QuickScrollBar: Textual's scrollbar, drawn straight into strips. Textual draws a scrollbar as
any widget, a line at a time through its styles pipeline: 2 to 3 ms for a 44-row bar, and a key
that makes four panes' scrollbars appear drew them twice (a newly placed scrollbar asks for a
second layout of the whole screen). This one draws the same cells from the same glyphs, styles
and mouse actions (Textual's own ScrollBarRender makes them), keeps them until the bar moves,
and takes its size without asking for a layout."""

from __future__ import annotations

from rich.color import Color
from rich.segment import Segment
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.strip import Strip

DEFAULT_BACK = Color.parse("#555555")          # ScrollBarRender's own, for a style without one
DEFAULT_BAR = Color.parse("bright_magenta")


class QuickScrollBar(ScrollBar):
    virtual_size = Reactive(Size(0, 0))     # a scrollbar's own: Textual's asks for a layout

    _drawn: tuple = ()                       # what the strips below were drawn for
    _strips: list[Strip] = []

    def render_lines(self, crop: Region) -> list[Strip]:
        width, height = self.size
        bar = self.render()                  # the glyphs' sizes and style, as Textual has them
        key = (width, height, bar.virtual_size, bar.window_size, bar.position, bar.style)
        if key != self._drawn:
            self._strips = self._draw(bar, width, height)
            self._drawn = key
        strips = self._strips[crop.y:crop.bottom]
        if crop.column_span != (0, width):
            strips = [strip.crop(crop.x, crop.right) for strip in strips]
        return strips

    def _draw(self, bar, width: int, height: int) -> list[Strip]:
        style = bar.style
        segments = self.renderer.render_bar(
            size=height if self.vertical else width,
            virtual_size=bar.virtual_size, window_size=bar.window_size, position=bar.position,
            thickness=width if self.vertical else height, vertical=self.vertical,
            back_color=style.bgcolor or DEFAULT_BACK, bar_color=style.color or DEFAULT_BAR)
        if self.vertical:                    # a segment a row; rows of a few kinds, one
            kinds = {s: Strip([s], width) for s in set(segments.segments)}   # Strip a kind
            return [kinds[s] for s in segments.segments]
        lines = Segment.split_lines(segments.segments)   # `height` rows of the same cells,
        return [Strip(Segment.adjust_line_length(line, width), width)   # a thumb at the end
                for line in lines][:height]                             # can run one over


class QuietCorner(ScrollBarCorner):
    """The square between two scrollbars, placed without asking for a second layout."""
    virtual_size = Reactive(Size(0, 0))


class QuickScrollBars:
    """Mixed in before a ScrollView: its scrollbars are QuickScrollBars and its corner a
    QuietCorner. (Textual makes them in these three properties, on first use; they are made
    here the same way, with the classes changed.)"""

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = self._new_scrollbar(True, self.scrollbar_size_vertical)
        return self._vertical_scrollbar

    @property
    def horizontal_scrollbar(self) -> ScrollBar:
        if self._horizontal_scrollbar is None:
            self._horizontal_scrollbar = self._new_scrollbar(False,
                                                             self.scrollbar_size_horizontal)
        return self._horizontal_scrollbar

    @property
    def scrollbar_corner(self) -> ScrollBarCorner:
        if self._scrollbar_corner is None:
            self._scrollbar_corner = QuietCorner()
            self.app._start_widget(self, self._scrollbar_corner)
        return self._scrollbar_corner

    def _new_scrollbar(self, vertical: bool, thickness: int) -> QuickScrollBar:
        bar = QuickScrollBar(vertical=vertical, name="vertical" if vertical else "horizontal",
                             thickness=thickness)
        bar.display = False
        self.app._start_widget(self, bar)
        return bar
