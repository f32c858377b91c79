"""What several commands share: the LLM option group, history-option flags and labels, argparse
types, token and call texts, CommandError."""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import fields

from engine.agent import SPEC_FORMS
from engine.history import STRATEGIES, HistoryOpts, strategy_order
from engine.llm import REASONING_EFFORTS
from engine.history.opts import ERROR_DISPLAYS, SAMPLE_RULES
from engine.tokens import CallCost
from engine.trace.disk import starts_with, target_problem
from engine.trace.strict_json import MAX_INT_DIGITS
from ptc_tui.subcommands.output import Output
from ptc_tui.view.plain_text import escape_controls, escape_json_controls
from ptc_tui.view.formats import cost_text
from ptc_tui.view.options import BY_NAME, FIELDS

OPTION_NAMES = ", ".join(f.name for f in FIELDS if f.name != "strategy")
LARGEST_IN_TRACE = 10 ** MAX_INT_DIGITS - 1


class CommandError(Exception):
    """An input problem a command reports as one line (`ptc-tui: <file>: <problem>`), exit 2."""


def whole_number(text: str, least: int = 0) -> int:
    """Argparse type: a whole number, `least` or more (0, 1, 2... unless said), and no more
    than a trace holds (the options are written into the trace the run saves)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ {least}, got {value}")
    check_trace_number(value)
    return value


def check_trace_number(value) -> None:
    """ArgumentTypeError for a whole number a trace could not hold (engine.trace.strict_json)."""
    if isinstance(value, int) and abs(value) > LARGEST_IN_TRACE:
        raise argparse.ArgumentTypeError(
            f"expected a whole number up to {LARGEST_IN_TRACE:,} (the largest a trace holds), "
            f"got a {len(str(abs(value))):,}-digit number")


def file_name(text: str) -> str:
    """Argparse type: the name of a file to write, not empty."""
    if not text:
        raise argparse.ArgumentTypeError("expected a file name, got an empty one")
    return text


def positive_whole_number(text: str) -> int:
    """Argparse type: a whole number 1 or more (a count that cannot be none: --repeat)."""
    return whole_number(text, 1)


def positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text}")
    return value


def temperature(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 2, got {text!r}") from None
    if not 0 <= value <= 2:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 2, got {text}")
    return value


def add_llm_options(parser: argparse.ArgumentParser, default: str) -> argparse._ArgumentGroup:
    """The LLM group of `run`, `fork` and `experiment`: --llm SPEC (`default` says what runs
    without it) and how an HTTP provider is set up. Every command builds it here, so a default
    set on the group's options (`parser.set_defaults(temperature=...)`) reaches all alike."""
    group = parser.add_argument_group("LLM", "which LLM answers, and how an HTTP provider is set up "
                                      "(the settings are recorded in the trace; never the key)")
    group.add_argument("--llm", metavar="SPEC", help=f"{', '.join(SPEC_FORMS)} ({default})")
    group.add_argument("--base-url", metavar="URL", help="the API's base URL (default: the "
                       "provider's variable, e.g. OPENAI_BASE_URL, else its public API)")
    group.add_argument("--api-key-env", metavar="NAME", help="read the API key from this "
                       "environment variable instead of the provider's own (OPENAI_API_KEY...)")
    group.add_argument("--temperature", type=temperature, metavar="T",
                       help="sampling temperature, 0 to 2 (default: the provider's; reasoning "
                       "models take none)")
    group.add_argument("--max-output-tokens", type=positive_whole_number, metavar="N",
                       help="output limit of each reply (default: none; 4096 for Anthropic)")
    group.add_argument("--reasoning-effort", choices=REASONING_EFFORTS,
                       help="for reasoning models (OpenAI o-series and gpt-5, Gemini)")
    group.add_argument("--timeout", type=positive_number, metavar="SECONDS",
                       help="seconds to wait for each reply (default 60)")
    group.add_argument("--no-prompt-cache", action="store_true", help="ask for no prompt caching "
                       "(no cache_control breakpoints for Anthropic, no prompt_cache_key for OpenAI)")
    return group


def llm_options(args: argparse.Namespace) -> dict:
    """The options of the LLM group given on the command line, as an HTTP client takes them
    (scripted and replayed LLMs ignore them)."""
    given = {"base_url": args.base_url, "api_key_env": args.api_key_env,
             "temperature": args.temperature, "max_tokens": args.max_output_tokens,
             "reasoning_effort": args.reasoning_effort, "timeout": args.timeout}
    options = {name: value for name, value in given.items() if value is not None}
    if args.no_prompt_cache:
        options["prompt_cache"] = False
    return options


def strategy_name(text: str) -> str:
    if text not in STRATEGIES:
        raise argparse.ArgumentTypeError(
            f"unknown strategy {text!r} (choose from {', '.join(strategy_order())})")
    return text


