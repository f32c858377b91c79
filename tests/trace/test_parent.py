"""The optional `parent` field of a forked trace: written, read back, checked, kept through an
OTLP export, and absent from every trace written before forks (which still load)."""

import json

import pytest

from engine.agent import fork
from engine.llm import ScriptedLLM
from engine.trace import TraceError, dumps_otlp, dumps_trace, load_trace, loads_otlp, loads_trace
from sample_traces import HERE, agent_paths, trace_path


def forked():
    parent = load_trace(HERE / "product_search.json")
    session = fork(parent, 2, ScriptedLLM(["```clojure\n(return 1)\n```"]),
                   parent_file=HERE / "product_search.json")
    session.step()
    return session.trace(created_at="2026-01-01T00:00:00+00:00")


@pytest.mark.parametrize("path", [trace_path(p) for p in agent_paths()],
                         ids=[p.stem for p in agent_paths()])
def test_traces_written_before_forks_load_without_a_parent(path):
    assert "parent" not in json.loads(path.read_text())
    assert load_trace(path).parent is None


def test_the_parent_is_written_as_documented():
    doc = json.loads(dumps_trace(forked()))["parent"]
    assert set(doc) == {"sha256", "file", "turn", "changed", "tools", "llm"}
    assert (doc["file"], doc["turn"], doc["tools"]) == ("product_search.json", 2, "recorded")
    assert doc["changed"] == {"llm": "scripted"} and len(doc["sha256"]) == 64
    assert doc["llm"] == load_trace(HERE / "product_search.json").agent.llm


def test_a_fork_saved_before_the_parents_llm_was_recorded_still_loads():
    doc = json.loads(dumps_trace(forked()))
    del doc["parent"]["llm"]
    trace = loads_trace(json.dumps(doc), "old_fork.json")
    assert trace.parent.llm is None and trace.parent.turn == 2


def test_the_parent_survives_an_otlp_round_trip():
    trace = forked()
    assert loads_otlp(dumps_otlp(trace)).parent == trace.parent


@pytest.mark.parametrize("change, problem", [
    ({"turn": 0}, "parent.turn: must be at least 1"),
    ({"turn": "2"}, "parent.turn: expected an integer"),
    ({"tools": "magic"}, "parent.tools: expected \"agent\" or \"recorded\""),
    ({"changed": {"llm": ["a"]}}, "parent.changed.llm: expected a string, number"),
    ({"changed": {"o" * 50: {}}}, f"parent.changed.{'o' * 40}: expected"),   # a long name cut
    ({"sha256": None}, "parent: missing field 'sha256'"),
])
def test_a_malformed_parent_is_one_clear_error(change, problem):
    doc = json.loads(dumps_trace(forked()))
    doc["parent"].update(change)
    if change.get("sha256", "") is None:
        del doc["parent"]["sha256"]
    with pytest.raises(TraceError, match=problem.replace("(", r"\(")):
        loads_trace(json.dumps(doc), "fork.json")
