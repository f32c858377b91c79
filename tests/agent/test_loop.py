"""The agent loop: outcomes, turn records, single-shot, LLM errors, option inheritance."""

import signal
import threading

import pytest

from engine.agent import SubAgent
from engine.history import HistoryOpts
from engine.history.sections import data_section, tools_section
from engine.lisp import Keyword
from engine.llm import Completion, LLMError, ScriptedLLM


def code(program: str) -> str:
    return f"thinking: step\n```clojure\n{program}\n```"


def reviews(category: str) -> str:
    """Customer review summary for a category."""
    return f"Reviews for {category}: Laptop 4.5/5, Mouse 3.2/5"


def agent(**kw) -> SubAgent:
    return SubAgent(mission="Find well-reviewed products", tools={"search-reviews": reviews},
                    data={"products": [{"name": "Laptop"}, {"name": "Mouse"}]}, **kw)


def test_return_ends_the_run_with_its_value_and_keeps_every_turn():
    llm = ScriptedLLM([code('(def r (tool/search-reviews "Electronics")) (println r)'),
                       code("(return (count data/products))")])
    step = agent().run(llm)
    assert (step.failed, step.return_value, len(step.turns)) == (False, 2, 2)
    first = step.turns[0]
    assert first.prints == ("Reviews for Electronics: Laptop 4.5/5, Mouse 3.2/5",)
    assert [c.name for c in first.tool_calls] == ["search-reviews"]
    assert first.memory == {"r": "Reviews for Electronics: Laptop 4.5/5, Mouse 3.2/5"}
    assert step.turns[1].signal == "return"
    assert step.messages == [t.messages for t in step.turns]
    assert llm.requests == [list(t.messages) for t in step.turns]


def test_fail_ends_the_run_as_failed_with_the_value_printed():
    step = agent().run(ScriptedLLM([code('(fail {:reason "none"})')]))
    assert step.failed and step.fail.reason == "failed"
    assert step.fail.message == '{:reason "none"}'
    assert step.python_value() == {"reason": "none"}


def test_running_out_of_turns_is_max_turns_exceeded():
    step = agent(max_turns=2).run(ScriptedLLM([code("(def a 1)"), code("(def b 2)")]))
    assert (step.failed, step.fail.reason, len(step.turns)) == (True, "max_turns_exceeded", 2)


def test_SS_002_max_turns_defaults_to_5():
    step = agent().run(ScriptedLLM([code(f"(def a{i} {i})") for i in range(5)]))
    assert len(step.turns) == 5 and step.fail.reason == "max_turns_exceeded"


def test_errors_and_replies_without_code_are_failed_turns_and_the_run_goes_on():
    llm = ScriptedLLM([code("(def x 1) (undefined-fn)"), "Let me think about it.",
                       code("(return 7)")])
    step = agent().run(llm)
    broken, no_code, last = step.turns
    assert broken.error.reason == "unbound_var" and broken.memory == {}   # rolled back
    assert no_code.program is None and no_code.error.reason == "no_code"
    assert no_code.raw_response == "Let me think about it."
    assert (last.success, step.return_value) == (True, 7)


