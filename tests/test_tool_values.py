"""Tools as values: `(map tool/get-order ids)` calls the tool exactly as `(tool/get-order id)`
would, so recording, limits, argument conversion and error reasons are the same."""

import json

from engine.agent import SubAgent
from engine.lisp import pr_str, run
from engine.lisp.values import ToolValue
from engine.llm import ScriptedLLM
from engine.trace.files import dumps_trace, loads_trace
from engine.trace.values import decode, encode


def get_order(order_id: int):
    return {"id": order_id, "total": order_id * 10}


def search(query: str, limit: int = 3):
    return [f"{query}-{i}" for i in range(limit)]


TOOLS = {"get-order": get_order, "search": search}


def test_every_call_through_a_tool_value_is_recorded_like_a_direct_call():
    via_value = run("(map tool/get-order [1 2 3])", tools=TOOLS)
    direct = run("[(tool/get-order 1) (tool/get-order 2) (tool/get-order 3)]", tools=TOOLS)
    assert pr_str(via_value.value) == pr_str(direct.value)
    assert [(c.name, c.args, c.result) for c in via_value.tool_calls] == \
        [(c.name, c.args, c.result) for c in direct.tool_calls]
    assert len(via_value.tool_calls) == 3


def test_the_tool_call_limit_counts_calls_through_a_tool_value():
    r = run("(map tool/get-order [1 2 3])", tools=TOOLS, limits={"tool_calls": 2})
    assert r.error.reason == "tool_limit_exceeded"
    assert len(r.tool_calls) == 2


def test_keyword_arguments_through_a_tool_value_become_named_parameters():
    r = run("(let [f tool/search] (f :query \"a\" :limit 1))", tools=TOOLS)
    assert r.value == ("a-0",)
    assert r.tool_calls[0].args[0].name == "query"


def test_an_unknown_tool_as_a_value_is_the_same_error_as_calling_it():
    as_value = run("(map tool/get-ordr [])", tools=TOOLS)
    as_call = run("(tool/get-ordr 1)", tools=TOOLS)
    assert as_value.error.reason == as_call.error.reason == "unknown_tool"
    assert as_value.error.message == as_call.error.message


def test_a_failing_tool_reports_tool_error_and_is_recorded():
    def broken(x):
        raise ValueError("backend down")
    r = run("(mapv tool/broken [1])", tools={"broken": broken})
    assert r.error.reason == "tool_error" and "backend down" in r.error.message
    assert r.tool_calls[0].error == "ValueError: backend down"


def test_a_tool_value_prints_with_its_name():
    r = run("[tool/get-order (str tool/search)]", tools=TOOLS)
    assert pr_str(r.value) == '[#tool[get-order] "#tool[search]"]'


def test_a_tool_kept_in_memory_calls_the_tool_of_that_name_in_a_later_run():
    first = run("(def fetch tool/get-order)", tools=TOOLS)
    later = run("(:total (fetch 4))", tools=TOOLS, memory=first.memory)
    assert later.value == 40 and later.tool_calls[0].name == "get-order"
    without = run("(fetch 4)", tools={"search": search}, memory=first.memory)
    assert without.error.reason == "unknown_tool"


def test_a_tool_value_survives_a_saved_trace_as_a_callable_tool():
    assert encode(ToolValue("get-order")) == {"~tool": "get-order"}
    back = decode(json.loads(json.dumps(encode((ToolValue("get-order"), 1)))))
    assert back == (ToolValue("get-order"), 1)
    r = run("(f 2)", tools=TOOLS, memory={"f": back[0]})
    assert r.value["total"] == 20


def test_a_session_keeps_a_tool_value_across_turns_and_in_its_trace():
    replies = ["```clojure\n(def fetch tool/get-order)\n```",
               "```clojure\n(return (:total (fetch 3)))\n```"]
    session = SubAgent("totals", tools=TOOLS).start(ScriptedLLM(replies))
    while not session.done:
        session.step()
    assert session.result.return_value == 30
    loaded = loads_trace(dumps_trace(session.trace()))
    assert loaded.turns[0].memory["fetch"] == ToolValue("get-order")


def test_functions_and_tool_values_kept_in_memory_equal_themselves_in_a_later_run():
    """Functions come back from a run wrapped for the host (`#fn[...]` in repr); a tool value
    is kept as itself. Either still equals what it was made from in the next run."""
    first = run("(def f inc) (def g (fn [x] x)) (def t tool/search)", tools=TOOLS)
    assert repr(first.memory["t"]) == "#tool[search]"
    later = run("[(= f inc) (= [f] [inc]) (= g g) (= f g) (= t tool/search) (= [t] [tool/search])"
                " (= t tool/get-order) (= t f) (= f t)]", tools=TOOLS, memory=first.memory)
    assert later.error is None, later.error
    assert pr_str(later.value) == "[true true true false true true false false false]"
