"""Reading and writing trace files (schema: docs/trace-format.md). A bad file of any kind
gives one TraceError naming the file and what is wrong with it."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, fields, replace

from engine.history import FINISH_REASONS, HistoryOpts, Response, ToolInfo, Turn, Usage
from engine.lisp import Definition, PtcError, Span, ToolCall
from engine.trace import strict_json
from engine.trace.disk import UnreadableFile, read_text, readable_size, write_atomically
from engine.trace.lazy_turns import LazyTurns
from engine.trace.model import FORMAT, VERSION, AgentInfo, Outcome, Parent, Trace
from engine.trace.values import MalformedValue, decode, encode

MAX_FILE_BYTES = 512 * 1024 * 1024


class TraceError(Exception):
    """A trace file that cannot be read; the message names the file and the problem."""


class UnreadableTrace(TraceError):
    """A trace file that cannot be read at all (missing, not a regular file, too large), as
    opposed to one that reads but is not a valid trace."""


# --- writing -------------------------------------------------------------------------------

def save_trace(trace: Trace, path) -> None:
    """Write `trace` to `path` atomically (engine.trace.disk.write_atomically): a failure of
    any kind leaves the previous file as it was."""
    write_atomically(path, dumps_trace(trace))


def dumps_trace(trace: Trace) -> str:
    """The trace as JSON text; each distinct message is stored once (`messages`), and each
    turn lists the ones it was sent by index, so a 200-turn `full` run stays linear in size.
    The last field, `digest`, is a hash of all the others (`content_digest`)."""
    doc = trace_to_json(trace)
    doc["digest"] = content_digest(doc)
    return json.dumps(doc, ensure_ascii=False, indent=1)


def content_digest(doc: dict) -> str:
    """`sha256:` and the hex SHA-256 of the document without its `digest`, as compact JSON:
    any edit of a saved trace (a print, a tool result, a token count) changes it."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def trace_to_json(trace: Trace) -> dict:
    """The trace as the JSON-ready document `dumps_trace` writes (docs/trace-format.md)."""
    table: dict[tuple[str, str], int] = {}
    turns, previous = [], {}
    for turn in trace.turns:
        sent = [table.setdefault(_message_key(m), len(table)) for m in turn.messages]
        turns.append(_turn_json(turn, sent, previous))
        previous = turn.memory
    a = trace.agent
    doc = {
        "format": FORMAT, "version": VERSION, "engine_version": trace.engine_version,
        "created_at": trace.created_at,
        "agent": {"name": a.name, "description": a.description, "mission": a.mission,
                  "max_turns": a.max_turns, "llm": a.llm, "history": asdict(a.history),
                  "tools": [asdict(t) for t in a.tools],
                  "data": {k: encode(v) for k, v in a.data.items()}, "reference": a.reference},
        "outcome": {"status": trace.outcome.status,
                    "return_value": encode(trace.outcome.return_value),
                    "fail": None if trace.outcome.fail_reason is None else
                    {"reason": trace.outcome.fail_reason, "message": trace.outcome.fail_message}},
        "messages": [_message_json(key) for key in table],
        "turns": turns,
    }
    if a.llm_settings:
        doc["agent"]["llm_settings"] = dict(a.llm_settings)
    if trace.parent is not None:
        p = trace.parent
        doc["parent"] = {"sha256": p.sha256, "file": p.file, "turn": p.turn,
                         "changed": dict(p.changed), "tools": p.tools}
    if trace.upstream is not None:
        doc["upstream"] = trace.upstream
    return doc


# A message is {role, content}; one sent with the reference implementation's tool calling also
# keeps its `tool_calls` (assistant) or `tool_call_id` (tool), exactly as sent.
MESSAGE_EXTRAS = ("tool_calls", "tool_call_id")
ROLES = ("system", "user", "assistant", "tool")


