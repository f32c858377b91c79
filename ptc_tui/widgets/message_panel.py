"""MessagePanel: what the LLM saw for the selected turn, its token counts and what the
strategy dropped."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import var

from ptc_tui.view import Dropped, MessagePane, TurnView
from ptc_tui.widgets.literal import Pieces, literal
from ptc_tui.widgets.text_panel import TextPanel, section

ROLE_STYLES = {"system": "magenta", "user": "green", "assistant": "cyan"}
# Of a kind of dropped item with more, the latest shown unless the whole request is (`e`): a
# late turn of a long run drops hundreds of tool calls, most of what its pane had to lay out.
FOLDED_PER_KIND = 10


def pane_text(pane: MessagePane, said: str = "recorded", whole: bool = False) -> Text:
    """The request's tokens, `said` to be recorded, a what-if under other options or not sent
    yet, its messages and what was dropped. Unless `whole`, the system prompt is folded to its
    first line, each message cut as every pane block is, and of each kind of dropped item
    only the latest FOLDED_PER_KIND shown; `whole` shows the request as sent, cut only past
    thousands of lines, and every dropped item."""
    text = Pieces()               # a late turn's request has hundreds of parts
    diff = pane.difference
    text.append(f"{said}: ", "bold yellow" if said == "what-if" else "bold")
    text.append(f"{pane.tokens:,} tokens", "bold")
    text.append(f"  ·  full {pane.full_tokens:,}  ·  ")
    text.append(f"{'saves' if diff >= 0 else 'costs'} {abs(diff):,}",
                "green" if diff > 0 else "red" if diff < 0 else "")
    for m in pane.messages:
        section(text, f"{m.role} · {m.tokens:,} tokens")
        if m.role == "system" and not whole:
            # the same on every turn and long: fold it so the conversation starts on screen
            first, _, rest = m.content.partition("\n")
            text.append(first)
            if rest:
                text.append(f"\n… {rest.count(chr(10)) + 1} more lines, the same on every turn "
                            "(e shows them)", "dim")
            continue
        text.append(m.whole if whole else m.content)
    section(text, f"dropped ({len(pane.dropped)})")
    if not pane.dropped:
        text.append("nothing", "dim")
    lines = 0
    for kind, items in kinds_of(pane.dropped):
        if not whole and len(items) > FOLDED_PER_KIND:
            text.append("\n" * (lines > 0))
            text.append(f"… {len(items) - FOLDED_PER_KIND} earlier {kind} items, "
                        f"{FOLDED_PER_KIND} latest below (e shows them all)", "dim")
            items, lines = items[-FOLDED_PER_KIND:], lines + 1
        for d in items:
            text.append("\n" * (lines > 0))
            text.append(f"{d.kind}: ", "yellow")
            text.append(d.text)
            lines += 1
    return text.text()


def kinds_of(dropped: tuple[Dropped, ...]) -> list[tuple[str, list[Dropped]]]:
    """The dropped items kind by kind, in the order the kinds first come, each kind's items in
    their order (oldest first)."""
    groups: dict[str, list[Dropped]] = {}
    for d in dropped:
        groups.setdefault(d.kind, []).append(d)
    return list(groups.items())


SAW = "what the LLM saw"
WOULD_SEE = "what the LLM would see · what-if"
WHAT_IF_LINE = "what the LLM would see under these options, not what it saw (R: recorded)"
UPCOMING = "next request: turn {number}, not sent yet"


class MessagePanel(TextPanel):
    """The selected turn's request: recorded, or a what-if under the options on screen (then
    titled so, with a dashed border); before a live run's first turn, the request it will send.
    """

    DEFAULT_CSS = """
    MessagePanel.-what-if { border: dashed $warning; border-title-color: $warning; }
    MessagePanel.-what-if:focus { border: dashed $warning-lighten-2; }
    """

    # vars, not reactives: _show redraws the rows that change, not the whole pane
    current: var[TurnView | None] = var(None)
    upcoming: var[MessagePane | None] = var(None)
    whole_request: var[bool] = var(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(SAW, **kwargs)
        self.shown_turn: int | None = None

    def watch_current(self) -> None:
        self._show()

    def watch_upcoming(self) -> None:
        self._show()

    def watch_whole_request(self) -> None:
        self._show()

    def _show(self) -> None:
        current, upcoming = self.current, self.upcoming
        if current is None and upcoming is not None:
            self.set_class(False, "-what-if")
            self.set_title(UPCOMING.format(number=1))
            self.show(pane_text(upcoming, "not sent yet", self.whole_request))
            return
        if current is None:
            return
        self.set_class(current.what_if, "-what-if")
        self.set_title(WOULD_SEE if current.what_if else SAW)
        text = pane_text(current.messages, "what-if" if current.what_if else "recorded",
                         self.whole_request)
        if current.what_if:
            text = Text.assemble((WHAT_IF_LINE + "\n", "bold yellow"), text)
        if current.request_note:
            # the note may quote a trace's text: literal, as everything from a trace
            text = Text.assemble(literal(current.request_note + "\n", "italic magenta"), text)
        self.show(text)
        if current.number != self.shown_turn:      # a new turn starts at its top
            self.shown_turn = current.number
            self.scroll_home(animate=False)
