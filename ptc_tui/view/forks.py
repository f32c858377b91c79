"""Forks in the app: the fork dialog's form (defaults and checks), starting the fork session,
and finding a saved fork's parent trace; plain Python, no Textual."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.agent import Session, fork, fork_llm
from engine.agent.files import AgentFileError, load_agent_file
from engine.history import HistoryOpts
from engine.llm import ScriptedLLM, spec_model
from engine.trace import Trace, TraceError
from ptc_tui.view.options import BY_NAME


@dataclass(frozen=True)
class ForkRequest:
    """What the fork dialog asks for: fork at turn `at` with these."""

    at: int
    llm: str | None            # None: the trace's own LLM (or a replay of it)
    opts: HistoryOpts
    max_turns: int
    agent: Path | None         # an agent file whose real tools run


def default_llm_text(trace: Trace) -> str:
    """What the dialog's LLM field means when left empty."""
    own = trace.agent.llm
    if spec_model(own) is not None:
        return f"the trace's own: {own}"
    return "a replay of this trace's replies (it ran on recorded replies)"


def parse_request(at: int, llm: str, strategy: str, println_limit: str, tool_call_limit: str,
                  max_turns: str, agent: str, opts: HistoryOpts) -> ForkRequest:
    """The request typed in the dialog; ValueError naming the field for anything wrong."""
    changes = {"strategy": strategy}
    for name, text in (("println_limit", println_limit), ("tool_call_limit", tool_call_limit)):
        try:
            changes[name] = BY_NAME[name].parse(text)
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None
    try:
        budget = int(max_turns.strip())
    except ValueError:
        raise ValueError(f"max_turns: not a whole number: {max_turns.strip()}") from None
    if budget < at:
        raise ValueError(f"max_turns: at least {at}, the turn the fork starts at")
    agent_path = Path(agent.strip()).expanduser() if agent.strip() else None
    if agent_path is not None and not agent_path.is_file():
        raise ValueError(f"agent file: no such file: {agent_path}")
    return ForkRequest(at, llm.strip() or None, opts.with_changes(**changes), budget, agent_path)


def start_fork(parent: Trace, request: ForkRequest, parent_path: Path | None,
               tools: Mapping | None = None, limits=None, live_llm=None) -> Session:
    """The fork session of `request`; `tools` are the live run's real tools (None: answer from
    the record) unless the request names an agent file. A live run's scripted LLM is the
    default LLM, its replies aligned on turn numbers as a replay's are. ValueError with a
    one-line reason."""
    try:
        if request.llm is None and isinstance(getattr(live_llm, "replies", None), list):
            llm = ScriptedLLM(live_llm.replies[request.at - 1:], name=live_llm.name)
        else:
            llm = fork_llm(request.llm, parent, request.at,
                           parent_path.name if parent_path else "this trace")
        if request.agent is not None:
            agent = load_agent_file(request.agent).agent
            tools, limits = agent.tools, agent.limits
        return fork(parent, request.at, llm, opts=request.opts, max_turns=request.max_turns,
                    tools=tools or None, limits=limits, parent_file=parent_path)
    except (TraceError, AgentFileError, OSError) as e:
        raise ValueError(str(e)) from None


def find_parent(fork_trace: Trace, fork_path: Path | None) -> tuple[Path | None, str]:
    """The parent file of a saved fork, looked for beside the fork and in the current folder,
    and a note: "" when its hash matches, else what is wrong (not found, changed since)."""
    p = fork_trace.parent
    if p is None:
        return None, "this trace is not a fork"
    if not p.file:
        return None, "its parent was never saved"
    folders = ([fork_path.parent] if fork_path is not None else []) + [Path.cwd()]
    for folder in folders:
        candidate = folder / p.file
        if candidate.is_file():
            digest = hashlib.sha256(candidate.read_bytes()).hexdigest()
            note = "" if digest == p.sha256 else f"{candidate} has changed since the fork"
            return candidate, note
    return None, f"its parent {p.file} is not beside it nor in {Path.cwd()}"