def _message_key(m: dict) -> tuple:
    extras = tuple((k, json.dumps(m[k], ensure_ascii=False, sort_keys=True))
                   for k in MESSAGE_EXTRAS if k in m)
    return (m["role"], m["content"]) + extras


def _message_json(key: tuple) -> dict:
    doc = {"role": key[0], "content": key[1]}
    doc.update((k, json.loads(v)) for k, v in key[2:])
    return doc


def _turn_json(turn: Turn, sent: list[int], previous) -> dict:
    changed = {k: encode(v) for k, v in turn.memory.items()
               if k not in previous or previous[k] is not v}
    return {
        "number": turn.number, "raw_response": turn.raw_response, "program": turn.program,
        "result": encode(turn.result), "signal": turn.signal,
        "error": None if turn.error is None else _error_json(turn.error),
        "prints": list(turn.prints),
        "tool_calls": [{"name": c.name, "args": [encode(a) for a in c.args],
                        "result": encode(c.result), "error": c.error,
                        "duration_ms": c.duration_ms} for c in turn.tool_calls],
        "definitions": [{"name": d.name, "doc": d.doc, "is_fn": d.is_fn}
                        for d in turn.definitions],
        "memory_changes": changed,
        "sent": sent,
        "usage": _usage_json(turn.usage),
        **({} if turn.response is None else {"response": asdict(turn.response)}),
        "llm_ms": turn.llm_ms, "run_ms": turn.run_ms,
    }


_USAGE_KEYS = ("input_tokens", "output_tokens", "cached_tokens")
_OPTIONAL_USAGE_KEYS = ("cache_write_tokens", "reasoning_tokens")   # written when reported
MAX_COST_USD = 1e9


def _usage_json(usage: Usage | None) -> dict | None:
    if usage is None:
        return None
    doc = {k: getattr(usage, k) for k in _USAGE_KEYS}
    doc.update({k: getattr(usage, k) for k in _OPTIONAL_USAGE_KEYS
                if getattr(usage, k) is not None})
    if usage.cost_usd is not None:
        doc["cost_usd"] = usage.cost_usd
    return doc


def _error_json(e: PtcError) -> dict:
    span = e.span
    return {"reason": e.reason, "message": e.message, "hint": e.hint,
            "span": None if span is None else [span.line, span.col, span.end_line, span.end_col]}


# --- reading -------------------------------------------------------------------------------

def load_trace(path, lazy: bool = False) -> Trace:
    """The trace saved at `path`; UnreadableTrace for a file that cannot be read (missing, not
    a regular file, too large), TraceError for a broken, truncated, hostile or wrong-version
    one. `lazy`: see trace_from_json."""
    name = os.fspath(path)
    return trace_from_json(load_trace_doc(path), name, lazy)


def trace_file_size(path) -> int:
    """The size of the trace file at `path`, checked as load_trace checks it before reading
    (missing, not a regular file, unreadable, too large: UnreadableTrace), without reading it."""
    try:
        return readable_size(path, MAX_FILE_BYTES)
    except UnreadableFile as e:
        raise UnreadableTrace(str(e)) from None


def load_trace_doc(path):
    """The JSON document in the trace file at `path`, parsed but not yet checked as a trace."""
    try:
        text = read_text(path, MAX_FILE_BYTES)
    except UnreadableFile as e:
        raise UnreadableTrace(str(e)) from None
    except ValueError as e:
        raise TraceError(str(e)) from None
    return parse_json(text, os.fspath(path))


def loads_trace(text: str, name: str = "<trace>", lazy: bool = False) -> Trace:
    return trace_from_json(parse_json(text, name), name, lazy)


