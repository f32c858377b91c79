"""The run in progress on this thread and its time limit: what the runtime, compiled code and
the builtins all read, so that none of them needs the others to find it."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from engine.lisp.errors import error

if TYPE_CHECKING:
    from engine.lisp.runtime import RunContext


class _Running(threading.local):
    s: "RunContext | None" = None    # the RunContext of the run in progress on this thread


RUNNING = _Running()


def current() -> "RunContext":
    return RUNNING.s


def current_or_none() -> "RunContext | None":
    return RUNNING.s


def check_deadline() -> None:
    """A timeout if the run in progress on this thread is past its deadline."""
    ctx = RUNNING.s
    if ctx is not None and time.perf_counter() > ctx.deadline:
        timeout()


def timeout():
    """Raise the timeout of the run in progress: its wall-clock limit if that has passed (tool
    time included), else its own time limit."""
    ctx = current()
    hint = "do less work per turn: fewer items, or no deep recursion"
    if time.perf_counter() > ctx.wall_deadline:
        raise error("timeout", f"the run exceeded its wall-clock limit of "
                               f"{ctx.limits.run_wall_ms} ms (run_wall_ms, tool time included)",
                    hint)
    raise error("timeout", f"execution exceeded the time limit of {ctx.limits.time_ms} ms", hint)
