"""Each strategy's `options` names every option it reads: changing any other option leaves
every request as it was (the app keys its render cache on them)."""

from dataclasses import fields

import pytest

from engine.history import STRATEGIES, HistoryOpts, render_turns
from engine.trace import load_trace
from sample_traces import HERE

TRACES = ("error_recovery", "long_exploration", "strategy_comparison", "tool_heavy", "large_data")
# for each option, values far enough apart to change what a strategy that reads it renders
VALUES = {"println_limit": (0, 2), "tool_call_limit": (0, 2), "sample_limit": (0, 1),
          "sample_printable_limit": (5, 400), "args_limit": (0, 1), "args_printable_limit": (3, 400),
          "sample_rule": ("turn", "global"), "errors": ("all", "unrecovered"),
          "compaction_turns": (1, 50), "compaction_tokens": (None, 200), "keep_recent_turns": (0, 4)}


@pytest.fixture(scope="module")
def traces():
    return [load_trace(HERE / f"{name}.json") for name in TRACES]


def requests(trace, opts):
    return [messages for messages, _ in render_turns(opts.strategy, trace.turns, trace.context(),
                                                      opts)]


def test_every_option_has_test_values():
    assert set(VALUES) == {f.name for f in fields(HistoryOpts)} - {"strategy"}


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_options_a_strategy_does_not_name_change_nothing(strategy, traces):
    ignored = [name for name in VALUES if name not in STRATEGIES[strategy].options]
    for trace in traces:
        base = trace.agent.history.with_changes(strategy=strategy)
        expected = requests(trace, base)
        for name in ignored:
            for value in VALUES[name]:
                assert requests(trace, base.with_changes(**{name: value})) == expected, name
