"""The `coalesced` summary's definitions and output: DEF-*, TRN-* (exact text;
the rules are in docs/history-rules.md)."""

import pytest

from engine.history import HistoryOpts
from engine.lisp import format_value, run
from tests.history.build import make_turns
from tests.history.rendering import TOOLS, coalesced, summary


def defined(programs, **kw) -> str:
    """Only the Function and Defined lines of the summary."""
    return "\n".join(line for line in summary(programs, **kw).splitlines()
                     if line.startswith(("; Defined", "; Function")))


DEFINITION_CASES = [
    pytest.param(["(def x 1) (def x 2)"], "; Defined: x = integer, sample: 2", id="DEF-001"),
    pytest.param(["(def x 1)", '(def x "one")'], '; Defined: x = string, sample: "one"',
                 id="DEF-002"),
    pytest.param(["(def x nil)"], "; Defined: x = nil", id="DEF-003"),
    pytest.param(["(def x [])"], "; Defined: x = list[0]", id="DEF-004"),
    pytest.param(['(defn f "Doubles" [x] (* 2 x)) (def v "Seven" 7)'],
                 '; Function: f - "Doubles"\n; Defined: v - "Seven" = integer, sample: 7',
                 id="DEF-005-def-and-defn-docstrings"),
    pytest.param(['(if false (def y "never" 1) nil) (when true (def z "ran" 2))'],
                 '; Defined: z - "ran" = integer, sample: 2', id="DEF-006-at-execution-time"),
    pytest.param(['(def c "a;b ;; c;" 1)'], '; Defined: c - "ab c" = integer, sample: 1',
                 id="DEF-007-semicolons-removed"),
    pytest.param(['(defn f "Line one.\n   Line two;\tend" [] 1)'],
                 '; Function: f - "Line one. Line two end"', id="DEF-007-one-line"),
    pytest.param(['(def d ";;" 1)'], "; Defined: d = integer, sample: 1",
                 id="DEF-007-nothing-left-of-the-docstring"),
    pytest.param(["(def a 1)", "(def b 2)", "(defn c [] 3)"],
                 "; Function: c\n; Defined: a = integer, sample: 1\n"
                 "; Defined: b = integer, sample: 2", id="DEF-008-accumulated"),
    pytest.param(["(def b 1) (def a 2)", "(def c 3) (def b 4)"],
                 "; Defined: b = integer, sample: 4\n; Defined: a = integer, sample: 2\n"
                 "; Defined: c = integer, sample: 3", id="DEF-009-first-definition-order"),
    pytest.param(['(def x "old doc" 1)', "(def x 2)"], "; Defined: x = integer, sample: 2",
                 id="latest-definition-docstring-wins"),
    pytest.param(["(defn x [] 1)", "(def x 5)"], "; Defined: x = integer, sample: 5",
                 id="function-redefined-as-a-value"),
    pytest.param(["(def x 5)", "(defn x [] 1)"], "; Function: x",
                 id="value-redefined-as-a-function"),
    pytest.param(["(def x 5)", "(def x 6) (oops"], "; Defined: x = integer, sample: 5",
                 id="failed-redefinition-rolled-back"),
]


@pytest.mark.parametrize("programs, expected", DEFINITION_CASES)
def test_definitions(programs, expected):
    assert defined(programs) == expected


def test_NS_008_data_inputs_are_not_listed():
    text = summary(["(def n (count data/products))"], data={"products": (1, 2)})
    assert text == "; No tool calls made\n; Defined: n = integer, sample: 2"


def test_definitions_take_values_from_the_memory_given():
    from engine.history import render
    from tests.history.build import context
    turns = make_turns(["(def x 1)"], tools=TOOLS)
    messages, _ = render("coalesced", turns, {"x": (7, 8)}, context(), HistoryOpts())
    assert "; Defined: x = list[2], sample: [7 8]" in messages[1]["content"]
    messages, _ = render("coalesced", turns, {}, context(), HistoryOpts())
    assert "; Defined" not in messages[1]["content"]     # a name memory no longer holds


@pytest.mark.parametrize("source", ["(range 10)", '"' + "w" * 200 + '"',
                                    '{:a 1 :b 2 :c 3 :d 4}', "[[1 2 3 4] [5 6 7 8]]"])
def test_TRN_001_samples_come_from_the_truncating_printer(source):
    value = run(source).value
    assert defined([f"(def v {source})"]).endswith(f", sample: {format_value(value, 3, 80)[0]}")


@pytest.mark.parametrize("opts, sample", [
    pytest.param({}, '["aaaaaaaaaa..." "b" "c" ...] (4 items, showing first 3)', id="TRN-002"),
    pytest.param({"sample_limit": 2, "sample_printable_limit": 4},
                 '["aaaa..." "b" ...] (4 items, showing first 2)', id="custom-limits"),
])
def test_TRN_002_sample_limits(opts, sample):
    program = '(def v ["' + "a" * 90 + '" "b" "c" "d"])'
    expected = sample.replace("aaaaaaaaaa...", "a" * 80 + "...")
    assert defined([program], **opts) == f"; Defined: v = list[4], sample: {expected}"


def output(programs, **kw) -> list[str]:
    text = summary(programs, **kw)
    return text.split("; Output:\n", 1)[1].split("\n") if "; Output:" in text else []


def test_TRN_006_TRN_009_limit_counts_calls_not_lines():
    assert output(['(println "a") (println "b\\nc\\nd")'], println_limit=1) == ["b", "c", "d"]


def test_TRN_007_lines_not_cut_individually():
    assert output([f'(println "{"x" * 1500}")']) == ["x" * 1500]


def test_TRN_008_each_println_call_is_one_entry():
    turns = make_turns(['(println "a" 1) (println) (println [1 "s"])'])
    assert turns[0].prints == ("a 1", "", '[1 "s"]')
    assert output(['(println "a" 1) (println) (println [1 "s"])']) == ["a 1", "", '[1 "s"]']


def test_TRN_010_fifo_across_turns():
    programs = ['(println "o1") (println "o2")', '(println "o3")', '(println "o4") (println "o5")']
    assert output(programs, println_limit=3) == ["o3", "o4", "o5"]
    assert output(programs, println_limit=10) == ["o1", "o2", "o3", "o4", "o5"]
    assert output(programs, println_limit=0) == []


def test_TRN_011_each_print_cut_at_2000_characters():
    # with the reference implementation's marker saying how much was cut (issue 21)
    assert output(['(println (apply str (repeat 3000 "a")))']) == \
        ["a" * 2000 + "... (2000/3000 chars)"]


def test_failed_turn_prints_never_reach_the_output():
    text = coalesced(['(println "kept")', '(println "lost") (oops)'])
    assert "; Output:\nkept\n\n---\nYour previous attempt:" in text
    assert text.count("lost") == 1      # only in the failed program
