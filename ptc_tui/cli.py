"""ptc-tui: a terminal debugger and trace explorer for LLM agents that write PTC-Lisp.

  ptc-tui                the app, stepping the bundled demo agent live (n: next turn, ?: keys)
  ptc-tui TRACE          the app on a trace file: any name, gzip-compressed or not, or a
                         ptc_runner run.inspection.jsonl
  ptc-tui DIR            the app on a folder of runs (an experiment's --out folder)
  ptc-tui COMMAND ...    a command below; `ptc-tui COMMAND --help` for its options and examples

run, fork and compare open the app on a terminal and print their results elsewhere (or with
--no-tui); every other command prints. Settings: ~/.config/ptc-tui/config.toml (`ptc-tui
config`)."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from pathlib import Path

from engine import __version__
from engine.agent.files import AgentFileError, load_agent_file
from engine.llm import LLMError
from engine.lisp import format_value, pr_str, run
from engine.trace import TraceError
from engine.trace.disk import read_text
from ptc_tui.subcommands import COMMANDS
from ptc_tui.subcommands.common import CommandError
from ptc_tui.subcommands.examples import HelpFormatter, epilog
from ptc_tui.subcommands.output import Output, for_stdout
from ptc_tui.config import Config, ConfigError, apply_defaults, load_config
from ptc_tui.view.plain_text import escape_controls
from sample_traces import HERE as SAMPLES

MAX_SOURCE_BYTES = 16 * 1024 * 1024       # a program, not a data set
MAX_DATA_BYTES = 512 * 1024 * 1024        # a data set, as large as a trace may be
DEMO_AGENT = SAMPLES / "product_search.py"   # the seeds' example, with its scripted replies
COMMON = """common invocations:
  ptc-tui sample_traces/error_recovery.json            a saved trace, in the app
  ptc-tui run my_agent.py --llm openai:gpt-4o-mini     your agent, live (OPENAI_API_KEY)
  ptc-tui stats run.json --model gpt-4o-mini           tokens per turn per strategy, and cost
  ptc-tui render run.json --turn 3 --strategy coalesced   the exact messages of one request
  ptc-tui fork run.json --at 4 --compress namespaced -o fork.json   a what-if from turn 4
  ptc-tui compare run.json fork.json                   two runs, turn by turn
  ptc-tui experiment my_agent.py --compress full,coalesced --repeat 10 --out runs"""

def show_run(source: str, data=None, out=None) -> int:
    """Run a program and report it, control characters escaped; 0 when it ran without error."""
    out = out or sys.stdout

    def say(text: str) -> None:
        print(escape_controls(text), file=out)

    result = run(source, data=data)
    for line in result.prints:
        say(f"  | {line}")
    if result.error:
        err = result.error
        say(f"error {err.reason}: {err.message}" + (f" at {err.span}" if err.span else ""))
        excerpt = err.excerpt(source)
        if excerpt:                          # the caret under the form, however it is escaped
            text = excerpt.split("\n")[0]
            say(f"    {text}")
            say("    " + " " * len(escape_controls(text[:err.span.col - 1])) + "^")
        if err.hint:
            say(f"  hint: {err.hint}")
        return 1
    label = {"return": "returned", "fail": "failed with"}.get(result.signal, "value")
    text, _ = format_value(result.value, limit=20, printable_limit=200)
    say(f"{label}: {text}")
    for name in sorted(set(result.memory)):
        say(f"  def {name} = {pr_str(result.memory[name], limit=80)}")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and returns to `main` instead of exiting."""

    def error(self, message):
        raise CommandError(f"{message} (see {self.prog} --help)")


