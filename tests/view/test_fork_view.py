"""A fork's turns taken over from its parent, under the options the fork recorded: the request
each shows and counts is the one the parent sent (under the parent's own options), named as
such, and its call is the parent's LLM's; under other options, every turn is a what-if."""

from engine.agent import fork
from engine.history import HistoryOpts
from engine.llm import ScriptedLLM
from engine.tokens import TokenCounter
from engine.trace import load_trace
from ptc_tui.view import TraceView
from ptc_tui.view.token_stats import token_stats
from sample_traces import HERE

PARENT = HERE / "strategy_comparison.json"
AT = 5


def forked(**changes):
    """strategy_comparison forked at turn 5 under `changes`, with one turn of its own."""
    parent = load_trace(PARENT)
    session = fork(parent, AT, ScriptedLLM(["```clojure\n(return 1)\n```"]),
                   opts=parent.agent.history.with_changes(**changes), parent_file=PARENT)
    session.step()
    return parent, session.trace()


def test_the_parents_turns_show_and_count_the_requests_the_parent_sent():
    parent, trace = forked(strategy="namespaced")
    assert parent.agent.history.strategy != "namespaced"
    view = TraceView.of(trace)
    counter = view.renders.counter
    sent = [counter.count_messages(t.messages).total for t in parent.turns[:AT - 1]]
    assert not view.what_if
    for number in range(1, AT):
        turn = view.turn(number)
        assert turn.messages.tokens == sent[number - 1]
        assert [m.content for m in turn.messages.messages] == \
            [m["content"] for m in parent.turns[number - 1].messages]
        assert turn.request_note.startswith("taken over from the parent: the request it sent")
    assert [row.tokens for row in view.rows()[:AT - 1]] == sent
    # the header's tokens sent are the requests sent: what the calls' input adds up to
    header = view.header()
    assert header.tokens == sum(counter.count_messages(t.messages).total for t in trace.turns)
    assert header.tokens == header.totals.input_tokens


def test_under_other_options_the_parents_turns_are_re_rendered_and_said_to_be():
    _, trace = forked(strategy="namespaced")
    view = TraceView.of(trace).with_strategy("full")
    note = view.turn(2).request_note
    assert view.what_if and "shown re-rendered under the options on screen" in note


def test_a_fork_that_changed_no_history_option_renders_its_parents_turns_as_they_were():
    parent, trace = forked()
    view = TraceView.of(trace)
    assert view.turn(3).request_note is None
    assert view.turn(3).messages.tokens == \
        view.renders.counter.count_messages(parent.turns[2].messages).total


def test_the_parents_turns_name_the_parents_llm_and_the_forks_its_own():
    parent, trace = forked(strategy="namespaced")
    view = TraceView.of(trace)
    assert trace.agent.llm != parent.agent.llm
    assert [view.call(i).model for i in range(AT)] == [parent.agent.llm] * (AT - 1) + \
        [trace.agent.llm]


def test_stats_count_the_recorded_strategy_of_a_fork_as_sent_too():
    _, trace = forked(strategy="namespaced")
    view = TraceView.of(trace)
    stats = token_stats(trace, counter=view.renders.counter)
    totals = {t.strategy: t.tokens for t in stats.totals}
    assert totals["namespaced"] == view.header().tokens       # what the screen says was sent
    assert totals["full"] == view.full_rendering.total        # a what-if: re-rendered
