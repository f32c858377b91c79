"""Values from the host (data, memory, tool results) and values back to it (result, memory).

Host data that shares structure stays shared when converted, so every operation on it is as
bounded as on a shared value a program builds (the time limit out of reach, as it must be on a
busy machine: bounded is the CPU time check_outcome allows, DAG_TIME_MS and its grace); data of any content ends in a RunResult; the
functions a run hands back show as PTC-Lisp, never as Python objects.
"""

from __future__ import annotations

import logging

import pytest

from engine.lisp import Keyword, pr_str, run, to_json
from engine.lisp.convert import from_python
from tests.test_sandbox import (DAG_OPS, DAG_TIME_MS, OUT_OF_REACH_MS, TOOLS, check_outcome,
                                internals, run_timed)


def python_dag(levels: int = 60) -> list:
    """A list of two references to one list, `levels` deep: 2**levels leaves, `levels` lists."""
    v: list = [1]
    for _ in range(levels):
        v = [v, v]
    return v


DATA_DAG = {"v": python_dag(), "w": python_dag()}
DAG_TOOLS = {**TOOLS, "dag": python_dag}


def test_conversion_keeps_shared_parts_shared():
    inner = [1, 2]
    v = from_python([inner, inner, {"a": inner}])
    assert v[0] is v[1] is v[2]["a"]
    top = from_python(python_dag())
    assert top[0] is top[1]


@pytest.mark.parametrize("op", DAG_OPS)
def test_shared_host_data_is_never_expanded(op):
    source = "(def v data/v) (def w data/w) " + op
    out = run_timed(source, time_ms=OUT_OF_REACH_MS, data=DATA_DAG, tools=TOOLS)
    check_outcome(out, source, DAG_TIME_MS)
    assert out.reason in (None, "memory_exceeded"), f"{out.reason}: {out.message}"


@pytest.mark.parametrize("op", ["(count v)", "(= v w)", "#{v w}", "(str v)", "(sort [v w])",
                                "(tool/echo v)", "(return v)"])
def test_shared_memory_and_tool_results_are_never_expanded(op):
    from_memory = run_timed(op, time_ms=OUT_OF_REACH_MS, memory=dict(DATA_DAG), tools=TOOLS)
    check_outcome(from_memory, op, DAG_TIME_MS)
    assert from_memory.reason in (None, "memory_exceeded"), from_memory.message
    source = "(def v (tool/dag)) (def w (tool/dag)) " + op
    from_tool = run_timed(source, time_ms=OUT_OF_REACH_MS, tools=DAG_TOOLS)
    check_outcome(from_tool, source, DAG_TIME_MS)
    assert from_tool.reason in (None, "memory_exceeded"), from_tool.message


def test_shared_data_deeper_than_the_limit_where_it_is_reused():
    """A part first met shallow and met again deeper must still respect the depth limit."""
    part = python_dag(5)                       # 6 levels
    deep = part
    for _ in range(96):
        deep = [deep]                          # `part` again, 96 levels down: 102 levels
    r = run("(count data/x)", data={"x": [part, deep]})
    assert r.error is not None and r.error.reason == "invalid_data", r.error
    assert r.error.message.startswith("data/x[1][0][0]") and "deeper than 100" in r.error.message


def test_tool_result_too_deep_is_a_tool_error_naming_the_place():
    r = run("(tool/deep)", tools=TOOLS)
    assert r.error.reason == "tool_error"
    assert "result of tool/deep[0][0]" in r.error.message, r.error.message


@pytest.mark.parametrize("content", [[1, float("nan")], {"k": {1, 2}}, ("a", None, True),
                                     {"big": 2 ** 70}, {"obj": object()}, b"x", {1: [2]}])
def test_run_never_raises_for_any_content(content):
    for kwargs in ({"data": {"x": content}}, {"memory": {"x": content}}):
        r = run("1", **kwargs)
        assert r.error is None or r.error.reason == "invalid_data", r.error
    r = run("(tool/give)", tools={"give": lambda: content})
    assert r.error is None or r.error.reason == "tool_error", r.error


