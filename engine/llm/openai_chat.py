"""OpenAIChat, a client of OpenAI-compatible chat completions (OpenAI, Azure OpenAI, Gemini,
OpenRouter, Ollama, vLLM...), and what each model family takes."""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit

from engine.llm.completion import Completion
from engine.llm.transport import HttpLLM, MalformedReply, count, mapping, message_in, one_line, text

# A choice's finish_reason, normalised to the OpenTelemetry GenAI values; another word (some
# compatible servers have their own) is kept as the provider's with no normalised value.
FINISH_REASONS = {"stop": "stop", "length": "length", "content_filter": "content_filter",
                  "tool_calls": "tool_call", "function_call": "tool_call", "error": "error"}

# OpenAI's reasoning models (o-series, the gpt-5 family but its chat models) take
# max_completion_tokens instead of max_tokens, no temperature but the default 1, and
# reasoning_effort (platform.openai.com/docs/guides/reasoning; Azure's "reasoning models" page).
REASONING_FAMILIES = ("o1", "o3", "o4", "gpt-5")
NOT_REASONING = ("gpt-5-chat",)
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")


def is_reasoning_model(model: str) -> bool:
    """True for `o3`, `o4-mini`, `gpt-5`, `gpt-5.1`, `openai/gpt-5-mini`; False for `gpt-4o`,
    `gpt-5-chat-latest`, `o30`."""
    name = model.lower().rsplit("/", 1)[-1]
    if name.startswith(NOT_REASONING):
        return False
    return any(name == f or name.startswith((f + "-", f + ".")) for f in REASONING_FAMILIES)


class OpenAIChat(HttpLLM):
    """`POST {base_url}/chat/completions`. The key may be left out for a localhost base_url."""

    provider = "openai"
    key_envs: tuple[str, ...] = ("OPENAI_API_KEY",)
    base_url_envs: tuple[str, ...] = ("OPENAI_BASE_URL",)
    default_base_url = "https://api.openai.com/v1"
    # Whether the provider documents `prompt_cache_key` (OpenAI does; Azure, Gemini, OpenRouter
    # and Ollama do not, and cache without it where they cache at all).
    takes_prompt_cache_key = True
    # Whether a reasoning model is known by its name (an Azure deployment is named by its owner).
    model_names_family = True

    def __init__(self, model: str, **options):
        super().__init__(model, **options)
        # One key per client, and so per run: OpenAI routes requests with the same key and
        # prefix to the same cache.
        self.cache_key = f"ptc-{uuid.uuid4().hex}"

    @property
    def reasoning(self) -> bool:
        return self.model_names_family and is_reasoning_model(self.model)

    def check_options(self) -> None:
        if self.reasoning_effort is not None and self.reasoning_effort not in REASONING_EFFORTS:
            raise self.error(f"unknown reasoning effort {self.reasoning_effort!r} (choose from "
                             f"{', '.join(REASONING_EFFORTS)})")
        if not self.model_names_family:        # the server knows its model; we do not
            return
        if not self.reasoning:
            if self.reasoning_effort is not None:
                raise self.error(f"{self.model} takes no reasoning effort (--reasoning-effort)")
            return
        if self.temperature is not None and self.temperature != 1:
            raise self.error(f"{self.model} is a reasoning model: it takes no temperature but "
                             "the default 1 (leave --temperature out)")

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def request_body(self, messages: list[dict]) -> dict:
        body: dict = {"model": self.model,
                      "messages": [{"role": m["role"], "content": m["content"]} for m in messages]}
        if self.temperature is not None and not self.reasoning:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body[self.max_tokens_field] = self.max_tokens
        if self.reasoning_effort is not None:
            body["reasoning_effort"] = self.reasoning_effort
        if self.prompt_cache and self.takes_prompt_cache_key:
            body["prompt_cache_key"] = self.cache_key
        return body

    @property
    def max_tokens_field(self) -> str:
        """`max_completion_tokens` for a reasoning model, else `max_tokens`, which every
        OpenAI-compatible server knows."""
        return "max_completion_tokens" if self.reasoning else "max_tokens"

    def parse(self, data: dict) -> Completion:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices:
            # OpenRouter reports some upstream failures as a 200 whose body is an error.
            if (message := message_in(data)) is not None:
                code = data["error"].get("code") if isinstance(data.get("error"), dict) else None
                raise self.error(one_line(message), code if isinstance(code, int) else None)
            raise MalformedReply("no choices in the body")
        choice = mapping(choices[0])
        message = choice.get("message")
        if not isinstance(message, dict):
            raise MalformedReply("the first choice has no message")
        usage = mapping(data.get("usage"))
        finish = text(choice.get("finish_reason"))
        return Completion(
            text=message_text(message),
            input_tokens=count(usage.get("prompt_tokens")),
            output_tokens=count(usage.get("completion_tokens")),
            cached_tokens=count(mapping(usage.get("prompt_tokens_details")).get("cached_tokens")),
            reasoning_tokens=count(
                mapping(usage.get("completion_tokens_details")).get("reasoning_tokens")),
            model=text(data.get("model")),
            provider=self.provider,
            response_id=text(data.get("id")),
            finish_reason=FINISH_REASONS.get(finish),
            provider_finish_reason=finish,
        )


