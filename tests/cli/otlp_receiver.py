"""A local OTLP/HTTP receiver for the tests: a server on 127.0.0.1 that decodes each request's
protobuf body with opentelemetry-proto and keeps the spans, their headers and paths. `slow`
holds every answer until the test releases it (as a backend that does not answer)."""

from __future__ import annotations

import http.server
import threading
from dataclasses import dataclass, field

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest


@dataclass
class Received:
    path: str
    headers: dict
    request: ExportTraceServiceRequest


@dataclass
class Receiver:
    url: str
    requests: list[Received] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def spans(self) -> list[dict]:
        """Every span received, as OTLP/JSON dicts with their attributes as {key: value}."""
        out = []
        for r in self.requests:
            for rs in r.request.resource_spans:
                for ss in rs.scope_spans:
                    for span in ss.spans:
                        out.append({
                            "name": span.name, "trace_id": span.trace_id.hex(),
                            "span_id": span.span_id.hex(),
                            "parent_id": span.parent_span_id.hex(),
                            "kind": span.kind, "start": span.start_time_unix_nano,
                            "end": span.end_time_unix_nano, "status": span.status.code,
                            "attributes": {a.key: _value(a.value) for a in span.attributes},
                            "resource": {a.key: _value(a.value) for a in rs.resource.attributes},
                            "scope": ss.scope.name})
        return out

    def documents(self) -> list[dict]:
        """Each request as the OTLP/JSON document the protobuf's JSON mapping gives, with ids
        in hex as OTLP/JSON writes them (engine.trace.otel reads these back)."""
        docs = []
        for r in self.requests:
            doc = MessageToDict(r.request)
            for rs in doc.get("resourceSpans", []):
                for ss in rs.get("scopeSpans", []):
                    for span in ss.get("spans", []):
                        for key in ("traceId", "spanId", "parentSpanId"):
                            if key in span:
                                span[key] = _hex(span[key])
            docs.append(doc)
        return docs


def _hex(b64: str) -> str:
    import base64
    return base64.b64decode(b64).hex()


def _value(v):
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


def serve(slow: bool = False) -> tuple[Receiver, http.server.HTTPServer]:
    receiver = Receiver("")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if slow:
                receiver.release.wait(30)
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            receiver.requests.append(Received(self.path, dict(self.headers), request))
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()
            except OSError:               # the exporter gave up waiting
                pass

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver, server
