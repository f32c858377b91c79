"""`ptc-tui validate TRACE`: the trace loads, and the messages it recorded are exactly what its
strategy renders from its turns (so every other view of it can be trusted). Exit 1 when the
file is not a valid trace, 2 when there is no file."""

from __future__ import annotations

import argparse
import os
import sys

from engine.history import render_turns
from engine.trace import Trace, TraceError, load_trace
from ptc_tui.commands.common import CommandError
from ptc_tui.commands.output import Output


def add_parser(sub) -> None:
    p = sub.add_parser("validate", help="check a trace loads and re-renders as recorded",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output) -> int:
    if not os.path.isfile(args.trace):
        raise CommandError(f"{args.trace}: no such file")
    try:
        trace = load_trace(args.trace)
    except TraceError as e:
        return invalid(str(e))
    problem = first_difference(trace)
    if problem:
        return invalid(f"{args.trace}: {problem}")
    fork = (f" (a fork: turns from {trace.parent.turn} checked; its parent's file holds the "
            "others)") if trace.parent is not None else ""
    out.line(f"ok: {len(trace.turns)} turns, {trace.outcome.status}{fork}")
    return 0


def invalid(problem: str) -> int:
    print(f"ptc-tui: {' '.join(problem.split())}", file=sys.stderr)
    return 1


def first_difference(trace: Trace) -> str | None:
    """Where the recorded requests first differ from a re-render, or None when they agree.
    A fork's turns before its own were sent under its parent's options: the parent's file
    checks those, so they are not compared here."""
    opts = trace.agent.history
    requests = render_turns(opts.strategy, trace.turns, trace.context(), opts)
    own = trace.parent.turn if trace.parent is not None else 1
    for turn, (messages, _) in zip(trace.turns, requests):
        recorded = list(turn.messages)
        if turn.number < own:
            continue
        if recorded == messages:
            continue
        where = f"turn {turn.number} ({opts.strategy})"
        if len(recorded) != len(messages):
            return (f"{where}: {len(recorded)} messages recorded, "
                    f"{len(messages)} re-rendered")
        i, (old, new) = next((i, pair) for i, pair in enumerate(zip(recorded, messages))
                             if pair[0] != pair[1])
        if old["role"] != new["role"]:
            return f"{where}: message {i + 1} is {old['role']}, re-rendered as {new['role']}"
        at = next((k for k, (a, b) in enumerate(zip(old["content"], new["content"])) if a != b),
                  min(len(old["content"]), len(new["content"])))
        line = old["content"].count("\n", 0, at) + 1
        return (f"{where}: message {i + 1} ({old['role']}) differs from the re-render at "
                f"line {line}: recorded {_around(old['content'], at)}, "
                f"re-rendered {_around(new['content'], at)}")
    return None


def _around(text: str, at: int, width: int = 30) -> str:
    return repr(text[at:at + width]) if at < len(text) else "(end)"
