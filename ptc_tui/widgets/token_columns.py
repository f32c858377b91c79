"""TokenColumns: the token view's chart (`ColumnChart`) drawn at the widget's size: each turn's
input tokens per strategy as columns side by side over the running totals, the selected turn
marked. Too many turns for the width: the chart scrolls sideways, the selected turn in view."""

from __future__ import annotations

from collections.abc import Mapping

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ptc_tui.view.token_chart import ColumnChart, Run

ROLE_STYLES = {"axis": Style(dim=True), "mark": Style(bold=True, reverse=True),
               "title": Style(bold=True)}
SELECTED = Style(bgcolor="grey30")      # behind the selected turn's columns
CACHED = Style(dim=True)                # a column's part read from the prompt cache


class TokenColumns(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    TokenColumns {
        height: 1fr; min-height: 12;
        border: round $primary-muted;
        &:focus { border: round $accent; }
    }
    """

    def __init__(self, chart: ColumnChart, styles: Mapping[str, str], **kwargs) -> None:
        """`styles`: each strategy's colour, as the legend and the totals show it."""
        super().__init__(**kwargs)
        self.chart = chart
        self.run_styles = {**{name: Style.parse(s) for name, s in styles.items()}, **ROLE_STYLES}
        self.lines: list[tuple[Run, ...]] = []
        self.laid_out_for = Size(0, 0)

    @property
    def plain(self) -> str:
        """The chart as text, for tests and copying."""
        return "\n".join("".join(run.text for run in line).rstrip() for line in self.lines)

    def show(self, chart: ColumnChart) -> None:
        """Draw another chart (the caching choice changed which part of each column is dim)."""
        self.chart, self.laid_out_for = chart, Size(0, 0)
        self._lay_out()

    def on_resize(self) -> None:
        self._lay_out()
        self.call_after_refresh(self._scroll_to_selected)

    def _lay_out(self) -> None:
        size = self.scrollable_content_region.size
        if size == self.laid_out_for or size.width <= 0:
            return
        self.laid_out_for = size
        self.lines = self.chart.lines(size.width, size.height)
        widest = max((sum(len(run.text) for run in line) for line in self.lines), default=0)
        self.virtual_size = Size(max(widest, size.width), len(self.lines))
        self.refresh()

    def _scroll_to_selected(self) -> None:
        """The selected turn's mark in view (a wide chart scrolls sideways)."""
        for line in self.lines[1:2]:
            x = sum(len(run.text) for run in line[:-1])
            if x + 20 > self.scrollable_content_region.width:
                self.scroll_to(x=x - self.scrollable_content_region.width // 2, animate=False)

    def render_line(self, y: int) -> Strip:
        self._lay_out()
        base = self.rich_style
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if scroll_y + y >= len(self.lines):
            return Strip.blank(width, base)
        segments = []
        for run in self.lines[scroll_y + y]:
            style = base + self.run_styles[run.role] if run.role in self.run_styles else base
            if run.cached:
                style += CACHED
            segments.append(Segment(run.text, style + SELECTED if run.selected else style))
        return Strip(segments).crop_extend(scroll_x, scroll_x + width, base)
