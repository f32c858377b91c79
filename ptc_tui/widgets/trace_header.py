"""TraceHeader: the lines above everything: mission; LLM, outcome and the recorded calls' totals;
the recorded options and, when the screen's differ, those (a what-if); the tokens sent and the
saving against `full`; a failed call; a fork's parent."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ptc_tui.view import Header
from ptc_tui.view.trace_view import CachingSaving
from ptc_tui.view.calls import RunTotals, ms_text
from ptc_tui.view.formats import cost_text, percent_text
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.reply_text import COUNTED

# The limits a user tunes most, with short names; every option is in the options panel (`o`).
SHOWN_LIMITS = (("println_limit", "println"), ("tool_call_limit", "tools"),
                ("sample_limit", "samples"))
OUTCOME_STYLES = {"returned": "green", "running": "yellow"}


def limits_text(strategy: str, limits: dict, other: dict) -> str:
    """`coalesced · println 3, tool calls 20, samples 3`, with any other option that differs
    from `other` (the options viewed) named too."""
    shown = [(name, short) for name, short in SHOWN_LIMITS if name in limits]
    shown += [(name, name) for name in limits
              if name not in dict(SHOWN_LIMITS) and limits[name] != other.get(name)]
    return f"{strategy} · " + ", ".join(f"{short} {limits[name]}" for name, short in shown)


def totals_text(t: RunTotals) -> str:
    """The recorded LLM calls summed: `in 12,345 · out ≈1,234 tokens · took 4.2 s · cost $0.0123`
    (the time is the LLM calls' and the programs' together)."""
    mark = COUNTED if t.counted else ""
    return (f"in {mark}{t.input_tokens:,} · out {mark}{t.output_tokens:,} tokens · "
            f"took {ms_text(t.llm_ms + t.run_ms)} · cost {cost_text(t.cost)}"
            f"{' reported' * t.cost_reported}")


def caching_text(c: CachingSaving) -> Text:
    """` · with prompt caching (gpt-4.1): costs 21.0% less than full`: the strategy's saving
    once the provider's prompt cache is billed, at the token view's price model (c: without)."""
    text = Text(" · with prompt caching (")
    text.append_text(literal(c.model))
    text.append("): ")
    if c.saved_percent is None:
        text.append("cost against full unknown")
    elif c.saved_percent >= 0:
        text.append(f"costs {c.saved_percent:.1f}% less than full", "green")
    else:
        text.append(f"costs {-c.saved_percent:.1f}% more than full", "red")
    return text


def tokens_text(h: Header) -> Text:
    """The fourth line: `tokens: 11,666 would be sent, 2,427 fewer than full (17.2%) · with
    prompt caching (gpt-4.1): costs 21.0% less than full`, or `counting tokens…`."""
    if h.tokens is None:                  # a long trace, counted in the background
        return Text("counting tokens…", "dim")
    text = Text("tokens: ", "bold")
    text.append(f"{h.tokens:,} " + ("would be sent" if h.what_if else "sent"))
    if h.saved_percent is not None and h.saved:     # None while counting
        fewer = h.saved > 0
        text.append(f", {abs(h.saved):,} {'fewer' if fewer else 'more'} than full "
                    f"({percent_text(abs(h.saved_percent))})", "green" if fewer else "red")
    elif h.saved_percent is not None:
        text.append(", as many as full")
    if h.caching is not None:
        text.append_text(caching_text(h.caching))
    return text


def header_text(h: Header) -> Text:
    """Four lines whatever the options (so the panes below never jump when they change), then
    a failed call and a fork's parent when there are any."""
    limits, recorded = dict(h.limits), dict(h.recorded_limits)
    text = Text()
    text.append_text(literal(h.mission, "bold"))
    text.append("\n")
    text.append_text(literal(h.llm, "cyan"))
    text.append(" · ")
    text.append_text(literal(h.outcome, OUTCOME_STYLES.get(h.outcome, "red")))
    if h.totals is not None:
        text.append(f" · {totals_text(h.totals)}")
    text.append("\nrecorded: ", "bold")
    text.append(limits_text(h.recorded_strategy, recorded, limits))
    if h.what_if:
        text.append(" | viewing: ", "bold yellow")
        short = dict(SHOWN_LIMITS)
        changed = [name for name in limits if limits[name] != recorded.get(name)]
        text.append(", ".join([h.strategy] * (h.strategy != h.recorded_strategy)
                              + [f"{short.get(name, name)} {limits[name]}" for name in changed]),
                    "yellow")
        text.append(" (what-if; R: recorded)", "bold yellow")
    text.append("\n")
    text.append_text(tokens_text(h))
    if h.failed_call:
        text.append("\n")
        text.append_text(literal(h.failed_call, "bold red"))
        text.append(" · n retries it", "bold")
    if h.fork:
        text.append("\n")
        text.append("◦ recorded  ✱ what-if  ", "bold magenta")
        text.append_text(literal(h.fork))
    return text


class TraceHeader(Static):
    """The mission's first line, the run and what it cost, the options recorded and viewed, the
    tokens."""

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