def build_parser(config: Config | None = None) -> argparse.ArgumentParser:
    """The command line, its defaults taken from `config` (the config file's settings)."""
    parser = _Parser(prog="ptc-tui", description=__doc__, epilog=COMMON,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ptc-tui {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    lisp = sub.add_parser("lisp", help="run a PTC-Lisp program from a file ('-' for stdin)",
                          description="Run a PTC-Lisp program and show its prints, its result "
                          "and its definitions; exit 1 when it had an error.")
    lisp.add_argument("file")
    lisp.add_argument("--data", help="a JSON file whose object is the program's data/")
    lisp.set_defaults(func=_lisp)
    for name, command in sub.choices.items():
        command.epilog = epilog(name)
        command.formatter_class = HelpFormatter
    if config is not None:
        apply_defaults(sub.choices, config)
    return parser


def _lisp(args, out) -> int:
    source = sys.stdin.read() if args.file == "-" else read_text(args.file, MAX_SOURCE_BYTES)
    return show_run(source, _data(args.data) if args.data else None)


def _data(path: str) -> dict:
    """The --data file's JSON object; CommandError naming the file when it is not one."""
    text = read_text(path, MAX_DATA_BYTES)
    if not text.strip():
        raise CommandError(f"{path}: the file is empty")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise CommandError(f"{path}: not valid JSON data: {e}") from None
    except RecursionError:
        raise CommandError(f"{path}: JSON nested too deeply to be the program's data") from None
    if type(data) is not dict:
        kind = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}
        raise CommandError(f"{path}: the data must be a JSON object (names to values), "
                           f"not {kind.get(type(data), 'a number')}")
    return data


def main(argv=None, out: Output | None = None) -> int:
    """Run one command; 0 on success, 1 when what was checked or run failed, 2 for a usage or
    input error (reported as one line on stderr, never a traceback)."""
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        config = load_config()
        parser = build_parser(config)
        commands = _subcommands(parser)
        if len(argv) == 1 and not argv[0].startswith("-") and argv[0] not in commands:
            return open_path(argv[0], config, commands)     # `ptc-tui PATH`
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:              # --help, --version
            return e.code if isinstance(e.code, int) else 0
        if args.command is None:
            from ptc_tui.launch import run_app
            demo = load_agent_file(DEMO_AGENT)
            return run_app(session=demo.agent.start(demo.scripted_llm()), config=config)
        return args.func(args, out if out is not None else for_stdout())
    except BrokenPipeError:                  # `ptc-tui stats T | head`: stop quietly
        _silence_stdout()
        return 1
    except (CommandError, ConfigError, TraceError, AgentFileError, LLMError, ValueError,
            OSError) as e:
        print(f"ptc-tui: {one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ptc-tui: interrupted", file=sys.stderr)
        return 130


def _subcommands(parser: argparse.ArgumentParser) -> list[str]:
    return [name for action in parser._subparsers._group_actions for name in action.choices]


def open_path(path: str, config: Config, commands=()) -> int:
    """`ptc-tui PATH`: the app on a trace file (recognised by its content, whatever its name)
    or on a folder; a path that does not exist is one line, exit 2 (naming the command it
    may have been meant to be)."""
    if os.path.isdir(path):
        return open_directory(Path(path), config)
    if not os.path.lexists(path):
        near = difflib.get_close_matches(path, commands, 1) if "." not in path \
            and os.sep not in path else []
        hint = f" (or did you mean the command {near[0]}?)" if near else ""
        raise CommandError(f"{path}: no such file or directory{hint}")
    from ptc_tui.launch import run_app              # Textual loads only for the app
    return run_app(path, config=config)


def open_directory(folder: Path, config: Config) -> int:
    """`ptc-tui DIR`: the experiment screen for a folder holding an experiment, else the runs
    screen of every trace under it."""
    from ptc_tui.launch import open_directory as open_in_app     # Textual loads only for the app
    return open_in_app(folder, config)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's exit flush does not fail on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def one_line(error: Exception) -> str:
    """An error as one line: OSError with its file, others as their message."""
    if isinstance(error, OSError) and error.filename is not None:
        text = f"{error.filename}: {error.strerror or error}"
    else:
        text = str(error) or type(error).__name__
    return escape_controls(" ".join(text.split()))


if __name__ == "__main__":
    sys.exit(main())
