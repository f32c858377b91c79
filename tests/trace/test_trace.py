"""Saving and loading traces: round trips that re-render identically, and bad files."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from immutables import Map

from engine.agent import SubAgent
from engine.history import STRATEGIES, render_turns, type_of
from engine.lisp import Keyword, pr_str, run
from engine.lisp.values import Symbol, Var
from engine.llm import ScriptedLLM
from engine.trace import TraceError, dumps_trace, load_trace, loads_trace, save_trace
from engine.trace import decoding, files as trace_files
from engine.trace.model import MAX_COST_USD
from engine.trace.values import decode, encode


def code(program):
    return f"```clojure\n{program}\n```"


def inventory() -> list[dict]:
    """Stock levels."""
    return [{"name": "Laptop", "stock": 23}, {"name": "Mouse", "stock": 0}]


REPLIES = [
    code('(defn in-stock "items with stock; see inventory" [xs] (filter #(pos? (:stock %)) xs))\n'
         '(def inv (tool/inventory))\n(println "items:" (count inv))'),
    code("(def broken (undefined 1))"),
    "I need to think.",
    code('(def names (map :name (in-stock inv)))\n(def s #{:a "b"}) (def m {[1] 2.5 :nan ##NaN})'),
    code("(return {:names names :tilde \"~x\"})"),
]


@pytest.fixture(scope="module")
def session():
    agent = SubAgent("Which items are in stock?", tools={"inventory": inventory},
                     data={"limit": 3, "labels": [":x", "~y"]}, max_turns=6, name="stock",
                     description="Stock check")
    s = agent.start(ScriptedLLM(REPLIES, name="scripted:stock.json"))
    while not s.done:
        s.step()
    return s


def test_round_trip_keeps_every_turn_field(session, tmp_path):
    path = tmp_path / "run.json"
    save_trace(session.trace(created_at="2026-01-01T00:00:00+00:00"), path)
    loaded = load_trace(path)
    assert not (tmp_path / "run.json.tmp").exists()
    assert loaded.created_at == "2026-01-01T00:00:00+00:00"
    assert loaded.agent.llm == "scripted:stock.json" and loaded.agent.description == "Stock check"
    assert loaded.outcome.status == "returned"
    assert pr_str(loaded.outcome.return_value) == pr_str(session.result.return_value)
    for before, after in zip(session.turns, loaded.turns, strict=True):
        for field in ("number", "raw_response", "program", "signal", "prints", "definitions",
                      "messages", "usage", "error"):
            assert getattr(after, field) == getattr(before, field), field
        assert pr_str(after.result) == pr_str(before.result)
        assert [c.call_text() for c in after.tool_calls] == [c.call_text() for c in before.tool_calls]
        assert [pr_str(c.result) for c in after.tool_calls] == [pr_str(c.result) for c in before.tool_calls]
        assert {k: pr_str(v) for k, v in after.memory.items()} == \
            {k: pr_str(v) for k, v in before.memory.items()}


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("option", [{}, {"println_limit": 1, "tool_call_limit": 1,
                                         "sample_rule": "global", "errors": "unrecovered"}])
def test_DBG_003_save_load_rerender_is_identical(session, strategy, option):
    from engine.history import HistoryOpts
    opts = HistoryOpts(**option)
    loaded = loads_trace(dumps_trace(session.trace()))
    before = render_turns(strategy, session.turns, session.context, opts)
    after = render_turns(strategy, loaded.turns, loaded.context(), opts)
    assert [m for m, _ in after] == [m for m, _ in before]
    assert [s for _, s in after] == [s for _, s in before]


def test_rendering_full_from_a_loaded_trace_gives_the_messages_that_were_sent(session):
    loaded = loads_trace(dumps_trace(session.trace()))
    rendered = render_turns("full", loaded.turns, loaded.context())
    assert [tuple(m) for m, _ in rendered] == [t.messages for t in loaded.turns]


def test_functions_load_as_stubs_that_print_alike_and_cannot_be_called(session):
    loaded = loads_trace(dumps_trace(session.trace()))
    fn = loaded.turns[-1].memory["in-stock"]
    assert (type_of(fn), pr_str(fn)) == ("#fn[...]", "#fn[xs]")
    result = run("(in-stock [])", memory={"in-stock": fn})
    assert result.error.reason == "not_callable"


def test_each_distinct_message_is_stored_once(session):
    doc = json.loads(dumps_trace(session.trace()))
    contents = [(m["role"], m["content"]) for m in doc["messages"]]
    assert len(contents) == len(set(contents))
    sent_total = sum(len(t["sent"]) for t in doc["turns"])
    assert len(doc["messages"]) < sent_total          # the system prompt is shared, for one


def test_a_saved_mid_run_trace_says_running(session):
    agent = SubAgent("m", max_turns=3)
    s = agent.start(ScriptedLLM([code("(def a 1)")] * 3))
    s.step()
    loaded = loads_trace(dumps_trace(s.trace()))
    assert (loaded.outcome.status, len(loaded.turns)) == ("running", 1)


# --- values --------------------------------------------------------------------------------

VALUES = [None, True, 0, -7, 2**62, 1.5, -0.0, math.inf, -math.inf, "", "text", "~tilde",
          "~:not-a-keyword", Keyword("k"), Keyword("ns/k"), (), (1, (2, "x")),
          Map(), Map({Keyword("a"): 1, "b": (Keyword("c"),)}), Map({1: "one", (1, 2): None}),
          frozenset(), frozenset({1, Keyword("a"), "s"}), Map({Keyword("s"): frozenset({(1,)})})]


@pytest.mark.parametrize("value", VALUES, ids=[pr_str(v) or "empty" for v in VALUES])
def test_values_survive_json(value):
    back = decode(json.loads(json.dumps(encode(value))))
    assert pr_str(back) == pr_str(value) and type(back) is type(value)


def test_nan_survives_json():
    assert math.isnan(decode(json.loads(json.dumps(encode(math.nan)))))


ptc_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(max_size=8)
    | st.floats(allow_nan=False) | st.builds(Keyword, st.text("abc-?", min_size=1, max_size=4)),
    lambda inner: st.lists(inner, max_size=4).map(tuple)
    | st.dictionaries(st.text(max_size=4) | st.integers(0, 9), inner, max_size=4).map(Map)
    | st.frozensets(st.integers(0, 9) | st.text(max_size=3), max_size=4),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(ptc_values)
def test_any_data_value_survives_json(value):
    back = decode(json.loads(json.dumps(encode(value))))
    assert pr_str(back) == pr_str(value)


# --- bad files -----------------------------------------------------------------------------

def good_doc(session) -> dict:
    return json.loads(dumps_trace(session.trace()))


def write(tmp_path, content, name="t.json"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


def mutate(doc, path, value):
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


BAD_DOCS = [
    ("wrong format", ["format"], "other", 'not a ptc-tui trace'),
    ("newer version", ["version"], 2, "version 2 is newer than the version this ptc-tui reads (1)"),
    ("older version", ["version"], 0, "version 0 is older than"),
    ("missing turns", ["turns"], KeyError, "trace: missing field 'turns'"),
    ("mistyped print", ["turns", 0, "prints", 0], 5, "turns[0].prints[0]: expected a string"),
    ("mistyped mission", ["agent", "mission"], ["x"], "agent.mission: expected a string, got a list"),
    ("bad sent index", ["turns", 1, "sent", 0], 999, "turns[1].sent: 999 is not an index"),
    ("bad role", ["messages", 0, "role"], "wizard", "messages[0].role: unknown role 'wizard'"),
    ("unknown tag", ["turns", 0, "result"], "~?what", "turns[0].result: unknown tag"),
    ("malformed set", ["turns", 0, "result"], {"~set": 3}, "turns[0].result: malformed '~set'"),
    ("malformed regex", ["turns", 0, "result"], {"~regex": 3},
     "turns[0].result: malformed '~regex'"),
    ("bad history option", ["agent", "history", "println_limit"], -1,
     "agent.history: println_limit must be a whole number"),
    ("numbers out of order", ["turns", 0, "number"], 4, "turns[0].number: expected 1, got 4"),
    ("bad span", ["turns", 1, "error", "span"], [1, 2], "turns[1].error.span"),
    ("bool as int", ["agent", "max_turns"], True, "agent.max_turns: expected an integer"),
    ("long unknown status", ["outcome", "status"], "finished" * 5,
     "outcome.status: unknown status 'finishedfinishedfini'"),
]


@pytest.mark.parametrize("path, value, message", [c[1:] for c in BAD_DOCS],
                         ids=[c[0] for c in BAD_DOCS])
def test_a_broken_trace_gives_one_error_naming_file_and_problem(session, tmp_path, path, value,
                                                               message):
    file = write(tmp_path, json.dumps(mutate(good_doc(session), path, value)))
    with pytest.raises(TraceError) as e:
        load_trace(file)
    assert str(e.value).startswith(f"{file}: ") and message in str(e.value)


def test_optional_fields_may_be_absent(session, tmp_path):
    # Timings, usage and the volatile top-level fields are optional: a hand-written or older
    # trace without them loads, with zero timings and no usage.
    doc = good_doc(session)
    for key in ("engine_version", "created_at"):
        del doc[key]
    for key in ("name", "description", "llm_settings"):
        doc["agent"].pop(key, None)
    for turn in doc["turns"]:
        for key in ("llm_ms", "run_ms", "usage"):
            turn.pop(key)
        for call in turn["tool_calls"]:
            del call["duration_ms"]
    loaded = load_trace(write(tmp_path, json.dumps(doc)))
    assert [(t.llm_ms, t.run_ms, t.usage) for t in loaded.turns] == [(0.0, 0.0, None)] * 5
    assert all(c.duration_ms == 0.0 for t in loaded.turns for c in t.tool_calls)
    assert loaded.engine_version == "" and loaded.created_at == ""
    assert (loaded.agent.name, loaded.agent.description, loaded.agent.llm_settings) == (
        "agent", "", {})


@pytest.mark.parametrize("content, message", [
    ("", "the file is empty"),
    (" \n", "the file is empty"),
    ('{"format": "ptc-trace", "version": 1, "agent": {"name": "cut here',
     "ends in the middle of the JSON"),
    ('{"format": "ptc-trace", "version": 1, "turns": [', "ends in the middle of the JSON"),
    ("{'single': 'quotes'}", "not valid JSON at line 1, column 2"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("1" * 5000, "the document: a 5,000-digit integer is out of range"),
    (b"\xff\xfe{}", "not UTF-8 text"),
    ("[1, 2]", "not a ptc-tui trace"),
], ids=["empty", "blank", "truncated in a string", "truncated", "not json", "deep json", "huge integer", "not utf-8", "a list"])
def test_files_that_are_not_traces(tmp_path, content, message):
    file = write(tmp_path, content)
    with pytest.raises(TraceError, match=message):
        load_trace(file)


def test_deeply_nested_values_are_refused_not_crashed(session, tmp_path):
    deep = 0
    for _ in range(300):
        deep = [deep]
    doc = mutate(good_doc(session), ["turns", 0, "result"], deep)
    with pytest.raises(TraceError, match="turns\\[0\\].result: nested deeper than 200 levels"):
        load_trace(write(tmp_path, json.dumps(doc)))


def test_a_missing_file(tmp_path):
    with pytest.raises(TraceError, match="cannot read the file: No such file"):
        load_trace(tmp_path / "nope.json")


def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(trace_files, "MAX_FILE_BYTES", 10)
    with pytest.raises(TraceError, match="larger than the 10-byte limit"):
        load_trace(write(tmp_path, "[" + " " * 20 + "]"))


def test_a_value_that_shares_structure_is_saved_as_a_marker_not_expanded():
    r = run("(def v (reduce (fn [acc _] [acc acc]) [1] (range 40)))")
    encoded = encode(r.memory["v"])
    assert list(encoded) == ["~too-large"]


def test_a_value_of_up_to_five_million_items_is_saved_whole_and_one_more_is_a_marker():
    row = tuple(range(999))                       # 1,000 items with the row itself
    whole = (row,) * 4999 + (0,) * 999            # 1 + 4,999,000 + 999 items, rows shared
    encoded = encode(whole)
    assert len(encoded) == 5998 and encoded[4998] == list(row)
    assert encode((*whole, 0)) == {"~too-large": "a value of more than 5000000 items"}


NESTING = {"vector": lambda x: (x,), "map": lambda x: Map({"k": x}),
           "map-with-other-keys": lambda x: Map({1: x})}


@pytest.mark.parametrize("kind", NESTING)
def test_a_value_nested_past_200_levels_is_saved_cut_there_and_loads_back(kind):
    def nested(levels):
        value = 0
        for _ in range(levels):
            value = NESTING[kind](value)
        return value

    def inner(value):
        return value[0] if type(value) is tuple else next(iter(value.values()))
    assert decode(json.loads(json.dumps(encode(nested(200))))) == nested(200)
    back = decode(json.loads(json.dumps(encode(nested(250)))))      # loads: no error
    for _ in range(200):
        back = inner(back)
    assert back == "too-deep ..."


def test_regexes_vars_and_symbols_are_saved_as_their_text():
    r = run('(def r #"a+") (def v #\'r) (def s (symbol "x"))')
    back = {name: decode(json.loads(json.dumps(encode(value))))
            for name, value in r.memory.items()}
    assert back == {"r": "a+", "v": Var("r"), "s": Symbol("x")}


def test_a_value_of_no_type_the_format_knows_is_saved_as_its_printed_text():
    # a safety net: nothing the engine makes gets here, and a value is never written as null
    assert decode(json.loads(json.dumps(encode(object())))) == "text #<value>"


def test_a_pinned_trace_has_its_volatile_fields_fixed_and_nothing_else_changed(session):
    trace = session.trace(created_at="2026-01-01T00:00:00+00:00")
    pinned = trace.pinned()
    assert pinned.engine_version == "" and trace.engine_version != ""
    assert all(t.llm_ms == t.run_ms == 0.0 for t in pinned.turns)
    assert all(c.duration_ms == 0.0 for t in pinned.turns for c in t.tool_calls)
    assert [c.name for t in pinned.turns for c in t.tool_calls] == ["inventory"]
    assert ([t.raw_response for t in pinned.turns] == [t.raw_response for t in trace.turns]
            == REPLIES)
    assert (pinned.created_at, pinned.agent, pinned.outcome) == (trace.created_at, trace.agent,
                                                                 trace.outcome)


@pytest.mark.parametrize("field, limit", [(["llm_ms"], decoding.MAX_MS),
                                          (["usage", "cost_usd"], MAX_COST_USD)])
def test_times_and_costs_load_up_to_their_limit_and_no_further(session, tmp_path, field, limit):
    doc = good_doc(session)
    doc["turns"][0]["usage"] = {"input_tokens": 10}
    loaded = load_trace(write(tmp_path, json.dumps(mutate(doc, ["turns", 0, *field], limit))))
    turn = loaded.turns[0]
    assert (turn.llm_ms if field == ["llm_ms"] else turn.usage.cost_usd) == limit
    with pytest.raises(TraceError, match=f"turns\\[0\\].{'.'.join(field)}: .* is out of range"):
        load_trace(write(tmp_path, json.dumps(mutate(doc, ["turns", 0, *field], limit * 1.01))))


def test_a_saved_trace_keeps_text_beyond_ascii_as_it_is(session, tmp_path):
    doc = mutate(good_doc(session), ["turns", 0, "prints", 0], "café ✓ 漢字")
    text = dumps_trace(load_trace(write(tmp_path, json.dumps(doc))))
    assert '"café ✓ 漢字"' in text


def test_a_name_a_later_turn_redefines_loads_with_its_new_value(tmp_path):
    replies = [code("(def a 1) (def b [1 2])"), code("(def a 2)"), code("(return a)")]
    s = SubAgent("Count.", max_turns=3).start(ScriptedLLM(replies))
    while not s.done:
        s.step()
    path = tmp_path / "run.json"
    save_trace(s.trace(), path)
    loaded = load_trace(path)
    assert [dict(t.memory) for t in loaded.turns[:2]] == [{"a": 1, "b": (1, 2)},
                                                         {"a": 2, "b": (1, 2)}]
    changes = [t["memory_changes"] for t in json.loads(path.read_text())["turns"]]
    assert changes[:2] == [{"a": 1, "b": [1, 2]}, {"a": 2}]      # unchanged b not written again


def test_a_json_error_after_text_past_ascii_names_its_column_as_written(tmp_path):
    """Read with its characters past ASCII as escapes (a sixth of the memory), a broken file is
    still reported at its place in the file, and through both ways of opening it."""
    from engine.agent.open_trace import open_trace
    from engine.trace.disk import read_json_text
    content = '{"pad": "' + "x" * 5000 + '", "agent": "caf\u00e9 \U0001f680", oops}'
    file = write(tmp_path, content)
    assert read_json_text(file, 1 << 20).isascii()          # read with escapes
    column = content.index("oops") + 1
    for opener in (load_trace, open_trace):
        with pytest.raises(TraceError, match=f"not valid JSON at line 1, column {column}: "):
            opener(file)


def test_a_trace_with_emoji_and_accents_loads_the_same_as_saved(session, tmp_path):
    from engine.trace.disk import read_json_text
    text = "caf\u00e9 \u2014 \U0001f680 \u26a0\ufe0f " + "and so on " * 3000
    doc = mutate(good_doc(session), ["agent", "description"], text)
    file = write(tmp_path, json.dumps(doc, ensure_ascii=False))
    assert read_json_text(file, 1 << 20).isascii()          # read with escapes
    assert load_trace(file).agent.description == text
