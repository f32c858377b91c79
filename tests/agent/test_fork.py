"""Forks: turns before N taken over as recorded (no LLM call, no tool run), turn N on under a
chosen LLM and options, tool calls answered from the record without the agent, the parent kept."""

import hashlib
from dataclasses import replace

import pytest

from engine.agent import SubAgent, fork, fork_llm
from engine.agent.llm_spec import replay_llm
from engine.history import HistoryOpts, Response, Usage, render
from engine.llm import Completion, ScriptedLLM
from engine.trace import dumps_trace, load_trace, loads_trace, save_trace
from engine.trace.files import trace_to_json
from engine.agent.upstream import import_inspection
from sample_traces import HERE, agent_paths, trace_path
from tests.trace.upstream_fixture import PROGRAMS, loop_run

SAMPLES = [trace_path(p) for p in agent_paths()]


def code(program: str) -> str:
    return f"```clojure\n{program}\n```"


def run_out(session):
    while not session.done:
        session.step()
    return session


def comparable(trace) -> dict:
    """The trace as saved, without what a fork changes by definition (its LLM's name, its
    parent) and without the volatile fields."""
    doc = trace_to_json(replace(trace.pinned(), parent=None, created_at=""))
    doc["agent"].pop("llm")
    return doc


class CountingLLM:
    """Replies from a script, counting its calls and keeping every request."""

    name = "counting"

    def __init__(self, replies):
        self.script = ScriptedLLM(list(replies))
        self.requests = []

    def __call__(self, messages):
        self.requests.append([dict(m) for m in messages])
        return self.script(messages)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_a_replay_fork_under_the_parents_options_reproduces_the_parent_at_every_turn(path):
    parent = load_trace(path)
    for at in range(1, len(parent.turns) + 1):
        session = run_out(fork(parent, at, fork_llm(f"replay:{path}", parent, at),
                               parent_file=path))
        assert comparable(session.trace()) == comparable(parent), f"fork at turn {at}"


def test_the_default_llm_of_a_scripted_parent_replays_the_parent():
    parent = load_trace(HERE / "product_search.json")
    llm = fork_llm(None, parent, 2, "product_search.json")
    assert llm.name == "replay:product_search.json"
    assert llm.replies == parent.replies[1:]


def test_a_different_reply_diverges_at_exactly_turn_n():
    parent = load_trace(HERE / "strategy_comparison.json")
    for at in (1, 4, len(parent.turns)):
        reply = code('(return "something else")')
        session = run_out(fork(parent, at, ScriptedLLM([reply])))
        programs = [t.program for t in session.turns]
        assert programs[:at - 1] == [t.program for t in parent.turns[:at - 1]]
        assert programs[at - 1] == '(return "something else")' != parent.turns[at - 1].program
        assert session.result.return_value == "something else"


def test_no_llm_call_is_made_for_the_turns_taken_over():
    parent = load_trace(HERE / "long_exploration.json")
    at = 20
    llm = CountingLLM(parent.replies[at - 1:])
    session = fork(parent, at, llm)
    assert llm.requests == [] and len(session.turns) == at - 1
    run_out(session)
    assert len(llm.requests) == len(parent.turns) - at + 1
    assert llm.requests[0] == list(parent.turns[at - 1].messages)


def test_requests_from_turn_n_on_are_rendered_under_the_forks_options():
    parent = load_trace(HERE / "strategy_comparison.json")
    opts = parent.agent.history.with_changes(strategy="namespaced", println_limit=2)
    at = 5
    llm = CountingLLM(parent.replies[at - 1:])
    session = run_out(fork(parent, at, llm, opts=opts))
    expected, _ = render("namespaced", parent.turns[:at - 1], parent.turns[at - 2].memory,
                         parent.context(), opts)
    assert llm.requests[0] == expected != list(parent.turns[at - 1].messages)
    assert session.turns[at - 1].messages == tuple(expected)
    # the turns taken over keep the requests they were recorded with
    assert [t.messages for t in session.turns[:at - 1]] == \
        [t.messages for t in parent.turns[:at - 1]]


def test_a_function_defined_before_the_fork_can_be_called_after_it():
    path = HERE / "long_exploration.json"
    parent = load_trace(path)                      # a file keeps functions as text only
    at = next(t.number for t in parent.turns if "avg" in t.memory) + 1
    session = run_out(fork(parent, at, ScriptedLLM([code("(return (avg [1 2 3]))")])))
    assert session.turns[-1].error is None and session.result.return_value == 2.0


def test_recorded_tool_results_answer_matching_calls_and_nothing_else():
    parent = load_trace(HERE / "product_search.json")
    program = ('(def a (tool/search-reviews "Electronics"))\n'
               '(def b (tool/get-inventory))\n'
               '(return [a b])')
    session = run_out(fork(parent, 2, ScriptedLLM([code(program)])))
    recorded = {c.name: c.result for c in parent.turns[0].tool_calls}
    assert session.result.return_value == (recorded["search-reviews"], recorded["get-inventory"])

    other = run_out(fork(parent, 2, ScriptedLLM([code('(tool/search-reviews "Garden")'),
                                                code("(return 1)")])))
    error = other.turns[1].error
    assert error.reason == "tool_error"
    assert "not available in a fork without its agent file" in error.message
    assert "tool/search-reviews" in error.message


def test_a_recorded_tool_error_is_repeated_word_for_word():
    parent = load_trace(HERE / "error_recovery.json")
    session = run_out(fork(parent, 2, ScriptedLLM([code('(tool/get-customer "1042")'),
                                                  code("(return 1)")])))
    assert session.turns[1].error.message == \
        "tool/get-customer failed: ValueError: customer not found: '1042'"


