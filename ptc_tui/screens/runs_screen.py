"""RunsScreen: every trace under a folder (`ptc-tui DIR`), one row each, listed at once and
filled in as a worker reads them. Enter opens a run on the main screen (escape comes back here,
the cursor where it was); space marks a run, and marking a second one compares the two."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from ptc_tui.view.runs import RunRow
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.runs_table import RunsTable
from ptc_tui.widgets.steady_footer import SteadyFooter


class RunsScreen(Screen):
    HELP = (          # the help screen's "about" (the default one is the main screen's)
        "Every trace under the folder, a row each: listed at once, then read one by one in the "
        "background (the progress bar), which fills in each run's mission, agent, LLM, saved "
        "time, outcome, turns, input tokens under the recorded options and under `full`, and "
        "cost. A file that cannot be read stays a row, `unreadable`, saying why where its "
        "mission would be, and whole on a line under the table while the cursor is on it.\n\n"
        "Enter opens a run on the main screen (escape comes back, the cursor where it was). "
        "Space marks a run; marking a second one compares the two; escape clears the marks. "
        "/ keeps only the runs whose columns, as shown, hold every word typed, in any case "
        "(x1b finds a name holding an ESC, shown escaped; Enter or escape: back to the runs, "
        "the filter kept); o only those of one outcome. Click a column's title, or "
        "< and >, to sort by it (▲ after its title, ▼ the other way), r reverses the order; "
        "Home and End go to the first and the last run.\n\n"
        "Text from the traces (missions, file names) is shown literally: markup and terminal "
        "escape codes inside it are never interpreted."
    )

    DEFAULT_CSS = """
    RunsScreen {
        layout: vertical;
        #runs-header { height: auto; padding: 0 1; background: $panel; }
    }
    """

    def __init__(self, folder: Path, rows: list[RunRow], **kwargs) -> None:
        super().__init__(**kwargs)
        self.folder = folder
        self.rows = rows

    def compose(self) -> ComposeResult:
        header = Text()
        header.append_text(literal(f"{len(self.rows):,} runs under {self.folder}", "bold"))
        header.append("  ·  enter: open · space: mark two to compare · /: filter · o: outcome"
                      " · click a column or < >: sort · r: reverse", "dim")
        yield Static(header, id="runs-header")
        yield RunsTable(self.rows, id="runs")
        yield SteadyFooter(compact=True)

    def on_mount(self) -> None:
        self.runs.table.focus()

    @property
    def runs(self) -> RunsTable:
        return self.query_one(RunsTable)

    def on_runs_table_open(self, event: RunsTable.Open) -> None:
        event.stop()
        self.app.open_trace(event.path)

    def on_runs_table_compare(self, event: RunsTable.Compare) -> None:
        event.stop()
        self.app.compare(event.a, event.b, self._shown_name(event.a), self._shown_name(event.b))

    def _shown_name(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.folder))
        except ValueError:
            return str(path)
