"""open_trace: the one loader the app and the commands use. A file is read once and judged by
its content: one of our trace files, or a run of the reference implementation (its
`run.inspection.jsonl`), imported with engine.agent.upstream."""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine.agent.upstream import import_inspection
from engine.trace import Trace, TraceError
from engine.trace.disk import file_head
from engine.trace.files import (lazy_trace_from_bytes, parse_json_read, read_trace_bytes,
                                read_trace_text, trace_from_json)
from engine.trace.upstream import first_lines, is_inspection

INSPECTION_SUFFIX = ".inspection.jsonl"


def open_trace(path, warn=None, canonical=None, lazy: bool = False) -> Trace:
    """The trace in the file at `path`. An inspection artifact is imported with the canonical
    trace `canonical` (a path) when given, else with the `run.jsonl` beside it when there is
    one for the same run (`NAME.inspection.jsonl` -> `NAME.jsonl`); `warn(line)` hears of
    lines dropped from a cut-off run. UnreadableTrace / TraceError name the file. `lazy`: the
    turns of one of our trace files are decoded as they are asked for (engine.trace.files.
    trace_from_json), its long lists parsed an item at a time when save_trace laid it out
    (lazy_trace_from_bytes; any other file is then read again, whole); a broken turn is a
    TraceError when it is asked for."""
    name = os.fspath(path)
    if lazy:
        trace = lazy_trace_from_bytes(read_trace_bytes(name), name)
        if trace is not None:
            return trace
    text = read_trace_text(name)
    if not is_inspection(text):
        _refuse_other_json_lines(text, name)
        return trace_from_json(parse_json_read(text, name), name, lazy)
    companion = canonical if canonical is not None else _companion(name)
    if companion is None:
        return import_inspection(text, name, warn=warn)
    trace = import_inspection(text, name, read_trace_text(os.fspath(companion)),
                              os.fspath(companion), warn)
    return trace


def _refuse_other_json_lines(text: str, name: str) -> None:
    """One clear line for JSON lines that are not a run we read (our traces are one document)."""
    lines = [line for line in first_lines(text, 2) if line.strip()]
    if len(lines) < 2 or not lines[0].lstrip("\ufeff").startswith("{"):
        return
    try:
        first = json.loads(lines[0])
        json.loads(lines[1])
    except ValueError:
        return
    if type(first) is dict and {"type", "run_id", "sequence"} <= set(first):
        raise TraceError(f"{name}: JSON lines of a ptc_runner canonical trace (run.jsonl), not "
                         f"a trace: import its run.inspection.jsonl (with --trace run.jsonl)")
    raise TraceError(f"{name}: JSON lines, but not a ptc_runner inspection artifact (no "
                     f"record_type on line 1) nor a ptc-tui trace")


def _companion(name: str) -> str | None:
    if not name.endswith(INSPECTION_SUFFIX):
        return None
    beside = name[:-len(INSPECTION_SUFFIX)] + ".jsonl"
    return beside if Path(beside).is_file() else None


def is_inspection_file(path, head: int = 4 * 1024 * 1024) -> bool:
    """Whether the file at `path` starts as an inspection artifact does (False when it cannot
    be read: the loader then says why)."""
    start = file_head(path, head)
    return start is not None and is_inspection(start.decode("utf-8", "replace"))
