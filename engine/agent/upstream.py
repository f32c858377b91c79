"""import_inspection: one of our traces from a run of the reference implementation
(andreasronge/ptc_runner), read by engine.trace.upstream (docs/trace-format.md, `upstream`).

One turn per agent LLM request: the request exactly as sent, the reply, the program (the
`run_ptc_lisp` tool call's argument, else a code block in the reply), and what the program
did. Memory is rebuilt by running each program in our engine, its tool calls (namespaced
ones such as `incident.evidence/search` included) answered from the recorded capability
results; where our run's outcome differs from the recorded one, the turn's `upstream` entry
says so and shows both. Requests and evaluations that are the workflow's own are kept apart
in `upstream.workflow_calls` and `upstream.workflow_evaluations`."""

from __future__ import annotations

import json
import re
from datetime import datetime

from engine.agent.execute import previous_results
from engine.agent.extract import NO_CODE_MESSAGE, extract_program
from engine.agent.upstream_outcome import (RecordedAnswers, compare, no_run_reason,
                                           our_status)
from engine.history import HistoryOpts, ToolInfo, Turn, Usage
from engine.lisp import PtcError, run
from engine.trace import AgentInfo, Outcome, Trace, TraceError
from engine.trace.model import ROLES
from engine.trace.upstream import Canonical, Capability, Evaluation, read_canonical, read_inspection

PROGRAM_TOOL = "run_ptc_lisp"
_API_CALL = re.compile(r"^- Call: \(([^\s()]+/[^\s()]+)([^)\n]*)\)\n  Type: (.*)$", re.MULTILINE)
_QUALIFIED = re.compile(r"\(([A-Za-z][\w.\-]*/[\w\-?!*<>=]+)")


def import_inspection(text: str, name: str, canonical_text: str | None = None,
                      canonical_name: str = "run.jsonl", warn=None) -> Trace:
    """The trace of the inspection artifact `text` (from file `name`), with durations,
    statuses, model and outcome from its canonical `run.jsonl` when given. `warn(line)` hears
    of lines dropped from a cut-off file; TraceError naming the file for anything unreadable."""
    warn = warn or (lambda line: None)
    inspection = read_inspection(text, name)
    canon = read_canonical(canonical_text, canonical_name) if canonical_text is not None \
        else Canonical(inspection.run_id)
    if canon.run_id != inspection.run_id:
        raise TraceError(f"{canonical_name}: run {canon.run_id}, not the inspection's run "
                         f"{inspection.run_id}")
    requests = [s for s in inspection.steps if isinstance(s, Capability)]
    complete = [r for r in requests if r.result is not None]
    dropped = inspection.dropped + len(requests) - len(complete)
    if dropped:
        warn(f"the run is cut off: {dropped} line(s) dropped (a partial record or an LLM "
             f"request without its reply); the complete turns are imported")
    if not complete:
        raise TraceError(f"{name}: no LLM request with a reply: nothing to step through")
    try:
        return _build(inspection, canon, complete, dropped)
    except ValueError as e:
        raise TraceError(f"{name}: {e}") from None


def _build(inspection, canon: Canonical, complete: list, dropped: int) -> Trace:
    agent_loop = any(_offers_program_tool(r) for r in complete)
    builder = _Builder(canon)
    steps = [s for s in inspection.steps if not isinstance(s, Capability) or s.result]
    for i, step in enumerate(steps):
        if isinstance(step, Evaluation):
            if step.id not in builder.claimed:
                builder.workflow_evaluations.append(builder.evaluation_json(step))
        elif agent_loop and not _offers_program_tool(step):
            builder.workflow_calls.append(builder.call_json(step))
        else:
            builder.turn(step, _following_evaluations(steps, i))
    if not builder.turns:
        raise ValueError("no agent turn among the run's LLM requests")
    return builder.trace(inspection, dropped)


def _offers_program_tool(request: Capability) -> bool:
    tools = request.arguments.get("tools") if type(request.arguments) is dict else None
    return any(type(t) is dict and type(t.get("function")) is dict
               and t["function"].get("name") == PROGRAM_TOOL for t in _list(tools))


def _following_evaluations(steps: list, i: int) -> list[Evaluation]:
    """The evaluations after request `i` and before the next request."""
    found = []
    for step in steps[i + 1:]:
        if isinstance(step, Capability):
            break
        found.append(step)
    return found


