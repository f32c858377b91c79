"""execute_turn: run the program of one LLM reply and record everything it did as a Turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.agent.extract import NO_CODE_MESSAGE, extract_program
from engine.history import Response, Turn, Usage
from engine.lisp import PtcError, run
from engine.llm import Completion


def previous_results(turns: Sequence[Turn]) -> tuple:
    """`*1 *2 *3` for the turn after `turns`: the values of the last three programs that ran
    without error, latest first. As at a Clojure REPL, a failed turn does not shift them.
    Derived from the turns alone, so a loaded trace gives the same values."""
    return tuple(t.result for t in reversed(turns) if t.error is None)[:3]


def usage_and_response(c: Completion) -> tuple[Usage, Response | None]:
    """What a turn records of the provider's report: its usage, and its response's model, id
    and finish (None when the provider reported none of them, as scripted replies do)."""
    usage = Usage(c.input_tokens, c.output_tokens, c.cached_tokens, c.cache_write_tokens,
                  c.reasoning_tokens)
    response = Response(c.model, c.response_id, c.finish_reason, c.provider_finish_reason)
    return usage, (None if response == Response() else response)


def execute_turn(number: int, reply: str, memory: Mapping, *, data=None, tools=None,
                 limits=None, messages: tuple = (), usage: Usage | None = None,
                 response: Response | None = None, llm_ms: float = 0.0, previous: tuple = ()) -> Turn:
    """Turn `number`: the program found in `reply`, run against `memory`, `data` and `tools`,
    with `previous` (see previous_results) as `*1 *2 *3`.

    A reply without code is a failed turn (reason `no_code`); memory after a failed turn is
    the memory before it (the engine rolls a failed run back).
    """
    program = extract_program(reply)
    common = dict(number=number, raw_response=reply, program=program, messages=tuple(messages),
                  usage=usage, response=response, llm_ms=llm_ms)
    if program is None:
        return Turn(**common, error=PtcError("no_code", NO_CODE_MESSAGE), memory=memory)
    r = run(program, data=data, tools=tools, memory=memory, limits=limits, previous=previous)
    return Turn(**common, result=r.value, error=r.error, signal=r.signal, prints=tuple(r.prints),
                tool_calls=tuple(r.tool_calls), memory=r.memory,
                definitions=tuple(r.definitions), run_ms=r.duration_ms)
