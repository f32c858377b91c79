"""TextPanel: a titled, scrollable pane showing one `Text`, the base of the program, message and
diff panes. It wraps the text once per width and draws only the lines on screen (Textual's
line API), so a long request redraws as fast as a short one; `plain` keeps what it shows."""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


def section(text: Text, title: str) -> None:
    """Append a `── title ──` rule line to `text`."""
    text.append(f"\n── {title} ──\n", "bold")


class TextPanel(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    TextPanel {
        border: round $primary-muted;
        border-title-color: $text;
        height: 1fr;
        width: 1fr;
        padding: 0 1;
        overflow-x: hidden;
        scrollbar-gutter: stable;      /* the wrap width never depends on the scrollbar */
        &:focus { border: round $primary; }
    }
    """

    def __init__(self, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = title
        self.plain = ""
        self._text = Text()
        self._lines: list[Text] = []       # `_text` wrapped at `_width`
        self._strips: dict[int, Strip] = {}
        self._width = 0

    def show(self, text: Text) -> None:
        self.plain = text.plain
        self._text = text
        self._width = 0                    # wrap again
        self._wrap()
        self.refresh()

    def on_resize(self) -> None:
        self._wrap()

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._width:
            return
        self._lines = list(self._text.wrap(self.app.console, width))
        self._strips = {}
        self._width = width
        self.virtual_size = Size(width, len(self._lines))

    def render_line(self, y: int) -> Strip:
        self._wrap()
        base = self.rich_style
        index = self.scroll_offset.y + y
        if index >= len(self._lines):
            return Strip.blank(self._width, base)
        strip = self._strips.get(index)
        if strip is None:
            segments = self._lines[index].render(self.app.console, end="")
            strip = self._strips[index] = Strip(Segment.apply_style(segments, base))
        return strip.crop_extend(0, self._width, base)
