"""The run-info view (`i`): the run as recorded, every LLM call priced, and for a run of the
reference implementation what no turn holds: its reported costs, the turns whose re-run
differs, the workflow's own LLM calls and evaluations."""

from __future__ import annotations

from engine.agent.upstream import import_inspection
from engine.trace import load_trace
from ptc_tui.view import TraceView
from ptc_tui.view.formats import cost_text
from ptc_tui.view.run_info import run_info
from tests.app.conftest import sample
from tests.trace.upstream_fixture import loop_run


def imported(shown_value: int = 3):
    artifact, events = loop_run(shown_value=shown_value)
    return import_inspection(artifact, "run.inspection.jsonl", events)


def sections(trace) -> dict[str, str]:
    return {s.title: s.text for s in run_info(trace, TraceView.of(trace).calls())}


def test_a_reference_run_shows_its_workflows_own_calls_and_evaluations():
    shown = sections(imported())
    call = shown["the workflow's own LLM calls (1)"]
    assert "[user] Grade the answer 6." in call and "[system] You grade." in call
    assert "[reply] A" in call and f"reported cost {cost_text(0.00001)}" in call
    evaluation = shown["the workflow's own evaluations (1)"]
    assert '(return (things/count "y"))' in evaluation and "status returned" in evaluation
    assert 'call things.count {"id": "y"}' in evaluation and '"n": 5' in evaluation


def test_a_reference_run_shows_each_requests_reported_cost_and_its_totals():
    trace = imported()
    reference = sections(trace)["reference run (ptc_runner)"]
    assert f"reported cost: {cost_text(trace.upstream['cost_usd'])} in all" in reference
    for number, cost in enumerate([0.0004, 0.0005, 0.0002, 0.0003], start=1):
        assert f"turn {number}: reported cost {cost_text(cost)}" in reference
    assert "differs" not in reference


def test_a_turn_whose_re_run_differs_shows_both_outcomes():
    reference = sections(imported(shown_value=4))["reference run (ptc_runner)"]
    assert "re-run here differs. recorded: user=> 4" in reference
    assert "ours: continued: user=> 3" in reference


def test_a_run_of_our_own_has_one_priced_line_per_llm_call_and_no_reference_sections():
    trace = load_trace(sample("strategy_comparison"))
    shown = sections(trace)
    assert list(shown) == ["run", "LLM calls"]
    calls = shown["LLM calls"].splitlines()
    assert [line.split(":")[0] for line in calls[:-1]] == \
        [f"turn {t.number}" for t in trace.turns]
    assert calls[-1].startswith("all: in ")
    assert f"outcome: {trace.outcome.status}" in shown["run"]
    assert trace.agent.mission in shown["run"]


def test_a_reference_runs_reported_costs_are_its_calls_costs_and_say_so():
    trace = imported()
    calls = TraceView.of(trace).calls()
    assert [c.cost for c in calls] == [0.0004, 0.0005, 0.0002, 0.0003]
    assert all(c.cost_reported for c in calls)
    shown = sections(trace)["LLM calls"]
    assert f"cost {cost_text(0.0004)} reported" in shown
    assert shown.splitlines()[-1].endswith(f"cost {cost_text(0.0014)} reported")
