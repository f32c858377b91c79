"""Traces as OpenTelemetry spans (OTLP/JSON `TracesData`) and back (docs/trace-format.md).

The export follows the OpenTelemetry GenAI semantic conventions (v1.41.0, the names kept by
semantic-conventions-genai), so any OTLP viewer shows the run: an `invoke_agent` span for the
run; per turn under it, a `chat` span for the LLM call, then an `execute_program` span for the
program's run with an `execute_tool` span per tool call under it. PTC facts go under `ptc.*`;
among them the trace-format JSON of the agent, the outcome, the message table and every turn,
which is what `from_otlp` reads back, so an export loses nothing. Plain JSON dicts: no
OpenTelemetry library needed. The attributes of each span are built in `otel_attributes`.

Everything in an export is derived from the trace (ids from a hash of its content, times from
`created_at` and the turns' timings), so one trace always exports the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

from engine.history import Turn
from engine.trace import strict_json
from engine.trace.files import parse_json, trace_from_json, trace_to_json
from engine.trace.model import TraceError
from engine.trace.model import FORMAT, Trace
from engine.trace.otel_attributes import (CHAT, EXECUTE_PROGRAM, EXECUTE_TOOL, INVOKE_AGENT,
                                          REPLY_FAILURES, attr, chat_attrs, program_attrs,
                                          root_attrs, to_json, tool_attrs)

SERVICE = "ptc-tui"
# OTLP enum values, written as integers as OTLP/JSON requires
KIND_INTERNAL, KIND_CLIENT = 1, 3
STATUS_ERROR = 2



# --- export --------------------------------------------------------------------------------

def dumps_otlp(trace: Trace, counted=None) -> str:
    """`to_otlp(trace, counted)` as JSON text."""
    return json.dumps(to_otlp(trace, counted), ensure_ascii=False, indent=1)


def to_otlp(trace: Trace, counted=None) -> dict:
    """The trace as an OTLP/JSON `TracesData` document: one resource, one scope, the spans.
    `counted(turn) -> (input_tokens, output_tokens)`, our own count of a turn's request and
    reply, fills the token counts a provider did not report (`otel_attributes.token_counts`)."""
    doc = trace_to_json(trace)
    trace_id = _digest_id(to_json(doc).encode("utf-8", "surrogatepass"), 32)
    root_id = _span_id(trace_id, "run")
    # times: the run ends at `created_at` (when it was saved), each turn takes llm_ms + run_ms
    total = duration_ns(trace.turns)
    end = _epoch_ns(trace.created_at)
    start = max(end - total, 0)
    spans, cursor = [], start
    for turn, turn_doc in zip(trace.turns, doc["turns"], strict=True):
        turn_spans, cursor = spans_of_turn(trace, turn, turn_doc, trace_id, root_id, cursor,
                                           counted)
        spans += turn_spans
    spans.insert(0, root_span(trace, doc, trace_id, root_id, start, start + total))
    return document(trace, spans)


def document(trace: Trace, spans: list) -> dict:
    """An OTLP/JSON `TracesData` holding `spans` of `trace`'s run: one resource, one scope."""
    scope = {"name": SERVICE}
    if trace.engine_version:
        scope["version"] = trace.engine_version
    return {"resourceSpans": [{
        "resource": {"attributes": [attr("service.name", SERVICE),
                                    attr("ptc.engine_version", trace.engine_version)]},
        "scopeSpans": [{"scope": scope, "spans": spans}],
    }]}


def root_span(trace: Trace, doc: dict, trace_id: str, root_id: str, start: int,
              end: int) -> dict:
    """The run's `invoke_agent` span; `doc` is `trace_to_json(trace)`."""
    return _span(trace_id, root_id, "", _name(INVOKE_AGENT, trace.agent.name), KIND_INTERNAL,
                 start, end, [*root_attrs(trace, doc, _llm_attrs(trace)),
                              _conversation(trace_id)], _root_status(trace))


