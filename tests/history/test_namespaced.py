"""Strategy `namespaced`: the roadmap's one-USER-message format, on turns run by the engine."""

import pytest

from engine.history import HistoryOpts, render, render_turns
from engine.history.stats import CallRef
from engine.history.strategies import namespaced
from tests.history.build import NO_CODE, SEARCH, context, make_turns

TOOLS = {"search-reviews": lambda category: f"Reviews for {category}: good"}
MISSION = "Find well-reviewed products in stock"
HEAD = MISSION + "\n\n;; No tools available"
ERROR_1 = 'Error: type_error: + expects numbers, got string "a" at 1:1'


def request(programs, *, max_turns=5, opts=None, ctx=None):
    """The request after running `programs`: (system text, user text, stats)."""
    turns = make_turns(programs, tools=TOOLS)
    memory = turns[-1].memory if turns else {}
    messages, stats = render("namespaced", turns, memory, ctx or context(max_turns=max_turns),
                             opts)
    assert [m["role"] for m in messages] == ["system", "user"]
    return messages[0]["content"], messages[1]["content"], stats


def user(programs, **kw):
    return request(programs, **kw)[1]


# --- the first request -------------------------------------------------------------------------

def test_first_request_has_mission_tools_data_and_turn_line_only():
    ctx = context(tools=[SEARCH], data={"products": (1, 2, 3, 4)})
    system, text, stats = request([], ctx=ctx)
    assert system == "REFERENCE"
    assert text == (
        "Find well-reviewed products in stock\n\n"
        ";; === tools ===\n"
        "tool/search-reviews(category string) -> string  ; Customer review summary for a category"
        "\n\n"
        ";; === data/ ===\n"
        "data/products                 ; list[4], sample: [1 2 3 ...] (4 items, showing first 3)"
        "\n\n"
        "Turns left: 4")
    assert not stats.dropped_anything


def test_first_request_without_tools_says_so():
    assert user([]) == HEAD + "\n\nTurns left: 4"


def test_system_message_is_the_reference_only_and_never_changes():
    ctx = context(tools=[SEARCH], data={"products": (1, 2)})
    turns = make_turns(['(def r (tool/search-reviews "x"))', "(+ 1 \"a\")"], tools=TOOLS)
    systems = {msgs[0]["content"] for msgs, _ in render_turns("namespaced", turns, ctx)}
    assert systems == {"REFERENCE"}


# --- after successful turns --------------------------------------------------------------------

def test_exploration_turn_shows_prelude_with_samples_and_tool_calls():
    text = user(['(defn bump "Adds one" [x] (+ x 1)) '
                 '(def reviews (tool/search-reviews "Electronics")) (def none nil)'])
    assert text == HEAD + (
        "\n\n;; === user/ (your prelude) ===\n"
        '(bump [x])  ; "Adds one"\n'
        'reviews  ; = string, sample: "Reviews for Electronics: good"\n'
        "none  ; = nil\n\n"
        ";; Tool calls made:\n"
        ';;   search-reviews("Electronics")\n\n'
        "Turns left: 3")


def test_printing_turn_shows_output_and_omits_samples():
    _, text, stats = request(['(def reviews (tool/search-reviews "Electronics"))',
                              '(def n (count reviews)) (def none []) (println "got" n) '
                              '(println "line one\\nline two")'])
    assert text == HEAD + (
        "\n\n;; === user/ (your prelude) ===\n"
        "reviews  ; = string\n"
        "n  ; = integer\n"
        "none  ; = list[0]\n\n"
        ";; Tool calls made:\n"
        ';;   search-reviews("Electronics")\n\n'
        ";; Output:\n"
        "got 29\n"
        "line one\nline two\n\n"
        "Turns left: 2")
    assert stats.samples_omitted == ("reviews", "n")      # `none` has no sample to omit
    assert stats.prints_total == 2 and stats.prints_dropped == ()


