"""true and false as set items and map keys stay apart from 1 and 0 wherever a value goes:
saved traces, memory, Python and JSON conversion, tools."""

import json

import pytest

from engine.lisp import from_python, pr_str, run, to_json, to_python
from engine.lisp.values import BoolKey
from engine.trace.values import decode, encode


def value(source):
    r = run(source)
    assert r.error is None, r.error
    return r.value


def test_a_saved_trace_keeps_true_and_1_apart():
    for source in ("{1 :a true :b false :c 0 :d}", "#{1 true 0 false}", "[#{true} {true 1}]"):
        v = value(source)
        back = decode(json.loads(json.dumps(encode(v))))
        assert pr_str(back) == pr_str(v)
        assert run("(= a b)", memory={"a": v, "b": back}).value is True


def test_memory_keeps_boolean_keys_usable_in_a_later_run():
    first = run("(def m {1 :one true :yes}) (def s #{0 false})")
    later = run("[(get m true) (get m 1) (contains? s false) (count s)]", memory=first.memory)
    assert pr_str(later.value) == "[:yes :one true 2]"


def test_json_and_python_see_booleans_never_the_wrapper():
    v = value("{true 1 :k #{false}}")
    assert to_json(v) == {"true": 1, "k": [False]}
    assert to_python(v) == {True: 1, "k": {False}}
    assert not any(isinstance(k, BoolKey) for k in to_python(v))


def test_python_data_with_boolean_keys_reads_as_booleans():
    m = from_python({True: "yes", 2: "two"})
    assert pr_str(run("[(get m true) (get m 1) (keys m)]", memory={"m": m}).value) == \
        '["yes" nil [true 2]]'


def test_a_tool_gets_and_returns_boolean_keys_as_python_booleans():
    seen = []

    def echo(m):
        seen.append(m)
        return m
    r = run("(tool/echo {true :t})", tools={"echo": echo})
    assert seen == [{True: "t"}]
    assert pr_str(r.value) == '{true "t"}'


def test_data_with_boolean_keys_and_items_keeps_them_apart_from_numbers():
    """The conversion of host data (fast paths for JSON shapes included) stores true as a
    key of its own: in a map, a set, a list of records and a part shared twice."""
    flags = {True, 2}
    data = {"m": {True: "yes", 2: "two"}, "s": flags, "rows": [{True: "a"}, {True: "b"}],
            "shared": [flags, flags], "mixed": [{"k": 1, True: "t"}, {"k": 2}]}
    r = run("[(get data/m true) (get data/m 1) (contains? data/s true) (contains? data/s 1)"
            " (get (first data/rows) true) (get (first data/rows) 1)"
            " (contains? (second data/shared) 1) (get (first data/mixed) true)]", data=data)
    assert r.error is None, r.error
    assert pr_str(r.value) == '["yes" nil true false "a" nil false "t"]'


def test_tool_results_with_boolean_keys_convert_back_to_the_same_python():
    result = [{True: 1, "k": {False, 1}}, {True: 2, "k": set()}]
    r = run("(tool/rows)", tools={"rows": lambda: result})
    assert r.error is None, r.error
    assert pr_str(r.value) == '[{true 1 "k" #{false 1}} {true 2 "k" #{}}]'
    assert to_python(r.value) == result
    assert to_json(r.value) == [{"true": 1, "k": [False, 1]}, {"true": 2, "k": []}]


