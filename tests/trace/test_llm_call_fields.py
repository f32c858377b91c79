"""The LLM call's own record on a turn: usage kinds and the response's model, id and finish.

An agent that reports them keeps them through a save and an OTLP round trip; traces written
before them load with none; a finish reason outside the OpenTelemetry values is refused.
"""

import json

import pytest

from engine.agent import SubAgent
from engine.history import Response, Usage
from engine.llm import Completion
from engine.trace import TraceError, dumps_trace, loads_trace
from engine.trace.otel import dumps_otlp, loads_otlp

REPLY = "Done.\n```clojure\n(return 42)\n```"


def reporting_llm(messages):
    return Completion(REPLY, input_tokens=1200, output_tokens=300, cached_tokens=1024,
                      cache_write_tokens=64, reasoning_tokens=250, model="gpt-5-2025-08-07",
                      response_id="chatcmpl-abc", finish_reason="stop",
                      provider_finish_reason="stop")


def recorded_trace():
    session = SubAgent("Answer.", max_turns=2).start(reporting_llm)
    session.step()
    return session.trace(created_at="2026-01-01T00:00:00+00:00")


def test_a_turn_records_what_the_provider_reported():
    turn = recorded_trace().turns[0]
    assert turn.usage == Usage(1200, 300, 1024, 64, 250)
    assert turn.response == Response("gpt-5-2025-08-07", "chatcmpl-abc", "stop", "stop")


def test_the_fields_survive_a_save_and_an_otlp_round_trip():
    trace = recorded_trace()
    for loaded in (loads_trace(dumps_trace(trace)), loads_otlp(dumps_otlp(trace))):
        assert loaded.turns[0].usage == trace.turns[0].usage
        assert loaded.turns[0].response == trace.turns[0].response


def test_a_reply_without_a_report_writes_no_new_fields():
    session = SubAgent("Answer.", max_turns=2).start(lambda messages: REPLY)
    session.step()
    turn = json.loads(dumps_trace(session.trace()))["turns"][0]
    assert "response" not in turn
    assert set(turn["usage"]) == {"input_tokens", "output_tokens", "cached_tokens"}


def test_a_trace_written_before_the_fields_loads_with_none():
    doc = json.loads(dumps_trace(recorded_trace()))
    del doc["turns"][0]["response"]
    doc["turns"][0]["usage"] = {"input_tokens": 5, "output_tokens": 6, "cached_tokens": None}
    turn = loads_trace(json.dumps(doc)).turns[0]
    assert turn.response is None
    assert turn.usage == Usage(5, 6, None, None, None)


@pytest.mark.parametrize("field, value, message", [
    ("finish_reason", "max_tokens", "turns[0].response.finish_reason"),
    ("id", 7, "turns[0].response.id"),
])
def test_a_bad_response_field_is_refused_naming_it(field, value, message):
    doc = json.loads(dumps_trace(recorded_trace()))
    doc["turns"][0]["response"][field] = value
    with pytest.raises(TraceError, match=message.replace("[", r"\[").replace("]", r"\]")):
        loads_trace(json.dumps(doc))


def test_llm_settings_survive_a_save_and_an_otlp_round_trip_and_are_absent_when_there_are_none():
    settings = {"base_url": "http://127.0.0.1:8000/v1", "temperature": 0.2, "prompt_cache": False}

    def configured_llm(messages):
        return REPLY
    configured_llm.settings = settings
    session = SubAgent("Answer.", max_turns=2).start(configured_llm)
    session.step()
    for loaded in (loads_trace(dumps_trace(session.trace())), loads_otlp(dumps_otlp(session.trace()))):
        assert loaded.agent.llm_settings == settings
    plain = json.loads(dumps_trace(recorded_trace()))
    assert "llm_settings" not in plain["agent"]
    assert loads_trace(json.dumps(plain)).agent.llm_settings == {}


def test_a_mistyped_llm_setting_is_refused_by_its_path():
    doc = json.loads(dumps_trace(recorded_trace()))
    doc["agent"]["llm_settings"] = {"temperature": [0.2]}
    with pytest.raises(TraceError, match=r"agent\.llm_settings\.temperature: expected a string"):
        loads_trace(json.dumps(doc))


def test_a_reported_cost_survives_a_save_and_an_otlp_round_trip():
    trace = recorded_trace()
    turn = trace.turns[0]
    trace = type(trace)(trace.agent, (type(turn)(**{**turn.__dict__, "usage": Usage(
        1200, 300, 1024, 64, 250, cost_usd=0.0123)}),), trace.outcome)
    for loaded in (loads_trace(dumps_trace(trace)), loads_otlp(dumps_otlp(trace))):
        assert loaded.turns[0].usage.cost_usd == 0.0123


@pytest.mark.parametrize("value, message", [(-1, "out of range"), ("0.1", "got a string")])
def test_a_bad_reported_cost_is_refused_naming_it(value, message):
    doc = json.loads(dumps_trace(recorded_trace()))
    doc["turns"][0]["usage"]["cost_usd"] = value
    with pytest.raises(TraceError, match=r"turns\[0\]\.usage\.cost_usd.*" + message):
        loads_trace(json.dumps(doc))
