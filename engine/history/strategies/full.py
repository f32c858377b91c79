"""Strategy `full` (compression off): the whole conversation, every reply as it was sent.

Messages: SYSTEM, USER(mission), then per turn the ASSISTANT reply as sent and a USER
feedback message. A successful turn's feedback is its println output (joined by newlines,
cut at 512 characters with a note), `Stored (access as symbols): a, b` (the names in memory
after the turn) and the turn line of the next turn (`Turn 2 of 5 (4 remaining)`); a failed
turn's feedback is its error and the turn line. With `max_turns: 1` the request is only
SYSTEM and USER(mission) (SS-001). Rules: docs/history-rules.md.

Stats: tool calls and prints are counted over successful turns (a failed turn's prints are
not shown; its calls show only in its reply). `prints_dropped` lists the println calls the
512-character cut removed in whole or in part. `results_unseen` follows
`engine.history.visibility`; `full` shows no samples, so a result counts as seen only when
a print of its turn shows its printed text in the part of the output that survived the cut.
Every message is built once, when its turn is added; `render` only copies them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.history.sections import system_prompt, turn_of_line
from engine.history.stats import CallRef, RenderStats
from engine.history.strategies.registry import register
from engine.history.turn import Turn, error_text
from engine.history.visibility import printed_text

OUTPUT_CHARS = 512
TRUNCATED_NOTE = "\n... (truncated, use println selectively)"


def cut_output(prints: Sequence[str]) -> tuple[str, list[str]]:
    """The feedback text of `prints` and, per print, the part of it that survived the cut."""
    joined = "\n".join(prints)
    if len(joined) <= OUTPUT_CHARS:
        return joined, list(prints)
    visible, start = [], 0
    for text in prints:
        visible.append(text[:max(0, OUTPUT_CHARS - start)])
        start += len(text) + 1
    return joined[:OUTPUT_CHARS] + TRUNCATED_NOTE, visible


def stored_line(memory: Mapping) -> str | None:
    if not memory:
        return None
    return "Stored (access as symbols): " + ", ".join(sorted(memory))


@register
class Full:
    name = "full"
    options = ("sample_limit", "sample_printable_limit")    # the data samples of the prompt

    def __init__(self, context, opts):
        self.context, self.opts = context, opts
        self._system = {"role": "system", "content": system_prompt(
            context, opts.sample_limit, opts.sample_printable_limit)}
        self._mission = {"role": "user", "content": context.mission}
        self._messages: list[dict] = []
        self._calls_total = 0
        self._prints_total = 0
        self._prints_dropped: list[CallRef] = []
        self._failed: list[int] = []
        self._unseen: list[CallRef] = []

    def add(self, turn: Turn) -> None:
        self._messages.append({"role": "assistant", "content": turn.raw_response})
        self._messages.append({"role": "user", "content": self._feedback(turn)})

    def _feedback(self, turn: Turn) -> str:
        next_line = turn_of_line(turn.number + 1, self.context.max_turns)
        if not turn.success:
            self._failed.append(turn.number)
            return error_text(turn.error) + "\n" + next_line
        output, visible = cut_output(turn.prints)
        self._count(turn, visible)
        parts = [output, stored_line(turn.memory), next_line]
        return "\n".join(p for p in parts if p)

    def _count(self, turn: Turn, visible: list[str]) -> None:
        """Fold the turn's calls and prints into the stats, once."""
        self._calls_total += len(turn.tool_calls)
        self._prints_total += len(turn.prints)
        self._prints_dropped += [CallRef(turn.number, i) for i, (text, shown)
                                 in enumerate(zip(turn.prints, visible)) if len(shown) < len(text)]
        shown_any = any(visible)
        for i, call in enumerate(turn.tool_calls):
            if call.result is None:
                continue
            needle = printed_text(call.result) if shown_any else None
            if needle is None or not any(needle in shown for shown in visible):
                self._unseen.append(CallRef(turn.number, i))

    def render(self, memory: Mapping) -> tuple[list[dict], RenderStats]:
        # Each request is a new list of the same message dicts (never changed once made): a
        # copy of every message for every request made a 1,000-turn run's requests, which the
        # app keeps, a million dicts (180 MB).
        if self.context.single_shot:
            return [self._system, self._mission], RenderStats(self.name)
        messages = [self._system, self._mission, *self._messages]
        return messages, RenderStats(
            self.name,
            tool_calls_total=self._calls_total,
            prints_total=self._prints_total,
            prints_dropped=tuple(self._prints_dropped),
            failed_turns_shown=tuple(self._failed),
            results_unseen=tuple(self._unseen))
