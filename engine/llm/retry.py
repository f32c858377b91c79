"""When an HTTP LLM request is retried and how long it waits first (backoff, Retry-After)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime

# 429 rate limit, 5xx server trouble, 529 Anthropic overloaded: worth another try.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
MAX_WAIT_S = 60.0


@dataclass(frozen=True)
class RetryPolicy:
    """`max_retries` more attempts after the first, waiting `backoff_s * 2**attempt` seconds
    (or what the server's Retry-After asks), never more than a minute, through `sleep`."""

    max_retries: int = 3
    backoff_s: float = 1.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)

    def wait_before_retry(self, attempt: int, headers: Mapping[str, str] | None = None) -> float:
        """Seconds to wait after failed attempt `attempt` (0-based)."""
        asked = retry_after_s(headers) if headers is not None else None
        wait = asked if asked is not None else self.backoff_s * 2 ** attempt
        return min(max(wait, 0.0), MAX_WAIT_S)


def retry_after_s(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The wait a response asks for: `retry-after-ms`, or `Retry-After` in seconds or as an
    HTTP date; None when absent or unreadable."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return when.timestamp() - (time.time() if now is None else now)
