"""What several commands share: history-option flags, number and cost formats, CommandError."""

from __future__ import annotations

import argparse
import json
import os

from engine.history import STRATEGIES
from engine.history.opts import ERROR_DISPLAYS, SAMPLE_RULES
from engine.trace.disk import starts_with, target_problem
from ptc_tui.commands.output import Output
from ptc_tui.token_stats import strategy_order


class CommandError(Exception):
    """An input problem a command reports as one line (`ptc-tui: <file>: <problem>`), exit 2."""


def whole_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 0, got {value}")
    return value


def strategy_name(text: str) -> str:
    if text not in STRATEGIES:
        raise argparse.ArgumentTypeError(
            f"unknown strategy {text!r} (choose from {', '.join(strategy_order())})")
    return text


def add_limit_options(parser: argparse.ArgumentParser, rules: bool = False) -> None:
    """--println-limit and --tool-call-limit (and --sample-rule, --errors when `rules`)."""
    parser.add_argument("--println-limit", type=whole_number, metavar="N",
                        help="most recent println calls shown (default: the trace's)")
    parser.add_argument("--tool-call-limit", type=whole_number, metavar="N",
                        help="most recent tool calls shown (default: the trace's)")
    if rules:
        parser.add_argument("--sample-rule", choices=SAMPLE_RULES,
                            help="when a definition shows its sample (default: the trace's)")
        parser.add_argument("--errors", choices=ERROR_DISPLAYS,
                            help="which failed turns are shown (default: the trace's)")


def overrides(args: argparse.Namespace) -> dict:
    """The history options given on the command line (None: keep the trace's)."""
    names = ("println_limit", "tool_call_limit", "sample_rule", "errors")
    return {n: getattr(args, n) for n in names if getattr(args, n, None) is not None}


def print_json(doc, out: Output) -> None:
    """A JSON document for machines, straight to the output stream (never through Rich)."""
    out.stream.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


def tokens(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def usd(amount: float | None) -> str:
    """A cost, or "unknown" (never $0 for a model without a price)."""
    if amount is None:
        return "unknown"
    return f"${amount:.6f}" if amount < 0.01 else f"${amount:.4f}"


def percent(p: float | None) -> str:
    return "-" if p is None else f"{p:.1f}%"


def add_force_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true",
                        help="overwrite the output file even if it is not a file ptc-tui wrote")


OUR_FILES = (b'"ptc-trace"', b'"resourceSpans"')   # a trace, an OTLP export


def check_target(path: str, force: bool = False, protect=()) -> None:
    """CommandError (one line, exit 2) when the trace or export cannot be written at `path`:
    checked before any work, so nothing is computed (or paid for) that cannot be saved. An
    existing file that ptc-tui did not write is replaced only with --force; a file in
    `protect` (the agent's own source) never."""
    problem = target_problem(path)
    if problem:
        raise CommandError(problem)
    if os.path.exists(path) and any(os.path.exists(p) and os.path.samefile(path, p)
                                    for p in protect):
        raise CommandError(f"{path}: is the agent file itself; save the trace somewhere else")
    if os.path.exists(path) and not force and not starts_with(path, OUR_FILES):
        raise CommandError(f"{path}: exists and is not a trace or export written by ptc-tui; "
                           "--force overwrites it")


def read_trace(path, canonical=None):
    """The trace at `path`: one of our trace files, or a reference-implementation run
    (`run.inspection.jsonl`) imported, with a warning line on stderr for each problem the
    import got past (engine.agent.open_trace)."""
    import sys

    from engine.agent.open_trace import open_trace

    def warn(line: str) -> None:
        print(f"ptc-tui: {os.fspath(path)}: warning: {line}", file=sys.stderr)
    return open_trace(path, warn, canonical)
