"""TraceView: one loaded trace seen under one strategy and set of options — the turn list,
the header, the panes of a turn, navigation, search and diffs, all plain data."""

from __future__ import annotations

import difflib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property

from engine.history import BASELINE, HistoryOpts
from engine.tokens import cache_policy, caching_cost
from engine.trace import Trace
from engine.trace.lazy_turns import decoded_turns
from ptc_tui.view.calls import CallView, RunTotals, call_view, prices_or_none, run_totals
from ptc_tui.view.token_stats import saving_percent
from ptc_tui.view.dropped import dropped_items
from ptc_tui.view.panes import (MemoryRow, MessagePane, MessageView, ProgramPane,
                                memory_rows, program_pane)
from ptc_tui.view.renders import Renders, Rendering
from ptc_tui.view.reply import ReplyView, reply_view
from ptc_tui.view.status import outcome_text, status
from ptc_tui.view.turns_by_number import TurnsByNumber
from ptc_tui.view.plain_text import text_lines

FAILED = ("error", "fail", "no_code")


@dataclass(frozen=True)
class TurnRow:
    number: int
    status: str               # ok, error, return, fail, no_code; pending: not read yet
    tokens: int | None        # input tokens under the current strategy (None: not counted yet)
    full_tokens: int | None   # under `full`
    origin: str = ""          # in a fork: "parent" (taken over as recorded) or "fork" (what-if)
    what_if: bool = False     # `tokens` counts a request under other options than the recorded


@dataclass(frozen=True)
class TurnView:
    number: int
    status: str
    program: ProgramPane
    messages: MessagePane
    memory: tuple[MemoryRow, ...]
    origin: str = ""          # as TurnRow.origin
    request_note: str | None = None   # a fork's parent turn: its request was sent otherwise
    reply: ReplyView = ReplyView(())  # what the LLM replied
    call: CallView | None = None      # the LLM call as recorded
    what_if: bool = False             # the messages are rendered under other options than
                                      # the recorded ones: what the LLM would have seen


@dataclass(frozen=True)
class CachingSaving:
    """The shown strategy's input cost with a provider's prompt caching against `full`'s."""
    model: str                        # the model whose prices were applied
    saved_percent: float | None       # less than full's, in % of it (negative: more; None:
                                      # the price is unknown)


@dataclass(frozen=True)
class Header:
    mission: str              # first line
    mission_full: str
    llm: str
    outcome: str              # returned / failed: reason / out of turns / running
    strategy: str
    limits: tuple[tuple[str, object], ...]
    tokens: int | None        # None: the turns are still being counted
    full_tokens: int | None
    saved: int
    saved_percent: float | None
    fork: str | None = None   # a fork: its parent, and what is recorded and what is what-if
    recorded_strategy: str = ""       # the options the trace was recorded with
    recorded_limits: tuple[tuple[str, object], ...] = ()
    totals: RunTotals | None = None   # the recorded LLM calls, summed (None: no call yet)
    failed_call: str | None = None    # a live run's LLM call that failed (n retries it)
    caching: CachingSaving | None = None  # caching on (the token view's `c`) for a provider
                                          # that caches: the cost saving with it

    @property
    def what_if(self) -> bool:
        """The options on screen are not the recorded ones."""
        return (self.strategy, self.limits) != (self.recorded_strategy, self.recorded_limits)


@dataclass(frozen=True)
class SearchHit:
    turn: int
    where: str                # "program", "prints" or "messages"
    line: str
    line_no: int              # 1-based within the program, the prints or the message


