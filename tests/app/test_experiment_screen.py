"""The experiment screen (`ptc-tui DIR`): an SVG snapshot beside a pilot test asserting what
it shows, the runs following the selected option set, Enter opening a run and escape coming
back, two marked runs compared, and the command line's checks of the folder."""

import io
import os
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from ptc_tui.app import PtcApp
from ptc_tui.cli import main
from ptc_tui.subcommands.output import Output
from ptc_tui.screens import TraceScreen
from ptc_tui.screens.compare_screen import CompareScreen
from ptc_tui.screens.experiment_screen import ExperimentScreen
from ptc_tui.view.experiment import ExperimentView
from ptc_tui.widgets.runs_table import RunsTable
from sample_traces import HERE
from tests.app.conftest import settle

SIZE = (160, 45)
THEME = "textual-dark"
KEYS = ("down",)            # the second option set: coalesced println_limit=5


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """An experiment of the simulated sample, 2 option sets × 4 runs, in ./runs (so the
    screen shows a short, fixed name)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    argv = ["experiment", str(HERE / "stock_survey.py"), "--compress", "full,coalesced",
            "--set", "println_limit=5", "--repeat", "4", "--out", "runs"]
    assert main(argv, out=Output(io.StringIO())) == 0
    return Path("runs")


def experiment_app(folder) -> PtcApp:
    return PtcApp(experiment=ExperimentView.of(folder))


async def ready(pilot) -> None:
    pilot.app.theme = THEME
    await settle(pilot.app, pilot)
    for key in KEYS:
        await pilot.press(key)
        await pilot.pause()
    await settle(pilot.app, pilot)          # the runs table has read the set's runs
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def cells(table: DataTable, row: int) -> list[str]:
    return [getattr(c, "plain", str(c)) for c in table.get_row_at(row)]


def test_snapshot(folder, snap_compare):
    if "TEXTUAL_DIM_FACTOR" in os.environ:
        pytest.skip("TEXTUAL_DIM_FACTOR is set: the snapshots are drawn at Textual's default")
    assert snap_compare(experiment_app(folder), terminal_size=SIZE, run_before=ready)


@pytest.mark.anyio
async def test_state_shown_in_the_snapshot(folder, notified):
    view = ExperimentView.of(folder)
    app = experiment_app(folder)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        screen = app.screen
        assert isinstance(screen, ExperimentScreen) and screen.selected == 1
        sets = screen.query_one("#experiment-sets", DataTable)
        assert [cells(sets, i) for i in range(sets.row_count)] == [list(r) for r in view.set_rows()]
        assert cells(sets, 0)[:4] == ["1", "full", "4", "100%"]
        assert cells(sets, 1)[:4] == ["2", "coalesced println_limit=5", "4", "0%"]
        runs = screen.query_one("#experiment-runs", RunsTable)
        assert runs.border_title == "runs of coalesced println_limit=5" and runs.complete
        rows, table = view.runs_of(1), runs.table
        assert [str(c.label) for c in table.ordered_columns][1:7] == [
            "repeat", "seed", "success", "answer", "outcome", "turns"]
        assert table.row_count == 4
        assert [cells(table, i)[1] for i in range(4)] == ["1", "2", "3", "4"]
        assert [cells(table, i)[2] for i in range(4)] == [str(r["seed"]) for r in rows]
        assert [cells(table, i)[3] for i in range(4)] == ["no"] * 4
        shown = {"returned": "returned", "max_turns_exceeded": "out of turns"}
        assert [cells(table, i)[5:7] for i in range(4)] == [
            [shown[r["outcome"]], str(r["turns"])] for r in rows]
        chart = str(screen.query_one("#experiment-chart", Static).content)
        assert chart == "\n".join(view.chart())
        assert chart.splitlines()[0].startswith("100% │") and "1" in chart.splitlines()[0]
        assert "2" in chart.splitlines()[9]                   # 0% on the bottom line
        header = str(screen.query_one("#experiment-header", Static).content)
        assert "stock-survey · LLM simulated:stock_survey.py · seed 0 · 8 runs" in header
        assert "success: returns `expected`" in header and "runs" in header
        widgets = [screen.query_one("#experiment-header"), sets,
                   screen.query_one("#experiment-chart"), runs]
        for i, a in enumerate(widgets):
            assert a.region.height >= (2 if i == 0 else 3), a
            for b in widgets[i + 1:]:
                assert not a.region.overlaps(b.region), (a, b)
    assert notified == []


@pytest.mark.anyio
async def test_enter_opens_a_run_and_escape_comes_back(folder):
    app = experiment_app(folder)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        screen = app.screen
        await pilot.press("enter")                           # a set: go to its runs
        assert screen.focused is screen.query_one(RunsTable).table
        await pilot.press("down", "enter")
        await settle(app, pilot)
        trace_screen = app.screen
        assert isinstance(trace_screen, TraceScreen)
        wanted = ExperimentView.of(folder).runs_of(1)[1]
        assert trace_screen.source == folder / wanted["trace"]
        assert len(trace_screen.view.trace.turns) == wanted["turns"]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.selected == 1
        assert screen.query_one(RunsTable).table.cursor_row == 1


@pytest.mark.anyio
async def test_two_marked_runs_are_compared(folder):
    app = experiment_app(folder)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        screen = app.screen
        runs = screen.query_one(RunsTable)
        await pilot.press("tab", "space")
        view = ExperimentView.of(folder)
        assert runs.marked == [view.trace_path(view.runs_of(1)[0])]
        assert cells(runs.table, 0)[0] == "●"
        await pilot.press("shift+tab", "up", "tab", "space")          # a run of `full`
        await settle(app, pilot)
        compare = app.screen
        assert isinstance(compare, CompareScreen) and runs.marked == []
        view = ExperimentView.of(folder)
        assert compare.comparison.a.name == view.runs_of(1)[0]["trace"]
        assert compare.comparison.b.name == view.runs_of(0)[0]["trace"]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen



def test_a_broken_experiment_json_is_one_line(tmp_path, capsys):
    (tmp_path / "experiment.json").write_text('{"format": "ptc-experiment", "version": 1}')
    assert main([str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"ptc-tui: {tmp_path / 'experiment.json'}: `llm` is "
                                       "missing or not a str\n")


def test_the_folder_opens_the_experiment_screen(folder, monkeypatch):
    import ptc_tui.launch
    opened = []
    monkeypatch.setattr(ptc_tui.launch, "run_app", lambda **kw: opened.append(kw) or 0)
    assert main([str(folder)]) == 0
    [kwargs] = opened
    assert kwargs["experiment"].folder == folder and len(kwargs["experiment"].doc["runs"]) == 8