# --- functions handed back to the host ---------------------------------------------------

FUNCTIONS = "(defn spin [n] n) (def m {:f spin :g (partial + 1) :h inc :v [(fn [x] x)]}) "


def test_functions_in_memory_and_results_have_a_lisp_repr(caplog):
    r = run(FUNCTIONS + "[spin m]")
    assert r.error is None, r.error
    shown = [repr(r.memory), str(r.memory), repr(r.value), f"{r.value}", pr_str(r.value),
             repr(to_json(r.value))]
    with caplog.at_level(logging.INFO):
        logging.getLogger("host").info("memory %s value %r", r.memory, r.value)
    shown.append(caplog.text)
    for text in shown:
        assert "<function" not in text and "0x" not in text and " at " not in text, text
        assert "#fn[n]" in text, text
    assert repr(r.memory["spin"]) == "#fn[n]"
    assert repr(r.memory["m"][Keyword("h")]) == "#<builtin inc>"
    assert not internals(pr_str(r.value))


def test_functions_handed_back_still_work_in_the_next_run():
    r1 = run(FUNCTIONS)
    r2 = run("[(spin 3) ((:f m) 4) ((:g m) 1) ((:h m) 1) ((first (:v m)) 5) (= spin (:f m)) "
             "(mapv spin [1 2])]", memory=r1.memory)
    assert r2.error is None, r2.error
    assert pr_str(r2.value) == "[3 4 2 2 5 true [1 2]]"
    r3 = run("((:f m) 1 2)", memory=r1.memory)
    assert r3.error.reason == "arity_mismatch" and "spin" in r3.error.message, r3.error


@pytest.mark.parametrize("bad, place", [
    ({"n": 2 ** 63}, "data/x[1].n: an integer past the 64-bit range (9223372036854775808)"),
    ({"n": object()}, "data/x[1].n: an object cannot be used"),
    ({"n": [1, {"deep": 10 ** 300}]}, "data/x[1].n[1].deep: an integer past the 64-bit range "
                                      "(about 301 digits)"),
    ({1 + 2j: 1}, "data/x[1] (a key): a complex number cannot be used"),
])
def test_records_with_one_bad_value_name_its_place(bad, place):
    records = [{"id": 1, "name": "a", "price": 2.5}, bad, {"id": 3, "name": "c"}]
    r = run("(count data/x)", data={"x": records})
    assert r.error is not None and r.error.reason == "invalid_data", r.error
    assert r.error.message.startswith(place), r.error.message


def test_plain_records_convert_to_maps_and_keep_every_value():
    records = [{"id": i, "name": f"n{i}", "price": i * 1.5, "ok": i % 2 == 0, "tag": None}
               for i in range(3)] + [{"id": 2 ** 63 - 1, "min": -2 ** 63}]
    r = run("[(count data/x) (mapv :id data/x) (:ok (first data/x)) (:min (last data/x))]",
            data={"x": records})
    assert r.error is None, r.error
    assert pr_str(r.value) == "[4 [0 1 2 9223372036854775807] true -9223372036854775808]"


def test_a_function_kept_in_memory_is_the_same_object_after_a_run_not_redefining_it():
    r1 = run("(defn spin [n] n)")
    r2 = run("(def x (spin 1))", memory=r1.memory)
    assert r2.memory["spin"] is r1.memory["spin"]
    assert repr(r2.memory["spin"]) == "#fn[n]"


def python_map_dag(levels: int = 60) -> dict:
    """A dict whose two entries are one dict, `levels` deep: 2**levels leaves, `levels` dicts."""
    v: dict = {"leaf": 1}
    for _ in range(levels):
        v = {"a": v, "b": v}
    return v


@pytest.mark.parametrize("op", ["(count v)", "(= v w)", "(= v (assoc w :x 1))",
                                "(= v (dissoc (assoc w :x 1) :x))", "#{v w}", "(hash-set v w)",
                                "(frequencies [v w])", "(= {:a v} {:a w})", "(str v)",
                                "(get {v 1} w)", "(merge v w)", "(tool/echo v)"])
