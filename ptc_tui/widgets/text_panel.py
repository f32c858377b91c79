"""TextPanel: a titled, scrollable pane showing one `Text`, the base of the program, message and
diff panes. It lays the text out once per width and draws only the lines on screen (Textual's
line API); prose is measured where each line breaks at once, but cut into styled pieces only
when a row of it is drawn, so a long request shows as fast as a short one; its rows go to the
screen between the border's cells (QuickLines). `plain` keeps what it shows.
Code blocks (`show_blocks`) are not word-wrapped: their long lines scroll sideways, or, with
`wrap_code`, are cut at the pane's width, each continuation line marked `CONTINUED`."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import accumulate

from rich._wrap import divide_line
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ptc_tui.widgets.literal import Pieces, literal, same_look
from ptc_tui.widgets.quick_lines import QuickLines
from ptc_tui.widgets.quick_scrollbar import QuickScrollBars
from ptc_tui.widgets.steady_scroll import SteadyScroll

CONTINUED = "↪ "           # starts a code line's continuation when code is wrapped

# Characters Rich draws in one cell, found by asking Rich: printable ASCII, Latin-1, general
# punctuation (…), arrows (→), box drawing (─) and geometric shapes, which requests are full of
# (history summaries mark every call with → and cut values with …).
SINGLE_CELL = frozenset(
    c for first, last in ((0x20, 0x7E), (0xA0, 0x2FF), (0x2010, 0x205E), (0x2190, 0x21FF),
                          (0x2500, 0x25FF))
    for c in map(chr, range(first, last + 1)) if c.isprintable() and cell_len(c) == 1)


def section(text: Text | Pieces, title: str) -> None:
    """Append a `── title ──` rule line to `text`."""
    text.append(f"\n── {title} ──\n", "bold")


def cut_code_line(line: Text, width: int) -> list[Text]:
    """`line` cut into pieces of `width` cells, each after the first marked CONTINUED."""
    if line.cell_len <= width or width <= len(CONTINUED):
        return [line]
    pieces, rest, room = [], line, width
    while rest.cell_len > room:
        head, rest = rest.divide([room])[:2]
        pieces.append(head)
        room = width - len(CONTINUED)
    pieces.append(rest)
    for i in range(1, len(pieces)):
        pieces[i] = Text.assemble((CONTINUED, "dim"), pieces[i])
    return pieces


class ProseBlock:
    """A prose Text whose styled lines are cut from it one at a time, when first drawn: a late
    turn's request has a thousand lines and a screen shows fifty (Text.split makes them all).
    A line's spans are found by bisection among the spans sorted by where they start."""

    __slots__ = ("text", "starts", "_spans", "_span_starts", "_reach")

    def __init__(self, text: Text, lines: list[str]) -> None:
        """`lines`: text.plain split at its newlines."""
        self.text = text
        self.starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
        self._spans: list[tuple[int, Span]] | None = None   # (place in text.spans, span)

    def line(self, i: int) -> Text:
        """Line `i` with its styles: text.split("\n", allow_blank=True)[i]."""
        if len(self.starts) == 1:
            return self.text.copy()
        start, end = self._bounds(i)
        text = self.text
        return Text(text.plain[start:end], style=text.style, justify=text.justify,
                    overflow=text.overflow, spans=self._line_spans(start, end))

    def _bounds(self, i: int) -> tuple[int, int]:
        starts = self.starts
        return starts[i], starts[i + 1] - 1 if i + 1 < len(starts) else len(self.text)

    def _line_spans(self, start: int, end: int) -> list[Span]:
        """The spans over [start, end), cut to it and moved to start at 0, in the order of
        text.spans (as Text.divide cuts them)."""
        if self._spans is None:
            self._spans = sorted(enumerate(self.text.spans), key=lambda s: s[1].start)
            self._span_starts = [span.start for _, span in self._spans]
            self._reach = list(accumulate((span.end for _, span in self._spans), max))
        if start == end:                             # an empty line has no spans
            return []
        first = bisect_right(self._reach, start)     # spans before it all end by `start`
        last = bisect_left(self._span_starts, end)   # spans from it on start at `end` or later
        found = sorted((place, span) for place, span in self._spans[first:last]
                       if span.end > start)
        return [Span(max(span.start, start) - start, min(span.end, end) - start, span.style)
                for _, span in found]


_NOT_SPACE = re.compile("[^ ]")


