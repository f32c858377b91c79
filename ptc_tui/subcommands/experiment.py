"""`ptc-tui experiment AGENT.py --compress full,coalesced --set println_limit=3,15 --repeat K
--out DIR`: run an agent K times under every combination of history options, save every run's
trace and experiment.json in DIR, and show per option set the success rate (Wilson 95%
interval), turns, input tokens and cost, against the first option set."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from engine.agent import llm_name, open_llm
from engine.agent.files import load_agent_file
from engine.history import STRATEGIES, HistoryOpts
from engine.llm import SimulatedLLM, spec_model
from ptc_tui.subcommands.common import (CommandError, add_llm_options, llm_options,
                                        positive_whole_number, print_json, whole_number)
from ptc_tui.subcommands.output import Column, Output
from ptc_tui.experiments.plan import (MAX_JOBS, MAX_REPEAT, TURN_BUDGET, OptionSet, option_sets,
                                      parse_setting, plan_runs)
from ptc_tui.subcommands.otlp import add_otlp_option, streamed
from ptc_tui.experiments.record import (FILE_NAME, ExperimentError, experiment_doc,
                                        load_experiment, save_experiment)
from ptc_tui.experiments.runner import Experiment, InBackground, Progress, run_all
from ptc_tui.experiments.runs import success_rule
from ptc_tui.experiments.summary import SetSummary, summarize
from ptc_tui.signals import Interrupted, interruptible
from ptc_tui.view.formats import cost_spread_text

RULES = {"check": "the agent file's check(step)", "expected": "returns the file's `expected`",
         "returned": "returned (no fail, not out of turns)"}
REASONS_SHOWN = 5


def add_parser(sub) -> None:
    p = sub.add_parser("experiment", help="run an agent many times under several history "
                       "options and compare success, turns, tokens and cost",
                       description=__doc__)
    p.add_argument("agent", metavar="AGENT.py")
    p.add_argument("--compress", metavar="S1,S2", help="strategies, comma-separated "
                   "(default: the agent's own)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=V1,V2", dest="settings",
                   help="values of a history option (or max_turns) to try; repeatable")
    p.add_argument("--repeat", type=repeat_count, default=5, metavar="K",
                   help=f"runs per option set (default 5, at most {MAX_REPEAT:,}: that many "
                   "pin a success rate within about ±1 point)")
    p.add_argument("--jobs", type=jobs_count, default=4, metavar="J",
                   help=f"runs at once (default 4, at most {MAX_JOBS})")
    p.add_argument("--seed", type=whole_number, default=0, metavar="S",
                   help="the experiment's seed; each run's is derived from it (default 0)")
    p.add_argument("--model", metavar="MODEL", help="count tokens and price them for this "
                   "model (default: the LLM's; a model without a price costs unknown)")
    p.add_argument("--out", required=True, metavar="DIR", help="where the traces and "
                   "experiment.json go: a new or empty folder")
    p.add_argument("--resume", action="store_true", help="continue the experiment in DIR, "
                   "skipping the runs it already saved")
    p.add_argument("--json", action="store_true", help="the result as JSON for machines")
    add_otlp_option(p)
    add_llm_options(p, "default: the file's policy, else its scripted replies")
    p.set_defaults(func=run)


def count_up_to(limit: int, what: str):
    """An argparse type: a whole number from 1 to `limit` (of `what`, for the message)."""
    def count(text: str) -> int:
        value = positive_whole_number(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"expected at most {limit:,} {what}, got {value:,}")
        return value
    return count


repeat_count = count_up_to(MAX_REPEAT, "runs per option set")      # --repeat
jobs_count = count_up_to(MAX_JOBS, "runs at once")                 # --jobs


def run(args: argparse.Namespace, out: Output) -> int:
    settings = [parse_setting(text) for text in args.settings]
    agent_file = load_agent_file(args.agent)
    base = HistoryOpts.from_option(agent_file.agent.compress_history)
    strategies = args.compress.split(",") if args.compress else [base.strategy]
    sets = option_sets(base, [s.strip() for s in strategies], settings)
    unused = [n for n, _ in settings if n != TURN_BUDGET
              and not any(n in STRATEGIES[s.opts.strategy].options for s in sets)]
    if unused:
        raise CommandError(f"--set {unused[0]}: no strategy given reads it")
    runs = plan_runs(sets, args.repeat, args.seed)          # checked before anything is written
    llm, make_llm = llm_maker(args.llm, agent_file, llm_options(args))
    model = args.model or spec_model(llm)
    header = {"agent": str(agent_file.path), "agent_name": agent_file.agent.name, "llm": llm,
              "seed": args.seed, "repeat": args.repeat, "success_rule": success_rule(agent_file),
              "model": model, "option_sets": [s.as_json() for s in sets]}
    folder = Path(args.out)
    kept = prepare_folder(folder, args.resume, header, sets)
    with streamed(args.otlp_endpoint) as spans:
        experiment = Experiment(agent_file, make_llm, folder, header, model, spans)
        if sys.stdout.isatty() and not args.json:
            return on_screen(experiment, runs, kept, args.jobs, sets, out)
        return headless(experiment, runs, kept, args, sets, out)


def on_screen(experiment: Experiment, runs: list, kept: list[dict], jobs: int,
              sets: list[OptionSet], out: Output) -> int:
    """The experiment screen filling in as runs finish; once the app is left, the runs still
    going are stopped (the finished ones kept) and the result table printed. 0 when every run
    finished, 130 (as Ctrl-C) when it was stopped before, 128 + N on signal N."""
    from ptc_tui.launch import run_app          # Textual loads only for the app
    from ptc_tui.view.experiment import ExperimentView
    folder, header = experiment.out_dir, experiment.header
    save_experiment(folder, experiment_doc(header, kept, finished=False))
    live = InBackground(experiment, runs, kept, jobs)
    code = run_app(experiment=ExperimentView.of(folder), live_experiment=live,
                   spans=experiment.spans)
    if live.running:
        out.line("stopping: the runs in progress end after their turn")
    live.stop()
    live.wait()
    if live.error is not None:
        raise live.error
    rows = load_experiment(folder)["runs"]
    if not live.finished:
        out.line(f"stopped after {len(rows)} of {len(runs)} runs; {folder / FILE_NAME} holds "
                 "them (--resume continues)")
    show(header, sets, rows, folder, False, out)
    return code or (0 if live.finished else 130)


def headless(experiment: Experiment, runs: list, kept: list[dict], args: argparse.Namespace,
             sets: list[OptionSet], out: Output) -> int:
    """The runs with a progress line on stderr (when it is a terminal), then the table."""
    folder, header = experiment.out_dir, experiment.header
    progress = ProgressLine() if sys.stderr.isatty() else None
    try:
        with interruptible():
            rows = run_all(experiment, runs, kept, args.jobs, progress)
    except Interrupted as stop:
        if progress:
            progress.clear()
        rows = load_experiment(folder)["runs"]
        out.line(f"interrupted ({stop.name}) after {len(rows)} of {len(runs)} runs; "
                 f"{folder / FILE_NAME} holds them (--resume continues)")
        show(header, sets, rows, folder, args.json, out)
        return stop.exit_code
    if progress:
        progress.clear()
    show(header, sets, rows, folder, args.json, out)
    return 0


def llm_maker(spec: str | None, agent_file, options: dict):
    """The LLM's name, and a function making a fresh LLM for each run (checked once here, so
    a bad spec or option is one line before anything runs); `options` set up an HTTP LLM."""
    if spec is None:
        return llm_name(agent_file.scripted_llm()), agent_file.scripted_llm
    first = open_llm(spec, **options)
    if isinstance(first, SimulatedLLM):
        return llm_name(first), lambda: first        # each run reseeds its own copy
    return llm_name(first), lambda: open_llm(spec, **options)


def prepare_folder(folder: Path, resume: bool, header: dict, sets: list[OptionSet]) -> list[dict]:
    """Create the folder, or with --resume take the rows saved in it that this plan still
    has (and whose trace is there), renumbered to this plan's option sets."""
    if folder.exists() and not folder.is_dir():
        raise CommandError(f"{folder}: is not a folder")
    if not folder.exists() or not any(folder.iterdir()):
        folder.mkdir(parents=True, exist_ok=True)
        return []
    if not resume:
        raise CommandError(f"{folder}: exists and is not empty; --resume continues the "
                           "experiment in it, or give another --out")
    try:
        saved = load_experiment(folder)
    except ExperimentError as e:
        raise CommandError(f"cannot resume: {e}") from None
    for key in ("llm", "seed", "agent_name", "model", "success_rule"):
        if saved.get(key) != header[key]:
            raise CommandError(f"{folder}: holds an experiment with another {key} "
                               f"({saved.get(key)!r}, not {header[key]!r}); give another --out")
    index = {s.label: i for i, s in enumerate(sets)}
    return [{**row, "set": index[row["option_set"]]} for row in saved["runs"]
            if row["option_set"] in index and row["repeat"] < header["repeat"]
            and (folder / row["trace"]).is_file()]


