"""PtcApp: the Textual app: a saved trace on a `TraceScreen` or a live run on a `LiveScreen`,
opening other traces and samples, help, and the command palette's own commands."""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.keys import format_key
from textual.message import Message
from textual.screen import Screen

from engine.agent import Session
from engine.agent.open_trace import open_trace
from engine.trace import Trace, TraceError, save_trace, trace_file_size
from ptc_tui.app_what_if import WhatIf
from ptc_tui.autosave import autosave_path, unseen_autosaves
from ptc_tui.config import Config, ConfigError
from ptc_tui.screens import LiveScreen, TraceScreen
from ptc_tui.screens.compare_screen import CompareScreen
from ptc_tui.screens.experiment_screen import ExperimentScreen
from ptc_tui.screens.help_screen import HelpScreen
from ptc_tui.screens.loading_screen import LoadingScreen
from ptc_tui.screens.open_dialog import OpenDialog, SamplePickerDialog
from ptc_tui.screens.pane_layout import PaneLayout
from ptc_tui.screens.runs_screen import RunsScreen
from ptc_tui.signals import SIGNALS
from ptc_tui.view import TraceView
from ptc_tui.view.compare import Comparison
from ptc_tui.experiments.record import FILE_NAME as EXPERIMENT_FILE
from ptc_tui.view.experiment import ExperimentView
from ptc_tui.view.runs import find_runs, listed
from ptc_tui.widgets import escape_controls

# A trace file up to this size is read and checked before the app starts (a few milliseconds),
# so a broken one is a line on stderr without a screen; a larger one is read by the loader.
CHECKED_UP_FRONT_BYTES = 4 * 1024 * 1024


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


