"""ExperimentScreen: an experiment folder: one row per option set (success rate and interval,
turns, input tokens, cost), a chart of success rate against mean input tokens, and the runs of
the selected set. Enter opens a run on the main screen; space marks a run, and marking a second
one compares the two. Shown while the experiment runs (`ptc-tui experiment` on a terminal), it
fills in as runs finish, and ctrl+c stops it, keeping the finished runs."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.coordinate import Coordinate
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ptc_tui.view.experiment import STOPPED, ExperimentView
from ptc_tui.view.formats import cost_text
from ptc_tui.widgets.literal import literal

SET_COLUMNS = ("#", "option set", "runs", "success", "95% interval", "turns", "input tokens",
               "cost")
RUN_COLUMNS = ("", "repeat", "seed", "outcome", "success", "turns", "input tokens", "cost",
               "answer")
MARKED = "●"


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
        Binding("space", "mark", "Mark to compare", id="experiment.mark",
                tooltip="mark the selected run; marking a second one compares the two"),
        Binding("escape", "unmark", "Clear marks", id="experiment.unmark", show=False),
        Binding("ctrl+c", "stop_experiment", "Stop", id="experiment.stop",
                tooltip="stop the experiment: the runs in progress end, the finished ones are "
                "kept in experiment.json (--resume continues)"),
    ]

    selected: reactive[int] = reactive(0, init=False)     # the option set whose runs are shown

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
        self.marked: list[str] = []          # trace file names of the marked runs, in order

    def compose(self) -> ComposeResult:
        yield Static(self.header_text(), id="experiment-header")
        with Horizontal(id="experiment-top"):
            yield DataTable(cursor_type="row", zebra_stripes=True, id="experiment-sets")
            chart = Static("\n".join(self.view.chart()), id="experiment-chart")
            chart.border_title = "success rate against mean input tokens"
            yield chart
        yield DataTable(cursor_type="row", zebra_stripes=True, id="experiment-runs")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        sets = self.query_one("#experiment-sets", DataTable)
        sets.add_columns(*SET_COLUMNS)
        for i, row in enumerate(self.view.set_rows()):
            sets.add_row(*(literal(c) if n == 1 else Text(c, justify="right")
                           for n, c in enumerate(row)), key=str(i))
        self.query_one("#experiment-runs", DataTable).add_columns(*RUN_COLUMNS)
        self.show_runs()
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
        self.show_runs(keep_cursor=True)

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

    def show_runs(self, keep_cursor: bool = False) -> None:
        table = self.query_one("#experiment-runs", DataTable)
        cursor = table.cursor_row
        table.clear()
        for row in self.runs:
            table.add_row(*run_cells(row, row["trace"] in self.marked), key=row["trace"])
        if keep_cursor and 0 < cursor < table.row_count:
            table.move_cursor(row=cursor)
        label = (self.view.summaries[self.selected].label if self.view.summaries else "")
        table.border_title = f"runs of {label}"

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.data_table.id == "experiment-sets" and event.cursor_row >= 0:
            self.selected = event.cursor_row

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter: on a set, go to its runs; on a run, open its trace on the main screen."""
        event.stop()
        if event.data_table.id == "experiment-sets":
            self.query_one("#experiment-runs", DataTable).focus()
        elif self.runs:
            self.app.open_trace(self.view.trace_path(self.runs[event.cursor_row]))

    # --- comparing two runs --------------------------------------------------------------------
    def highlighted_run(self) -> dict | None:
        table = self.query_one("#experiment-runs", DataTable)
        runs = self.runs
        return runs[table.cursor_row] if runs and 0 <= table.cursor_row < len(runs) else None

    def action_mark(self) -> None:
        row = self.highlighted_run()
        if row is None:
            return
        name = row["trace"]
        if name in self.marked:
            self.marked.remove(name)
        else:
            self.marked.append(name)
        if len(self.marked) == 2:
            a, b = self.marked
            self.marked = []
            self.app.compare(self.view.folder / a, self.view.folder / b, a, b)
        self.refresh_marks()

    def action_unmark(self) -> None:
        self.marked = []
        self.refresh_marks()

    def refresh_marks(self) -> None:
        table = self.query_one("#experiment-runs", DataTable)
        for row in self.runs:
            table.update_cell(row["trace"], table.ordered_columns[0].key,
                              Text(MARKED if row["trace"] in self.marked else "", "bold yellow"))


def run_cells(row: dict, marked: bool) -> list[Text]:
    ok = row["success"]
    return [Text(MARKED if marked else "", "bold yellow"),
            Text(str(row["repeat"] + 1), justify="right"), Text(str(row["seed"]), justify="right"),
            literal(row["outcome"], "green" if row["outcome"] == "returned" else "red"),
            Text("yes" if ok else "no", "green" if ok else "red"),
            Text(str(row["turns"]), justify="right"),
            Text(f"{row['input_tokens']:,}", justify="right"),
            Text(cost_text(row.get("cost")), justify="right"),
            literal(answer_text(row))]


def answer_text(row: dict) -> str:
    """The answer, and for a run that did not succeed why, unless the answer already says it
    (a failure's message)."""
    reason = row.get("reason")
    if row["success"] or not reason or reason.startswith(row["outcome"]):
        return row["answer"]
    return f"{row['answer']} ({reason})"
