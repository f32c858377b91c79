"""Runs: every trace under a folder as one row of the runs browser (no Textual). Finding the
files is quick (a name and a peek at each file's start), so the list shows at once;
reading a run (`read_run`: its agent, outcome, turns, tokens and cost) is what a worker does
file by file."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from engine.agent.open_trace import INSPECTION_SUFFIX, open_trace
from engine.trace import Trace, TraceError
from engine.trace.disk import file_head
from ptc_tui.view.calls import run_totals
from ptc_tui.view.plain_text import escape_controls, text_lines
from ptc_tui.view.status import outcome_text
from ptc_tui.view.trace_view import TraceView

# A trace names its format near its start, or after its agent when re-written with sorted keys
# (some 5-11 KB in the samples): found in the first PEEK_BYTES, decompressed when gzip.
PEEK_BYTES = 64 * 1024
TRACE_MARK = re.compile(rb'"format"[ \t\n\r]*:[ \t\n\r]*"ptc-trace"')
TRACE_SUFFIXES = (".json", ".json.gz")
OUTCOMES = ("returned", "failed", "out of turns", "running", "unreadable")
UPSTREAM_REPORT = "report.json"      # ptc_runner writes its run's final report beside the run


@dataclass(frozen=True)
class RunRow:
    """One trace file as the runs browser lists it; fields other than `path` and `file` are
    filled in once the file is read (`read`), or `error` says why it could not be."""

    path: Path
    file: str                       # the path under the browsed folder
    read: bool = False
    mission: str = ""               # its first line
    agent: str = ""
    llm: str = ""
    saved: str = ""                 # created_at, ISO 8601
    outcome: str = ""               # as the main screen's header says it
    turns: int | None = None
    tokens: int | None = None       # input tokens of every request under the recorded options
    full_tokens: int | None = None  # ... under `full` (for an imported run: a what-if)
    cost: float | None = None       # the recorded LLM calls; None: price unknown
    error: str | None = None        # why the file could not be read

    @property
    def outcome_kind(self) -> str:
        """One of OUTCOMES (the outcome filter's choices), or "" before the file is read."""
        if self.error is not None:
            return "unreadable"
        return self.outcome.split(":")[0]

    @property
    def reason(self) -> str | None:
        """Why the file could not be read, without the file's path it starts with (the file
        column names the file already)."""
        if self.error is None:
            return None
        return self.error.removeprefix(str(self.path)).removeprefix(":").strip() or self.error

    def text(self) -> str:
        """What the text filter searches, case-folded: the columns as they show them (control
        characters escaped, so `x1b` finds a file whose name holds an ESC; an unreadable file's
        outcome and why, without its path)."""
        outcome = self.outcome_kind if self.error is not None else self.outcome
        return escape_controls(" ".join((self.file, self.mission, self.agent, self.llm, outcome,
                                         self.reason or ""))).casefold()


# --- finding the files ----------------------------------------------------------------------

def find_runs(folder: Path) -> list[Path]:
    """Every trace file under `folder`, recursively, by path: our traces (`.json` or
    `.json.gz` files, gzip-compressed or not, whose start names their format) and the
    reference implementation's inspection artifacts. Hidden folders and symbolic links are not
    followed."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(root) / name
            if name.endswith(INSPECTION_SUFFIX) or (name.endswith(TRACE_SUFFIXES)
                                                    and _starts_as_trace(path)):
                found.append(path)
    return sorted(found)


def _starts_as_trace(path: Path) -> bool:
    start = file_head(path, PEEK_BYTES)        # None for a FIFO, a device, an unreadable file
    return start is not None and TRACE_MARK.search(start) is not None


def listed(folder: Path, paths: Iterable[Path]) -> list[RunRow]:
    """Rows for `paths`, nothing read yet: what the browser shows at once."""
    return [RunRow(p, _relative(p, folder)) for p in paths]


def _relative(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


# --- reading one run --------------------------------------------------------------------------

def read_run(row: RunRow) -> RunRow:
    """`row` with its run read: never raises for a bad file (its `error` says what is wrong)."""
    try:
        trace = open_trace(row.path)
    except (TraceError, OSError, ValueError) as e:
        return replace(row, read=True, error=" ".join(str(e).split()))
    return summarize(row, trace)


def summarize(row: RunRow, trace: Trace) -> RunRow:
    """`row` filled in from `trace`: its tokens and cost as the main screen's header says them
    (the recorded calls priced one way everywhere, prompt caching modelled)."""
    view = TraceView.of(trace)
    mission = trace.agent.mission.strip()
    return replace(
        row, read=True, mission=text_lines(mission)[0] if mission else "",
        agent=trace.agent.name, llm=trace.agent.llm, saved=trace.created_at,
        outcome=_outcome(trace, row.path), turns=len(trace.turns),
        tokens=view.rendering.total, full_tokens=view.full_rendering.total,
        cost=run_totals(view.calls()).cost if trace.turns else None)


def _outcome(trace: Trace, path: Path) -> str:
    """The run's outcome; for a ptc_runner run, its report's status when a report is beside it
    (`report.json`, as its Kernel writes one per run)."""
    text = outcome_text(trace)
    if trace.upstream is None:
        return text
    status = upstream_report_status(path.parent / UPSTREAM_REPORT)
    return f"{text}: report {status}" if status else text


def upstream_report_status(path: Path) -> str | None:
    """The `status` of a ptc_runner report file, None when there is none to read."""
    try:
        if not path.is_file() or path.stat().st_size > 16 * 1024 * 1024:
            return None
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    status = doc.get("status") if isinstance(doc, dict) else None
    return " ".join(status.split())[:40] if isinstance(status, str) and status.strip() else None


# --- column widths ----------------------------------------------------------------------------

# Fixed widths, as the cells are filled in after the table is drawn; the file and the mission
# share what is left of the screen: the file its longest name (known at once) up to MAX_FILE
# while the mission keeps MIN_MISSION, and the mission the rest.
WIDTHS = {"agent": 12, "LLM": 14, "saved": 16, "outcome": 14, "turns": 5, "input tokens": 12,
          "full tokens": 11, "cost": 9}
ARROW = " ▲"                # after the sorted column's name (" ▼" reversed): room kept for it
MAX_FILE = 40
MIN_FILE = 16
MIN_MISSION = 16


def column_widths(columns: Iterable[str], room: int, file_chars: int, other: int = 0,
                  gap: int = 2, sort_column: str = "") -> dict[str, int]:
    """The width of each of `columns` in a table `room` cells wide, where every column takes
    `gap` cells besides its width and `other` cells go to columns not in `columns`: WIDTHS for
    most (`sort_column` wide enough for its name and the ARROW); the file and the mission what
    is left, so that on 160 columns every column is seen (the file its longest name,
    `file_chars`, up to MAX_FILE, less as the mission needs down to MIN_FILE; the mission the
    rest, at least MIN_MISSION)."""
    columns = list(columns)
    widths = {name: WIDTHS[name] for name in columns if name in WIDTHS}
    if sort_column in widths:
        widths[sort_column] = max(widths[sort_column], len(sort_column) + len(ARROW))
    left = room - sum(widths.values()) - other - gap * len(columns)
    if "file" in columns:
        wanted = min(file_chars, MAX_FILE)
        spare = left - MIN_MISSION if "mission" in columns else left
        widths["file"] = max(min(wanted, spare), min(wanted, MIN_FILE))
        left -= widths["file"]
    if "mission" in columns:
        widths["mission"] = max(MIN_MISSION, left)
    return widths


def cut_middle(text: str, width: int) -> str:
    """`text` in at most `width` characters: a path cut in its middle, "…" standing for what
    is left out, keeping more of its end (the file's name) than of its start."""
    if len(text) <= width:
        return text
    head = (width - 1) // 3
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]


# --- sorting and filtering --------------------------------------------------------------------

COLUMNS = ("mission", "file", "agent", "LLM", "saved", "outcome", "turns", "input tokens",
           "full tokens", "cost")
NUMERIC = {"turns", "input tokens", "full tokens", "cost"}
_FIELDS = {"mission": "mission", "agent": "agent", "LLM": "llm", "saved": "saved",
           "outcome": "outcome", "turns": "turns", "input tokens": "tokens",
           "full tokens": "full_tokens", "cost": "cost", "file": "file"}


def sort_key(column: str):
    """A key for `sorted` by `column`; rows without a value (not read yet, unknown cost) sort
    last whichever the direction, then by file."""
    name = _FIELDS[column]

    def key(row: RunRow):
        value = getattr(row, name)
        missing = value is None or value == ""
        return (missing, value if not missing else 0, row.file)
    return key


def sorted_rows(rows: Iterable[RunRow], column: str, reverse: bool = False) -> list[RunRow]:
    key, rows = sort_key(column), list(rows)
    present = [r for r in rows if not key(r)[0]]
    missing = [r for r in rows if key(r)[0]]
    return (sorted(present, key=key, reverse=reverse)
            + sorted(missing, key=lambda r: r.file))


def matches(row: RunRow, text: str = "", outcome: str | None = None) -> bool:
    """Whether `row` passes the text filter (every word, in any of its columns) and the
    outcome filter (one of OUTCOMES; None: any)."""
    if outcome is not None and row.outcome_kind != outcome:
        return False
    haystack = row.text()
    return all(word in haystack for word in text.casefold().split())
