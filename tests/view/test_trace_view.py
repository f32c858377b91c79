"""TraceView: turn rows, options and strategies, the shared render cache, the header."""

import pytest

from engine.tokens import TokenCounter
from ptc_tui.view import Renders, TraceView
from ptc_tui.view.token_stats import token_stats


def test_rows_follow_the_trace(view):
    v = view("error_recovery")
    rows = v.rows()
    assert [r.number for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r.status for r in rows] == ["error", "ok", "error", "ok", "error", "ok", "no_code",
                                        "return"]


def test_fail_status(view):
    assert [r.status for r in view("fail_not_found").rows()] == ["ok", "ok", "fail"]


@pytest.mark.parametrize("name", ["error_recovery", "strategy_comparison", "long_exploration"])
def test_row_tokens_are_the_stats_commands_numbers(view, name):
    v = view(name)
    stats = token_stats(v.trace, ["coalesced", "full"])
    assert [(r.tokens, r.full_tokens) for r in v.rows()] == [
        (t.tokens["coalesced"], t.tokens["full"]) for t in stats.turns]


def test_strategy_switch_changes_token_counts(view):
    v = view("strategy_comparison")
    assert v.strategy == "coalesced"
    full = v.with_strategy("full")
    assert full.strategy == "full"
    assert [r.tokens for r in full.rows()] == [r.full_tokens for r in v.rows()]
    assert [r.tokens for r in full.rows()] != [r.tokens for r in v.rows()]
    assert full.header().saved == 0 and v.header().saved > 0


def test_with_options_keeps_the_view_unchanged(view):
    v = view("long_exploration")
    w = v.with_options(println_limit=2)
    assert v.opts == v.trace.agent.history and v.opts.println_limit == 6
    assert w.opts.println_limit == 2
    assert w.strategy == v.strategy


def test_bad_option_is_refused(view):
    with pytest.raises(ValueError):
        view("product_search").with_strategy("nonsense")


def test_cache_gives_the_same_rendering_back(view):
    v = view("strategy_comparison")
    first = v.rendering
    assert v.opts.println_limit == 3
    back = v.with_strategy("full").with_options(println_limit=15).with_options(
        println_limit=3).with_strategy("coalesced")
    assert back.rendering is first
    assert v.with_options(println_limit=15).rendering is not first
    assert v.renders is back.renders


def test_one_counter_for_every_view(view):
    v = view("product_search")
    w = v.with_strategy("namespaced")
    w.rows()
    assert w.renders.counter is v.renders.counter
    assert len(v.renders) == 2          # namespaced and full, each rendered once
    v.with_strategy("full").rows()
    assert len(v.renders) == 2


def test_a_limit_full_does_not_read_reuses_its_rendering(view):
    v = view("long_exploration").with_strategy("coalesced")
    full = v.full_rendering
    changed = v.with_options(println_limit=v.opts.println_limit + 1)
    assert changed.full_rendering is full
    assert changed.rendering is not v.rendering
    assert changed.turn(7).messages.full_tokens == v.turn(7).messages.full_tokens


def test_counter_can_be_shared_across_traces(traces):
    counter = TokenCounter()
    a, b = (TraceView.of(traces(n), renders=Renders(traces(n), counter))
            for n in ("product_search", "error_recovery"))
    assert a.renders.counter is counter and b.renders.counter is counter
    assert a.rows() and b.rows()


@pytest.mark.parametrize("name, outcome", [
    ("error_recovery", "returned"),
    ("fail_not_found", "failed: not-found"),
    ("out_of_turns", "out of turns"),
])
def test_header_outcome(view, name, outcome):
    assert view(name).header().outcome == outcome


def test_header(view):
    v = view("strategy_comparison")
    h = v.header()
    assert h.mission == v.trace.agent.mission.strip().splitlines()[0]
    assert "\n" not in h.mission
    assert h.llm == "scripted:strategy_comparison.py"
    assert h.strategy == "coalesced"
    assert dict(h.limits)["println_limit"] == 3 and "strategy" not in dict(h.limits)
    assert h.tokens == sum(r.tokens for r in v.rows())
    assert h.full_tokens == sum(r.full_tokens for r in v.rows())
    assert h.saved == h.full_tokens - h.tokens
    assert h.saved_percent == pytest.approx(100 * h.saved / h.full_tokens)
    assert dict(v.with_options(println_limit=4).header().limits)["println_limit"] == 4


