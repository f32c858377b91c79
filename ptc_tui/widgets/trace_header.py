"""TraceHeader: the line above everything: mission, LLM, outcome, strategy, limits, tokens."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ptc_tui.view import Header
from ptc_tui.widgets.literal import literal

# The limits a user tunes most; the rest are in the trace file and the (future) options screen.
SHOWN_LIMITS = ("println_limit", "tool_call_limit", "sample_limit")


def header_text(h: Header) -> Text:
    limits = dict(h.limits)
    if h.saved_percent is None:
        saved = ""
    elif h.saved >= 0:
        saved = f"saved {h.saved:,} ({h.saved_percent:.1f}%) vs full"
    else:
        saved = f"{-h.saved:,} more than full (+{-h.saved_percent:.1f}%)"
    text = Text()
    text.append_text(literal(h.mission, "bold"))
    text.append("\n")
    text.append_text(literal(h.llm, "cyan"))
    text.append("  ·  ")
    text.append(h.outcome, "green" if h.outcome == "returned" else "red")
    text.append("  ·  strategy ")
    text.append(h.strategy, "bold")
    text.append("  " + " ".join(f"{k}={limits[k]}" for k in SHOWN_LIMITS if k in limits))
    text.append(f"  ·  {h.tokens:,} tokens (full {h.full_tokens:,})  {saved}")
    return text


class TraceHeader(Static):
    """Two lines: the mission's first line, then the run and what it cost."""

    DEFAULT_CSS = """
    TraceHeader {
        height: auto;
        padding: 0 1;
        background: $panel;
        text-wrap: nowrap;          /* one line each: a long mission is cut with … */
        text-overflow: ellipsis;
    }
    """

    header_info: reactive[Header | None] = reactive(None)

    def watch_header_info(self, header: Header | None) -> None:
        if header is not None:
            self.update(header_text(header))
