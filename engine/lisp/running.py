"""The run in progress on this thread and its time limit: what the runtime, compiled code and
the builtins all read, so that none of them needs the others to find it."""

from __future__ import annotations

import threading
import time

from engine.lisp.errors import error


class _Running(threading.local):
    s = None    # the runtime.RunContext of the run in progress on this thread, or None


RUNNING = _Running()


def current():
    """The runtime.RunContext of the run in progress (compiled code and builtins run only
    inside one)."""
    return RUNNING.s


def current_or_none():
    """The same, or None outside a run."""
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
