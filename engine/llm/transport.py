"""HttpLLM, the base of the HTTP clients: keys, POST with retries, and provider errors as LLMError."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from engine.llm.completion import Completion
from engine.llm.errors import LLMError, redact
from engine.llm.retry import RETRY_STATUSES, RetryPolicy

if TYPE_CHECKING:
    import httpx

# httpx is imported where a request is made, never at import time: when `click` is installed,
# `import httpx` loads its command-line module and Rich with it, and the engine loads no UI
# library (tests/test_project.py checks this with click installed).

# Local servers (Ollama, vLLM, llama.cpp, a test server) rarely want a key.
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})
BODY_EXCERPT = 200


# A trace's llm_settings name -> the HttpLLM option it was made with.
SETTING_OPTIONS = {"base_url": "base_url", "api_key_env": "api_key_env", "temperature": "temperature",
                   "max_output_tokens": "max_tokens", "reasoning_effort": "reasoning_effort",
                   "timeout_s": "timeout", "prompt_cache": "prompt_cache"}


def options_from_settings(settings) -> dict:
    """The options that make an LLM again as a trace's `llm_settings` say it was made."""
    return {SETTING_OPTIONS[k]: v for k, v in settings.items() if k in SETTING_OPTIONS}


class MalformedReply(Exception):
    """A 2xx body without the fields a reply needs; the message says which."""


class HttpLLM:
    """An LLM behind an HTTP JSON API. Subclasses set the class attributes and say how a
    request body is built (`request_body`), sent (`endpoint`, `headers`) and read (`parse`)."""

    provider = "http"
    key_envs: tuple[str, ...] = ()        # the variables holding the key, first set wins; (): no key
    base_url_envs: tuple[str, ...] = ()   # the variables holding the base URL, first set wins
    default_base_url = ""

    default_max_tokens: int | None = None    # Anthropic requires one; OpenAI sends none unless set
    default_timeout_s = 60.0

    def __init__(self, model: str, *, api_key: str | None = None, api_key_env: str | None = None,
                 base_url: str | None = None, timeout: float | None = None, max_retries: int = 3,
                 backoff_s: float = 1.0, temperature: float | None = None,
                 max_tokens: int | None = None, reasoning_effort: str | None = None,
                 prompt_cache: bool = True, sleep: Callable[[float], None] = time.sleep,
                 client: httpx.Client | None = None):
        if not model:
            raise ValueError(f"{self.provider}: a model name is required")
        self.model = model
        self.name = f"{self.provider}:{model}"
        self._api_key = api_key
        self.base_url = (base_url or self.base_url_from_env() or self.default_base_url).rstrip("/")
        if not self.base_url:
            raise self.error(f"{self.base_url_envs[0]} is not set: export it, or pass --base-url URL")
        self.timeout = timeout if timeout is not None else self.default_timeout_s
        self.temperature = temperature
        self.max_tokens = max_tokens if max_tokens is not None else self.default_max_tokens
        self.reasoning_effort = reasoning_effort
        self.prompt_cache = prompt_cache
        self.retry = RetryPolicy(max_retries, backoff_s, sleep)
        moved = self.base_url != self.default_base_url.rstrip("/")
        self._given = {"base_url": self.base_url if moved else None, "api_key_env": api_key_env,
                       "temperature": temperature, "max_output_tokens": max_tokens,
                       "reasoning_effort": reasoning_effort, "timeout_s": timeout}
        self.check_options()                 # a wrong option first: it is the command line's
        self._api_key = api_key or self.key_from_env(api_key_env)
        self._client = client
        self._owns_client = client is None

    def key_from_env(self, api_key_env: str | None) -> str | None:
        """The key from `api_key_env`, else from the provider's own variables; an LLMError that
        says what to do when a server that wants a key gets none."""
        names = (api_key_env,) if api_key_env else self.key_envs
        key = next((os.environ[n] for n in names if os.environ.get(n)), None)
        if key or not names or is_local(self.base_url):
            return key
        if api_key_env:
            raise self.error(f"{api_key_env} (named by --api-key-env) is not set: export it")
        also = f" (or {', '.join(names[1:])})" if len(names) > 1 else ""
        raise self.error(f"{names[0]}{also} is not set: export it, or pass --api-key-env NAME")

    def base_url_from_env(self) -> str | None:
        return next((os.environ[n] for n in self.base_url_envs if os.environ.get(n)), None)

    def check_options(self) -> None:
        """Refuse, before any request, an option this provider or model does not take."""
        if self.reasoning_effort is not None:
            raise self.error(f"{self.model} takes no reasoning effort (--reasoning-effort)")

    @property
    def settings(self) -> dict:
        """What a trace records of how this LLM was set up: each option given, and whether
        prompt caching was asked for. Never the key (a variable's name at most)."""
        given = {name: value for name, value in self._given.items() if value is not None}
        return {**given, "prompt_cache": self.prompt_cache}

    # -- what subclasses provide

    @property
    def endpoint(self) -> str:
        raise NotImplementedError

    def headers(self) -> dict[str, str]:
        raise NotImplementedError

    def request_body(self, messages: list[dict]) -> dict:
        raise NotImplementedError

    def parse(self, data: dict) -> Completion:
        """The Completion in a 2xx body; raises MalformedReply when it has none."""
        raise NotImplementedError

    # -- the request

    def __call__(self, messages: list[dict]) -> Completion:
        data = self.post(self.request_body(messages))
        try:
            return self.parse(data)
        except MalformedReply as exc:
            raise self.error(f"malformed response: {exc}") from None

    def post(self, body: dict) -> dict:
        """POST `body` as JSON, retrying what is worth retrying; the 2xx body as a dict."""
        import httpx
        attempts = self.retry.max_retries + 1
        for attempt in range(attempts):
            wait_headers = None
            try:
                response = self.client.post(self.endpoint, json=body, headers=self.headers(),
                                            timeout=self.timeout)
            except httpx.TimeoutException as exc:
                failure, cause = self.error(f"request timed out after {self.timeout:g} s"), exc
            except httpx.TransportError as exc:
                failure, cause = self.error(f"cannot reach {self.base_url}: {transport_reason(exc)}"), exc
            else:
                if response.is_success:
                    return self.json_body(response)
                failure, cause = self.error(provider_message(response), response.status_code), None
                if response.status_code not in RETRY_STATUSES:
                    raise failure
                wait_headers = response.headers
            if attempt == attempts - 1:
                if attempts > 1:
                    message = f"{failure.message} (gave up after {attempts} attempts)"
                    failure = LLMError(failure.provider, message, failure.status)
                raise failure from cause
            self.retry.sleep(self.retry.wait_before_retry(attempt, wait_headers))
        raise AssertionError("unreachable")

    def json_body(self, response: httpx.Response) -> dict:
        try:
            data = response.json()
        except ValueError:
            raise self.error(f"malformed response: body is not JSON: {excerpt(response.text)!r}") from None
        if not isinstance(data, dict):
            raise self.error(f"malformed response: expected a JSON object, got {type(data).__name__}")
        return data

    def error(self, message: str, status: int | None = None) -> LLMError:
        """An LLMError from this provider, with the key scrubbed from the message."""
        return LLMError(self.provider, redact(message, self._api_key), status)

    # -- the connection

    @property
    def client(self) -> httpx.Client:
        if self._client is None:
            import httpx
            self._client = httpx.Client()
        return self._client

    def close(self) -> None:
        """Close the connection pool, if this LLM opened it."""
        if self._owns_client and self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return redact(f"{type(self).__name__}(name={self.name!r}, base_url={self.base_url!r})", self._api_key)