def test_turn_without_tool_calls_says_no_tool_calls_made():
    assert user(["(def x 1)"]) == HEAD + (
        "\n\n;; === user/ (your prelude) ===\nx  ; = integer, sample: 1\n\n"
        ";; No tool calls made\n\nTurns left: 3")


def test_functions_come_first_then_values_in_order_of_first_definition():
    text = user(["(def a 1) (defn g [x] x) (def b 2)",
                 '(def a "two") (defn g "Second; g" [x y] y) (def c 3) (defn h [& xs] xs)'])
    assert text == HEAD + (
        "\n\n;; === user/ (your prelude) ===\n"
        '(g [x y])  ; "Second g"\n'
        "(h [& xs])\n"
        'a  ; = string, sample: "two"\n'
        "b  ; = integer, sample: 2\n"
        "c  ; = integer, sample: 3\n\n"
        ";; No tool calls made\n\nTurns left: 2")


@pytest.mark.parametrize("programs, line", [
    (['(defn f "old doc" [x] x)', "(defn f [x] x)"], "(f [x])"),                # doc dropped
    (["(def f 1)", "(defn f [a b] a)"], "(f [a b])"),                            # value -> fn
    (['(def v "A value" 7)'], 'v  ; "A value" = integer, sample: 7'),           # def docstring
    (["(def m map)"], "(m [& args])"),                                           # builtin alias
    (["(def q (fn [{:keys [a]} [x y]] a))"], "(q [_ _])"),                      # destructuring
])
def test_prelude_line(programs, line):
    prelude = user(programs).split("\n\n")[2].split("\n")
    assert prelude[0] == ";; === user/ (your prelude) ==="
    assert prelude[1:] == [line]


@pytest.mark.parametrize("doc, shown", [
    ("a;b", '"ab"'),
    ("line one\n   line two\ttab", '"line one line two tab"'),
    (";;", None),
    ("", None),
])
def test_docstrings_are_sanitised(doc, shown):
    program = f"(defn f {_lisp_string(doc)} [x] x)"
    line = user([program]).split("\n\n")[2].split("\n")[1]
    assert line == "(f [x])" + (f"  ; {shown}" if shown else "")


def _lisp_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") \
        .replace("\t", "\\t") + '"'


# --- failed turns ------------------------------------------------------------------------------

def test_still_failing_turn_is_shown_with_its_program_and_error():
    _, text, stats = request(["(def x 1)", '(+ 1 "a")'])
    assert text == HEAD + (
        "\n\n;; === user/ (your prelude) ===\nx  ; = integer, sample: 1\n\n"
        ";; No tool calls made\n\n"
        "---\nYour previous attempt:\n```clojure\n(+ 1 \"a\")\n```\n\n"
        f"{ERROR_1}\n---\n\n"
        "Turns left: 2")
    assert stats.failed_turns_shown == (2,)
    assert stats.failed_turns_collapsed == ()


def test_only_the_last_failed_turn_is_shown():
    _, text, stats = request(['(+ 1 "a")', "(undefined-fn 1)"])
    assert '(+ 1 "a")' not in text
    assert "(undefined-fn 1)" in text
    assert text.count("Your previous attempt:") == 1
    assert stats.failed_turns_shown == (2,)
    assert stats.failed_turns_collapsed == (1,)


def test_recovered_errors_are_collapsed():
    _, text, stats = request(['(+ 1 "a")', "(def x 1)"])
    assert text == HEAD + (
        "\n\n;; === user/ (your prelude) ===\nx  ; = integer, sample: 1\n\n"
        ";; No tool calls made\n\nTurns left: 2")
    assert stats.failed_turns_shown == ()
    assert stats.failed_turns_collapsed == (1,)


def test_failed_turns_only_give_no_tool_calls_made_and_the_error():
    text = user(['(+ 1 "a")'])
    assert text == HEAD + (
        "\n\n;; No tool calls made\n\n"
        "---\nYour previous attempt:\n```clojure\n(+ 1 \"a\")\n```\n\n"
        f"{ERROR_1}\n---\n\n"
        "Turns left: 3")


