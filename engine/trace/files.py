"""Reading and writing trace files (schema: docs/trace-format.md). A bad file of any kind
gives one TraceError naming the file and what is wrong with it."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, replace

from engine.history import Turn, Usage
from engine.lisp import PtcError
from engine.trace import strict_json
from engine.trace.decoding import decoded_trace, named
from engine.trace.disk import (UnreadableFile, read_content, read_json_text, read_text,
                               readable_size, write_atomically)
from engine.trace.lazy_json import split_lists
from engine.trace.model import (FORMAT, MESSAGE_EXTRAS, OPTIONAL_USAGE_KEYS, USAGE_KEYS, VERSION,
                                Trace, TraceError, UnreadableTrace)
from engine.trace.values import encode

MAX_FILE_BYTES = 512 * 1024 * 1024


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
        if p.llm is not None:
            doc["parent"]["llm"] = p.llm
    if trace.upstream is not None:
        doc["upstream"] = trace.upstream
    return doc


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


def _usage_json(usage: Usage | None) -> dict | None:
    if usage is None:
        return None
    doc = {k: getattr(usage, k) for k in USAGE_KEYS}
    doc.update({k: getattr(usage, k) for k in OPTIONAL_USAGE_KEYS
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
    one. `lazy`: see lazy_trace_from_bytes; a file it does not split is read whole, its turns
    decoded as they are asked for."""
    name = os.fspath(path)
    if lazy:
        trace = lazy_trace_from_bytes(read_trace_bytes(path), name)
        if trace is not None:
            return trace
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
    return parse_json_read(read_trace_text(path), path)


def read_trace_bytes(path) -> bytes:
    """The bytes of the trace file at `path` (gzip's decompressed), as they are;
    UnreadableTrace or TraceError naming the file."""
    return _read_as_trace(read_content, path)


def read_trace_text(path) -> str:
    """The text of the trace file at `path`, characters past ASCII as JSON escapes (see
    read_json_text); UnreadableTrace or TraceError naming the file."""
    return _read_as_trace(read_json_text, path)


def _read_as_trace(read, path):
    """`read(path, MAX_FILE_BYTES)`, its errors the trace errors naming the file."""
    try:
        return read(path, MAX_FILE_BYTES)
    except UnreadableFile as e:
        raise UnreadableTrace(str(e)) from None
    except ValueError as e:
        raise TraceError(str(e)) from None


def parse_json_read(text: str, path):
    """`text`, as read_trace_text read it from `path`, parsed; a JSON error is the one the
    file gives as written (its escapes would move a column on a line past ASCII)."""
    try:
        return parse_json(text, os.fspath(path))
    except TraceError:
        if text.isascii():               # escaped, or ASCII as written: parse it as written
            return parse_json(read_text(path, MAX_FILE_BYTES), os.fspath(path))
        raise


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
        if not text.strip():
            raise TraceError(f"{name}: the file is empty") from None
        # a string left open runs to the end: the error points at where it starts
        if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):
            raise TraceError(f"{name}: the file ends in the middle of the JSON "
                             f"(truncated?)") from None
        raise TraceError(f"{name}: not valid JSON at line {e.lineno}, column {e.colno}: "
                         f"{e.msg}") from None
    except RecursionError:
        raise TraceError(f"{name}: JSON nested too deeply to be a trace") from None


def lazy_trace_from_bytes(raw: bytes, name: str) -> Trace | None:
    """The trace in `raw` (the bytes of the file `name`, read_trace_bytes), its turns a
    LazyTurns, when the file is laid out as save_trace lays it out: its two long lists, its
    messages and turns, are decoded and parsed an item at a time as they are asked for
    (lazy_json; a broken item a TraceError then). None for a file laid out otherwise, or whose
    rest is not UTF-8 JSON: the caller reads it whole (which reports what is wrong as the whole
    file shows it)."""
    split = split_lists(raw, ("messages", "turns"))
    if split is None:
        return None
    rest, lists = split
    try:
        doc = parse_json(rest.decode("utf-8"), name)
    except (UnicodeDecodeError, TraceError):
        return None
    return named(name, decoded_trace, doc, name, raw, lists)


def trace_from_json(doc, name: str = "<trace>", lazy: bool = False) -> Trace:
    """The trace in a parsed trace document; TraceError naming `name` and the bad field.
    `lazy`: its turns are a LazyTurns, each decoded (and checked) only when it is first asked
    for, so a broken turn is a TraceError then; else every turn is decoded now."""
    trace = named(name, decoded_trace, doc, name)
    if lazy:
        return trace
    trace.turns.decode_all()
    return replace(trace, turns=tuple(trace.turns))
