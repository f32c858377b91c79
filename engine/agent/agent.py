"""SubAgent and its run: the loop of render → LLM → program → Turn, whole or one turn at a time."""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine import __version__
from engine.agent.execute import execute_turn, previous_results, usage_and_response
from engine.agent.extract import extract_program
from engine.agent.prompt import reference_text
from engine.agent.tools import Tool, make_tool
from engine.history import STRATEGIES, HistoryOpts, RenderContext, Turn
from engine.lisp import Limits, PtcError, from_python, pr_str, to_python
from engine.lisp.values import Map
from engine.llm import LLMError, complete
from engine.trace import AgentInfo, Outcome, Parent, Trace

INTERRUPTED = ("the run was interrupted while this program ran; the reply is kept, "
               "its effects are not")


def llm_name(llm) -> str:
    """How a trace names the LLM: its `.name` (`openai:gpt-4o-mini`), else its type."""
    name = getattr(llm, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(llm, "__name__", type(llm).__name__)


def llm_settings(llm) -> dict:
    """How the LLM was set up, as a trace records it (an HTTP client's `settings`: its options
    and whether prompt caching was on, never its key); {} for any other callable."""
    settings = getattr(llm, "settings", None)
    return dict(settings) if isinstance(settings, dict) else {}


@dataclass(frozen=True)
class Failure:
    """Why a run failed: `reason` is `failed` for `(fail v)`, `max_turns_exceeded`,
    `llm_error`, or the error reason of a single-shot program."""

    reason: str
    message: str


@dataclass(frozen=True)
class Step:
    """The outcome of a run, with every turn it made."""

    turns: tuple[Turn, ...] = ()
    return_value: object = None
    fail: Failure | None = None

    @property
    def failed(self) -> bool:
        return self.fail is not None

    @property
    def messages(self) -> list[tuple[dict, ...]]:
        """The request sent for each turn."""
        return [t.messages for t in self.turns]

    def python_value(self):
        """The return value as plain Python data (keywords as strings, maps as dicts)."""
        return to_python(self.return_value)


@dataclass
class SubAgent:
    """An agent: a mission, its tools and input data, and how its history is rendered.

    `compress_history` and `llm` left as None are inherited from the agent that calls this
    one as a tool (API-007), or default to no compression. A SubAgent given as a tool of
    another agent runs as that tool; `{{name}}` in its mission is filled from the arguments.
    """

    mission: str
    tools: Mapping | None = field(default_factory=dict)
    data: Mapping | None = field(default_factory=dict)
    max_turns: int = 5
    compress_history: object = None
    llm: object = None
    limits: Mapping | None = None
    name: str = "agent"
    description: str = ""

    def __post_init__(self):
        if type(self.max_turns) is not int or self.max_turns < 1:
            raise ValueError(f"max_turns must be a whole number ≥ 1, not {self.max_turns!r}")
        HistoryOpts.from_option(self.compress_history)      # a bad option fails here, early
        self.tools = _mapping("tools", self.tools)
        self.data = _mapping("data", self.data)
        self.converted_data()                                # bad data fails here, early

    def converted_data(self) -> Map:
        """The data as PTC-Lisp values, ready for every turn's run (a session converts it
        once); a ValueError says what is wrong and where (`data/orders[2].total: ...`)."""
        depth = Limits.from_dict(self.limits).nesting_depth
        converted = {}
        for name, value in self.data.items():
            if not isinstance(name, str):
                raise ValueError(f"SubAgent data: every key must be a name (a string), "
                                 f"not {name!r}")
            try:
                converted[name] = from_python(value, depth, f"data/{name}", depth=1)
            except ValueError as e:
                raise ValueError(f"SubAgent data: {e}") from None
        return Map(converted)

    def start(self, llm=None, compress_history=None) -> "Session":
        """A run that advances one turn per `session.step()`."""
        llm = llm or self.llm
        if llm is None:
            raise ValueError("no LLM: pass llm= to SubAgent or to run()/start()")
        option = compress_history if compress_history is not None else self.compress_history
        return Session(self, llm, HistoryOpts.from_option(option))

    def run(self, llm=None, compress_history=None) -> Step:
        """Run to the end: a return, a fail, max_turns, or an LLM error (which ends the run
        as failed with reason `llm_error`, keeping the turns made)."""
        session = self.start(llm, compress_history)
        while not session.done:
            try:
                session.step()
            except LLMError as e:
                session.finish(fail=Failure("llm_error", str(e)))
        return session.result

    def tool_list(self, llm=None, opts: HistoryOpts | None = None) -> list[Tool]:
        """This agent's tools as Tool records; sub-agents become tools that inherit `llm`
        and the history options."""
        out = []
        for name, fn in self.tools.items():
            if isinstance(fn, SubAgent):
                out.append(_agent_tool(name, fn, llm, opts))
            else:
                out.append(make_tool(name, fn))
        return out

    def context(self, tools: list[Tool], data: Map | None = None) -> RenderContext:
        """What every request shares; `data` is this agent's data already converted."""
        return RenderContext(mission=self.mission, max_turns=self.max_turns,
                             reference=reference_text(self.max_turns),
                             tools=tuple(t.info for t in tools),
                             data=self.converted_data() if data is None else data)


class Session:
    """One run, advanced a turn at a time (the app steps it key by key).

    A fork (engine.agent.fork) gives its own `tools` and `context` (the parent's recorded
    ones) and starts from turns it took over (`take_over`)."""

    def __init__(self, agent: SubAgent, llm, opts: HistoryOpts, *,
                 tools: list[Tool] | None = None, context: RenderContext | None = None):
        self.agent = agent
        self.llm = llm
        self.opts = opts
        tools = agent.tool_list(llm, opts) if tools is None else tools
        self.tools = {t.name: t.fn for t in tools}
        self.data = agent.converted_data()       # once per session, not once per turn
        self.context = context if context is not None else agent.context(tools, self.data)
        self.turns: list[Turn] = []
        self.memory: dict = {}
        self.result: Step | None = None
        self.parent: Parent | None = None
        self.watchers: list = []      # called with the session after each turn and at its end
        self._renderer = STRATEGIES[opts.strategy](self.context, opts)

    def take_over(self, turns, memory, parent: Parent) -> None:
        """Start from `turns` run elsewhere (a fork's parent): they are kept as they are, the
        history renders them under this session's options, and the next step is the turn after
        them, run against `memory`."""
        for turn in turns:
            self.turns.append(turn)
            self._renderer.add(turn)
        self.memory = memory
        self.parent = parent

    @property
    def done(self) -> bool:
        return self.result is not None

    def next_request(self) -> tuple[dict, ...]:
        """The messages the next step would send (nothing is sent or recorded)."""
        return tuple(self._renderer.render(self.memory)[0])

    def step(self) -> Turn:
        """Run one turn and return it. An LLMError propagates and records nothing, so the
        step can be retried; the turns made so far are kept."""
        if self.done:
            raise RuntimeError("the run has ended")
        messages, _ = self._renderer.render(self.memory)
        started = time.perf_counter()
        completion = complete(self.llm, messages)
        llm_ms = round((time.perf_counter() - started) * 1000, 3)
        usage, response = usage_and_response(completion)
        number = len(self.turns) + 1
        try:
            turn = execute_turn(number, completion.text, self.memory,
                                data=self.data, tools=self.tools, limits=self.agent.limits,
                                messages=tuple(messages), usage=usage, response=response,
                                llm_ms=llm_ms, previous=previous_results(self.turns))
        except BaseException:       # Ctrl-C or a signal while the program ran: keep the reply
            self._record(Turn(number, completion.text, extract_program(completion.text),
                              error=PtcError("interrupted", INTERRUPTED),
                              memory=self.memory, messages=tuple(messages), usage=usage,
                              response=response, llm_ms=llm_ms))
            raise
        self._record(turn)
        self._after(turn)
        self._tell_watchers()
        return turn

    def _record(self, turn: Turn) -> None:
        self.turns.append(turn)
        self._renderer.add(turn)
        self.memory = turn.memory

    def _after(self, turn: Turn) -> None:
        if turn.signal == "return":
            self.finish(value=turn.result)
        elif turn.signal == "fail":
            self.finish(value=turn.result, fail=Failure("failed", pr_str(turn.result)))
        elif self.context.single_shot:
            if turn.error is not None:
                self.finish(fail=Failure(turn.error.reason, turn.error.message))
            else:
                self.finish(value=turn.result)
        elif len(self.turns) >= self.agent.max_turns:
            self.finish(fail=Failure("max_turns_exceeded",
                                      f"no (return ...) after {self.agent.max_turns} turns"))

    def finish(self, value=None, fail: Failure | None = None) -> None:
        """End the run (the app ends a live run it stops early this way)."""
        self.result = Step(tuple(self.turns), value, fail)
        self._tell_watchers()

    def _tell_watchers(self) -> None:
        for watcher in self.watchers:
            watcher(self)

    def trace(self, created_at: str | None = None) -> Trace:
        """The run so far as a Trace, ready to save; `created_at` pins the clock."""
        if self.result is None:
            outcome = Outcome("running")
        elif self.result.fail is None:
            outcome = Outcome("returned", self.result.return_value)
        else:
            outcome = Outcome("failed", self.result.return_value, self.result.fail.reason,
                              self.result.fail.message)
        c = self.context
        info = AgentInfo(c.mission, c.max_turns, c.reference, c.tools, c.data, self.opts,
                         llm_name(self.llm), self.agent.name, self.agent.description,
                         llm_settings(self.llm))
        when = created_at or datetime.now(timezone.utc).isoformat(timespec="seconds")
        return Trace(info, tuple(self.turns), outcome, __version__, when, self.parent)


def _mapping(what: str, given) -> dict:
    """An optional mapping argument: None means none."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise ValueError(f"SubAgent {what} must be a dict of names to values, not "
                         f"{type(given).__name__}")
    return dict(given)


_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w-]*)\s*\}\}")


def _agent_tool(name: str, child: SubAgent, llm, opts: HistoryOpts | None) -> Tool:
    """A sub-agent as a tool: its arguments fill `{{name}}` in its mission and are added to
    its data; it runs with its own LLM and history option, else its caller's
    (docs/history-rules.md, API-007)."""
    params = list(dict.fromkeys(_PLACEHOLDER.findall(child.mission)))

    def call(*args, **kwargs):
        if len(args) == 1 and not kwargs and isinstance(args[0], dict):
            kwargs = args[0]
        elif args:
            kwargs = {**dict(zip(params, args)), **kwargs}
        mission = _PLACEHOLDER.sub(lambda m: str(kwargs.get(m.group(1), m.group(0))),
                                   child.mission)
        inherited = child.compress_history if child.compress_history is not None else opts
        agent = SubAgent(mission, child.tools, {**child.data, **kwargs}, child.max_turns,
                         inherited, child.llm or llm, child.limits, name, child.description)
        step = agent.run()
        if step.failed:
            raise RuntimeError(f"sub-agent {name} failed: {step.fail.message}")
        return to_python(step.return_value)

    text = "(" + ", ".join(params) + ")" if params else "(args map)"
    return Tool(name, call, text, "any", f"a sub-agent: {' '.join(child.mission.split())}")
