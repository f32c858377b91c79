"""OpenTelemetry export and import: valid OTLP, the GenAI span tree, lossless round trips."""

import base64
import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest
from google.protobuf.json_format import ParseError, Parse
from opentelemetry.proto.trace.v1.trace_pb2 import TracesData

from engine.agent import SubAgent
from engine.history import Response, Usage
from engine.llm import Completion, ScriptedLLM
from engine.trace import TraceError, dumps_trace, load_trace, loads_trace
from engine.trace.otel import dumps_otlp, from_otlp, llm_provider_model, loads_otlp, to_otlp
from sample_traces import agent_paths, trace_path

CREATED = "2026-01-01T00:00:00+00:00"


def code(program):
    return f"```clojure\n{program}\n```"


def inventory() -> list[dict]:
    """Stock levels."""
    return [{"name": "Laptop", "stock": 23}, {"name": "Mouse", "stock": 0}]


def price(name: str) -> float:
    """Price of a product."""
    if name == "Ghost":
        raise ValueError("no such product")
    return {"Laptop": 1200.0, "Mouse": 25.5}[name]


REPLIES = [
    code('(def inv (tool/inventory))\n(println "items:" (count inv))\n(println "done")'),
    code("(def broken (undefined 1))"),
    "I need to think.",
    code('(def p (tool/price "Laptop"))\n(def q (tool/price "Mouse"))\n'
         '(def g (tool/price "Ghost"))'),
    code('(def p (tool/price "Laptop"))\n(def s #{:a "~b"})'),
    code("(return {:names (map :name inv) :p p})"),
]


def run_agent(replies, max_turns=8, llm_name="openai:gpt-4o-mini", steps=None, **options):
    agent = SubAgent("Which items are in stock, at what price?",
                     tools={"inventory": inventory, "price": price},
                     data={"limit": 3}, max_turns=max_turns, name="stock",
                     description="Stock check", **options)
    s = agent.start(ScriptedLLM(replies, name=llm_name))
    while not s.done and (steps is None or len(s.turns) < steps):
        s.step()
    return s.trace(created_at=CREATED)


@pytest.fixture(scope="module")
def trace():
    return run_agent(REPLIES)


def with_usage(trace):
    """The trace with provider-reported usage on its turns (ScriptedLLM reports none)."""
    usages = [Usage(100 + i, 20 + i, None if i % 2 else 50) for i in range(len(trace.turns))]
    return replace(trace, turns=tuple(replace(t, usage=u) for t, u in zip(trace.turns, usages)))


def traces():
    """Runs of every kind: returned, failed, out of turns, saved mid-run, compressed."""
    return {
        "returned": run_agent(REPLIES),
        "failed": run_agent([code('(fail "nothing in stock")')]),
        "out-of-turns": run_agent([code("(def a 1)")] * 2, max_turns=2),
        "running": run_agent([code("(def a (tool/inventory))")] * 3, steps=1),
        "coalesced": run_agent(REPLIES, compress_history=True),
        "usage": with_usage(run_agent(REPLIES, llm_name="anthropic:claude-sonnet-4-5")),
        "no-created-at": replace(run_agent(REPLIES), created_at=""),
    }


TRACES = traces()


def samples():
    paths = [trace_path(p) for p in agent_paths()]
    return [pytest.param(p, id=p.stem) for p in paths]


def sample(path):
    if not path.exists():
        pytest.skip(f"{path.name} is not recorded yet")
    return load_trace(path)


def spans(doc) -> list[dict]:
    [rs] = doc["resourceSpans"]
    [ss] = rs["scopeSpans"]
    return ss["spans"]


def attrs(span) -> dict:
    out = {}
    for kv in span["attributes"]:
        (kind, value), = kv["value"].items()
        if kind == "intValue":
            value = int(value)
        elif kind == "arrayValue":
            value = [v["stringValue"] for v in value.get("values", [])]
        out[kv["key"]] = value
    return out


def op(span) -> str:
    """The span's operation: a GenAI one, or ours (`execute_program`)."""
    a = attrs(span)
    return a.get("gen_ai.operation.name") or a["ptc.operation.name"]


