"""true and false as set items and map keys stay apart from 1 and 0 wherever a value goes:
saved traces, memory, Python and JSON conversion, tools."""

import json

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
