"""TextPanel: a titled, scrollable pane showing one `Text`, the base of the program and
message panes; `plain` keeps what it shows, so tests can assert on it."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


def section(text: Text, title: str) -> None:
    """Append a `── title ──` rule line to `text`."""
    text.append(f"\n── {title} ──\n", "bold")


class TextPanel(VerticalScroll):
    DEFAULT_CSS = """
    TextPanel {
        border: round $primary-muted;
        border-title-color: $text;
        height: 1fr;
        width: 1fr;
        padding: 0 1;
        &:focus-within { border: round $primary; }
        & > Static { width: 1fr; }
    }
    """

    def __init__(self, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = title
        self.plain = ""
        self.body = Static(markup=False)

    def compose(self) -> ComposeResult:
        yield self.body

    def show(self, text: Text) -> None:
        self.plain = text.plain
        self.body.update(text)
