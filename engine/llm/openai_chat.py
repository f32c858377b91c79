"""OpenAIChat, a client of OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, vLLM...)."""

from __future__ import annotations

from engine.llm.completion import Completion
from engine.llm.transport import HttpLLM, MalformedReply, count, mapping, message_in, one_line, text

# A choice's finish_reason, normalised to the OpenTelemetry GenAI values; another word (some
# compatible servers have their own) is kept as the provider's with no normalised value.
FINISH_REASONS = {"stop": "stop", "length": "length", "content_filter": "content_filter",
                  "tool_calls": "tool_call", "function_call": "tool_call", "error": "error"}


class OpenAIChat(HttpLLM):
    """`POST {base_url}/chat/completions`. The key may be left out for a localhost base_url."""

    provider = "openai"
    key_env: str | None = "OPENAI_API_KEY"
    base_url_env: str | None = "OPENAI_BASE_URL"
    default_base_url = "https://api.openai.com/v1"

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def request_body(self, messages: list[dict]) -> dict:
        body: dict = {"model": self.model,
                      "messages": [{"role": m["role"], "content": m["content"]} for m in messages]}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

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
    """OpenRouter's OpenAI-compatible API."""

    provider = "openrouter"
    key_env = "OPENROUTER_API_KEY"
    base_url_env = None
    default_base_url = "https://openrouter.ai/api/v1"


class OllamaChat(OpenAIChat):
    """A local Ollama server's OpenAI-compatible API; it needs no key."""

    provider = "ollama"
    key_env = None
    base_url_env = "OLLAMA_BASE_URL"
    default_base_url = "http://localhost:11434/v1"


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

