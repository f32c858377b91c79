"""`ptc-tui validate`: a trace loads and its recorded messages are what its strategy renders."""

import json

import pytest

from engine.trace import load_trace
from sample_traces import trace_path
from tests.cli.conftest import PRODUCT_TRACE, SAMPLE_IDS, SAMPLES


@pytest.mark.parametrize("agent", SAMPLES, ids=SAMPLE_IDS)
def test_every_sample_is_valid(cli, agent):
    trace = load_trace(trace_path(agent))
    r = cli("validate", trace_path(agent))
    assert (r.status, r.err) == (0, "")
    assert r.out == f"ok: {len(trace.turns)} turns, {trace.outcome.status}\n"


def test_a_tampered_message_is_reported(cli, tmp_path):
    doc = json.loads(open(PRODUCT_TRACE, encoding="utf-8").read())
    last = doc["turns"][-1]["sent"][-1]
    doc["messages"][last]["content"] = doc["messages"][last]["content"].replace(
        "Turns left", "Turns remaining")
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    r = cli("validate", path)
    assert r.status == 1 and r.out == ""
    assert r.err.count("\n") == 1
    assert r.err.startswith(f"ptc-tui: {path}: turn 3 (coalesced): message 2 (user) differs "
                            "from the re-render at line ")
    assert r.err.endswith(": recorded 'remaining: 3', re-rendered 'left: 3'\n")


def test_a_changed_option_is_reported(cli, tmp_path):
    doc = json.loads(open(PRODUCT_TRACE, encoding="utf-8").read())
    doc["agent"]["history"]["strategy"] = "full"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(doc))
    r = cli("validate", path)
    assert r.status == 1
    assert r.err.endswith("turn 1 (full): message 2 (user) differs from the re-render at line 1: "
                          "recorded '\\n\\nTurns left: 5', re-rendered (end)\n")


def test_a_broken_file_is_invalid_and_a_missing_one_a_usage_error(cli, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "ptc-trace", "version": 1, "agent": {')
    r = cli("validate", broken)
    assert r.status == 1 and r.err == f"ptc-tui: {broken}: the file ends in the middle of the JSON (truncated?)\n"
    r = cli("validate", tmp_path / "missing.json")
    assert r.status == 2 and r.err == f"ptc-tui: {tmp_path / 'missing.json'}: no such file\n"
