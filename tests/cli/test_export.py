"""`ptc-tui export --format otel` and `ptc-tui import`: OTLP/JSON out and back."""

import json

import pytest

from engine.trace import dumps_trace, load_trace
from engine.trace.otel import dumps_otlp
from sample_traces import trace_path
from tests.cli.conftest import PRODUCT_TRACE, SAMPLE_IDS, SAMPLES


def test_export_to_stdout_is_dumps_otlp(cli):
    r = cli("export", PRODUCT_TRACE, "--format", "otel")
    assert r.status == 0 and r.err == ""
    assert r.out.rstrip("\n") == dumps_otlp(load_trace(PRODUCT_TRACE)).rstrip("\n")
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
