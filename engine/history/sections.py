"""Text blocks several strategies share: the tools and data sections, the turn lines."""

from __future__ import annotations

from engine.history.context import RenderContext
from engine.history.samples import sample_text
from engine.history.turn import Turn, error_text
from engine.history.types import type_of

NO_CODE = "(no code found)"
FINAL_TURN = "⚠️ FINAL TURN - you must call (return result) or (fail response) next."


def tools_section(context: RenderContext) -> str:
    """`;; === tools ===` and one line per tool: `tool/search(query string) -> [string]  ; doc`."""
    if not context.tools:
        return ";; No tools available"
    lines = [";; === tools ==="]
    for tool in context.tools:
        line = f"tool/{tool.name}{tool.signature}"
        if tool.description:
            line += "  ; " + " ".join(tool.description.split())
        lines.append(line)
    return "\n".join(lines)


def data_section(context: RenderContext, limit: int, printable_limit: int) -> str | None:
    """`;; === data/ ===` and one line per input: name padded to 30 columns, type and sample
    (`limit` items per collection, `printable_limit` characters per string)."""
    if not context.data:
        return None
    lines = [";; === data/ ==="]
    for name, value in context.data.items():
        label = f"data/{name}".ljust(29) + " "
        sample = sample_text(value, limit, printable_limit)
        lines.append(f"{label}; {type_of(value)}" + (f", sample: {sample}" if sample else ""))
    return "\n".join(lines)


def system_prompt(context: RenderContext, limit: int, printable_limit: int) -> str:
    """The SYSTEM message of `full`, `coalesced` and `compaction`: the language reference,
    then the tools and the input data. It never changes during a run (docs/history-rules.md, MSG-006)."""
    parts = [context.reference.strip(), tools_section(context),
             data_section(context, limit, printable_limit)]
    return "\n\n".join(p for p in parts if p)


def turns_left_line(turn: int, max_turns: int) -> str:
    """MSG-005: `Turns left: N`, N counting the turn being requested; the warning when N is 1."""
    left = max_turns - turn + 1
    return FINAL_TURN if left <= 1 else f"Turns left: {left}"


def turn_of_line(turn: int, max_turns: int) -> str:
    """`full`'s feedback line: `Turn 2 of 5 (4 remaining)`; the warning on the last turn."""
    left = max_turns - turn + 1
    return FINAL_TURN if left <= 1 else f"Turn {turn} of {max_turns} ({left} remaining)"


def clean_doc(doc: str | None) -> str | None:
    """DEF-007: every `;` removed; newlines and whitespace runs become one space."""
    if not doc:
        return None
    return " ".join(doc.replace(";", "").split()) or None


def failed_block(turn: Turn) -> str:
    """A failed turn kept in full (CMP-002, ERR-001..003): its code and its error. A reply
    cut at the output limit shows where it was cut instead: code taken from before the cut
    would look whole and finished, which is what the model must not believe."""
    if turn.error.reason == "truncated":
        return (f"---\nYour previous reply was cut off; it ended with:\n"
                f"{reply_end(turn.raw_response)}\n\n{error_text(turn.error)}\n---")
    program = turn.program.rstrip() if turn.program is not None else NO_CODE
    return (f"---\nYour previous attempt:\n```clojure\n{program}\n```\n\n"
            f"{error_text(turn.error)}\n---")


def reply_end(reply: str, lines: int = 3, chars: int = 300) -> str:
    """The last `lines` lines of `reply` (at most `chars` characters), "..." before them
    when something came before."""
    end = "\n".join(reply.rstrip().split("\n")[-lines:])[-chars:]
    return end if len(end) == len(reply.rstrip()) else "..." + end
