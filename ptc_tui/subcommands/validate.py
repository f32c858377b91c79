"""`ptc-tui validate TRACE`: the trace loads; each turn's program is the code in its reply; the
outcome is what the last turn did; the messages it recorded are exactly what its strategy
renders from its turns; and the file is as it was saved (its content digest matches). Exit 1
when the trace reads but fails a check, 2 when the file cannot be read (missing, not a regular
file) or is not a trace (not JSON, cut short, another format, a newer version)."""

from __future__ import annotations

import argparse
import os
import sys

from engine.agent.extract import extract_program
from engine.agent.open_trace import is_inspection_file
from engine.history import render_turns
from engine.lisp import pr_str
from engine.trace import Trace, TraceError
from engine.trace.files import content_digest, load_trace_doc, trace_from_json
from ptc_tui.subcommands.common import CommandError, read_trace
from ptc_tui.subcommands.output import Output
from ptc_tui.view.formats import count_text
from ptc_tui.view.plain_text import escape_controls


def add_parser(sub) -> None:
    p = sub.add_parser("validate", help="check a trace is consistent and as it was saved",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output) -> int:
    try:
        if is_inspection_file(args.trace):
            doc, trace = {}, read_trace(args.trace)
        else:
            doc = load_trace_doc(args.trace)
            trace = trace_from_json(doc, os.fspath(args.trace))
    except TraceError as e:                  # no trace to judge: an input error, as in stats
        raise CommandError(str(e)) from None
    if trace.upstream is not None:
        return imported(args.trace, trace, doc, out)
    problem = (program_problem(trace) or outcome_problem(trace) or first_difference(trace)
               or digest_problem(doc))
    if problem:
        return invalid(f"{args.trace}: {problem}")
    unsigned = "" if "digest" in doc else " (no content digest: saved by an older ptc-tui)"
    fork = (f" (a fork: turns from {trace.parent.turn} checked; its parent's file holds the "
            "others)") if trace.parent is not None else ""
    out.line(f"ok: {count_text(len(trace.turns), 'turn')}, {trace.outcome.status}{fork}{unsigned}")
    return 0


def imported(name: str, trace: Trace, doc: dict, out: Output) -> int:
    """A run imported from the reference implementation: its requests, replies and programs
    are as it recorded them (not ours to re-derive); what can be checked is the digest."""
    problem = digest_problem(doc) if doc else None
    if problem:
        return invalid(f"{name}: {problem}")
    differs = sum(1 for t in trace.upstream.get("turns", ()) if t.get("differs"))
    out.line(f"ok: {count_text(len(trace.turns), 'turn')}, {trace.outcome.status} (imported "
             f"from a ptc_runner run: requests, replies and programs as it recorded them; "
             f"{differs} turn(s) whose re-run here differs from the recorded outcome)")
    return 0


def invalid(problem: str) -> int:
    print(f"ptc-tui: {escape_controls(' '.join(problem.split()))}", file=sys.stderr)
    return 1


def program_problem(trace: Trace) -> str | None:
    """The first turn whose `program` is not the code found in its reply (a deleted or edited
    program), or None."""
    for turn in trace.turns:
        found = extract_program(turn.raw_response)
        if turn.program != found:
            what = ("has no program" if turn.program is None else
                    "has a program its reply does not hold" if found is None else
                    "has a program that differs from the code in its reply")
            return f"turn {turn.number} {what} (edited after the run?)"
    return None


def outcome_problem(trace: Trace) -> str | None:
    """Where the outcome is not what the turns did (a dropped turn, an edited outcome or a
    removed (return ...)), or None."""
    turns, outcome = trace.turns, trace.outcome
    ending = next((t for t in turns if t.signal is not None), None)
    if ending is not None and ending is not turns[-1]:
        return (f"turn {ending.number} ended the run with ({ending.signal} ...), yet "
                f"{len(turns) - ending.number} turns follow it")
    last = turns[-1] if turns else None
    single_shot = trace.agent.max_turns == 1
    if outcome.status == "running":
        if last is not None and last.signal is not None:
            return f"the outcome says running, but turn {last.number} ended the run"
        return None
    reason = outcome.fail_reason
    if outcome.status == "returned" or reason == "failed":
        signal = "return" if outcome.status == "returned" else "fail"
        if last is None:
            return f"the outcome says {outcome.status}, but the trace has no turns"
        if last.signal != signal and not (single_shot and outcome.status == "returned"):
            return (f"the outcome says {outcome.status}, but the last turn ({last.number}) "
                    f"has no ({signal} ...)")
        if pr_str(outcome.return_value) != pr_str(last.result):
            return (f"the outcome's return value is not what turn {last.number} "
                    f"{'returned' if signal == 'return' else 'failed with'}")
    elif reason == "max_turns_exceeded" and len(turns) != trace.agent.max_turns:
        return (f"the outcome says the run used all {trace.agent.max_turns} turns, but the trace "
                f"has {len(turns)}")
    return None


def digest_problem(doc: dict) -> str | None:
    """Whether the file changed after it was saved (None too for a file without a digest)."""
    recorded = doc.get("digest")
    if recorded is None:
        return None
    if recorded != content_digest(doc):
        return ("changed after it was saved: its content digest does not match (an edit "
                "that keeps the trace consistent, such as a print, a tool result or a count)")
    return None


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