def add_limit_options(parser: argparse.ArgumentParser, rules: bool = False) -> None:
    """--println-limit and --tool-call-limit (and --sample-rule, --errors when `rules`), and
    --option NAME=VALUE for any history option, as the app's options panel takes it."""
    parser.add_argument("--println-limit", type=whole_number, metavar="N",
                        help="most recent println calls shown (default: the trace's)")
    parser.add_argument("--tool-call-limit", type=whole_number, metavar="N",
                        help="most recent tool calls shown (default: the trace's)")
    if rules:
        parser.add_argument("--sample-rule", choices=SAMPLE_RULES,
                            help="when a definition shows its sample (default: the trace's)")
        parser.add_argument("--errors", choices=ERROR_DISPLAYS,
                            help="which failed turns are shown (default: the trace's)")
    parser.add_argument("--option", type=history_option, action="append", default=[],
                        metavar="NAME=VALUE",
                        help="any history option, validated as the options panel does; "
                        "repeatable (e.g. --option args_limit=1 --option compaction_tokens=; "
                        f"names: {OPTION_NAMES})")


def history_option(text: str) -> tuple[str, object]:
    """`NAME=VALUE` as (name, value); an empty VALUE is "off" where the option allows it."""
    name, equals, value = text.partition("=")
    field = BY_NAME.get(name.strip())
    if not equals or field is None or field.name == "strategy":
        what = "expected NAME=VALUE" if not equals else f"unknown history option {name!r}"
        raise argparse.ArgumentTypeError(f"{what} (options: {OPTION_NAMES}; the strategy has "
                                         "its own flag)")
    try:
        parsed = field.parse(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"{field.name}: {e}") from None
    check_trace_number(parsed)
    return field.name, parsed


def overrides(args: argparse.Namespace) -> dict:
    """The history options given on the command line (None: keep the trace's); a named flag
    wins over the same option given with --option."""
    names = ("println_limit", "tool_call_limit", "sample_rule", "errors")
    given = dict(getattr(args, "option", None) or ())
    given.update({n: getattr(args, n) for n in names if getattr(args, n, None) is not None})
    return given


def changed_options(recorded: HistoryOpts, shown: HistoryOpts) -> list[str]:
    """The names of the options (but the strategy) whose values differ."""
    return [f.name for f in fields(HistoryOpts)
            if f.name != "strategy" and getattr(shown, f.name) != getattr(recorded, f.name)]


def options_text(recorded: HistoryOpts, shown: HistoryOpts) -> str:
    """`recorded options: coalesced` when `shown` are the options the trace was recorded
    with, else `what-if: compaction, println_limit 5 (recorded: coalesced, println_limit 3)`:
    the strategy, then each option that differs."""
    changed = changed_options(recorded, shown)
    if not changed and shown.strategy == recorded.strategy:
        return f"recorded options: {recorded.strategy}"

    def listed(opts: HistoryOpts) -> str:
        return ", ".join([opts.strategy, *(f"{n} {getattr(opts, n)}" for n in changed)])

    return f"what-if: {listed(shown)} (recorded: {listed(recorded)})"


def options_json(recorded: HistoryOpts, shown: HistoryOpts) -> dict:
    """What --json says of the same: recorded or not, and the recorded value of each option
    that differs."""
    differ = {f.name: getattr(recorded, f.name) for f in fields(HistoryOpts)
              if getattr(shown, f.name) != getattr(recorded, f.name)}
    return {"recorded_options": not differ, "recorded_values": differ}


def print_json(doc, out: Output) -> None:
    """A JSON document for machines, straight to the output stream (never through Rich), with
    the characters a terminal would act on escaped (the same document once parsed)."""
    out.stream.write(escape_json_controls(json.dumps(doc, indent=1, ensure_ascii=False)) + "\n")


def tokens(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def call_text(c: CallCost) -> str:
    """`input 1,200 (1,024 cached), output 300 (counted), cost $0.000613`: one LLM call (or
    several summed) as priced; a count the provider did not report says it was counted."""
    def notes(*words: str) -> str:
        said = ", ".join(w for w in words if w)
        return f" ({said})" if said else ""

    cached = f"{c.cached_tokens:,} cached" if c.cached_tokens else ""
    return (f"input {c.input_tokens:,}{notes('counted' if c.input_counted else '', cached)}, "
            f"output {c.output_tokens:,}{notes('counted' if c.output_counted else '')}, "
            f"cost {cost_text(c.usd)}")


def call_json(c: CallCost) -> dict:
    return {"input_tokens": c.input_tokens, "cached_tokens": c.cached_tokens,
            "output_tokens": c.output_tokens, "input_counted": c.input_counted,
            "output_counted": c.output_counted, "cost_usd": c.usd}


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
    check_not_the_input(path, protect, "is the agent file itself; save the trace somewhere else")
    if os.path.exists(path) and not force and not starts_with(path, OUR_FILES):
        raise CommandError(f"{path}: exists and is not a trace or export written by ptc-tui; "
                           "--force overwrites it")


def check_not_the_input(output: str, inputs, problem: str) -> None:
    """CommandError when `output` is one of `inputs` by any path (another spelling, a link):
    writing it would replace the file being read. Checked before any work."""
    if os.path.exists(output) and any(
            p and os.path.exists(p) and os.path.samefile(output, p) for p in inputs):
        raise CommandError(f"{output}: {problem}")


def read_trace(path, canonical=None):
    """The trace at `path`: one of our trace files, or a reference-implementation run
    (`run.inspection.jsonl`) imported, with a warning line on stderr for each problem the
    import got past (engine.agent.open_trace)."""
    import sys

    from engine.agent.open_trace import open_trace

    def warn(line: str) -> None:
        print(escape_controls(f"ptc-tui: {os.fspath(path)}: warning: {line}"), file=sys.stderr)
    return open_trace(path, warn, canonical)