def test_the_headers_run_cost_is_the_recorded_calls_with_the_cache_model():
    """The main screen prices the recorded calls as `stats`, compare and experiments do."""
    import dataclasses

    from engine.tokens import price_for, total_cost
    from engine.trace import load_trace
    from engine.tokens import run_costs
    from sample_traces import HERE
    trace = load_trace(HERE / "tool_heavy.json")
    trace = dataclasses.replace(trace, agent=dataclasses.replace(trace.agent,
                                                                 llm="openai:gpt-4.1"))
    view = TraceView.of(trace)
    counter = TokenCounter(view.renders.counter.encoding)
    calls = run_costs(trace.turns, price_for("gpt-4.1"), counter, "openai:gpt-4.1")
    assert [c.cached_tokens for c in view.calls()] == [c.cached_tokens for c in calls]
    assert any(c.cached_tokens for c in calls)
    assert view.header().totals.cost == pytest.approx(total_cost(calls).usd)


def gpt41(name: str):
    """A sample trace as if run by openai:gpt-4.1 (the scripted samples' LLM caches nothing)."""
    import dataclasses

    from engine.trace import load_trace
    from sample_traces import HERE
    trace = load_trace(HERE / f"{name}.json")
    return dataclasses.replace(trace, agent=dataclasses.replace(trace.agent,
                                                                llm="openai:gpt-4.1"))


def test_a_turns_call_asked_first_has_the_split_of_the_whole_run():
    """The cache model sees the recorded requests in order however the turns are asked for
    (a long trace's last turn first, then its first), one request more per turn."""
    from engine.tokens import recorded_splits
    trace = gpt41("tool_heavy")
    view = TraceView.of(trace)
    whole = recorded_splits(trace.turns, TokenCounter(view.renders.counter.encoding),
                            "openai:gpt-4.1")
    last = len(trace.turns) - 1
    assert view.call(last).cached_tokens == whole[last].read > 0
    assert [c.cached_tokens for c in view.calls()] == [s.read for s in whole]


def test_a_strategy_is_split_by_the_cache_model_once_per_rendering():
    """A change of an option the strategy does not read keeps its rendering and its split:
    only the strategies that read the option are split again."""
    from engine.tokens import cache_policy
    from ptc_tui.view.token_stats import token_stats
    trace = gpt41("tool_heavy")
    view = TraceView.of(trace)
    policy = cache_policy("gpt-4.1")
    full = view.with_strategy("full").rendering.cache_splits(policy)
    coalesced = view.rendering.cache_splits(policy)
    assert full == tuple(t.cache["full"] for t in token_stats(trace, model="gpt-4.1").turns)
    other = view.with_options(println_limit=view.opts.println_limit + 1)
    assert other.with_strategy("full").rendering.cache_splits(policy) is full
    assert other.rendering.cache_splits(policy) is not coalesced


def test_the_latest_turn_views_are_kept(view):
    """The counting worker makes every turn's view in order: the last VIEWS_KEPT stay made
    (ready for `G`), the earlier ones are let go; a view under other options is its own."""
    from ptc_tui.view.renders import VIEWS_KEPT
    v = view("long_exploration")
    numbers = list(v.turns)
    assert len(numbers) > VIEWS_KEPT
    made = {n: v.turn(n) for n in numbers}               # as the counting worker goes
    assert all(v.turn(n) is made[n] for n in numbers[-VIEWS_KEPT:])
    assert v.turn(numbers[0]) is not made[numbers[0]]
    assert v.turn(numbers[0]) == made[numbers[0]]        # made again, the same
    other = v.with_options(println_limit=1)
    assert other.turn(numbers[-1]) is not made[numbers[-1]]
    assert other.turn(numbers[-1]).messages != made[numbers[-1]].messages
