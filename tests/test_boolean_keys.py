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
