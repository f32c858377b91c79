"""`--otlp-endpoint URL` (or the standard `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
`OTEL_EXPORTER_OTLP_ENDPOINT` and `OTEL_EXPORTER_OTLP_HEADERS` variables): the spans of live runs
go to an OpenTelemetry backend as their turns finish (ptc_tui.otlp_stream, the `otel` extra).
`OTEL_SDK_DISABLED=true`, OpenTelemetry's standard switch, turns the streaming off."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from ptc_tui.subcommands.common import CommandError
from ptc_tui.view.plain_text import escape_controls

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
DISABLED_VARIABLE = "OTEL_SDK_DISABLED"
EXTRA = "pip install 'ptc-tui[otel]'"


def add_otlp_option(parser) -> None:
    parser.add_argument("--otlp-endpoint", metavar="URL",
                        help="send the spans of each turn as it finishes to this OTLP/HTTP "
                        "endpoint (a collector's base URL; /v1/traces is added); default: "
                        "$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or $OTEL_EXPORTER_OTLP_ENDPOINT, "
                        "if set")


def warn(line: str) -> None:
    print(escape_controls(f"ptc-tui: warning: OTLP: {line}"), file=sys.stderr)


def sdk_disabled() -> bool:
    """OTEL_SDK_DISABLED is "true" (any case), as the OpenTelemetry specification reads it."""
    return os.environ.get(DISABLED_VARIABLE, "").strip().lower() == "true"


def open_stream(endpoint: str | None):
    """A SpanStream to `endpoint`, else to the endpoint the standard variables name; None when
    neither is given, or when OTEL_SDK_DISABLED is true (a warning if --otlp-endpoint was
    given). Without the `otel` extra: a CommandError for --otlp-endpoint, a warning (and None)
    for the variables, which may be meant for other programs."""
    if not endpoint and not any(os.environ.get(v) for v in ENDPOINT_VARIABLES):
        return None
    if sdk_disabled():
        if endpoint:
            warn(f"{DISABLED_VARIABLE} is true: --otlp-endpoint is ignored, no spans are sent")
        return None
    try:
        from ptc_tui.otlp_stream import SpanStream
    except ImportError:
        if endpoint:
            raise CommandError(f"--otlp-endpoint: sending spans needs OpenTelemetry: {EXTRA}") \
                from None
        warn(f"{' or '.join(ENDPOINT_VARIABLES)} is set, but sending spans needs "
             f"OpenTelemetry ({EXTRA}); no spans are sent")
        return None
    return SpanStream(endpoint, warn)


@contextmanager
def streamed(endpoint: str | None, session=None):
    """Inside: `session`'s spans (and, through the stream yielded, any other's) go to the
    endpoint, if there is one (else the stream is None); at the end, what is left is sent."""
    stream = open_stream(endpoint)
    if stream is not None and session is not None:
        stream.follow(session)
    try:
        yield stream
    finally:
        if stream is not None:
            stream.warn = warn             # the app that may have shown warnings is gone
            stream.close()
