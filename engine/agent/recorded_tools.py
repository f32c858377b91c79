"""RecordedTools: tools that answer from a trace's recorded calls instead of running, for a fork
opened without its agent file (and for rebuilding the memory of turns taken over)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from engine.agent.tools import Tool
from engine.history import ToolInfo
from engine.lisp import ToolCall, ToolFailure
from engine.lisp.convert import ConversionError
from engine.lisp.runtime import tool_arguments

NOT_AVAILABLE = ("not available in a fork without its agent file (no recorded call of "
                 "tool/{name} had these arguments); fork with the agent file to run real tools")


def _takes_anything(*args, **kwargs):
    """The signature every recorded tool has: arguments reach it as they would reach any tool."""


def call_key(name: str, args: tuple) -> str | None:
    """The tool and its arguments as the tool receives them (after the same conversion a real
    call goes through), as text; None for arguments no tool can receive."""
    try:
        positional, named = tool_arguments(_takes_anything, args)
    except ConversionError:
        return None
    return _text(name, positional, named)


def _text(name: str, positional: list, named: dict) -> str:
    return json.dumps([name, positional, named], sort_keys=True, ensure_ascii=False,
                      default=lambda s: sorted(map(repr, s)))     # sets, the one non-JSON kind


class RecordedTools:
    """Answers a call with the result (or the error) of a recorded call of the same tool with
    the same arguments: the recorded answers in the order given, each once, then the last one
    again. Any other call fails with a `tool_error` saying the tool is not available."""

    def __init__(self, calls: Iterable[ToolCall]):
        self._answers: dict[str, list[ToolCall]] = {}
        for call in calls:
            key = call_key(call.name, call.args)
            if key is not None:
                self._answers.setdefault(key, []).append(call)
        self._used: dict[str, int] = {}

    def answer(self, name: str, args: tuple, kwargs: dict):
        key = _text(name, list(args), kwargs)
        recorded = self._answers.get(key)
        if not recorded:
            raise ToolFailure(NOT_AVAILABLE.format(name=name))
        used = self._used.get(key, 0)
        self._used[key] = used + 1
        call = recorded[min(used, len(recorded) - 1)]
        if call.error is not None:
            raise ToolFailure(call.error)
        return call.result

    def function(self, name: str):
        def recorded_tool(*args, **kwargs):
            return self.answer(name, args, kwargs)
        return recorded_tool

    def tools(self, infos: Sequence[ToolInfo]) -> list[Tool]:
        """One Tool per recorded tool description, each answering from the record."""
        return [Tool(i.name, self.function(i.name), i.params, i.returns, i.description)
                for i in infos]

    def functions(self, names: Iterable[str]) -> dict:
        return {name: self.function(name) for name in names}
