"""`ptc-tui render TRACE --turn N`: the exact messages a strategy sends for one turn, their
token counts, and what the strategy dropped."""

from __future__ import annotations

import argparse

from engine.history import HistoryOpts, RenderStats, render
from engine.tokens import TokenCounter, encoding_for_model
from engine.trace import Trace
from ptc_tui.commands.common import (print_json, CommandError, add_limit_options, overrides,
                                     read_trace, strategy_name, tokens, whole_number)
from ptc_tui.commands.output import Output
from ptc_tui.view.renders import with_tool_calls
from ptc_tui.token_stats import BASELINE, history_opts, trace_model


def add_parser(sub) -> None:
    p = sub.add_parser("render", help="the exact messages sent for one turn under a strategy",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--turn", type=whole_number, required=True, metavar="N",
                   help="the turn whose request to show (1 is the first)")
    p.add_argument("--strategy", type=strategy_name, metavar="S",
                   help="history strategy (default: the one the trace was recorded with)")
    add_limit_options(p, rules=True)
    p.add_argument("--model", metavar="M",
                   help="model whose tokenizer counts the messages (default: the trace's LLM)")
    p.add_argument("--json", action="store_true", help="one JSON document for machines")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, out: Output) -> int:
    trace = read_trace(args.trace)
    n = args.turn
    if not 1 <= n <= len(trace.turns):
        span = f"1 to {len(trace.turns)}" if trace.turns else "none: the trace has no turns"
        raise CommandError(f"{args.trace}: no turn {n} (turns: {span})")
    opts = history_opts(trace, overrides(args))
    strategy = args.strategy or opts.strategy
    messages, stats = request(trace, n, strategy, opts)
    counter = TokenCounter(encoding_for_model(args.model or trace_model(trace)))
    counts = counter.count_messages(messages)
    full = counts.total if strategy == BASELINE else \
        counter.count_messages(request(trace, n, BASELINE, opts)[0]).total
    dropped = dropped_items(trace, stats, opts)
    if args.json:
        doc = {"trace": args.trace, "turn": n, "strategy": strategy,
               "options": {"println_limit": opts.println_limit,
                           "tool_call_limit": opts.tool_call_limit,
                           "sample_rule": opts.sample_rule, "errors": opts.errors},
               "encoding": counter.encoding.name,
               "messages": [{**m, "tokens": c} for m, c in zip(messages, counts.per_message)],
               "input_tokens": counts.total, "full_input_tokens": full, "dropped": dropped}
        print_json(doc, out)
        return 0
    out.line(f"{args.trace}: turn {n} of {len(trace.turns)}, strategy {strategy}, "
             f"println_limit {opts.println_limit}, tool_call_limit {opts.tool_call_limit}")
    if trace.upstream is not None:
        recorded = opts.with_changes(strategy=strategy) == trace.agent.history
        out.line("the request the reference implementation recorded, as sent" if recorded else
                 "a what-if: what this strategy would have sent (the reference recorded "
                 "another request)")
    for message, count in zip(messages, counts.per_message):
        out.heading(f"{message['role'].upper()} ({tokens(count)} tokens)")
        out.verbatim(message["content"] or "")
    out.heading("end")
    diff = counts.total - full
    versus = "" if strategy == BASELINE else f" ({tokens(full)} under full, {diff:+,})"
    out.line(f"input tokens: {tokens(counts.total)}{versus}, encoding {counter.encoding.name}")
    show_dropped(dropped, out)
    return 0


def request(trace: Trace, n: int, strategy: str, opts: HistoryOpts):
    """The messages and RenderStats of turn `n`'s request under `strategy`: for a run
    imported from the reference implementation under its own options, the request it
    recorded (each tool call written after its message's text)."""
    if trace.upstream is not None and opts.with_changes(strategy=strategy) == trace.agent.history:
        return ([with_tool_calls(m) for m in trace.turns[n - 1].messages],
                RenderStats(strategy))
    memory = trace.turns[n - 2].memory if n > 1 else {}
    return render(strategy, trace.turns[:n - 1], memory, trace.context(), opts)


def dropped_items(trace: Trace, stats: RenderStats, opts: HistoryOpts) -> dict:
    """What the strategy left out, as JSON-ready lists of short descriptions."""
    def call(ref):
        c = trace.turns[ref.turn - 1].tool_calls[ref.index]
        return {"turn": ref.turn, "index": ref.index, "call":
                c.call_text(opts.args_limit, opts.args_printable_limit)}

    def printed(ref):
        return {"turn": ref.turn, "index": ref.index,
                "text": trace.turns[ref.turn - 1].prints[ref.index]}

    def failed(number):
        error = trace.turns[number - 1].error
        return {"turn": number, "error": None if error is None
                else f"{error.reason}: {error.message}"}

    return {"tool_calls": [call(r) for r in stats.tool_calls_dropped],
            "prints": [printed(r) for r in stats.prints_dropped],
            "failed_turns_collapsed": [failed(t) for t in stats.failed_turns_collapsed],
            "samples_omitted": list(stats.samples_omitted),
            "results_unseen": [call(r) for r in stats.results_unseen],
            "turns_dropped": list(stats.turns_dropped)}


def show_dropped(dropped: dict, out: Output) -> None:
    if not any(dropped.values()):
        out.line("dropped: nothing")
        return
    out.line("dropped:")
    sections = [
        ("tool calls (tool_call_limit)", dropped["tool_calls"], lambda d: d["call"]),
        ("prints (println_limit)", dropped["prints"], lambda d: _first_line(d["text"])),
        ("failed turns collapsed", dropped["failed_turns_collapsed"],
         lambda d: d["error"] or "no code"),
        ("tool results never seen", dropped["results_unseen"], lambda d: d["call"]),
    ]
    for title, items, text in sections:
        if items:
            out.line(f"  {title}: {len(items)}")
            for item in items:
                out.line(f"    turn {item['turn']}: {text(item)}")
    if dropped["samples_omitted"]:
        out.line(f"  definitions without samples: {', '.join(dropped['samples_omitted'])}")
    if dropped["turns_dropped"]:
        out.line("  turns left out: " + ", ".join(map(str, dropped["turns_dropped"])))


def _first_line(text: str, limit: int = 100) -> str:
    line = text.split("\n", 1)[0]
    more = len(line) > limit or "\n" in text
    return line[:limit] + (" ..." if more else "")
