"""A run imported from the reference implementation in the view: under its own options each
turn shows the request it recorded, tool calls included; any other strategy is a what-if, and
a turn whose re-run differs says so with both outcomes."""

from __future__ import annotations

from engine.agent.upstream import import_inspection
from ptc_tui.subcommands.render import request
from ptc_tui.view import TraceView
from tests.trace.upstream_fixture import PROGRAMS, loop_run


def imported(shown_value: int = 3):
    artifact, events = loop_run(shown_value=shown_value)
    return import_inspection(artifact, "run.inspection.jsonl", events)


def test_the_recorded_request_is_shown_with_its_tool_calls():
    turn = TraceView.of(imported()).turn(2)
    roles = [m.role for m in turn.messages.messages]
    assert roles == ["system", "user", "assistant", "tool"]
    assistant = turn.messages.messages[2].content
    assert assistant.startswith("Step 1.\n[tool call run_ptc_lisp: ")
    assert '"program": ' in assistant and "things/count" in assistant
    assert turn.request_note is None


def test_another_strategy_is_labelled_a_what_if():
    view = TraceView.of(imported()).with_strategy("coalesced")
    assert "what-if" in view.turn(2).request_note
    assert [m.role for m in view.turn(2).messages.messages][-1] == "user"   # ours, re-rendered


def test_a_turn_whose_re_run_differs_shows_both_outcomes():
    view = TraceView.of(imported(shown_value=4))
    note = view.turn(1).request_note
    assert note.startswith("re-run here differs. recorded: user=> 4")
    assert "ours: continued: user=> 3" in note
    assert view.turn(2).request_note is None


def test_render_gives_the_recorded_request_under_the_recorded_options():
    trace = imported()
    messages, _ = request(trace, 4, "full", trace.agent.history)
    assert len(messages) == len(trace.turns[3].messages) == 8
    assert PROGRAMS[0].replace("\n", "\\n").replace('"', '\\"') in messages[2]["content"]