def program_of(all_spans, chat) -> dict | None:
    """The execute_program span of `chat`'s turn (None: no program ran)."""
    number = attrs(chat)["ptc.turn.number"]
    return next((s for s in all_spans if op(s) == "execute_program"
                 and attrs(s)["ptc.turn.number"] == number), None)


# --- the OTLP schema -----------------------------------------------------------------------

def as_protobuf_json(doc) -> str:
    """OTLP/JSON writes ids as hex; protobuf's own JSON mapping reads bytes as base64."""
    doc = copy.deepcopy(doc)
    for span in spans(doc):
        for key in ("traceId", "spanId", "parentSpanId"):
            if key in span:
                span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json.dumps(doc)


@pytest.mark.parametrize("name", sorted(TRACES))
def test_the_export_is_valid_otlp_traces_data(name):
    text = dumps_otlp(TRACES[name])
    Parse(text, TracesData())                       # strict: an unknown field fails
    data = Parse(as_protobuf_json(json.loads(text)), TracesData())
    [rs] = data.resource_spans
    resource = {a.key: a.value.string_value for a in rs.resource.attributes}
    assert resource["service.name"] == "ptc-tui"
    [ss] = rs.scope_spans
    assert ss.scope.name == "ptc-tui"
    for span in ss.spans:
        assert (len(span.trace_id), len(span.span_id)) == (16, 8)
        assert span.end_time_unix_nano >= span.start_time_unix_nano > 0 or name == "no-created-at"


@pytest.mark.parametrize("path", samples())
def test_every_sample_trace_exports_valid_otlp(path):
    text = dumps_otlp(sample(path))
    Parse(text, TracesData())
    assert len(Parse(as_protobuf_json(json.loads(text)), TracesData())
               .resource_spans[0].scope_spans[0].spans) > 1


def test_the_strict_parse_would_catch_a_misspelt_field(trace):
    doc = to_otlp(trace)
    spans(doc)[0]["start_time"] = spans(doc)[0].pop("startTimeUnixNano")
    with pytest.raises(ParseError):
        Parse(json.dumps(doc), TracesData())


def test_ids_are_lowercase_hex_of_the_right_length_never_zero_and_distinct(trace):
    all_spans = spans(to_otlp(trace))
    assert len({s["traceId"] for s in all_spans}) == 1
    trace_id = all_spans[0]["traceId"]
    assert len(trace_id) == 32 and int(trace_id, 16) and trace_id == trace_id.lower()
    ids = [s["spanId"] for s in all_spans]
    assert all(len(i) == 16 and int(i, 16) and i == i.lower() for i in ids)
    assert len(set(ids)) == len(ids)


# --- the span tree -------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(TRACES))
def test_one_invoke_agent_root_a_chat_and_a_program_span_per_turn_a_tool_span_per_call(name):
    t = TRACES[name]
    all_spans = spans(to_otlp(t))
    roots = [s for s in all_spans if "parentSpanId" not in s]
    assert [op(s) for s in roots] == ["invoke_agent"]
    root = roots[0]
    chats = [s for s in all_spans if op(s) == "chat"]
    assert [attrs(s)["ptc.turn.number"] for s in chats] == [turn.number for turn in t.turns]
    assert all(s["parentSpanId"] == root["spanId"] for s in chats)
    ran = 0
    for chat, turn in zip(chats, t.turns):
        assert [s for s in all_spans if s.get("parentSpanId") == chat["spanId"]] == []
        program = program_of(all_spans, chat)
        if turn.program is None:                     # no code: nothing ran, no program span
            assert program is None
            continue
        ran += 1
        assert program["name"] == "execute_program" and program["parentSpanId"] == root["spanId"]
        assert attrs(program)["ptc.program"] == turn.program
        tools = [s for s in all_spans if s.get("parentSpanId") == program["spanId"]]
        assert [op(s) for s in tools] == ["execute_tool"] * len(turn.tool_calls)
        assert [attrs(s)["gen_ai.tool.name"] for s in tools] == [c.name for c in turn.tool_calls]
    assert len(all_spans) == 1 + len(t.turns) + ran + sum(len(u.tool_calls) for u in t.turns)


