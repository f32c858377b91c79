"""Starting the app from the command line: `run_app` opens a trace, a live run, a comparison,
an experiment or a folder of runs, and turns how the app ended into the exit code and the
lines on stderr; `open_directory` is `ptc-tui DIR`."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.agent import Session
from engine.trace import TraceError
from ptc_tui.app import PtcApp, tell
from ptc_tui.app_loading import one_line
from ptc_tui.config import Config, ConfigError
from ptc_tui.experiments.record import FILE_NAME as EXPERIMENT_FILE
from ptc_tui.keymap import app_bindings
from ptc_tui.view.experiment import ExperimentView


def run_app(path=None, session: Session | None = None, save_path=None,
            compare: tuple[Path, Path] | None = None,
            experiment: ExperimentView | None = None, live_experiment=None,
            spans=None, config: Config | None = None, runs: Path | None = None) -> int:
    """Open the trace at `path`, step `session` live (saving it to `save_path` after every
    turn), compare two trace files, or show an experiment; 0 once the user quits, 2 (and a
    message) for a trace file that cannot be read, 128 + the signal's number when a signal
    ended it (its live run saved first). `config`: the config file's settings (its [keys] are
    checked here)."""
    try:
        if config is not None:
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
        tell(app.error_line)
    if app.stopped_by is not None:
        tell(f"stopped by {app.stopped_by}" +
             (f"; {app.saved_on_signal}" if app.saved_on_signal else ""))
    return app.return_code or 0


def open_directory(folder: Path, config: Config | None = None) -> int:
    """`ptc-tui DIR`: the experiment screen for a folder holding an experiment, else the runs
    screen of every trace under it."""
    folder = Path(folder)
    if (folder / EXPERIMENT_FILE).exists():
        return run_app(experiment=ExperimentView.of(folder), config=config)
    return run_app(runs=folder, config=config)

