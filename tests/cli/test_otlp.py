"""Spans streamed to an OTLP/HTTP endpoint (--otlp-endpoint, the OTEL_EXPORTER_OTLP_* variables)
and `export --endpoint`: a receiver on 127.0.0.1 decodes what arrives with opentelemetry-proto.
A receiver that is down or does not answer is one warning, and the run is saved all the same."""

from __future__ import annotations

import socket
import sys
import time

import pytest

from engine.agent.files import load_agent_file
from engine.llm import spec_model
from engine.tokens import call_counter
from engine.trace import load_trace
from engine.trace.files import trace_to_json
from engine.trace.otel import from_otlp, to_otlp
from ptc_tui.otlp_stream import SpanStream
from sample_traces import HERE
from tests.cli.conftest import PRODUCT_AGENT, PRODUCT_TRACE
from tests.cli.otlp_receiver import serve

VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
             "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
             "OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
             "OTEL_SDK_DISABLED")


@pytest.fixture(autouse=True)
def no_otel_variables(monkeypatch):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def receiver():
    r, server = serve()
    yield r
    server.shutdown()


@pytest.fixture
def slow_receiver():
    r, server = serve(slow=True)
    yield r
    r.release.set()
    server.shutdown()


@pytest.fixture
def dead_url():
    """A port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def by_op(spans, operation):
    return [s for s in spans if s["attributes"].get("gen_ai.operation.name") == operation
            or s["attributes"].get("ptc.operation.name") == operation]


def wait_for(condition, what: str, timeout_s: float = 30.0) -> None:
    """Until `condition()` (the spans are sent from another thread); never a timing claim."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if "warning: OTLP" in line]


def test_a_run_sends_its_span_tree_with_parents_attributes_and_token_counts(cli, receiver,
                                                                            tmp_path):
    saved = tmp_path / "run.json"
    r = cli("run", PRODUCT_AGENT, "--save", saved, "--otlp-endpoint", receiver.url)
    assert r.status == 0 and warnings(r.err) == []
    trace = load_trace(saved)
    spans = receiver.spans()
    assert {q.path for q in receiver.requests} == {"/v1/traces"}
    [root] = by_op(spans, "invoke_agent")
    assert root["parent_id"] == "" and root["name"] == "invoke_agent product-search"
    assert root["attributes"]["ptc.outcome.status"] == "returned"
    assert root["resource"]["service.name"] == "ptc-tui" and root["scope"] == "ptc-tui"
    assert {s["trace_id"] for s in spans} == {root["trace_id"]}
    chats, programs = by_op(spans, "chat"), by_op(spans, "execute_program")
    assert len(chats) == len(programs) == len(trace.turns) == 3
    assert {s["parent_id"] for s in chats + programs} == {root["span_id"]}
    tools = by_op(spans, "execute_tool")
    assert len(tools) == sum(len(t.tool_calls) for t in trace.turns) > 0
    assert {s["parent_id"] for s in tools} <= {p["span_id"] for p in programs}
    counted = call_counter(spec_model(trace.agent.llm))
    for chat, turn in zip(sorted(chats, key=lambda s: s["attributes"]["ptc.turn.number"]),
                          trace.turns):
        a = chat["attributes"]
        assert a["gen_ai.request.model"] == "product_search.py"
        prompt, completion = counted(turn)
        assert (a["llm.token_count.prompt"], a["llm.token_count.completion"],
                a["llm.token_count.total"]) == (prompt, completion, prompt + completion)
        assert prompt > 100 and a["ptc.token_count.counted"] is True
        assert "gen_ai.usage.input_tokens" not in a        # the scripted LLM reports none


def test_the_spans_received_give_the_saved_run_back(cli, receiver, tmp_path):
    saved = tmp_path / "run.json"
    assert cli("run", PRODUCT_AGENT, "--save", saved, "--otlp-endpoint",
               receiver.url).status == 0
    merged = {"resourceSpans": [rs for d in receiver.documents() for rs in d["resourceSpans"]]}
    got, want = trace_to_json(from_otlp(merged)), trace_to_json(load_trace(saved))
    got.pop("created_at"), want.pop("created_at")          # the run's end, the file's save
    assert got == want