def test_with_the_agents_tools_real_tools_run():
    parent = load_trace(HERE / "product_search.json")
    calls = []

    def search_reviews(category: str) -> str:
        calls.append(category)
        return f"fresh reviews of {category}"

    tools = {"search-reviews": search_reviews, "get-inventory": lambda: "none"}
    session = run_out(fork(parent, 2, ScriptedLLM([code('(return (tool/search-reviews "Garden"))')]),
                           tools=tools))
    assert calls == ["Garden"] and session.result.return_value == "fresh reviews of Garden"
    assert session.trace().parent.tools == "agent"


def test_the_fork_records_its_parent_and_what_it_changed(tmp_path):
    path = HERE / "product_search.json"
    parent = load_trace(path)
    opts = parent.agent.history.with_changes(strategy="full", println_limit=4)
    llm = ScriptedLLM([code("(return 1)")], name="scripted:other.json")
    session = run_out(fork(parent, 2, llm, opts=opts, max_turns=7, parent_file=path))
    p = session.trace().parent
    assert p.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert (p.file, p.turn, p.tools) == ("product_search.json", 2, "recorded")
    assert p.changed == {"llm": "scripted:other.json", "strategy": "full", "println_limit": 4,
                         "max_turns": 7}
    saved = loads_trace(dumps_trace(session.trace()))
    assert saved.parent == p


def test_an_unsaved_parent_is_named_by_the_hash_of_its_json():
    parent = load_trace(HERE / "product_search.json")
    session = fork(parent, 1, ScriptedLLM([code("(return 1)")]))
    p = session.trace().parent
    assert p.file is None
    assert p.sha256 == hashlib.sha256(dumps_trace(parent).encode()).hexdigest()
    assert p.changed == {"llm": "scripted"}


@pytest.mark.parametrize("at", [0, 4, -1])
def test_a_turn_out_of_range_is_refused(at):
    parent = load_trace(HERE / "product_search.json")
    with pytest.raises(ValueError, match=rf"turn {at} is out of range: the trace has 3 turns \(1–3\)"):
        fork(parent, at, ScriptedLLM([]))


def test_a_turn_budget_below_the_fork_turn_is_refused():
    parent = load_trace(HERE / "strategy_comparison.json")
    with pytest.raises(ValueError, match="max_turns 3 is below the turn the fork starts at"):
        fork(parent, 5, ScriptedLLM([]), max_turns=3)


def test_real_tools_missing_one_of_the_parents_are_refused():
    parent = load_trace(HERE / "product_search.json")
    with pytest.raises(ValueError, match="no tool 'get-inventory'"):
        fork(parent, 1, ScriptedLLM([]), tools={"search-reviews": lambda c: c})


def test_a_bigger_turn_budget_lets_the_fork_run_past_the_parents():
    parent = load_trace(HERE / "out_of_turns.json")
    n = len(parent.turns)
    session = run_out(fork(parent, n, ScriptedLLM([code("(def x 1)"), code("(return 2)")]),
                           max_turns=n + 1))
    assert len(session.turns) == n + 1 and session.result.return_value == 2
    final = "FINAL TURN"            # what the request of the last turn of the budget says
    assert final in parent.turns[n - 1].messages[-1]["content"]
    assert final not in session.turns[n - 1].messages[-1]["content"]
    assert final in session.turns[n].messages[-1]["content"]


def test_a_sub_agent_tool_runs_with_the_forks_llm():
    parent = load_trace(HERE / "product_search.json")
    child = SubAgent("Answer {{q}}", max_turns=1)
    tools = {"search-reviews": child, "get-inventory": lambda: ""}
    llm = ScriptedLLM([code('(return (tool/search-reviews {:q "x"}))'), code('"child says hi"')])
    session = run_out(fork(parent, 2, llm, tools=tools, opts=HistoryOpts()))
    assert session.result.return_value == "child says hi"


def test_a_replayed_cut_reply_is_cut_again_and_fails_its_turn_as_recorded(tmp_path):
    replies = [Completion(code("(def a 1)"), finish_reason="stop", provider_finish_reason="stop"),
               Completion(code("(return a)") + "\nand", finish_reason="length",
                          provider_finish_reason="max_tokens", model="claude-x", input_tokens=9),
               Completion(code("(return a)"), finish_reason="stop", provider_finish_reason="stop")]
    session = SubAgent("Say a.", max_turns=4).start(lambda messages: replies.pop(0))
    parent = run_out(session).trace()
    assert parent.turns[1].error.reason == "truncated"
    path = tmp_path / "parent.json"
    save_trace(parent, path)
    for at in (1, 2):
        forked = run_out(fork(parent, at, fork_llm(f"replay:{path}", parent, at))).trace()
        second = forked.turns[1]
        assert second.error == parent.turns[1].error and second.tool_calls == ()
        # how the reply ended is replayed; the call itself (model, usage) was not made again
        assert second.response == Response(None, None, "length", "max_tokens")
        assert second.usage == Usage()
        assert (forked.outcome.status, forked.outcome.return_value) == ("returned", 1)
        assert len(forked.turns) == 3



def test_a_replay_fork_of_an_imported_reference_run_runs_the_programs_the_model_sent():
    """The reference run's model sent its programs in run_ptc_lisp calls, not in its text:
    replayed from turn 2, each turn still runs the program the model sent, its tool calls
    answered from the record, and ends as the recorded run did."""
    artifact, events = loop_run()
    parent = import_inspection(artifact, "run.inspection.jsonl", events)
    session = run_out(fork(parent, 2, replay_llm(parent.turns[1:], "replay:run")))
    forked = session.trace().turns
    assert [t.program for t in forked] == PROGRAMS
    assert [t.result for t in forked] == [t.result for t in parent.turns]
    assert forked[3].result == 6
