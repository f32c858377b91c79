"""LLMError, the one error type an LLM call raises, and redaction of API keys from its text."""

from __future__ import annotations

import re
from http import HTTPStatus

# Statuses that http.HTTPStatus does not know but providers send.
EXTRA_PHRASES = {529: "Overloaded"}


class LLMError(Exception):
    """A failed LLM request: who failed (`provider`), the HTTP `status` if any, and why.

    `str()` is one line, e.g. `openai: HTTP 401 Unauthorized: Incorrect API key provided`.
    """

    def __init__(self, provider: str, message: str, status: int | None = None):
        super().__init__(message)
        self.provider = provider
        self.message = message
        self.status = status

    def __str__(self) -> str:
        if self.status is None:
            return f"{self.provider}: {self.message}"
        phrase = status_phrase(self.status)
        status = f"HTTP {self.status} {phrase}" if phrase else f"HTTP {self.status}"
        return f"{self.provider}: {status}: {self.message}"

    def __repr__(self) -> str:
        return f"LLMError(provider={self.provider!r}, status={self.status!r}, message={self.message!r})"


def status_phrase(status: int) -> str:
    """The reason phrase of an HTTP status ('' when unknown)."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return EXTRA_PHRASES.get(status, "")


def redact(text: str, secret: str | None) -> str:
    """`text` with every trace of `secret` replaced by `***`.

    Besides the exact key, a provider may echo it masked, as OpenAI's 401 does
    (`sk-proj-ab************wxyz`): anything that starts with the key's first 8 characters
    and continues with key-like or mask characters goes too.
    """
    if not secret:
        return text
    text = text.replace(secret, "***")
    if len(secret) >= 8:
        masked = re.escape(secret[:8]) + r"(?:[\w\-*.]*[\w\-*])?"
        text = re.sub(masked, "***", text)
    return text
