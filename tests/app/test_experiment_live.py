"""The experiment screen while the experiment runs (`ptc-tui experiment` on a terminal): it fills
in as runs finish, ctrl+c stops the experiment keeping the finished runs, and the command prints
the table once the app is left. The runs wait at a gate the test opens, so each state is seen."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from engine.agent.files import load_agent_file
from engine.history import HistoryOpts
from ptc_tui.app import PtcApp
from ptc_tui.cli import main
from ptc_tui.subcommands.output import Output
from ptc_tui.experiments.plan import option_sets, plan_runs
from ptc_tui.experiments.record import experiment_doc, load_experiment, save_experiment
from ptc_tui.experiments.runner import Experiment, InBackground
from ptc_tui.experiments.runs import success_rule
from ptc_tui.view.experiment import ExperimentView
from ptc_tui.widgets.runs_table import RunsTable
from sample_traces import HERE

SIZE = (160, 45)
AGENT = HERE / "product_search.py"
REPEAT = 4


class Gated:
    """The agent's scripted replies, the first one only once the test opens the gate."""

    name = "gated"

    def __init__(self, llm, gate: threading.Semaphore) -> None:
        self.llm, self.gate, self.waiting = llm, gate, True

    def __call__(self, messages):
        if self.waiting:
            assert self.gate.acquire(timeout=60), "the test never opened the gate"
            self.waiting = False
        return self.llm(messages)


def live_experiment(folder: Path, gate: threading.Semaphore) -> InBackground:
    """What `ptc-tui experiment AGENT --repeat 4 --jobs 1` hands the app, on gated replies."""
    agent_file = load_agent_file(AGENT)
    sets = option_sets(HistoryOpts.from_option(agent_file.agent.compress_history), ["full"], [])
    header = {"agent": AGENT.name, "agent_name": agent_file.agent.name, "llm": "gated",
              "seed": 0, "repeat": REPEAT, "success_rule": success_rule(agent_file),
              "model": None, "option_sets": [s.as_json() for s in sets]}
    folder.mkdir()
    save_experiment(folder, experiment_doc(header, [], finished=False))
    experiment = Experiment(agent_file, lambda: Gated(agent_file.scripted_llm(), gate), folder,
                            header)
    return InBackground(experiment, plan_runs(sets, REPEAT, 0), [], jobs=1)


@pytest.fixture
def gate():
    g = threading.Semaphore(0)
    yield g
    g.release(REPEAT)                  # never leave a run waiting


@pytest.fixture
def runs_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return Path("runs")


def app_for(live: InBackground) -> PtcApp:
    return PtcApp(experiment=ExperimentView.of(live.experiment.out_dir), live_experiment=live)


async def until(pilot, condition, what: str, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}: {header(pilot.app.screen)}"
        await pilot.pause(0.02)
    await pilot.pause()


def cells(table: DataTable, row: int) -> list[str]:
    return [getattr(c, "plain", str(c)) for c in table.get_row_at(row)]


def header(screen) -> str:
    return str(screen.query_one("#experiment-header", Static).content)


def runs_shown(screen) -> int:
    return screen.query_one(RunsTable).table.row_count


@pytest.mark.anyio
async def test_the_screen_fills_in_as_runs_finish(runs_folder, gate):
    live = live_experiment(runs_folder, gate)
    app = app_for(live)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        sets = screen.query_one("#experiment-sets", DataTable)
        assert cells(sets, 0)[:3] == ["1", "full", "0"] and runs_shown(screen) == 0
        assert "running: " in header(screen) and "stopped before its end" not in header(screen)
        assert screen.check_action("stop_experiment", ()) is True
        gate.release()
        await until(pilot, lambda: runs_shown(screen) == 1, "the first run's row")
        assert "running: 1/4 runs · 0 not successful" in header(screen)
        assert cells(sets, 0)[:4] == ["1", "full", "1", "100%"]
        runs = screen.query_one(RunsTable)
        await until(pilot, lambda: runs.complete, "the first run read")
        assert cells(runs.table, 0)[1:4] == ["1", str(live.runs[0].seed), "yes"]
        assert cells(runs.table, 0)[5:7] == ["returned", "3"]
        assert "1" in str(screen.query_one("#experiment-chart", Static).content).splitlines()[0]
        gate.release(REPEAT - 1)
        await until(pilot, lambda: not live.running and "finished" in header(screen),
                    "the end of the experiment")
        assert runs_shown(screen) == REPEAT and cells(sets, 0)[:4] == ["1", "full", "4", "100%"]
        assert "finished: 4 runs" in header(screen)
        assert screen.check_action("stop_experiment", ()) is False   # ctrl+c: the app's again
    assert load_experiment(runs_folder)["finished"] is True


