"""The model's reply and the LLM call of a turn as Rich `Text`: the reply folded or whole, the
code blocks the agent ran marked in it; the call line (model, tokens, times, cost, finish)."""

from __future__ import annotations

from rich.text import Text

from ptc_tui.view.calls import CallView, ms_text
from ptc_tui.view.reply import RAN, ReplyView, reply_lines
from ptc_tui.view.formats import cost_text
from ptc_tui.widgets.literal import literal

COUNTED = "≈"                  # a token count made here: the provider reported none
STYLES = {"prose": "", "ran": "green", "more": "dim"}


def reply_title(reply: ReplyView, expanded: bool) -> str:
    """The reply section's title, saying what `r` does to it."""
    if not reply.foldable:
        return "reply"
    return "reply · whole (r folds)" if expanded else "reply · first lines (r: whole reply)"


def reply_text(reply: ReplyView, expanded: bool) -> Text:
    """The reply, each code block the agent ran marked with a green gutter; folded (the first
    lines of each piece of prose, one line per run block), unless `expanded`."""
    text = Text()
    for i, (kind, line) in enumerate(reply_lines(reply, expanded)):
        text.append("\n" if i else "")
        if kind == "ran":
            text.append(RAN, "bold green")
            line = line[len(RAN):]
        text.append_text(literal(line, STYLES[kind] if kind != "ran" or not expanded else ""))
    return text


def call_text(call: CallView) -> Text:
    """`gpt-4o · in 1,234 · out ≈56 · LLM 1.2 s · program 3 ms · $0.000613 · stop`; ≈ marks a
    count made here because the provider reported none."""
    text = literal(call.model, "cyan")
    cached = f" ({call.cached_tokens:,} cached)" if call.cached_tokens else ""
    text.append(f" · in {COUNTED * call.input_counted}{call.input_tokens:,}{cached}"
                f" · out {COUNTED * call.output_counted}{call.output_tokens:,}"
                f" · LLM {ms_text(call.llm_ms)} · program {ms_text(call.run_ms)}"
                f" · {'cost ' * (call.cost is None)}{cost_text(call.cost)}"
                f"{' reported' * call.cost_reported} · ")
    if call.finish_reason is None:
        text.append("finish not reported", "dim")
    else:
        text.append(call.finish_reason, "green" if call.finish_reason == "stop" else "bold red")
    return text
