"""The `ptc-tui` command line: headless views of traces (stats, render, validate, export,
import), running agent files (run) and PTC-Lisp programs (lisp). Until the Textual app lands,
`ptc-tui` with no command opens the bundled demo trace in the app."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from engine.llm import LLMError
from engine.lisp import format_value, pr_str, run
from engine.trace import TraceError
from engine.trace.disk import read_text
from ptc_tui.agent_files import AgentFileError, load_agent_file
from ptc_tui.commands import COMMANDS
from ptc_tui.commands.common import CommandError
from ptc_tui.commands.output import Output, for_stdout
from sample_traces import HERE as SAMPLES

MAX_SOURCE_BYTES = 16 * 1024 * 1024       # a program, not a data set
DEMO_AGENT = SAMPLES / "product_search.py"   # the seeds' example, with its scripted replies

def show_run(source: str, data=None, out=None) -> int:
    """Run a program and report it; 0 when it ran without error."""
    out = out or sys.stdout
    result = run(source, data=data)
    for line in result.prints:
        print(f"  | {line}", file=out)
    if result.error:
        err = result.error
        print(f"error {err.reason}: {err.message}" + (f" at {err.span}" if err.span else ""),
              file=out)
        excerpt = err.excerpt(source)
        if excerpt:
            print("\n".join("    " + line for line in excerpt.splitlines()), file=out)
        if err.hint:
            print(f"  hint: {err.hint}", file=out)
        return 1
    label = {"return": "returned", "fail": "failed with"}.get(result.signal, "value")
    text, _ = format_value(result.value, limit=20, printable_limit=200)
    print(f"{label}: {text}", file=out)
    for name in sorted(set(result.memory)):
        print(f"  def {name} = {pr_str(result.memory[name], limit=80)}", file=out)
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and returns to `main` instead of exiting."""

    def error(self, message):
        raise CommandError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ptc-tui", description=__doc__,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    lisp = sub.add_parser("lisp", help="run a PTC-Lisp program from a file ('-' for stdin)")
    lisp.add_argument("file")
    lisp.add_argument("--data", help="a JSON file whose object is the program's data/")
    lisp.set_defaults(func=_lisp)
    return parser


def _lisp(args, out) -> int:
    source = sys.stdin.read() if args.file == "-" else read_text(args.file, MAX_SOURCE_BYTES)
    data = None
    if args.data:
        try:
            data = json.loads(read_text(args.data))
        except ValueError as e:
            raise CommandError(f"{args.data}: not valid JSON data: {e}") from None
    return show_run(source, data)


def main(argv=None, out: Output | None = None) -> int:
    """Run one command; 0 on success, 1 when what was checked or run failed, 2 for a usage or
    input error (reported as one line on stderr, never a traceback)."""
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        if len(argv) == 1 and argv[0].endswith((".json", ".jsonl")):  # `ptc-tui TRACE`: app
            from ptc_tui.app import run_app      # Textual loads only for the app
            return run_app(argv[0])
        if len(argv) == 1 and os.path.isdir(argv[0]):       # `ptc-tui DIR`: runs, experiment
            from ptc_tui.app import open_directory
            return open_directory(Path(argv[0]))
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:              # --help
            return e.code if isinstance(e.code, int) else 0
        if args.command is None:
            from ptc_tui.app import run_app
            demo = load_agent_file(DEMO_AGENT)
            return run_app(session=demo.agent.start(demo.scripted_llm()))
        return args.func(args, out if out is not None else for_stdout())
    except BrokenPipeError:                  # `ptc-tui stats T | head`: stop quietly
        _silence_stdout()
        return 1
    except (CommandError, TraceError, AgentFileError, LLMError, ValueError, OSError) as e:
        print(f"ptc-tui: {one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ptc-tui: interrupted", file=sys.stderr)
        return 130


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
    return " ".join(text.split())


if __name__ == "__main__":
    sys.exit(main())
