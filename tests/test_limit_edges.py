"""Each limit holds exactly at its value and fails one past it; the shipped defaults are the
README's table.

A test of one limit puts the clock limits far out of reach, so a busy machine changes nothing.
"""

import re
from dataclasses import fields
from pathlib import Path

import pytest

from engine.lisp import Limits, run

README = Path(__file__).parent.parent / "README.md"
FAR_CLOCKS = {"time_ms": 600_000, "run_wall_ms": 600_000, "tool_timeout_ms": 600_000}


def outcome(program: str, tools=None, **limits) -> str:
    r = run(program, tools=tools, limits={**FAR_CLOCKS, **limits})
    return "ok" if r.error is None else r.error.reason


def echo(x):
    return x


# (limit, value, program at the limit, program one past it, error one past it)
EDGES = [
    ("loop_iterations", 10, "(loop [i 0] (if (< i 10) (recur (inc i)) i))",
     "(loop [i 0] (if (< i 11) (recur (inc i)) i))", "loop_limit_exceeded"),
    ("recursion_depth", 10, "(defn f [n] (if (= n 0) 0 (f (dec n)))) (f 9)",
     "(defn f [n] (if (= n 0) 0 (f (dec n)))) (f 10)", "recursion_limit_exceeded"),
    ("collection_size", 10, "(vec (range 10))", "(vec (range 11))", "memory_exceeded"),
    ("string_length", 10, '(apply str (repeat 10 "a"))', '(apply str (repeat 11 "a"))',
     "memory_exceeded"),
    ("nesting_depth", 6, "(reduce (fn [v _] [v]) 1 (range 6))",
     "(reduce (fn [v _] [v]) 1 (range 7))", "memory_exceeded"),
    ("print_total_chars", 10, '(println "aaaaa") (println "bbbbb")',
     '(println "aaaaa") (println "bbbbbb")', "output_limit_exceeded"),
    ("tool_calls", 3, "(dotimes [i 3] (tool/echo i))", "(dotimes [i 4] (tool/echo i))",
     "tool_limit_exceeded"),
    ("source_chars", 7, "(+ 1 2)", "(+ 1 2) ", "parse_error"),
    ("symbols", 3, "[:a :b :c]", "[:a :b :c :d]", "symbol_limit_exceeded"),
]


@pytest.mark.parametrize("limit, value, at, past, reason", EDGES, ids=[e[0] for e in EDGES])
def test_a_limit_holds_at_its_value_and_fails_one_past_it(limit, value, at, past, reason):
    tools = {"echo": echo}
    assert outcome(at, tools, **{limit: value}) == "ok"
    assert outcome(past, tools, **{limit: value}) == reason
    assert outcome(past, tools, **{limit: value + 1}) == "ok"


def test_a_vector_grown_by_conj_or_cons_meets_the_collection_limit_at_its_value():
    """conj of one item checks only from 64 items on, as assoc does, so the limit here is 100."""
    twice = "(count (reduce (fn [v x] (conj (conj v x) x)) {} (range 50)))"
    assert outcome(twice.format("[]"), collection_size=100) == "ok"     # 100 items
    assert outcome(twice.format("[1]"), collection_size=100) == "memory_exceeded"
    assert outcome("(apply conj (vec (range 98)) [1 2])", collection_size=100) == "ok"
    assert outcome("(apply conj (vec (range 99)) [1 2])", collection_size=100) \
        == "memory_exceeded"
    assert outcome("(cons 0 (vec (range 99)))", collection_size=100) == "ok"
    assert outcome("(cons 0 (vec (range 100)))", collection_size=100) == "memory_exceeded"


def test_flatten_meets_the_collection_limit_at_its_value():
    assert outcome("(flatten [[1] [2]])", collection_size=2) == "ok"    # 2 vectors entered
    assert outcome("(flatten [[1 2] [3]])", collection_size=2) == "memory_exceeded"
    assert outcome("(flatten [[1 2 3 4] []])", collection_size=4) == "ok"   # 4 items, then []
    assert outcome("(flatten [[1 2 3 4] [5]])", collection_size=4) == "memory_exceeded"


# Each way a program adds keys to a map, into a map of N entries (the map itself within the
# limit); a map is checked from 64 entries on, so the limits here are 64 and 100.
MAP_WRITES = ["(assoc m :new 1)", "(apply assoc m [:new 1])", "(update m :new (fnil inc 0))",
              "(update m :new (fnil + 0) 1)", "(assoc-in m [:new] 1)", "(merge m {:new 1})",
              "(assoc m :new 1 0 :replaced)"]


@pytest.mark.parametrize("limit", [64, 100])
@pytest.mark.parametrize("write", MAP_WRITES)
def test_a_map_grown_by_any_write_meets_the_collection_limit_at_its_value(write, limit):
    program = "(let [m (zipmap (range {n}) (range {n}))] (count {write}))"
    assert outcome(program.format(n=limit - 1, write=write), collection_size=limit) == "ok"
    assert outcome(program.format(n=limit, write=write), collection_size=limit) \
        == "memory_exceeded"