def parse_json(text: str, name: str):
    """`text` parsed as JSON; TraceError naming `name` for text that is not JSON, and for what
    JSON allows but a trace never holds: a key given twice, NaN or infinite numbers, integers
    past 64 bits (but in `upstream`) and lone surrogates (the error names the field)."""
    try:
        return strict_json.loads(text, long_integers_in="upstream")
    except (strict_json.DuplicateKey, strict_json.BadValue) as e:
        raise TraceError(f"{name}: {e}") from None
    except json.JSONDecodeError as e:
        if e.pos >= len(text.rstrip()):
            raise TraceError(f"{name}: the file ends in the middle of the JSON "
                             f"(truncated?)") from None
        raise TraceError(f"{name}: not valid JSON at line {e.lineno}, column {e.colno}: "
                         f"{e.msg}") from None
    except RecursionError:
        raise TraceError(f"{name}: JSON nested too deeply to be a trace") from None


def trace_from_json(doc, name: str = "<trace>", lazy: bool = False) -> Trace:
    """The trace in a parsed trace document; TraceError naming `name` and the bad field.
    `lazy`: its turns are a LazyTurns, each decoded (and checked) only when it is first asked
    for, so a broken turn is a TraceError then; else every turn is decoded now."""
    trace = _named(name, _trace, doc, name)
    if lazy:
        return trace
    trace.turns.decode_all()
    return replace(trace, turns=tuple(trace.turns))


def _named(name: str, make, *args):
    """make(*args), a bad field in it a TraceError naming the file `name`."""
    try:
        return make(*args)
    except (MalformedValue, _Bad) as e:
        raise TraceError(f"{name}: {e}") from None
    except RecursionError:
        raise TraceError(f"{name}: a value is nested too deeply") from None


class _Bad(Exception):
    pass


def _get(obj, key: str, kind, where: str, optional: bool = False):
    if type(obj) is not dict:
        raise _Bad(f"{where}: expected an object")
    if key not in obj:
        if optional:
            return None
        raise _Bad(f"{where}: missing field {key!r}")
    value = obj[key]
    if value is None and optional:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if type(value) not in kinds or (int in kinds and type(value) is bool):
        names = " or ".join(_KIND_NAMES[k] for k in kinds)
        raise _Bad(f"{where}.{key}: expected {names}, got {_KIND_NAMES.get(type(value), 'value')}")
    return value


_KIND_NAMES = {str: "a string", int: "an integer", float: "a number", list: "a list",
               dict: "an object", bool: "true/false", type(None): "null"}
_NUM = (int, float)


def _trace(doc, name: str) -> Trace:
    if type(doc) is not dict or doc.get("format") != FORMAT:
        raise _Bad(f"not a ptc-tui trace (expected \"format\": \"{FORMAT}\" at the top)")
    version = _get(doc, "version", int, "trace")
    if version != VERSION:
        newer = "newer than" if version > VERSION else "older than"
        raise _Bad(f"trace format version {version} is {newer} the version this ptc-tui "
                   f"reads ({VERSION})")
    agent = _agent(_get(doc, "agent", dict, "trace"))
    table = _get(doc, "messages", list, "trace")
    messages = []
    for i, m in enumerate(table):
        role = _get(m, "role", str, f"messages[{i}]")
        if role not in ROLES:
            raise _Bad(f"messages[{i}].role: unknown role {role[:20]!r}")
        message = {"role": role, "content": _get(m, "content", str, f"messages[{i}]")}
        for key, kind in zip(MESSAGE_EXTRAS, (list, str)):
            if _get(m, key, kind, f"messages[{i}]", optional=True) is not None:
                message[key] = m[key]
        messages.append(message)
    raw_turns = _get(doc, "turns", list, "trace")
    for i, t in enumerate(raw_turns):          # numbered 1, 2, ...: known before decoding
        number = _get(t, "number", int, f"turns[{i}]")
        if number != i + 1:
            raise _Bad(f"turns[{i}].number: expected {i + 1}, got {number}")
    turns = LazyTurns(raw_turns, lambda t, i, memory: _named(
        name, _turn, t, f"turns[{i}]", messages, memory))
    o = _get(doc, "outcome", dict, "trace")
    status = _get(o, "status", str, "outcome")
    if status not in ("returned", "failed", "running"):
        raise _Bad(f"outcome.status: unknown status {status[:20]!r}")
    fail = _get(o, "fail", dict, "outcome", optional=True)
    outcome = Outcome(status, decode(o.get("return_value"), "outcome.return_value"),
                      _get(fail, "reason", str, "outcome.fail") if fail else None,
                      _get(fail, "message", str, "outcome.fail") if fail else None)
    return Trace(agent, turns, outcome,
                 _get(doc, "engine_version", str, "trace", optional=True) or "",
                 _get(doc, "created_at", str, "trace", optional=True) or "",
                 _parent(_get(doc, "parent", dict, "trace", optional=True)),
                 _get(doc, "upstream", dict, "trace", optional=True))


