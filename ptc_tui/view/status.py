"""One word for how a turn ended, as the turn list, `run` and `stats` say it."""

from __future__ import annotations

from engine.history import Turn


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
