"""`ptc-tui export TRACE --format otel` and `ptc-tui import OTLP.json`: traces to and from
OpenTelemetry's OTLP/JSON, for any OTLP viewer (engine.trace.otel). `ptc-tui import
RUN.inspection.jsonl [--trace run.jsonl]` imports a run of the reference implementation
(ptc_runner) instead (engine.agent.upstream)."""

from __future__ import annotations

import argparse
import sys

from engine.llm import spec_model
from engine.tokens import call_counter
from engine.trace import dumps_trace
from engine.trace.disk import read_text, write_atomically
from engine.trace.files import MAX_FILE_BYTES
from engine.agent.open_trace import is_inspection_file
from ptc_tui.subcommands.common import (CommandError, add_force_option, check_not_the_input,
                                        check_target, file_name, read_trace)
from ptc_tui.subcommands.otlp import open_stream
from ptc_tui.subcommands.output import Output
from ptc_tui.view.plain_text import escape_controls, escape_json_controls


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write a trace as OpenTelemetry OTLP/JSON",
                       description=__doc__)
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--format", choices=("otel",), default="otel",
                   help="otel (the default): OTLP/JSON TracesData (GenAI semantic conventions)")
    p.add_argument("-o", "--output", type=file_name, metavar="OUT", help="file to write, "
                   "gzip-compressed when its name ends in .gz (default: stdout)")
    p.add_argument("--endpoint", metavar="URL", help="send the spans to this OTLP/HTTP "
                   "endpoint instead (a collector's base URL; /v1/traces is added; the "
                   "OTEL_EXPORTER_OTLP_HEADERS variable is read); needs ptc-tui[otel]")
    add_force_option(p)
    p.set_defaults(func=export)
    p = sub.add_parser("import", help="read an OTLP/JSON export, or a ptc_runner run's "
                       "run.inspection.jsonl, into a trace", description=__doc__)
    p.add_argument("otlp", metavar="FILE", help="an OTLP/JSON export or a ptc_runner "
                   "inspection artifact (told apart by content)")
    p.add_argument("--trace", metavar="RUN.jsonl", dest="canonical",
                   help="the ptc_runner run's canonical trace, for its model, durations, "
                   "statuses and outcome (default: the run.jsonl beside the artifact, if any)")
    p.add_argument("-o", "--output", type=file_name, metavar="TRACE", help="trace file to "
                   "write, gzip-compressed when its name ends in .gz (default: stdout)")
    p.add_argument("--lenient", action="store_true",
                   help="import a run with missing or misplaced turns, a warning line per gap "
                   "(default: an error)")
    add_force_option(p)
    p.set_defaults(func=import_)


def export(args: argparse.Namespace, out: Output) -> int:
    from engine.trace.otel import dumps_otlp
    if args.endpoint:
        return send(args, out)
    if args.output:
        check_not_the_input(args.output, (args.trace,), "is the trace being exported; write "
                            "the export somewhere else")
        check_target(args.output, args.force)
    trace = read_trace(args.trace)
    write(dumps_otlp(trace, call_counter(spec_model(trace.agent.llm))), args.output)
    return 0


def send(args: argparse.Namespace, out: Output) -> int:
    """The trace's spans to --endpoint; 1 (and one line) when they could not be sent."""
    if args.output:
        raise CommandError(f"{args.output}: --endpoint sends the spans; give -o or --endpoint")
    trace = read_trace(args.trace)
    stream = open_stream(args.endpoint)
    stream.warn = lambda line: None              # said below, once it is over
    stream.send_trace(trace)
    stream.close()
    if stream.failure is not None:
        print(escape_controls(f"ptc-tui: {stream.url}: cannot send the spans: "
                              f"{stream.failure}"), file=sys.stderr)
        return 1
    out.line(f"sent the spans of {args.trace} ({len(trace.turns)} turns) to {stream.url}")
    return 0


def import_(args: argparse.Namespace, out: Output) -> int:
    from engine.trace.otel import loads_otlp
    if args.output:
        check_not_the_input(args.output, (args.otlp, args.canonical), "is the file being "
                            "imported; write the trace somewhere else")
        check_target(args.output, args.force)
    if is_inspection_file(args.otlp):
        trace = read_trace(args.otlp, args.canonical)
        write(dumps_trace(trace), args.output)
        return 0
    if args.canonical:
        raise CommandError(f"{args.otlp}: --trace goes with a ptc_runner run.inspection.jsonl")
    warn = (lambda line: print(escape_controls(f"ptc-tui: {args.otlp}: warning: {line}"),
                               file=sys.stderr)) \
        if args.lenient else None
    trace = loads_otlp(read_text(args.otlp, MAX_FILE_BYTES), args.otlp, warn)
    write(dumps_trace(trace), args.output)
    return 0


def write(text: str, path: str | None) -> None:
    """JSON to a file (atomically) as it is, or to stdout with the characters a terminal would
    act on escaped (the same JSON once parsed)."""
    if path is None:
        text = escape_json_controls(text)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        write_atomically(path, text)
