"""`ptc-tui stats DIR`: every trace under a folder, aggregated: per strategy the input tokens of
all runs (total, median and 90th percentile of a run) and the savings against `full`, in how
many runs each strategy hid something from the LLM, and the runs by outcome and by LLM. Files
are read in parallel processes (`--jobs`); a file that cannot be read is one line of the report
and is skipped."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from engine.agent.open_trace import open_trace
from engine.history import BASELINE, iter_requests
from engine.llm import spec_model
from engine.tokens import TokenCounter, encoding_for_model
from engine.trace import TraceError
from ptc_tui.subcommands.common import CommandError, overrides, print_json, tokens
from ptc_tui.subcommands.output import Column, Output
from ptc_tui.view.formats import count_text, percent_text
from ptc_tui.view.runs import find_runs
from ptc_tui.view.token_stats import check_strategies, history_opts, saving_percent
from ptc_tui.view.status import outcome_text

HIDDEN = ("prints_dropped", "results_unseen", "failed_turns_collapsed")
HIDDEN_WORDS = {"prints_dropped": "prints dropped", "results_unseen": "results never seen",
                "failed_turns_collapsed": "failed turns collapsed"}
DEFAULT_JOBS = 4


def default_jobs() -> int:
    return max(1, min(DEFAULT_JOBS, os.cpu_count() or 1))


def pool_size(jobs: int, files: int) -> int:
    """Processes to read `files` files with: `jobs` (--jobs), lowered to the CPUs, as `-j` is
    on a smaller machine (more would only compete for them), and to the files."""
    return max(1, min(jobs, os.cpu_count() or 1, files))


# --- one file (in a worker process) ---------------------------------------------------------

def file_stats(path: str, strategies: Sequence[str], changes: Mapping,
               model: str | None) -> dict:
    """One run's numbers: its LLM and outcome, and for each strategy its input tokens and
    whether any of its requests hid prints, tool results or failed turns. A file that cannot
    be read: {"file", "error"}."""
    try:
        trace = open_trace(path)
    except (TraceError, OSError, ValueError) as e:
        return {"file": path, "error": " ".join(str(e).split()).removeprefix(f"{path}: ")}
    try:
        per_strategy = count_strategies(trace, strategies, changes, model)
    except Exception as e:  # noqa: BLE001  one run that cannot be counted must not end them all
        return {"file": path, "error": f"cannot be counted: {type(e).__name__}: {e}"}
    return {"file": path, "llm": trace.agent.llm or "unknown",
            "outcome": outcome_text(trace).split(":")[0], "turns": len(trace.turns),
            "strategies": per_strategy}


def count_strategies(trace, strategies: Sequence[str], changes: Mapping,
                     model: str | None) -> dict:
    """For each strategy (and `full`): input tokens of every request summed, and which of
    HIDDEN any request left out. Requests are counted one at a time, never all held."""
    opts = history_opts(trace, changes)
    counter = TokenCounter(encoding_for_model(model or spec_model(trace.agent.llm)))
    per_strategy = {}
    for strategy in dict.fromkeys((BASELINE, *strategies)):
        total, hid = 0, set()
        for messages, stats in iter_requests(strategy, trace.turns, trace.context(),
                                             opts.with_changes(strategy=strategy)):
            total += counter.count_messages(messages).total
            hid.update(kind for kind in HIDDEN if getattr(stats, kind))
        per_strategy[strategy] = {"input_tokens": total, "hid": sorted(hid)}
    return per_strategy


def read_all(paths: Sequence[Path], strategies: Sequence[str], changes: Mapping,
             model: str | None, jobs: int,
             progress: Callable[[int, int], None] | None = None) -> list[dict]:
    """file_stats of every path, `jobs` files at once (in processes when more than one; at
    most pool_size), in the order of `paths` whatever order they finish in."""
    done: dict[str, dict] = {}
    args = (tuple(strategies), dict(changes), model)
    workers = pool_size(jobs, len(paths))
    if workers == 1:
        for path in paths:
            done[str(path)] = file_stats(str(path), *args)
            if progress:
                progress(len(done), len(paths))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(file_stats, str(p), *args) for p in paths]
            for future in as_completed(futures):
                result = future.result()
                done[result["file"]] = result
                if progress:
                    progress(len(done), len(paths))
    return [done[str(p)] for p in paths]


# --- the aggregate ----------------------------------------------------------------------------

def aggregate(results: Sequence[dict], strategies: Sequence[str]) -> dict:
    """The report of `results` (file_stats of every file) as JSON-ready data."""
    runs = [r for r in results if "error" not in r]
    full = [r["strategies"][BASELINE]["input_tokens"] for r in runs]
    per_strategy = {}
    for s in strategies:
        counts = [r["strategies"][s]["input_tokens"] for r in runs]
        total, full_total = sum(counts), sum(full)
        per_strategy[s] = {
            "input_tokens": total, "median": _median(counts), "p90": _p90(counts),
            "saved_tokens": full_total - total,
            "saved_percent": saving_percent(full_total, total),
            "runs_hiding": {kind: sum(kind in r["strategies"][s]["hid"] for r in runs)
                            for kind in HIDDEN},
            "runs_hiding_any": sum(bool(r["strategies"][s]["hid"]) for r in runs)}
    return {"runs": len(runs), "turns": sum(r["turns"] for r in runs),
            "strategies": per_strategy,
            "outcomes": dict(sorted(Counter(r["outcome"] for r in runs).items())),
            "llms": dict(sorted(Counter(r["llm"] for r in runs).items())),
            "unreadable": [{"file": r["file"], "error": r["error"]}
                           for r in results if "error" in r]}


def _median(values: Sequence[int]) -> float | None:
    return statistics.median(values) if values else None


def _p90(values: Sequence[int]) -> float | None:
    """The 90th percentile (linear between the closest ranks); the value itself for one run."""
    if not values:
        return None
    if len(values) == 1:
        return float(values[0])
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


# --- the command ------------------------------------------------------------------------------

def run(args: argparse.Namespace, out: Output) -> int:
    folder = Path(args.trace)
    paths = find_runs(folder)
    if not paths:
        raise CommandError(f"{folder}: no trace files under this folder")
    strategies = check_strategies(args.strategy)
    results = read_all(paths, strategies, overrides(args), args.model, args.jobs,
                       progress_bar() if sys.stderr.isatty() else None)
    report = aggregate(results, strategies)
    for r in report["unreadable"]:           # the report's paths are the folder's, relative
        r["file"] = os.path.relpath(r["file"], folder)
    if args.json:
        print_json({"folder": str(folder), **report}, out)
    else:
        show(folder, report, out)
    return 0


def show(folder: Path, report: dict, out: Output) -> None:
    runs, turns = report["runs"], report["turns"]
    out.line(f"{folder}: {count_text(runs, 'run')}, {count_text(turns, 'turn')}"
             + (f", {len(report['unreadable'])} unreadable" if report["unreadable"] else ""))
    out.line()
    out.table([Column("strategy"), Column("input tokens", True), Column("median", True),
               Column("p90", True), Column("saved vs full", True), Column("saved %", True),
               *(Column(HIDDEN_WORDS[k], True) for k in HIDDEN)],
              [[s, tokens(t["input_tokens"]), _number(t["median"]), _number(t["p90"]),
                tokens(t["saved_tokens"]), percent_text(t["saved_percent"]),
                *(str(t["runs_hiding"][k]) for k in HIDDEN)]
               for s, t in report["strategies"].items()])
    out.line("median and p90: input tokens of one run; the last three columns: runs in which "
             "a request under the strategy hid that")
    out.line()
    out.table([Column("outcome"), Column("runs", True)],
              [[k, str(n)] for k, n in report["outcomes"].items()])
    out.line()
    out.table([Column("LLM"), Column("runs", True)],
              [[k, str(n)] for k, n in report["llms"].items()])
    for r in report["unreadable"]:
        out.line(f"unreadable: {r['file']}: {r['error']}")


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def progress_bar(width: int = 30) -> Callable[[int, int], None]:
    """Draws `[####      ] 12/40 files` on stderr (a terminal), in place; erased once all are
    done, so that the report follows the command line."""
    def show(done: int, total: int) -> None:
        if done >= total:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)
            return
        filled = width * done // max(1, total)
        print(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} files", end="",
              file=sys.stderr, flush=True)
    return show
