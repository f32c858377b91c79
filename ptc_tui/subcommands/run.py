"""`ptc-tui run AGENT.py`: run an agent file headless, turn by turn, and save its trace.
Without --llm the file's scripted `replies` drive it (no network, no API key)."""

from __future__ import annotations

import argparse
import dataclasses
import sys

from engine.agent import Failure, llm_name, open_llm
from engine.agent.files import load_agent_file
from engine.history import STRATEGIES, HistoryOpts, Turn, strategy_order
from engine.lisp import format_value
from engine.llm import LLMError
from engine.trace import save_trace
from ptc_tui.subcommands.common import (add_force_option, add_limit_options, add_llm_options,
                                        check_target, file_name, llm_options, overrides,
                                        positive_whole_number)
from ptc_tui.subcommands.otlp import add_otlp_option, streamed
from ptc_tui.subcommands.output import Output
from ptc_tui.signals import Interrupted, deferred, interruptible
from ptc_tui.view.status import turn_status
from ptc_tui.view.plain_text import text_lines

PROGRAM_LINES = 3
PRINTS_SHOWN = 5
CUT = 120


def compress_option(text: str):
    """--compress: true, false or a strategy name."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if text not in STRATEGIES:
        raise argparse.ArgumentTypeError(
            f"expected true, false or a strategy ({', '.join(strategy_order())}), got {text!r}")
    return text


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="run an agent file: stepped in the app on a terminal, "
                       "else headless; save its trace",
                       description=__doc__)
    p.add_argument("agent", metavar="AGENT.py")
    p.add_argument("--compress", type=compress_option, metavar="true|false|STRATEGY",
                   help="history strategy (default: the agent's compress_history)")
    add_limit_options(p)
    p.add_argument("--max-turns", type=positive_whole_number, metavar="N",
                   help="turn budget (default: the agent's max_turns)")
    p.add_argument("--save", type=file_name, metavar="TRACE",
                   help="write the trace of the run here, after every turn (gzip-compressed "
                   "when the name ends in .gz)")
    add_force_option(p)
    p.add_argument("--no-tui", action="store_true",
                   help="run headless, printing each turn (the default when stdout is not a "
                   "terminal); otherwise the app steps it a turn per key press")
    add_otlp_option(p)
    add_llm_options(p, "default: the file's scripted replies")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output) -> int:
    if args.save:
        check_target(args.save, args.force, protect=(args.agent,))
    agent_file = load_agent_file(args.agent)
    agent = agent_file.agent
    if args.max_turns is not None:
        agent = dataclasses.replace(agent, max_turns=args.max_turns)
    llm = open_llm(args.llm, **llm_options(args)) if args.llm else agent_file.scripted_llm()
    session = agent.start(llm, compress_history=history_option(agent.compress_history, args))
    with streamed(args.otlp_endpoint, session) as spans:
        if not args.no_tui and sys.stdout.isatty():
            from ptc_tui.launch import run_app          # Textual loads only for the app
            return run_app(session=session, save_path=args.save, spans=spans)
        out.line(f"{agent_file.path}: {agent.name}, strategy {session.opts.strategy}, "
                 f"max {agent.max_turns} turns, LLM {llm_name(llm)}")
        return drive(session, args.save, out)


def drive(session, path: str | None, out: Output) -> int:
    """Step `session` headless to its end, saving it to `path` after every turn and on a
    signal; the exit code (0 returned, 1 failed, 128 + the signal's number).

    Signals are noted (`deferred`) from before the run starts until the last save is done,
    and raise `Interrupted` only while the run goes on: so a second signal (Ctrl-C twice,
    or `timeout`, which signals the process and then its whole group) never finds the
    default handler, which would end the process before the save."""
    with deferred() as late:
        try:
            with interruptible():
                run_to_the_end(session, path, out)
        except Interrupted as stop:
            out.line(f"interrupted ({stop.name}) after {len(session.turns)} turns")
            save(session, path, out)
            return stop.exit_code
        out.line(outcome_line(session.result))
        save(session, path, out)
    if late:
        return 128 + late[0]
    return 0 if session.result.fail is None else 1


def outcome_line(result) -> str:
    """How a finished run ended, in one line."""
    if result.fail is None:
        return f"returned: {format_value(result.return_value, 20, 200)[0]}"
    return f"failed ({result.fail.reason}): {result.fail.message}"


def run_to_the_end(session, path: str | None, out: Output) -> None:
    """Step `session` until it ends, showing each turn and saving the run so far to `path`
    after every turn, so the file is never more than the turn in progress behind."""
    while not session.done:
        try:
            show_turn(session.step(), out)
        except LLMError as e:
            session.finish(fail=Failure("llm_error", str(e)))
        if path:
            with deferred() as caught:
                save_trace(session.trace(), path)
            if caught:
                raise Interrupted(caught[0])


def history_option(own, args: argparse.Namespace):
    """The agent's history option, or the command line's (None: leave the agent's as is)."""
    changes = overrides(args)
    if args.compress is None and not changes:
        return None
    base = HistoryOpts.from_option(args.compress if args.compress is not None else own)
    return base.with_changes(**changes)


def save(session, path: str | None, out: Output) -> None:
    if path:
        save_trace(session.trace(), path)
        out.line(f"saved {path}")


def show_turn(turn: Turn, out: Output) -> None:
    out.line(f"turn {turn.number}: {turn_status(turn)}")
    if turn.program is None:
        out.line(f"  reply: {cut(turn.raw_response)}")
    else:
        lines = text_lines(turn.program) or [""]
        for i, line in enumerate(lines[:PROGRAM_LINES]):
            out.line(("  program: " if i == 0 else "           ") + line)
        if len(lines) > PROGRAM_LINES:
            out.line(f"           ... ({len(lines) - PROGRAM_LINES} more lines)")
    for call in turn.tool_calls:
        outcome = f"error: {call.error}" if call.error else format_value(call.result, 3, 60)[0]
        out.line(f"  tool call: {cut(call.call_text())} -> {cut(outcome)}")
    for text in turn.prints[:PRINTS_SHOWN]:
        out.line(f"  print: {cut(text)}")
    if len(turn.prints) > PRINTS_SHOWN:
        out.line(f"  ... ({len(turn.prints) - PRINTS_SHOWN} more prints)")
    if turn.error is not None:
        out.line(f"  error: {cut(str(turn.error))}")


def cut(text: str) -> str:
    """The first line of `text`, at most CUT characters, marked when something was left out."""
    line = text.split("\n", 1)[0]
    return line[:CUT] + (" ..." if len(line) > CUT or "\n" in text else "")