def test_each_turn_records_the_request_it_was_sent():
    llm = ScriptedLLM([code("(println 1)"), code("(return 2)")])
    step = agent().run(llm)
    first, second = (t.messages for t in step.turns)
    assert [m["role"] for m in first] == ["system", "user"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == code("(println 1)")
    assert "tool/search-reviews(category string) -> string" in first[0]["content"]


def test_usage_reported_by_the_llm_is_kept_on_the_turn():
    def llm(messages):
        return Completion("```clojure\n(return 1)\n```", input_tokens=120, output_tokens=9,
                          cached_tokens=100)
    turn = agent().run(llm).turns[0]
    assert (turn.usage.input_tokens, turn.usage.output_tokens, turn.usage.cached_tokens) == (
        120, 9, 100)


def test_a_plain_function_returning_a_string_is_an_llm():
    step = agent().run(lambda messages: "(return :done)")
    assert step.return_value == Keyword("done")


@pytest.mark.parametrize("option", [False, True, "namespaced", {"println_limit": 2}])
def test_SS_001_single_shot_sends_system_and_mission_only_whatever_the_option(option):
    llm = ScriptedLLM([code("(->> data/products (map :name))")])
    step = agent(max_turns=1, compress_history=option).run(llm)
    (system, user), = [t.messages for t in step.turns]
    assert (system["role"], user["role"]) == ("system", "user")
    # the mission alone (namespaced moves the tools and data from SYSTEM to USER:
    # docs/history-rules.md, ARC-009)
    expected = "Find well-reviewed products"
    if option == "namespaced":
        context = agent(max_turns=1).context(agent().tool_list())
        expected += "\n\n" + tools_section(context) + "\n\n" + data_section(context, 3, 80)
    assert user["content"] == expected
    assert "Turns left" not in user["content"] and "FINAL TURN" not in user["content"]
    assert (step.failed, step.return_value) == (False, ("Laptop", "Mouse"))


def test_single_shot_uses_the_single_shot_reference():
    step = agent(max_turns=1).run(ScriptedLLM([code("1")]))
    system = step.turns[0].messages[0]["content"]
    assert "You have exactly one turn" in system and "Working in turns" not in system


def test_single_shot_error_fails_the_run_with_the_error_reason():
    step = agent(max_turns=1).run(ScriptedLLM([code("(nope)")]))
    assert (step.failed, step.fail.reason) == (True, "unbound_var")


def test_an_llm_error_ends_run_as_llm_error_keeping_the_turns_made():
    llm = ScriptedLLM([code("(def a 1)")])           # no second reply: LLMError
    step = agent().run(llm)
    assert (step.fail.reason, len(step.turns)) == ("llm_error", 1)
    assert "no reply left for request 2" in step.fail.message


def test_session_step_raises_an_llm_error_and_can_be_retried():
    replies = iter([LLMError("openai", "HTTP 503 overloaded", status=503), code("(return 1)")])

    def flaky(messages):
        r = next(replies)
        if isinstance(r, Exception):
            raise r
        return r
    session = agent().start(flaky)
    with pytest.raises(LLMError, match="503"):
        session.step()
    assert session.turns == [] and not session.done
    turn = session.step()
    assert (turn.number, session.done, session.result.return_value) == (1, True, 1)


def test_an_exception_inside_an_llm_callable_becomes_an_llm_error():
    def broken(messages):
        raise KeyError("choices")
    step = agent().run(broken)
    assert step.fail.reason == "llm_error" and "KeyError" in step.fail.message


def test_a_tool_that_raises_is_a_failed_turn_not_a_crash():
    def boom(x):
        raise RuntimeError("database down")
    a = SubAgent("m", tools={"boom": boom})
    step = a.run(ScriptedLLM([code("(tool/boom 1)"), code("(return 0)")]))
    assert step.turns[0].error.reason == "tool_error"
    assert "database down" in step.turns[0].error.message
    assert step.return_value == 0


def test_compress_history_of_run_overrides_the_agents_own():
    a = agent(compress_history=True)
    assert a.start(ScriptedLLM([]), compress_history="namespaced").opts.strategy == "namespaced"
    assert a.start(ScriptedLLM([])).opts == HistoryOpts(strategy="coalesced")
    assert agent().start(ScriptedLLM([])).opts.strategy == "full"        # API-003


def test_a_bad_history_option_is_refused_when_the_agent_is_made():
    with pytest.raises(ValueError, match="unknown history option 'printn_limit'"):
        agent(compress_history={"printn_limit": 3})
    with pytest.raises(ValueError, match="max_turns"):
        agent(max_turns=0)


def test_watchers_hear_of_every_turn_and_of_the_end_of_the_run():
    session = agent().start(ScriptedLLM([code("(def x 1)"), code("(return x)")]))
    heard = []
    session.watchers.append(lambda s: heard.append((len(s.turns), s.done)))
    session.step()
    assert heard == [(1, False)]
    session.step()                   # the run ends in the turn: told as it ends, then the turn
    assert heard == [(1, False), (2, True), (2, True)]
    stopped = agent().start(ScriptedLLM([code("(def x 1)")]))
    stopped.watchers.append(lambda s: heard.append(("stopped", s.done)))
    stopped.finish(fail=None)        # as the app ends a live run early
    assert heard[-1] == ("stopped", True)


def test_stepping_an_ended_session_is_an_error():
    session = agent().start(ScriptedLLM([code("(return 1)")]))
    session.step()
    with pytest.raises(RuntimeError, match="ended"):
        session.step()


def test_API_007_a_sub_agent_inherits_llm_and_history_options_from_its_caller():
    seen = []

    def llm(messages):
        seen.append(messages)
        if messages[1]["content"].startswith("Summarise Laptop"):
            return code('(return "good")')                 # the sub-agent's turn
        if len(seen) == 1:
            return code('(def s (tool/summarise {:name "Laptop"})) (println s)')
        return code("(return s)")
    child = SubAgent("Summarise {{name}} reviews")
    parent = SubAgent("Use the summariser", tools={"summarise": child},
                      compress_history={"println_limit": 4})
    step = parent.run(llm)
    assert (step.failed, step.return_value) == (False, "good")
    assert step.turns[0].tool_calls[0].result == "good"
    child_request = seen[1]
    # coalesced (inherited) sends [SYSTEM, USER]; the child's mission is filled in
    assert [m["role"] for m in child_request] == ["system", "user"]
    assert child_request[1]["content"].startswith("Summarise Laptop reviews")


def test_a_sub_agents_own_options_win_over_its_callers():
    requests = []

    def llm(messages):
        requests.append(messages)
        if messages[1]["content"].startswith("Child"):
            return code("(return 1)")
        return code("(return (tool/child))")
    parent = SubAgent("Parent", tools={"child": SubAgent("Child", compress_history=False)},
                      compress_history=True)
    assert parent.run(llm).return_value == 1
    assert requests[1][1]["content"] == "Child"      # full: the first USER is the bare mission


def test_a_failing_sub_agent_is_a_tool_error_for_its_caller():
    def llm(messages):
        if messages[1]["content"].startswith("Child"):
            return code('(fail "cannot")')
        return code("(tool/child)")
    parent = SubAgent("Parent", tools={"child": SubAgent("Child")}, max_turns=1)
    step = parent.run(llm)
    assert step.fail.reason == "tool_error" and "sub-agent child failed" in step.fail.message


def test_a_reply_whose_program_is_interrupted_is_kept():
    """Ctrl-C (or a signal) while the program runs: the reply already paid for stays a turn,
    marked interrupted, with the memory before it; the interruption goes on up.

    Tools run in a thread of their own, so the Ctrl-C is a real SIGINT, sent while the tool
    runs; like a terminal's, it interrupts the main thread, which waits for the tool."""
    def slow(_):
        signal.raise_signal(signal.SIGINT)
        threading.Event().wait(30)
    session = SubAgent(mission="m", tools={"slow": slow}, max_turns=3).start(
        ScriptedLLM([code("(def a 1)"), code('(tool/slow "x")')]))
    session.step()
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            session.step()
    finally:
        signal.signal(signal.SIGINT, old_handler)
    kept = session.turns[-1]
    assert (kept.number, kept.program, kept.error.reason) == (2, '(tool/slow "x")', "interrupted")
    assert '(tool/slow "x")' in kept.raw_response and kept.memory == session.turns[0].memory
    assert session.trace().outcome.status == "running"
