"""ExperimentScreen: an experiment folder: one row per option set (success rate and interval,
turns, input tokens, cost), a chart of success rate against mean input tokens, and the runs of
the selected set. Enter opens a run on the main screen; space marks a run, and marking a second
one compares the two."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ptc_tui.view.experiment import ExperimentView
from ptc_tui.view.tokens import cost_text
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
    ]

    selected: reactive[int] = reactive(0, init=False)     # the option set whose runs are shown

    def __init__(self, view: ExperimentView, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view
        self.marked: list[str] = []          # trace file names of the marked runs, in order

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

    # --- the runs of the selected set ----------------------------------------------------------
    @property
    def runs(self) -> list[dict]:
        return self.view.runs_of(self.selected)

    def watch_selected(self) -> None:
        self.show_runs()

    def show_runs(self) -> None:
        table = self.query_one("#experiment-runs", DataTable)
        table.clear()
        for row in self.runs:
            table.add_row(*run_cells(row, row["trace"] in self.marked), key=row["trace"])
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
