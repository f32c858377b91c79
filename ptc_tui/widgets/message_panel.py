"""MessagePanel: what the LLM saw for the selected turn, its token counts and what the
strategy dropped."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from ptc_tui.view import MessagePane, TurnView
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.text_panel import TextPanel, section

ROLE_STYLES = {"system": "magenta", "user": "green", "assistant": "cyan"}


def pane_text(pane: MessagePane) -> Text:
    text = Text()
    diff = pane.difference
    text.append(f"{pane.tokens:,} tokens", "bold")
    text.append(f"  ·  full {pane.full_tokens:,}  ·  ")
    text.append(f"{'saves' if diff >= 0 else 'costs'} {abs(diff):,}",
                "green" if diff > 0 else "red" if diff < 0 else "")
    for m in pane.messages:
        section(text, f"{m.role} · {m.tokens:,} tokens")
        if m.role == "system":
            # the same on every turn and long: fold it so the conversation starts on screen
            first, _, rest = m.content.partition("\n")
            text.append_text(literal(first))
            if rest:
                text.append(f"\n… {rest.count(chr(10)) + 1} more lines, the same on every turn",
                            "dim")
            continue
        text.append_text(literal(m.content))
    section(text, f"dropped ({len(pane.dropped)})")
    if not pane.dropped:
        text.append("nothing", "dim")
    for i, d in enumerate(pane.dropped):
        text.append("\n" if i else "")
        text.append(f"{d.kind}: ", "yellow")
        text.append_text(literal(d.text))
    return text


class MessagePanel(TextPanel):
    current: reactive[TurnView | None] = reactive(None)

    def __init__(self, **kwargs) -> None:
        super().__init__("what the LLM saw", **kwargs)

    def watch_current(self, current: TurnView | None) -> None:
        if current is not None:
            text = pane_text(current.messages)
            if current.request_note:
                # the note may quote a trace's text: literal, as everything from a trace
                text = Text.assemble(literal(current.request_note + "\n", "italic magenta"),
                                     text)
            self.show(text)
