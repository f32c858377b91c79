"""What the LLM saw of a tool result, at the edges of the rules in engine/history/visibility.py:
the 200 characters a print is matched by, PTC `=` (numbers equal across int and float, never a
boolean and a number), the size up to which values are compared, and which print counts."""

import pytest

from engine.history.stats import CallRef
from engine.lisp.keys import KEY_BUDGET
from tests.history.rendering import coalesced, coalesced_stats, request

LONG = "".join(chr(ord("a") + i % 26) for i in range(300))
TOOLS = {"long": lambda: LONG, "one": lambda: 1, "yes": lambda: True, "none": lambda: None,
         "rows": lambda n: list(range(n)), "nested": lambda n: {"rows": list(range(n))},
         "ping": lambda: "pong", "empty": lambda: ""}


def unseen(programs, **opts):
    return coalesced_stats(programs, tools=TOOLS, **opts).results_unseen


@pytest.mark.parametrize("shown, seen", [(200, True), (199, False)])
def test_a_long_result_is_recognised_by_its_first_200_characters(shown, seen):
    program = f"(def r (tool/long)) (println (subs r 0 {shown})) (def r 0)"
    assert (unseen([program]) == ()) is seen


def test_a_print_that_holds_the_result_inside_a_longer_line_counts():
    assert unseen(['(def r (tool/ping)) (println "got" r "and more") (def r 0)']) == ()


def test_an_empty_string_result_is_not_taken_as_printed_by_any_print():
    assert unseen(['(tool/empty) (println "anything")']) == (CallRef(1, 0),)


@pytest.mark.parametrize("definition, tool, seen", [
    ("1.0", "one", True),           # (= 1 1.0) in PTC-Lisp
    ("1", "one", True),
    ("2", "one", False),
    ("1", "yes", False),            # true is not 1, though Python says so
    ("true", "yes", True),
    ("true", "one", False),
])
def test_a_sampled_definition_shows_an_equal_result(definition, tool, seen):
    assert (unseen([f"(def a {definition}) (tool/{tool})"]) == ()) is seen


@pytest.mark.parametrize("tool", ["rows", "nested"])
def test_values_are_compared_up_to_the_engines_own_size_bound(tool):
    # a vector of n items counts n + 1 against the bound (a map around it, 2 more)
    fits = KEY_BUDGET - 2 if tool == "rows" else KEY_BUDGET - 4
    for n, compared in [(fits, True), (fits + 1, False)]:
        value = f"(vec (range {n}))" if tool == "rows" else f"{{\"rows\" (vec (range {n}))}}"
        result = unseen([f"(def a {value}) (tool/{tool} {n})"])
        assert (result == ()) is compared, n


def test_the_first_print_of_a_turn_counts_when_it_is_the_one_shown():
    assert unseen(['(let [r (tool/ping)] (println r) (println "x"))'], println_limit=2) == ()


def test_results_before_a_nil_one_and_after_it_are_each_judged():
    _, stats, _ = request("full", ['(tool/ping) (tool/none) (tool/long)'], tools=TOOLS)
    assert stats.results_unseen == (CallRef(1, 0), CallRef(1, 2))


def test_a_result_is_not_taken_for_a_definition_whose_hash_it_shares():
    # hash(-1) == hash(-2) in Python: only `=` may decide
    tools = {"minus-two": lambda: -2}
    stats = coalesced_stats(["(def a -1) (tool/minus-two)"], tools=tools)
    assert stats.results_unseen == (CallRef(1, 0),)
    assert ";   minus-two() -> integer" in coalesced(["(def a -1) (tool/minus-two)"], tools=tools)


@pytest.mark.parametrize("n", [10, KEY_BUDGET])     # compared, and too large to compare
def test_calls_whose_arguments_print_alike_but_differ_are_not_collapsed(n):
    tools = {"g": lambda *args: 1}
    text = coalesced([f"(tool/g (vec (range {n}))) (tool/g (conj (vec (range {n - 1})) -1))"],
                     tools=tools)
    assert text.count(f";   g([0 1 2 ...] ({n} items, showing first 3)) -> integer") == 2
    same = coalesced([f"(tool/g (vec (range {n}))) (tool/g (vec (range {n})))"], tools=tools)
    assert ("x2" in same) is (n < KEY_BUDGET)     # too large to compare: never taken as equal


@pytest.mark.parametrize("definition, suffix", [
    ("[1 2 3 4 5]", ""),                 # equal to the result, though another value: held
    ("[1 2 3 4 6]", " -> list[5]"),      # same type and size, not equal: only the type shown
])
def test_a_call_line_leaves_out_the_type_of_a_result_a_definition_holds(definition, suffix):
    text = coalesced([f"(def a {definition}) (tool/fetch-all)"])
    assert f";   fetch-all(){suffix}\n" in text
