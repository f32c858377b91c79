"""RunsTable: a list of trace files, one row each, listed at once and filled in by a worker that
reads them (a progress bar meanwhile). Sort by any column (click its header, or `<` `>` to move
the sort column, `r` to reverse it), filter by text (`/`) and by outcome (`o`), Enter opens a
run, space marks one and marking a second asks to compare the two; Home and End go to the first
and the last run. A line under the table says why the file under the cursor cannot be read (its
row's cell cuts that short). Used by the runs screen and by the experiment screen for the runs of
an option set."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Input, ProgressBar, Static
from textual.worker import get_current_worker

from ptc_tui.view.runs import (COLUMNS, MAX_FILE, NUMERIC, OUTCOMES, RunRow, column_widths,
                               matches, read_run, sorted_rows)
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.run_cells import run_cells, shown_file

MARKED = "●"
POST_EVERY_S = 0.5           # the worker sends what it read at most this often: each batch
                             # redraws every cell on screen (a DataTable caches all or nothing)
SCROLLBAR = 2


class RunList(DataTable):
    """The runs, a row each: Home and End go to the first and the last run (a DataTable's go
    to its first and last column, and these all fit)."""

    BINDINGS = [Binding("home", "scroll_top", "First run", id="runs.first", show=False),
                Binding("end", "scroll_bottom", "Last run", id="runs.last", show=False)]

    def on_resize(self) -> None:
        """Made shorter (by the terminal, or the line under it saying why a file cannot be
        read): the cursor's run kept in view."""
        self.move_cursor(row=self.cursor_row)


