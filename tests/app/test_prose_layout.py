"""The text panes lay prose out lazily (where each line breaks is found at once, its styled
pieces made when drawn): what they draw must be what Rich's own word wrap gives."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich._wrap import divide_line
from rich.console import Console
from rich.text import Text

from ptc_tui.widgets.text_panel import SINGLE_CELL, ProseBlock, single_cell_breaks, prose_rows

CONSOLE = Console(width=200)


def drawn(text: Text, width: int) -> list[tuple]:
    rows = [r if isinstance(r, Text) else r[0].piece(r[1]) for r in prose_rows(text, width,
                                                                                 CONSOLE)]
    return [(r.plain, r.spans, r.style) for r in rows]


def styled() -> Text:
    text = Text("── user · 1,234 tokens ──\n", "bold")
    text.append("héllo wörld 日本語のテキスト " * 12, "green")
    text.append("\n\n  indented   words and   spaces   \n")
    text.append("(tool/search \"x\") → [{:id 1} …] · " * 9, "cyan")
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


@st.composite
def texts_with_spans(draw) -> Text:
    plain = draw(st.text(alphabet="ab \n", max_size=30))
    text = Text(plain, style=draw(st.sampled_from(["", "bold"])))
    for _ in range(draw(st.integers(0, 6))):      # spans as Text.stylize makes them
        start = draw(st.integers(0, len(plain)))
        text.stylize(draw(st.sampled_from(["red", "italic", "on blue"])), start,
                     draw(st.integers(start, len(plain) + 3)))
    return text


@given(texts_with_spans())
def test_a_line_cut_from_a_block_is_the_line_rich_splits(text):
    lines = text.plain.split("\n")
    block = ProseBlock(text, lines)
    expected = list(text.split("\n", allow_blank=True))
    assert len(expected) == len(lines)
    for i, line in enumerate(expected):
        assert (block.line(i).plain, block.line(i).spans, block.line(i).style) == \
            (line.plain, line.spans, line.style)


@settings(max_examples=400)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=200)
       | st.text(alphabet=st.sampled_from(sorted(SINGLE_CELL)), max_size=200)
       | st.text(alphabet="ab →… ", max_size=60)
       | st.text(alphabet="  a→", max_size=80), st.integers(1, 40))
def test_single_cell_text_breaks_where_rich_breaks_it(text, width):
    assert single_cell_breaks(text, width) == divide_line(text, width, fold=True)


def test_the_single_cell_characters_include_what_requests_are_full_of():
    """History summaries mark calls with → and cut values with …: both take the quick path."""
    assert SINGLE_CELL.issuperset("→…·─ abcXYZ019{}[]")
    assert not SINGLE_CELL & set("日本\t\x1b\xa0\u200b")
