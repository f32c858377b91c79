"""Conformance cases: plain-text files, one topic per file, one pytest test per case.

    ;; --- a section header (any line starting with ;; is a comment)
    (+ 1 2) ;=> 3                      the value, printed with pr-str
    (/ 1 0) ;=> ##Inf
    (nth [1] "a") ;!! type_error        the error reason
    (foo) ;!! unbound_var "foo"         ... and a text the message must contain
    (println "hi") ;out> hi             one ;out> per printed entry, in order
    ;out> second entry                  (a line starting with ;out> adds to the case above)

A case may span several lines: everything up to the line with the marker is its source.
Every case runs with fresh memory, with DATA as `data/...` and TOOLS as `tool/...`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

MARKERS = re.compile(r";(=>|!!|out>)")


@dataclass
class Case:
    file: str
    line: int
    source: str
    value: str | None = None
    reason: str | None = None
    message: str | None = None
    prints: list[str] | None = None
    expectations: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def parse_cases(path: Path) -> list[Case]:
    cases: list[Case] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith(";out>") and cases and not pending:
            _expect(cases[-1], "out>", stripped[5:])
            continue
        if not pending and (not stripped or stripped.startswith(";;")):
            continue
        m = _marker(line)
        if m is None:
            if not pending:
                start = number
            pending.append(line)
            continue
        if not pending:
            start = number
        pending.append(line[: m.start()])
        case = Case(path.name, start, "\n".join(pending).strip())
        _expect(case, m.group(1), line[m.end():])
        cases.append(case)
        pending = []
    if pending:
        raise ValueError(f"{path.name}:{start}: case without an expectation")
    return cases


def _marker(line: str):
    """The first expectation marker that is not inside a string literal."""
    in_string = escaped = False
    for i, ch in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "\\":
            escaped = True  # a character literal such as \" or \;
        elif ch == ";" and not escaped:
            m = MARKERS.match(line, i)
            if m:
                return m
        else:
            escaped = False
    return None


def _expect(case: Case, kind: str, text: str) -> None:
    text = text.strip() if kind != "out>" else text[1:] if text.startswith(" ") else text
    case.expectations.append(kind)
    if kind == "=>":
        case.value = text
    elif kind == "!!":
        reason, _, message = text.partition(" ")
        case.reason = reason
        case.message = message.strip().strip('"') or None
    else:
        case.prints = (case.prints or []) + [text]
