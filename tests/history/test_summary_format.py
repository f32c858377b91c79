"""The `coalesced` summary, section by section: FMT-*, TC-*, SAM-* (exact
text; the rules are in docs/history-rules.md)."""

import pytest

from tests.history.rendering import summary

FORMAT_CASES = [
    pytest.param(['(tool/ping) (println "ok")'], "; Tool calls:\n;   ping()\n; Output:\nok",
                 id="FMT-001-tool-calls-header"),
    pytest.param(['(tool/get-inventory) (tool/search-reviews "Books") (tool/f "a" 2) '
                  '(tool/search {:query "x" :limit 5}) (println "ok")'],
                 '; Tool calls:\n;   get-inventory()\n;   search-reviews("Books")\n'
                 ';   f("a" 2)\n;   search({:limit 5 :query "x"})\n; Output:\nok',
                 id="FMT-002-entry-semicolon-three-spaces-parens"),
    pytest.param(["(def x 1)"], "; No tool calls made\n; Defined: x = integer, sample: 1",
                 id="FMT-003-no-tool-calls"),
    pytest.param(['(defn add "Adds two numbers" [a b] (+ a b))'],
                 '; No tool calls made\n; Function: add - "Adds two numbers"',
                 id="FMT-004-function-with-docstring"),
    pytest.param(["(defn add [a b] (+ a b)) (def twice (fn [x] (* 2 x)))"],
                 "; No tool calls made\n; Function: add\n; Function: twice",
                 id="FMT-005-function-without-docstring"),
    pytest.param(['(def limit "Most results to keep" 10)'],
                 '; No tool calls made\n; Defined: limit - "Most results to keep" = integer, '
                 "sample: 10", id="FMT-006-defined-docstring-and-sample"),
    pytest.param(['(def tags [:a :b])'],
                 "; No tool calls made\n; Defined: tags = list[2], sample: [:a :b]",
                 id="FMT-007-defined-sample-no-docstring"),
    pytest.param(['(def tags [:a :b]) (println "hi")'],
                 "; No tool calls made\n; Defined: tags = list[2]\n; Output:\nhi",
                 id="FMT-008-defined-without-sample"),
    pytest.param(['(println "a") (println "b")'], "; No tool calls made\n; Output:\na\nb",
                 id="FMT-009-output-header"),
    pytest.param(['(println "  indented; with semicolon") (println "; Defined: fake = 1")'],
                 "; No tool calls made\n; Output:\n  indented; with semicolon\n"
                 "; Defined: fake = 1", id="FMT-010-FMT-014-output-unprefixed-unsanitised"),
    pytest.param(['(println "out") (def v 1) (defn g [] 1) (tool/ping)'],
                 "; Tool calls:\n;   ping()\n; Function: g\n; Defined: v = integer\n"
                 "; Output:\nout", id="FMT-011-section-order"),
    pytest.param(["(+ 1 2)"], "; No tool calls made", id="FMT-012-empty-sections-omitted"),
    pytest.param(["(def a 1) (tool/ping)", '(defn g [] 1) (tool/ping) (println "x")',
                  '(def b 2) (tool/notify "z")'],
                 "; Tool calls:\n;   ping() -> string\n;   ping()\n;   notify(\"z\") -> nil\n"
                 "; Function: g\n; Defined: a = integer, sample: 1\n"
                 "; Defined: b = integer, sample: 2\n; Output:\nx",
                 id="FMT-013-consolidated-across-turns"),
]


@pytest.mark.parametrize("programs, expected", FORMAT_CASES)
def test_format(programs, expected):
    assert summary(programs) == expected


TOOL_CALL_CASES = [
    pytest.param(['(tool/ping)', '(tool/notify "a")'],
                 ';   ping() -> string\n;   notify("a") -> nil', id="TC-001-accumulated"),
    pytest.param(['(tool/f "' + "z" * 70 + '" [1 2 3 4 5] {:a 1 :b 2 :c 3 :d 4})'],
                 ';   f("' + "z" * 60 + '..." [1 2 3 ...] (5 items, showing first 3) '
                 '{:a 1 :b 2 ...}) -> list[3]', id="TC-003-TRN-003-args-truncated"),
    pytest.param(["(tool/fetch-all)"], ";   fetch-all() -> list[5]",
                 id="TC-004-result-type-never-value"),
    pytest.param(["(def all (tool/fetch-all))"], ";   fetch-all()", id="TC-005-result-in-defined"),
    pytest.param(['(tool/fetch-all) (println "ok")'], ";   fetch-all()",
                 id="TC-006-no-type-when-the-turn-printed"),
    pytest.param(['(tool/notify "A") (tool/notify "A") (tool/notify "B") (tool/notify "A")'],
                 ';   notify("A") x2 -> nil\n;   notify("B") -> nil\n;   notify("A") -> nil',
                 id="TC-008-only-consecutive-calls-collapse"),
    pytest.param(["(def one (tool/get-user 1)) (tool/get-user 1) (tool/get-user 1)"],
                 ";   get-user(1) x3", id="TC-008-equal-result-to-a-definition-no-type"),
    pytest.param(["(tool/ping)", "(tool/ping)"], ";   ping() x2 -> string",
                 id="TC-008-across-turns"),
    pytest.param(['(tool/ping) (println "x")', "(tool/ping)"],
                 ";   ping()\n;   ping() -> string", id="TC-008-different-type-no-collapse"),
]


