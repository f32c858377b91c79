"""ScriptedLLM and ReplayLLM: LLMs that return fixed replies in order, for tests, demos and replays."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import replace
from pathlib import Path

from engine.llm.completion import Completion
from engine.llm.errors import LLMError


class ScriptedLLM:
    """Returns `replies` one per request; a request past the end raises LLMError.

    `calls` counts requests made (including one that found no reply left); `requests`
    keeps a copy of each request's messages, so tests can check what was sent.
    """

    provider = "scripted"
    source = "the script"

    def __init__(self, replies: list[str], *, name: str | None = None):
        for index, reply in enumerate(replies):
            if not isinstance(reply, str):
                kind = type(reply).__name__
                raise ValueError(f"{self.provider}: reply {index} is {kind}, expected a string")
        self.replies = list(replies)
        self.name = name or self.provider
        self.calls = 0
        self.requests: list[list[dict]] = []

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedLLM:
        """Replies from a JSON file: a list of strings, or {"replies": [...]}."""
        return cls(read_replies(Path(path)), name=f"{cls.provider}:{path}")

    def __call__(self, messages: list[dict]) -> Completion:
        self.calls += 1
        self.requests.append([dict(m) for m in messages])
        if self.calls > len(self.replies):
            has = plural(len(self.replies), "reply", "replies")
            raise LLMError(self.provider, f"no reply left for request {self.calls} ({self.source} has {has})")
        return Completion(text=self.replies[self.calls - 1], provider=self.provider)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, replies={len(self.replies)}, calls={self.calls})"


class ReplayLLM(ScriptedLLM):
    """A ScriptedLLM fed the raw replies of a saved trace (the agent layer reads the trace).

    `finishes` gives each reply's recorded (finish_reason, provider_finish_reason), so a reply
    the provider cut is replayed as cut, and fails its turn as it did. Nothing else of the
    recorded call is claimed: a replay asked no model and was billed nothing.
    """

    provider = "replay"
    source = "the trace"

    def __init__(self, replies: list[str], *, name: str | None = None,
                 finishes: list[tuple[str | None, str | None]] | None = None):
        super().__init__(replies, name=name)
        self.finishes = list(finishes or [])

    def __call__(self, messages: list[dict]) -> Completion:
        completion = super().__call__(messages)
        if self.calls > len(self.finishes):
            return completion
        finish, provider_finish = self.finishes[self.calls - 1]
        return replace(completion, finish_reason=finish, provider_finish_reason=provider_finish)


MAX_REPLIES_BYTES = 256 * 1024 * 1024


def read_replies(path: Path) -> list[str]:
    """The replies in a scripted-LLM file; ValueError naming the file when it is missing or broken."""
    try:
        info = os.stat(path)                # a FIFO or a device would block or never end
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"scripted: cannot read {path}: not a regular file")
        if info.st_size > MAX_REPLIES_BYTES:
            raise ValueError(f"scripted: {path} is larger than {MAX_REPLIES_BYTES:,} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"scripted: cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"scripted: {path} is not valid JSON: {exc}") from exc
    replies = data.get("replies") if isinstance(data, dict) else data
    if not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
        raise ValueError(f'scripted: {path} must hold a list of strings or {{"replies": [...]}}')
    return replies


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"
