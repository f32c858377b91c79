"""Each strategy's `options` names every option it reads: changing any other option leaves
every request as it was (the app keys its render cache on them), and changing one it reads
changes the requests the way the option promises."""

from dataclasses import fields

import pytest

from engine.agent import SubAgent
from engine.history import BASELINE, STRATEGIES, HistoryOpts, render_turns, strategy_order
from engine.llm import ScriptedLLM
from engine.trace import load_trace
from sample_traces import HERE

TRACES = ("error_recovery", "long_exploration", "strategy_comparison", "tool_heavy", "large_data")
# for each option, values far enough apart to change what a strategy that reads it renders
VALUES = {"println_limit": (0, 2), "tool_call_limit": (0, 2), "sample_limit": (0, 1),
          "sample_printable_limit": (5, 400), "args_limit": (0, 1), "args_printable_limit": (3, 400),
          "sample_rule": ("turn", "global"), "errors": ("all", "unrecovered"),
          "compaction_turns": (1, 50), "compaction_tokens": (None, 200), "keep_recent_turns": (0, 4)}


def lookup(ids, note):
    return [{"id": i, "note": note} for i in ids]


def collection_arguments():
    """A run whose tool calls take collections and long strings as arguments (no sample does),
    so that the argument limits have something to cut."""
    program = ('(def found (tool/lookup [1 2 3 4 5] "{note}"))\n(println (count found))'
               .format(note="a long note " * 10))
    replies = [f"```clojure\n{program}\n```"] * 2 + ["```clojure\n(return 1)\n```"]
    session = SubAgent("Look things up.", tools={"lookup": lookup}, max_turns=3,
                       compress_history="coalesced").start(ScriptedLLM(replies))
    while not session.done:
        session.step()
    return session.trace()


@pytest.fixture(scope="module")
def traces():
    return [load_trace(HERE / f"{name}.json") for name in TRACES] + [collection_arguments()]


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


# For each option: (the value that shows less, the value that shows more). A strategy that
# reads an option must show at least as much under the second on every sample and strictly
# more on one: a strategy that ignores an option it claims, or reads it backwards, fails.
SHOWS_LESS_THEN_MORE = {
    "println_limit": (0, 2), "tool_call_limit": (0, 2), "sample_limit": (0, 1),
    "sample_printable_limit": (5, 400), "args_limit": (0, 1), "args_printable_limit": (3, 400),
    "errors": ("unrecovered", "all"),            # the last error only, or every failed turn
    "compaction_turns": (1, 50),                 # compacting after 1 turn, or after 50
    "compaction_tokens": (200, None),            # compacting past 200 tokens, or never by size
    "keep_recent_turns": (0, 4),                 # verbatim turns kept after compaction
}


def characters(trace, opts) -> int:
    return sum(len(m["content"]) for request in requests(trace, opts) for m in request)


READ_OPTIONS = [(strategy, name) for strategy in sorted(STRATEGIES)
                for name in STRATEGIES[strategy].options]


@pytest.mark.parametrize("strategy, name", READ_OPTIONS, ids=[f"{s}-{n}" for s, n in READ_OPTIONS])
def test_every_option_a_strategy_reads_changes_its_requests_as_promised(strategy, name, traces):
    if name == "sample_rule":        # "turn" or "global": neither shows more, they differ
        changed = [requests(t, t.agent.history.with_changes(strategy=strategy, sample_rule="turn"))
                   != requests(t, t.agent.history.with_changes(strategy=strategy,
                                                               sample_rule="global"))
                   for t in traces]
        assert any(changed)
        return
    less, more = SHOWS_LESS_THEN_MORE[name]
    sizes = []
    for trace in traces:
        base = trace.agent.history.with_changes(strategy=strategy)
        sizes.append((characters(trace, base.with_changes(**{name: less})),
                      characters(trace, base.with_changes(**{name: more}))))
    assert all(small <= large for small, large in sizes), sizes
    assert any(small < large for small, large in sizes), sizes


def test_strategies_are_offered_with_the_full_baseline_first_and_each_once():
    order = strategy_order()
    assert order[0] == BASELINE == "full"
    assert sorted(order) == sorted(STRATEGIES) and len(set(order)) == len(order)