@dataclass(frozen=True)
class TraceView:
    trace: Trace = field(repr=False)     # a repr of a whole trace helps no one
    opts: HistoryOpts
    renders: Renders = field(compare=False, repr=False)

    @classmethod
    def of(cls, trace: Trace, opts: HistoryOpts | None = None,
           renders: Renders | None = None) -> "TraceView":
        """A view of `trace` under `opts` (default: the options it was recorded with)."""
        return cls(trace, opts or trace.agent.history,
                   renders if renders is not None else Renders(trace))

    # --- options --------------------------------------------------------------------------
    def with_options(self, **changes) -> "TraceView":
        return self.with_opts(self.opts.with_changes(**changes))

    def with_opts(self, opts: HistoryOpts) -> "TraceView":
        return TraceView(self.trace, opts, self.renders)

    def with_strategy(self, name: str) -> "TraceView":
        return self.with_options(strategy=name)

    @property
    def strategy(self) -> str:
        return self.opts.strategy

    @property
    def recorded_opts(self) -> HistoryOpts:
        return self.trace.agent.history

    @property
    def what_if(self) -> bool:
        """Whether the options on screen differ from those the trace was recorded with (what
        is shown is then what the LLM would have seen, not what it saw)."""
        return self.opts != self.recorded_opts

    @property
    def rendering(self) -> Rendering:
        return self.renders.get(self.opts)

    @property
    def full_rendering(self) -> Rendering:
        return self.renders.get(self.opts.with_changes(strategy=BASELINE))

    # --- turns ----------------------------------------------------------------------------
    @cached_property
    def turns(self) -> TurnsByNumber:
        return TurnsByNumber(self.trace.turns)

    def _index(self, number: int) -> int:
        return self.turns.index_of(number)

    def rows(self) -> tuple[TurnRow, ...]:
        """Every turn's row, every request rendered and counted (slow on a long trace)."""
        counts, full = self.rendering.counts, self.full_rendering.counts
        return tuple(TurnRow(t.number, status(t), counts[i].total, full[i].total,
                             self.origin(t.number), self.what_if)
                     for i, t in enumerate(self.trace.turns))

    def count_first(self, turns: int) -> None:
        """Render and count the first `turns` turns (their rows, and a first screen's panes)."""
        for i in range(min(turns, len(self.trace.turns))):
            self.rendering.count(i), self.full_rendering.count(i), self.call(i)

    @property
    def all_counted(self) -> bool:
        """Whether every turn's counts are taken (rows and header then cost nothing)."""
        return all(map(self._counted_at(), range(len(self.trace.turns))))

    def counted(self, number: int) -> bool:
        """Whether turn `number` is read, rendered and counted: showing it costs no such work."""
        return self._counted_at()(self._index(number))

    def _counted_at(self) -> Callable[[int], bool]:
        """Whether the turn at index i is counted, as a function of i: the renderings are looked
        up once, not once a turn."""
        rendering, full, calls = self.rendering, self.full_rendering, self.renders.calls
        return lambda i: bool(rendering.counted(i) and full.counted(i) and i in calls)

    def rows_so_far(self) -> tuple[TurnRow, ...]:
        """Every turn's row with the counts taken so far (None for the others): nothing is
        rendered or counted, so it is quick on a trace of any length."""
        rendering, full = self.rendering, self.full_rendering
        decoded = decoded_turns(self.trace.turns)      # a turn not read yet: status pending
        rows = []
        for i, number in enumerate(self.turns):
            now, baseline = rendering.counted(i), full.counted(i)
            rows.append(TurnRow(number, status(self.trace.turns[i]) if i < decoded
                                else "pending", now and now.total, baseline and baseline.total,
                                self.origin(number), self.what_if))
        return tuple(rows)

    def origin(self, number: int) -> str:
        """In a fork, "parent" for a turn taken over as recorded, "fork" for one the fork ran
        itself (a what-if); "" in any other trace."""
        parent = self.trace.parent
        if parent is None:
            return ""
        return "parent" if number < parent.turn else "fork"

    def turn(self, number: int) -> TurnView:
        """Turn `number`'s panes under the view's options (kept: see Renders.kept_view)."""
        return self.renders.kept_view((self.opts, number), lambda: self._turn(number))

    def _turn(self, number: int) -> TurnView:
        i = self._index(number)
        t = self.trace.turns[i]
        messages, stats = self.rendering.requests[i]
        counts = self.rendering.count(i)
        pane = MessagePane(
            tuple(MessageView.of(m, n) for m, n in zip(messages, counts.per_message)),
            counts.total, self.full_rendering.count(i).total,
            dropped_items(stats, self.turns, self.opts, self.renders.dropped_made))
        return TurnView(number, status(t), program_pane(t, self.opts), pane,
                        memory_rows(self.turns, number, self.opts, self.renders.samples),
                        self.origin(number),
                        self._request_note(number), reply_view(t.raw_response),
                        self.call(i), self.what_if)

    def call(self, i: int) -> CallView:
        """Turn `i`'s (0-based) LLM call as recorded (the same under any options: made once)."""
        calls = self.renders.calls
        if i not in calls:
            calls[i] = call_view(self.trace.turns[i], self.trace, self.renders.counter,
                                 prices_or_none(), self.renders.recorded_split(i))
        return calls[i]

    def calls(self) -> tuple[CallView, ...]:
        """Every turn's LLM call as recorded (the same under any options: made once a trace)."""
        return tuple(self.call(i) for i in range(len(self.trace.turns)))

    def _request_note(self, number: int) -> str | None:
        """For a turn a fork took over from a parent run under other history options: under
        the fork's options, the request is the one the parent sent (Renders), under others a
        re-render of it."""
        if self.trace.upstream is not None:
            return upstream_note(self.trace, number, self.opts)
        if self.origin(number) != "parent" or not self.trace.parent.requests_differ:
            return None
        if self.what_if:
            return ("recorded by the parent under its own options; shown re-rendered under the "
                    "options on screen (a what-if)")
        return ("taken over from the parent: the request it sent, under its own options (what "
                "they left out shows in the parent's trace)")

    def header(self, caching_model: str | None = None) -> Header:
        """The header with every total (every turn rendered and counted); with a
        `caching_model`, the cost saving with its provider's prompt caching too."""
        tokens, full = self.rendering.total, self.full_rendering.total
        header = self._header(tokens, full, full - tokens,
                              100.0 * (full - tokens) / full if full else None,
                              run_totals(self.calls()) if self.trace.turns else None)
        return replace(header, caching=self.caching_saving(caching_model))

    def caching_saving(self, model: str | None) -> CachingSaving | None:
        """The shown strategy's input cost with the prompt caching of `model`'s provider
        against `full`'s, at `model`'s prices (None: no model, or a provider that caches
        nothing, where the saving is the token saving)."""
        policy = cache_policy(model)
        if model is None or not policy.caches:
            return None
        price = prices_or_none().price_for(model)
        full, shown = (caching_cost(price, policy, r.cache_splits(policy))
                       for r in (self.full_rendering, self.rendering))
        return CachingSaving(model, saving_percent(full, shown))

    def header_so_far(self) -> Header:
        """The header without the totals that need every turn counted (quick at any length)."""
        return self._header(None, None, 0, None, None)

    def _header(self, tokens, full, saved, saved_percent, totals) -> Header:
        mission = self.trace.agent.mission.strip()
        recorded = self.recorded_opts
        return Header(text_lines(mission)[0] if mission else "", mission, self.trace.agent.llm,
                      outcome_text(self.trace), self.strategy, limits_of(self.opts), tokens,
                      full, saved, saved_percent, fork_text(self.trace), recorded.strategy,
                      limits_of(recorded), totals)

    # --- navigation, search, diffs ----------------------------------------------------------
    def failed_turns(self) -> tuple[int, ...]:
        return tuple(t.number for t in self.trace.turns if status(t) in FAILED)

    def next_failed(self, number: int) -> int | None:
        return next((n for n in self.failed_turns() if n > number), None)

    def previous_failed(self, number: int) -> int | None:
        return next((n for n in reversed(self.failed_turns()) if n < number), None)

    def last_user_message(self, number: int) -> str:
        """The last USER message of turn `number`'s request: what is new to the LLM."""
        messages, _ = self.rendering.requests[self._index(number)]
        return next((m.get("content") or "" for m in reversed(messages) if m["role"] == "user"), "")

    def request_json(self, number: int) -> str:
        """Turn `number`'s whole request under the current options, as JSON chat messages."""
        messages, _ = self.rendering.requests[self._index(number)]
        return json.dumps(list(messages), ensure_ascii=False, indent=2)

    @cached_property
    def _search_lines(self) -> tuple[tuple[int, str, tuple[str, ...], tuple[str, ...]], ...]:
        """(turn, where, lines, casefolded lines) of every searched text, split and folded once
        per view rather than on every keystroke."""
        sources = []
        for t in self.trace.turns:
            for where, body in (("program", t.program or ""), ("prints", "\n".join(t.prints)),
                                ("messages", self.last_user_message(t.number))):
                lines = tuple(text_lines(body))
                sources.append((t.number, where, lines, tuple(x.casefold() for x in lines)))
        return tuple(sources)

    def search(self, text: str) -> list[SearchHit]:
        """Case-insensitive hits in programs, prints and each turn's last USER message (the
        system prompt and older history repeat in every request, so they are not searched)."""
        needle = text.casefold()
        if not needle:
            return []
        return [SearchHit(number, where, lines[i], i + 1)
                for number, where, lines, folded in self._search_lines
                for i, line in enumerate(folded) if needle in line]

    def program_diff(self, number: int) -> tuple[str, ...]:
        """Unified diff of turn `number`'s program against the previous turn's."""
        i = self._index(number)
        before = self.trace.turns[i - 1].program or "" if i else ""
        return _diff(before, self.trace.turns[i].program or "", self._previous_label(i),
                     f"turn {number}")

    def message_diff(self, number: int) -> tuple[str, ...]:
        """Unified diff of turn `number`'s last USER message against the previous turn's."""
        i = self._index(number)
        before = self.last_user_message(self.trace.turns[i - 1].number) if i else ""
        return _diff(before, self.last_user_message(number), self._previous_label(i),
                     f"turn {number}")

    def _previous_label(self, index: int) -> str:
        return f"turn {self.trace.turns[index - 1].number}" if index else "(no earlier turn)"