class RunsTable(Vertical):
    DEFAULT_CSS = """
    RunsTable {
        height: 1fr;
        #runs-bar { height: 1; }
        #runs-filter { width: 1fr; height: 1; border: none; padding: 0 1; }
        #runs-outcome { width: auto; height: 1; padding: 0 1; }
        #runs-progress { width: auto; height: 1; padding: 0 1; }
        #runs-table { height: 1fr; }
        #runs-why { height: auto; padding: 0 1; display: none; }
    }
    """

    BINDINGS = [
        Binding("space", "mark", "Mark to compare", id="runs.mark",
                tooltip="mark the selected run; marking a second one compares the two"),
        Binding("slash", "filter", "Filter", id="runs.filter"),
        Binding("o", "outcome", "Outcome", id="runs.outcome",
                tooltip="show only runs of one outcome; again: the next one, then all"),
        Binding("less_than_sign", "sort_column(-1)", "Sort ←", id="runs.sort_left", show=False),
        Binding("greater_than_sign", "sort_column(1)", "Sort →", id="runs.sort_right",
                show=False),
        Binding("r", "reverse", "Reverse", id="runs.reverse", show=False),
        Binding("escape", "unmark", "Clear marks", id="runs.unmark", show=False,
                tooltip="in the filter: back to the runs, the filter kept"),
    ]

    @dataclass
    class Open(Message):
        """Enter on a run: show it on the main screen."""
        path: Path

    @dataclass
    class Compare(Message):
        """Two runs marked: compare them (`a` first)."""
        a: Path
        b: Path

    @dataclass
    class _Read(Message):
        rows: list[RunRow]
        listing: int                 # which listing they belong to (replace_rows starts one)

    def __init__(self, rows: Sequence[RunRow], *, columns: Sequence[str] = COLUMNS,
                 extra_columns: Sequence[str] = (),
                 extra: Mapping[Path, Sequence[Text]] | None = None, **kwargs) -> None:
        """`rows` listed at once (and read by a worker once mounted), showing `columns` (of
        COLUMNS, in that order); `extra_columns` come before them, with each run's cells in
        `extra` (by path)."""
        super().__init__(**kwargs)
        self.rows: dict[Path, RunRow] = {r.path: r for r in rows}
        self.columns = tuple(columns)
        self.extra_columns = tuple(extra_columns)
        self.extra = dict(extra or {})
        self.read_count = sum(r.read for r in rows)
        self.sort_column = "file"
        self.reverse = False
        self.filter_text = ""
        self.outcome: str | None = None      # one of OUTCOMES; None: every outcome
        self.marked: list[Path] = []
        self.shown: list[RunRow] = []        # the rows on screen, in order
        self.listing = 0
        self.widths: dict[str, int] = {}     # the columns' widths, for the table's width

    def compose(self) -> ComposeResult:
        with Horizontal(id="runs-bar"):
            yield Input(placeholder="/ filter: words in mission, agent, LLM, outcome, file",
                        id="runs-filter", compact=True)
            yield Static("", id="runs-outcome")
            yield ProgressBar(total=max(1, len(self.rows)), show_eta=False, id="runs-progress")
        yield RunList(cursor_type="row", zebra_stripes=True, id="runs-table")
        yield Static("", id="runs-why")

    def on_mount(self) -> None:
        self.query_one("#runs-filter", Input).can_focus = False    # `/` focuses it, not tab

    def on_resize(self) -> None:
        """The rows are listed once the table's width is known (before it is first drawn),
        and shown again when a new width changes the columns'."""
        if not self.widths:
            self._start()
        elif self._widths() != self.widths:
            self.show()

    def _widths(self) -> dict[str, int]:
        table = self.table
        extra = sum(max([len(name), *(len(c[i].plain) for c in self.extra.values())])
                    for i, name in enumerate(self.extra_columns))
        gap = 2 * table.cell_padding
        other = len(MARKED) + gap + extra + gap * len(self.extra_columns)
        files = max((len(shown_file(r)) for r in self.rows.values()), default=0)
        return column_widths(self.columns, self.size.width - SCROLLBAR, files, other, gap,
                             self.sort_column)

    def _add_columns(self, widths: dict[str, int]) -> None:
        """The table's columns, `widths` wide (the rows are to be shown again)."""
        table = self.table
        table.clear(columns=True)
        self.widths = widths
        table.add_column("", key="mark", width=len(MARKED))   # marks come after the rows are drawn
        for name in self.extra_columns:
            table.add_column(name, key=f"extra:{name}")
        for name in self.columns:
            table.add_column(name, key=name, width=self.widths.get(name))

    def replace_rows(self, rows: Sequence[RunRow],
                     extra: Mapping[Path, Sequence[Text]] | None = None) -> None:
        """List `rows` instead (the reading of the old ones stops); the cursor stays on its
        run if it is still listed, else goes to the top; marks are kept, so runs of two lists
        can be compared."""
        self.workers.cancel_group(self, "runs")
        self.listing += 1
        self.rows = {r.path: r for r in rows}
        self.extra = dict(extra or {})
        self.read_count = sum(r.read for r in rows)
        self._start()

    def _start(self) -> None:
        self.show()
        self._show_progress()
        if not self.complete:      # once the list is on screen: reading competes for the CPU
            self.call_after_refresh(self.read_rows, [r for r in self.rows.values() if not r.read],
                                    self.listing)

    @property
    def table(self) -> DataTable:
        return self.query_one("#runs-table", DataTable)

    # --- reading the runs ---------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="runs", description="read every run")
    def read_rows(self, rows: list[RunRow], listing: int) -> None:
        worker = get_current_worker()
        done, last = [], time.monotonic()
        for row in rows:
            if worker.is_cancelled:
                return
            done.append(read_run(row))
            if time.monotonic() - last >= POST_EVERY_S:
                self.post_message(self._Read(done, listing))
                done, last = [], time.monotonic()
        if done:
            self.post_message(self._Read(done, listing))

    def on_runs_table__read(self, event: _Read) -> None:
        event.stop()
        if event.listing != self.listing:        # rows replaced since
            return
        table = self.table
        for row in event.rows:
            self.rows[row.path] = row
            if str(row.path) in table.rows:      # filled in where it is; sorted once all are
                for name, cell in zip(COLUMNS, run_cells(row, self.file_width)):
                    if name in self.columns:
                        table.update_cell(str(row.path), name, cell)
        self.read_count += len(event.rows)
        self._show_progress()
        if self.complete:
            self.show()
        else:
            self._show_why()

    @property
    def complete(self) -> bool:
        """Whether every run has been read."""
        return self.read_count >= len(self.rows)

    def _show_progress(self) -> None:
        bar = self.query_one("#runs-progress", ProgressBar)
        bar.update(total=max(1, len(self.rows)), progress=self.read_count)
        bar.display = not self.complete

    # --- what is shown ------------------------------------------------------------------------
    def show(self) -> None:
        """Fill the table with the rows that pass the filters, sorted; the cursor stays on the
        run it was on."""
        table = self.table
        current = self.highlighted
        widths = self._widths()
        if widths != self.widths:
            self._add_columns(widths)
        self.shown = sorted_rows((r for r in self.rows.values()
                                  if matches(r, self.filter_text, self.outcome)),
                                 self.sort_column, self.reverse)
        table.clear()
        for row in self.shown:
            table.add_row(*self._cells(row), key=str(row.path))
        if current is not None and str(current.path) in table.rows:
            table.move_cursor(row=table.get_row_index(str(current.path)), animate=False)
        self._show_labels()
        self._show_why()

    def _cells(self, row: RunRow) -> list[Text]:
        mark = Text(MARKED if row.path in self.marked else "", "bold yellow")
        cells = dict(zip(COLUMNS, run_cells(row, self.file_width)))
        return [mark, *self.extra.get(row.path, [Text("")] * len(self.extra_columns)),
                *(cells[name] for name in self.columns)]

    def _show_labels(self) -> None:
        table = self.table
        for column in table.ordered_columns:
            name = str(column.key.value)
            label = name.removeprefix("extra:") if name != "mark" else ""
            if name == self.sort_column:             # column_widths left room for it
                label += self.arrow
            column.label = Text(label)
        table.refresh()
        outcome = self.outcome or "all outcomes"
        self.query_one("#runs-outcome", Static).update(
            Text(f"sorted by {self.sort_column}{self.arrow} · o: {outcome} · "
                 f"{len(self.shown)}/{len(self.rows)} runs", "dim"))

    def on_data_table_row_highlighted(self) -> None:
        self._show_why()

    def _show_why(self) -> None:
        """Under the table, while the cursor is on a file that cannot be read: why, whole (its
        row says it where the mission would be, cut to that column's width)."""
        row = self.highlighted
        if row is not None:
            row = self.rows.get(row.path, row)     # as read (`shown` is made again once all are)
        why = self.query_one("#runs-why", Static)
        why.display = row is not None and row.reason is not None
        if why.display:
            why.update(Text.assemble(literal(row.file, "cyan"), " cannot be read: ",
                                     literal(row.reason, "red")))

    @property
    def arrow(self) -> str:
        """The sort's direction, as the sorted column's title and the status line end."""
        return " ▼" if self.reverse else " ▲"

    @property
    def file_width(self) -> int:
        return self.widths.get("file", MAX_FILE)

    @property
    def highlighted(self) -> RunRow | None:
        table = self.table
        row = table.cursor_row
        return self.shown[row] if self.shown and 0 <= row < len(self.shown) else None

    # --- sorting and filtering ----------------------------------------------------------------
    def sort_by(self, column: str, reverse: bool | None = None) -> None:
        """Sort by `column` (one of the columns shown); the same column again reverses the
        order."""
        if reverse is None:
            reverse = not self.reverse if column == self.sort_column else column in NUMERIC
        self.sort_column, self.reverse = column, reverse
        self.show()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        name = str(event.column_key.value)
        if name in self.columns:
            self.sort_by(name)

    def action_sort_column(self, step: int) -> None:
        columns = self.columns
        i = columns.index(self.sort_column) if self.sort_column in columns else 0
        self.sort_by(columns[(i + step) % len(columns)], reverse=False)

    def action_reverse(self) -> None:
        self.sort_by(self.sort_column, reverse=not self.reverse)

    def action_filter(self) -> None:
        field = self.query_one("#runs-filter", Input)
        field.can_focus = True
        field.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.filter_text = event.value
        self.show()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter: back to the runs, the filter kept."""
        event.stop()
        self._leave_filter()

    def _leave_filter(self) -> None:
        self.query_one("#runs-filter", Input).can_focus = False
        self.table.focus()

    def action_outcome(self) -> None:
        """The next outcome filter: each of OUTCOMES in turn, then every outcome."""
        choices = (None, *OUTCOMES)
        self.outcome = choices[(choices.index(self.outcome) + 1) % len(choices)]
        self.show()

    # --- opening and comparing ----------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.highlighted
        if row is not None:
            self.post_message(self.Open(row.path))

    def action_mark(self) -> None:
        row = self.highlighted
        if row is None:
            return
        if row.path in self.marked:
            self.marked.remove(row.path)
        else:
            self.marked.append(row.path)
        if len(self.marked) == 2:
            a, b = self.marked
            self.marked = []
            self.post_message(self.Compare(a, b))
        self._refresh_marks()

    def action_unmark(self) -> None:
        """Escape: in the filter, back to the runs (the filter kept, as Enter); else the marks
        cleared."""
        if self.query_one("#runs-filter", Input).has_focus:
            self._leave_filter()
            return
        self.marked = []
        self._refresh_marks()

    def _refresh_marks(self) -> None:
        table = self.table
        for row in self.shown:
            table.update_cell(str(row.path), "mark",
                              Text(MARKED if row.path in self.marked else "", "bold yellow"))
