"""The public API of engine.lisp.run: what a host (the agent loop, the app) relies on."""

from collections.abc import Mapping, Sequence, Set

import pytest

from engine.lisp import Keyword, PtcError, RunResult, ToolCall, run, to_python


def test_result_fields_of_a_plain_value():
    r = run("(+ 1 2)")
    assert isinstance(r, RunResult)
    assert (r.value, r.signal, r.error, r.prints, r.tool_calls) == (3, None, None, [], [])


def test_value_model():
    r = run('[{:a 1 "b" #{:x}} nil true 1.5 "s" :k]')
    vec = r.value
    assert isinstance(vec, Sequence) and not isinstance(vec, str)
    m = vec[0]
    assert isinstance(m, Mapping) and m[Keyword("a")] == 1
    assert isinstance(m["b"], Set) and Keyword("x") in m["b"]
    assert vec[1:] == (None, True, 1.5, "s", Keyword("k"))
    assert Keyword("k") is Keyword("k") and Keyword("k").name == "k"


def test_return_and_fail_signals_keep_prior_definitions():
    r = run("(def a 1) (return {:ok a}) (def b 2)")
    assert r.signal == "return" and to_python(r.value) == {"ok": 1}
    assert r.memory == {"a": 1}
    r = run('(def a 1) (fail "no")')
    assert (r.signal, r.value, r.memory) == ("fail", "no", {"a": 1})


def test_error_rolls_memory_back_and_keeps_prints():
    r = run('(def a 1) (println "before") (def b (+ a "x"))', memory={"z": 9})
    assert r.error.reason == "type_error"
    assert r.memory == {"z": 9}
    assert r.prints == ["before"]
    assert r.value is None and r.signal is None


def test_memory_carries_definitions_between_runs():
    first = run("(def threshold 10) (defn big? [x] (> x threshold))")
    second = run("(filter big? [5 15 20])", memory=first.memory)
    assert second.value == (15, 20)
    third = run("(def threshold 18) (filter big? [5 15 20])", memory=second.memory)
    assert third.value == (20,), "a function reads the current definition of a name"


def test_function_from_an_earlier_run_uses_this_runs_limits_and_prints():
    first = run('(defn shout [x] (println "got" x) x) (defn down [n] (if (zero? n) 0 (down (dec n))))')
    r = run("(shout 1)", memory=first.memory)
    assert r.prints == ["got 1"]
    deep = run("(down 500)", memory=first.memory, limits={"recursion_depth": 50})
    assert deep.error.reason == "recursion_limit_exceeded"
    assert run("(down 40)", memory=first.memory).value == 0


def test_closure_in_memory_keeps_its_captured_values():
    first = run("(def adders (mapv (fn [n] (fn [x] (+ x n))) [1 10]))")
    assert run("((second adders) 5)", memory=first.memory).value == 15


def test_definitions_are_recorded_in_order_with_docstrings():
    r = run('(def x 1) (defn f "adds; one" [y] (+ y 1)) (def x 2)')
    assert [(d.name, d.doc, d.is_fn) for d in r.definitions] == [
        ("x", None, False), ("f", "adds; one", True), ("x", None, False)]
    assert r.memory["x"] == 2


def test_tool_calls_are_recorded_with_arguments_as_written():
    def search(query, limit=3):
        return [{"title": query}] * limit
    r = run('(tool/search {:query "x" :limit 2})', tools={"search": search})
    call = r.tool_calls[0]
    assert isinstance(call, ToolCall)
    assert call.name == "search" and call.error is None
    assert to_python(call.args) == [{"query": "x", "limit": 2}]
    assert call.call_text() == 'search({:limit 2 :query "x"})'
    assert to_python(call.result) == [{"title": "x"}] * 2 and call.duration_ms >= 0


