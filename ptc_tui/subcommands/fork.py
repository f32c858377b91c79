"""`ptc-tui fork TRACE --at N`: a new run that takes over turns 1..N-1 of a trace as recorded
(no LLM call, no tool run) and runs turn N onward with a chosen LLM and history options.
Without --agent, tool calls are answered from the trace's recorded calls."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.agent import fork, fork_llm, llm_name
from engine.agent.files import load_agent_file
from engine.trace import load_trace
from ptc_tui.subcommands.common import (CommandError, add_force_option, add_limit_options,
                                        add_llm_options, check_not_the_input, check_target,
                                        llm_options, overrides, whole_number)
from ptc_tui.subcommands.otlp import add_otlp_option, streamed
from ptc_tui.subcommands.output import Output
from ptc_tui.subcommands.run import compress_option, drive


def add_parser(sub) -> None:
    p = sub.add_parser("fork", help="re-run a trace from turn N under another LLM or options",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--at", type=whole_number, required=True, metavar="N",
                   help="the first turn the fork runs itself (turns before it are the trace's)")
    p.add_argument("--agent", metavar="AGENT.py",
                   help="the agent file whose real tools run (default: answer tool calls from "
                   "the trace's recorded calls)")
    p.add_argument("--compress", type=compress_option, metavar="true|false|STRATEGY",
                   help="history strategy from turn N on (default: the trace's)")
    add_limit_options(p)
    p.add_argument("--max-turns", type=whole_number, metavar="N",
                   help="turn budget (default: the trace's)")
    p.add_argument("-o", "--output", metavar="OUT.json",
                   help="write the fork's trace here, after every turn (gzip-compressed when "
                   "the name ends in .gz)")
    add_force_option(p)
    p.add_argument("--no-tui", action="store_true",
                   help="run headless (the default when stdout is not a terminal); otherwise "
                   "the app steps the fork a turn per key press")
    add_otlp_option(p)
    add_llm_options(p, "scripted:FILE's first reply answers turn N, replay:TRACE's reply k turn "
                    "k; default: the trace's own LLM set up as recorded, or a replay of the trace "
                    "when it was run on scripted or replayed replies")
    p.set_defaults(func=run)


def start(args: argparse.Namespace):
    """The fork session the arguments ask for; CommandError (nothing written) for bad input."""
    parent = load_trace(args.trace)
    agent = load_agent_file(args.agent).agent if args.agent else None
    opts = parent.agent.history
    if args.compress is not None:
        strategy = {True: "coalesced", False: "full"}.get(args.compress, args.compress)
        opts = opts.with_changes(strategy=strategy)
    opts = opts.with_changes(**overrides(args))
    if args.output:
        check_not_the_input(args.output, (args.trace,),
                            "is the trace being forked; save the fork somewhere else")
        check_target(args.output, args.force, protect=(args.agent,) if args.agent else ())
    try:
        llm = fork_llm(args.llm, parent, args.at, Path(args.trace).name, **llm_options(args))
    except ValueError as e:
        raise CommandError(f"--llm {args.llm}: {e}") from None
    try:
        return fork(parent, args.at, llm, opts=opts, max_turns=args.max_turns,
                    tools=agent.tools if agent else None, limits=agent.limits if agent else None,
                    parent_file=args.trace)
    except ValueError as e:        # the turn, the budget, or the agent's tools
        where = args.agent if agent is not None and "no tool" in str(e) else args.trace
        raise CommandError(f"{where}: {e}") from None


def run(args: argparse.Namespace, out: Output) -> int:
    session = start(args)
    with streamed(args.otlp_endpoint, session) as spans:
        if not args.no_tui and sys.stdout.isatty():
            from ptc_tui.launch import run_app          # Textual loads only for the app
            return run_app(session=session, save_path=args.output, spans=spans)
        return drive_fork(session, args, out)


def drive_fork(session, args: argparse.Namespace, out: Output) -> int:
    at = args.at
    taken = f"turns 1–{at - 1} taken over as recorded" if at > 2 else \
        "turn 1 taken over as recorded" if at == 2 else "no turn taken over"
    out.line(f"{args.trace}: fork at turn {at} ({taken}); LLM {llm_name(session.llm)}, "
             f"strategy {session.opts.strategy}, max {session.agent.max_turns} turns, tools "
             f"{'of ' + args.agent if args.agent else 'answered from the recorded calls'}")
    return drive(session, args.output, out)