def spans_of_turn(trace: Trace, turn: Turn, turn_doc: dict, trace_id: str, root_id: str,
                  start: int, counted=None) -> tuple[list, int]:
    """A turn's spans from `start` (ns), under the run's span: the chat span, then (when a
    program ran) its execute_program span with a span per tool call; and when they end."""
    conversation = _conversation(trace_id)
    llm_end = start + _ns(turn.llm_ms)
    turn_end = llm_end + _ns(turn.run_ms)
    ran = turn.error is None or turn.error.reason not in REPLY_FAILURES
    status = None if turn.error is None else \
        {"code": STATUS_ERROR, "message": f"{turn.error.reason}: {turn.error.message}"}
    spans = [_span(trace_id, _span_id(trace_id, f"turn {turn.number}"), root_id,
                   _name(CHAT, llm_provider_model(trace.agent.llm)[1]), KIND_CLIENT, start,
                   llm_end, [*chat_attrs(turn, turn_doc, _llm_attrs(trace), counted),
                             conversation], None if ran else status)]
    if ran:
        program_id = _span_id(trace_id, f"turn {turn.number} program")
        spans.append(_span(trace_id, program_id, root_id, EXECUTE_PROGRAM, KIND_INTERNAL,
                           llm_end, turn_end, [*program_attrs(turn, turn_doc), conversation],
                           status))
        tools = {t.name: t.description for t in trace.agent.tools}
        spans += _tool_spans(trace_id, turn, program_id, llm_end, turn_end, tools,
                             conversation)
    return spans, turn_end


def _llm_attrs(trace: Trace) -> list:
    provider, model = llm_provider_model(trace.agent.llm)
    return [attr("gen_ai.provider.name", provider), attr("gen_ai.request.model", model)]


def _conversation(trace_id: str) -> dict:
    """Every span of a run says which conversation it belongs to: the run's own trace id."""
    return attr("gen_ai.conversation.id", trace_id)


def _tool_spans(trace_id, turn: Turn, program_id, start, end, tools, conversation) -> list:
    """The turn's tool calls, one after another from the program's start, kept inside it."""
    spans = []
    for i, call in enumerate(turn.tool_calls):
        call_end = min(start + _ns(call.duration_ms), max(end, start))
        status = None if call.error is None else {"code": STATUS_ERROR, "message": call.error}
        spans.append(_span(trace_id, _span_id(trace_id, f"turn {turn.number} tool {i}"),
                           program_id, _name(EXECUTE_TOOL, call.name), KIND_INTERNAL,
                           start, call_end,
                           [*tool_attrs(call, i, tools.get(call.name, "")), conversation],
                           status))
        start = call_end
    return spans


def llm_provider_model(llm: str) -> tuple[str, str]:
    """`openai:gpt-4o-mini` → ("openai", "gpt-4o-mini"); a name without a prefix is `_OTHER`."""
    provider, sep, model = llm.partition(":")
    if not sep or not provider:
        return "_OTHER", llm
    return provider, model


def _root_status(trace: Trace) -> dict | None:
    o = trace.outcome
    if o.status != "failed":
        return None
    return {"code": STATUS_ERROR, "message": f"{o.fail_reason}: {o.fail_message}"}


def _span(trace_id, span_id, parent_id, name, kind, start, end, attrs, status) -> dict:
    span = {"traceId": trace_id, "spanId": span_id}
    if parent_id:
        span["parentSpanId"] = parent_id
    span.update({"name": name, "kind": kind, "startTimeUnixNano": str(start),
                 "endTimeUnixNano": str(end), "attributes": attrs})
    if status is not None:
        span["status"] = status
    return span


def _name(operation: str, subject: str) -> str:
    return f"{operation} {subject}" if subject else operation


def new_trace_id() -> str:
    """A random trace id (a live run's: its content, and so its hash, is not known yet)."""
    import secrets
    return secrets.token_hex(16)


def root_span_id(trace_id: str) -> str:
    return _span_id(trace_id, "run")


def _span_id(trace_id: str, path: str) -> str:
    return _digest_id(f"{trace_id}/{path}".encode(), 16)


def _digest_id(data: bytes, length: int) -> str:
    """The first `length` hex digits of `data`'s SHA-256, never all zeros (an invalid id)."""
    digest = hashlib.sha256(data).hexdigest()[:length]
    return digest if digest.strip("0") else digest[:-1] + "1"


def duration_ns(turns) -> int:
    """How long `turns` took, one after another (LLM calls and programs), in nanoseconds."""
    return sum(_ns(t.llm_ms) + _ns(t.run_ms) for t in turns)


def _ns(ms: float) -> int:
    return max(round(ms * 1_000_000), 0)


