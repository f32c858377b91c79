"""A parsed trace document decoded into a Trace, every field checked: a missing field, one of
the wrong kind and a value out of range are each an error naming the field (`Bad`, made a
TraceError naming the file by `named`). The schema: docs/trace-format.md."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from engine.history import FINISH_REASONS, HistoryOpts, Response, ToolInfo, Turn, Usage
from engine.lisp import Definition, PtcError, Span, ToolCall
from engine.trace.lazy_json import LazyItems
from engine.trace.lazy_turns import LazyTurns
from engine.trace.model import (FORMAT, MAX_COST_USD, MESSAGE_EXTRAS, OPTIONAL_USAGE_KEYS, ROLES,
                                USAGE_KEYS, VERSION, AgentInfo, Outcome, Parent, Trace,
                                TraceError)
from engine.trace.values import MalformedValue, decode


def named(name: str, make, *args):
    """make(*args), a bad field in it a TraceError naming the file `name`."""
    try:
        return make(*args)
    except (MalformedValue, Bad) as e:
        raise TraceError(f"{name}: {e}") from None
    except RecursionError:
        raise TraceError(f"{name}: a value is nested too deeply") from None


class Bad(Exception):
    """A field that is missing, of the wrong kind or out of range; the message names it."""


def _get(obj, key: str, kind, where: str, optional: bool = False):
    if type(obj) is not dict:
        raise Bad(f"{where}: expected an object")
    if key not in obj:
        if optional:
            return None
        raise Bad(f"{where}: missing field {key!r}")
    value = obj[key]
    if value is None and optional:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if type(value) not in kinds or (int in kinds and type(value) is bool):
        names = " or ".join(_KIND_NAMES[k] for k in kinds)
        raise Bad(f"{where}.{key}: expected {names}, got {_KIND_NAMES.get(type(value), 'value')}")
    return value


_KIND_NAMES = {str: "a string", int: "an integer", float: "a number", list: "a list",
               dict: "an object", bool: "true/false", type(None): "null"}
_NUM = (int, float)


def decoded_trace(doc, name: str, raw: bytes | None = None,
                  lists: dict[str, list] | None = None) -> Trace:
    """The trace in the parsed document `doc` of the file `name`, its turns a LazyTurns (each
    decoded and checked when first asked for); Bad naming the first bad field. `lists`: the
    items of `doc`'s lists `messages` and `turns` left in the file's bytes `raw` (lazy_json.
    split_lists), each parsed and checked when first asked for, a broken one a TraceError
    then."""
    if type(doc) is dict and type(doc.get("resourceSpans")) is list and "format" not in doc:
        raise Bad("an OpenTelemetry OTLP/JSON export, not a ptc-tui trace: "
                  "`ptc-tui import FILE -o trace.json` makes it one")
    if type(doc) is not dict or doc.get("format") != FORMAT:
        raise Bad(f"not a ptc-tui trace (expected \"format\": \"{FORMAT}\" at the top)")
    version = _get(doc, "version", int, "trace")
    if version != VERSION:
        newer = "newer than" if version > VERSION else "older than"
        raise Bad(f"trace format version {version} is {newer} the version this ptc-tui "
                   f"reads ({VERSION})")
    agent = _agent(_get(doc, "agent", dict, "trace"))
    lists = lists or {}
    table = _get(doc, "messages", list, "trace")
    raw_turns = _get(doc, "turns", list, "trace")

    def error(message: str) -> TraceError:
        return TraceError(f"{name}: {message}")
    if "messages" in lists:
        messages = LazyItems(raw, "messages", lists["messages"], _message, True, error)
    else:
        messages = [_message(m, i) for i, m in enumerate(table)]
    if "turns" in lists:
        raw_turns = LazyItems(raw, "turns", lists["turns"],
                              lambda t, i: named(name, _numbered, t, i), False, error)
    else:
        for i, t in enumerate(raw_turns):      # numbered 1, 2, ...: known before decoding
            _numbered(t, i)
    turns = LazyTurns(raw_turns, lambda t, i, memory: named(
        name, _turn, t, f"turns[{i}]", messages, memory))
    o = _get(doc, "outcome", dict, "trace")
    status = _get(o, "status", str, "outcome")
    if status not in ("returned", "failed", "running"):
        raise Bad(f"outcome.status: unknown status {status[:20]!r}")
    fail = _get(o, "fail", dict, "outcome", optional=True)
    outcome = Outcome(status, decode(o.get("return_value"), "outcome.return_value"),
                      _get(fail, "reason", str, "outcome.fail") if fail else None,
                      _get(fail, "message", str, "outcome.fail") if fail else None)
    return Trace(agent, turns, outcome,
                 _get(doc, "engine_version", str, "trace", optional=True) or "",
                 _get(doc, "created_at", str, "trace", optional=True) or "",
                 _parent(_get(doc, "parent", dict, "trace", optional=True)),
                 _get(doc, "upstream", dict, "trace", optional=True))


def _message(m, i: int) -> dict:
    role = _get(m, "role", str, f"messages[{i}]")
    if role not in ROLES:
        raise Bad(f"messages[{i}].role: unknown role {role[:20]!r}")
    message = {"role": role, "content": _get(m, "content", str, f"messages[{i}]")}
    for key, kind in zip(MESSAGE_EXTRAS, (list, str)):
        if _get(m, key, kind, f"messages[{i}]", optional=True) is not None:
            message[key] = m[key]
    return message


def _numbered(t, i: int):
    """Turn `t`, the `i`th, numbered i + 1 (turns are numbered 1, 2, ...)."""
    number = _get(t, "number", int, f"turns[{i}]")
    if number != i + 1:
        raise Bad(f"turns[{i}].number: expected {i + 1}, got {number}")
    return t


def _parent(p) -> Parent | None:
    """The optional `parent` of a fork (traces written before forks have none)."""
    if p is None:
        return None
    w = "parent"
    turn = _get(p, "turn", int, w)
    if turn < 1:
        raise Bad(f"{w}.turn: must be at least 1")
    changed = _get(p, "changed", dict, w)
    for key, value in changed.items():
        if type(value) not in (str, int, float, bool, type(None)):
            raise Bad(f"{w}.changed.{key[:40]}: expected a string, number, true/false or null")
    tools = _get(p, "tools", str, w)
    if tools not in ("agent", "recorded"):
        raise Bad(f"{w}.tools: expected \"agent\" or \"recorded\", got {tools[:20]!r}")
    return Parent(_get(p, "sha256", str, w), _get(p, "file", str, w, optional=True), turn,
                  changed, tools, _get(p, "llm", str, w, optional=True))


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
        raise Bad(f"{w}.history: {e}") from None
    max_turns = _get(a, "max_turns", int, w)
    if max_turns < 1:
        raise Bad(f"{w}.max_turns: must be at least 1")
    data = {k: decode(v, f"{w}.data.{k}") for k, v in _get(a, "data", dict, w).items()}
    settings = _get(a, "llm_settings", dict, w, optional=True) or {}
    for key, value in settings.items():
        if type(value) not in (str, int, float, bool, type(None)):
            raise Bad(f"{w}.llm_settings.{key[:40]}: expected a string, number, true/false or null")
    return AgentInfo(_get(a, "mission", str, w), max_turns, _get(a, "reference", str, w),
                     tuple(tools), data, opts, _get(a, "llm", str, w),
                     _get(a, "name", str, w, optional=True) or "agent",
                     _get(a, "description", str, w, optional=True) or "", settings)


def _message_at(messages: Sequence, j, w: str) -> dict:
    """messages[j]; Bad for a `j` that is not an index into them. Not checked against
    len(messages): a file's messages may be found lazily, as far as j and no further."""
    if type(j) is int and j >= 0:
        try:
            return messages[j]
        except IndexError:
            pass
    raise Bad(f"{w}.sent: {j!r} is not an index into messages")


