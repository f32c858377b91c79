"""LLM clients: the callable protocol, Completion, LLMError, scripted/replay/simulated LLMs and HTTP providers.

An LLM is any callable `llm(messages) -> str | Completion`; `complete` calls one and always
returns a Completion or raises LLMError. This package imports nothing else of the engine.
"""

from engine.llm.anthropic_messages import AnthropicMessages
from engine.llm.completion import LLM, Completion, complete
from engine.llm.errors import LLMError
from engine.llm.openai_chat import (REASONING_EFFORTS, AzureChat, GeminiChat, OllamaChat, OpenAIChat,
                                    OpenRouterChat)
from engine.llm.scripted import ReplayLLM, ScriptedLLM
from engine.llm.simulated import SimulatedLLM
from engine.llm.specs import FORMS, MODEL_PROVIDERS, PROVIDERS, from_spec, spec_model

__all__ = [
    "LLM", "Completion", "LLMError", "complete", "from_spec", "spec_model", "PROVIDERS", "FORMS",
    "MODEL_PROVIDERS", "REASONING_EFFORTS", "ScriptedLLM", "ReplayLLM", "SimulatedLLM",
    "OpenAIChat", "OpenRouterChat", "OllamaChat", "GeminiChat", "AzureChat", "AnthropicMessages",
]