def _reply(request: Capability) -> tuple[str, str | None, dict]:
    """The reply's text, its program (the run_ptc_lisp call's argument, else a code block) and
    its token report."""
    result = request.result or {}
    value = result.get("value") if result.get("status") == "ok" else None
    if type(value) is not dict:
        return f"(the LLM request failed: {str(result.get('error', result))[:500]})", None, {}
    content = value.get("content") if type(value.get("content")) is str else ""
    program = None
    for call in _list(value.get("tool_calls")):
        args = (call.get("args") or call.get("arguments")) if type(call) is dict else None
        if type(args) is str:                      # arguments sent as JSON text
            try:
                args = json.loads(args)
            except ValueError:
                args = None
        if type(args) is dict and call.get("name") == PROGRAM_TOOL \
                and type(args.get("program")) is str:
            program = args["program"]
            break
    if program is None:
        program = extract_program(content)
    tokens = value.get("tokens") if type(value.get("tokens")) is dict else {}
    return content, program, tokens


def _request_messages(request: Capability) -> tuple[dict, ...]:
    """The request exactly as sent: its system text as a system message, then its messages."""
    args = request.arguments if type(request.arguments) is dict else {}
    system = [{"role": "system", "content": args["system"]}] \
        if type(args.get("system")) is str else []
    return tuple(system + [_message(m) for m in _list(args.get("messages"))])


def _message(m: dict) -> dict:
    """A message as sent; content that is not text (none, with a tool call) reads as ''."""
    if type(m) is not dict or type(m.get("role")) is not str or m["role"] not in ROLES:
        role = m.get("role") if type(m) is dict else None
        raise ValueError(f"an LLM request holds a message with role {str(role)[:40]!r}")
    kept = {"role": m["role"], "content": m["content"] if type(m.get("content")) is str else ""}
    if type(m.get("tool_calls")) is list:
        kept["tool_calls"] = m["tool_calls"]
    if type(m.get("tool_call_id")) is str:
        kept["tool_call_id"] = m["tool_call_id"]
    return kept


def _ms(start: str, stop: str | None) -> float:
    try:
        return max(0.0, (datetime.fromisoformat(stop) - datetime.fromisoformat(start))
                   .total_seconds() * 1000)
    except (TypeError, ValueError):
        return 0.0


def _list(value) -> list:
    """A list field of a record, or nothing when the record holds something else there."""
    return value if type(value) is list else []


def _int(value) -> int | None:
    return value if type(value) is int else None


def _cost(tokens: dict) -> float | None:
    cost = tokens.get("total_cost")
    return float(cost) if type(cost) in (int, float) and 0 <= cost <= 1e9 else None


