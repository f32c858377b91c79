"""`ptc-tui import RUN.inspection.jsonl` and every command taking such a run directly."""

from __future__ import annotations

import json

import pytest

from engine.trace import load_trace
from tests.trace.upstream_fixture import loop_run


@pytest.fixture
def run_dir(tmp_path):
    artifact, events = loop_run()
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "capture.inspection.jsonl").write_text(artifact, encoding="utf-8")
    (tmp_path / "a" / "events.log").write_text(events, encoding="utf-8")
    return tmp_path / "a"


def test_import_writes_a_trace_and_takes_the_canonical_trace_with_trace(cli, run_dir, tmp_path):
    out = tmp_path / "out.json"
    r = cli("import", run_dir / "capture.inspection.jsonl", "--trace", run_dir / "events.log",
            "-o", out)
    assert (r.status, r.err) == (0, "")
    trace = load_trace(out)
    assert len(trace.turns) == 4 and trace.agent.llm == "openrouter:test/model"
    assert trace.turns[0].llm_ms == 1000             # the duration run.jsonl reported


def test_without_trace_the_run_jsonl_beside_it_is_used(cli, run_dir, tmp_path):
    (run_dir / "capture.jsonl").write_text((run_dir / "events.log").read_text())
    out = tmp_path / "out.json"
    assert cli("import", run_dir / "capture.inspection.jsonl", "-o", out).status == 0
    assert load_trace(out).agent.llm == "openrouter:test/model"
    (run_dir / "capture.jsonl").unlink()
    assert cli("import", run_dir / "capture.inspection.jsonl", "-o", out, "--force").status == 0
    assert load_trace(out).agent.llm == "ptc_runner"


def test_a_cut_off_run_imports_with_a_warning_line(cli, run_dir, tmp_path):
    path = run_dir / "capture.inspection.jsonl"
    path.write_text(path.read_text()[:-200])
    r = cli("import", path, "-o", tmp_path / "out.json")
    assert r.status == 0
    assert r.err == (f"ptc-tui: {path}: warning: the run is cut off: 1 line(s) dropped (a "
                     "partial record or an LLM request without its reply); the complete turns "
                     "are imported\n")


def test_an_unknown_schema_version_is_one_line_and_exit_2(cli, tmp_path):
    path = tmp_path / "run.inspection.jsonl"
    path.write_text(loop_run(version=9)[0])
    r = cli("import", path)
    assert r.status == 2 and r.out == ""
    assert r.err == (f"ptc-tui: {path}: inspection schema_version 9 is not one this ptc-tui "
                     "reads (1, 2)\n")


def test_trace_goes_only_with_an_inspection_artifact(cli, tmp_path, run_dir):
    otlp = tmp_path / "x.otlp.json"
    otlp.write_text("{}")
    r = cli("import", otlp, "--trace", run_dir / "events.log")
    assert r.status == 2 and "--trace goes with a ptc_runner run.inspection.jsonl" in r.err


def test_stats_render_validate_and_export_take_the_run_directly(cli, run_dir):
    path = run_dir / "capture.inspection.jsonl"
    stats = cli("stats", path, "--json")
    assert stats.status == 0
    doc = json.loads(stats.out)
    assert doc["turns_count"] == 4 and doc["outcome"] == "returned"
    render = cli("render", path, "--turn", "1", "--json")
    assert render.status == 0 and "Count the things of x" in render.out
    validate = cli("validate", path)
    assert validate.status == 0 and validate.out.startswith("ok: 4 turns, returned (imported")
    export = cli("export", path, "--format", "otel")
    assert export.status == 0 and "resourceSpans" in json.loads(export.out)


def test_validate_of_a_saved_import_checks_its_digest(cli, run_dir, tmp_path):
    out = tmp_path / "out.json"
    cli("import", run_dir / "capture.inspection.jsonl", "-o", out)
    assert cli("validate", out).status == 0
    out.write_text(out.read_text().replace("Step 2.", "Step two."))
    r = cli("validate", out)
    assert r.status == 1 and "changed" in r.err


def test_stats_shows_the_cost_the_run_reported(cli, run_dir):
    path = run_dir / "capture.inspection.jsonl"
    doc = json.loads(cli("stats", path, "--json").out)
    assert doc["reported_turn_costs_usd"] == [0.0004, 0.0005, 0.0002, 0.0003]
    assert doc["reported_cost_usd"] == 0.00141
    text = cli("stats", path).out
    assert ("reported cost (ptc_runner): $0.00141 in all; per turn $0.000400, $0.000500, "
            "$0.000200, $0.000300; 1 workflow request(s) kept apart; 0 turn(s) whose re-run "
            "here differs from the record") in text
