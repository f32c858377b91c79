"""`ptc-tui stats TRACE`: input tokens of every turn under each strategy, totals, savings and
cost, with the provider's prompt caching and without, each strategy labelled recorded (the
requests as sent) or what-if; and the recorded LLM calls priced part by part."""

from __future__ import annotations

import argparse
import os
from dataclasses import asdict

from engine.history import BASELINE
from engine.tokens import CachePolicy, CallCost, TokenCounter, run_costs, total_cost
from engine.trace import Trace
from ptc_tui.subcommands.common import (call_json, call_text, changed_options, print_json,
                                        add_limit_options, overrides, read_trace, strategy_name,
                                        positive_whole_number, tokens)
from ptc_tui.subcommands import stats_dir
from ptc_tui.subcommands.output import Column, Output
from ptc_tui.view.formats import cost_text, per_million_text, percent_text
from ptc_tui.view.token_stats import (StrategyTotal, TokenStats, TurnTokens, saving_percent,
                                      token_stats)


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
    p.add_argument("--no-cache", action="store_true",
                   help="costs without the provider's prompt caching (as before it was modelled)")
    p.add_argument("--json", action="store_true", help="one JSON document for machines")
    p.add_argument("--jobs", type=positive_whole_number, default=stats_dir.default_jobs(),
                   metavar="J", help="for a folder: files read at once, in processes "
                   "(default: %(default)s; a J above the CPUs is lowered to them)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output) -> int:
    if os.path.isdir(args.trace):
        return stats_dir.run(args, out)
    trace = read_trace(args.trace)
    caching = not args.no_cache
    stats = token_stats(trace, args.strategy, overrides(args), args.model, caching=caching)
    calls = recorded_calls(trace, stats, caching)
    if args.json:
        doc = {"trace": args.trace, "turns_count": len(trace.turns),
               "outcome": trace.outcome.status,
               "recorded_strategy": trace.agent.history.strategy, **stats_json(stats),
               "recorded_calls": call_json(calls)}
        for name, total in doc["totals"].items():
            total["recorded_options"] = recorded(trace, stats, name)
        if stats.policy is not None and stats.reported_cached_total is not None:
            doc["modelled_cached_tokens"] = recorded_total(trace, stats)
        if trace.upstream is not None:        # a ptc_runner run: the cost it reported
            doc["reported_cost_usd"] = trace.upstream.get("cost_usd")
            doc["reported_turn_costs_usd"] = [t.get("cost_usd")
                                              for t in trace.upstream.get("turns", ())]
        print_json(doc, out)
        return 0
    show(args.trace, trace, stats, calls, out)
    return 0


def recorded_calls(trace: Trace, stats: TokenStats, caching: bool = True) -> CallCost:
    """The LLM calls as recorded, summed and priced at the stats' model: input, cached input,
    cache writes and output each at its price, from the provider's usage where it reported one
    (with `caching`, cache reads and writes it did not report are the cache model's)."""
    counter = TokenCounter(stats.encoding)
    return total_cost(run_costs(trace.turns, stats.price, counter, stats.model, caching))


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
    totals_table(trace, stats, out)
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


def totals_table(trace: Trace, stats: TokenStats, out: Output) -> None:
    """A row per strategy: tokens and saving, input cost and, unless --no-cache, what the cache
    model reads and writes, the cost with caching and its saving against `full`'s (when the
    provider caches at all)."""
    price = "" if stats.price is None else f" at {per_million_text(stats.price.input)}"
    columns = [Column("strategy"), Column("counts"), Column("input tokens", True),
               Column("saved vs full", True), Column("saved %", True),
               Column("input cost" + price, True)]
    caching = stats.policy is not None and stats.policy.caches
    if caching:
        columns += [Column("cached", True), Column("written", True),
                    Column("cost with caching", True), Column("saved %", True)]
    full = stats.total(BASELINE).cost_with_caching if BASELINE in stats.strategies else None
    rows = []
    for t in stats.totals:
        row = [t.strategy, "recorded" if recorded(trace, stats, t.strategy) else "what-if",
               tokens(t.tokens), tokens(t.saved), percent_text(t.saved_percent), cost_text(t.cost)]
        if caching:
            row += [tokens(t.cached), tokens(t.cache_write), cost_text(t.cost_with_caching),
                    percent_text(saving_percent(full, t.cost_with_caching))]
        rows.append(row)
    out.table(columns, rows)
    out.line()
    out.line(caching_line(stats))
    reported = stats.reported_cached_total
    if stats.policy is not None and reported is not None:
        ours = recorded_total(trace, stats)
        out.line(f"cache reads the provider reported ({trace.agent.history.strategy}, as sent): "
                 f"{reported:,}; the cache model gives {tokens(ours)}")


def caching_line(stats: TokenStats) -> str:
    p = stats.policy
    if p is None:
        return "costs without prompt caching (--no-cache)"
    if not p.caches:
        return ("with caching: no prompt cache for this model's provider (local, unknown or "
                "scripted; --model M to price another)")
    rule = f"hits in {p.granularity}-token steps" if p.granularity > 1 else "any length"
    where = ("at breakpoints on the system prompt and the end of what the request shares "
             "with the previous one" if p.breakpoints else "automatic")
    return (f"with caching: {p.family} rules, {where}, from {p.min_prefix:,} tokens, {rule}, "
            f"entries live {p.lifetime_s:g} s after their last use")


def recorded_total(trace: Trace, stats: TokenStats) -> int | None:
    """The cache model's reads for the recorded strategy's requests, when those are the ones
    the trace recorded."""
    name = trace.agent.history.strategy
    if name not in stats.strategies or not recorded(trace, stats, name):
        return None
    return stats.total(name).cached


def upstream_cost_line(trace: Trace) -> str:
    """For a ptc_runner run: the cost it reported, per turn and in all (its workflow's own
    requests included), and how many turns' re-runs here differ from the record."""
    up = trace.upstream
    turns = [t.get("cost_usd") for t in up.get("turns", ())]
    workflow = len(up.get("workflow_calls", ()))
    differs = sum(1 for t in up.get("turns", ()) if t.get("differs"))
    per_turn = ", ".join("?" if c is None else cost_text(c) for c in turns)
    return (f"reported cost (ptc_runner): {cost_text(up.get('cost_usd'))} in all; per turn "
            f"{per_turn}" + (f"; {workflow} workflow request(s) kept apart" if workflow else "")
            + f"; {differs} turn(s) whose re-run here differs from the record")


def stats_json(stats: TokenStats) -> dict:
    """The stats as plain JSON-ready data (`ptc-tui stats --json`)."""
    enc = stats.encoding
    price = stats.price
    return {
        "model": stats.model,
        "encoding": {"name": enc.name, "wanted": enc.wanted, "note": enc.note or None},
        "price": None if price is None else {
            "model": price.model, "input_per_million": price.input,
            "cached_input_per_million": price.cached_input, "output_per_million": price.output},
        "options": {k: v for k, v in asdict(stats.opts).items() if k != "strategy"},
        "strategies": list(stats.strategies),
        "caching": caching_json(stats.policy),
        "turns": [turn_json(t, stats.policy is not None) for t in stats.turns],
        "totals": {t.strategy: total_json(t, stats) for t in stats.totals},
        "full_input_tokens": stats.baseline_tokens,
        "reported_input_tokens": stats.reported_total,
        "reported_cached_tokens": stats.reported_cached_total,
    }


def caching_json(policy: CachePolicy | None) -> dict | None:
    """The cache model's rules (None: costs without caching, `--no-cache`)."""
    if policy is None:
        return None
    caches = policy.caches
    return {"family": policy.family, "min_prefix_tokens": policy.min_prefix if caches else None,
            "granularity_tokens": policy.granularity, "lifetime_seconds": policy.lifetime_s,
            "breakpoints": policy.breakpoints}


def turn_json(t: TurnTokens, caching: bool) -> dict:
    doc = {"turn": t.number, "status": t.status, "input_tokens": dict(t.tokens),
           "reported_input_tokens": t.reported}
    if caching:
        doc["cached_tokens"] = {s: split.read for s, split in t.cache.items()}
        doc["cache_write_tokens"] = {s: split.write for s, split in t.cache.items()}
        doc["reported_cached_tokens"] = t.reported_cached
    return doc


def total_json(t: StrategyTotal, stats: TokenStats) -> dict:
    doc = {"input_tokens": t.tokens, "saved_tokens": t.saved,
           "saved_percent": None if t.saved_percent is None else round(t.saved_percent, 2),
           "cost_usd": t.cost}
    if stats.policy is not None:
        full = stats.total(BASELINE).cost_with_caching if BASELINE in stats.strategies else None
        doc.update(cached_tokens=t.cached, cache_write_tokens=t.cache_write,
                   cost_with_caching_usd=t.cost_with_caching,
                   saved_percent_with_caching=saving_percent(full, t.cost_with_caching))
    return doc
