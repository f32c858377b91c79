"""HelpScreen: the key bindings of the screen below, grouped by area, and what the panes,
strategies and literal trace text mean (or, for a screen with a `HELP` text of its own, that)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.screen import ModalScreen, Screen

from ptc_tui.widgets.reply_text import COUNTED
from ptc_tui.widgets.text_panel import TextPanel, section
from ptc_tui.widgets.turn_list import GLYPH_MEANINGS, GLYPHS, ORIGINS

# Areas named by a binding id's prefix ("turns.next"), in the order they are listed.
AREAS = {"turns": "Turns", "view": "View", "trace": "Trace", "run": "Run", "app": "App"}
GENERAL = "General"           # screen and app bindings with no id (focus, palette, copy)

ABOUT = (
    "The three panes show the selected turn. Program: the LLM call (model, input and output "
    "tokens, LLM and program time, cost, why the reply ended), the model's reply (its first "
    "lines; r or a click shows it whole, the code that ran marked ▌), then the program, the "
    "error marked on a failed turn, the turn's prints, tool calls and result. What the LLM saw: "
    "the "
    "messages sent for this turn under the current strategy, their tokens against `full`, and "
    "what the strategy dropped. Memory: the definitions after this turn, with those added or "
    "changed by it marked, and under the table the definition under the cursor in full (the "
    "turns that defined it, its docstring, its whole value).\n\n"
    "Tab and shift+tab move between the panes; z zooms the focused one to the whole screen "
    "(z or escape: back). The program's long lines scroll sideways; W wraps them, marking each "
    "continuation ↪. Zoom and wrapping stay for every trace opened until you quit.\n\n"
    "A strategy decides how earlier turns are folded into the history sent to the LLM (full, "
    "coalesced, namespaced, compaction); switching it, or a println or tool-call limit, "
    "recounts every turn.\n\n"
    "Text from the trace (programs, prints, messages, tool results) is shown literally: markup "
    "and terminal escape codes inside it are never interpreted."
)

RECORDED_OR_WHAT_IF = (
    "Recorded: what was sent, replied, run and billed. What-if: what other options would have "
    "sent. While the strategy or a limit on screen differs from those the trace was recorded "
    "with, the header names both (recorded: … | viewing: …), the message pane is titled "
    "\"what the LLM would see\" with a dashed border, the turn list's token column is "
    "\"what-if\" instead of \"recorded\", and R goes back to the recorded options.\n"
    f"{COUNTED} before a token count: counted here, because the provider reported none."
)


def legend_text() -> Text:
    """What each glyph of the turn list means."""
    text = Text()
    for i, (status, (glyph, style)) in enumerate(GLYPHS.items()):
        text.append("\n" if i else "")
        text.append(f"  {glyph}  ", style)
        text.append(GLYPH_MEANINGS[status])
    for origin, meaning in (("parent", "a fork's turn taken over from its parent, as recorded"),
                            ("fork", "a turn the fork ran itself (a what-if)")):
        text.append("\n")
        text.append(f"  {ORIGINS[origin][0]}  ", ORIGINS[origin][1])
        text.append(meaning)
    return text


def binding_groups(app: App, bindings: Iterable[ActiveBinding]
                   ) -> dict[str, list[tuple[str, str]]]:
    """Area title → (keys, description) rows; keys of one binding id are joined ("j / ↓").
    Widget bindings without an id (a table's cursor keys) are left out: they are the widget's."""
    rows: dict[str, dict[str, tuple[list[str], str]]] = {}
    bindings = list(bindings)
    named_actions = {a.binding.action for a in bindings if a.binding.id}
    for active in bindings:
        binding = active.binding
        if binding.id:
            prefix = binding.id.split(".")[0]
            area, name = AREAS.get(prefix, prefix.capitalize()), binding.id
        elif isinstance(active.node, (App, Screen)) and binding.action not in named_actions:
            area, name = GENERAL, binding.action     # (Textual's ctrl+q is one more Quit)
        else:
            continue
        keys, _ = rows.setdefault(area, {}).setdefault(name, ([], _describe(binding)))
        keys.append(app.get_key_display(binding))
    order = [*AREAS.values(), *sorted(set(rows) - set(AREAS.values()) - {GENERAL}), GENERAL]
    return {area: [(" / ".join(keys), text) for keys, text in rows[area].values()]
            for area in order if area in rows}


def _describe(binding: Binding) -> str:
    if binding.description and binding.tooltip:
        return f"{binding.description}: {binding.tooltip}"
    return binding.description or binding.tooltip or binding.action


def keys_text(groups: dict[str, list[tuple[str, str]]]) -> tuple[Text, int]:
    """The keys by area, a row each, and the column their descriptions start at (where a long
    one's continuation rows start too)."""
    width = max((len(keys) for rows in groups.values() for keys, _ in rows), default=0) + 2
    text = Text()
    for i, (area, rows) in enumerate(groups.items()):
        text.append("\n\n" if i else "")
        text.append(area, "bold")
        for keys, description in rows:
            text.append("\n")
            text.append(f"  {keys:<{width}}", "cyan")
            text.append(description)
    return text, width + 2


def about_text(about: str | None = None) -> Text:
    """`about` the screen, or by default the main screen's panes, turn list and recorded or
    what-if, under an `about` rule."""
    text = Text()
    section(text, "about")
    if about is not None:
        text.append(about)
        return text
    text.append(ABOUT)
    section(text, "turn list")
    text.append_text(legend_text())
    section(text, "recorded or what-if")
    text.append(RECORDED_OR_WHAT_IF)
    return text


class HelpScreen(ModalScreen[None]):
    """`HelpScreen(screen)` lists the keys active on `screen` (the one the user came from),
    read before the push, and its `HELP` if it has one; an iterable of `ActiveBinding`s can be
    passed instead."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        & > TextPanel { width: 90; max-width: 100%; height: 90%; background: $surface; }
    }
    """

    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close", id="help.close")]

    def __init__(self, source: Screen | Iterable[ActiveBinding], **kwargs) -> None:
        super().__init__(**kwargs)
        self.bindings = list(source.active_bindings.values() if isinstance(source, Screen)
                             else source)
        self.about = source.HELP if isinstance(source, Screen) else None

    def compose(self) -> ComposeResult:
        yield TextPanel("help · keys", id="help-text")

    def on_mount(self) -> None:
        panel = self.query_one(TextPanel)
        keys, column = keys_text(binding_groups(self.app, self.bindings))
        panel.show_blocks([(keys, False, column), (about_text(self.about), False)])
        panel.focus()

    def action_close(self) -> None:
        self.dismiss(None)