def test_failing_tool_is_recorded_and_reported():
    def broken(x):
        raise ValueError("backend down")
    r = run("(tool/broken 1)", tools={"broken": broken})
    assert r.error.reason == "tool_error" and "backend down" in r.error.message
    assert r.tool_calls[0].error == "ValueError: backend down"


def test_unknown_tool_lists_the_available_ones():
    r = run("(tool/serch 1)", tools={"search": lambda q: q, "fetch": lambda u: u})
    assert r.error.reason == "unknown_tool"
    assert "fetch, search" in r.error.message


def test_time_inside_tools_does_not_count_against_the_program():
    import time

    def slow():
        time.sleep(0.6)
        return 1
    # 1.2 s in tools against a limit of 0.4 s: the program's own time leaves a wide margin
    r = run("(+ (tool/slow) (tool/slow))", tools={"slow": slow}, limits={"time_ms": 400})
    assert r.error is None and r.value == 2


def test_inputs_are_never_mutated():
    data = {"items": [{"n": 1}]}
    memory = {"xs": [1, 2]}
    result = [{"v": 1}]
    r = run("(def ys (conj xs 3)) [(assoc (first data/items) :n 2) (tool/t)]",
            data=data, memory=memory, tools={"t": lambda: result})
    assert r.error is None
    assert data == {"items": [{"n": 1}]} and memory == {"xs": [1, 2]} and result == [{"v": 1}]


def test_host_mistakes_raise_value_error():
    with pytest.raises(ValueError, match="unknown limit"):
        run("1", limits={"time": 5})
    with pytest.raises(ValueError, match="callables"):
        run("1", tools={"t": 5})
    with pytest.raises(ValueError, match="data must be a dict"):
        run("1", data=[1, 2])
    with pytest.raises(ValueError, match="memory must be a dict"):
        run("1", memory="x")


def test_bad_content_of_data_is_an_invalid_data_error_naming_the_place():
    cyclic: list = []
    cyclic.append(cyclic)
    for data, message in [({"x": {"a": [1, object()]}}, "data/x.a[1]: an object cannot be used"),
                          ({"x": cyclic}, "data/x[0]: contains itself (a cycle)"),
                          ({3: 1}, "data: every key must be a name")]:
        r = run("(def kept 1) 1", data=data, memory={"before": 2})
        assert r.error.reason == "invalid_data" and r.error.message.startswith(message), r.error
        assert r.value is None and r.memory == {"before": 2}


def test_errors_carry_reason_message_span_and_hint():
    r = run("(let [x 1]\n  (+ x (foo-bar 2)))")
    err = r.error
    assert isinstance(err, PtcError)
    assert err.reason == "unbound_var" and "foo-bar" in err.message
    assert (err.span.line, err.span.col) == (2, 9)
    assert err.excerpt("(let [x 1]\n  (+ x (foo-bar 2)))").endswith("^")


def test_prints_are_one_entry_per_call_and_cut_at_the_limit():
    r = run('(println "a" 1) (println) (print "x") (prn "q") (println (apply str (repeat 50 "z")))',
            limits={"print_chars": 10})
    assert r.prints == ["a 1", "", "x", '"q"', "z" * 10 + "... (10/50 chars)"]


def test_error_text_names_the_place_once():
    """The LLM reads str(error): a reader message that already says where is not repeated."""
    from engine.lisp import run as run_program
    assert str(run_program('(println "a"').error) == (
        "parse_error: unbalanced parentheses: 1 unclosed '(' opened at 1:1 "
        "(hint: add ) at the end of the form)")
    assert str(run_program("(+ 1\n (foo))").error).startswith(
        "unbound_var: undefined symbol: foo at 2:3")


def test_a_backslash_before_a_line_break_in_a_string_is_a_one_line_error():
    """Found by the token-soup fuzz test: the message quoted the raw line break."""
    from engine.lisp import run as run_program
    err = run_program('"a\\\nb"').error
    assert err.reason == "parse_error" and "\n" not in err.message and "\n" not in err.hint
