"""fork: a run that takes over turns 1..N-1 of a recorded run as they were (no LLM call, no tool
run) and goes on from turn N with another LLM, other history options or another turn budget.

Its requests from turn N on are rendered under the fork's options from the recorded turns. With
the agent's real tools (`tools=`) calls run; without them a call is answered from the parent's
recorded calls when one had the same tool and arguments (RecordedTools)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from pathlib import Path

from engine.agent.agent import Session, SubAgent, llm_name
from engine.agent.prompt import reference_text
from engine.agent.recorded_tools import RecordedTools
from engine.history import HistoryOpts, RenderContext, Turn
from engine.lisp import run
from engine.trace import Parent, Trace, dumps_trace
from engine.trace.values import encode, function_stub


def fork(parent: Trace, at: int, llm, *, opts: HistoryOpts | None = None,
         max_turns: int | None = None, tools: Mapping | None = None, limits=None,
         parent_file: str | Path | None = None) -> Session:
    """A Session holding turns 1..`at`-1 of `parent`, whose next step is turn `at`.

    `opts` and `max_turns` default to the parent's; `tools` (name -> callable or SubAgent, as
    in SubAgent) run for real, else calls are answered from the record; `parent_file` is the
    file `parent` was read from (its hash and name are recorded; else the hash of its JSON).
    ValueError for a turn out of range, a turn budget below `at`, or tools missing one the
    parent had.
    """
    count = len(parent.turns)
    if not count:
        raise ValueError("the trace has no turns to fork from")
    if type(at) is not int or not 1 <= at <= count:
        raise ValueError(f"turn {at} is out of range: the trace has {count} "
                         f"turn{'s' * (count != 1)} (1–{count})")
    opts = opts or parent.agent.history
    max_turns = parent.agent.max_turns if max_turns is None else max_turns
    if max_turns < at:
        raise ValueError(f"max_turns {max_turns} is below the turn the fork starts at ({at})")
    context = _context(parent, max_turns)
    a = parent.agent
    agent = SubAgent(a.mission, dict(tools or {}), a.data, max_turns, opts, None, limits,
                     a.name, a.description)
    if tools:
        missing = [t.name for t in context.tools if t.name not in tools]
        if missing:
            raise ValueError(f"the agent has no tool {missing[0]!r}, which the trace's agent had")
        session = Session(agent, llm, opts, context=context)
    else:
        recorded = RecordedTools(c for t in (*parent.turns[at - 1:], *parent.turns[:at - 1])
                                 for c in t.tool_calls)
        session = Session(agent, llm, opts, tools=recorded.tools(context.tools), context=context)
    turns, memory = take_over(parent.turns[:at - 1], a.data, limits)
    session.take_over(turns, memory, Parent(
        _sha256(parent, parent_file), Path(parent_file).name if parent_file else None, at,
        changed_options(parent, llm_name(llm), opts, max_turns),
        "agent" if tools else "recorded", a.llm))
    return session


def changed_options(parent: Trace, llm: str, opts: HistoryOpts, max_turns: int) -> dict:
    """What a fork runs under that its parent did not: option name -> the fork's value."""
    a = parent.agent
    changed = {"llm": llm} if llm != a.llm else {}
    changed.update({f.name: getattr(opts, f.name) for f in fields(HistoryOpts)
                    if getattr(opts, f.name) != getattr(a.history, f.name)})
    if max_turns != a.max_turns:
        changed["max_turns"] = max_turns
    return changed


def _context(parent: Trace, max_turns: int) -> RenderContext:
    """The parent's recorded context (mission, tools, data, reference) with the fork's budget;
    the reference changes only when the budget turns a single-shot run multi-turn or back."""
    context = parent.context()
    if max_turns == context.max_turns:
        return context
    reference = context.reference
    if (max_turns == 1) != context.single_shot:
        reference = reference_text(max_turns)
    return replace(context, max_turns=max_turns, reference=reference)


def _sha256(parent: Trace, parent_file) -> str:
    data = Path(parent_file).read_bytes() if parent_file else dumps_trace(parent).encode()
    return hashlib.sha256(data).hexdigest()


_MISSING = object()


def take_over(turns: Sequence[Turn], data, limits=None) -> tuple[list[Turn], dict]:
    """`turns` as recorded, and the memory after the last one.

    A trace file keeps a function as its printed form only (it cannot be called), so each
    recorded program is run again, its tool calls answered from its own recorded calls, and a
    value it rebuilds is kept where it prints as the recorded one does; every other value is
    the recorded one. Nothing is sent to an LLM and no tool runs."""
    if not turns or not any(map(_holds_saved_function, turns[-1].memory.values())):
        return list(turns), dict(turns[-1].memory) if turns else {}
    taken: list[Turn] = []
    before: Mapping = {}
    memory: dict = {}
    for turn in turns:
        rebuilt = _rerun(turn, memory, data, limits)
        merged = {}
        for name, value in turn.memory.items():
            if before.get(name, _MISSING) is value:            # unchanged by this turn
                merged[name] = memory[name]
            elif name in rebuilt and _same(rebuilt[name], value):
                merged[name] = rebuilt[name]
            else:
                merged[name] = value
        taken.append(replace(turn, memory=merged))
        before, memory = turn.memory, merged
    return taken, memory


def _rerun(turn: Turn, memory: dict, data, limits) -> Mapping:
    if turn.program is None or turn.error is not None:
        return {}                                  # a failed turn changed nothing
    names = {c.name for c in turn.tool_calls}
    tools = RecordedTools(turn.tool_calls).functions(names)
    result = run(turn.program, data=data, tools=tools, memory=memory, limits=limits)
    return result.memory if result.error is None else {}


_SAVED = function_stub("#fn[]").__code__      # every function read from a file runs this


def _holds_saved_function(value) -> bool:
    """Whether `value` is or holds a function read from a trace file (which cannot be called)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if getattr(v, "__code__", None) is _SAVED:
            return True
        if isinstance(v, (tuple, frozenset)):
            stack.extend(v)
        elif isinstance(v, Mapping):
            stack.extend(v.keys())
            stack.extend(v.values())
    return False


def _same(rebuilt, recorded) -> bool:
    try:
        return encode(rebuilt) == encode(recorded)
    except (ValueError, RecursionError):
        return False
