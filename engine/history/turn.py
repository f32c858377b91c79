"""Turn, the immutable record of one LLM request and the program it produced; Usage and
Response, what the provider reported about the request."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.lisp import Definition, PtcError, ToolCall


@dataclass(frozen=True)
class Usage:
    """Tokens as the LLM provider reported them for one request (None: not reported)."""

    input_tokens: int | None = None        # the whole prompt, cached part included
    output_tokens: int | None = None       # reasoning tokens included
    cached_tokens: int | None = None       # read from the provider's prompt cache
    cache_write_tokens: int | None = None  # written to it (Anthropic's cache_creation)
    reasoning_tokens: int | None = None    # spent on hidden reasoning (o-series, gpt-5)
    cost_usd: float | None = None          # the call's cost as reported with it (a reference
                                           # run's `total_cost`), US dollars


# How a reply ended, normalised to the OpenTelemetry GenAI values.
FINISH_REASONS = ("stop", "length", "content_filter", "tool_call", "error")


@dataclass(frozen=True)
class Response:
    """What the provider said about its reply (None: not reported).

    `finish_reason` is one of FINISH_REASONS; `provider_finish_reason` is the provider's own
    word for it (`end_turn`, `max_tokens`, `length`, ...).
    """

    model: str | None = None
    id: str | None = None
    finish_reason: str | None = None
    provider_finish_reason: str | None = None


@dataclass(frozen=True)
class Turn:
    """One turn: what was sent, what the LLM replied, and everything its program did.

    `program` is None when the reply had no code; that turn fails with reason `no_code`. A
    reply cut at the output limit fails with reason `truncated`: its program is kept, not run.
    `memory` is the user namespace after the turn (unchanged by a failed turn, which is
    rolled back). `definitions` lists this turn's `def`/`defn` in order, with docstrings.
    """

    number: int
    raw_response: str
    program: str | None
    result: object = None                 # the last value, or the value of (return v) / (fail v)
    error: PtcError | None = None
    signal: str | None = None             # None, "return" or "fail"
    prints: tuple[str, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    memory: Mapping = field(default_factory=dict)
    definitions: tuple[Definition, ...] = ()
    messages: tuple[dict, ...] = ()       # the request sent to the LLM for this turn
    usage: Usage | None = None
    response: Response | None = None
    llm_ms: float = 0.0
    run_ms: float = 0.0

    @property
    def success(self) -> bool:
        """The program ran without error (a `(fail v)` turn ran without error too)."""
        return self.error is None


def error_text(error: PtcError) -> str:
    """How an error reads in a message to the LLM: reason, message, place and hint."""
    return f"Error: {error}"
