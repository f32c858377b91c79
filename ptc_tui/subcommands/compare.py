"""`ptc-tui compare A.json B.json`: two runs turn by turn (aligned on turn numbers): status,
input tokens, tool calls and prints of each, both outcomes and final answers, totals and cost,
and the first turn whose programs differ. On a terminal (without --json or --no-tui) the app
shows it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.trace import TraceError
from ptc_tui.subcommands.common import print_json, read_trace, tokens
from ptc_tui.subcommands.output import Column, Output
from ptc_tui.view.compare import Comparison, RunSummary, SideTurn
from ptc_tui.view.formats import cost_text
from ptc_tui.view.plain_text import escape_controls


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="two runs side by side, turn by turn",
                       description=__doc__)
    p.add_argument("a", metavar="A.json")
    p.add_argument("b", metavar="B.json")
    p.add_argument("--json", action="store_true", help="one JSON document for machines")
    p.add_argument("--no-tui", action="store_true", help="print the comparison even on a "
                   "terminal (the default elsewhere)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output) -> int:
    traces, problems = [], []
    for path in (args.a, args.b):
        try:
            traces.append(read_trace(path))
        except TraceError as e:
            problems.append(str(e))
    if problems:
        for problem in problems:
            print(f"ptc-tui: {escape_controls(' '.join(problem.split()))}", file=sys.stderr)
        return 2
    if not args.json and not args.no_tui and sys.stdout.isatty():
        from ptc_tui.launch import run_app          # Textual loads only for the app
        return run_app(compare=(Path(args.a), Path(args.b)))
    comparison = Comparison.of(*traces, args.a, args.b)
    if args.json:
        print_json(comparison.as_json(), out)
    else:
        show(comparison, out)
    return 0


def show(c: Comparison, out: Output) -> None:
    for label, run in (("A", c.a), ("B", c.b)):
        out.line(summary_line(label, run))
        out.line(f"   answer: {run.answer}")
    for warning in c.warnings:
        out.line(f"warning: {warning}")
    first = c.first_divergent_turn
    out.line("every program is identical" if first is None
             else f"first divergent turn: {first} (the programs differ from here)")
    out.line()
    columns = [Column("turn", True)]
    for label in ("A", "B"):
        columns += [Column(f"{label} status"), Column("tokens", True), Column("tools", True),
                    Column("prints", True)]
    columns.append(Column("program"))
    rows = [[str(p.number), *_cells(p.a), *_cells(p.b), _program(p.same_program, p.number, first)]
            for p in c.pairs]
    footer = ["total", "", tokens(c.a.input_tokens), "", "", "", tokens(c.b.input_tokens), "",
              "", ""]
    out.table(columns, rows, footer)


def summary_line(label: str, run: RunSummary) -> str:
    fork = f" · fork of {run.fork_of}" if run.fork_of else ""
    return (f"{label}: {run.name} · {run.llm} · {run.outcome} · {run.turns} turns · "
            f"{run.input_tokens:,} input + {run.output_tokens:,} output tokens · "
            f"cost {cost_text(run.cost)}{fork}")


def _cells(side: SideTurn | None) -> list[str]:
    if side is None:
        return ["-", "", "", ""]
    status = side.status.replace("_", " ") + (" (parent)" if side.from_parent else "")
    return [status, tokens(side.input_tokens), str(side.tool_calls), str(side.prints)]


def _program(same: bool, number: int, first: int | None) -> str:
    if same:
        return "same"
    return "differs ◀ first" if number == first else "differs"
