"""Spans of runs sent to an OpenTelemetry backend over OTLP/HTTP as their turns finish, with the
official SDK's exporter (the optional `ptc-tui[otel]` extra; imported only here).

The spans are those of `export --format otel` (engine.trace.otel), made from the run so far
after every turn: a turn's chat, program and tool spans as soon as it finishes, the run's
`invoke_agent` span when it ends (or when the stream is closed first). They go to the SDK's
`BatchSpanProcessor`, whose thread sends them, so a slow or dead endpoint never holds up a run:
its first failed export is one warning, and nothing more is sent after it. Closing waits for
the spans still queued at most one export timeout (`TIMEOUT`, or the `OTEL_EXPORTER_OTLP_*
TIMEOUT` variables, in seconds as the Python SDK reads them).
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

from engine.llm import spec_model
from engine.tokens import call_counter
from engine.trace import Trace
from engine.trace.files import trace_to_json
from engine.trace.otel import (KIND_CLIENT, SERVICE, attr_value, document, duration_ns,
                               new_trace_id, root_span, root_span_id, spans_of_turn, to_otlp)

TIMEOUT = 5.0                 # seconds for one export, unless an OTEL_* variable says otherwise
TIMEOUT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT")
SEND_EVERY_MS = 500           # how long a finished span waits for others to go with it
REASON_CHARS = 200


def traces_url(endpoint: str | None) -> str:
    """Where the spans go: `endpoint` (a collector's base URL, `/v1/traces` added unless it
    ends so), else the standard variables as the SDK reads them."""
    if endpoint is None:
        endpoint = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        if endpoint:
            return endpoint
        endpoint = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or "http://localhost:4318"
    endpoint = endpoint.rstrip("/")
    return endpoint if endpoint.endswith("/v1/traces") else endpoint + "/v1/traces"


class SpanStream:
    """One OTLP/HTTP endpoint; `follow(session)` streams a run to it. `warn(line)` is called
    once, from the sending thread, when the endpoint fails; `failure` says why."""

    def __init__(self, endpoint: str | None, warn) -> None:
        self.url = traces_url(endpoint)
        self.warn = warn
        self.failure: str | None = None
        self.timeout = TIMEOUT if not any(os.environ.get(v) for v in TIMEOUT_VARIABLES) \
            else None                                             # the SDK reads them
        self._log = _SdkLog.install()
        self._log.reason = None
        exporter = OTLPSpanExporter(endpoint=self.url, timeout=self.timeout)
        self._exporter = _StopsAtFirstFailure(exporter, self._failed)
        self._log.refused = self._exporter.shutdown
        self._processor = BatchSpanProcessor(self._exporter, schedule_delay_millis=SEND_EVERY_MS)
        self._runs: list[RunSpans] = []
        self._lock = threading.Lock()

    def follow(self, session) -> None:
        """Send `session`'s turns as they finish, and its run's span when it ends."""
        run = RunSpans(self, session)
        with self._lock:
            self._runs.append(run)
        session.watchers.append(run.update)

    def send_trace(self, trace: Trace) -> None:
        """Send a saved trace's spans, exactly as `export --format otel` writes them."""
        self.send(to_otlp(trace, call_counter(spec_model(trace.agent.llm))), trace)

    def send(self, doc: dict, trace: Trace) -> None:
        """Queue the spans of an OTLP/JSON document of `trace` (engine.trace.otel)."""
        resource = Resource.create({"service.name": SERVICE,
                                    "ptc.engine_version": trace.engine_version})
        scope = InstrumentationScope(SERVICE, trace.engine_version or None)
        for rs in doc["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for span in ss["spans"]:
                    self._processor.on_end(readable(span, resource, scope))

    def close(self) -> None:
        """End the runs still going (their run span says `running`), and send what is queued,
        waiting at most about one export timeout."""
        with self._lock:
            runs = list(self._runs)
        for run in runs:
            run.end()
        # The processor's own shutdown may wait 30 s for its thread: wait for it only so long
        # (its threads are daemons, so the process need not wait for them at exit).
        closing = threading.Thread(target=self._processor.shutdown, daemon=True,
                                   name="otlp close")
        closing.start()
        closing.join((self.timeout or TIMEOUT) + 1)
        if closing.is_alive():
            self._exporter.shutdown()            # stops the exporter's retries at once

    def _failed(self, reason: str | None) -> None:
        self.failure = reason or self._log.reason or "no answer"
        self.warn(f"cannot send spans to {self.url}: {self.failure}; spans are no longer sent "
                  "(runs go on)")


class RunSpans:
    """One run's spans: a random trace id; each turn sent once, the run's span at its end."""

    def __init__(self, stream: SpanStream, session) -> None:
        self.stream = stream
        self.session = session
        self.trace_id = new_trace_id()
        self.root_id = root_span_id(self.trace_id)
        self.sent = 0                     # turns sent
        self.started = time.time_ns()
        self.cursor = self.started        # where the next turn's spans may start
        self.ended = False
        self.counted = None
        self._lock = threading.Lock()

    def update(self, session=None) -> None:
        """Send the turns finished since the last call, and the run's span once it has ended
        (a session watcher: called after every turn and when the run ends)."""
        self._send(ending=self.session.done)

    def end(self) -> None:
        """Send the run's span now, the run ended or not."""
        self._send(ending=True)

    def _send(self, ending: bool) -> None:
        with self._lock:
            if self.ended or (not ending and len(self.session.turns) == self.sent):
                return
            try:
                self._send_locked(ending)
            except Exception as e:      # a bug here must never take the run down
                self.ended = True
                self.stream.warn(f"cannot make the spans of the run: {type(e).__name__}: {e}")

    def _send_locked(self, ending: bool) -> None:
        trace = self.session.trace()
        doc = trace_to_json(trace)
        if self.counted is None:
            self.counted = call_counter(spec_model(trace.agent.llm))
        new = trace.turns[self.sent:]
        # new turns end now, one after another; turns a fork took over end when it started
        cursor = max(self.cursor, time.time_ns() - duration_ns(new))
        self.started = min(self.started, cursor)
        spans = []
        for turn, turn_doc in zip(new, doc["turns"][self.sent:]):
            turn_spans, cursor = spans_of_turn(trace, turn, turn_doc, self.trace_id,
                                               self.root_id, cursor, self.counted)
            spans += turn_spans
        self.sent, self.cursor = len(trace.turns), cursor
        if ending:
            self.ended = True
            spans.append(root_span(trace, doc, self.trace_id, self.root_id, self.started,
                                   max(cursor, time.time_ns())))
        self.stream.send(document(trace, spans), trace)


def readable(span: dict, resource: Resource, scope: InstrumentationScope) -> ReadableSpan:
    """An OTLP/JSON span (engine.trace.otel) as the SDK's span, for its exporter."""
    flags = TraceFlags(TraceFlags.SAMPLED)
    trace_id = int(span["traceId"], 16)
    parent = span.get("parentSpanId")
    status = span.get("status")
    return ReadableSpan(
        name=span["name"],
        context=SpanContext(trace_id, int(span["spanId"], 16), False, flags),
        parent=SpanContext(trace_id, int(parent, 16), False, flags) if parent else None,
        resource=resource,
        attributes={kv["key"]: attr_value(kv) for kv in span["attributes"]},
        kind=SpanKind.CLIENT if span["kind"] == KIND_CLIENT else SpanKind.INTERNAL,
        status=Status(StatusCode.ERROR, status["message"]) if status else Status(),
        start_time=int(span["startTimeUnixNano"]), end_time=int(span["endTimeUnixNano"]),
        instrumentation_scope=scope)


class _StopsAtFirstFailure(SpanExporter):
    """The OTLP exporter until an export fails; after that every batch is dropped at once, so
    a dead endpoint costs one timeout, not one per batch."""

    def __init__(self, exporter: OTLPSpanExporter, failed) -> None:
        self.exporter = exporter
        self.failed = failed
        self.stopped = False

    def export(self, spans) -> SpanExportResult:
        if self.stopped:
            return SpanExportResult.FAILURE
        reason = None
        try:
            result = self.exporter.export(spans)
        except Exception as e:          # the SDK's own failure must not end the sending thread
            result, reason = SpanExportResult.FAILURE, f"{type(e).__name__}: {e}"
        if result is not SpanExportResult.SUCCESS:
            self.stopped = True
            self.failed(reason)
        return result

    def shutdown(self) -> None:
        self.exporter.shutdown()


class _SdkLog(logging.Handler):
    """The SDK's log lines, kept from the terminal: the last one says why an export failed
    (`reason`), and a refused connection calls `refused()` at once, rather than the exporter
    retrying for its whole timeout."""

    reason: str | None = None
    refused = staticmethod(lambda: None)

    @classmethod
    def install(cls) -> "_SdkLog":
        logger = logging.getLogger("opentelemetry")
        for handler in logger.handlers:
            if isinstance(handler, cls):
                return handler
        handler = cls(logging.WARNING)
        logger.addHandler(handler)
        logger.propagate = False
        return handler

    def emit(self, record: logging.LogRecord) -> None:
        message = " ".join(record.getMessage().split())
        errno = re.search(r"\[Errno -?\d+\] ([^\"'()]+)", message)
        transient = message.startswith("Transient error")
        if errno:
            self.reason = errno.group(1).strip()
        elif "timed out" in message or "due to timeout" in message:
            self.reason = self.reason or "no answer in time"
        elif "reason: " in message:
            self.reason = message.partition("reason: ")[2]
        else:
            self.reason = self.reason or message
        self.reason = self.reason[:REASON_CHARS]
        if errno and transient:
            self.refused()