class ProgressLine:
    """`12/40 runs · 3 not successful · 0:14 elapsed · ~0:33 left`, redrawn in place on stderr."""

    def __call__(self, p: Progress) -> None:
        sys.stderr.write(f"\r\x1b[K{p.line()}")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def show(header: dict, sets: list[OptionSet], rows: list[dict], folder: Path, as_json: bool,
         out: Output) -> None:
    summaries = summarize([s.label for s in sets], rows)
    if as_json:
        print_json({**{k: header[k] for k in ("agent", "llm", "seed", "repeat", "success_rule",
                                              "model")},
                    "folder": str(folder), "runs": len(rows),
                    "option_sets": [s.as_json(summaries[0]) for s in summaries]}, out)
        return
    out.line(f"{header['agent']}: {header['agent_name']} · LLM {header['llm']} · seed "
             f"{header['seed']} · {header['repeat']} runs per option set")
    out.line(f"success: {RULES[header['success_rule']]}")
    columns = [Column("option set"), Column("runs", True), Column("success", True),
               Column("95% interval", True), Column("turns", True),
               Column("input tokens", True), Column("cost", True), Column("vs first")]
    out.table(columns, [cells(s, summaries[0]) for s in summaries])
    failed = Counter(r["reason"] or "" for r in rows if not r["success"])
    for reason, count in failed.most_common(REASONS_SHOWN):
        out.line(f"  {count} × {reason}")
    if len(failed) > REASONS_SHOWN:
        out.line(f"  ... {len(failed) - REASONS_SHOWN} more reasons in experiment.json")
    out.line(f"traces and {FILE_NAME} in {folder}")


