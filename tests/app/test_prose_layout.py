"""The text panes lay prose out lazily (where each line breaks is found at once, its styled
pieces made when drawn): what they draw must be what Rich's own word wrap gives."""

import pytest
from rich.console import Console
from rich.text import Text

from ptc_tui.widgets.text_panel import prose_rows

CONSOLE = Console(width=200)


def drawn(text: Text, width: int) -> list[tuple]:
    rows = [r if isinstance(r, Text) else r[0].piece(r[1]) for r in prose_rows(text, width,
                                                                                 CONSOLE)]
    return [(r.plain, r.spans, r.style) for r in rows]


def styled() -> Text:
    text = Text("── user · 1,234 tokens ──\n", "bold")
    text.append("héllo wörld 日本語のテキスト " * 12, "green")
    text.append("\n\n  indented   words and   spaces   \n")
    text.append("x" * 250, "red")
    text.append("\ta\ttabbed line\t\n")
    text.append("last line without a newline, " * 6)
    text.stylize("italic", 30, 400)
    return text


@pytest.mark.parametrize("width", [1, 2, 7, 40, 63, 150])
@pytest.mark.parametrize("text", [styled(), Text(""), Text("\n\n"), Text("one line\n")],
                         ids=["styled", "empty", "blank lines", "newline at the end"])
def test_prose_rows_draw_what_rich_wraps(text, width):
    assert drawn(text, width) == [(r.plain, r.spans, r.style) for r in text.wrap(CONSOLE, width)]