def fork_text(trace: Trace) -> str | None:
    """What a fork took over from its parent and what it changed, in one line (None: not a
    fork): `fork of run.json at turn 3: turns 1–2 recorded (parent), 3 on what-if: ...`."""
    p = trace.parent
    if p is None:
        return None
    before = {1: "no turn", 2: "turn 1"}.get(p.turn, f"turns 1–{p.turn - 1}")
    changed = ", ".join(f"{k} {v}" for k, v in p.changed.items()) or "nothing changed"
    tools = "real tools" if p.tools == "agent" else "tools answered from the record"
    return (f"fork of {p.file or 'an unsaved run'} at turn {p.turn}: {before} recorded "
            f"(parent), {p.turn} on what-if ({changed}; {tools})")


def limits_of(opts: HistoryOpts) -> tuple[tuple[str, object], ...]:
    """Every option but the strategy, as (name, value)."""
    return tuple((f.name, getattr(opts, f.name)) for f in fields(opts) if f.name != "strategy")


def neighbour(numbers: Sequence[int], number: int, step: int) -> int:
    """The turn `step` places from `number` in `numbers`, kept within the first and last."""
    i = numbers.index(number) + step
    return numbers[max(0, min(i, len(numbers) - 1))]


DIFF_LINES = 1_000            # a diff screen lays out every line it shows: cut long diffs
DIFF_LINE_CHARS = 2_000


def _diff(before: str, after: str, old: str, new: str) -> tuple[str, ...]:
    lines = difflib.unified_diff(text_lines(before), text_lines(after), old, new,
                                 lineterm="")
    shown = [line[:DIFF_LINE_CHARS] for line in itertools.islice(lines, DIFF_LINES)]
    left = sum(1 for _ in lines)
    if left:
        shown.append(f"… {left:,} more diff lines not shown")
    return tuple(shown)


def upstream_note(trace: Trace, number: int, opts: HistoryOpts) -> str | None:
    """For a run imported from the reference implementation: whether the request shown is the
    one it recorded or our strategy's what-if, and how our re-run's outcome differs, if it does."""
    notes = []
    if opts != trace.agent.history:
        notes.append("the reference recorded another request; shown: what this ptc-tui "
                     "strategy would have sent (a what-if)")
    entries = trace.upstream.get("turns") or ()
    differs = entries[number - 1].get("differs") if number <= len(entries) else None
    if differs:
        notes.append(f"re-run here differs. recorded: {str(differs.get('recorded'))[:300]} | "
                     f"ours: {str(differs.get('ours'))[:300]}")
    return "; ".join(notes) or None