@pytest.mark.parametrize("source, expected", [
    ("[(count #{[1] [true]}) (count #{[0] [false] [0.0]}) (count #{{:a 1} {:a true}})]",
     "[2 2 2]"),
    ("(let [m {[1] :one [true] :yes [[false]] :no}] [(count m) (get m [1]) (get m [true])"
     " (get m [[0]]) (get m [[false]]) (contains? m [[false]]) (contains? m [[0]])])",
     "[3 :one :yes nil :no true false]"),
    ("[(contains? #{[1]} [true]) (contains? #{[true]} [true]) (get #{[[true]]} [[true]])]",
     "[false true [[true]]]"),
    ("(-> {} (assoc [true] 1) (assoc [1] 2) (update [true] inc) (dissoc [1]))", "{[true] 2}"),
    ("[(frequencies [[1] [true] [1]]) (group-by first [[[1]] [[true]]]) (distinct [[1] [true]])]",
     "[{[1] 2 [true] 1} {[1] [[[1]]] [true] [[[true]]]} [[1] [true]]]"),
    ("(let [k (first (keys {[true {:b false}] 1}))] [(true? (first k)) (false? (:b (second k)))])",
     "[true true]"),
    ("[(conj #{[1]} [true]) (into {} [[[true] :t] [[1] :one]]) (zipmap [[false] [0]] [1 2])]",
     "[#{[1] [true]} {[1] :one [true] :t} {[0] 2 [false] 1}]"),
])
def test_booleans_inside_keys_stay_apart_from_numbers(source, expected):
    assert pr_str(value(source)) == expected


@pytest.mark.parametrize("op", ["(get {:a 1} v)", "(get #{1} v)", "(find {:a 1} v)",
                                "(update {:a 1} v inc)", "(dissoc {:a 1} v)", "(conj #{} v)",
                                "(get-in {:a 1} [v])", "(contains? {:a 1} v)"])
def test_a_key_sharing_parts_is_never_expanded(op):
    """A vector holding one vector twice, sixty levels down, is 2**60 items expanded: using
    it as a key (its hash would visit them all) is refused, never hangs."""
    r = run(f"(let [v (reduce (fn [v _] [v v]) [true] (range 60))] {op})")
    assert r.error is not None and r.error.reason == "memory_exceeded", r.error


def test_keys_with_booleans_inside_survive_memory_traces_and_tools():
    v = value("{[true] 1 [1] 2 #{[false]} 3}")
    back = decode(json.loads(json.dumps(encode(v))))
    assert pr_str(back) == pr_str(v)
    later = run("[(get m [true]) (get m [1]) (get m #{[false]}) (count m)]", memory={"m": v})
    assert pr_str(later.value) == "[1 2 3 3]"
    data = run("(count (set data/rows))", data={"rows": [[1], [True], [1]]})
    assert data.value == 2


def test_to_python_keeps_every_entry_when_python_would_merge_keys():
    assert to_python(value("{1 :a true :b}")) == {"1": "a", "true": "b"}
    assert to_python(value("#{0 false}")) == {"0", "false"}
    assert to_python(value("{[1] 1 [true] 2}")) == {"[1]": 1, "[true]": 2}
    assert to_python(value("{:a 1 \"a\" 2 :b 3}")) == {":a": 1, '"a"': 2, "b": 3}
    # a printed form taken by another key: every key printed
    assert to_python(value("{1 :a true :b \"1\" :c}")) == {"1": "a", "true": "b", '"1"': "c"}
    # nothing to keep apart: plain keys as before
    assert to_python(value("{true 1 2 :two}")) == {True: 1, 2: "two"}


def test_to_json_keeps_every_entry_when_json_would_merge_keys():
    assert to_json(value("{:a 1 \"a\" 2 :b 3}")) == {":a": 1, '"a"': 2, "b": 3}
    assert to_json(value("{1 :one \"1\" :text true :t \"true\" :s}")) == \
        {"1": "one", '"1"': "text", "true": "t", '"true"': "s"}
    # a printed form taken by another key: every key printed
    assert to_json(value("{:a 1 \"a\" 2 \":a\" 3}")) == {":a": 1, '"a"': 2, '":a"': 3}
    assert to_json(value("{:a {:x 1 \"x\" 2}}")) == {"a": {":x": 1, '"x"': 2}}
    # nothing to keep apart: plain keys as before
    assert to_json(value("{:a 1 2 :two nil 3}")) == {"a": 1, "2": "two", "nil": 3}