def single_cell_breaks(text: str, width: int) -> list[int]:
    """Rich's divide_line(text, width, fold=True) for text of SINGLE_CELL characters, where a
    character is a cell and the one space is " ": the same breaks, found a row at a time
    instead of a word at a time (a late turn's request has hundreds of lines to wrap, and the
    pane lays them all out to know its height).

    As Rich: a word is its letters and the spaces after them (the first also the spaces
    before). A row holds the words whose letters end within `width` of its start; the next
    row starts at the first word that does not fit, or, for a word wider than a row, the word
    is cut every `width` characters and its last piece starts the next row."""
    size = len(text)
    leading = size - len(text.lstrip(" "))
    if leading == size:                           # only spaces: no word, no break
        return []
    breaks: list[int] = []
    row = place = 0          # where the row starts; where the next word to place starts
    while row + width < size:
        limit = row + width                       # the first character past the row
        if text[limit] == " " and limit >= leading:
            # the word this space follows fits: the next word starts after the spaces
            found = _NOT_SPACE.search(text, limit)
            if found is None:
                break
            start = found.start()
        else:                                     # the word across the limit does not fit
            space = text.rfind(" ", place, limit)
            start = place if space < place or space < leading else space + 1
        letters_end = text.find(" ", max(start, leading))
        letters_end = size if letters_end == -1 else letters_end
        if letters_end - start > width:           # wider than a row: cut
            found = _NOT_SPACE.search(text, letters_end)
            end = size if found is None else found.start()
            cuts = range(start, end, width)
            breaks.extend(cut for cut in cuts if cut)
            row, place = cuts[-1], end
        else:
            breaks.append(start)
            row = place = start
    return breaks


class ProseLine:
    """Line `index` of a prose block, word-wrapped at `width` as Rich's Text.wrap wraps it: where
    it breaks is found from its plain text (quick); its styled pieces are made on first use."""

    __slots__ = ("block", "index", "width", "offsets", "_pieces")

    def __init__(self, block: ProseBlock, index: int, plain: str, width: int) -> None:
        self.block, self.index, self.width = block, index, width
        if len(plain) <= width and plain.isascii():          # one row (the quickest test)
            self.offsets = []
        elif SINGLE_CELL.issuperset(plain):                  # a cell per character
            self.offsets = single_cell_breaks(plain, width)
        else:
            self.offsets = [] if cell_len(plain) <= width else divide_line(plain, width,
                                                                           fold=True)
        self._pieces: list[Text] | None = None

    @property
    def rows(self) -> int:
        return len(self.offsets) + 1

    def piece(self, i: int) -> Text:
        if self._pieces is None:
            pieces = self.block.line(self.index).divide(self.offsets)
            for piece in pieces:
                piece.rstrip_end(self.width)
                piece.truncate(self.width, overflow="fold")
            self._pieces = list(pieces)
        return self._pieces[i]


def hanging_rows(line: Text, width: int, hang: int, console) -> list[Text]:
    """`line` wrapped at `width` with a hanging indent: its first `hang` characters (the help's
    key column, a cell each) stay on the first row and the rest wraps in the cells after them,
    its continuation rows under its start. A pane too narrow for two such columns wraps the
    line whole."""
    if line.cell_len <= width or width <= 2 * hang:
        return list(line.wrap(console, width))
    head, *rest = line[hang:].wrap(console, width - hang)
    return [line[:hang] + head, *(Text(" " * hang) + row for row in rest)]


def prose_rows(text: Text, width: int, console, hang: int = 0
               ) -> list[Text | tuple[ProseLine, int]]:
    """`text` laid out in rows of `width` cells: a row is (line, piece) of a ProseLine, or, for a
    line with a tab (rare) or with a hanging indent of `hang` cells, a Text wrapped at once."""
    if hang:                                     # a short text (the help's keys)
        return [row for line in text.split("\n", allow_blank=True)
                for row in hanging_rows(line, width, hang, console)]
    rows: list[Text | tuple[ProseLine, int]] = []
    lines = text.plain.split("\n")
    block = ProseBlock(text, lines)
    for index, plain in enumerate(lines):
        if "\t" in plain:
            rows.extend(block.line(index).wrap(console, width))
        else:
            prose = ProseLine(block, index, plain, width)
            if prose.offsets:
                rows.extend((prose, i) for i in range(prose.rows))
            else:                                # one row: most lines
                rows.append((prose, 0))
    return rows


def same_row(a: Text | None, b: Text | None) -> bool:
    """Whether two laid-out rows (None: past the end) draw the same."""
    if a is None or b is None:
        return a is b
    return same_look(a, b)


def runs_of(indexes: list[int]) -> list[tuple[int, int]]:
    """Sorted `indexes` as (first, count) runs of consecutive numbers."""
    runs: list[tuple[int, int]] = []
    for i in indexes:
        if runs and runs[-1][0] + runs[-1][1] == i:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((i, 1))
    return runs


