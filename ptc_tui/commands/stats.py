"""`ptc-tui stats TRACE`: input tokens of every turn under each strategy, totals, savings and
cost, each strategy labelled recorded (the requests as sent) or what-if; and the recorded LLM
calls priced part by part."""

from __future__ import annotations

import argparse
import os

from engine.tokens import CallCost, TokenCounter, total_cost
from engine.trace import Trace
from ptc_tui.commands.common import (call_json, call_text, changed_options, print_json,
                                     add_limit_options, overrides, percent, read_trace,
                                     strategy_name, tokens, usd, whole_number)
from ptc_tui.commands import stats_dir
from ptc_tui.commands.output import Column, Output
from ptc_tui.token_stats import TokenStats, stats_json, token_stats, turn_cost


def add_parser(sub) -> None:
    p = sub.add_parser("stats", help="input tokens per turn under each history strategy, "
                                     "recorded or what-if",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE",
                   help="a trace file, or a folder: every trace under it, aggregated")
    p.add_argument("--strategy", type=strategy_name, action="extend", nargs="+", metavar="S",
                   help="strategies to count (default: all four)")
    add_limit_options(p)
    p.add_argument("--model", metavar="M",
                   help="model whose tokenizer and price to use (default: the trace's LLM)")
    p.add_argument("--json", action="store_true", help="one JSON document for machines")
    p.add_argument("--jobs", type=whole_number, default=stats_dir.default_jobs(), metavar="J",
                   help="for a folder: files read at once, in processes (default: %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output) -> int:
    if os.path.isdir(args.trace):
        return stats_dir.run(args, out)
    trace = read_trace(args.trace)
    stats = token_stats(trace, args.strategy, overrides(args), args.model)
    calls = recorded_calls(trace, stats)
    if args.json:
        doc = {"trace": args.trace, "turns_count": len(trace.turns),
               "outcome": trace.outcome.status,
               "recorded_strategy": trace.agent.history.strategy, **stats_json(stats),
               "recorded_calls": call_json(calls)}
        for name, total in doc["totals"].items():
            total["recorded_options"] = recorded(trace, stats, name)
        if trace.upstream is not None:        # a ptc_runner run: the cost it reported
            doc["reported_cost_usd"] = trace.upstream.get("cost_usd")
            doc["reported_turn_costs_usd"] = [t.get("cost_usd")
                                              for t in trace.upstream.get("turns", ())]
        print_json(doc, out)
        return 0
    show(args.trace, trace, stats, calls, out)
    return 0


def recorded_calls(trace: Trace, stats: TokenStats) -> CallCost:
    """The LLM calls as recorded, summed and priced at the stats' model: input, cached input
    and output each at its price, from the provider's usage where it reported one."""
    counter = TokenCounter(stats.encoding)
    return total_cost([turn_cost(t, stats.price, counter) for t in trace.turns])


def recorded(trace: Trace, stats: TokenStats, strategy: str) -> bool:
    """Whether `strategy`'s counts are of the requests as sent: the recorded strategy, under
    the recorded options."""
    return stats.opts.with_changes(strategy=strategy) == trace.agent.history


def show(name: str, trace: Trace, stats: TokenStats, calls: CallCost, out: Output) -> None:
    opts, kept = stats.opts, trace.agent.history
    out.line(f"{name}: {trace.agent.name}, {len(trace.turns)} turns, {trace.outcome.status}")
    out.line(f"recorded strategy: {kept.strategy}; println_limit {kept.println_limit}, "
             f"tool_call_limit {kept.tool_call_limit}, sample_rule {kept.sample_rule}, "
             f"errors {kept.errors}")
    changed = changed_options(kept, opts)
    if changed:
        out.line("what-if for every strategy: "
                 + ", ".join(f"{n} {getattr(opts, n)}" for n in changed)
                 + " (recorded: " + ", ".join(f"{n} {getattr(kept, n)}" for n in changed) + ")")
    enc = stats.encoding
    model = stats.model or f"none (LLM {trace.agent.llm or 'unknown'}; --model M to price)"
    out.line(f"model: {model}; encoding {enc.name}" + (f" ({enc.note})" if enc.note else ""))
    out.line()
    columns = [Column("turn", True), Column("status")]
    columns += [Column(s, True) for s in stats.strategies]
    if stats.has_reported:
        columns.append(Column("reported", True))
    rows = []
    for t in stats.turns:
        row = [str(t.number), t.status, *(tokens(t.tokens[s]) for s in stats.strategies)]
        rows.append(row + ([tokens(t.reported)] if stats.has_reported else []))
    footer = ["total", "", *(tokens(stats.total(s).tokens) for s in stats.strategies)]
    if stats.has_reported:
        footer.append(tokens(stats.reported_total))
    out.table(columns, rows, footer)
    out.line()
    price = "" if stats.price is None else f" at ${stats.price.input:g}/M"
    out.table([Column("strategy"), Column("counts"), Column("input tokens", True),
               Column("saved vs full", True), Column("saved %", True),
               Column("input cost" + price, True)],
              [[t.strategy, "recorded" if recorded(trace, stats, t.strategy) else "what-if",
                tokens(t.tokens), tokens(t.saved), percent(t.saved_percent), usd(t.cost)]
               for t in stats.totals])
    if stats.has_reported:
        out.line()
        sent = "by ptc_runner" if trace.upstream is not None else \
            f"{trace.agent.history.strategy}, as recorded"
        out.line("reported: input tokens the provider counted for the requests actually sent "
                 f"({sent})")
    out.line()
    out.line(f"recorded LLM calls ({trace.agent.history.strategy}, as sent): {call_text(calls)}")
    if trace.upstream is not None:
        out.line(upstream_cost_line(trace))


def upstream_cost_line(trace: Trace) -> str:
    """For a ptc_runner run: the cost it reported, per turn and in all (its workflow's own
    requests included), and how many turns' re-runs here differ from the record."""
    up = trace.upstream
    turns = [t.get("cost_usd") for t in up.get("turns", ())]
    workflow = len(up.get("workflow_calls", ()))
    differs = sum(1 for t in up.get("turns", ()) if t.get("differs"))
    per_turn = ", ".join("?" if c is None else usd(c) for c in turns)
    return (f"reported cost (ptc_runner): {usd(up.get('cost_usd'))} in all; per turn "
            f"{per_turn}" + (f"; {workflow} workflow request(s) kept apart" if workflow else "")
            + f"; {differs} turn(s) whose re-run here differs from the record")
