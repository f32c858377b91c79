"""from_spec: an LLM from a command-line spec such as `openai:gpt-4o-mini` or `scripted:replies.json`."""

from __future__ import annotations

from collections.abc import Callable

from engine.llm.anthropic_messages import AnthropicMessages
from engine.llm.completion import LLM
from engine.llm.openai_chat import OllamaChat, OpenAIChat, OpenRouterChat
from engine.llm.scripted import ScriptedLLM
from engine.llm.simulated import SimulatedLLM

# prefix -> how to build the LLM from the rest of the spec and the caller's options
SPECS: dict[str, Callable[..., LLM]] = {
    "openai": OpenAIChat,
    "anthropic": AnthropicMessages,
    "openrouter": OpenRouterChat,
    "ollama": OllamaChat,
    # HTTP options (timeout, max_tokens...) mean nothing to a script: a CLI may pass them to any spec.
    "scripted": lambda path, **_http_options: ScriptedLLM.from_file(path),
    "simulated": lambda path, **_http_options: SimulatedLLM.from_file(path),
}
FORMS = ("openai:MODEL", "anthropic:MODEL", "openrouter:MODEL", "ollama:MODEL", "scripted:FILE",
         "simulated:FILE")


def from_spec(spec: str, **options) -> LLM:
    """The LLM a spec names; `options` go to its constructor (api_key, timeout, max_tokens...).

    `replay:TRACE` needs a trace file read, which is engine.agent's job, so it is refused here.
    """
    prefix, _, rest = spec.partition(":")
    if prefix == "replay":
        raise ValueError(f"{spec!r}: replay specs are resolved by engine.agent, not engine.llm")
    if prefix not in SPECS:
        raise ValueError(f"unknown LLM spec {spec!r}; expected one of: {', '.join(FORMS)}")
    if not rest.strip():
        raise ValueError(f"LLM spec {spec!r} names no {'file' if prefix in ('scripted', 'simulated') else 'model'}; "
                         f"expected one of: {', '.join(FORMS)}")
    return SPECS[prefix](rest.strip(), **options)
