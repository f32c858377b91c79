"""What a run returns: RunResult, with its ToolCall and Definition records."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.lisp.errors import PtcError
from engine.lisp.printer import format_value


class ToolFailure(Exception):
    """Raised by a tool to fail with exactly this message, no exception type put before it
    (a fork answering from a recorded call repeats the recorded error word for word)."""


@dataclass(frozen=True)
class ToolCall:
    """One tool call: arguments as the program wrote them, and the result or the error."""

    name: str
    args: tuple
    result: object = None
    error: str | None = None
    duration_ms: float = 0.0

    def call_text(self, limit: int = 3, printable_limit: int = 60) -> str:
        """`search({:limit 5 :query "x"})`, arguments cut by the truncating formatter."""
        args = " ".join(format_value(a, limit, printable_limit)[0] for a in self.args)
        return f"{self.name}({args})"


@dataclass(frozen=True)
class Definition:
    """One `def`/`defn` evaluated in a run, in order (a name may appear more than once)."""

    name: str
    doc: str | None
    is_fn: bool


@dataclass(frozen=True)
class RunResult:
    value: object = None
    signal: str | None = None          # None, "return" or "fail"
    error: PtcError | None = None
    prints: list[str] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    memory: dict = field(default_factory=dict)
    definitions: list[Definition] = field(default_factory=list)
    duration_ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None
