"""LoadingScreen: what the app shows while the trace it was started with is read, rendered
and counted in a thread (a huge trace takes seconds); `q` quits meanwhile."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Header, Static

from ptc_tui.widgets import escape_controls
from ptc_tui.widgets.steady_footer import SteadyFooter


class LoadingScreen(Screen):
    """"loading FILE…" until the app switches to the trace's screen."""

    DEFAULT_CSS = """
    LoadingScreen { align: center middle; }
    LoadingScreen #loading { width: auto; }
    """

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(escape_controls(f"loading {self.path}…"), id="loading", markup=False)
        yield SteadyFooter()
