"""`ptc-tui export TRACE --format otel` and `ptc-tui import OTLP.json`: traces to and from
OpenTelemetry's OTLP/JSON, for any OTLP viewer (engine.trace.otel)."""

from __future__ import annotations

import argparse
import sys

from engine.trace import dumps_trace, load_trace, save_trace
from ptc_tui.commands.common import CommandError
from ptc_tui.commands.output import Output


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write a trace as OpenTelemetry OTLP/JSON",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--format", choices=("otel",), required=True,
                   help="otel: OTLP/JSON TracesData (GenAI semantic conventions)")
    p.add_argument("-o", "--output", metavar="OUT", help="file to write (default: stdout)")
    p.set_defaults(func=export)
    p = sub.add_parser("import", help="read an OTLP/JSON export back into a trace",
                       description=__doc__)
    p.add_argument("otlp", metavar="OTLP.json")
    p.add_argument("-o", "--output", metavar="TRACE", help="trace file to write (default: stdout)")
    p.set_defaults(func=import_)


def export(args: argparse.Namespace, out: Output) -> int:
    from engine.trace.otel import dumps_otlp
    write(dumps_otlp(load_trace(args.trace)), args.output)
    return 0


def import_(args: argparse.Namespace, out: Output) -> int:
    from engine.trace.otel import loads_otlp
    trace = loads_otlp(read_text(args.otlp), args.otlp)
    if args.output:
        save_trace(trace, args.output)
    else:
        write(dumps_trace(trace), None)
    return 0


def read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise CommandError(f"{path}: not UTF-8 text (byte {e.start})") from None


def write(text: str, path: str | None) -> None:
    """JSON to a file, or to stdout exactly as it is (it is data, not a view)."""
    if path is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
