"""AnthropicMessages, a client of Anthropic's Messages API, and the message shape it requires."""

from __future__ import annotations

from engine.llm.completion import Completion
from engine.llm.errors import LLMError
from engine.llm.transport import HttpLLM, MalformedReply, count, mapping, text

API_VERSION = "2023-06-01"
# stop_reason normalised to the OpenTelemetry GenAI finish reasons. A reply that filled the
# context window is as cut as one that reached max_tokens; pause_turn (a server-tool loop's
# pause) and words added later have no normalised value, only the provider's.
FINISH_REASONS = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length",
                  "model_context_window_exceeded": "length", "tool_use": "tool_call",
                  "refusal": "content_filter"}


class AnthropicMessages(HttpLLM):
    """`POST {base_url}/v1/messages`, with system messages moved to the `system` field."""

    provider = "anthropic"
    key_envs: tuple[str, ...] = ("ANTHROPIC_API_KEY",)
    base_url_envs: tuple[str, ...] = ("ANTHROPIC_BASE_URL",)
    default_base_url = "https://api.anthropic.com"
    default_max_tokens = 4096

    def __init__(self, model: str, **options):
        super().__init__(model, **options)
        self.previous_turns: list[dict] | None = None     # what the last request sent

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/v1/messages"

    def headers(self) -> dict[str, str]:
        headers = {"anthropic-version": API_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return headers

    def request_body(self, messages: list[dict]) -> dict:
        system, turns = split_system(messages)
        if not turns or turns[0]["role"] != "user":
            first = turns[0]["role"] if turns else "nothing"
            raise self.error(f"a conversation must start with a user message, not {first}")
        body: dict = {"model": self.model, "max_tokens": self.max_tokens, "messages": turns}
        if system:
            body["system"] = system
        if self.prompt_cache:
            body = with_breakpoints(body, cache_breakpoint(self.previous_turns, turns))
            self.previous_turns = turns
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return body

    def parse(self, data: dict) -> Completion:
        content = data.get("content")
        if not isinstance(content, list):
            raise MalformedReply("no content in the body")
        usage = mapping(data.get("usage"))
        # Anthropic's input_tokens leave out cache reads and writes; OpenAI's prompt_tokens
        # include them. Completion.input_tokens is the whole prompt for every provider.
        parts = [count(usage.get(k)) for k in ("input_tokens", "cache_read_input_tokens",
                                                "cache_creation_input_tokens")]
        known = [n for n in parts if n is not None]
        stop = text(data.get("stop_reason"))
        return Completion(
            text="".join(block.get("text", "") for block in content
                         if isinstance(block, dict) and block.get("type") == "text"),
            input_tokens=sum(known) if parts[0] is not None else None,
            output_tokens=count(usage.get("output_tokens")),
            cached_tokens=parts[1],
            cache_write_tokens=parts[2],
            model=text(data.get("model")),
            provider=self.provider,
            response_id=text(data.get("id")),
            finish_reason=FINISH_REASONS.get(stop),
            provider_finish_reason=stop,
        )


def cache_breakpoint(previous: list[dict] | None, turns: list[dict]) -> int | None:
    """The index of the message in `turns` to end a cached prefix at: the last message that the
    next request will most likely send unchanged.

    The client does not know the history strategy, so it goes by what the strategy did last
    time: when this request only appended to the previous one (`full` does, and every first
    request is taken to), the whole request is expected to come back, so its last message;
    when it rewrote earlier messages (`coalesced` rewrites all but the system prompt,
    `compaction` all after the first user message once it compacts), the last message of the
    part that stayed the same; None when nothing but the system prompt stayed."""
    if previous is None or turns[:len(previous)] == previous:
        return len(turns) - 1
    same = 0
    while same < min(len(previous), len(turns)) and previous[same] == turns[same]:
        same += 1
    return same - 1 if same else None


def with_breakpoints(body: dict, message: int | None) -> dict:
    """`body` with `cache_control` breakpoints on the system prompt and on message `message`
    (platform.claude.com/docs/en/build-with-claude/prompt-caching): a text becomes one text
    block that carries `{"type": "ephemeral"}`, the 5-minute cache."""
    def cached(text: str) -> list[dict]:
        return [{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}]

    body = dict(body)
    if "system" in body:
        body["system"] = cached(body["system"])
    if message is not None:
        messages = list(body["messages"])
        messages[message] = {**messages[message], "content": cached(messages[message]["content"])}
        body["messages"] = messages
    return body


def split_system(messages: list[dict]) -> tuple[str, list[dict]]:
    """The system text (all system messages, joined) and the other messages, with runs of one
    role merged into one message, since the API requires user and assistant to alternate."""
    system: list[str] = []
    turns: list[dict] = []
    for message in messages:
        role, content = message["role"], message["content"]
        if role == "system":
            system.append(content)
        elif role not in ("user", "assistant"):
            raise LLMError("anthropic", f"unknown message role {role!r}")
        elif turns and turns[-1]["role"] == role:
            turns[-1]["content"] += "\n\n" + content
        else:
            turns.append({"role": role, "content": content})
    return "\n\n".join(system), turns
