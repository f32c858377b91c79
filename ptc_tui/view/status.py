"""How a turn ended, in one word (as the turn list, `run` and `stats` say it), and how a run
ended (as the header, the runs table and `stats DIR` say it)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.history import Turn
from engine.lisp import Keyword
from engine.trace import Trace


def turn_status(turn: Turn) -> str:
    """One word for how a turn ended: ok, error, return, fail or no code (a reply cut at the
    output limit is an error, reason `truncated`, whether or not code came before the cut)."""
    if turn.error is not None and turn.error.reason == "truncated":
        return "error"
    if turn.program is None:
        return "no code"
    if turn.error is not None:
        return "error"
    return turn.signal or "ok"


def status(turn: Turn) -> str:
    """ok, error, return, fail or no_code (the `stats` command's word, as an identifier)."""
    return turn_status(turn).replace(" ", "_")


def outcome_text(trace: Trace) -> str:
    o = trace.outcome
    if o.status == "returned":
        return "returned"
    if o.status == "failed":
        if o.fail_reason == "max_turns_exceeded":
            return "out of turns"
        # a program's `(fail {:reason "not-found" ...})` names its own reason
        reason = _value_reason(o.return_value) if o.fail_reason == "failed" else None
        reason = reason or o.fail_reason
        return f"failed: {reason}" if reason else "failed"
    return o.status


def _value_reason(value) -> str | None:
    if isinstance(value, Mapping):
        reason = value.get(Keyword("reason"))
        if isinstance(reason, (str, Keyword)):
            return reason if isinstance(reason, str) else reason.name
    return None