class TextPanel(SteadyScroll, QuickScrollBars, QuickLines, ScrollView, can_focus=True):
    DEFAULT_CSS = """
    TextPanel {
        border: round $primary-muted;
        border-title-color: $text;
        height: 1fr;
        width: 1fr;
        padding: 0 1;
        overflow-x: hidden;
        overflow-y: scroll;            /* a track even when all fits: never a layout for it */
        scrollbar-gutter: stable;      /* the wrap width never depends on the scrollbar */
        &:focus { border: round $accent; border-title-style: bold; }
    }
    """

    def __init__(self, title: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self._title = ""
        self.set_title(title)
        self.plain = ""
        self.wrap_code = False             # code blocks cut at the width, not scrolled
        self._blocks: list[tuple[Text, bool] | tuple[Text, bool, int]] = []   # show_blocks'
        self._lines: list[Text | tuple[ProseLine, int]] = []   # `_blocks` laid out at `_width`
        self._strips: dict[int, Strip] = {}
        self._width = 0
        self._base = Style()               # the pane's style, taken when lines are drawn

    def set_title(self, title: str) -> None:
        """A new border title; the same one again redraws nothing (Textual redraws the whole
        pane for any title it is given). `title` is plain text, never markup."""
        if title != self._title:
            self._title = title
            self.border_title = literal(title)

    def show(self, text: Text) -> None:
        self.show_blocks([(text, False)])

    def show_blocks(self, blocks: list[tuple[Text, bool] | tuple[Text, bool, int]]) -> None:
        """Show `blocks` one under the other: (text, is_code) pairs; prose is word-wrapped, and
        a third item `hang` wraps each line of it under its cell `hang` (a hanging indent)."""
        self.plain = "\n".join(block[0].plain for block in blocks)
        self._blocks = blocks
        self.relayout()

    def set_wrap_code(self, wrap: bool) -> None:
        self.wrap_code = wrap
        self.relayout()

    def relayout(self) -> None:
        """Lay the text out again and redraw the rows on screen that changed: consecutive
        turns' requests mostly open with the same rows (a late turn's key redrew 45 rows
        for the two that differ)."""
        on_screen = self._rows_on_screen()
        self._width = 0                    # lay out again
        self._wrap()
        if not self._width:                # not laid out yet: drawn whole when it is
            self.refresh()
            return
        changed = []
        for index, (before, strip) in on_screen.items():
            after = self._row_or_none(index)
            if before is None and after is None:      # blank before and after
                continue
            if strip is not None and same_row(before, after):
                self._strips[index] = strip
            else:
                changed.append(index)
        for first, count in runs_of(changed):
            self.refresh_lines(first, count)

    def _rows_on_screen(self) -> dict[int, tuple[Text | None, Strip | None]]:
        """Each row index on screen: its text (None past the end) and the strip drawn for it
        (None: not drawn yet, or a blank row past the end)."""
        if not self._width:
            return {}
        top = self.scroll_offset.y
        return {i: (self._row_or_none(i), self._strips.get(i))
                for i in range(top, top + self.scrollable_content_region.height)}

    def _row_or_none(self, index: int) -> Text | None:
        return self.row_text(index) if index < len(self._lines) else None

    def on_resize(self) -> None:
        self._wrap()

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._width:
            return
        lines: list[Text | tuple[ProseLine, int]] = []
        for text, code, *hang in self._blocks:
            if not code:
                lines.extend(prose_rows(text, width, self.app.console, *hang))
            elif self.wrap_code:
                for line in text.split("\n", allow_blank=True):
                    lines.extend(cut_code_line(line, width))
            else:
                lines.extend(text.split("\n", allow_blank=True))
        self._lines = lines
        self._strips = {}
        self._width = width
        widest = max((line.cell_len for line in lines if isinstance(line, Text)), default=0)
        self.virtual_size = Size(max(width, widest), len(lines))

    def row_text(self, index: int) -> Text:
        """Row `index` of the text as laid out at the pane's width."""
        line = self._lines[index]
        return line if isinstance(line, Text) else line[0].piece(line[1])

    @property
    def laid_out(self) -> list[Text]:
        """Every row of the text as laid out (each made now: for tests and small texts)."""
        return [self.row_text(i) for i in range(len(self._lines))]

    def render_lines(self, crop):
        self._wrap()                       # at the width drawn at (a zoom sends no resize first)
        self._base = self.rich_style       # once for all the lines drawn: costly to make
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        if not self._width:                # laid out before each draw: else now
            self._wrap()
        base, width = self._base, self._width
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        if index >= len(self._lines):
            return Strip.blank(width, base)
        strip = self._strips.get(index)
        if strip is None:
            strip = self._strips[index] = self.draw_row(index)
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def draw_row(self, index: int) -> Strip:
        """Row `index` of the text as laid out, drawn at least as wide as the pane (render_line
        keeps it until the text, the width or the styles change)."""
        base, width = self._base, self._width
        segments = self.row_text(index).render(self.app.console, end="")
        segments = list(Segment.apply_style(segments, base))
        cells = Segment.get_line_length(segments)
        if cells < width:                  # filled to the edge now, not in a second strip
            segments.append(Segment(" " * (width - cells), base))
        return Strip(segments, max(cells, width))