@pytest.mark.parametrize("write", ["(assoc m 0 :a)", "(update m 0 inc)", "(update m 0 + 1)",
                                   "(assoc-in m [0] :a)", "(merge m {0 :a})",
                                   "(assoc m 0 :a 1 :b)"])
def test_a_map_at_the_collection_limit_takes_new_values_for_its_keys(write):
    program = f"(let [m (zipmap (range 100) (range 100))] (count {write}))"
    assert outcome(program, collection_size=100) == "ok"


def test_assoc_of_several_keys_counts_only_the_new_ones():
    two_new = "(let [m (zipmap (range 99) (range 99))] (count (assoc m :x 1 :y 2)))"
    assert outcome(two_new, collection_size=101) == "ok"
    assert outcome(two_new, collection_size=100) == "memory_exceeded"


def test_a_path_or_a_walk_meets_the_nesting_limit_at_its_value():
    """assoc-in builds a map per key of its path; keywordize-keys goes through every level."""
    assert outcome("(assoc-in {} [:a :b :c :d :e :f] 1)", nesting_depth=6) == "ok"
    assert outcome("(assoc-in {} [:a :b :c :d :e :f :g] 1)", nesting_depth=6) \
        == "memory_exceeded"
    six_levels = '(keywordize-keys (reduce (fn [v _] {"k" v}) 1 (range 6)))'
    assert outcome(six_levels, nesting_depth=6) == "ok"
    assert outcome(six_levels, nesting_depth=5) == "memory_exceeded"


def test_overlapping_chunks_meet_the_collection_limit_at_their_total():
    # (partition-all 4 2 (range 7)) is [[0 1 2 3] [2 3 4 5] [4 5 6] [6]]: 12 items in all
    assert outcome("(partition-all 4 2 (range 7))", collection_size=12) == "ok"
    assert outcome("(partition-all 4 2 (range 7))", collection_size=11) == "memory_exceeded"


@pytest.mark.parametrize("width", [10, 0])
def test_print_chars_cuts_each_println_after_its_value(width):
    r = run('(println "aaaaaaaaaaaa")', limits={**FAR_CLOCKS, "print_chars": width})
    assert r.error is None and r.prints == ["a" * width + f"... ({width}/12 chars)"]
    r = run(f'(println "{"a" * width}")', limits={**FAR_CLOCKS, "print_chars": width})
    assert r.prints == ["a" * width]


def test_a_limit_of_zero_allows_nothing_of_its_kind():
    assert outcome("(tool/echo 1)", {"echo": echo}, tool_calls=0) == "tool_limit_exceeded"
    assert outcome("(loop [i 0] (if (< i 1) (recur (inc i)) i))", loop_iterations=0) \
        == "loop_limit_exceeded"
    assert outcome("(+ 1 2)", tool_calls=0, loop_iterations=0) == "ok"


@pytest.mark.parametrize("value", [1.5, "10", True, None, -1])
def test_a_limit_that_is_not_a_non_negative_integer_is_refused(value):
    with pytest.raises(ValueError, match="'tool_calls' must be a non-negative integer"):
        Limits.from_dict({"tool_calls": value})


def test_an_unknown_limit_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown limit 'loops'; known limits: collection_size"):
        Limits.from_dict({"loops": 3})


def readme_defaults() -> dict[str, int]:
    """The README's limits table: each `name` in a row's first cell (before any parenthesis)
    gets that row's default
    (a cell with two names, `a` / `b`, and two defaults, gives each its own)."""
    text = README.read_text()
    table = text[text.index("| limit | default | error |"):].split("\n\n")[0]
    defaults = {}
    for row in table.splitlines()[2:]:
        names_cell, default_cell = row.split("|")[1:3]
        names = re.findall(r"`(\w+)`", names_cell.split("(")[0])   # not "(per `loop`)"
        values = [int(v.replace(",", "")) for v in re.findall(r"\d[\d,]*", default_cell)]
        for name, value in zip(names, values if len(values) == len(names) else values * 2):
            defaults[name] = value
    return defaults


def test_the_shipped_defaults_are_the_readme_table():
    shipped = {f.name: getattr(Limits(), f.name) for f in fields(Limits)}
    assert readme_defaults() == shipped


@pytest.mark.shipped_time_limits
def test_limits_given_as_none_or_as_limits_are_the_defaults_or_those():
    assert Limits.from_dict(None) == Limits()
    mine = Limits(tool_calls=3)
    assert Limits.from_dict(mine) is mine
    assert outcome("(dotimes [i 4] (tool/echo i))", {"echo": echo}) == "ok"
    r = run("(dotimes [i 4] (tool/echo i))", tools={"echo": echo}, limits=mine)
    assert r.error.reason == "tool_limit_exceeded"


def test_a_limits_object_cannot_be_changed_under_the_runs_sharing_it():
    with pytest.raises(AttributeError):
        Limits().tool_calls = 5


def test_a_run_in_a_test_not_about_time_gets_time_limits_out_of_reach():
    # tests/conftest.py: a busy machine must not end a run with `timeout` in such a test
    given = Limits.from_dict(None)
    assert given.time_ms > 10 * Limits().time_ms and given.run_wall_ms > Limits().run_wall_ms