class PtcApp(WhatIf, App):
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
        self.stopped_by: str | None = None     # the signal that ended the app, if one did
        self.saved_on_signal: str | None = None  # where its live run was saved then
        self._quit_warned = False
        self.pane_layout = PaneLayout()          # zoom and wrap, kept from trace to trace
        self.caching = self.config.caching       # costs with prompt caching (`c`), likewise
        self.trace_path = Path(trace_path) if trace_path is not None else None
        self.error_line: str | None = None     # why the first trace could not be loaded
        self._loads = 0                        # loads started; only the last one is shown
        self._loading: Path | None = None      # the file being loaded now, if one is
        self._first_trace = None
        if self.trace_path is not None and trace_file_size(self.trace_path) \
                <= CHECKED_UP_FRONT_BYTES:
            self._first_trace = open_trace(self.trace_path)
        self._comparison = (Comparison.of(open_trace(compare[0]), open_trace(compare[1]),
                                          str(compare[0]), str(compare[1]))
                            if compare is not None else None)

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in SIGNALS:
            loop.add_signal_handler(signum, self.stop_on_signal, signum)
        self._name_autosaves()
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
        loop = asyncio.get_running_loop()
        for signum in SIGNALS:
            loop.remove_signal_handler(signum)

    # --- opening traces ---------------------------------------------------------------------
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
            # the turn list shows fewer rows than the terminal has
            answer = Loaded(number, path, load_view(path, trace, self.config.history,
                                                    self.size.height), None)
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
            self.notify(f"{unsaved} turn{'s' * (unsaved != 1)} not saved: ctrl+s saves, "
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
            _tell(f"warning: OTLP: {line}")

    # --- signals -------------------------------------------------------------------------------
    def stop_on_signal(self, signum: int) -> None:
        """SIGINT, SIGTERM, SIGHUP (a closed terminal): save a live run's unsaved turns (to its
        --save file, else to the autosave folder), then exit with 128 + the signal's number."""
        self.stopped_by = signal.Signals(signum).name
        live = next((s for s in self.screen_stack if isinstance(s, LiveScreen)), None)
        if live is not None and len(live.session.turns) > live.saved_turns:
            path = live.save_path or autosave_path(live.session.agent.name)
            try:
                save_trace(live.session.trace(), path)
                self.saved_on_signal = f"saved the live run ({len(live.session.turns)} turns) " \
                                       f"to {path}"
            except (OSError, ValueError) as e:
                self.saved_on_signal = f"could not save the live run: {path}: {e}"
        self.exit(return_code=128 + signum)

    def _name_autosaves(self) -> None:
        found = unseen_autosaves()
        if found:
            more = f" (and {len(found) - 1} more in {found[0].parent})" if len(found) > 1 else ""
            self.notify(escape_controls(f"a live run was saved when ptc-tui was stopped: "
                                        f"{found[0]}{more}"), title="autosaved run",
                        timeout=20, markup=False)

    # --- command palette --------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands (theme, keys, screenshot...), then every binding of the app
        and of the screen below the palette, then one command per strategy."""
        yield from super().get_system_commands(screen)
        seen = {"quit"}
        for binding in (*self.BINDINGS, *screen.BINDINGS):
            if isinstance(binding, Binding) and binding.id and binding.action not in seen:
                seen.add(binding.action)
                owner = self if binding in self.BINDINGS else screen
                keys = self._keymap.get(binding.id, binding.key)
                yield SystemCommand(binding.description, _help(binding, keys),
                                    lambda a=binding.action, o=owner: o.run_action(a))
        if isinstance(screen, TraceScreen):
            yield SystemCommand("Compare with…", "Compare this trace with another trace file, "
                                "turn by turn", self.action_compare_with)
            for name in screen.strategies:
                yield SystemCommand(f"Strategy: {name}", f"Show the history under {name}",
                                    lambda n=name: screen.set_strategy(n))


def _help(binding: Binding, keys: str) -> str:
    """`Save (ctrl+s)`: the keys as people write them, never Textual's names (`slash`)."""
    shown = " / ".join(format_key(key.strip()) for key in keys.split(","))
    return f"{binding.tooltip or binding.description} ({shown})"


def run_app(path=None, session: Session | None = None, save_path=None,
            compare: tuple[Path, Path] | None = None,
            experiment: ExperimentView | None = None, live_experiment=None,
            spans=None, config: Config | None = None, runs: Path | None = None) -> int:
    """Open the trace at `path`, step `session` live (saving it to `save_path` after every
    turn), compare two trace files, or show an experiment; 0 once the user quits, 2 (and a message) for a trace
    file that cannot be read, 128 + the signal's number when a signal ended it (its live run
    saved first). `config`: the config file's settings (its [keys] are checked here)."""
    try:
        if config is not None:
            from ptc_tui.keymap import app_bindings
            config.check_keys(app_bindings())
        app = PtcApp(path, session=session, save_path=save_path, compare=compare,
                     experiment=experiment, live_experiment=live_experiment, spans=spans,
                     config=config, runs=runs)
    except (TraceError, ConfigError) as e:
        print(f"ptc-tui: {one_line(str(e))}", file=sys.stderr)
        return 2
    try:
        app.run()
    except OSError:           # the terminal is gone (SIGHUP): the run was saved before
        if app.stopped_by is None:
            raise
    if app.error_line is not None:
        _tell(app.error_line)
    if app.stopped_by is not None:
        _tell(f"stopped by {app.stopped_by}" +
              (f"; {app.saved_on_signal}" if app.saved_on_signal else ""))
    return app.return_code or 0


def open_directory(folder: Path, config: Config | None = None) -> int:
    """`ptc-tui DIR`: the experiment screen for a folder holding an experiment, else the runs
    screen of every trace under it."""
    folder = Path(folder)
    if (folder / EXPERIMENT_FILE).exists():
        return run_app(experiment=ExperimentView.of(folder), config=config)
    return run_app(runs=folder, config=config)


def _tell(line: str) -> None:
    try:
        print(f"ptc-tui: {line}", file=sys.stderr)
    except OSError:
        pass


def one_line(text: str) -> str:
    return " ".join(text.split())