def is_local(base_url: str) -> bool:
    host = urlsplit(base_url).hostname or ""
    return host in LOCAL_HOSTS or host.endswith(".localhost")


def provider_message(response: httpx.Response) -> str:
    """The provider's own explanation of an error response, on one line.

    Both providers send {"error": {"message": ...}}; OpenAI-compatible servers vary
    ({"error": "..."}, vLLM's {"message": ...}, FastAPI's {"detail": ...}), so those are read too.
    """
    try:
        message = message_in(response.json())
    except ValueError:
        message = None
    return one_line(message or excerpt(response.text) or "(empty body)")


def message_in(data: object) -> str | None:
    if not isinstance(data, dict):
        return None
    error = data.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return error["message"]
    if isinstance(error, str):
        return error
    for key in ("message", "detail"):
        if isinstance(data.get(key), str):
            return data[key]
    return None


def transport_reason(exc: httpx.TransportError) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def excerpt(text: str) -> str:
    return one_line(text.strip()[:BODY_EXCERPT])


def one_line(text: str) -> str:
    return " ".join(text.split())


def count(value: object) -> int | None:
    """A token count as reported, or None (bool is an int in Python but never a count)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def text(value: object) -> str | None:
    """A string field as reported, or None (absent, null or not a string)."""
    return value if isinstance(value, str) else None


def mapping(value: object) -> dict:
    """`value` if it is a JSON object, else {} (a provider may leave a field out or null it)."""
    return value if isinstance(value, dict) else {}
