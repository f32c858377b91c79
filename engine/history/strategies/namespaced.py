"""Strategy `namespaced`: the later upstream format, everything in one USER message.

Messages: `[SYSTEM, USER]`. SYSTEM holds only the language reference (docs/history-rules.md,
ARC-008); the USER message holds, as parts joined by a blank line, empty parts left out:

1. the mission;
2. `;; === tools ===` and `;; === data/ ===` (`engine.history.sections`);
3. `;; === user/ (your prelude) ===`: the memory, functions first as
   `(name [params])  ; "doc"`, then values as `name  ; "doc" = type, sample: s`, each group
   in the order names were first defined. Upstream also showed a function's last return type
   (`-> integer`); our engine does not record it, so it is left out;
4. `;; Tool calls made:` with `;;   name(args)` lines, the last `tool_call_limit` calls of the
   successful turns (or `;; No tool calls made`), then `;; Output:` with their last
   `println_limit` println calls; both absent before the first turn;
5. the last turn's program and error, only while it is still failing (the last turn added
   failed); earlier failed turns are collapsed;
6. `Turns left: N`, N counting the turns after the requested one, and the final-turn warning
   when N is 0.
With `max_turns: 1` the USER message is the mission, tools and data, with no turn line.

Samples or output (SAM-001/002), decided once for the whole run: values show samples only while
no successful turn has printed. Upstream decided it by whether a *tool* named println existed,
so printed output never reached the model; we use whether anything was printed. `sample_rule`
and `errors` are `coalesced`'s options and do not apply here. A failed turn adds nothing but its
error block: its definitions were rolled back and its calls and prints are not shown.

Stats, as `coalesced` counts them: calls and prints over successful turns, the dropped ones
those beyond the limits; `samples_omitted` the values listed without their sample because
something printed; `results_unseen` per `engine.history.visibility`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.history.samples import sample_text
from engine.history.sections import clean_doc, data_section, failed_block, tools_section
from engine.history.stats import CallRef, RenderStats
from engine.history.strategies.registry import register
from engine.history.turn import Turn
from engine.history.types import type_of
from engine.history.visibility import Equality, ToolResults, last_print_containing, printed_text
from engine.lisp import format_value
from engine.lisp.values import is_fn

FINAL_TURN = "FINAL TURN - you must call (return result) or (fail reason) now."


@register
class Namespaced:
    name = "namespaced"
    options = ("println_limit", "tool_call_limit", "sample_limit", "sample_printable_limit",
               "args_limit", "args_printable_limit")

    def __init__(self, context, opts):
        self.context, self.opts = context, opts
        self._head = [context.mission, tools_section(context),
                      data_section(context, opts.sample_limit, opts.sample_printable_limit)]
        self._added = 0
        self._last: Turn | None = None
        self._docs: dict[str, str | None] = {}        # latest docstring of each name, sanitised
        self._calls: list[tuple[CallRef, str]] = []    # successful turns' calls: ref, `name(args)`
        self._results = ToolResults(Equality())
        self._prints: list[tuple[CallRef, str]] = []
        self._failed: list[int] = []
        self._entries: dict[str, tuple] = {}            # name -> (value, doc, line, sample)

    def add(self, turn: Turn) -> None:
        self._added += 1
        self._last = turn
        if not turn.success:
            self._failed.append(turn.number)
            return
        for d in turn.definitions:
            self._docs[d.name] = clean_doc(d.doc)
        first_print = len(self._prints)
        self._prints += [(CallRef(turn.number, i), text) for i, text in enumerate(turn.prints)]
        for i, call in enumerate(turn.tool_calls):
            ref = CallRef(turn.number, i)
            self._calls.append((ref, ";;   " + call.call_text(self.opts.args_limit,
                                                              self.opts.args_printable_limit)))
            if call.result is not None:
                at = last_print_containing(printed_text(call.result), turn.prints)
                self._results.add(ref, call.result, first_print + at if at >= 0 else -1)

    def render(self, memory: Mapping) -> tuple[list[dict], RenderStats]:
        if self.context.single_shot:
            return self._messages(self._head), RenderStats(self.name)
        sampled: list = []
        prelude, omitted = self._prelude(memory, sampled)
        calls_cut = _cut(len(self._calls), self.opts.tool_call_limit)
        prints_cut = _cut(len(self._prints), self.opts.println_limit)
        parts = [*self._head, prelude]
        if self._added:
            parts += [self._tool_calls_text(calls_cut), self._output_text(prints_cut)]
        still_failing = self._last is not None and not self._last.success
        if still_failing:
            parts.append(failed_block(self._last))
        left = self.context.max_turns - self._added - 1
        parts.append(FINAL_TURN if left <= 0 else f"Turns left: {left}")
        shown = (self._last.number,) if still_failing else ()
        stats = RenderStats(
            self.name,
            tool_calls_total=len(self._calls),
            tool_calls_dropped=tuple(ref for ref, _ in self._calls[:calls_cut]),
            prints_total=len(self._prints),
            prints_dropped=tuple(ref for ref, _ in self._prints[:prints_cut]),
            failed_turns_shown=shown,
            failed_turns_collapsed=tuple(n for n in self._failed if n not in shown),
            samples_omitted=omitted,
            results_unseen=self._results.unseen(sampled, prints_cut))
        return self._messages(parts), stats

    def _messages(self, parts) -> list[dict]:
        return [{"role": "system", "content": self.context.reference},
                {"role": "user", "content": "\n\n".join(p for p in parts if p)}]

    def _prelude(self, memory: Mapping, sampled: list):
        """The user/ section and the names whose sample it leaves out because something
        printed; every value shown with its sample goes into `sampled`."""
        printed = bool(self._prints)
        functions, values, omitted = [], [], []
        for name, value in memory.items():
            line, sample = self._entry(name, value)
            if is_fn(value):
                functions.append(line)
                continue
            if sample is not None:
                if printed:
                    omitted.append(name)
                else:
                    line += f", sample: {sample}"
                    sampled.append(value)
            values.append(line)
        if not functions and not values:
            return None, ()
        return "\n".join([";; === user/ (your prelude) ===", *functions, *values]), tuple(omitted)

    def _entry(self, name: str, value) -> tuple[str, str | None]:
        """A name's line without its sample, and the sample; made once per value and doc."""
        doc = self._docs.get(name)
        cached = self._entries.get(name)
        if cached is not None and cached[0] is value and cached[1] == doc:
            return cached[2], cached[3]
        if is_fn(value):
            line, sample = f"({name} [{_params(value)}])" + (f'  ; "{doc}"' if doc else ""), None
        else:
            line = f"{name}  ; " + (f'"{doc}" ' if doc else "") + f"= {type_of(value)}"
            sample = sample_text(value, self.opts.sample_limit, self.opts.sample_printable_limit)
        self._entries[name] = (value, doc, line, sample)
        return line, sample

    def _tool_calls_text(self, cut: int) -> str | None:
        """`;; No tool calls made`; with `tool_call_limit: 0` and calls made, nothing."""
        if not self._calls:
            return ";; No tool calls made"
        lines = [text for _, text in self._calls[cut:]]
        return "\n".join([";; Tool calls made:", *lines]) if lines else None

    def _output_text(self, cut: int) -> str | None:
        lines = [text for _, text in self._prints[cut:]]
        return "\n".join([";; Output:", *lines]) if lines else None


def _cut(total: int, limit: int) -> int:
    """How many of the oldest entries fall to a FIFO limit (TC-007, TRN-010)."""
    return total - min(limit, total)


def _params(fn) -> str:
    """`x y` from the printer's `#fn[x y]`; a builtin held as a value takes any arguments."""
    text = format_value(fn)[0]
    return text[4:-1] if text.startswith("#fn[") else "& args"