def _epoch_ns(iso: str) -> int:
    """An ISO 8601 time as nanoseconds since the epoch (UTC if it has no offset); 0 if empty
    or unreadable."""
    try:
        when = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return 0
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    delta = when - datetime(1970, 1, 1, tzinfo=timezone.utc)
    return max((delta.days * 86_400 + delta.seconds) * 10**9 + delta.microseconds * 1000, 0)


# --- import --------------------------------------------------------------------------------

def loads_otlp(text: str, name: str = "<otlp>", warn=None) -> Trace:
    """The trace in OTLP/JSON text written by `dumps_otlp`; TraceError naming `name`. A chat
    span missing, duplicated or not under the run span is an error naming it; with `warn` (a
    callable taking one line), the turns found are kept instead and each gap is reported."""
    return _from_otlp(parse_json(text, name), name, warn)


def from_otlp(doc: dict) -> Trace:
    """The trace in an OTLP/JSON document written by `to_otlp`, rebuilt from its `ptc.*`
    attributes; TraceError naming what is missing for any other document."""
    return _from_otlp(doc, "<otlp>", None)


class _NotOurs(Exception):
    pass


class _Incomplete(Exception):
    """Our export, with a turn missing, duplicated or out of place."""


def _from_otlp(doc, name: str, warn) -> Trace:
    try:
        spans = _spans(doc)
        root = _root(spans)
        trace_doc = _trace_doc(root, spans, warn)
    except _NotOurs as e:
        raise TraceError(f"{name}: not an OTLP export of a ptc-tui trace: {e}") from None
    except _Incomplete as e:
        raise TraceError(f"{name}: {e}") from None
    return trace_from_json(trace_doc, name)


def _spans(doc) -> list[tuple[dict, dict]]:
    """Every span in the document with its attributes read, its resource's attributes
    under them: [(span, {key: value})]."""
    if type(doc) is not dict or type(doc.get("resourceSpans")) is not list:
        raise _NotOurs('expected an object with "resourceSpans" at the top')
    out = []
    for i, rs in enumerate(doc["resourceSpans"]):
        where = f"resourceSpans[{i}]"
        resource = rs.get("resource", {}) if type(rs) is dict else None
        if type(resource) is not dict:
            raise _NotOurs(f"{where}.resource: expected an object")
        shared = _attributes(resource, f"{where}.resource")
        for j, ss in enumerate(_list(rs, "scopeSpans", where)):
            for k, span in enumerate(_list(ss, "spans", f"{where}.scopeSpans[{j}]")):
                w = f"{where}.scopeSpans[{j}].spans[{k}]"
                if type(span) is not dict:
                    raise _NotOurs(f"{w}: expected an object")
                out.append((span, {**shared, **_attributes(span, w)}))
    return out


def _list(obj, key: str, where: str) -> list:
    if type(obj) is not dict:
        raise _NotOurs(f"{where}: expected an object")
    value = obj.get(key, [])
    if type(value) is not list:
        raise _NotOurs(f"{where}.{key}: expected a list")
    return value


def _attributes(span: dict, where: str) -> dict:
    attrs = {}
    for i, kv in enumerate(_list(span, "attributes", where)):
        if type(kv) is not dict or type(kv.get("key")) is not str \
                or type(kv.get("value")) is not dict:
            raise _NotOurs(f"{where}.attributes[{i}]: expected {{key, value}}")
        attrs[kv["key"]] = _any_value(kv["value"])
    return attrs


def attr_value(kv: dict):
    """The Python value of one OTLP/JSON KeyValue written by `attr`."""
    return _any_value(kv["value"])


def _any_value(v: dict):
    if "stringValue" in v:
        return v["stringValue"]
    if "intValue" in v:         # int64 is a string in OTLP/JSON; accept a number too
        try:
            return int(v["intValue"])
        except (TypeError, ValueError):
            return None
    if "boolValue" in v:
        return v["boolValue"]
    if "doubleValue" in v:
        return v["doubleValue"]
    if "arrayValue" in v and type(v["arrayValue"]) is dict:
        values = v["arrayValue"].get("values", [])
        return [_any_value(x) if type(x) is dict else None for x in values] \
            if type(values) is list else None
    return None


