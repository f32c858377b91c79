"""Compiled programs are kept by source text (replays and forks run the same programs again):
the second run of a text does not compile it, and shares nothing of the first run's state."""

from __future__ import annotations

import pytest

import engine.lisp.interpreter as interpreter
from engine.lisp import pr_str, run

PROGRAM = """
(def seen (count data/items))
(defn scale [x] (* x data/factor))
(println "items" seen)
(tool/note seen)
(mapv scale data/items)
"""


@pytest.fixture
def compiles(monkeypatch):
    """The number of programs read (and compiled) since the fixture was made."""
    interpreter._COMPILED.clear()
    count = []
    real = interpreter.read
    monkeypatch.setattr(interpreter, "read", lambda *a, **k: count.append(1) or real(*a, **k))
    return count


def test_the_same_text_is_compiled_once(compiles):
    for _ in range(3):
        assert run("(reduce + (range 10))").value == 45
    assert len(compiles) == 1
    run("(reduce + (range 11))")
    assert len(compiles) == 2


def test_a_cached_program_reads_each_runs_own_data_tools_memory_and_limits(compiles):
    notes_a, notes_b = [], []
    a = run(PROGRAM, data={"items": [1, 2], "factor": 10}, tools={"note": notes_a.append})
    b = run(PROGRAM, data={"items": [1, 2, 3], "factor": 2}, tools={"note": notes_b.append})
    assert len(compiles) == 1
    assert (pr_str(a.value), a.prints, notes_a) == ("[10 20]", ["items 2"], [2])
    assert (pr_str(b.value), b.prints, notes_b) == ("[2 4 6]", ["items 3"], [3])
    assert a.memory["seen"] == 2 and b.memory["seen"] == 3
    # a function of the first run, called in a third, reads the third run's data
    c = run("(scale 5)", memory=a.memory, data={"factor": 7})
    assert c.value == 35, c.error
    d = run(PROGRAM, data={"items": list(range(5)), "factor": 1}, tools={"note": print},
            limits={"tool_calls": 0})
    assert d.error.reason == "tool_limit_exceeded" and d.prints == ["items 5"]


def test_a_program_that_stops_compiling_still_runs_its_first_forms_every_time(compiles):
    source = '(println "first") (let [x] x)'
    for _ in range(2):
        r = run(source)
        assert r.prints == ["first"] and r.error.reason == "invalid_form", r.error


def test_the_limits_that_shape_reading_are_part_of_the_key(compiles):
    deep = "[" * 50 + "]" * 50
    assert run(deep).error is None
    r = run(deep, limits={"nesting_depth": 10})
    assert r.error is not None and r.error.reason == "parse_error"


def test_the_cache_is_bounded(compiles):
    for i in range(interpreter._COMPILED_MAX + 20):
        run(f"(+ {i} 1)")
    assert len(interpreter._COMPILED) == interpreter._COMPILED_MAX
    run("(+ 0 1)")                      # the oldest were let go: compiled again
    assert len(compiles) == interpreter._COMPILED_MAX + 21
