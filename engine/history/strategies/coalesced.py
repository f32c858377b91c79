"""Strategy `coalesced` (the seeds' SingleUserCoalesced): everything in one USER message.

Messages: `[SYSTEM, USER]` (MSG-001/002). The USER content is, parts separated by a blank
line: the mission; the summary of every successful turn (`; Tool calls:` / `; No tool calls
made`, `; Function:`, `; Defined:`, `; Output:`, in that order); one `Your previous attempt`
block per failed turn, oldest first; the turn line (`Turns left: N`). With `max_turns: 1`
the USER message is the mission alone (SS-001). Rules: docs/history-rules.md.

Only successful turns feed the summary. What `add` folds in is kept as accumulated
state (calls, prints, definitions by name, failed blocks), so `render`
reads accumulated lists and never walks earlier turns again.

Stats: calls and prints are counted over successful turns; `tool_calls_dropped` and
`prints_dropped` are the oldest ones beyond the limits (counted before collapsing);
`samples_omitted` names the definitions listed without a sample because of the println rule
(never nil, empty or function values: those have no sample anyway); `results_unseen`
follows `engine.history.visibility`: nil, shown as a definition's sample, or printed by a
println of its own turn that is among the shown ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.history.samples import sample_text
from engine.history.sections import clean_doc, failed_block, system_prompt, turns_left_line
from engine.history.stats import CallRef, RenderStats
from engine.history.strategies.registry import register
from engine.history.turn import Turn
from engine.history.types import type_of
from engine.history.visibility import (Equality, ToolResults, ValueIndex, bucket,
                                       last_print_containing, printed_text)
from engine.lisp import ToolCall
from engine.lisp.values import is_fn

@dataclass
class _Call:
    ref: CallRef
    call: ToolCall
    turn_printed: bool
    print_index: int          # the last print of its turn showing its result (global index), or -1
    text: str | None = None   # `name(args)`, made when first shown


@dataclass(frozen=True)
class _Def:
    doc: str | None           # sanitised: no `;`, one line
    turn_printed: bool        # the turn that last defined the name printed something


@register
class Coalesced:
    name = "coalesced"
    options = ("println_limit", "tool_call_limit", "sample_limit", "sample_printable_limit",
               "args_limit", "args_printable_limit", "sample_rule", "errors")

    def __init__(self, context, opts):
        self.context, self.opts = context, opts
        self._system = system_prompt(context, opts.sample_limit, opts.sample_printable_limit)
        self._added = 0
        self._succeeded = False
        self._any_print = False
        self._last_failed = False
        self._calls: list[_Call] = []
        self._prints: list[tuple[CallRef, str]] = []
        self._print_refs: list[CallRef] = []     # the refs of _prints and _calls, kept apart
        self._call_refs: list[CallRef] = []      # so a render slices them at C speed
        self._defs: dict[str, _Def] = {}       # insertion order = order of first definition
        self._failed: list[tuple[int, str]] = []
        self._samples: dict[str, tuple[object, str | None]] = {}   # name -> (value, sample)
        self._lines: dict[str, tuple] = {}     # name -> (value, (info, shown), line result)
        self._equality = Equality()
        self._results = ToolResults(self._equality)

    # --- accumulating -------------------------------------------------------------------

    def add(self, turn: Turn) -> None:
        self._added += 1
        self._last_failed = not turn.success
        if not turn.success:
            self._failed.append((turn.number, failed_block(turn)))
            return
        self._succeeded = True
        printed = bool(turn.prints)
        self._any_print = self._any_print or printed
        first_print = len(self._prints)
        self._prints += [(CallRef(turn.number, i), text) for i, text in enumerate(turn.prints)]
        self._print_refs += [ref for ref, _ in self._prints[first_print:]]
        for i, call in enumerate(turn.tool_calls):
            seen_at = -1
            if printed:
                seen_at = last_print_containing(printed_text(call.result), turn.prints)
            entry = _Call(CallRef(turn.number, i), call, printed,
                          first_print + seen_at if seen_at >= 0 else -1)
            self._calls.append(entry)
            self._call_refs.append(entry.ref)
            self._results.add(entry.ref, call.result, entry.print_index)
        for d in turn.definitions:
            self._defs[d.name] = _Def(clean_doc(d.doc), printed)

    # --- rendering ----------------------------------------------------------------------

    def render(self, memory: Mapping) -> tuple[list[dict], RenderStats]:
        system = {"role": "system", "content": self._system}
        if self.context.single_shot:
            mission = {"role": "user", "content": self.context.mission}
            return [system, mission], RenderStats(self.name)
        summary, stats = (self._summary(memory) if self._succeeded
                          else (None, RenderStats(self.name)))
        shown, collapsed = self._failed_shown()
        parts = [self.context.mission, summary, *(block for _, block in shown),
                 turns_left_line(self._added + 1, self.context.max_turns)]
        stats = replace(stats, failed_turns_shown=tuple(n for n, _ in shown),
                        failed_turns_collapsed=tuple(n for n, _ in collapsed))
        user = "\n\n".join(p for p in parts if p)
        return [system, {"role": "user", "content": user}], stats

    def _failed_shown(self):
        """ERR-002: every failed turn; `errors: "unrecovered"`: the last turn only, while
        it is still failing."""
        if self.opts.errors == "all":
            return self._failed, []
        if self._last_failed:
            return self._failed[-1:], self._failed[:-1]
        return [], self._failed

    def _summary(self, memory: Mapping) -> tuple[str, RenderStats]:
        defs = [(name, memory[name], info) for name, info in self._defs.items() if name in memory]
        current = ValueIndex(equality=self._equality)
        sampled: list = []
        omitted: list[str] = []
        def_lines = self._definition_lines(defs, current, sampled, omitted)
        call_lines, calls_dropped = self._call_lines(current)
        out_lines, prints_dropped, window = self._output_lines()
        stats = RenderStats(
            self.name,
            tool_calls_total=len(self._calls), tool_calls_dropped=calls_dropped,
            prints_total=len(self._prints), prints_dropped=prints_dropped,
            samples_omitted=tuple(omitted),
            results_unseen=self._results.unseen(sampled, window))
        return "\n".join(call_lines + def_lines + out_lines), stats

    def _samples_shown(self, info: _Def) -> bool:
        """SAM-001/002: samples only where the defining turn printed nothing (or, under
        `sample_rule: "global"`, where no turn printed anything)."""
        if self.opts.sample_rule == "global":
            return not self._any_print
        return not info.turn_printed

    def _sample(self, name: str, value) -> str | None:
        cached = self._samples.get(name)
        if cached is not None and cached[0] is value:
            return cached[1]
        text = sample_text(value, self.opts.sample_limit, self.opts.sample_printable_limit)
        self._samples[name] = (value, text)
        return text

    def _definition_lines(self, defs, current: ValueIndex, sampled: list,
                          omitted: list[str]) -> list[str]:
        """FMT-004..008: functions first, then values; one line per name, latest wins.
        Fills `current` with every value and `sampled` with those shown with a sample."""
        functions, values = [], []
        for name, value, info in defs:
            kind, line, sample_shown, fp = self._definition_line(name, value, info)
            current.add(value, fp)
            if kind == "fn":
                functions.append(line)
                continue
            if sample_shown:
                sampled.append(value)
            elif sample_shown is False:
                omitted.append(name)
            values.append(line)
        return functions + values

    def _definition_line(self, name: str, value, info: _Def):
        """("fn" or "value", the line, whether its sample is shown (None when it has none),
        the value's bucket). Cached while the name keeps the same value and docstring."""
        shown = self._samples_shown(info)
        cached = self._lines.get(name)
        if cached is not None and cached[0] is value and cached[1] == (info, shown):
            return cached[2]
        doc = f' - "{info.doc}"' if info.doc else ""
        fp = bucket(value)
        if is_fn(value):
            result = ("fn", f"; Function: {name}{doc}", None, fp)
        else:
            line = f"; Defined: {name}{doc} = {type_of(value)}"
            sample = self._sample(name, value)
            if sample is not None and shown:
                line += f", sample: {sample}"
            result = ("value", line, None if sample is None else shown, fp)
        self._lines[name] = (value, (info, shown), result)
        return result

    def _call_lines(self, current: ValueIndex) -> tuple[list[str], tuple[CallRef, ...]]:
        """FMT-001..003, TC-002..008: the last `tool_call_limit` calls, consecutive equal
        ones collapsed (`x3`), with the result's type where no print or definition shows it."""
        if not self._calls:
            return ["; No tool calls made"], ()
        keep = min(self.opts.tool_call_limit, len(self._calls))
        cut = len(self._calls) - keep
        dropped = tuple(self._call_refs[:cut])
        lines: list[str] = []
        previous, count = None, 0
        for c in self._calls[cut:]:
            if c.text is None:
                c.text = c.call.call_text(self.opts.args_limit, self.opts.args_printable_limit)
            entry = (c, c.text, self._result_type(c, current))
            if previous is not None and self._same_entry(previous, entry):
                count += 1
                continue
            if previous is not None:
                lines.append(_call_line(previous, count))
            previous, count = entry, 1
        if previous is not None:
            lines.append(_call_line(previous, count))
        return (["; Tool calls:"] + lines if lines else []), dropped

    def _same_entry(self, a, b) -> bool:
        """TC-008: same name, same arguments (PTC `=`, bounded), same type suffix."""
        (ca, text_a, type_a), (cb, text_b, type_b) = a, b
        return (text_a == text_b and type_a == type_b
                and self._equality.equal(ca.call.args, cb.call.args))

    def _result_type(self, c: _Call, current: ValueIndex) -> str | None:
        """003 "Key Clarifications": a result no print can have shown and no definition
        holds is described by its type (never its value, TC-004)."""
        printed = self._any_print if self.opts.sample_rule == "global" else c.turn_printed
        if printed or c.call.result in current:
            return None
        return type_of(c.call.result)

    def _output_lines(self) -> tuple[list[str], tuple[CallRef, ...], int]:
        """TRN-006/010, FMT-009/010: the last `println_limit` println calls, as printed."""
        keep = min(self.opts.println_limit, len(self._prints))
        cut = len(self._prints) - keep
        dropped = tuple(self._print_refs[:cut])
        lines = ["; Output:"] + [text for _, text in self._prints[cut:]] if keep else []
        return lines, dropped, cut

def _call_line(entry, count: int) -> str:
    _, text, result_type = entry
    line = f";   {text}"
    if count > 1:
        line += f" x{count}"
    if result_type is not None:
        line += f" -> {result_type}"
    return line