def cells(s: SetSummary, first: SetSummary) -> list[str]:
    if not s.runs:
        return [s.label, "0", "-", "-", "-", "-", "-", ""]
    low, high = s.interval
    spread = s.turns, s.input_tokens, s.cost
    return [s.label, str(s.runs), f"{s.rate:.0%}", f"{low:.0%}–{high:.0%}",
            f"{spread[0].mean:.1f} ± {spread[0].sd:.1f}",
            f"{spread[1].mean:,.0f} ± {spread[1].sd:,.0f}",
            "unknown" if spread[2] is None else cost_spread_text(spread[2].mean, spread[2].sd),
            "" if s is first else versus(s, first)]


def versus(s: SetSummary, first: SetSummary) -> str:
    """`-20 pts, +1.2 turns, -15% tokens, -15% cost`: success in points, the rest against the
    first set's means (a part that is unknown on either side is left out)."""
    d = s.difference(first)
    parts = [f"{d['success_rate'] * 100:+.0f} pts" if d["success_rate"] is not None else None,
             f"{d['turns']:+.1f} turns" if d["turns"] is not None else None]
    for key, spread, what in (("input_tokens", first.input_tokens, "tokens"),
                              ("cost", first.cost, "cost")):
        if d[key] is not None and spread is not None and spread.mean:
            parts.append(f"{relative(d[key] / spread.mean)} {what}")
    return ", ".join(p for p in parts if p)


def relative(fraction: float) -> str:
    """+12%, -3%, or ±0% when it rounds to nothing."""
    text = f"{fraction:+.0%}"
    return "±0%" if text in ("+0%", "-0%") else text