@pytest.mark.parametrize("name", sorted(TRACES))
def test_every_span_of_a_run_carries_the_same_conversation_id(name):
    all_spans = spans(to_otlp(TRACES[name]))
    ids = {attrs(s).get("gen_ai.conversation.id") for s in all_spans}
    assert len(ids) == 1 and None not in ids
    assert ids == {all_spans[0]["traceId"]}                 # derived from the trace itself


def test_gen_ai_attributes(trace):
    all_spans = spans(to_otlp(trace))
    root, chats = all_spans[0], [s for s in all_spans if op(s) == "chat"]
    assert root["name"] == "invoke_agent stock" and root["kind"] == 1
    a = attrs(root)
    assert (a["gen_ai.agent.name"], a["gen_ai.agent.description"]) == ("stock", "Stock check")
    assert (a["gen_ai.provider.name"], a["gen_ai.request.model"]) == ("openai", "gpt-4o-mini")
    assert (a["ptc.outcome.status"], a["ptc.strategy"], a["ptc.max_turns"]) == \
        ("returned", "full", 8)
    assert a["ptc.history.println_limit"] == 15 and "ptc.history.compaction_tokens" not in a
    assert "status" not in root

    first = chats[0]
    assert first["name"] == "chat gpt-4o-mini" and first["kind"] == 3
    c = attrs(first)
    assert (c["gen_ai.provider.name"], c["gen_ai.request.model"]) == ("openai", "gpt-4o-mini")
    assert "gen_ai.usage.input_tokens" not in c            # the scripted LLM reports none
    assert "gen_ai.response.finish_reasons" not in c and "gen_ai.response.model" not in c
    sent = json.loads(c["gen_ai.input.messages"])
    assert [m["role"] for m in sent] == [m["role"] for m in trace.turns[0].messages]
    assert sent[0]["parts"] == [{"type": "text", "content": trace.turns[0].messages[0]["content"]}]
    # no finish_reason claimed: a scripted reply's end was never reported
    assert json.loads(c["gen_ai.output.messages"]) == [
        {"role": "assistant", "parts": [{"type": "text", "content": REPLIES[0]}]}]
    program = program_of(all_spans, first)
    assert program["kind"] == 1
    p = attrs(program)
    assert p["ptc.prints"] == ["items: 2", "done"]
    assert p["ptc.program"].startswith("(def inv (tool/inventory))")

    tool = next(s for s in all_spans if op(s) == "execute_tool")
    assert tool["name"] == "execute_tool inventory" and tool["parentSpanId"] == program["spanId"]
    t = attrs(tool)
    assert t["gen_ai.tool.description"] == "Stock levels."
    assert json.loads(t["gen_ai.tool.call.arguments"]) == []
    assert json.loads(t["gen_ai.tool.call.result"]) == [{"name": "Laptop", "stock": 23},
                                                       {"name": "Mouse", "stock": 0}]


def test_errors_are_marked_on_turns_tool_calls_and_failed_runs(trace):
    all_spans = spans(to_otlp(trace))
    # a program that failed: its run's span, not the LLM call's, has the error
    broken_chat = next(s for s in all_spans if op(s) == "chat" and attrs(s)["ptc.turn.number"] == 2)
    broken = program_of(all_spans, broken_chat)
    assert "status" not in broken_chat and "error.type" not in attrs(broken_chat)
    a = attrs(broken)
    assert broken["status"]["code"] == 2
    assert a["error.type"] == a["ptc.error.reason"] == trace.turns[1].error.reason
    assert a["ptc.error.message"] == trace.turns[1].error.message
    # a reply without code: the LLM call's span has it, and nothing ran
    no_code = next(s for s in all_spans if op(s) == "chat" and attrs(s)["ptc.turn.number"] == 3)
    assert no_code["status"]["code"] == 2 and attrs(no_code)["error.type"] == "no_code"
    assert program_of(all_spans, no_code) is None
    ghost = [s for s in all_spans if op(s) == "execute_tool"
             and json.loads(attrs(s)["gen_ai.tool.call.arguments"]) == ["Ghost"]]
    assert len(ghost) == 1 and ghost[0]["status"]["code"] == 2
    assert attrs(ghost[0])["error.type"] == "tool_error"
    assert "gen_ai.tool.call.result" not in attrs(ghost[0])

    failed = spans(to_otlp(TRACES["failed"]))[0]
    f = attrs(failed)
    assert (f["ptc.outcome.status"], f["error.type"], f["ptc.outcome.fail.reason"]) == \
        ("failed", "failed", "failed")
    assert failed["status"]["code"] == 2 and "nothing in stock" in f["ptc.outcome.return_value"]
    assert attrs(spans(to_otlp(TRACES["out-of-turns"]))[0])["ptc.outcome.fail.reason"] == \
        "max_turns_exceeded"


