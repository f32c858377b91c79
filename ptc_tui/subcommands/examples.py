"""The examples that end each command's --help: real invocations that run offline from the
project's folder (tests/cli/test_help.py runs every one, in this order, since later ones read
what earlier ones wrote: run.json, fork.json, product.otlp.json)."""

from __future__ import annotations

import argparse

EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "stats": (
        ("ptc-tui stats sample_traces/product_search.json --model gpt-4o-mini",
         "tokens per turn under every strategy, priced for gpt-4o-mini"),
        ("ptc-tui stats sample_traces/strategy_comparison.json --strategy full coalesced --json",
         "two strategies only, as JSON"),
    ),
    "render": (
        ("ptc-tui render sample_traces/product_search.json --turn 3 --strategy coalesced "
         "--println-limit 5", "turn 3's request as a what-if, and what the strategy dropped"),
        ("ptc-tui render sample_traces/error_recovery.json --turn 2 --reply",
         "the request as recorded, then the model's whole reply"),
    ),
    "run": (
        ("ptc-tui run sample_traces/product_search.py --no-tui --save run.json",
         "the agent on its scripted replies, headless, saved after every turn"),
        ("ptc-tui run sample_traces/product_search.py --compress namespaced --save run.json.gz",
         "under another strategy, saved gzip-compressed (in the app on a terminal)"),
        ("ptc-tui run sample_traces/product_search.py --llm replay:sample_traces/"
         "product_search.json --no-tui", "the replies of a saved trace, run again"),
    ),
    "fork": (
        ("ptc-tui fork sample_traces/error_recovery.json --at 2 --compress namespaced "
         "-o fork.json --no-tui", "turn 1 as recorded, turn 2 on under namespaced"),
        ("ptc-tui fork run.json --at 3 --println-limit 1 --no-tui",
         "turns 1-2 as recorded, turn 3 on with one println shown"),
    ),
    "compare": (
        ("ptc-tui compare sample_traces/error_recovery.json fork.json --no-tui",
         "a run and its fork, turn by turn (in the app on a terminal)"),
        ("ptc-tui compare run.json run.json.gz --json", "as JSON"),
    ),
    "experiment": (
        ("ptc-tui experiment sample_traces/stock_survey.py --compress full,coalesced "
         "--repeat 3 --out runs", "3 runs per strategy on the simulated sample, saved in runs/"),
        ("ptc-tui experiment sample_traces/stock_survey.py --compress coalesced "
         "--set println_limit=5,15 --repeat 2 --out runs2 --json", "two println limits, as JSON"),
    ),
    "validate": (
        ("ptc-tui validate sample_traces/product_search.json",
         "loads, and every recorded request re-renders exactly"),
        ("ptc-tui validate run.json.gz", "a gzip-compressed trace, the same way"),
    ),
    "export": (
        ("ptc-tui export sample_traces/product_search.json -o product.otlp.json",
         "OpenTelemetry OTLP/JSON, for any OTLP viewer"),
        ("ptc-tui export run.json.gz --format otel", "to stdout"),
    ),
    "import": (
        ("ptc-tui import product.otlp.json -o product.json",
         "an OTLP/JSON export back into a trace"),
        ("ptc-tui import product.otlp.json -o product.json.gz --force",
         "saved gzip-compressed"),
    ),
    "lisp": (
        ("echo '(reduce + (range 10))' | ptc-tui lisp -", "a program from stdin"),
        ("echo '(def xs (filter odd? (range 10))) (println xs) (return (count xs))' "
         "| ptc-tui lisp -", "its prints, its result and its definitions"),
    ),
    "config": (
        ("ptc-tui config", "where the config file is and every setting in force"),
        ("PTC_TUI_CONFIG=/dev/null ptc-tui config", "the built-in defaults"),
    ),
}


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, but the examples keep their lines."""

    def _fill_text(self, text, width, indent):
        if text.startswith("examples:"):
            return text
        return super()._fill_text(text, width, indent)


def epilog(command: str) -> str | None:
    examples = EXAMPLES.get(command)
    if not examples:
        return None
    return "examples:\n" + "\n".join(f"  {line}\n      {what}" for line, what in examples)
