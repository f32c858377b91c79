"""`*1 *2 *3`: the values of the previous turns' programs, latest first, nil before them."""

import pytest

from engine.agent import SubAgent, previous_results
from engine.lisp import pr_str, run
from engine.llm import ScriptedLLM
from engine.trace.files import dumps_trace, loads_trace


def code(program: str) -> str:
    return f"```clojure\n{program}\n```"


def test_run_reads_previous_values_latest_first_and_nil_where_missing():
    r = run("[*1 *2 *3]", previous=(3, [1, 2]))
    assert pr_str(r.value) == "[3 [1 2] nil]"
    assert run("*1").value is None


def test_previous_values_are_data_a_program_can_work_on():
    r = run("(->> *1 (map :price) (reduce +))", previous=([{"price": 2}, {"price": 3}],))
    assert r.value == 5


def test_only_three_previous_values_are_named():
    assert run("*4", previous=(1, 2, 3, 4)).error.reason == "unbound_var"
    assert run("*3", previous=(1, 2, 3, 4)).value == 3


def test_star_names_cannot_be_redefined_but_can_be_bound_locally():
    assert run("(def *1 5)").error.reason == "cannot_shadow_builtin"
    assert run("(let [*1 5] *1)", previous=(1,)).value == 5


def test_previous_must_be_a_sequence_of_values():
    with pytest.raises(ValueError, match="previous must be a tuple"):
        run("*1", previous=5)


def test_a_session_passes_each_turn_the_values_of_the_turns_before_it():
    llm = ScriptedLLM([code("(+ 1 2)"), code("[:second *1]"), code("(undefined)"),
                       "no code here", code("[*1 *2 *3]"), code("(return [*1 *2 *3])")])
    step = SubAgent("count", max_turns=6).run(llm)
    assert pr_str(step.turns[1].result) == "[:second 3]"
    # failed turns (an error, a reply without code) do not shift *1 *2 *3
    assert pr_str(step.turns[4].result) == "[[:second 3] 3 nil]"
    assert pr_str(step.return_value) == "[[[:second 3] 3 nil] [:second 3] 3]"


def test_previous_results_derive_from_the_turns_of_a_loaded_trace():
    llm = ScriptedLLM([code("{:a 1}"), code("(def x 2) x"), code("(return *2)")])
    session = SubAgent("values", max_turns=3).start(llm)
    while not session.done:
        session.step()
    loaded = loads_trace(dumps_trace(session.trace()))
    assert pr_str(session.result.return_value) == "{:a 1}"
    assert [pr_str(v) for v in previous_results(loaded.turns[:2])] == ["2", "{:a 1}"]
    assert previous_results(loaded.turns[:2]) == previous_results(session.turns[:2])
