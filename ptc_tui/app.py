"""PtcApp: the Textual app: a saved trace on a `TraceScreen` or a live run on a `LiveScreen`,
an experiment, a folder of runs or two traces compared; opening other traces and samples, and
help. Its other parts are mixed in: loading traces (app_loading), saving on a signal
(app_signals), forks and comparisons (app_what_if), the palette's commands (app_commands)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from engine.agent import Session
from engine.agent.open_trace import open_trace
from engine.trace import TraceError, trace_file_size
from ptc_tui.app_commands import PaletteCommands
from ptc_tui.app_loading import TraceLoading
from ptc_tui.app_signals import SavesOnSignal
from ptc_tui.app_what_if import WhatIf
from ptc_tui.config import Config
from ptc_tui.screens import LiveScreen, TraceScreen
from ptc_tui.screens.compare_screen import CompareScreen
from ptc_tui.screens.experiment_screen import ExperimentScreen
from ptc_tui.screens.help_screen import HelpScreen
from ptc_tui.screens.loading_screen import LoadingScreen
from ptc_tui.screens.open_dialog import OpenDialog, SamplePickerDialog
from ptc_tui.screens.pane_layout import PaneLayout
from ptc_tui.screens.runs_screen import RunsScreen
from ptc_tui.view.compare import Comparison
from ptc_tui.view.formats import count_text
from ptc_tui.view.experiment import ExperimentView
from ptc_tui.view.runs import find_runs, listed
from ptc_tui.widgets import escape_controls

# While the app runs, Python's collector of reference cycles runs less often. Drawing a key
# press makes tens of thousands of containers (Textual's strips, each with seven caches of its
# own) that live until the next turn is drawn: each young collection walks them all (5-15 ms on
# a late turn of the 200-turn benchmark trace). At Python's default (one every 700) a key set
# off some 40 collections; at 10,000 about one a key; at 50,000 one every few keys. What they
# would find is little: nearly all of that memory is freed by reference counting.
GC_THRESHOLDS = (50_000, 10, 10)

# A trace file up to this size is read and checked before the app starts (a few milliseconds),
# so a broken one is a line on stderr without a screen; a larger one is read by the loader.
CHECKED_UP_FRONT_BYTES = 4 * 1024 * 1024


class PtcApp(TraceLoading, SavesOnSignal, WhatIf, PaletteCommands, App):
    """A debugger for LLM agents that write PTC-Lisp."""

    TITLE = "ptc-tui"
    CSS_PATH = "app.tcss"
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("ctrl+o", "open", "Open", id="app.open", show=False),
        Binding("ctrl+e", "samples", "Samples", id="app.samples", show=False),
        # only while a run or comparison is shown over an experiment (see check_action)
        Binding("escape", "back_to_experiment", "Back to the list", show=False),
    ]

    def __init__(self, trace_path: str | Path | None = None, *,
                 session: Session | None = None, save_path: str | Path | None = None,
                 compare: tuple[Path, Path] | None = None,
                 experiment: ExperimentView | None = None, live_experiment=None,
                 spans=None, config: Config | None = None, runs: Path | None = None) -> None:
        """Open the trace at `trace_path` (a file that cannot be read, or a small broken one,
        raises TraceError before the app starts; a larger one is read once the app shows
        "loading", and a failure then ends the app with return code 2 and `error_line`), step
        `session` live, saving it to `save_path` after every turn, compare the two traces
        of `compare`, or show `experiment` (filling in as `live_experiment`, an
        experiments.runner.InBackground, makes its runs). `spans` (a SpanStream) shows its
        warning here. `config` (the config file's settings) gives the theme, the keys, and the
        options and price model a trace opens with. `runs`: every trace under that folder
        (a folder without any raises TraceError)."""
        super().__init__()
        self.live_experiment = live_experiment
        self.spans = spans
        self.config = config if config is not None else Config(Path())
        if self.config.theme:
            self.theme = self.config.theme
        if self.config.keys:
            self.set_keymap(self.config.keys)
        self.experiment = experiment
        self.runs_folder = Path(runs) if runs is not None else None
        self._runs = listed(self.runs_folder, find_runs(self.runs_folder)) if runs else None
        if self._runs == []:
            raise TraceError(f"{runs}: no trace files under this folder")
        self.session = session
        self.save_path = Path(save_path) if save_path is not None else None
        self._quit_warned = False
        self.pane_layout = PaneLayout()          # zoom and wrap, kept from trace to trace
        self.caching = self.config.caching       # costs with prompt caching (`c`), likewise
        self.trace_path = Path(trace_path) if trace_path is not None else None
        self.error_line: str | None = None     # why the first trace could not be loaded
        self._first_trace = None
        if self.trace_path is not None and trace_file_size(self.trace_path) \
                <= CHECKED_UP_FRONT_BYTES:
            self._first_trace = open_trace(self.trace_path)
        self._comparison = (Comparison.of(open_trace(compare[0]), open_trace(compare[1]),
                                          str(compare[0]), str(compare[1]))
                            if compare is not None else None)

    def on_mount(self) -> None:
        self._gc_thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        self.handle_signals()
        if self.spans is not None:
            self.spans.warn = self.warn_from_thread
        if self.experiment is not None:
            self.sub_title = f"experiment: {self.experiment.folder.name}"
            self.push_screen(ExperimentScreen(self.experiment, live=self.live_experiment))
        elif self._runs is not None:
            self.sub_title = f"runs: {self.runs_folder.name}"
            self.push_screen(RunsScreen(self.runs_folder, self._runs))
        elif self._comparison is not None:
            self.sub_title = "compare"
            self.push_screen(CompareScreen(self._comparison))
        elif self.session is not None:
            self.sub_title = f"live: {self.session.agent.name}"
            self.push_screen(LiveScreen(self.session, self.save_path, save_to=self.save_path))
        elif self.trace_path is not None:
            self.sub_title = self.trace_path.name
            self.push_screen(LoadingScreen(self.trace_path))
            self._load(self.trace_path, self._first_trace)
            self._first_trace = None

    def on_unmount(self) -> None:
        gc.set_threshold(*self._gc_thresholds)
        self.leave_signals()

    def _unsaved_live_run(self) -> bool:
        screen = self.screen
        if isinstance(screen, TraceScreen) and screen.unsaved:
            self.notify("this live run has turns not saved: ctrl+s saves them first",
                        title="open another trace", severity="warning")
            return True
        return False

    async def action_quit(self) -> None:
        """Quit; with unsaved live turns, only on the second press (the first one warns)."""
        screen = self.screen
        if isinstance(screen, TraceScreen) and screen.unsaved and not self._quit_warned:
            self._quit_warned = True
            unsaved = len(screen.view.trace.turns) - screen.saved_turns
            self.notify(f"{count_text(unsaved, 'turn')} not saved: ctrl+s saves, "
                        "q again quits", title="quit", severity="warning")
            return
        self.exit()

    def action_open(self) -> None:
        if not self._unsaved_live_run():
            start = self.trace_path.parent if self.trace_path is not None else Path.cwd()
            self.push_screen(OpenDialog(start), self.open_trace)

    def action_samples(self) -> None:
        if not self._unsaved_live_run():
            self.push_screen(SamplePickerDialog(), self.open_trace)

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "back_to_experiment":
            return self._over_experiment()
        return True

    def _over_experiment(self) -> bool:
        """Whether a run (or anything but a dialog) is shown over the experiment screen or
        the runs screen."""
        stack = self.screen_stack
        return (len(stack) > 2 and isinstance(stack[1], (ExperimentScreen, RunsScreen))
                and isinstance(self.screen, (TraceScreen, LoadingScreen)))

    def action_back_to_experiment(self) -> None:
        """Escape on a run opened from the experiment screen: back to the experiment."""
        while self._over_experiment():
            self.pop_screen()
        self.sub_title = (f"experiment: {self.experiment.folder.name}" if self.experiment
                          else f"runs: {self.runs_folder.name}")

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def warn_from_thread(self, line: str) -> None:
        """A warning from another thread (the spans' sender) as a notification (notify posts
        a message: thread-safe, and it never waits for the app)."""
        try:
            self.notify(escape_controls(line), title="OTLP", severity="warning", timeout=10,
                        markup=False)
        except RuntimeError:        # the app is not running (any more): say it on stderr
            tell(f"warning: OTLP: {line}")


def tell(line: str) -> None:
    """`line` on stderr as `ptc-tui: line` (nothing when stderr is gone)."""
    try:
        print(f"ptc-tui: {escape_controls(line)}", file=sys.stderr)
    except OSError:
        pass

