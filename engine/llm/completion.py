"""Completion, what one LLM request returns, the LLM callable type, and `complete` to call any LLM."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.llm.errors import LLMError


@dataclass(frozen=True)
class Completion:
    """A reply's text with the usage the provider reported (None: not reported).

    `input_tokens` is the whole prompt, cached part included, whatever the provider;
    `cached_tokens` is the part read from the provider's prompt cache, `cache_write_tokens`
    the part written to it; `output_tokens` includes `reasoning_tokens`. `finish_reason` is
    normalised to the OpenTelemetry GenAI values (`stop`, `length`, `content_filter`,
    `tool_call`, `error`); `provider_finish_reason` keeps the provider's own word.
    `model` and `response_id` are the response's, as the provider returned them.
    """

    text: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    cached_tokens: int | None = None
    model: str | None = None
    provider: str | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    response_id: str | None = None
    finish_reason: str | None = None
    provider_finish_reason: str | None = None


# Messages are {"role": "system" | "user" | "assistant", "content": str}.
LLM = Callable[[list[dict]], "str | Completion"]


def complete(llm: LLM, messages: list[dict]) -> Completion:
    """Call `llm` and return a Completion, whatever the callable returned or raised.

    A user-supplied callable may raise anything; it becomes an LLMError so callers handle
    one error type (KeyboardInterrupt and other BaseExceptions still pass through). It gets
    copies of the messages: it may change them, and a strategy's requests share their dicts.
    """
    try:
        reply = llm([dict(m) for m in messages])
    except LLMError:
        raise
    except Exception as exc:
        raise LLMError(llm_label(llm), f"{type(exc).__name__}: {exc}") from exc
    if isinstance(reply, Completion):
        return reply
    if isinstance(reply, str):
        return Completion(text=reply)
    raise LLMError(llm_label(llm), f"returned {type(reply).__name__}, expected str or Completion")


def llm_label(llm: object) -> str:
    """How an error names an LLM: its `.name`, else its function or class name."""
    name = getattr(llm, "name", None) or getattr(llm, "__name__", None)
    return name if isinstance(name, str) else type(llm).__name__
