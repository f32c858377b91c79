"""The sample agents and their committed traces: each trace is what its agent file records
now, loads, and renders under every strategy."""

import pytest

from engine.agent.files import load_agent_file, record
from engine.history import STRATEGIES, HistoryOpts, render_turns
from engine.trace import dumps_trace, load_trace
from sample_traces import agent_paths, trace_path

SAMPLES = agent_paths()


def test_there_are_samples():
    assert SAMPLES


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_committed_trace_is_what_the_agent_file_records(path):
    """Regenerate with `python -m sample_traces.regenerate` after changing an agent or the
    engine. Volatile fields are pinned when recording, so nothing needs ignoring."""
    committed = trace_path(path)
    assert committed.exists(), f"no trace beside {path.name}: run python -m sample_traces.regenerate"
    fresh = dumps_trace(record(load_agent_file(path)))
    assert fresh == committed.read_text(encoding="utf-8"), (
        f"{committed.name} is stale: run python -m sample_traces.regenerate {path.stem}")


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_has_a_one_line_description(path):
    description = load_trace(trace_path(path)).agent.description
    assert description and "\n" not in description and len(description) <= 100


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_renders_under_every_strategy(path, strategy):
    trace = load_trace(trace_path(path))
    requests = render_turns(strategy, trace.turns, trace.context(), HistoryOpts(strategy=strategy))
    assert len(requests) == len(trace.turns)
    assert all(messages[0]["role"] == "system" for messages, _ in requests)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_recorded_requests_are_what_the_recorded_strategy_renders(path):
    trace = load_trace(trace_path(path))
    opts = trace.agent.history
    requests = render_turns(opts.strategy, trace.turns, trace.context(), opts)
    assert [tuple(m) for m, _ in requests] == [t.messages for t in trace.turns]