def _parent(p) -> Parent | None:
    """The optional `parent` of a fork (traces written before forks have none)."""
    if p is None:
        return None
    w = "parent"
    turn = _get(p, "turn", int, w)
    if turn < 1:
        raise _Bad(f"{w}.turn: must be at least 1")
    changed = _get(p, "changed", dict, w)
    for key, value in changed.items():
        if type(value) not in (str, int, float, bool, type(None)):
            raise _Bad(f"{w}.changed.{key[:40]}: expected a string, number, true/false or null")
    tools = _get(p, "tools", str, w)
    if tools not in ("agent", "recorded"):
        raise _Bad(f"{w}.tools: expected \"agent\" or \"recorded\", got {tools[:20]!r}")
    return Parent(_get(p, "sha256", str, w), _get(p, "file", str, w, optional=True), turn,
                  changed, tools)


def _agent(a) -> AgentInfo:
    w = "agent"
    tools = []
    for i, t in enumerate(_get(a, "tools", list, w)):
        tools.append(ToolInfo(_get(t, "name", str, f"{w}.tools[{i}]"),
                              _get(t, "params", str, f"{w}.tools[{i}]"),
                              _get(t, "returns", str, f"{w}.tools[{i}]"),
                              _get(t, "description", str, f"{w}.tools[{i}]")))
    history = _get(a, "history", dict, w)
    known = {f.name for f in fields(HistoryOpts)}
    try:
        opts = HistoryOpts(**{k: v for k, v in history.items() if k in known}).checked()
    except (TypeError, ValueError) as e:
        raise _Bad(f"{w}.history: {e}") from None
    max_turns = _get(a, "max_turns", int, w)
    if max_turns < 1:
        raise _Bad(f"{w}.max_turns: must be at least 1")
    data = {k: decode(v, f"{w}.data.{k}") for k, v in _get(a, "data", dict, w).items()}
    settings = _get(a, "llm_settings", dict, w, optional=True) or {}
    for key, value in settings.items():
        if type(value) not in (str, int, float, bool, type(None)):
            raise _Bad(f"{w}.llm_settings.{key[:40]}: expected a string, number, true/false or null")
    return AgentInfo(_get(a, "mission", str, w), max_turns, _get(a, "reference", str, w),
                     tuple(tools), data, opts, _get(a, "llm", str, w),
                     _get(a, "name", str, w, optional=True) or "agent",
                     _get(a, "description", str, w, optional=True) or "", settings)