@pytest.mark.parametrize("programs, calls", TOOL_CALL_CASES)
def test_tool_calls(programs, calls):
    lines = summary(programs).splitlines()
    assert lines[0] == "; Tool calls:"
    assert "\n".join(line for line in lines if line.startswith(";   ")) == calls


def test_TC_002_TC_007_limit_keeps_the_newest_calls():
    assert summary(['(doseq [i (range 6)] (tool/notify i)) (println "ok")', "(tool/ping)"],
                   tool_call_limit=3) == (
        "; Tool calls:\n;   notify(4)\n;   notify(5)\n;   ping() -> string\n; Output:\nok")


def test_TC_002_limit_counts_calls_before_collapsing():
    lines = summary(['(tool/ping) (tool/notify "A") (tool/notify "A") (tool/notify "A")'
                     ' (println "x")'], tool_call_limit=2).splitlines()
    assert lines[:2] == ["; Tool calls:", ';   notify("A") x2']


def test_TC_004_large_result_shows_only_its_type():
    text = summary(["(tool/get-user 7)"])
    assert text == "; Tool calls:\n;   get-user(7) -> map[2]"
    assert "Alice" not in text


def test_tool_call_limit_zero_leaves_the_section_out():
    assert summary(['(tool/ping) (println "x")'], tool_call_limit=0) == "; Output:\nx"


@pytest.mark.parametrize("rule, programs, expected", [
    pytest.param("turn", ['(def a [1 2])', '(def b [3]) (println "x")'],
                 "; Defined: a = list[2], sample: [1 2]\n; Defined: b = list[1]",
                 id="SAM-001-SAM-002-per-turn"),
    pytest.param("global", ['(def a [1 2])', '(def b [3]) (println "x")'],
                 "; Defined: a = list[2]\n; Defined: b = list[1]", id="global-any-print"),
    pytest.param("global", ['(def a [1 2])', '(def b [3])'],
                 "; Defined: a = list[2], sample: [1 2]\n; Defined: b = list[1], sample: [3]",
                 id="global-no-print"),
    pytest.param("turn", ['(def a [1 2]) (println "x")', '(def a [1 2 3])'],
                 "; Defined: a = list[3], sample: [1 2 3]", id="redefining-turn-decides"),
    pytest.param("turn", ['(def a [1 2])', '(def b 1) (println "x")', "(oops"],
                 "; Defined: a = list[2], sample: [1 2]\n; Defined: b = integer",
                 id="failed-turn-changes-nothing"),
])
def test_samples_or_output(rule, programs, expected):
    lines = summary(programs, sample_rule=rule).splitlines()
    assert "\n".join(line for line in lines if line.startswith("; Defined")) == expected


def test_SAM_002_printing_turn_shows_output_and_no_sample():
    assert summary(['(def users [{:name "Alice"}]) (println "Found" (count users) "users")']) == (
        "; No tool calls made\n; Defined: users = list[1]\n; Output:\nFound 1 users")


def test_global_rule_also_decides_result_types():
    assert summary(['(println "x")', "(tool/fetch-all)"], sample_rule="global") == (
        "; Tool calls:\n;   fetch-all()\n; Output:\nx")
    assert summary(['(println "x")', "(tool/fetch-all)"], sample_rule="turn") == (
        "; Tool calls:\n;   fetch-all() -> list[5]\n; Output:\nx")


@pytest.mark.parametrize("source, sample", [
    pytest.param('{:name "Alice" :age 30}', '{:age 30 :name "Alice"}', id="SAM-003-map"),
    pytest.param("[:a \"b\" 1.5 nil true]", '[:a "b" 1.5 ...] (5 items, showing first 3)',
                 id="SAM-003-TRN-004-vector"),
    pytest.param("#{3 1 2}", "#{1 2 3}", id="SAM-003-set"),
    pytest.param('"' + "q" * 90 + '"', '"' + "q" * 80 + '..."', id="TRN-005-string"),
    pytest.param('"a\\nb\\t\\"c\\""', '"a\\nb\\t\\"c\\""', id="escapes-keep-one-line"),
    pytest.param(":ready", ":ready", id="keyword"),
])
def test_sample_syntax(source, sample):
    assert summary([f"(def v {source})"]).splitlines()[1].endswith(f", sample: {sample}")