def _root(spans) -> tuple[dict, dict]:
    roots = [s for s in spans if s[1].get("gen_ai.operation.name") == INVOKE_AGENT]
    if not roots:
        raise _NotOurs('no span with "gen_ai.operation.name" = "invoke_agent"')
    ours = [s for s in roots if "ptc.agent" in s[1]]
    if not ours:
        raise _NotOurs('the invoke_agent span has no "ptc.agent" attribute')
    if len(ours) > 1:
        raise _NotOurs(f"{len(ours)} invoke_agent spans with \"ptc.agent\"; expected one run")
    return ours[0]


def _trace_doc(root, spans, warn) -> dict:
    """The trace-format document the `ptc.*` attributes hold."""
    span, attrs = root
    root_id = span.get("spanId")
    if type(root_id) is not str or not root_id:
        raise _NotOurs('the invoke_agent span has no "spanId"')
    doc = {"format": attrs.get("ptc.format"), "version": attrs.get("ptc.format.version"),
           "engine_version": _string(attrs, "ptc.engine_version", "invoke_agent span", ""),
           "created_at": _string(attrs, "ptc.created_at", "invoke_agent span", "")}
    if doc["format"] != FORMAT:
        raise _NotOurs(f'the invoke_agent span has no "ptc.format" = "{FORMAT}" attribute')
    if type(doc["version"]) is not int:
        raise _NotOurs('the invoke_agent span has no integer "ptc.format.version" attribute')
    for key in ("agent", "outcome", "messages"):
        doc[key] = _json_attr(attrs, f"ptc.{key}", "invoke_agent span")
    if "ptc.parent" in attrs:                    # a fork's parent (optional)
        doc["parent"] = _json_attr(attrs, "ptc.parent", "invoke_agent span")
    turns = []
    for s, a in spans:
        in_run = s.get("parentSpanId") == root_id
        if a.get("gen_ai.operation.name") != CHAT or not (in_run or "ptc.turn" in a):
            continue
        number = a.get("ptc.turn.number")
        where = f"chat span {str(s.get('name', ''))[:60]!r}"
        if type(number) is not int:
            raise _NotOurs(f'{where} has no integer "ptc.turn.number" attribute')
        turn = _json_attr(a, "ptc.turn", where)
        turns.append((number, f"{where} ({_short(s.get('spanId'))})", in_run, turn))
    turns.sort(key=lambda t: t[0])
    count = attrs.get("ptc.turn.count")
    doc["turns"] = _whole_run(turns, count if type(count) is int else None, warn)
    return doc


def _whole_run(turns: list, count: int | None, warn) -> list:
    """The turns' documents, numbered 1, 2, ...: a chat span outside the run, a second span
    for one turn, or a turn with no span is an error, or with `warn` a warning (the span
    outside the run kept, the second span dropped, later turns renumbered)."""
    def gap(problem: str) -> None:
        if warn is None:
            raise _Incomplete(f"{problem} (--lenient imports what is there)")
        warn(problem)

    kept, seen = [], {}
    for number, where, in_run, turn in turns:
        if not in_run:
            gap(f"{where} holds turn {number} but is not a child of the run's invoke_agent span")
        if number in seen:
            gap(f"{where} holds turn {number}, as {seen[number]} does")
            continue
        seen[number] = where
        kept.append((number, turn))
    last = max([count or 0, *seen])
    for number in range(1, last + 1):
        if number not in seen:
            gap(f"no chat span holds turn {number} of {last}")
    for i, (number, turn) in enumerate(kept, start=1):
        if type(turn) is dict and number != i:
            turn["number"] = i
    return [turn for _, turn in kept]


def _short(span_id) -> str:
    return f"span {str(span_id)[:16]}" if span_id else "no spanId"


def _string(attrs: dict, key: str, where: str, default: str) -> str:
    value = attrs.get(key, default)
    if type(value) is not str:
        raise _NotOurs(f'{where}: "{key}" is not a string')
    return value


def _json_attr(attrs: dict, key: str, where: str):
    if key not in attrs:
        raise _NotOurs(f'{where} has no "{key}" attribute')
    text = _string(attrs, key, where, "")
    try:
        value = strict_json.loads(text)
    except (strict_json.DuplicateKey, strict_json.BadValue) as e:
        raise _NotOurs(f'{where}: "{key}": {e}') from None
    except (ValueError, RecursionError):
        raise _NotOurs(f'{where}: "{key}" is not valid JSON') from None
    return value
