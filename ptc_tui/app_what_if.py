"""WhatIf: the app's part in forks and comparisons: a fork set up in a worker and opened as a
live run, two traces compared on the compare screen, the palette's "Compare with…"."""

from __future__ import annotations

from pathlib import Path

from textual import work

from engine.agent import Session
from engine.agent.open_trace import open_trace
from engine.trace import Trace, TraceError
from ptc_tui.screens import LiveScreen, TraceScreen
from ptc_tui.screens.compare_screen import CompareScreen
from ptc_tui.screens.open_dialog import OpenDialog
from ptc_tui.view.compare import Comparison
from ptc_tui.view.forks import ForkRequest, start_fork
from ptc_tui.widgets import escape_controls


class WhatIf:
    """Mixed into PtcApp (which gives `trace_path`, `notify`, screens and workers)."""

    def start_fork(self, parent: Trace, request: ForkRequest, parent_path: Path | None,
                   tools=None, limits=None, live_llm=None) -> None:
        """Open a fork of `parent` as a live run, once it is set up in a worker (the memory of
        the turns taken over is rebuilt there); a problem is a notification."""
        self._fork(parent, request, parent_path, tools, limits, live_llm)

    @work(thread=True, exclusive=True, group="fork", description="start a fork")
    def _fork(self, parent: Trace, request: ForkRequest, parent_path, tools, limits,
              live_llm) -> None:
        try:
            session = start_fork(parent, request, parent_path, tools, limits, live_llm)
        except ValueError as e:
            self.call_from_thread(self.notify, escape_controls(str(e)), title="cannot fork",
                                  severity="error", timeout=10, markup=False)
            return
        self.call_from_thread(self._show_fork, session, parent, parent_path)

    def _show_fork(self, session: Session, parent: Trace, parent_path: Path | None) -> None:
        screen = LiveScreen(session, parent_trace=parent, parent_name=parent_path.name
                            if parent_path is not None else "the run forked")
        self.sub_title = f"fork at turn {session.parent.turn}"
        self.push_screen(screen)

    def compare(self, a: Trace | Path, b: Trace | Path, a_name: str, b_name: str) -> None:
        """Show the compare screen of `a` and `b` (traces, or files read in a worker)."""
        self._compare(a, b, a_name, b_name)

    @work(thread=True, exclusive=True, group="compare", description="compare two traces")
    def _compare(self, a, b, a_name: str, b_name: str) -> None:
        try:
            traces = [open_trace(t) if isinstance(t, Path) else t for t in (a, b)]
            comparison = Comparison.of(*traces, a_name, b_name)
        except TraceError as e:
            self.call_from_thread(self.notify, escape_controls(str(e)), title="cannot compare",
                                  severity="error", timeout=10, markup=False)
            return
        self.call_from_thread(self.push_screen, CompareScreen(comparison))

    def action_compare_with(self) -> None:
        """Compare the trace on screen with a trace file chosen in the open dialog."""
        screen = self.screen
        if not isinstance(screen, TraceScreen):
            return
        start = self.trace_path.parent if self.trace_path is not None else Path.cwd()
        name = screen.source.name if screen.source is not None else "this run"

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.compare(screen.view.trace, Path(path), name, Path(path).name)
        self.push_screen(OpenDialog(start), chosen)