def test_usage_tokens_when_the_provider_reported_them():
    t = TRACES["usage"]
    chats = [attrs(s) for s in spans(to_otlp(t)) if op(s) == "chat"]
    assert chats[0]["gen_ai.provider.name"] == "anthropic"
    assert (chats[0]["gen_ai.usage.input_tokens"], chats[0]["gen_ai.usage.output_tokens"],
            chats[0]["gen_ai.usage.cache_read.input_tokens"]) == (100, 20, 50)
    assert "gen_ai.usage.cache_read.input_tokens" not in chats[1]


def test_token_counts_backends_read_are_the_providers_else_ours_marked_counted():
    t = TRACES["usage"]
    asked = []

    def counted(turn):                       # our count: asked only where none was reported
        asked.append(turn.number)
        return 1000 + turn.number, 7

    mixed = replace(t.turns[1], usage=Usage(321, None, None))
    t = replace(t, turns=(t.turns[0], mixed, *t.turns[2:]))
    chats = [attrs(s) for s in spans(to_otlp(t, counted)) if op(s) == "chat"]
    reported, half = chats[0], chats[1]
    assert (reported["llm.token_count.prompt"], reported["llm.token_count.completion"],
            reported["llm.token_count.total"]) == (100, 20, 120)
    assert reported["llm.token_count.prompt_details.cache_read"] == 50
    assert reported["ptc.token_count.counted"] is False
    assert (half["llm.token_count.prompt"], half["llm.token_count.completion"]) == (321, 7)
    assert half["ptc.token_count.counted"] is True and "gen_ai.usage.output_tokens" not in half
    assert asked == [2]
    assert not any(k.startswith("llm.token_count") for k in attrs(
        [s for s in spans(to_otlp(t)) if op(s) == "chat"][0]))     # no count asked: none


def test_counted_tokens_fill_every_chat_span_of_a_run_without_usage(trace):
    chats = [attrs(s) for s in spans(to_otlp(trace, lambda turn: (len(turn.messages), 3)))
             if op(s) == "chat"]
    assert [c["llm.token_count.prompt"] for c in chats] == [len(t.messages) for t in trace.turns]
    assert all(c["ptc.token_count.counted"] is True and c["llm.token_count.total"] ==
               c["llm.token_count.prompt"] + 3 for c in chats)


@pytest.mark.parametrize("llm, expected", [
    ("openai:gpt-4o-mini", ("openai", "gpt-4o-mini")),
    ("openrouter:meta/llama:free", ("openrouter", "meta/llama:free")),
    ("scripted:replies.json", ("scripted", "replies.json")),
    ("ScriptedLLM", ("_OTHER", "ScriptedLLM")),
    ("", ("_OTHER", "")),
])
def test_provider_and_model_come_from_the_llm_spec(llm, expected):
    assert llm_provider_model(llm) == expected


def test_times_follow_the_turns_and_end_when_the_trace_was_saved(trace):
    timed = replace(trace, turns=tuple(replace(t, llm_ms=100.0 * t.number, run_ms=5.0)
                                       for t in trace.turns))
    all_spans = spans(to_otlp(timed))
    root, chats = all_spans[0], [s for s in all_spans if op(s) == "chat"]
    saved = 1767225600 * 10**9
    total = sum(100 * t.number + 5 for t in trace.turns) * 10**6
    assert (int(root["startTimeUnixNano"]), int(root["endTimeUnixNano"])) == (saved - total, saved)
    assert chats[0]["startTimeUnixNano"] == root["startTimeUnixNano"]

    def start(s):
        return int(s["startTimeUnixNano"])

    def end(s):
        return int(s["endTimeUnixNano"])

    ends = []
    for chat, turn in zip(chats, timed.turns):
        assert end(chat) - start(chat) == 100 * turn.number * 10**6      # the LLM call only
        program = program_of(all_spans, chat)
        if program is None:
            ends.append(end(chat) + 5 * 10**6)
            continue
        assert (start(program), end(program)) == (end(chat), end(chat) + 5 * 10**6)
        ends.append(end(program))
        for s in all_spans:
            if s.get("parentSpanId") == program["spanId"]:
                assert start(program) <= start(s) <= end(s) <= end(program)
    assert [start(c) for c in chats[1:]] == ends[:-1]          # turns follow one another
    assert ends[-1] == end(root)


