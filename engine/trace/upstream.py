"""Reading the reference implementation's runs (andreasronge/ptc_runner): its private inspection
artifact (`run.inspection.jsonl`: the exact LLM requests and replies, the generated programs,
every capability call with its input and output) and, optionally, its canonical trace
(`run.jsonl`: lifecycle events with durations and statuses). This module only reads and checks
them; engine.agent.upstream builds one of our traces from what it reads.

Every problem is one TraceError naming the file. A run cut off mid-line keeps its complete
records and says how many lines it dropped (`Inspection.dropped`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine.trace.model import TraceError

KNOWN_SCHEMA_VERSIONS = (1, 2)
ENVELOPE = {"schema_version", "run_id", "trace_id", "sequence", "timestamp", "record_type",
            "correlation", "payload"}
RECORD_TYPES = {"capability-input", "capability-output", "evaluation-source", "prelude-source",
                "mcp-request", "mcp-response"}    # the last two: raw MCP traffic, not used


@dataclass
class Capability:
    """One capability call (`llm-request`, a connector tool such as `evidence.get`)."""

    id: str
    name: str
    evaluation_id: str | None
    arguments: object
    started: str                       # ISO 8601 timestamps of the input and output records
    result: dict | None = None         # the Dispatcher envelope {status, value | error}
    stopped: str | None = None         # None: no output was recorded (an interrupted call)


@dataclass
class Evaluation:
    """One subordinate PTC-Lisp evaluation: its exact source and the calls it made."""

    id: str
    source: str
    started: str
    calls: list[Capability] = field(default_factory=list)


@dataclass
class Inspection:
    """An inspection artifact, in record order: `steps` holds the `llm-request` calls and the
    evaluations as they happened; `preludes` the effective prelude sources by component."""

    run_id: str
    schema_version: int
    steps: list = field(default_factory=list)          # Capability (llm-request) | Evaluation
    preludes: dict[str, str] = field(default_factory=dict)
    dropped: int = 0                                   # lines lost to a cut-off end


def first_lines(text: str, count: int) -> list[str]:
    """The first `count` lines of `text` (fewer if it has fewer), without copying the rest, as
    text.split("\n", count) would (a long trace is tens of megabytes)."""
    lines, start = [], 0
    while len(lines) < count and start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        lines.append(text[start:end])
        start = end + 1
    return lines


def is_inspection(text: str) -> bool:
    """Whether `text` reads as an inspection artifact: its first line is a JSON object with the
    inspection envelope (judged by content, not by the file's name)."""
    first = first_lines(text.lstrip("\ufeff"), 1)[0].strip()
    if not first.startswith("{"):
        return False
    try:
        record = json.loads(first)
    except ValueError:
        return False
    return type(record) is dict and "record_type" in record and "payload" in record


def read_inspection(text: str, name: str) -> Inspection:
    """The records of an inspection artifact, checked; TraceError naming `name` otherwise."""
    records, dropped = _json_lines(text, name, "an inspection artifact")
    if not records:
        raise TraceError(f"{name}: no inspection records")
    first = records[0][1]
    if type(first) is not dict or "record_type" not in first:
        raise TraceError(f"{name}: not a ptc_runner inspection artifact (line 1 has no "
                         f"record_type)")
    version = first.get("schema_version")
    if version not in KNOWN_SCHEMA_VERSIONS:
        raise TraceError(f"{name}: inspection schema_version {version!r} is not one this "
                         f"ptc-tui reads ({', '.join(map(str, KNOWN_SCHEMA_VERSIONS))})")
    run = Inspection(str(first.get("run_id")), version, dropped=dropped)
    calls: dict[str, Capability] = {}
    evaluations: dict[str, Evaluation] = {}
    last_sequence = 0
    for line, r in records:
        where = f"{name}: line {line}"
        if type(r) is not dict or set(r) != ENVELOPE:
            raise TraceError(f"{where}: not an inspection record (expected exactly the keys "
                             f"{', '.join(sorted(ENVELOPE))})")
        if r["schema_version"] != version or r["run_id"] != first["run_id"]:
            raise TraceError(f"{where}: a record of another run or schema version")
        if type(r["sequence"]) is not int or r["sequence"] <= last_sequence:
            raise TraceError(f"{where}: sequence {r['sequence']!r} does not follow "
                             f"{last_sequence}")
        last_sequence = r["sequence"]
        kind, payload, corr = r["record_type"], r["payload"], r["correlation"]
        if kind not in RECORD_TYPES:
            raise TraceError(f"{where}: unknown record_type {str(kind)[:40]!r}")
        if type(payload) is not dict or type(corr) is not dict:
            raise TraceError(f"{where}: payload and correlation must be objects")
        try:
            _add(run, kind, payload, corr, str(r["timestamp"]), calls, evaluations)
        except (KeyError, TypeError) as e:
            raise TraceError(f"{where}: {kind} record without a valid {e}") from None
        except ValueError as e:
            raise TraceError(f"{where}: {e}") from None
    return run


def _add(run: Inspection, kind: str, payload: dict, corr: dict, at: str,
         calls: dict, evaluations: dict) -> None:
    if kind == "prelude-source":
        run.preludes[str(corr["component_id"])] = _text(payload, "source")
    elif kind == "evaluation-source":
        ev_id = str(corr["evaluation_id"])
        if ev_id in evaluations:
            raise ValueError(f"a second source for evaluation {ev_id}")
        evaluations[ev_id] = Evaluation(ev_id, _text(payload, "source"), at)
        run.steps.append(evaluations[ev_id])
    elif kind == "capability-input":
        cap_id = str(corr["capability_id"])
        if cap_id in calls:
            raise ValueError(f"a second input for capability {cap_id}")
        call = Capability(cap_id, _text(payload, "name"), payload.get("evaluation_id"),
                          payload.get("arguments"), at)
        calls[cap_id] = call
        if call.name == "llm-request":
            run.steps.append(call)
        elif call.evaluation_id in evaluations:
            evaluations[call.evaluation_id].calls.append(call)
    elif kind == "capability-output":
        call = calls.get(str(corr["capability_id"]))
        if call is None:
            raise ValueError(f"output of capability {corr['capability_id']} before its input")
        if type(payload["result"]) is not dict:
            raise ValueError("capability-output result is not an object")
        call.result, call.stopped = payload["result"], at


def _text(payload: dict, key: str) -> str:
    value = payload[key]
    if type(value) is not str:
        raise TypeError(key)
    return value


@dataclass
class Canonical:
    """What the canonical `run.jsonl` adds: durations and statuses by id, and the run's end."""

    run_id: str
    durations: dict[str, float] = field(default_factory=dict)    # capability/evaluation id
    statuses: dict[str, str] = field(default_factory=dict)       # evaluation id -> status
    model: str | None = None
    params: dict = field(default_factory=dict)
    outcome: str | None = None                                   # run-stopped: ok, error, ...
    reason: str | None = None


def read_canonical(text: str, name: str) -> Canonical:
    """The events of a canonical `run.jsonl` this importer uses; TraceError naming `name`."""
    records, _ = _json_lines(text, name, "a canonical run trace")
    if not records or type(records[0][1]) is not dict or "type" not in records[0][1]:
        raise TraceError(f"{name}: not a ptc_runner canonical trace (run.jsonl)")
    run = Canonical(str(records[0][1].get("run_id")))
    for line, event in records:
        data = event.get("data") if type(event) is dict else None
        if type(data) is not dict:
            raise TraceError(f"{name}: line {line}: an event without a data object")
        kind = event.get("type")
        ident = data.get("capability_id") or data.get("evaluation_id")
        if kind in ("capability-stopped", "evaluation-stopped") and \
                type(data.get("duration_ms")) in (int, float):
            run.durations[str(ident)] = float(data["duration_ms"])
        if kind == "evaluation-stopped":
            run.statuses[str(ident)] = str(data.get("status"))
        elif kind == "run-started":
            snaps = data.get("connector_snapshots")
            for snap in snaps if type(snaps) is list else ():
                if type(snap) is dict and type(snap.get("model")) is str:
                    run.model = str(snap.get("model"))
                    run.params = snap.get("params") if type(snap.get("params")) is dict else {}
        elif kind == "run-stopped":
            run.outcome, run.reason = data.get("outcome"), data.get("reason")
    return run


def _json_lines(text: str, name: str, what: str) -> tuple[list[tuple[int, object]], int]:
    """Each non-blank line parsed as JSON, with its line number, and how many lines were
    dropped: a last line cut off mid-record (no newline after it) is dropped, not an error."""
    lines = text.lstrip("\ufeff").split("\n")
    records = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append((i, json.loads(line)))
        except ValueError as e:
            if i == len(lines):             # the last line, with no newline after it
                return records, 1
            raise TraceError(f"{name}: line {i} is not JSON ({e.msg}): not {what}") from None
        except RecursionError:
            raise TraceError(f"{name}: line {i} is nested too deeply") from None
    return records, 0