def test_shared_host_maps_are_never_expanded(op):
    source = "(def v data/v) (def w data/w) " + op
    data = {"v": python_map_dag(), "w": python_map_dag()}
    out = run_timed(source, time_ms=OUT_OF_REACH_MS, data=data, tools=TOOLS)
    check_outcome(out, source, DAG_TIME_MS)
    assert out.reason in (None, "memory_exceeded"), f"{out.reason}: {out.message}"


@pytest.mark.parametrize("source, expected", [
    # a map from host data equals the same map made by the program, whichever side is which
    ('(= (first data/rs) {"id" 1 "name" "a"})', "true"),
    ('(= {"id" 1 "name" "a"} (first data/rs))', "true"),
    ('(= (first data/rs) (assoc (dissoc (first data/rs) "id") "id" 1))', "true"),
    ('(= (first data/rs) {"id" 1 "name" "b"})', "false"),
    ('(= (first data/rs) {"id" true "name" "a"})', "false"),
    # ...and is the same key or set item
    ('(count #{(first data/rs) {"id" 1 "name" "a"}})', "1"),
    ('(get {{"id" 1 "name" "a"} :found} (first data/rs))', ":found"),
    ('(contains? (set data/rs) (into {} (first data/rs)))', "true"),
    ('(count (distinct (concat data/rs [{"name" "a" "id" 1}])))', "2"),
    ('(count (group-by identity (conj data/rs {"id" 2 "name" "b"})))', "2"),
    # changing it gives a new map; the data stays as it was
    ('[(assoc (first data/rs) :x 1) (first data/rs)]',
     '[{:x 1 "id" 1 "name" "a"} {"id" 1 "name" "a"}]'),
    ('(dissoc (first data/rs) "name")', '{"id" 1}'),
    ('(merge (first data/rs) {"id" 5})', '{"id" 5 "name" "a"}'),
    ('(update (second data/rs) "id" inc)', '{"id" 3 "name" "b"}'),
    ('(map? (first data/rs))', "true"),
    ('(keys (first data/rs))', '["id" "name"]'),
    ('(:name (first data/rs))', '"a"'),
])
def test_maps_from_host_data_are_maps_like_any_other(source, expected):
    rs = [{"name": "a", "id": 1}, {"id": 2, "name": "b"}]
    r = run(source, data={"rs": rs})
    assert r.error is None, r.error
    assert pr_str(r.value) == expected
    assert rs == [{"name": "a", "id": 1}, {"id": 2, "name": "b"}]


def test_a_host_map_is_a_copy_the_host_cannot_change_and_nobody_can_mutate():
    record = {"id": 1}
    first = run("(def r (first data/rs)) r", data={"rs": [record]})
    record["id"] = 2
    again = run("r", memory=first.memory)
    assert pr_str(again.value) == '{"id" 1}'
    with pytest.raises(TypeError):
        first.memory["r"]["id"] = 3


@pytest.mark.parametrize("source, expected", [
    ("(map :id data/rs)", "[10 2 nil]"), ("(mapv :id data/rs)", "[10 2 nil]"),
    ("(map #(:id %) data/rs)", "[10 2 nil]"), ('(map #(get % "id") data/rs)', "[1 2 nil]"),
    ("(map :id (sort-by :id data/rs))", "[nil 2 10]"),
    ('(map :id (sort-by "id" data/rs))', "[nil 10 2]"),
    ("(keys (group-by :id data/rs))", "[nil 2 10]"),
])
def test_reading_a_key_from_each_record_the_exact_key_wins(source, expected):
    """Records from host data are read a key at a time in C: the exact key where a record has
    it, else the other spelling, as reading one record at a time does."""
    rs = [{"id": 1, Keyword("id"): 10}, {"id": 2}, {"name": "x"}]
    r = run(source, data={"rs": rs})
    assert r.error is None, r.error
    assert pr_str(r.value) == expected