def test_the_llm_call_as_the_provider_reported_it():
    base = run_agent(REPLIES[:1] + [code("(return 1)")])
    reported = (Response("gpt-4o-mini-2024-07-18", "chatcmpl-7", "length", "length"),
                Response(None, "msg_9", None, "pause_turn"))
    usages = (Usage(1200, 300, 1024, 64, 250), Usage(10, 2, None))
    t = replace(base, turns=tuple(replace(turn, response=r, usage=u)
                                  for turn, r, u in zip(base.turns, reported, usages)))
    first, second = [attrs(s) for s in spans(to_otlp(t)) if op(s) == "chat"]
    assert (first["gen_ai.response.model"], first["gen_ai.response.id"]) == \
        ("gpt-4o-mini-2024-07-18", "chatcmpl-7")
    assert first["gen_ai.response.finish_reasons"] == ["length"]
    assert (first["gen_ai.usage.input_tokens"], first["gen_ai.usage.output_tokens"],
            first["gen_ai.usage.cache_read.input_tokens"],
            first["gen_ai.usage.cache_creation.input_tokens"],
            first["gen_ai.usage.reasoning.output_tokens"]) == (1200, 300, 1024, 64, 250)
    assert json.loads(first["gen_ai.output.messages"])[0]["finish_reason"] == "length"
    # a word with no OpenTelemetry value is given as the provider said it
    assert second["gen_ai.response.finish_reasons"] == ["pause_turn"]
    assert second["ptc.response.provider_finish_reason"] == "pause_turn"
    assert "gen_ai.response.model" not in second
    assert "gen_ai.usage.cache_creation.input_tokens" not in second
    Parse(dumps_otlp(t), TracesData())
    assert dumps_trace(loads_otlp(dumps_otlp(t))) == dumps_trace(t)


# --- determinism and round trips -----------------------------------------------------------

@pytest.mark.parametrize("name", sorted(TRACES))
def test_the_same_trace_always_exports_the_same_bytes(name):
    t = TRACES[name]
    assert dumps_otlp(t) == dumps_otlp(t)
    assert dumps_otlp(loads_trace(dumps_trace(t))) == dumps_otlp(t)


def test_different_runs_get_different_trace_ids():
    ids = {spans(to_otlp(t))[0]["traceId"] for t in TRACES.values()}
    assert len(ids) == len(TRACES)


@pytest.mark.parametrize("name", sorted(TRACES))
def test_import_gives_back_the_same_trace(name):
    t = TRACES[name]
    back = loads_otlp(dumps_otlp(t), "run.otlp.json")
    assert dumps_trace(back) == dumps_trace(t)
    assert dumps_trace(from_otlp(to_otlp(t))) == dumps_trace(t)


@pytest.mark.parametrize("path", samples())
def test_every_sample_trace_survives_export_and_import(path):
    t = sample(path)
    assert dumps_trace(loads_otlp(dumps_otlp(t))) == dumps_trace(t)
    assert dumps_otlp(t) == dumps_otlp(t)


def test_import_ignores_span_order_and_other_spans(trace):
    doc = to_otlp(trace)
    ss = doc["resourceSpans"][0]["scopeSpans"][0]
    ss["spans"].reverse()
    ss["spans"].append({"traceId": "ab" * 16, "spanId": "cd" * 8, "name": "GET /",
                        "attributes": [{"key": "http.method", "value": {"stringValue": "GET"}}]})
    doc["resourceSpans"].insert(0, {"resource": {}, "scopeSpans": []})
    assert dumps_trace(from_otlp(doc)) == dumps_trace(trace)


