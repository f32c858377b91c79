"""Literal text: trace text (LLM output, prints, tool results) as Rich `Text`, never markup,
with terminal control characters shown escaped so they cannot drive the terminal
(view.plain_text.escape_controls)."""

from __future__ import annotations

from rich.text import Span, Text

from ptc_tui.view.plain_text import escape_controls


def literal(text: str, style: str = "") -> Text:
    """`text` exactly as written, as a `Text` (so `[bold]` stays `[bold]`)."""
    return Text(escape_controls(text), style=style)


def same_look(a: Text, b: Text) -> bool:
    """Whether two texts draw the same: characters, spans, base style and justification (Rich's
    Text equality compares the first two only)."""
    return (a.plain == b.plain and a.spans == b.spans and a.style == b.style
            and a.justify == b.justify)


class Pieces:
    """A Text put together from many pieces in one go, each piece literal (as `literal` makes
    it) with a style of its own. Text.append strips control codes from the whole text on every
    call: for a request with hundreds of parts, most of the time its pane took to show."""

    def __init__(self) -> None:
        self._tokens: list[tuple[str, str]] = []

    def append(self, text: str, style: str = "") -> None:
        """Add `text` (from a trace or not: escaped either way) in `style`; as Text.append."""
        self._tokens.append((escape_controls(text), style))

    def text(self) -> Text:
        """The pieces as one Text. Rich checks every text it is given for control codes to
        strip (str.translate, slow on text that is not ASCII: most of the time a late turn's
        request of 60,000 characters took to show); escape_controls has escaped them all, so
        the joined text is set as the Text's own, unchecked (the tests compare the result with
        Rich's own)."""
        spans, offset = [], 0
        for piece, style in self._tokens:
            end = offset + len(piece)
            if style:
                spans.append(Span(offset, end, style))
            offset = end
        text = Text(spans=spans)
        text._text, text._length = ["".join(piece for piece, _ in self._tokens)], offset
        return text