def _turn(t, w: str, messages: Sequence, memory: dict) -> Turn:
    sent = [_message_at(messages, j, w) for j in _get(t, "sent", list, w)]
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
            raise Bad(f"{w}.prints[{i}]: expected a string")
    usage = _get(t, "usage", dict, w, optional=True)
    signal = _get(t, "signal", str, w, optional=True)
    if signal not in (None, "return", "fail"):
        raise Bad(f"{w}.signal: unknown signal {signal[:20]!r}")
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
        raise Bad(f"{where}.cost_usd: {cost:.3g} is out of range (0 to {MAX_COST_USD:.0e} USD)")
    return Usage(*(_get(usage, k, int, where, optional=True)
                   for k in USAGE_KEYS + OPTIONAL_USAGE_KEYS),
                 cost_usd=None if cost is None else float(cost))


MAX_MS = 1e10            # 115 days: longer than any turn, small enough to add up and print


def _ms(obj, key: str, where: str) -> float:
    """A duration in milliseconds (optional, 0 when absent), between 0 and MAX_MS."""
    value = float(_get(obj, key, _NUM, where, optional=True) or 0)
    if not 0 <= value <= MAX_MS:
        raise Bad(f"{where}.{key}: {value:.3g} ms is out of range (0 to {MAX_MS:.0e} ms)")
    return value


def _response(t, w: str) -> Response | None:
    r = _get(t, "response", dict, w, optional=True)
    if r is None:
        return None
    rw = f"{w}.response"
    response = Response(*(_get(r, k, str, rw, optional=True)
                          for k in ("model", "id", "finish_reason", "provider_finish_reason")))
    if response.finish_reason not in (None, *FINISH_REASONS):
        raise Bad(f"{rw}.finish_reason: {response.finish_reason[:20]!r} is not one of "
                   f"{', '.join(FINISH_REASONS)}")
    return response


def _error(e, w: str) -> PtcError | None:
    if e is None:
        return None
    ew = f"{w}.error"
    span = _get(e, "span", list, ew, optional=True)
    if span is not None and (len(span) != 4 or any(type(x) is not int for x in span)):
        raise Bad(f"{ew}.span: expected [line, col, end_line, end_col]")
    return PtcError(_get(e, "reason", str, ew), _get(e, "message", str, ew),
                    Span(*span) if span else None, _get(e, "hint", str, ew, optional=True))
