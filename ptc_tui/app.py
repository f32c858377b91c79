"""PtcApp: the Textual app; `run_app(path)` opens one saved trace on a `TraceScreen`."""

from __future__ import annotations

import sys
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from engine.trace import TraceError, load_trace
from ptc_tui.screens import TraceScreen
from ptc_tui.view import TraceView


class PtcApp(App):
    """A debugger for LLM agents that write PTC-Lisp, showing one trace."""

    TITLE = "ptc-tui"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("q", "quit", "Quit", id="app.quit")]

    def __init__(self, trace_path: str | Path) -> None:
        super().__init__()
        self.trace_path = Path(trace_path)
        self.view = TraceView.of(load_trace(self.trace_path))

    def on_mount(self) -> None:
        self.sub_title = self.trace_path.name
        self.push_screen(TraceScreen(self.view))


def run_app(path) -> int:
    """Open the trace at `path`; 0 once the user quits, 1 (and a message) for a bad file."""
    try:
        app = PtcApp(path)
    except TraceError as e:
        print(f"ptc-tui: {e}", file=sys.stderr)
        return 1
    app.run()
    return 0
