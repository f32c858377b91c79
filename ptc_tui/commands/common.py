"""What several commands share: history-option flags, number and cost formats, CommandError."""

from __future__ import annotations

import argparse
import json

from engine.history import STRATEGIES
from engine.history.opts import ERROR_DISPLAYS, SAMPLE_RULES
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
