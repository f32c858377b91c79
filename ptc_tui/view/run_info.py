"""The run as a whole, as it was recorded: what the agent was given and how it ended, each LLM
call and what it cost, and for a run imported from the reference implementation what our
format has no other place for (its reported cost per request, the turns whose re-run here
differs, the workflow's own LLM calls and evaluations). Plain text sections, no Textual."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from engine.trace import Trace
from ptc_tui.view.calls import CallView, ms_text, run_totals
from ptc_tui.view.formats import cost_text
from ptc_tui.view.panes import value_text

LONG_TEXT = 20_000          # characters of one message or value shown before it is cut


@dataclass(frozen=True)
class Section:
    title: str
    text: str


def run_info(trace: Trace, calls: Sequence[CallView]) -> list[Section]:
    """`calls`: each turn's LLM call as TraceView.calls gives them."""
    sections = [Section("run", _run(trace)), Section("LLM calls", _calls(trace, calls))]
    up = trace.upstream
    if up is not None:
        sections.append(Section("reference run (ptc_runner)", _reference(up)))
        calls = up.get("workflow_calls") or []
        sections.append(Section(f"the workflow's own LLM calls ({len(calls)})",
                                "\n\n".join(_workflow_call(c) for c in calls) or "none"))
        evaluations = up.get("workflow_evaluations") or []
        sections.append(Section(f"the workflow's own evaluations ({len(evaluations)})",
                                "\n\n".join(_evaluation(e) for e in evaluations) or "none"))
    return sections


def _run(trace: Trace) -> str:
    agent, outcome = trace.agent, trace.outcome
    h = agent.history
    lines = [f"agent: {agent.name}" + (f" ({agent.description})" if agent.description else ""),
             f"LLM: {agent.llm or 'not recorded'}",
             f"saved: {trace.created_at or 'not recorded'}",
             f"turns: {len(trace.turns)} of at most {agent.max_turns}",
             f"history: {h.strategy} · println {h.println_limit}, tools {h.tool_call_limit}",
             "tools: " + (", ".join(t.name for t in agent.tools) or "none"),
             f"outcome: {outcome.status}"]
    if outcome.status == "returned":
        lines.append("returned: " + value_text(outcome.return_value))
    if outcome.fail_reason:
        lines.append(f"failed: {outcome.fail_reason}"
                     + (f": {outcome.fail_message}" if outcome.fail_message else ""))
    if trace.parent is not None:
        p = trace.parent
        changed = ", ".join(f"{k}={v}" for k, v in p.changed.items()) or "nothing"
        lines.append(f"fork of {p.file or 'an unsaved run'} at turn {p.turn}; changed: {changed}")
    lines += ["", "mission:", _cut(agent.mission)]
    return "\n".join(lines)


def _calls(trace: Trace, calls: Sequence[CallView]) -> str:
    lines = []
    for turn, c in zip(trace.turns, calls):
        counted = " (counted)" if c.input_counted or c.output_counted else ""
        cached = f", {c.cached_tokens:,} cached" if c.cached_tokens else ""
        lines.append(f"turn {turn.number}: {c.model} · in {c.input_tokens:,}{cached} · out "
                     f"{c.output_tokens:,}{counted} · {ms_text(c.llm_ms)} · "
                     f"cost {cost_text(c.cost)}{' reported' * c.cost_reported} · finish {c.finish_reason or 'not reported'}")
    if calls:
        t = run_totals(list(calls))
        lines.append(f"all: in {t.input_tokens:,} · out {t.output_tokens:,}"
                     f"{' (some counted)' if t.counted else ''} · LLM {ms_text(t.llm_ms)} · "
                     f"programs {ms_text(t.run_ms)} · cost {cost_text(t.cost)}"
                     f"{' reported' * t.cost_reported}")
    return "\n".join(lines) or "no LLM call recorded"


def _reference(up) -> str:
    lines = [f"run id: {up.get('run_id')} · schema version {up.get('schema_version')}",
             f"model: {up.get('model') or 'not recorded'} · parameters: "
             f"{_json(up.get('params') or {})}",
             f"reported cost: {cost_text(up.get('cost_usd'))} in all, the workflow's own "
             "requests included"]
    if up.get("dropped_lines"):
        lines.append(f"cut off: {up['dropped_lines']} line(s) of the artifact were dropped")
    for t in up.get("turns") or []:
        lines.append(f"turn {t.get('number')}: reported cost {cost_text(t.get('cost_usd'))} · "
                     f"recorded status {t.get('recorded_status') or 'none'}")
        differs = t.get("differs")
        if differs:
            lines.append(f"  re-run here differs. recorded: {differs.get('recorded')}")
            lines.append(f"                           ours: {differs.get('ours')}")
    return "\n".join(lines)


def _workflow_call(call) -> str:
    usage = call.get("usage") or {}
    head = (f"{call.get('capability_id')} · in {usage.get('input_tokens')} · out "
            f"{usage.get('output_tokens')} · {ms_text(call.get('llm_ms') or 0)} · "
            f"reported cost {cost_text(call.get('cost_usd'))}")
    messages = [f"[{m.get('role')}] {_cut(_content(m))}" for m in call.get("messages") or []]
    return "\n".join([head, *messages, f"[reply] {_cut(str(call.get('reply') or ''))}"])


def _evaluation(ev) -> str:
    lines = [f"{ev.get('evaluation_id')} · status {ev.get('status') or 'not recorded'}",
             _cut(str(ev.get("source") or ""))]
    for c in ev.get("calls") or []:
        lines.append(f"  call {c.get('name')} {_cut(_json(c.get('arguments')), 2_000)} → "
                     f"{_cut(_json(c.get('result')), 2_000)}")
    return "\n".join(lines)


def _content(message) -> str:
    content = message.get("content")
    return content if type(content) is str else _json(content)


def _json(value) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:                      # a circular structure cannot come from JSON
        return repr(value)


def _cut(text: str, limit: int = LONG_TEXT) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters)"
