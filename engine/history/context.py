"""RenderContext: what every request of a run shares (mission, tools, data, reference)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.lisp import from_python
from engine.lisp.values import MAPS


@dataclass(frozen=True)
class ToolInfo:
    """A tool as the LLM is told of it: `search(query string, limit int) -> [string]`."""

    name: str
    params: str = "()"            # "(query string, limit int)"
    returns: str = "any"          # "[string]"
    description: str = ""

    @property
    def signature(self) -> str:
        return f"{self.params} -> {self.returns}"


@dataclass(frozen=True)
class RenderContext:
    """The fixed inputs of rendering: `reference` is the language reference and output
    format for the LLM (the agent layer chooses it: multi-turn or single-shot text)."""

    mission: str
    max_turns: int = 5
    reference: str = ""
    tools: tuple[ToolInfo, ...] = ()
    data: Mapping = field(default_factory=dict)

    def __post_init__(self):
        # samples are printed from PTC-Lisp values: plain Python data is converted once here
        # (a Map holds PTC-Lisp values already: an agent's data, converted by the agent)
        data = dict(self.data) if type(self.data) in MAPS else \
            {k: from_python(v) for k, v in self.data.items()}
        object.__setattr__(self, "data", data)

    @property
    def single_shot(self) -> bool:
        """With one turn there is no history to render (docs/history-rules.md, SS-001)."""
        return self.max_turns == 1
