"""RunInfoScreen (`i`): the run as a whole, as recorded (ptc_tui.view.run_info), over the
trace screen; for a run of the reference implementation also its workflow's own LLM calls
and evaluations, which are not turns."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from ptc_tui.view.run_info import Section
from ptc_tui.widgets import literal
from ptc_tui.widgets.text_panel import TextPanel, section


def sections_text(sections: list[Section]) -> Text:
    text = Text()
    for s in sections:
        section(text, s.title)
        text.append_text(literal(s.text))
        text.append("\n")
    return text


class RunInfoScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    RunInfoScreen {
        align: center middle;
        & > TextPanel { width: 120; max-width: 100%; height: 90%; background: $surface; }
    }
    """

    BINDINGS = [Binding("escape,q,i", "close", "Close", id="run_info.close")]

    def __init__(self, sections: list[Section], **kwargs) -> None:
        super().__init__(**kwargs)
        self.sections = sections

    def compose(self) -> ComposeResult:
        yield TextPanel("run · as recorded", id="run-info")

    def on_mount(self) -> None:
        panel = self.query_one(TextPanel)
        panel.show(sections_text(self.sections))
        panel.focus()

    def action_close(self) -> None:
        self.dismiss(None)
