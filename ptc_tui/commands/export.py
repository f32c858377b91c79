"""`ptc-tui export TRACE --format otel` and `ptc-tui import OTLP.json`: traces to and from
OpenTelemetry's OTLP/JSON, for any OTLP viewer (engine.trace.otel)."""

from __future__ import annotations

import argparse
import sys

from engine.trace import dumps_trace, load_trace
from engine.trace.disk import read_text, write_atomically
from engine.trace.files import MAX_FILE_BYTES
from ptc_tui.commands.common import add_force_option, check_target
from ptc_tui.commands.output import Output


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write a trace as OpenTelemetry OTLP/JSON",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--format", choices=("otel",), required=True,
                   help="otel: OTLP/JSON TracesData (GenAI semantic conventions)")
    p.add_argument("-o", "--output", metavar="OUT", help="file to write (default: stdout)")
    add_force_option(p)
    p.set_defaults(func=export)
    p = sub.add_parser("import", help="read an OTLP/JSON export back into a trace",
                       description=__doc__)
    p.add_argument("otlp", metavar="OTLP.json")
    p.add_argument("-o", "--output", metavar="TRACE", help="trace file to write (default: stdout)")
    p.add_argument("--lenient", action="store_true",
                   help="import a run with missing or misplaced turns, a warning line per gap "
                   "(default: an error)")
    add_force_option(p)
    p.set_defaults(func=import_)


def export(args: argparse.Namespace, out: Output) -> int:
    from engine.trace.otel import dumps_otlp
    if args.output:
        check_target(args.output, args.force)
    write(dumps_otlp(load_trace(args.trace)), args.output)
    return 0


def import_(args: argparse.Namespace, out: Output) -> int:
    from engine.trace.otel import loads_otlp
    if args.output:
        check_target(args.output, args.force)
    warn = (lambda line: print(f"ptc-tui: {args.otlp}: warning: {line}", file=sys.stderr)) \
        if args.lenient else None
    trace = loads_otlp(read_text(args.otlp, MAX_FILE_BYTES), args.otlp, warn)
    write(dumps_trace(trace), args.output)
    return 0


def write(text: str, path: str | None) -> None:
    """JSON to a file (atomically), or to stdout exactly as it is (it is data, not a view)."""
    if path is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        write_atomically(path, text)