def test_each_turn_is_sent_as_it_finishes_and_the_run_span_when_it_ends(receiver):
    agent_file = load_agent_file(PRODUCT_AGENT)
    session = agent_file.agent.start(agent_file.scripted_llm())
    stream = SpanStream(receiver.url, warn=pytest.fail)
    stream.follow(session)
    session.step()
    wait_for(lambda: by_op(receiver.spans(), "chat"), "turn 1's chat span")
    spans = receiver.spans()
    assert [s["attributes"]["ptc.turn.number"] for s in by_op(spans, "chat")] == [1]
    assert by_op(spans, "invoke_agent") == []                 # the run goes on
    while not session.done:
        session.step()
    wait_for(lambda: by_op(receiver.spans(), "invoke_agent"), "the run's span")
    stream.close()
    chats = by_op(receiver.spans(), "chat")
    assert sorted(s["attributes"]["ptc.turn.number"] for s in chats) == [1, 2, 3]
    assert len(by_op(receiver.spans(), "invoke_agent")) == 1  # sent once, not again at close


def test_a_run_stopped_before_its_end_sends_its_run_span_at_close(receiver):
    agent_file = load_agent_file(PRODUCT_AGENT)
    session = agent_file.agent.start(agent_file.scripted_llm())
    stream = SpanStream(receiver.url, warn=pytest.fail)
    stream.follow(session)
    session.step()
    stream.close()
    [root] = by_op(receiver.spans(), "invoke_agent")
    assert root["attributes"]["ptc.outcome.status"] == "running"
    assert root["attributes"]["ptc.turn.count"] == 1


def test_the_standard_variables_name_the_endpoint_and_its_headers(cli, receiver, monkeypatch,
                                                                  tmp_path):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Basic cHRjOnR1aQ==,x-team=ptc")
    assert cli("run", PRODUCT_AGENT, "--save", tmp_path / "run.json").status == 0
    assert receiver.requests and {q.path for q in receiver.requests} == {"/v1/traces"}
    headers = {k.lower(): v for k, v in receiver.requests[0].headers.items()}
    assert headers["authorization"] == "Basic cHRjOnR1aQ==" and headers["x-team"] == "ptc"
    assert headers["content-type"] == "application/x-protobuf"


def test_the_traces_endpoint_variable_is_used_as_it_is(cli, receiver, monkeypatch, tmp_path):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", receiver.url + "/api/otel/traces")
    assert cli("run", PRODUCT_AGENT, "--save", tmp_path / "run.json").status == 0
    assert {q.path for q in receiver.requests} == {"/api/otel/traces"}


def test_otel_sdk_disabled_turns_the_streaming_off(cli, receiver, monkeypatch, tmp_path):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url)
    monkeypatch.setenv("OTEL_SDK_DISABLED", "TRUE")          # the specification ignores case
    r = cli("run", PRODUCT_AGENT, "--save", tmp_path / "a.json")
    assert r.status == 0 and not warnings(r.err)
    r = cli("run", PRODUCT_AGENT, "--otlp-endpoint", receiver.url, "--save", tmp_path / "b.json")
    assert r.status == 0 and warnings(r.err) == [
        "ptc-tui: warning: OTLP: OTEL_SDK_DISABLED is true: --otlp-endpoint is ignored, "
        "no spans are sent"]
    assert not receiver.requests and load_trace(tmp_path / "b.json").turns
    monkeypatch.setenv("OTEL_SDK_DISABLED", "false")         # any other value leaves it on
    assert cli("run", PRODUCT_AGENT, "--save", tmp_path / "c.json").status == 0
    assert receiver.requests


def test_without_an_endpoint_nothing_is_sent_and_opentelemetry_is_not_loaded(tmp_path):
    import subprocess
    code = ("import sys; from ptc_tui.cli import main; "
            f"status = main(['run', {str(PRODUCT_AGENT)!r}, '--save', {str(tmp_path / 'r.json')!r}]); "
            "print(status, any(m.startswith('opentelemetry') for m in sys.modules))")
    env = {k: v for k, v in __import__("os").environ.items() if k not in VARIABLES}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=HERE.parent)
    assert out.stdout.split()[-2:] == ["0", "False"], out.stderr


