"""`ptc-tui render TRACE --turn N`: the exact messages a strategy sends for one turn, their
token counts, and what the strategy dropped; whether the options are the recorded ones or a
what-if; the turn's recorded LLM call and, with --reply, the model's whole reply."""

from __future__ import annotations

import argparse
from dataclasses import fields

from engine.agent import program_spans
from engine.history import BASELINE, HistoryOpts, RenderStats, Turn, render
from engine.llm import spec_model
from engine.tokens import CallCost, TokenCounter, encoding_for_model, price_for, run_costs
from engine.trace import Trace
from ptc_tui.subcommands.common import (call_json, call_text, print_json, CommandError,
                                        add_limit_options, options_json, options_text, overrides,
                                        read_trace, strategy_name, tokens, whole_number)
from ptc_tui.subcommands.output import Output
from ptc_tui.view.renders import with_tool_calls
from ptc_tui.view.token_stats import history_opts


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
                   help="model whose tokenizer counts the messages and whose prices price the "
                        "recorded call (default: the trace's LLM)")
    p.add_argument("--reply", action="store_true",
                   help="also show the model's whole reply to this turn's request, the program "
                        "taken from it marked ▶")
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
    recorded = trace.agent.history
    shown = opts.with_changes(strategy=strategy)
    messages, stats = request(trace, n, strategy, opts)
    model = args.model or spec_model(trace.agent.llm)
    counter = TokenCounter(encoding_for_model(model))
    counts = counter.count_messages(messages)
    full = counts.total if strategy == BASELINE else \
        counter.count_messages(request(trace, n, BASELINE, opts)[0]).total
    dropped = dropped_items(trace, stats, opts)
    turn = trace.turns[n - 1]
    # priced as stats prices every recorded call: the cache model's reads where the provider
    # reported none (which needs the requests before it)
    call = run_costs(trace.turns[:n], price_for(model) if model else None, counter, model)[-1]
    if args.json:
        doc = {"trace": args.trace, "turn": n, "strategy": strategy,
               "options": {"println_limit": opts.println_limit,
                           "tool_call_limit": opts.tool_call_limit,
                           "sample_rule": opts.sample_rule, "errors": opts.errors},
               "encoding": counter.encoding.name,
               "messages": [{**m, "tokens": c} for m, c in zip(messages, counts.per_message)],
               "input_tokens": counts.total, "full_input_tokens": full, "dropped": dropped,
               **options_json(recorded, shown),
               "recorded_call": recorded_call_json(turn, call)}
        if args.reply:
            text, spans = program_spans(turn.raw_response)
            doc["reply"] = {"text": text, "tokens": counter.count(turn.raw_response),
                            "program_spans": [list(span) for span in spans],
                            "program_ran": ran(turn)}
        print_json(doc, out)
        return 0
    what_if = shown != recorded
    out.line(f"{args.trace}: turn {n} of {len(trace.turns)}, strategy {strategy}, "
             f"println_limit {opts.println_limit}, tool_call_limit {opts.tool_call_limit}")
    out.line(options_text(recorded, shown) + inherited_note(trace, n))
    if trace.upstream is not None and not what_if:
        out.line("the request the reference implementation recorded, as sent")
    for message, count in zip(messages, counts.per_message):
        out.heading(f"{message['role'].upper()} ({tokens(count)} tokens)")
        out.verbatim(message["content"] or "")
    if args.reply:
        show_reply(turn, counter, what_if, out)
    out.heading("end")
    diff = counts.total - full
    versus = "" if strategy == BASELINE else f" ({tokens(full)} under full, {diff:+,})"
    out.line(f"input tokens{' (what-if)' if what_if else ''}: {tokens(counts.total)}{versus}, "
             f"encoding {counter.encoding.name}")
    out.line(recorded_call_text(turn, call, trace.agent.history.strategy))
    show_dropped(dropped, out)
    return 0


def inherited_note(trace: Trace, n: int) -> str:
    """A fork's turn before its fork point was sent by the parent, whose history options
    were not the fork's (recorded here are the fork's)."""
    p = trace.parent
    options = {f.name for f in fields(HistoryOpts)}
    differ = [name for name in (p.changed if p else {}) if name in options]
    if p is None or n >= p.turn or not differ:
        return ""
    return (f"; but turn {n} was sent by the parent run, whose {', '.join(differ)} "
            f"{'was' if len(differ) == 1 else 'were'} not the fork's")


def ran(turn: Turn) -> bool:
    """Whether the turn's program ran (a reply without code or cut at the limit runs none)."""
    return turn.program is not None and (turn.error is None or turn.error.reason != "truncated")


def show_reply(turn: Turn, counter: TokenCounter, what_if: bool, out: Output) -> None:
    """The model's whole reply, `▶ ` before each line of the program taken from it."""
    text, spans = program_spans(turn.raw_response)
    if not spans:
        note = "no program in it"
    else:
        note = "▶ the program taken from it" + ("" if ran(turn) else
                                                f", not run: {turn.error.reason}")
    said = "; the recorded reply, to the request as sent" if what_if else ""
    out.heading(f"REPLY ({tokens(counter.count(turn.raw_response))} tokens, {note}{said})")
    out.verbatim(marked(text, spans))


def marked(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with `▶ ` before each line inside one of `spans`, two spaces before the others."""
    lines, start = [], 0
    for line in text.split("\n"):
        end = start + len(line) + 1          # the newline belongs to its line
        inside = any(a < end and start < b for a, b in spans)
        lines.append(("▶ " if inside else "  ") + line)
        start = end
    return "\n".join(lines)


def recorded_call_text(turn: Turn, call: CallCost, strategy: str) -> str:
    """The turn's LLM call as it happened (the request under the recorded `strategy`)."""
    r = turn.response
    said = [f"model {r.model}" if r and r.model else "",
            f"finish {r.finish_reason}" if r and r.finish_reason else "",
            f"({r.provider_finish_reason})" if r and r.provider_finish_reason
            and r.provider_finish_reason != r.finish_reason else ""]
    said = " ".join(s for s in said if s)
    return (f"recorded LLM call ({strategy}, as sent): {said + ', ' if said else ''}"
            f"LLM {turn.llm_ms / 1000:.2f} s, program {turn.run_ms:,.1f} ms; {call_text(call)}")


def recorded_call_json(turn: Turn, call: CallCost) -> dict:
    r = turn.response
    return {"model": r and r.model, "response_id": r and r.id,
            "finish_reason": r and r.finish_reason,
            "provider_finish_reason": r and r.provider_finish_reason,
            "llm_ms": turn.llm_ms, "run_ms": turn.run_ms, **call_json(call)}


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