def test_integers_written_as_json_numbers_are_read_too(trace):
    doc = to_otlp(trace)
    for span in spans(doc):
        for kv in span["attributes"]:
            if "intValue" in kv["value"]:
                kv["value"]["intValue"] = int(kv["value"]["intValue"])
    assert dumps_trace(from_otlp(doc)) == dumps_trace(trace)


# --- documents that are not ours -----------------------------------------------------------

def chat_span(doc, number):
    return next(s for s in spans(doc) if op(s) == "chat" and attrs(s)["ptc.turn.number"] == number)


def set_attr(span, key, value):
    for kv in span["attributes"]:
        if kv["key"] == key:
            if value is KeyError:
                span["attributes"].remove(kv)
            else:
                kv["value"] = value
            return
    raise AssertionError(key)


def drop_root(doc):
    set_attr(spans(doc)[0], "gen_ai.operation.name", {"stringValue": "chat"})


def second_root(doc):
    root = copy.deepcopy(spans(doc)[0])
    root["spanId"] = "1" * 16
    spans(doc).append(root)


def long_name_without_a_number(doc):
    chat = chat_span(doc, 2)
    chat["name"] = "chat " + "m" * 100
    set_attr(chat, "ptc.turn.number", KeyError)


BAD = [
    ("not an object", lambda d: [], 'expected an object with "resourceSpans"'),
    ("no resource spans", lambda d: {"resourceLogs": []},
     'expected an object with "resourceSpans"'),
    ("spans not a list", lambda d: d["resourceSpans"][0]["scopeSpans"][0].update(spans={}),
     "resourceSpans[0].scopeSpans[0].spans: expected a list"),
    ("bad attribute", lambda d: spans(d)[1]["attributes"].insert(0, {"key": 1}),
     "resourceSpans[0].scopeSpans[0].spans[1].attributes[0]: expected {key, value}"),
    ("no invoke_agent", drop_root, 'no span with "gen_ai.operation.name" = "invoke_agent"'),
    ("someone else's agent", lambda d: set_attr(spans(d)[0], "ptc.agent", KeyError),
     'the invoke_agent span has no "ptc.agent" attribute'),
    ("two runs", second_root, '2 invoke_agent spans with "ptc.agent"'),
    ("no format", lambda d: set_attr(spans(d)[0], "ptc.format", KeyError),
     'no "ptc.format" = "ptc-trace" attribute'),
    ("no version", lambda d: set_attr(spans(d)[0], "ptc.format.version", KeyError),
     'no integer "ptc.format.version"'),
    ("newer version", lambda d: set_attr(spans(d)[0], "ptc.format.version", {"intValue": "2"}),
     "trace format version 2 is newer than the version this ptc-tui reads (1)"),
    ("no messages", lambda d: set_attr(spans(d)[0], "ptc.messages", KeyError),
     'invoke_agent span has no "ptc.messages" attribute'),
    ("agent not JSON", lambda d: set_attr(spans(d)[0], "ptc.agent", {"stringValue": "{oops"}),
     'invoke_agent span: "ptc.agent" is not valid JSON'),
    ("agent as a number", lambda d: set_attr(spans(d)[0], "ptc.agent", {"intValue": "3"}),
     'invoke_agent span: "ptc.agent" is not a string'),
    ("bad agent field", lambda d: set_attr(spans(d)[0], "ptc.agent",
                                           {"stringValue": '{"mission": 1}'}),
     "agent: missing field 'tools'"),
    ("turn without its JSON", lambda d: set_attr(chat_span(d, 2), "ptc.turn", KeyError),
     "chat span 'chat gpt-4o-mini' has no \"ptc.turn\" attribute"),
    ("turn without a number", lambda d: set_attr(chat_span(d, 2), "ptc.turn.number", KeyError),
     'has no integer "ptc.turn.number" attribute'),
    ("a turn missing", lambda d: spans(d).remove(chat_span(d, 2)),
     "spans.json: no chat span holds turn 2 of 6 (--lenient imports what is there)"),
    ("the first turn missing", lambda d: spans(d).remove(chat_span(d, 1)),
     "spans.json: no chat span holds turn 1 of 6 (--lenient imports what is there)"),
    ("a long name cut short", long_name_without_a_number,
     f"chat span {'chat ' + 'm' * 55!r} has no integer \"ptc.turn.number\" attribute"),
    ("bad turn field", lambda d: set_attr(chat_span(d, 1), "ptc.turn",
                                          {"stringValue": '{"number": 1}'}),
     "turns[0]: missing field 'sent'"),
]


