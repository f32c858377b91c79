"""The providers an LLM spec names (`openai:gpt-4o-mini`, `scripted:replies.json`), in one table
that the command line's help, the token counts and prices, and forks all read; and `from_spec`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.llm.anthropic_messages import AnthropicMessages
from engine.llm.completion import LLM
from engine.llm.openai_chat import AzureChat, GeminiChat, OllamaChat, OpenAIChat, OpenRouterChat
from engine.llm.scripted import ScriptedLLM
from engine.llm.simulated import SimulatedLLM


@dataclass(frozen=True)
class Provider:
    """One spec prefix: how to build its LLM from the rest of the spec and the caller's options,
    and whether the rest names a model (priced and counted with its tokenizer, asked again by a
    fork) or a file of replies."""

    prefix: str
    make: Callable[..., LLM]
    names_model: bool = True
    argument: str = "MODEL"             # what the rest of the spec is, as help shows it

    @property
    def form(self) -> str:
        return f"{self.prefix}:{self.argument if self.names_model else 'FILE'}"


def _from_file(cls) -> Callable[..., LLM]:
    # HTTP options (timeout, max_tokens...) mean nothing to a script: a CLI may pass them to any spec.
    return lambda path, **_http_options: cls.from_file(path)


PROVIDERS = (
    Provider("openai", OpenAIChat),
    Provider("anthropic", AnthropicMessages),
    Provider("gemini", GeminiChat),
    Provider("azure", AzureChat, argument="DEPLOYMENT"),
    Provider("openrouter", OpenRouterChat),
    Provider("ollama", OllamaChat),
    Provider("scripted", _from_file(ScriptedLLM), names_model=False),
    Provider("simulated", _from_file(SimulatedLLM), names_model=False),
)
BY_PREFIX = {p.prefix: p for p in PROVIDERS}
FORMS = tuple(p.form for p in PROVIDERS)
# Spec prefixes that name a real model (the others, and engine.agent's replay:, name a file).
MODEL_PROVIDERS = tuple(p.prefix for p in PROVIDERS if p.names_model)


def spec_model(spec: str) -> str | None:
    """The spec itself when it names a model (`openai:gpt-4o-mini`), the key to its tokenizer,
    prices and cache rules; None for a file of replies (scripted, simulated, replay)."""
    prefix, _, rest = spec.partition(":")
    return spec if prefix in MODEL_PROVIDERS and rest.strip() else None


def from_spec(spec: str, **options) -> LLM:
    """The LLM a spec names; `options` go to its constructor (api_key, timeout, max_tokens...).

    `replay:TRACE` needs a trace file read, which is engine.agent's job, so it is refused here.
    """
    prefix, _, rest = spec.partition(":")
    if prefix == "replay":
        raise ValueError(f"{spec!r}: replay specs are resolved by engine.agent, not engine.llm")
    provider = BY_PREFIX.get(prefix)
    if provider is None:
        raise ValueError(f"unknown LLM spec {spec!r}; expected one of: {', '.join(FORMS)}")
    if not rest.strip():
        raise ValueError(f"LLM spec {spec!r} names no {'model' if provider.names_model else 'file'}; "
                         f"expected one of: {', '.join(FORMS)}")
    return provider.make(rest.strip(), **options)
