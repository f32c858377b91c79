"""The cells of one run's row in the runs table: its mission, file, agent, LLM, saved time,
outcome, turns, tokens and cost, as literal text cut with "…" where a column is too narrow."""

from __future__ import annotations

from rich.text import Text

from ptc_tui.view.formats import cost_text
from ptc_tui.view.runs import MAX_FILE, RunRow, cut_middle
from ptc_tui.widgets.literal import escape_controls, literal

MISSION_CHARS = 200          # more than a screen: the column cuts it, with "…"
ERROR_CHARS = 120


def run_cells(row: RunRow, file_width: int = MAX_FILE) -> list[Text]:
    """The cells of COLUMNS, in order, a file's path cut in its middle to `file_width`; a
    file that could not be read says why where its mission would be."""
    file = Text(cut_middle(shown_file(row), file_width), "cyan")
    if row.reason is not None:
        return [cut(row.reason[:ERROR_CHARS], "red"), file, Text(""), Text(""), Text(""),
                Text("unreadable", "red"), Text(""), Text(""), Text(""), Text("")]

    def number(value) -> Text:
        return Text("" if value is None else f"{value:,}", justify="right")
    outcome = cut(row.outcome, "green" if row.outcome.startswith("returned") else
                  "yellow" if row.outcome in ("running", "") else "red")
    cost = Text(cost_text(row.cost) if row.read else "", justify="right")
    return [cut(row.mission[:MISSION_CHARS]), file, cut(row.agent), cut(row.llm),
            literal(row.saved[:16].replace("T", " ")), outcome, number(row.turns),
            number(row.tokens), number(row.full_tokens), cost]


def shown_file(row: RunRow) -> str:
    """The row's file as its column shows it: control characters escaped, so that widths are
    those of what is seen."""
    return escape_controls(row.file)


def cut(text: str, style: str = "") -> Text:
    """Trace text for a cell: literal, ending in "…" where the column cuts it."""
    cell = literal(text, style)
    cell.overflow = "ellipsis"
    return cell
