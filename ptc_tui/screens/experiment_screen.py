"""ExperimentScreen: an experiment folder: one row per option set (success rate and interval,
turns, input tokens, cost), a chart of success rate against mean input tokens, and the runs of
the selected set in a runs table (sorted, filtered and read as the runs screen's, with the
experiment's repeat, seed, success and answer first). Enter opens a run on the main screen;
space marks a run, and marking a second one (of any set) compares the two. Shown while the experiment runs (`ptc-tui experiment` on a terminal), it
fills in as runs finish, and ctrl+c stops it, keeping the finished runs."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.coordinate import Coordinate
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ptc_tui.view.experiment import STOPPED, ExperimentView
from ptc_tui.view.runs import RunRow, listed
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.runs_table import RunsTable
from ptc_tui.widgets.steady_footer import SteadyFooter

SET_COLUMNS = ("#", "option set", "runs", "success", "95% interval", "turns", "input tokens",
               "cost")
RUN_COLUMNS = ("repeat", "seed", "success", "answer")     # before the runs table's own
# Of the runs table's own columns, those that tell an experiment's runs apart (they share
# mission, agent and LLM, and were saved minutes apart).
TABLE_COLUMNS = ("outcome", "turns", "input tokens", "full tokens", "cost", "file")
ANSWER_CHARS = 40          # the whole answer is on the run's own screen (enter)


class ExperimentScreen(Screen):
    DEFAULT_CSS = """
    ExperimentScreen {
        layout: vertical;
        #experiment-header { height: auto; padding: 0 1; background: $panel; }
        #experiment-top { height: 1fr; min-height: 8; }
        #experiment-sets { width: 1fr; }
        #experiment-chart { width: 56; border: round $primary; padding: 0 1; }
        #experiment-runs { height: 1fr; border-top: solid $primary; }
    }
    """

    BINDINGS = [
        Binding("ctrl+c", "stop_experiment", "Stop", id="experiment.stop",
                tooltip="stop the experiment: the runs in progress end, the finished ones are "
                "kept in experiment.json (--resume continues)"),
    ]

    selected: var[int] = var(0, init=False)     # the option set whose runs are shown

    class Progressed(Message):
        """A run finished (posted from the experiment's thread)."""

        def __init__(self, progress) -> None:
            super().__init__()
            self.progress = progress

    class Ended(Message):
        """The experiment is over: every run made, or stopped."""

    def __init__(self, view: ExperimentView, live=None, **kwargs) -> None:
        """Show `view`; with `live` (an experiments.runner.InBackground), start its runs and
        fill in as they finish."""
        super().__init__(**kwargs)
        self.view = view
        self.live = live
        self.progress = None                 # the live experiment's last Progress
        self.read: dict[Path, RunRow] = {}   # every run the runs table has read so far

    def compose(self) -> ComposeResult:
        yield Static(self.header_text(), id="experiment-header")
        with Horizontal(id="experiment-top"):
            yield DataTable(cursor_type="row", zebra_stripes=True, id="experiment-sets")
            chart = Static("\n".join(self.view.chart()), id="experiment-chart")
            chart.border_title = "success rate against mean input tokens"
            yield chart
        rows, cells = self._rows()
        yield RunsTable(rows, columns=TABLE_COLUMNS, extra_columns=RUN_COLUMNS, extra=cells,
                        id="experiment-runs")
        yield SteadyFooter(compact=True)

    def on_mount(self) -> None:
        sets = self.query_one("#experiment-sets", DataTable)
        sets.add_columns(*SET_COLUMNS)
        for i, row in enumerate(self.view.set_rows()):
            sets.add_row(*(literal(c) if n == 1 else Text(c, justify="right")
                           for n, c in enumerate(row)), key=str(i))
        self.query_one(RunsTable).border_title = self._runs_title()
        sets.focus()
        if self.live is not None:
            self.live.start(lambda p: self._post(self.Progressed(p)),
                            lambda: self._post(self.Ended()))

    def header_text(self) -> Text:
        title = self.view.title
        if self.live is not None:          # the status line under it says running or stopped
            title = title.removesuffix(STOPPED)
        header = Text()
        header.append_text(literal(title, "bold"))
        header.append("\n")
        if self.live is not None:
            header.append_text(literal(self.live_status() + "\n", "yellow"))
        header.append_text(literal(f"{self.view.folder}", "cyan"))
        header.append("  ·  tab: sets / runs · enter: open a run · space: mark two runs to "
                      "compare them", "dim")
        return header

    # --- filling in while the experiment runs --------------------------------------------------
    @property
    def running(self) -> bool:
        return self.live is not None and self.live.running

    def live_status(self) -> str:
        live = self.live
        if live.error is not None:
            return f"stopped: {live.error or type(live.error).__name__}"
        if self.running:
            done = self.progress.line() if self.progress else "starting"
            return f"running: {done} · ctrl+c stops, keeping the finished runs"
        if live.finished:
            return f"finished: {len(live.rows)} runs"
        return f"stopped after {len(live.rows)} of {len(live.runs)} runs; --resume continues"

    def _post(self, message: Message) -> None:
        """From the experiment's thread; once the app has closed, there is no one to tell."""
        try:
            self.post_message(message)
        except RuntimeError:
            pass

    def on_experiment_screen_progressed(self, event: Progressed) -> None:
        """Twice a second (the clock moves on), and after each finished run (a new row)."""
        done = self.progress.done if self.progress else None
        self.progress = event.progress
        if event.progress.done != done:
            self.update_view(ExperimentView.of(self.view.folder))
        else:
            self.query_one("#experiment-header", Static).update(self.header_text())

    def on_experiment_screen_ended(self, event: Ended) -> None:
        self.update_view(ExperimentView.of(self.view.folder))
        self.refresh_bindings()

    def update_view(self, view: ExperimentView) -> None:
        """Show `view` (the experiment.json written after the latest finished run): the
        header, every option set's cells, the chart and the selected set's runs, the cursors
        kept where they are."""
        self.view = view
        self.query_one("#experiment-header", Static).update(self.header_text())
        sets = self.query_one("#experiment-sets", DataTable)
        for i, row in enumerate(view.set_rows()):
            for n, cell in enumerate(row):
                sets.update_cell_at(Coordinate(i, n), literal(cell) if n == 1
                                    else Text(cell, justify="right"), update_width=True)
        self.query_one("#experiment-chart", Static).update("\n".join(view.chart()))
        self.show_runs()

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "stop_experiment":
            return self.running         # else ctrl+c is the app's (how to quit)
        return True

    def action_stop_experiment(self) -> None:
        self.live.stop()
        self.notify("stopping: the runs in progress end after their turn; the finished ones "
                    "are kept", title="experiment", markup=False)

    # --- the runs of the selected set ----------------------------------------------------------
    @property
    def runs(self) -> list[dict]:
        return self.view.runs_of(self.selected)

    def watch_selected(self) -> None:
        self.show_runs()

    def _rows(self) -> tuple[list[RunRow], dict[Path, list[Text]]]:
        """The selected set's runs as runs-table rows (those read before, as read), and the
        experiment's own cells of each."""
        paths = [self.view.trace_path(r) for r in self.runs]
        rows = [self.read.get(p) or row for p, row in zip(paths, listed(self.view.folder, paths))]
        return rows, {p: experiment_cells(r) for p, r in zip(paths, self.runs)}

    def show_runs(self) -> None:
        """The selected set's runs; the cursor stays on its run when it is still listed."""
        table = self.query_one(RunsTable)
        self.read.update((p, r) for p, r in table.rows.items() if r.read)
        table.replace_rows(*self._rows())
        table.border_title = self._runs_title()

    def _runs_title(self) -> str:
        label = (self.view.summaries[self.selected].label if self.view.summaries else "")
        return f"runs of {label}"

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "experiment-sets" and event.cursor_row >= 0:
            event.stop()
            self.selected = event.cursor_row

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a set: go to its runs."""
        if event.data_table.id == "experiment-sets":
            event.stop()
            self.query_one(RunsTable).table.focus()

    def on_runs_table_open(self, event: RunsTable.Open) -> None:
        event.stop()
        self.app.open_trace(event.path)

    def on_runs_table_compare(self, event: RunsTable.Compare) -> None:
        event.stop()
        folder = self.view.folder
        self.app.compare(event.a, event.b, str(event.a.relative_to(folder)),
                         str(event.b.relative_to(folder)))


def experiment_cells(row: dict) -> list[Text]:
    """repeat, seed, success, answer: what the experiment recorded of a run."""
    ok = row["success"]
    return [Text(str(row["repeat"] + 1), justify="right"), Text(str(row["seed"]), justify="right"),
            Text("yes" if ok else "no", "green" if ok else "red"),
            literal(shortened(answer_text(row), ANSWER_CHARS))]


def shortened(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:chars - 1] + "…"


def answer_text(row: dict) -> str:
    """The answer, and for a run that did not succeed why, unless the answer already says it
    (a failure's message)."""
    reason = row.get("reason")
    if row["success"] or not reason or reason.startswith(row["outcome"]):
        return row["answer"]
    return f"{row['answer']} ({reason})"
