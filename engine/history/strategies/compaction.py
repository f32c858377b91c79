"""Strategy `compaction` (upstream's successor, May 2026): `full`, trimmed once it grows too big.

Until the trigger the request is exactly `full`'s. The trigger: more than `compaction_turns`
turns added, or an estimated token count above `compaction_tokens` (None: no token trigger).
The estimate is the characters of every message of the uncompacted request divided by 4
(upstream's heuristic; `engine.history` does not load a tokenizer, `engine.tokens` counts
properly): it fires when characters > 4 × compaction_tokens. From then on the request is
SYSTEM, the first USER message (the mission) and the last `keep_recent_turns` ASSISTANT/USER
pairs, verbatim; roles still alternate after SYSTEM. With `keep_recent_turns: 0` only SYSTEM
and the mission remain; the last feedback, and with it the turn line, goes too.

Stats are `full`'s, plus what the trim removed: `turns_dropped` lists the turns left out,
their calls and prints count as dropped and their non-nil results as unseen, and their
failed turns move from shown to collapsed.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping

from engine.history.stats import CallRef, RenderStats
from engine.history.strategies.registry import register
from engine.history.strategies.full import Full
from engine.history.turn import Turn

CHARS_PER_TOKEN = 4


@register
class Compaction(Full):
    name = "compaction"
    options = (*Full.options, "compaction_turns", "compaction_tokens", "keep_recent_turns")

    def __init__(self, context, opts):
        super().__init__(context, opts)
        self._chars = len(self._system["content"]) + len(self._mission["content"])
        # Per turn added: its number and how many of the calls, prints and non-nil results
        # of the successful turns came before it, so a render slices instead of walking.
        self._numbers: list[int] = []
        self._starts: list[tuple[int, int, int]] = []
        self._call_refs: list[CallRef] = []
        self._print_refs: list[CallRef] = []
        self._result_refs: list[CallRef] = []

    def add(self, turn: Turn) -> None:
        super().add(turn)
        self._chars += sum(len(m["content"]) for m in self._messages[-2:])
        self._numbers.append(turn.number)
        self._starts.append((len(self._call_refs), len(self._print_refs), len(self._result_refs)))
        if turn.success:
            self._call_refs += [CallRef(turn.number, i) for i in range(len(turn.tool_calls))]
            self._print_refs += [CallRef(turn.number, i) for i in range(len(turn.prints))]
            self._result_refs += [CallRef(turn.number, i) for i, call
                                  in enumerate(turn.tool_calls) if call.result is not None]

    def triggered(self) -> bool:
        """More than `compaction_turns` turns, or more estimated tokens than `compaction_tokens`."""
        tokens = self.opts.compaction_tokens
        return (len(self._numbers) > self.opts.compaction_turns
                or (tokens is not None and self._chars > CHARS_PER_TOKEN * tokens))

    def render(self, memory: Mapping) -> tuple[list[dict], RenderStats]:
        messages, stats = super().render(memory)
        drop = len(self._numbers) - self.opts.keep_recent_turns
        if self.context.single_shot or drop <= 0 or not self.triggered():
            return messages, stats
        messages = messages[:2] + messages[2 + 2 * drop:]
        return messages, self._trimmed_stats(stats, drop)

    def _trimmed_stats(self, stats: RenderStats, drop: int) -> RenderStats:
        """`full`'s stats with the first `drop` turns left out."""
        calls, prints, results = (self._starts[drop] if drop < len(self._starts)
                                  else (len(self._call_refs), len(self._print_refs),
                                        len(self._result_refs)))
        first_kept = CallRef(self._numbers[drop], -1) if drop < len(self._numbers) else None

        def kept(refs: tuple[CallRef, ...]) -> tuple[CallRef, ...]:
            return refs[bisect_left(refs, first_kept):] if first_kept else ()

        failed = stats.failed_turns_shown
        split = bisect_left(failed, first_kept.turn) if first_kept else len(failed)
        return RenderStats(
            self.name,
            tool_calls_total=stats.tool_calls_total,
            tool_calls_dropped=tuple(self._call_refs[:calls]) + kept(stats.tool_calls_dropped),
            prints_total=stats.prints_total,
            prints_dropped=tuple(self._print_refs[:prints]) + kept(stats.prints_dropped),
            failed_turns_shown=failed[split:],
            failed_turns_collapsed=tuple(sorted(stats.failed_turns_collapsed + failed[:split])),
            samples_omitted=stats.samples_omitted,
            results_unseen=tuple(self._result_refs[:results]) + kept(stats.results_unseen),
            turns_dropped=tuple(self._numbers[:drop]))
