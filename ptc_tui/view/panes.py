"""The three panes of one turn: the program and what it did, what the LLM saw, the memory."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from engine.history import HistoryOpts, Turn, type_of
from engine.history.samples import sample_text
from engine.lisp import PtcError, format_value
from ptc_tui.view.dropped import Dropped
from ptc_tui.view.pretty import pretty

# The program pane shows what the program did, not what the LLM saw: wider cuts than a sample.
PANE_ITEMS = 10
PANE_CHARS = 200


# One block of text in a pane (a program, a print, a message) is cut here: Textual wraps a
# whole text to lay it out, and a 20,000-line print took 7 s a key press. Search, copy and
# save use the trace itself, never the cut text.
BLOCK_LINES = 300
BLOCK_CHARS = 30_000
# A message asked for whole (`e`) is cut only where the compare screen cuts a side.
WHOLE_LINES = 5_000
WHOLE_CHARS = 200_000


def value_text(value) -> str:
    return format_value(value, PANE_ITEMS, PANE_CHARS)[0]


def clipped(text: str, max_lines: int = BLOCK_LINES, max_chars: int = BLOCK_CHARS) -> str:
    """`text`, or its first `max_lines` lines and `max_chars` characters with a line saying how
    much was left out."""
    if len(text) <= max_chars and text.count("\n") < max_lines:
        return text
    kept = "\n".join(text.split("\n", max_lines)[:max_lines])[:max_chars]
    lines_left = text.count("\n") - kept.count("\n")
    return (f"{kept}\n… {len(text) - len(kept):,} more characters ({lines_left:,} more lines) "
            "not shown here; the trace has them all")


@dataclass(frozen=True)
class ErrorView:
    reason: str
    message: str
    hint: str | None
    line: int | None          # where to mark the program: 1-based, end exclusive
    col: int | None
    end_line: int | None
    end_col: int | None
    text: str                 # as the LLM read it: `reason: message at 2:1 (hint: ...)`


@dataclass(frozen=True)
class ToolCallView:
    name: str
    call: str                 # `search("x" 5)`
    result: str | None        # None when the call failed
    error: str | None
    duration_ms: float


@dataclass(frozen=True)
class ProgramPane:
    program: str | None
    error: ErrorView | None
    prints: tuple[str, ...]
    tool_calls: tuple[ToolCallView, ...]
    result: str | None        # None when the program failed or had no code
    signal: str | None


@dataclass(frozen=True)
class MessageView:
    role: str
    content: str              # cut as every block of a pane is
    tokens: int
    whole: str = ""           # the same, cut only past WHOLE_LINES / WHOLE_CHARS (`e`)

    @classmethod
    def of(cls, message: dict, tokens: int) -> "MessageView":
        text = message.get("content") or ""
        return cls(message["role"], clipped(text), tokens, clipped(text, WHOLE_LINES, WHOLE_CHARS))


@dataclass(frozen=True)
class MessagePane:
    messages: tuple[MessageView, ...]
    tokens: int               # the whole request, chat overhead included
    full_tokens: int          # the same request under `full`
    dropped: tuple[Dropped, ...]

    @property
    def difference(self) -> int:
        """Tokens this strategy saved against `full` (negative: it cost more)."""
        return self.full_tokens - self.tokens


@dataclass(frozen=True)
class MemoryRow:
    name: str
    type: str
    sample: str | None
    doc: str | None
    defined_in: int | None    # the turn that last defined it (None: never seen defined)
    changed: bool             # defined or redefined in this turn
    defined_before: tuple[int, ...] = ()   # earlier turns that defined it, oldest first
    value: object = field(default=None, compare=False, repr=False)
    texts: dict | None = field(default=None, compare=False, repr=False)   # kept (memory_rows)

    @cached_property
    def whole(self) -> str:
        """The whole value, pretty-printed over several lines (cut late): made when the row
        is chosen, not for every row of every turn shown, and kept in `texts` for the turns
        after that hold the same value."""
        if self.texts is None:
            return whole_text(self.value)
        return kept_text(self.texts, self.value, ("whole", id(self.value)), whole_text)


def whole_text(value) -> str:
    return clipped(pretty(value))


def kept_text(texts: dict, value, key: tuple, make) -> str | None:
    """`make(value)`, kept in `texts` under `key` (which holds the value's id) for as long as
    that id is this value's (the id of a value gone is reused)."""
    found = texts.get(key)
    if found is None or found[0] is not value:
        found = texts[key] = (value, make(value))
    return found[1]


def error_view(error: PtcError | None) -> ErrorView | None:
    if error is None:
        return None
    span = error.span
    return ErrorView(error.reason, error.message, error.hint,
                     *((span.line, span.col, span.end_line, span.end_col) if span else (None,) * 4),
                     str(error))


def program_pane(turn: Turn, opts: HistoryOpts) -> ProgramPane:
    calls = tuple(ToolCallView(c.name, c.call_text(opts.args_limit, opts.args_printable_limit),
                               None if c.error is not None else value_text(c.result),
                               c.error, c.duration_ms) for c in turn.tool_calls)
    ran = turn.program is not None and turn.error is None
    program = clipped(turn.program) if turn.program is not None else None
    return ProgramPane(program, error_view(turn.error), tuple(map(clipped, turn.prints)), calls,
                       value_text(turn.result) if ran else None, turn.signal)


def memory_rows(turns: Mapping[int, Turn], number: int, opts: HistoryOpts,
                samples: dict | None = None) -> tuple[MemoryRow, ...]:
    """The memory after turn `number`; a failed turn's definitions were rolled back, so only
    turns without an error count as defining a name. `samples` keeps each value's sample text
    between calls (the turns of a run share most of their memory's values, so a key press on a
    long run samples only the values its turn changed); the whole value is printed only for
    the row chosen (`MemoryRow.whole`), and kept there too."""
    samples = {} if samples is None else samples

    def sample(value) -> str | None:
        return kept_text(samples, value, (id(value), opts.sample_limit,
                                          opts.sample_printable_limit),
                         lambda v: sample_text(v, opts.sample_limit, opts.sample_printable_limit))

    defined: dict[str, list[int]] = {}
    docs: dict[str, str | None] = {}
    for n in sorted(k for k in turns if k <= number):
        if turns[n].error is None:
            for d in turns[n].definitions:
                turns_of = defined.setdefault(d.name, [])
                if n not in turns_of:
                    turns_of.append(n)
                docs[d.name] = d.doc
    rows = []
    for name, value in turns[number].memory.items():
        by = defined.get(name, [])
        rows.append(MemoryRow(name, type_of(value),
                              sample(value),
                              docs.get(name), by[-1] if by else None, bool(by) and by[-1] == number,
                              tuple(by[:-1]), value, samples))
    return tuple(rows)
