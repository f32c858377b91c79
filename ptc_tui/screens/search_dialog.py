"""SearchDialog (`/`: find text in programs, prints and messages) and GoToDialog (go to turn N):
modal dialogs that dismiss with the chosen turn number, or None when closed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ptc_tui.view import SearchHit, TraceView
from ptc_tui.widgets.literal import escape_controls, literal

MAX_SHOWN = 500               # options beyond this make typing in a long trace sluggish
MAX_LINE = 200                # characters of a hit's line shown


def hit_prompt(hit: SearchHit, needle: str) -> Text:
    """`turn 3 · prints · line`, the line literal with the first match underlined."""
    line = escape_controls(hit.line.strip())
    cut = line[:MAX_LINE] + ("…" if len(line) > MAX_LINE else "")
    text = Text(f"turn {hit.turn} · {hit.where} · ", "dim")
    start = len(text)
    text.append_text(literal(cut))
    # casefold can change a line's length (ß → ss); then the match is left unmarked
    at = cut.casefold().find(needle.casefold()) if len(cut.casefold()) == len(cut) else -1
    if at >= 0 and needle:
        text.stylize("bold underline", start + at, start + at + len(needle))
    return text


class TurnDialog(ModalScreen[int | None]):
    """A centred box that dismisses with a turn number, or None on escape."""

    DEFAULT_CSS = """
    TurnDialog {
        align: center middle;
        & > Vertical {
            width: 100; max-width: 100%; height: auto; max-height: 90%;
            border: round $primary; background: $surface; padding: 0 1;
        }
        .dialog-note { color: $text-muted; }
        .dialog-error { color: $error; }
    }
    """

    BINDINGS = [Binding("escape", "close", "Close", id="dialog.close")]

    def action_close(self) -> None:
        self.dismiss(None)


def count_text(total: int) -> str:
    if not total:
        return "no matches"
    noun = "match" if total == 1 else "matches"
    return f"{total:,} {noun}" + (f" (first {MAX_SHOWN} shown)" if total > MAX_SHOWN else "")


class SearchDialog(TurnDialog):
    DEFAULT_CSS = "SearchDialog OptionList { height: auto; max-height: 30; }"

    BINDINGS = [Binding("down", "focus_hits", "Hits", id="search.hits", show=False)]

    def __init__(self, view: TraceView, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view = view
        self.hits: list[SearchHit] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Input(placeholder="search programs, prints and messages", id="search-input")
            yield Static("type to search", id="search-count", classes="dialog-note", markup=False)
            yield OptionList(id="search-hits")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.hits = self.view.search(event.value)
        count = self.query_one("#search-count", Static)
        count.update(count_text(len(self.hits)) if event.value else "type to search")
        options = [Option(hit_prompt(hit, event.value), id=str(i))
                   for i, hit in enumerate(self.hits[:MAX_SHOWN])]
        if len(self.hits) > MAX_SHOWN:
            more = Text(f"… {len(self.hits) - MAX_SHOWN:,} more", "italic")
            options.append(Option(more, disabled=True))
        hits = self.query_one(OptionList)
        hits.set_options(options)
        hits.highlighted = 0 if self.hits else None

    def on_input_submitted(self) -> None:
        """Enter in the search box takes the highlighted hit (the first, unless moved)."""
        hits = self.query_one(OptionList)
        if hits.highlighted is not None:
            hits.action_select()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(self.hits[int(event.option.id)].turn)

    def action_focus_hits(self) -> None:
        self.query_one(OptionList).focus()


def turn_range(numbers: Sequence[int]) -> str:
    """`turns 1–8`, or the list itself when the numbers have gaps."""
    if not numbers:
        return "this trace has no turns"
    if list(numbers) == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"turns {numbers[0]}–{numbers[-1]}" if len(numbers) > 1 else f"turn {numbers[0]}"
    return "turns " + ", ".join(map(str, numbers))


class GoToDialog(TurnDialog):
    DEFAULT_CSS = "GoToDialog > Vertical { width: 44; }"

    def __init__(self, numbers: Sequence[int], **kwargs) -> None:
        super().__init__(**kwargs)
        self.numbers = tuple(numbers)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("go to turn", markup=False)
            yield Input(placeholder=turn_range(self.numbers), restrict=r"[0-9]*",
                        id="goto-input")
            yield Static("", id="goto-error", classes="dialog-error", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        error = self.query_one("#goto-error", Static)
        if not event.value:
            error.update(f"type a turn number; {turn_range(self.numbers)}")
        elif int(event.value) not in self.numbers:
            error.update(f"no turn {int(event.value)}; {turn_range(self.numbers)}")
        else:
            self.dismiss(int(event.value))

    def on_input_changed(self) -> None:
        self.query_one("#goto-error", Static).update("")
