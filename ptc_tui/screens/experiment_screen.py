"""ExperimentScreen: an experiment folder: one row per option set (success rate and interval,
turns, input tokens, cost), a chart of success rate against mean input tokens, and the runs of
the selected set (a runs table: sorted, filtered and read as the runs screen's). Enter opens a
run on the main screen; space marks a run, and marking a second one compares the two."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ptc_tui.view.experiment import ExperimentView
from ptc_tui.view.runs import RunRow, listed
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.runs_table import RunsTable

SET_COLUMNS = ("#", "option set", "runs", "success", "95% interval", "turns", "input tokens",
               "cost")
RUN_COLUMNS = ("repeat", "seed", "success", "answer")     # before the runs table's own


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

    selected: reactive[int] = reactive(0, init=False)     # the option set whose runs are shown

    def __init__(self, view: ExperimentView, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view
        self.read: dict = {}                 # path -> RunRow of every run read so far

    def compose(self) -> ComposeResult:
        header = Text()
        header.append_text(literal(self.view.title, "bold"))
        header.append("\n")
        header.append_text(literal(f"{self.view.folder}", "cyan"))
        header.append("  ·  tab: sets / runs · enter: open a run · space: mark two runs to "
                      "compare them", "dim")
        yield Static(header, id="experiment-header")
        with Horizontal(id="experiment-top"):
            yield DataTable(cursor_type="row", zebra_stripes=True, id="experiment-sets")
            chart = Static("\n".join(self.view.chart()), id="experiment-chart")
            chart.border_title = "success rate against mean input tokens"
            yield chart
        rows, cells = self._rows()
        yield RunsTable(rows, extra_columns=RUN_COLUMNS, extra=cells, id="experiment-runs")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        sets = self.query_one("#experiment-sets", DataTable)
        sets.add_columns(*SET_COLUMNS)
        for i, row in enumerate(self.view.set_rows()):
            sets.add_row(*(literal(c) if n == 1 else Text(c, justify="right")
                           for n, c in enumerate(row)), key=str(i))
        self.query_one(RunsTable).border_title = self._runs_title()
        sets.focus()

    # --- the runs of the selected set ----------------------------------------------------------
    @property
    def runs(self) -> list[dict]:
        return self.view.runs_of(self.selected)

    def watch_selected(self) -> None:
        self.show_runs()

    def _rows(self) -> tuple[list[RunRow], dict]:
        """The selected set's runs as runs-table rows (those read before, as read), and the
        experiment's own cells of each."""
        paths = [self.view.trace_path(r) for r in self.runs]
        rows = [self.read.get(p) or row for p, row in zip(paths, listed(self.view.folder, paths))]
        return rows, {p: experiment_cells(r) for p, r in zip(paths, self.runs)}

    def show_runs(self) -> None:
        table = self.query_one(RunsTable)
        self.read.update((p, r) for p, r in table.rows.items() if r.read)
        table.replace_rows(*self._rows())
        table.border_title = self._runs_title()

    def _runs_title(self) -> str:
        label = (self.view.summaries[self.selected].label if self.view.summaries else "")
        return f"runs of {label}"

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.data_table.id == "experiment-sets" and event.cursor_row >= 0:
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
        self.app.compare(event.a, event.b, event.a.name, event.b.name)


def experiment_cells(row: dict) -> list[Text]:
    """repeat, seed, success, answer: what the experiment recorded of a run."""
    ok = row["success"]
    return [Text(str(row["repeat"] + 1), justify="right"), Text(str(row["seed"]), justify="right"),
            Text("yes" if ok else "no", "green" if ok else "red"), literal(answer_text(row))]


def answer_text(row: dict) -> str:
    """The answer, and for a run that did not succeed why, unless the answer already says it
    (a failure's message)."""
    reason = row.get("reason")
    if row["success"] or not reason or reason.startswith(row["outcome"]):
        return row["answer"]
    return f"{row['answer']} ({reason})"