def test_reply_without_code_is_a_failed_turn_shown_as_no_code_found():
    text = user([NO_CODE])
    block = text.split("\n\n;; No tool calls made\n\n")[1]
    assert block.startswith("---\nYour previous attempt:\n```clojure\n(no code found)\n```\n\n"
                            "Error: no_code: No valid PTC-Lisp code found in response.")
    assert block.endswith("\n---\n\nTurns left: 3")


def test_failed_turn_tool_calls_and_prints_are_neither_shown_nor_counted():
    _, text, stats = request(['(tool/search-reviews "a") (println "first")',
                              '(tool/search-reviews "b") (println "lost") (+ 1 "a")',
                              '(println "third")'])
    assert ';;   search-reviews("a")' in text and "first" in text and "third" in text
    assert 'search-reviews("b")' not in text and "lost" not in text
    assert stats.tool_calls_total == 1 and stats.tool_calls_dropped == ()
    assert stats.prints_total == 2 and stats.prints_dropped == ()


# --- limits (FIFO) -----------------------------------------------------------------------------

def test_tool_call_limit_keeps_the_most_recent_calls():
    programs = ['(tool/search-reviews "a") (tool/search-reviews "b") (tool/search-reviews "c")',
                '(tool/search-reviews "d")']
    _, text, stats = request(programs, opts=HistoryOpts(tool_call_limit=2))
    assert (';; Tool calls made:\n;;   search-reviews("c")\n;;   search-reviews("d")\n\n'
            in text)
    assert '"a"' not in text and '"b"' not in text
    assert stats.tool_calls_total == 4
    assert stats.tool_calls_dropped == (CallRef(1, 0), CallRef(1, 1))


def test_println_limit_keeps_the_most_recent_prints():
    programs = ['(println "p1") (println "p2")', '(println "p3") (println "p4")']
    _, text, stats = request(programs, opts=HistoryOpts(println_limit=3))
    assert ";; Output:\np2\np3\np4\n\nTurns left: 2" in text
    assert stats.prints_total == 4 and stats.prints_dropped == (CallRef(1, 0),)


def test_zero_limits_leave_the_sections_out():
    programs = ['(tool/search-reviews "a") (println "p")']
    _, text, stats = request(programs, opts=HistoryOpts(tool_call_limit=0, println_limit=0))
    assert "Tool calls" not in text and "No tool calls" not in text and "Output" not in text
    assert stats.tool_calls_dropped == (CallRef(1, 0),)
    assert stats.prints_dropped == (CallRef(1, 0),)


def test_sample_and_args_limits_apply():
    programs = ['(def xs [1 2 3 4 5]) (tool/search-reviews "abcdefghij")']
    opts = HistoryOpts(sample_limit=2, args_printable_limit=4)
    text = user(programs, opts=opts)
    assert "xs  ; = list[5], sample: [1 2 ...] (5 items, showing first 2)" in text
    assert ';;   search-reviews("abcd...")' in text


# --- the turn line -----------------------------------------------------------------------------

@pytest.mark.parametrize("done, line", [
    (0, "Turns left: 2"),
    (1, "Turns left: 1"),
    (2, "FINAL TURN - you must call (return result) or (fail reason) now."),
    (3, "FINAL TURN - you must call (return result) or (fail reason) now."),
])
def test_turn_line_counts_the_turns_after_the_requested_one(done, line):
    assert user(["(def x 1)"] * done, max_turns=3).endswith("\n\n" + line)


def test_single_shot_is_mission_tools_and_data_without_turn_line():
    ctx = context(max_turns=1, tools=[SEARCH], data={"n": 42})
    system, text, stats = request([], ctx=ctx)
    assert system == "REFERENCE"
    assert text == (
        "Find well-reviewed products in stock\n\n"
        ";; === tools ===\n"
        "tool/search-reviews(category string) -> string  ; Customer review summary for a category"
        "\n\n"
        ";; === data/ ===\n"
        "data/n                        ; integer, sample: 42")
    assert not stats.dropped_anything