def test_an_endpoint_that_is_down_is_one_warning_and_the_run_is_saved(cli, dead_url, tmp_path):
    saved = tmp_path / "run.json"
    r = cli("run", PRODUCT_AGENT, "--save", saved, "--otlp-endpoint", dead_url)
    assert r.status == 0 and 'returned: ["Laptop" "Monitor"]' in r.out
    assert len(load_trace(saved).turns) == 3
    [line] = warnings(r.err)
    assert line.startswith(f"ptc-tui: warning: OTLP: cannot send spans to {dead_url}/v1/traces")
    assert "Connection refused" in line and "Traceback" not in r.err


def test_a_receiver_that_does_not_answer_is_one_warning_and_the_run_completes(
        cli, slow_receiver, monkeypatch, tmp_path):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "1")       # seconds, as the Python SDK reads it
    saved = tmp_path / "run.json"
    r = cli("run", PRODUCT_AGENT, "--save", saved, "--otlp-endpoint", slow_receiver.url)
    assert r.status == 0 and len(load_trace(saved).turns) == 3
    [line] = warnings(r.err)
    assert "no answer in time" in line


def test_an_experiment_sends_every_run_as_its_own_trace(cli, receiver, tmp_path):
    r = cli("experiment", HERE / "stock_survey.py", "--compress", "full,coalesced", "--repeat",
            "2", "--out", tmp_path / "x", "--otlp-endpoint", receiver.url)
    assert r.status == 0 and warnings(r.err) == []
    roots = by_op(receiver.spans(), "invoke_agent")
    assert len(roots) == 4 and len({s["trace_id"] for s in roots}) == 4
    assert sorted(s["attributes"]["ptc.strategy"] for s in roots) == ["coalesced"] * 2 + ["full"] * 2


def test_a_fork_sends_the_turns_it_took_over_and_its_own(cli, receiver, tmp_path):
    r = cli("fork", PRODUCT_TRACE, "--at", "2", "-o", tmp_path / "fork.json",
            "--otlp-endpoint", receiver.url)
    assert r.status == 0
    spans = receiver.spans()
    [root] = by_op(spans, "invoke_agent")
    assert "ptc.parent" in root["attributes"]
    assert sorted(s["attributes"]["ptc.turn.number"] for s in by_op(spans, "chat")) == \
        list(range(1, len(load_trace(tmp_path / "fork.json").turns) + 1))


def test_export_sends_a_saved_trace_as_the_file_export_writes_it(cli, receiver):
    r = cli("export", PRODUCT_TRACE, "--format", "otel", "--endpoint", receiver.url)
    assert r.status == 0 and f"to {receiver.url}/v1/traces" in r.out
    trace = load_trace(PRODUCT_TRACE)
    counted = call_counter(spec_model(trace.agent.llm))
    written = to_otlp(trace, counted)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    got = {s["span_id"]: s for s in receiver.spans()}
    assert set(got) == {s["spanId"] for s in written}                # the same ids
    for span in written:
        assert got[span["spanId"]]["name"] == span["name"]
        assert got[span["spanId"]]["start"] == int(span["startTimeUnixNano"])
        assert set(got[span["spanId"]]["attributes"]) == {a["key"] for a in span["attributes"]}


def test_export_to_an_endpoint_that_is_down_is_one_line_and_status_1(cli, dead_url):
    r = cli("export", PRODUCT_TRACE, "--format", "otel", "--endpoint", dead_url)
    assert r.status == 1 and r.out == ""
    assert r.err == f"ptc-tui: {dead_url}/v1/traces: cannot send the spans: Connection refused\n"


def test_export_sends_or_writes_not_both(cli, receiver, tmp_path):
    r = cli("export", PRODUCT_TRACE, "--format", "otel", "--endpoint", receiver.url,
            "-o", tmp_path / "x.json")
    assert r.status == 2 and "give -o or --endpoint" in r.err and not receiver.requests


def test_without_the_otel_extra_the_flag_is_one_line_and_the_variables_a_warning(
        cli, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ptc_tui.otlp_stream", None)      # import fails
    r = cli("run", PRODUCT_AGENT, "--otlp-endpoint", "http://127.0.0.1:9")
    assert r.status == 2
    assert r.err == ("ptc-tui: --otlp-endpoint: sending spans needs OpenTelemetry: "
                     "pip install 'ptc-tui[otel]'\n")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    r = cli("run", PRODUCT_AGENT, "--save", tmp_path / "run.json")
    assert r.status == 0 and len(warnings(r.err)) == 1 and "ptc-tui[otel]" in r.err

