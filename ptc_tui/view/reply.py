"""The model's reply to one turn's request, split into its prose and the code blocks the agent ran,
and folded to the first lines of each piece of prose; plain data for the program pane and the
compare screen."""

from __future__ import annotations

from dataclasses import dataclass

from engine.agent.extract import program_spans
from ptc_tui.view.formats import count_text
from ptc_tui.view.panes import clipped
from ptc_tui.view.plain_text import text_lines

FOLDED_LINES = 3          # lines of each piece of prose shown while the reply is folded


@dataclass(frozen=True)
class ReplyPart:
    text: str
    ran: bool             # a code block the agent ran as (part of) the program

    @property
    def code_lines(self) -> int:
        """Lines of code in a run block, its fences not counted."""
        lines = text_lines(self.text)
        return len(lines) - 2 * (len(lines) >= 2 and lines[0].startswith("```"))


@dataclass(frozen=True)
class ReplyView:
    parts: tuple[ReplyPart, ...]

    @property
    def has_code(self) -> bool:
        return any(p.ran for p in self.parts)

    @property
    def prose_lines(self) -> int:
        return sum(len(text_lines(p.text)) for p in self.parts if not p.ran)

    def folded(self) -> tuple[tuple[ReplyPart, int], ...]:
        """Each part as shown while the reply is folded, with how many of its lines are left
        out: the first FOLDED_LINES of each piece of prose; a run code block is left out whole
        (the program is shown below it). A reply with no code is never folded."""
        if not self.has_code:
            return tuple((p, 0) for p in self.parts)
        shown = []
        for p in self.parts:
            lines = text_lines(p.text)
            if p.ran:
                shown.append((p, len(lines)))
            else:
                kept = min(len(lines), FOLDED_LINES)
                shown.append((ReplyPart("\n".join(lines[:kept]), False), len(lines) - kept))
        return tuple(shown)

    @property
    def foldable(self) -> bool:
        """Whether folding hides anything (prose longer than FOLDED_LINES, or a code block)."""
        return any(left for _, left in self.folded())


def reply_view(raw: str) -> ReplyView:
    """`raw` (an LLM reply) as prose and run code blocks, each clipped like any pane text;
    blank prose between blocks is dropped."""
    text, spans = program_spans(raw)
    parts, at = [], 0
    for start, end in spans:
        parts.append(ReplyPart(text[at:start].strip("\n"), False))
        parts.append(ReplyPart(text[start:end], True))
        at = end
    parts.append(ReplyPart(text[at:].strip("\n"), False))
    return ReplyView(tuple(ReplyPart(clipped(p.text), p.ran) for p in parts
                           if p.ran or p.text.strip()))


RAN = "▌ "                # the gutter of a code block the agent ran


def reply_lines(reply: ReplyView, expanded: bool) -> tuple[tuple[str, str], ...]:
    """The reply as (kind, line): "prose", "ran" (a line of a run code block, in its gutter;
    folded, one line saying the block ran) and "more" (how many lines folding left out)."""
    lines: list[tuple[str, str]] = []
    for part, left in (tuple((p, 0) for p in reply.parts) if expanded else reply.folded()):
        if part.ran and not expanded:
            n = part.code_lines
            lines.append(("ran", f"{RAN}{count_text(n, 'line')} of code: ran as the program below"))
        elif part.ran:
            lines += [("ran", RAN + line) for line in part.text.split("\n")]
        else:
            lines += [("prose", line) for line in part.text.split("\n")]
            if left:
                lines.append(("more", f"… {count_text(left, 'more line')} (r)"))
    return tuple(lines) or (("more", "(an empty reply)"),)
