"""Importing runs of the reference implementation (ptc_runner): its inspection artifact becomes
one of our traces, turn by turn, with memory rebuilt by re-running each program."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.agent.open_trace import open_trace
from engine.agent.upstream import import_inspection
from engine.trace import TraceError, dumps_trace, loads_trace
from engine.trace.upstream import is_inspection
from tests.trace.upstream_fixture import ERROR_SHOWN, MISSION, PROGRAMS, SYSTEM, loop_run

CUT = Path(__file__).parent / "upstream_runs" / "loop-cut"


def imported(shown_value: int = 3, canonical: bool = True, warn=None):
    artifact, events = loop_run(shown_value=shown_value)
    return import_inspection(artifact, "run.inspection.jsonl",
                             events if canonical else None, warn=warn)


def test_one_turn_per_agent_request_with_the_request_exactly_as_sent():
    trace = imported()
    assert [t.program for t in trace.turns] == PROGRAMS
    assert [t.raw_response for t in trace.turns] == ["Step 1.", "Step 2.", "Step 3.", "Step 4."]
    first, last = trace.turns[0].messages, trace.turns[3].messages
    assert first == ({"role": "system", "content": SYSTEM}, {"role": "user", "content": MISSION})
    assert last[2]["tool_calls"][0]["args"] == {"program": PROGRAMS[0]}
    assert last[3] == {"role": "tool", "tool_call_id": "call-1", "content": last[3]["content"]}
    assert last[5]["content"] == ERROR_SHOWN
    assert trace.agent.mission == MISSION and trace.agent.reference == SYSTEM
    assert [(t.name, t.params) for t in trace.agent.tools] == [("things/count", "(id)")]


def test_memory_is_rebuilt_by_running_each_program_with_the_recorded_tool_results():
    one, two, three, four = imported().turns
    assert one.memory == {"n": 3} and one.prints == ("n: 3",) and one.result == 3
    call = one.tool_calls[0]
    assert (call.name, call.args, dict(call.result), call.duration_ms) == \
        ("things/count", ("x",), {"n": 3}, 3.0)
    assert two.error is not None and two.memory == {"n": 3}
    assert three.program is None and three.error.reason == "no_code"
    assert four.signal == "return" and four.result == 6


def test_usage_cost_and_times_are_kept_as_reported():
    trace = imported()
    usage = trace.turns[3].usage
    assert (usage.input_tokens, usage.output_tokens, usage.cached_tokens,
            usage.cache_write_tokens) == (1500, 25, 1200, 0)
    assert trace.turns[1].usage.cache_write_tokens == 800
    assert [t["cost_usd"] for t in trace.upstream["turns"]] == [0.0004, 0.0005, 0.0002, 0.0003]
    assert trace.upstream["cost_usd"] == pytest.approx(0.00141)
    assert [t.llm_ms for t in trace.turns] == [1000, 1001, 1002, 1003]   # from run.jsonl
    assert trace.turns[0].run_ms == 2


def test_without_run_jsonl_durations_come_from_the_record_times():
    trace = imported(canonical=False)
    assert trace.turns[0].llm_ms == 1000.0          # input at :01, output at :02
    assert trace.agent.llm == "ptc_runner" and trace.outcome.status == "returned"


def test_run_level_model_outcome_and_the_workflows_own_calls_kept_apart():
    trace = imported()
    assert trace.agent.llm == "openrouter:test/model"
    assert trace.upstream["params"] == {"temperature": 0.0}
    assert trace.outcome.status == "returned" and trace.outcome.return_value == 6
    [call] = trace.upstream["workflow_calls"]
    assert call["reply"] == "A" and call["messages"][0]["content"] == "You grade."
    [evaluation] = trace.upstream["workflow_evaluations"]
    assert evaluation["source"] == '(return (things/count "y"))'
    assert evaluation["calls"][0]["result"] == {"status": "ok", "value": {"n": 5}}


def test_outcomes_that_match_the_record_say_nothing():
    entries = imported().upstream["turns"]
    assert [e["differs"] for e in entries] == [None] * 4
    assert [e["recorded_status"] for e in entries] == ["continued", "failed", None, "returned"]


def test_an_outcome_that_differs_from_the_record_shows_both():
    entry = imported(shown_value=4).upstream["turns"][0]
    assert entry["differs"] == {"recorded": "user=> 4\nprintln:\nn: 3",
                                "ours": "continued: user=> 3\nprintln:\nn: 3"}


def test_an_imported_trace_saves_and_loads_unchanged():
    trace = imported()
    text = dumps_trace(trace)
    again = loads_trace(text)
    assert again.upstream == json.loads(json.dumps(trace.upstream))
    assert again.turns[3].messages == trace.turns[3].messages
    assert dumps_trace(again) == text


def test_a_cut_off_run_imports_its_complete_turns_and_says_what_it_dropped():
    artifact, _ = loop_run()
    lines = artifact.splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if '"capability-output"' in line
               and "Step 3." in line)
    text = "".join(lines[:cut]) + lines[cut][:40]     # the reply of request 3, cut mid-line
    warnings = []
    trace = import_inspection(text, "cut.inspection.jsonl", warn=warnings.append)
    assert len(trace.turns) == 2
    assert warnings == ["the run is cut off: 2 line(s) dropped (a partial record or an LLM "
                        "request without its reply); the complete turns are imported"]


@pytest.mark.parametrize("version", [3, 0])
def test_an_unknown_schema_version_is_one_line(version):
    artifact, _ = loop_run(version=version)
    with pytest.raises(TraceError) as e:
        import_inspection(artifact, "v.inspection.jsonl")
    assert str(e.value) == (f"v.inspection.jsonl: inspection schema_version {version} is not "
                            "one this ptc-tui reads (1, 2)")


def test_another_jsonl_format_is_one_line(tmp_path):
    _, events = loop_run()
    path = tmp_path / "run.jsonl"
    path.write_text(events)
    with pytest.raises(TraceError) as e:
        open_trace(path)
    assert str(e.value) == (f"{path}: JSON lines of a ptc_runner canonical trace (run.jsonl), "
                            "not a trace: import its run.inspection.jsonl (with --trace "
                            "run.jsonl)")
    path.write_text('{"a": 1}\n{"b": 2}\n')
    with pytest.raises(TraceError, match="JSON lines, but not a ptc_runner inspection"):
        open_trace(path)


def test_a_record_that_breaks_the_envelope_names_its_line():
    artifact, _ = loop_run()
    lines = artifact.splitlines()
    lines[3] = lines[3].replace('"sequence": 4', '"sequence": 2')
    with pytest.raises(TraceError, match=r"^x: line 4: sequence 2 does not follow 3$"):
        import_inspection("\n".join(lines), "x")


def test_a_canonical_trace_of_another_run_is_refused():
    artifact, events = loop_run()
    with pytest.raises(TraceError, match="^run.jsonl: run other, not the inspection's run"):
        import_inspection(artifact, "a", events.replace("run-fixture", "other"))


def test_a_real_cut_down_run_with_its_run_jsonl_beside_it():
    trace = open_trace(CUT / "run.inspection.jsonl")
    assert len(trace.turns) == 2 and trace.agent.llm == "openrouter:deepseek/deepseek-v3.2"
    one, two = trace.turns
    assert one.tool_calls[0].name == "incident.evidence/list-sources"
    assert one.prints[0].startswith("Sources: [{")
    assert two.tool_calls[0].result["matched"] == 9
    assert two.messages[2]["tool_calls"][0]["args"]["program"] == one.program
    assert [e["differs"] for e in trace.upstream["turns"]] == [None, None]
    assert trace.outcome.status == "running"                  # cut before run-stopped
    assert one.usage.input_tokens == 1994 and trace.upstream["turns"][0]["cost_usd"] == 0.000567


JUNK = [None, 7, "text", [1, [2]], {"x": {}}, True]


@pytest.mark.parametrize("junk", JUNK, ids=lambda j: type(j).__name__)
def test_fields_of_the_wrong_shape_are_a_clear_error_or_imported_never_a_crash(junk):
    """Every payload field of every record replaced by a value of another type: the import
    either succeeds or raises one TraceError naming the file."""
    artifact, events = loop_run()
    records = [json.loads(line) for line in artifact.splitlines()]
    for i, record in enumerate(records):
        for key in list(record["payload"]) + ["correlation"]:
            changed = json.loads(json.dumps(records))
            where = changed[i] if key == "correlation" else changed[i]["payload"]
            where[key] = junk
            text = "\n".join(json.dumps(r) for r in changed)
            try:
                import_inspection(text, "junk.inspection.jsonl", events)
            except TraceError as e:
                assert str(e).startswith("junk.inspection.jsonl: ")


@pytest.mark.parametrize("path", [("arguments", "messages"), ("arguments", "tools"),
                                  ("arguments", "system"), ("result", "value", "tool_calls"),
                                  ("result", "value", "tokens"), ("result", "value", "content")])
@pytest.mark.parametrize("junk", JUNK, ids=lambda j: type(j).__name__)
def test_llm_fields_of_the_wrong_shape_never_crash(path, junk):
    artifact, events = loop_run()
    records = [json.loads(line) for line in artifact.splitlines()]
    for record in records:
        if record["payload"].get("name") == "llm-request":
            where = record["payload"]
            for key in path[:-1]:
                where = where.get(key, {}) if type(where) is dict else {}
            if type(where) is dict:
                where[path[-1]] = junk
    try:
        trace = import_inspection("\n".join(json.dumps(r) for r in records), "j", events)
    except TraceError as e:
        assert str(e).startswith("j: ")
    else:
        dumps_trace(trace)                   # and it saves


@pytest.mark.parametrize("message", [{"content": "x"}, {"role": "robot", "content": "x"},
                                     {"role": ["user"], "content": "x"}, "text", 7])
def test_a_request_message_we_cannot_hold_is_a_clear_error(message):
    artifact, events = loop_run()
    records = [json.loads(line) for line in artifact.splitlines()]
    request = next(r for r in records if r["payload"].get("name") == "llm-request")
    request["payload"]["arguments"]["messages"].append(message)
    with pytest.raises(TraceError, match="^m: an LLM request holds a message with role "):
        import_inspection("\n".join(json.dumps(r) for r in records), "m", events)


def test_each_requests_reported_cost_is_kept_on_its_turn_and_saved():
    trace = imported()
    assert [t.usage.cost_usd for t in trace.turns] == [0.0004, 0.0005, 0.0002, 0.0003]
    again = loads_trace(dumps_trace(trace))
    assert [t.usage.cost_usd for t in again.turns] == [0.0004, 0.0005, 0.0002, 0.0003]


def test_a_recorded_integer_past_64_bits_is_kept_and_the_saved_run_loads():
    artifact, events = loop_run()
    serial = 12345678901234567890123                     # 23 digits: a database id, say
    records = [json.loads(line) for line in artifact.splitlines() if line.strip()]
    [output] = [r for r in records if r["record_type"] == "capability-output"
                and r["payload"]["result"].get("value") == {"n": 3}]
    output["payload"]["result"]["value"]["serial"] = serial
    trace = import_inspection("\n".join(map(json.dumps, records)), "run.inspection.jsonl", events)
    assert "12345678901234567890123" in trace.turns[0].error.message   # our engine refuses it
    loaded = loads_trace(dumps_trace(trace))
    [call] = loaded.upstream["turns"][0]["calls"]
    assert call["result"]["value"] == {"n": 3, "serial": serial}
    assert loads_trace(dumps_trace(loaded)).upstream == loaded.upstream
    with pytest.raises(TraceError, match=r"turns\[0\].result: a 23-digit integer is out of range"):
        doc = json.loads(dumps_trace(trace))
        doc["turns"][0]["result"] = serial                 # outside `upstream`, still refused
        loads_trace(json.dumps(doc))


def with_line(artifact: str, number: int, edit) -> str:
    """The artifact with record `number` (1-based) changed by `edit(record)`."""
    lines = artifact.splitlines()
    record = json.loads(lines[number - 1])
    edit(record)
    lines[number - 1] = json.dumps(record)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("edit, problem", [
    (lambda r: r.update(extra=1), "not an inspection record (expected exactly the keys "
     "correlation, payload, record_type, run_id, schema_version, sequence, timestamp, "
     "trace_id)"),
    (lambda r: r.pop("trace_id"), "not an inspection record (expected exactly the keys "),
    (lambda r: r.update(run_id="other-run"), "a record of another run or schema version"),
    (lambda r: r.update(schema_version=1), "a record of another run or schema version"),
    (lambda r: r.update(sequence=3), "sequence 3 does not follow 3"),
    (lambda r: r.update(record_type="z" * 100), f"unknown record_type {'z' * 40!r}"),
], ids=["extra key", "missing key", "another run", "another version", "repeated sequence",
        "long unknown type"])
def test_a_record_out_of_place_in_the_run_names_its_line(edit, problem):
    artifact, _ = loop_run()
    with pytest.raises(TraceError) as e:
        import_inspection(with_line(artifact, 4, edit), "x")
    assert str(e.value).startswith(f"x: line 4: {problem}")


def test_blank_lines_between_records_are_skipped():
    artifact, events = loop_run()
    spaced = artifact.replace("\n", "\n\n  \n", 5)
    trace = import_inspection(spaced, "run.inspection.jsonl", events)
    assert dumps_trace(trace) == dumps_trace(imported())


def test_a_canonical_trace_cut_after_its_first_event_still_gives_the_model():
    artifact, events = loop_run()
    [started] = [line for line in events.splitlines() if '"run-started"' in line]
    assert events.startswith(started)
    trace = import_inspection(artifact, "run.inspection.jsonl", started)
    assert trace.agent.llm == "openrouter:test/model"
    assert [t.llm_ms for t in trace.turns] == [1000.0] * 4   # from the record times
    assert trace.outcome.status == "returned"


def test_a_stopped_call_without_a_duration_takes_it_from_the_record_times():
    artifact, events = loop_run()
    lines = [json.loads(line) for line in events.splitlines()]
    first_llm = next(e for e in lines if e["type"] == "capability-stopped"
                     and e["data"]["duration_ms"] == 1001)
    first_llm["data"]["duration_ms"] = None
    trace = import_inspection(artifact, "run.inspection.jsonl",
                              "\n".join(json.dumps(e) for e in lines))
    assert [t.llm_ms for t in trace.turns] == [1000, 1000.0, 1002, 1003]   # a second apart


@pytest.mark.parametrize("first_line", ["", "[1, 2]", "hello", "{\"record_type\": 1}"])
def test_a_first_line_that_is_no_inspection_record_is_no_inspection_artifact(first_line):
    artifact, _ = loop_run()
    assert is_inspection(artifact)
    assert not is_inspection(first_line + "\n" + artifact)


@pytest.mark.parametrize("field", ["payload", "correlation"])
def test_a_record_whose_payload_or_correlation_is_no_object_names_its_line(field):
    artifact, _ = loop_run()
    with pytest.raises(TraceError) as e:
        import_inspection(with_line(artifact, 4, lambda r: r.update({field: [1]})), "x")
    assert str(e.value) == "x: line 4: payload and correlation must be objects"


def test_a_connector_snapshot_that_is_no_object_is_passed_over_for_the_model():
    artifact, events = loop_run()
    lines = [json.loads(line) for line in events.splitlines()]
    started = next(e for e in lines if e["type"] == "run-started")
    started["data"]["connector_snapshots"].insert(0, "not a snapshot")
    trace = import_inspection(artifact, "run.inspection.jsonl",
                              "\n".join(json.dumps(e) for e in lines))
    assert trace.agent.llm == "openrouter:test/model"
