"""`ptc-tui export --format otel` and `ptc-tui import`: OTLP/JSON out and back."""

import json

import pytest

from engine.llm import spec_model
from engine.tokens import call_counter
from engine.trace import dumps_trace, load_trace
from engine.trace.otel import dumps_otlp
from sample_traces import trace_path
from tests.cli.conftest import PRODUCT_TRACE, SAMPLE_IDS, SAMPLES


def test_export_to_stdout_is_dumps_otlp_with_our_token_counts(cli):
    r = cli("export", PRODUCT_TRACE, "--format", "otel")
    assert r.status == 0 and r.err == ""
    trace = load_trace(PRODUCT_TRACE)
    counted = call_counter(spec_model(trace.agent.llm))
    assert r.out.rstrip("\n") == dumps_otlp(trace, counted).rstrip("\n")
    assert '"llm.token_count.prompt"' in r.out
    assert "resourceSpans" in json.loads(r.out)


@pytest.mark.parametrize("agent", SAMPLES, ids=SAMPLE_IDS)
def test_export_then_import_gives_the_trace_back(cli, tmp_path, agent):
    otlp, back = tmp_path / "run.otlp.json", tmp_path / "back.json"
    assert cli("export", trace_path(agent), "--format", "otel", "-o", otlp).status == 0
    assert cli("import", otlp, "-o", back).status == 0
    assert back.read_text(encoding="utf-8") == trace_path(agent).read_text(encoding="utf-8")


def test_import_to_stdout(cli, tmp_path):
    otlp = tmp_path / "run.otlp.json"
    cli("export", PRODUCT_TRACE, "--format", "otel", "-o", otlp)
    r = cli("import", otlp)
    assert r.out.rstrip("\n") == dumps_trace(load_trace(PRODUCT_TRACE))


def test_importing_something_else_is_one_line(cli):
    r = cli("import", PRODUCT_TRACE)
    assert r.status == 2 and r.out == "" and r.err.count("\n") == 1
    assert r.err.startswith(f"ptc-tui: {PRODUCT_TRACE}: ")


def test_export_needs_a_known_format(cli):
    r = cli("export", PRODUCT_TRACE, "--format", "zipkin")
    assert r.status == 2 and r.err.count("\n") == 1 and "zipkin" in r.err


# --- import never drops a turn silently --------------------------------------------------

def exported(tmp_path, cli):
    otlp = tmp_path / "run.otlp.json"
    cli("export", PRODUCT_TRACE, "--format", "otel", "-o", otlp)
    return otlp, json.loads(otlp.read_text(encoding="utf-8"))


def chat_spans(doc):
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    return spans, [s for s in spans if s["name"].startswith("chat")]


def drop_last(spans, chats):
    spans.remove(chats[-1])


def duplicate_second(spans, chats):
    spans.append(dict(chats[1], spanId="ffffffffffffffff"))


def reparent_second(spans, chats):
    chats[1]["parentSpanId"] = "0123456789abcdef"


GAPS = {
    "missing last span": (drop_last, ["no chat span holds turn 3 of 3"], 2),
    "duplicated span": (duplicate_second,
                        ["chat span 'chat product_search.py' (span ffffffffffffffff) holds turn 2, "
                         "as chat span 'chat product_search.py' (span "], 3),
    "re-parented span": (reparent_second,
                         ["holds turn 2 but is not a child of the run's invoke_agent span"], 3),
}


@pytest.mark.parametrize("edit, problems, kept", GAPS.values(), ids=GAPS.keys())
def test_import_never_drops_a_turn_silently(cli, tmp_path, edit, problems, kept):
    otlp, doc = exported(tmp_path, cli)
    edit(*chat_spans(doc))
    otlp.write_text(json.dumps(doc))
    back = tmp_path / "back.json"
    r = cli("import", otlp, "-o", back)
    assert r.status == 2 and not back.exists()
    assert r.err.startswith(f"ptc-tui: {otlp}: ") and problems[0] in r.err
    assert r.err.rstrip().endswith("(--lenient imports what is there)")

    r = cli("import", otlp, "-o", back, "--lenient")
    assert r.status == 0
    warnings = r.err.splitlines()
    assert len(warnings) == len(problems)
    for line, problem in zip(warnings, problems):
        assert line.startswith(f"ptc-tui: {otlp}: warning: ") and problem in line
    assert len(load_trace(back).turns) == kept
