"""TraceHeader: the line above everything: mission, LLM, outcome, strategy, limits, tokens."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ptc_tui.view import Header
from ptc_tui.widgets.literal import literal

# The limits a user tunes most, with short names; every option is in the options panel (`o`).
SHOWN_LIMITS = (("println_limit", "println"), ("tool_call_limit", "tool calls"),
                ("sample_limit", "samples"))
OUTCOME_STYLES = {"returned": "green", "running": "yellow"}


def header_text(h: Header) -> Text:
    limits = dict(h.limits)
    shown = ", ".join(f"{short} {limits[name]}" for name, short in SHOWN_LIMITS if name in limits)
    text = Text()
    text.append_text(literal(h.mission, "bold"))
    text.append("\n")
    text.append_text(literal(h.llm, "cyan"))
    text.append(" · ")
    text.append_text(literal(h.outcome, OUTCOME_STYLES.get(h.outcome, "red")))
    text.append(" · ")
    text.append(h.strategy, "bold")
    text.append(f": {shown} · {h.tokens:,} tokens")
    if h.saved_percent is not None and h.saved:
        fewer = h.saved > 0
        text.append(f", {abs(h.saved):,} {'fewer' if fewer else 'more'} than full "
                    f"({abs(h.saved_percent):.1f}%)", "green" if fewer else "red")
    elif h.saved_percent is not None:
        text.append(", as many as full")
    if h.fork:
        text.append("\n")
        text.append("◦ recorded  ✱ what-if  ", "bold magenta")
        text.append_text(literal(h.fork))
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