class OpenRouterChat(OpenAIChat):
    """OpenRouter's OpenAI-compatible API (openrouter.ai/docs/api-reference), which maps
    `max_tokens`, `temperature` and `reasoning_effort` to what each upstream model takes."""

    provider = "openrouter"
    key_envs = ("OPENROUTER_API_KEY",)
    base_url_envs = ()
    default_base_url = "https://openrouter.ai/api/v1"
    takes_prompt_cache_key = False
    model_names_family = False


class OllamaChat(OpenAIChat):
    """A local Ollama server's OpenAI-compatible API (docs.ollama.com/api/openai-compatibility);
    it needs no key. `OLLAMA_BASE_URL` is ours (a URL ending in /v1); `OLLAMA_HOST` is Ollama's
    own (`host:port` or a URL, as `ollama serve` reads it)."""

    provider = "ollama"
    key_envs = ()
    base_url_envs = ("OLLAMA_BASE_URL",)
    default_base_url = "http://localhost:11434/v1"
    takes_prompt_cache_key = False
    model_names_family = False

    def base_url_from_env(self) -> str | None:
        return super().base_url_from_env() or ollama_host_url(os.environ.get("OLLAMA_HOST"))


def ollama_host_url(host: str | None) -> str | None:
    """The API base URL for an `OLLAMA_HOST` value as `ollama serve` reads it: `gpu-box:11434`,
    `0.0.0.0`, `:8080` or `https://ollama.example.com` (a server bound to 0.0.0.0 is reached at
    localhost; the port defaults to 11434, or 443 for https)."""
    host = (host or "").strip()
    if not host:
        return None
    url = urlsplit(host if "://" in host else f"http://{host}")
    try:
        port = url.port or (443 if url.scheme == "https" else 11434)
    except ValueError:
        raise ValueError(f"OLLAMA_HOST={host!r} is not host:port or a URL") from None
    name = url.hostname if url.hostname not in (None, "", "0.0.0.0") else "localhost"
    name = f"[{name}]" if ":" in name else name
    return f"{url.scheme}://{name}:{port}{url.path.rstrip('/')}/v1"


class GeminiChat(OpenAIChat):
    """Gemini through its OpenAI-compatible endpoint (ai.google.dev/gemini-api/docs/openai):
    the key from GEMINI_API_KEY, else GOOGLE_API_KEY, as a Bearer token. Gemini caches
    prompt prefixes implicitly; it takes `reasoning_effort` for its thinking models."""

    provider = "gemini"
    key_envs = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    base_url_envs = ()
    default_base_url = "https://generativelanguage.googleapis.com/v1beta/openai"
    takes_prompt_cache_key = False
    model_names_family = False


class AzureChat(OpenAIChat):
    """Azure OpenAI: `POST {AZURE_OPENAI_ENDPOINT}/openai/deployments/{DEPLOYMENT}/chat/
    completions?api-version={OPENAI_API_VERSION}` with the key in the `api-key` header
    (learn.microsoft.com/azure/ai-services/openai/reference). The model is the deployment's,
    so the body names none; a deployment's name need not say its model, so the output limit
    is always `max_completion_tokens`, which Azure takes for every model."""

    provider = "azure"
    key_envs = ("AZURE_OPENAI_API_KEY",)
    base_url_envs = ("AZURE_OPENAI_ENDPOINT",)
    default_base_url = ""
    takes_prompt_cache_key = False
    model_names_family = False
    version_env = "OPENAI_API_VERSION"

    def __init__(self, deployment: str, *, api_version: str | None = None, **options):
        super().__init__(deployment, **options)
        self.api_version = api_version or os.environ.get(self.version_env)
        if not self.api_version:
            raise self.error(f"{self.version_env} is not set: export it (e.g. "
                             f"{self.version_env}=2024-10-21; reasoning models need "
                             "2024-12-01-preview or later)")

    @property
    def endpoint(self) -> str:
        return (f"{self.base_url}/openai/deployments/{self.model}/chat/completions"
                f"?api-version={self.api_version}")

    def headers(self) -> dict[str, str]:
        return {"api-key": self._api_key} if self._api_key else {}

    def request_body(self, messages: list[dict]) -> dict:
        body = super().request_body(messages)
        del body["model"]
        return body

    @property
    def max_tokens_field(self) -> str:
        return "max_completion_tokens"


def message_text(message: dict) -> str:
    """A choice's text. `content` is a string, a list of text parts (some compatible servers),
    or null (a refusal, whose text is kept so the trace shows it)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    if content is None:
        refusal = message.get("refusal")
        return refusal if isinstance(refusal, str) else ""
    raise MalformedReply(f"the message content is {type(content).__name__}")