@pytest.mark.parametrize("mutate, message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_document_that_is_not_our_export_gives_one_clear_error(trace, mutate, message):
    doc = to_otlp(trace)
    replaced = mutate(doc)
    doc = doc if replaced is None else replaced
    with pytest.raises(TraceError) as e:
        loads_otlp(json.dumps(doc), "spans.json")
    assert str(e.value).startswith("spans.json: ") and message in str(e.value), str(e.value)
    with pytest.raises(TraceError):
        from_otlp(doc)


def test_the_not_ours_errors_say_so(trace):
    with pytest.raises(TraceError, match="^<otlp>: not an OTLP export of a ptc-tui trace: "):
        from_otlp({"resourceSpans": []})


@pytest.mark.parametrize("text, message", [
    ("", "the file is empty"),
    ("{'a': 1}", "not valid JSON at line 1, column 2"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_text_that_is_not_json_names_the_file(text, message):
    with pytest.raises(TraceError, match=f"^x.json: .*{message}"):
        loads_otlp(text, "x.json")


def test_a_trace_file_is_not_an_otlp_export(trace):
    with pytest.raises(TraceError, match='expected an object with "resourceSpans"'):
        loads_otlp(dumps_trace(trace), "run.json")


# --- exports written before the program span -----------------------------------------------

PREVIOUS_LAYOUT = Path(__file__).parent / "data" / "previous_layout.otlp.json"


def test_an_export_in_the_previous_layout_still_imports():
    """Written by the exporter before chat spans were cut to the LLM call: tool spans are
    children of their turn's chat span, and there is no execute_program span."""
    text = PREVIOUS_LAYOUT.read_text()
    old_spans = spans(json.loads(text))
    chats = {s["spanId"] for s in old_spans if op(s) == "chat"}
    assert [s["parentSpanId"] in chats for s in old_spans if op(s) == "execute_tool"] == [True]
    t = loads_otlp(text, PREVIOUS_LAYOUT.name)
    assert [turn.number for turn in t.turns] == [1, 2]
    assert [c.name for c in t.turns[0].tool_calls] == ["inventory"]
    assert t.turns[0].prints == ("items: 2", "done")
    assert (t.outcome.status, t.outcome.return_value) == ("returned", 2)
    assert [turn.llm_ms for turn in t.turns] == [120.0, 120.0]
    # and exported again, it takes the current layout
    again = spans(to_otlp(t))
    program = next(s for s in again if op(s) == "execute_program")
    assert [op(s) for s in again if s.get("parentSpanId") == program["spanId"]] == ["execute_tool"]


def test_a_truncated_reply_exports_as_a_failed_llm_call_with_no_program_run():
    cut = Completion(code("(return 1)") + "\nand then", finish_reason="length",
                     provider_finish_reason="max_tokens", model="claude-sonnet-4-5")
    session = SubAgent("Answer.", max_turns=2).start(lambda messages: cut)
    session.step()
    all_spans = spans(to_otlp(session.trace(created_at=CREATED)))
    [chat] = [s for s in all_spans if op(s) == "chat"]
    a = attrs(chat)
    assert a["gen_ai.response.finish_reasons"] == ["length"]
    assert a["ptc.response.provider_finish_reason"] == "max_tokens"
    assert a["error.type"] == "truncated" and chat["status"]["code"] == 2
    assert program_of(all_spans, chat) is None


def test_outcome_signal_cache_reads_and_text_are_exported_as_they_are():
    failed = attrs(spans(to_otlp(TRACES["failed"]))[0])
    message = TRACES["failed"].outcome.fail_message
    assert failed["ptc.outcome.fail.message"] == (message or "")
    assert isinstance(failed["ptc.outcome.fail.message"], str)
    t = run_agent([code('(def a 1)'), code('(return "café ✓")')])
    programs = [attrs(s) for s in spans(to_otlp(t)) if op(s) == "execute_program"]
    assert "ptc.signal" not in programs[0] and programs[1]["ptc.signal"] == t.turns[1].signal
    assert json.loads(programs[1]["ptc.result"]) == "café ✓"
    assert "café ✓" in programs[1]["ptc.result"]                  # not escaped as \\u00e9
    usage = TRACES["usage"]                                        # cache reads on even turns
    chats = [attrs(s) for s in spans(to_otlp(usage, lambda turn: (1, 1))) if op(s) == "chat"]
    assert chats[0]["llm.token_count.prompt_details.cache_read"] == 50
    assert "llm.token_count.prompt_details.cache_read" not in chats[1]


# --- edges: times, ids, gaps ---------------------------------------------------------------

@pytest.mark.parametrize("created, saved_ns", [
    ("2026-01-01T12:34:56.789012+02:00", (1767225600 + 10 * 3600 + 34 * 60 + 56) * 10**9
     + 789_012_000),
    ("2026-01-01T00:00:01.5", (1767225600 + 1) * 10**9 + 500_000_000),     # no offset: UTC
    ("", 0),                                      # unknown: OTLP's 0, the run from the epoch
    ("yesterday", 0),
])
def test_the_run_span_ends_when_the_trace_was_saved_to_the_nanosecond(trace, created, saved_ns):
    root = spans(to_otlp(replace(trace, created_at=created)))[0]
    total = int(root["endTimeUnixNano"]) - int(root["startTimeUnixNano"])
    if saved_ns:
        assert int(root["endTimeUnixNano"]) == saved_ns
    else:
        assert (int(root["startTimeUnixNano"]), int(root["endTimeUnixNano"])) == (0, total)


def test_ids_are_never_all_zeros_even_when_the_hash_is(trace, monkeypatch):
    class Zeros:
        def hexdigest(self):
            return "0" * 64

    monkeypatch.setattr("engine.trace.otel.hashlib.sha256", lambda data: Zeros())
    all_spans = spans(to_otlp(trace))
    assert {s["traceId"] for s in all_spans} == {"0" * 31 + "1"}
    assert {s["spanId"] for s in all_spans} == {"0" * 15 + "1"}


def test_a_lenient_import_renumbers_the_turns_after_a_missing_one(trace):
    doc = to_otlp(trace)
    spans(doc).remove(chat_span(doc, 2))
    warnings = []
    back = loads_otlp(json.dumps(doc), "spans.json", warn=warnings.append)
    assert warnings == ["no chat span holds turn 2 of 6"]
    assert [t.number for t in back.turns] == [1, 2, 3, 4, 5]
    assert [t.program for t in back.turns] == [trace.turns[0].program,
                                               *(t.program for t in trace.turns[2:])]


def test_a_foreign_span_id_is_cut_short_in_the_error(trace):
    doc = to_otlp(trace)
    spans(doc).append(dict(chat_span(doc, 2), spanId="e" * 100))
    with pytest.raises(TraceError) as e:
        loads_otlp(json.dumps(doc), "spans.json")
    assert f"(span {'e' * 16}) holds turn 2, as chat span" in str(e.value)


@pytest.mark.parametrize("created", ["", "1969-12-31T23:59:59+00:00"])
def test_a_timeless_run_saved_at_no_known_time_is_all_at_zero(trace, created):
    """No turn timings and no time after the epoch: every span at OTLP's 0 (unknown), none
    at a made-up time or a negative one."""
    timeless = replace(trace, created_at=created, turns=tuple(
        replace(t, llm_ms=0.0, run_ms=0.0,
                tool_calls=tuple(replace(c, duration_ms=0.0) for c in t.tool_calls))
        for t in trace.turns))
    times = {s[k] for s in spans(to_otlp(timeless))
             for k in ("startTimeUnixNano", "endTimeUnixNano")}
    assert times == {"0"}


def test_a_turn_that_is_not_an_object_is_an_error_even_when_renumbered(trace):
    doc = to_otlp(trace)
    spans(doc).remove(chat_span(doc, 2))
    set_attr(chat_span(doc, 3), "ptc.turn", {"stringValue": "[3]"})
    with pytest.raises(TraceError, match=r"^spans.json: turns\[1\]"):
        loads_otlp(json.dumps(doc), "spans.json", warn=lambda line: None)
