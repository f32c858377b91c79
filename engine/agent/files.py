"""Agent files: a Python file that defines `agent` (a SubAgent) and, optionally, `replies`
(the scripted LLM replies it is replayed with when no other LLM is given) or `policy` (a
simulated model, `engine.llm.SimulatedLLM`), and for experiments `check(step) -> bool` or
`expected` (what a successful run returns)."""

from __future__ import annotations

import errno
import importlib.util
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.agent.agent import SubAgent
from engine.llm import ScriptedLLM, SimulatedLLM
from engine.trace import Trace

PINNED_CLOCK = "2026-01-01T00:00:00+00:00"
NO_EXPECTED = object()      # an agent file without `expected` (None is a value it may expect)


class AgentFileError(Exception):
    """An agent file that cannot be loaded; the message names the file and the problem."""


@dataclass(frozen=True)
class AgentFile:
    path: Path
    agent: SubAgent
    replies: tuple[str, ...] | None
    policy: object = None                 # policy(request, rng) -> reply, or None
    check: object = None                  # check(step) -> bool, or None
    expected: object = NO_EXPECTED

    @property
    def name(self) -> str:
        return self.path.stem

    def scripted_llm(self) -> ScriptedLLM | SimulatedLLM:
        """The file's own LLM: its scripted `replies`, else its `policy` (seed 0)."""
        if self.replies is None and self.policy is not None:
            return SimulatedLLM(self.policy, name=f"simulated:{self.path.name}")
        if self.replies is None:
            raise AgentFileError(f"{self.path}: defines no `replies` nor `policy`; "
                                 "give an LLM with --llm")
        return ScriptedLLM(list(self.replies), name=f"scripted:{self.path.name}")


def load_agent_file(path) -> AgentFile:
    """Run the Python file at `path` and take its `agent` and `replies`."""
    path = Path(path)
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError as e:
        raise AgentFileError(f"{path}: " + ("no such file" if e.errno == errno.ENOENT else
                                            "a loop of symbolic links" if e.errno == errno.ELOOP
                                            else e.strerror or str(e))) from None
    if not regular:
        raise AgentFileError(f"{path}: not a regular file")
    module_name = f"_ptc_agent_{path.stem}_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise AgentFileError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's file: report, never a traceback
        raise AgentFileError(f"{path}: {type(e).__name__}: {e}") from None
    finally:
        sys.modules.pop(module_name, None)
    agent = getattr(module, "agent", None)
    if not isinstance(agent, SubAgent):
        raise AgentFileError(f"{path}: defines no `agent = SubAgent(...)`")
    replies = getattr(module, "replies", None)
    if replies is not None and (not isinstance(replies, (list, tuple))
                                or not all(isinstance(r, str) for r in replies)):
        raise AgentFileError(f"{path}: `replies` must be a list of strings")
    functions = {}
    for name in ("policy", "check"):
        value = getattr(module, name, None)
        if value is not None and not callable(value):
            raise AgentFileError(f"{path}: `{name}` must be a function")
        functions[name] = value
    return AgentFile(path, agent, tuple(replies) if replies is not None else None,
                     expected=getattr(module, "expected", NO_EXPECTED), **functions)


def record(agent_file: AgentFile) -> Trace:
    """Run the agent on its scripted replies and return the trace with volatile fields
    pinned (clock and timings), so the same file always gives the same trace."""
    session = agent_file.agent.start(agent_file.scripted_llm())
    while not session.done:
        session.step()
    return session.trace(created_at=PINNED_CLOCK).pinned()