@pytest.mark.anyio
async def test_ctrl_c_stops_it_keeping_the_finished_runs(runs_folder, gate, notified):
    live = live_experiment(runs_folder, gate)
    app = app_for(live)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        gate.release()
        await until(pilot, lambda: runs_shown(screen) == 1, "the first run's row")
        await pilot.press("ctrl+c")
        assert notified[-1].startswith("stopping: the runs in progress end after their turn")
        gate.release(REPEAT - 1)           # the run waiting for its reply ends its turn
        await until(pilot, lambda: not live.running and "stopped after" in header(screen),
                    "the experiment stopped")
        assert "stopped after 1 of 4 runs; --resume continues" in header(screen)
        assert header(screen).count("stopped") == 1          # said once, not in the title too
        assert runs_shown(screen) == 1 and not live.finished
        assert screen.check_action("stop_experiment", ()) is False
    doc = load_experiment(runs_folder)
    assert len(doc["runs"]) == 1 and doc["finished"] is False
    assert sorted(p.name for p in runs_folder.iterdir()) == [doc["runs"][0]["trace"],
                                                             "experiment.json"]


def test_snapshot_of_a_finished_live_experiment(runs_folder, gate, snap_compare):
    if "TEXTUAL_DIM_FACTOR" in os.environ:
        pytest.skip("TEXTUAL_DIM_FACTOR is set: the snapshots are drawn at Textual's default")
    live = live_experiment(runs_folder, gate)
    gate.release(REPEAT)

    async def finished(pilot):
        pilot.app.theme = "textual-dark"
        await until(pilot, lambda: not live.running and "finished" in header(pilot.app.screen),
                    "the end of the experiment")
        await pilot.press("tab")
        await pilot.pause()

    assert snap_compare(app_for(live), terminal_size=SIZE, run_before=finished)


# --- the command ---------------------------------------------------------------------------

def experiment_argv(folder) -> list[str]:
    return ["experiment", str(HERE / "stock_survey.py"), "--compress", "full,coalesced",
            "--repeat", "2", "--out", str(folder)]


def test_on_a_terminal_the_command_opens_the_live_screen_then_prints_the_table(
        tmp_path, monkeypatch):
    import sys
    import ptc_tui.launch
    opened = []

    def app_runs_to_the_end(**kw):         # what the screen does: start it, see it through
        opened.append(kw)
        live = kw["live_experiment"]
        assert kw["experiment"].doc["runs"] == [] and not live.running
        live.start(lambda progress: None, lambda: None)
        live.wait()
        return 0
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(ptc_tui.launch, "run_app", app_runs_to_the_end)
    out = io.StringIO()
    assert main(experiment_argv(tmp_path / "x"), out=Output(out)) == 0
    assert len(opened) == 1 and opened[0]["spans"] is None
    text = out.getvalue()
    assert "full " in text and "coalesced " in text and "stopped" not in text
    assert len(load_experiment(tmp_path / "x")["runs"]) == 4


def test_leaving_the_app_before_the_end_stops_it_with_status_130(tmp_path, monkeypatch):
    import sys
    import ptc_tui.launch
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(ptc_tui.launch, "run_app", lambda **kw: 0)       # quit at once
    out = io.StringIO()
    assert main(experiment_argv(tmp_path / "x"), out=Output(out)) == 130
    assert "stopped after 0 of 4 runs" in out.getvalue()
    assert load_experiment(tmp_path / "x")["finished"] is False


def test_json_on_a_terminal_stays_headless(tmp_path, monkeypatch, capsys):
    import sys
    import ptc_tui.launch
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(ptc_tui.launch, "run_app", lambda **kw: pytest.fail("the app opened"))
    assert main(experiment_argv(tmp_path / "x") + ["--json"]) == 0
    assert '"option_sets"' in capsys.readouterr().out


def test_the_end_is_told_once_the_experiment_is_over(runs_folder, gate):
    """The screen is told of the end from the experiment's own thread: `running` must say it
    is over by then, or the screen shows "running" for good (a busy machine lost that race)."""
    live = live_experiment(runs_folder, gate)
    running_when_told: list[bool] = []
    live.start(lambda progress: None, lambda: running_when_told.append(live.running))
    gate.release(REPEAT)
    live.wait()
    assert running_when_told == [False]
    assert live.finished and not live.running
