"""Re-running a reference-implementation turn in our engine: RecordedAnswers answers its tool
calls from the capability calls the reference recorded, and `compare` says whether our outcome
is the recorded one (engine.agent.upstream)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from engine.history import Turn
from engine.lisp import ToolCall, ToolFailure, pr_str, to_python
from engine.trace.upstream import Capability

no_run_reason = ("the reference did not evaluate this program (its workflow refused the "
                 "reply), so neither do we")
TRUNCATED = "\n... (observation truncated)"
_OUTPUT = '<untrusted_ptc_output source="evaluation">'


class RecordedAnswers:
    """Answers the program's calls from the evaluation's recorded capability calls: a call is
    answered by the first unused recorded call whose argument values (nil ones aside) are all
    among the call's arguments; `{status: ok, value}` gives the value, any other envelope
    fails the call with it. A call no recorded call answers fails with a tool_error."""

    def __init__(self, calls: Iterable[Capability]):
        self.calls = list(calls)
        self.used: list[Capability] = []            # in the order our run called them

    def answer(self, name: str, args: tuple):
        given = [to_python(a) for a in args]
        for call in self.calls:
            if call in self.used or call.result is None:
                continue
            wanted = call.arguments.values() if type(call.arguments) is dict \
                else [call.arguments]
            if all(v is None or v in given for v in wanted):
                self.used.append(call)
                if call.result.get("status") == "ok":
                    return call.result.get("value")
                raise ToolFailure(f"{call.name}: {pr_str(call.result)[:500]}")
        raise ToolFailure(f"no recorded call of the reference run answers {name} with these "
                          f"arguments")

    def functions(self, names: Iterable[str]) -> dict:
        return {name: self._function(name) for name in names}

    def _function(self, name: str):
        def recorded(*args):
            return self.answer(name, args)
        return recorded

    def with_recorded_durations(self, calls: Iterable[ToolCall],
                                duration: Callable[[Capability], float]) -> list[ToolCall]:
        """Our run's calls, each with the recorded duration of the call that answered it."""
        answered = iter(self.used)
        out = []
        for call in calls:
            recorded = next(answered, None) if call.error is None or self._failed(call) else None
            out.append(call if recorded is None else replace(call, duration_ms=duration(recorded)))
        return out

    @staticmethod
    def _failed(call: ToolCall) -> bool:
        return bool(call.error) and not call.error.startswith("no recorded call")


def our_status(turn: Turn) -> str:
    """Our outcome in the reference's words: continued, returned or failed."""
    if turn.error is not None or turn.signal == "fail":
        return "failed"
    return "returned" if turn.signal == "return" else "continued"


def shown_text(turn: Turn) -> str:
    """Our outcome as the reference's feedback shows a success: `user=> value`, then the
    prints after `println:`."""
    body = "user=> " + pr_str(turn.result)
    return body + ("\nprintln:\n" + "\n".join(turn.prints) if turn.prints else "")


def compare(turn: Turn, recorded_status: str | None, shown: str | None) -> dict | None:
    """None when our outcome is the recorded one as far as the record tells; else both, as
    `{recorded, ours}` lines a reader can set side by side."""
    ours = our_status(turn)
    ours_text = f"{ours}: " + (f"{turn.error.reason}: {turn.error.message}" if turn.error
                               else shown_text(turn))
    if recorded_status is not None and recorded_status != ours:
        return {"recorded": f"{recorded_status}" + (f": {_body(shown)}" if shown else ""),
                "ours": ours_text}
    if shown is None:
        return None
    succeeded = _OUTPUT in shown
    if succeeded != (ours != "failed"):
        return {"recorded": _body(shown) if succeeded else shown, "ours": ours_text}
    if succeeded and not _same_output(_body(shown), shown_text(turn)):
        return {"recorded": _body(shown), "ours": ours_text}
    return None


def _body(shown: str) -> str:
    """The evaluation output inside a success message (the whole message otherwise)."""
    start = shown.find(_OUTPUT)
    if start < 0:
        return shown
    body = shown[start + len(_OUTPUT):]
    end = body.rfind("</untrusted_ptc_output>")
    return body[:end] if end >= 0 else body


def _same_output(recorded: str, ours: str) -> bool:
    ours = ours.replace("</untrusted_ptc_output>", "</untrusted_ptc_output (escaped)>")
    if recorded.endswith(TRUNCATED):
        return ours.startswith(recorded[:-len(TRUNCATED)])
    return recorded == ours
