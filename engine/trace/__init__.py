"""Traces: a run saved as one versioned JSON document (docs/trace-format.md), loaded back
with everything needed to re-render any strategy at any limit (docs/history-rules.md, DBG-001..005)."""

from engine.trace.files import dumps_trace, load_trace, loads_trace, save_trace, trace_file_size
from engine.trace.model import FORMAT, VERSION, AgentInfo, Outcome, Parent, Trace, TraceError
from engine.trace.otel import dumps_otlp, from_otlp, loads_otlp, to_otlp

__all__ = ["Trace", "AgentInfo", "Outcome", "Parent", "TraceError", "save_trace", "load_trace",
           "dumps_trace", "loads_trace", "FORMAT", "VERSION", "to_otlp", "from_otlp",
           "dumps_otlp", "loads_otlp", "trace_file_size"]
