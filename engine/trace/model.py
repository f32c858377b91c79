"""Trace: a saved run — the agent, every turn in full, the outcome — ready to re-render."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace

from engine.history import HistoryOpts, RenderContext, ToolInfo, Turn

FORMAT = "ptc-trace"
VERSION = 1

# A message is {role, content}; one sent with the reference implementation's tool calling also
# keeps its `tool_calls` (assistant) or `tool_call_id` (tool), exactly as sent.
MESSAGE_EXTRAS = ("tool_calls", "tool_call_id")
ROLES = ("system", "user", "assistant", "tool")
USAGE_KEYS = ("input_tokens", "output_tokens", "cached_tokens")
OPTIONAL_USAGE_KEYS = ("cache_write_tokens", "reasoning_tokens")   # written when reported
MAX_COST_USD = 1e9


class TraceError(Exception):
    """A trace file that cannot be read; the message names the file and the problem."""


class UnreadableTrace(TraceError):
    """A trace file that cannot be read at all (missing, not a regular file, too large), as
    opposed to one that reads but is not a valid trace."""


@dataclass(frozen=True)
class AgentInfo:
    """What the LLM was told and how the run was configured."""

    mission: str
    max_turns: int
    reference: str = ""
    tools: tuple[ToolInfo, ...] = ()
    data: Mapping = field(default_factory=dict)
    history: HistoryOpts = field(default_factory=HistoryOpts)
    llm: str = ""                       # e.g. "openai:gpt-4o-mini"; never a key
    name: str = "agent"
    description: str = ""               # one line, shown by the sample picker
    llm_settings: Mapping = field(default_factory=dict)   # how the LLM was set up; never a key

    def context(self) -> RenderContext:
        return RenderContext(self.mission, self.max_turns, self.reference, self.tools, self.data)


@dataclass(frozen=True)
class Outcome:
    """How the run ended: `status` is returned, failed, or running (saved mid-run)."""

    status: str = "running"
    return_value: object = None
    fail_reason: str | None = None
    fail_message: str | None = None


@dataclass(frozen=True)
class Parent:
    """The run a fork was started from: its turns before `turn` are the parent's, taken over
    as recorded; from `turn` on the fork ran under `changed` (option name -> the fork's value)."""

    sha256: str                         # of the parent trace file (or its JSON when unsaved)
    file: str | None                    # the parent's file name; None when it was not saved
    turn: int                           # N: the first turn the fork ran itself
    changed: Mapping = field(default_factory=dict)
    tools: str = "recorded"             # "agent": real tools ran; "recorded": answered from
                                        # the parent's recorded calls
    llm: str | None = None              # the parent's LLM spec, whose replies its turns hold
                                        # (None in forks saved before it was recorded)

    @property
    def requests_differ(self) -> bool:
        """Whether the fork renders the requests of the turns it took over otherwise than the
        parent sent them: it changed a history option or the turn budget."""
        return bool(REQUEST_OPTIONS & set(self.changed))


# The options a fork can change that change the requests the turns before it get.
REQUEST_OPTIONS = frozenset({f.name for f in fields(HistoryOpts)} | {"max_turns"})


@dataclass(frozen=True)
class Trace:
    agent: AgentInfo
    turns: tuple[Turn, ...] = ()        # or a LazyTurns (a trace file's, decoded as read)
    outcome: Outcome = field(default_factory=Outcome)
    engine_version: str = ""
    created_at: str = ""                # ISO 8601; volatile
    parent: Parent | None = None        # set on a fork
    upstream: Mapping | None = None     # set on a run imported from the reference
                                        # implementation (docs/trace-format.md), as JSON

    def context(self) -> RenderContext:
        return self.agent.context()

    def pinned(self) -> "Trace":
        """This trace with its volatile fields (docs/trace-format.md) set to fixed values:
        timings zero, `engine_version` empty. Two recordings of the same run then match."""
        turns = tuple(replace(t, llm_ms=0.0, run_ms=0.0,
                              tool_calls=tuple(replace(c, duration_ms=0.0) for c in t.tool_calls))
                      for t in self.turns)
        return replace(self, turns=turns, engine_version="")

    @property
    def replies(self) -> list[str]:
        """The LLM's raw replies in order (what a ReplayLLM feeds back)."""
        return [t.raw_response for t in self.turns]