# --- stats: what the LLM did not see -----------------------------------------------------------

def test_results_unseen_are_results_neither_stored_nor_printed():
    programs = ['(def r (tool/search-reviews "kept")) (tool/search-reviews "lost")']
    assert request(programs)[2].results_unseen == (CallRef(1, 1),)


@pytest.mark.parametrize("println_limit, unseen", [
    (15, (CallRef(1, 0), CallRef(2, 1))),
    (0, (CallRef(1, 0), CallRef(2, 0), CallRef(2, 1))),    # the print showing it was cut
])
def test_once_anything_printed_only_shown_prints_show_results(println_limit, unseen):
    programs = ['(def r (tool/search-reviews "kept"))',          # sample omitted from now on
                '(println (tool/search-reviews "shown")) (tool/search-reviews "quiet")']
    stats = request(programs, opts=HistoryOpts(println_limit=println_limit))[2]
    assert stats.results_unseen == unseen


def test_a_result_printed_after_other_prints_is_seen_while_that_print_is_shown():
    # the print is the run's 4th (index 3): shown under a limit of 2, cut under a limit of 1
    programs = ['(println "a") (println "b")',
                '(println "x") (println (tool/search-reviews "shown"))']
    assert request(programs, opts=HistoryOpts(println_limit=2))[2].results_unseen == ()
    assert request(programs, opts=HistoryOpts(println_limit=1))[2].results_unseen == ()
    assert request(programs, opts=HistoryOpts(println_limit=0))[2].results_unseen == \
        (CallRef(2, 0),)


def test_nil_results_are_never_unseen():
    tools = {"notify": lambda name: None}
    turns = make_turns(['(tool/notify "Bob")'], tools=tools)
    assert render("namespaced", turns, {}, context())[1].results_unseen == ()


# --- purity and incremental rendering ----------------------------------------------------------

def test_render_turns_matches_one_off_renders_and_is_repeatable():
    programs = ['(def r (tool/search-reviews "x"))', '(+ 1 "a")', '(println r)', "(def y 2)"]
    turns = make_turns(programs, tools=TOOLS)
    ctx = context()
    incremental = render_turns("namespaced", turns, ctx)
    memory = {}
    for i, turn in enumerate(turns):
        assert render("namespaced", turns[:i], memory, ctx) == incremental[i]
        memory = turn.memory
    assert render_turns("namespaced", turns, ctx) == incremental


@pytest.mark.parametrize("programs, line", [
    (["(def v 1)", '(def v "two")'], 'v  ; = string, sample: "two"'),
    (['(def v "old doc" 7)', '(def v "new doc" 7)'], 'v  ; "new doc" = integer, sample: 7'),
], ids=["new-value", "same-value-new-doc"])
def test_a_redefined_name_shows_its_new_line_in_every_later_request(programs, line):
    turns = make_turns([*programs, "(def w 0)"])
    after_both = render("namespaced", turns[:2], turns[1].memory, context())
    assert render_turns("namespaced", turns, context())[2] == after_both
    assert after_both[0][1]["content"].split("\n\n")[2].split("\n")[1] == line


def test_repeated_renders_sample_each_unchanged_value_once(monkeypatch):
    """Each request of a long run lists every name: a value's line and sample are made when
    it is first listed, not again for every request."""
    turns = make_turns(["(def xs (range 100))", "(def n 1)", "(def n 2)", "(def m 3)"])
    sampled, real = [], namespaced.sample_text

    def counted(value, *limits):
        sampled.append(value)
        return real(value, *limits)
    monkeypatch.setattr(namespaced, "sample_text", counted)
    renderer = namespaced.Namespaced(context(), HistoryOpts(strategy="namespaced"))
    for turn in turns:
        renderer.add(turn)
        first = renderer.render(turn.memory)
        assert renderer.render(turn.memory) == first
    assert sampled == [tuple(range(100)), 1, 2, 3]
