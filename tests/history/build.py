"""Building real Turns for history tests: each program really runs on the engine."""

from __future__ import annotations

from engine.agent.execute import execute_turn, previous_results
from engine.history import RenderContext, ToolInfo

NO_CODE = object()   # a reply with no code block


def reply(program: str) -> str:
    return f"thinking: next step\n```clojure\n{program}\n```"


def make_turns(programs, *, tools=None, data=None) -> list:
    """One Turn per program, run in order with memory carried over, as the agent loop does.
    A program may be NO_CODE (a reply without code) or a (reply_text,) tuple (a raw reply)."""
    turns, memory = [], {}
    for number, program in enumerate(programs, 1):
        if program is NO_CODE:
            text = "I think the answer is 42."
        elif isinstance(program, tuple):
            text = program[0]
        else:
            text = reply(program)
        turn = execute_turn(number, text, memory, data=data, tools=tools,
                            previous=previous_results(turns))
        turns.append(turn)
        memory = turn.memory
    return turns


def context(mission="Find well-reviewed products in stock", max_turns=5, data=None,
            tools=(), reference="REFERENCE") -> RenderContext:
    return RenderContext(mission=mission, max_turns=max_turns, reference=reference,
                         tools=tuple(tools), data=data or {})


SEARCH = ToolInfo("search-reviews", "(category string)", "string",
                  "Customer review summary for a category")