class _Builder:
    def __init__(self, canon: Canonical):
        self.canon = canon
        self.turns: list[Turn] = []
        self.entries: list[dict] = []              # upstream.turns
        self.workflow_calls: list[dict] = []
        self.workflow_evaluations: list[dict] = []
        self.claimed: set[str] = set()
        self.memory: dict = {}

    def duration(self, call: Capability) -> float:
        return self.canon.durations.get(call.id, _ms(call.started, call.stopped))

    def call_json(self, request: Capability) -> dict:
        content, _, tokens = _reply(request)
        return {"capability_id": request.id, "messages": list(_request_messages(request)),
                "reply": content, "usage": _usage_json(tokens),
                "cost_usd": _cost(tokens), "llm_ms": self.duration(request)}

    def evaluation_json(self, ev: Evaluation) -> dict:
        return {"evaluation_id": ev.id, "source": ev.source,
                "status": self.canon.statuses.get(ev.id),
                "calls": [self.recorded_call(c) for c in ev.calls]}

    def recorded_call(self, c: Capability) -> dict:
        return {"name": c.name, "arguments": c.arguments, "result": c.result,
                "duration_ms": self.duration(c)}

    def turn(self, request: Capability, evaluations: list[Evaluation]) -> None:
        number = len(self.turns) + 1
        content, program, tokens = _reply(request)
        messages = _request_messages(request)
        evaluation = next((e for e in evaluations if e.source == program), None)
        common = dict(number=number, raw_response=content, program=program, messages=messages,
                      usage=Usage(_int(tokens.get("input")), _int(tokens.get("output")),
                                  _int(tokens.get("cache_read")),
                                  _int(tokens.get("cache_creation")), cost_usd=_cost(tokens)),
                      llm_ms=self.duration(request))
        entry = {"number": number, "capability_id": request.id, "cost_usd": _cost(tokens),
                 "evaluation_id": None,
                 "recorded_status": None, "calls": [], "differs": None}
        if program is None:
            turn = Turn(**common, error=PtcError("no_code", NO_CODE_MESSAGE), memory=self.memory)
        elif evaluation is None:
            turn = Turn(**common, error=PtcError("not_evaluated", no_run_reason),
                        memory=self.memory)
        else:
            self.claimed.add(evaluation.id)
            turn = self.rerun(common, program, evaluation, messages)
            entry.update(evaluation_id=evaluation.id,
                         recorded_status=self.canon.statuses.get(evaluation.id),
                         calls=[self.recorded_call(c) for c in evaluation.calls])
        self.turns.append(turn)
        self.entries.append(entry)

    def rerun(self, common: dict, program: str, evaluation: Evaluation, messages) -> Turn:
        answers = RecordedAnswers(evaluation.calls)
        names = set(_QUALIFIED.findall(program)) | \
            {m.group(1) for m in _API_CALL.finditer(messages[0]["content"] if messages else "")}
        r = run(program, tools=answers.functions(names), memory=self.memory,
                previous=previous_results(self.turns))
        calls = tuple(answers.with_recorded_durations(r.tool_calls, self.duration))
        self.memory = r.memory
        return Turn(**common, result=r.value, error=r.error, signal=r.signal,
                    prints=tuple(r.prints), tool_calls=calls, memory=r.memory,
                    definitions=tuple(r.definitions),
                    run_ms=self.canon.durations.get(evaluation.id, r.duration_ms))

    def trace(self, inspection, dropped: int) -> Trace:
        self.compare_outcomes()
        first = self.turns[0].messages
        system = next((m["content"] for m in first if m.get("role") == "system"), "")
        mission = next((m["content"] for m in first if m.get("role") == "user"
                        and type(m.get("content")) is str), "")
        tools = tuple(ToolInfo(n, f"({p.strip()})" if p.strip() else "()", t.split(" -> ")[-1]
                               if " -> " in t else "", "")
                      for n, p, t in _API_CALL.findall(system))
        model = self.canon.model or "ptc_runner"
        agent = AgentInfo(mission, max(1, len(self.turns)), system, tools, {},
                          HistoryOpts(), model, inspection.run_id,
                          f"a ptc_runner run imported from its inspection artifact ({model})")
        costs = [e["cost_usd"] for e in self.entries + self.workflow_calls
                 if type(e["cost_usd"]) in (int, float)]
        upstream = {"run_id": inspection.run_id, "schema_version": inspection.schema_version,
                    "model": self.canon.model, "params": self.canon.params,
                    "cost_usd": round(sum(costs), 9) if costs else None,
                    "dropped_lines": dropped, "turns": self.entries,
                    "workflow_calls": self.workflow_calls,
                    "workflow_evaluations": self.workflow_evaluations}
        return Trace(agent, tuple(self.turns), self.outcome(), upstream=upstream)

    def compare_outcomes(self) -> None:
        """Each evaluated turn's recorded outcome (the canonical status, and the feedback the
        next request showed the model) against ours; `differs` holds both when they differ."""
        for i, (turn, entry) in enumerate(zip(self.turns, self.entries)):
            if entry["evaluation_id"] is None:
                continue
            shown = None
            if i + 1 < len(self.turns):
                last = self.turns[i + 1].messages[-1] if self.turns[i + 1].messages else {}
                if last.get("role") == "tool" or last.get("tool_call_id"):
                    shown = last.get("content")
            entry["shown"] = shown
            entry["differs"] = compare(turn, entry["recorded_status"], shown)

    def outcome(self) -> Outcome:
        last = self.turns[-1]
        status = our_status(last) if last.program else None
        if self.canon.outcome is not None:
            if self.canon.outcome == "ok":
                return Outcome("returned", last.result if last.signal == "return" else None)
            return Outcome("failed", None, str(self.canon.reason or self.canon.outcome),
                           f"the reference run ended with outcome {self.canon.outcome}")
        if status == "returned":
            return Outcome("returned", last.result)
        if last.signal == "fail":
            return Outcome("failed", last.result, "failed", "the program called (fail v)")
        return Outcome("running")


def _usage_json(tokens: dict) -> dict:
    return {"input_tokens": _int(tokens.get("input")), "output_tokens": _int(tokens.get("output")),
            "cached_tokens": _int(tokens.get("cache_read")),
            "cache_write_tokens": _int(tokens.get("cache_creation"))}
