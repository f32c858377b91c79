"""TraceLoading: the app's part in opening a trace: read, rendered and its first screen counted
in a thread while the screen stays live, then shown; a newer load supersedes an older one, and
a broken file is a notification (or, for the trace the app was started with, its error line)."""

from __future__ import annotations

import gc
import threading
from pathlib import Path

from textual.message import Message

from engine.agent.open_trace import open_trace
from engine.trace import Trace, TraceError
from ptc_tui.screens import TraceScreen
from ptc_tui.screens.trace_screen import turn_rows_shown
from ptc_tui.screens.loading_screen import LoadingScreen
from ptc_tui.view import TraceView
from ptc_tui.widgets import escape_controls

def load_view(path: Path, trace: Trace | None, options: dict | None,
              first_turns: int) -> TraceView:
    """The trace at `path` (or `trace`, already read from it) under its recorded options changed
    by `options` (the config file's), with its `first_turns` turns (those a first screen shows)
    decoded, rendered and counted: what the loader thread does, off the UI thread, before a
    TraceScreen can show it (the screen decodes and counts the others in the background, so a
    long trace opens as quickly as a short one).

    Python's cyclic garbage collector is paused meanwhile: reading a long trace makes millions
    of objects, and each full collection on the way walked all of them (a third of the first
    screen's time on the 1,000-turn benchmark trace). They are kept out of later collections
    too (gc.freeze; a TraceScreen unfreezes them when it closes)."""
    gc.disable()
    try:
        view = TraceView.of(trace if trace is not None else open_trace(path, lazy=True))
        if options:
            view = view.with_options(**options)
        view.count_first(first_turns)
        gc.freeze()
    finally:
        gc.enable()
    return view


class Loaded(Message):
    """The loader thread's answer for load number `number`: a view, or the error's line."""

    def __init__(self, number: int, path: Path, view: TraceView | None, error: str | None):
        super().__init__()
        self.number, self.path, self.view, self.error = number, path, view, error


class TraceLoading:
    """Mixed into PtcApp (which gives `trace_path`, `config`, `error_line`, screens and
    notifications)."""

    _loads = 0                             # loads started; only the last one is shown
    _loading: Path | None = None           # the file being loaded now, if one is

    @property
    def loading(self) -> bool:
        """Whether a trace is being loaded (and will replace the screen once it is)."""
        return self._loading is not None

    def open_trace(self, path: Path | None) -> None:
        """Show the trace at `path` instead of the current one, once it is loaded, rendered and
        counted in a thread (the screen stays live meanwhile); a bad file is a notification
        and the current trace stays."""
        if path is not None:
            self._load(Path(path))

    def _load(self, path: Path, trace: Trace | None = None) -> None:
        """Load `path` in a daemon thread, not a Textual worker: a worker runs on asyncio's
        default executor, which asyncio.run waits for on exit, so `q` during a huge load would
        wait for it. A newer load supersedes this one: its answer is then dropped."""
        self._loads += 1
        self._loading = path
        threading.Thread(target=self._load_in_thread, args=(self._loads, path, trace),
                         daemon=True, name=f"load {path.name}").start()

    def _load_in_thread(self, number: int, path: Path, trace: Trace | None) -> None:
        try:
            answer = Loaded(number, path, load_view(path, trace, self.config.history,
                                                    turn_rows_shown(self.size.height)), None)
        except TraceError as e:
            answer = Loaded(number, path, None, one_line(str(e)))
        try:
            self.post_message(answer)
        except RuntimeError:        # the app has exited (its event loop is closed): drop it
            pass

    def on_loaded(self, answer: Loaded) -> None:
        if answer.number != self._loads:
            return
        self._loading = None
        if answer.view is not None:
            self._show_trace(answer.path, answer.view)
        elif isinstance(self.screen, LoadingScreen):     # the trace the app was started with
            self.error_line = answer.error
            self.exit(return_code=2)
        else:
            self.notify(escape_controls(answer.error), title="cannot open trace",
                        severity="error", timeout=10, markup=False)

    def _show_trace(self, path: Path, view: TraceView) -> None:
        self.trace_path = path
        self.sub_title = path.name
        screen = TraceScreen(view, source=path, price_model=self.config.price_model)
        if isinstance(self.screen, (TraceScreen, LoadingScreen)):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)


def one_line(text: str) -> str:
    return escape_controls(" ".join(text.split()))