def _turn(t, w: str, messages: list, memory: dict) -> Turn:
    sent = []
    for j in _get(t, "sent", list, w):
        if type(j) is not int or not 0 <= j < len(messages):
            raise _Bad(f"{w}.sent: {j!r} is not an index into messages")
        sent.append(messages[j])
    changes = _get(t, "memory_changes", dict, w)
    new_memory = {**memory, **{k: decode(v, f"{w}.memory_changes.{k}")
                               for k, v in changes.items()}} if changes else memory
    calls = []
    for i, c in enumerate(_get(t, "tool_calls", list, w)):
        cw = f"{w}.tool_calls[{i}]"
        calls.append(ToolCall(_get(c, "name", str, cw),
                              tuple(decode(x, f"{cw}.args") for x in _get(c, "args", list, cw)),
                              decode(c.get("result"), f"{cw}.result"),
                              _get(c, "error", str, cw, optional=True),
                              _ms(c, "duration_ms", cw)))
    definitions = [Definition(_get(d, "name", str, f"{w}.definitions[{i}]"),
                              _get(d, "doc", str, f"{w}.definitions[{i}]", optional=True),
                              _get(d, "is_fn", bool, f"{w}.definitions[{i}]"))
                   for i, d in enumerate(_get(t, "definitions", list, w))]
    prints = _get(t, "prints", list, w)
    for i, p in enumerate(prints):
        if type(p) is not str:
            raise _Bad(f"{w}.prints[{i}]: expected a string")
    usage = _get(t, "usage", dict, w, optional=True)
    signal = _get(t, "signal", str, w, optional=True)
    if signal not in (None, "return", "fail"):
        raise _Bad(f"{w}.signal: unknown signal {signal[:20]!r}")
    return Turn(
        number=_get(t, "number", int, w), raw_response=_get(t, "raw_response", str, w),
        program=_get(t, "program", str, w, optional=True),
        result=decode(t.get("result"), f"{w}.result"), error=_error(t.get("error"), w),
        signal=signal, prints=tuple(prints), tool_calls=tuple(calls), memory=new_memory,
        definitions=tuple(definitions), messages=tuple(sent),
        usage=None if usage is None else _usage(usage, f"{w}.usage"),
        response=_response(t, w),
        llm_ms=_ms(t, "llm_ms", w), run_ms=_ms(t, "run_ms", w))


def _usage(usage, where: str) -> Usage:
    cost = _get(usage, "cost_usd", _NUM, where, optional=True)
    if cost is not None and not 0 <= cost <= MAX_COST_USD:
        raise _Bad(f"{where}.cost_usd: {cost:.3g} is out of range (0 to {MAX_COST_USD:.0e} USD)")
    return Usage(*(_get(usage, k, int, where, optional=True)
                   for k in _USAGE_KEYS + _OPTIONAL_USAGE_KEYS),
                 cost_usd=None if cost is None else float(cost))


MAX_MS = 1e10            # 115 days: longer than any turn, small enough to add up and print


def _ms(obj, key: str, where: str) -> float:
    """A duration in milliseconds (optional, 0 when absent), between 0 and MAX_MS."""
    value = float(_get(obj, key, _NUM, where, optional=True) or 0)
    if not 0 <= value <= MAX_MS:
        raise _Bad(f"{where}.{key}: {value:.3g} ms is out of range (0 to {MAX_MS:.0e} ms)")
    return value


def _response(t, w: str) -> Response | None:
    r = _get(t, "response", dict, w, optional=True)
    if r is None:
        return None
    rw = f"{w}.response"
    response = Response(*(_get(r, k, str, rw, optional=True)
                          for k in ("model", "id", "finish_reason", "provider_finish_reason")))
    if response.finish_reason not in (None, *FINISH_REASONS):
        raise _Bad(f"{rw}.finish_reason: {response.finish_reason[:20]!r} is not one of "
                   f"{', '.join(FINISH_REASONS)}")
    return response


def _error(e, w: str) -> PtcError | None:
    if e is None:
        return None
    ew = f"{w}.error"
    span = _get(e, "span", list, ew, optional=True)
    if span is not None and (len(span) != 4 or any(type(x) is not int for x in span)):
        raise _Bad(f"{ew}.span: expected [line, col, end_line, end_col]")
    return PtcError(_get(e, "reason", str, ew), _get(e, "message", str, ew),
                    Span(*span) if span else None, _get(e, "hint", str, ew, optional=True))
