"""Per option set: the Wilson interval, mean and spread, differences to the first set, and the
chart of the experiment screen."""

import pytest

from ptc_tui.experiments.plan import option_sets, run_seed
from ptc_tui.experiments.summary import Spread, summarize, wilson
from ptc_tui.view.experiment import ExperimentView
from engine.history import HistoryOpts


@pytest.mark.parametrize("k, n, low, high", [
    (0, 20, 0.0, 0.1611), (20, 20, 0.8389, 1.0), (10, 20, 0.2993, 0.7007), (1, 10, 0.0179, 0.4042),
])
def test_wilson_interval_matches_the_textbook_values(k, n, low, high):
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_no_runs_is_the_whole_interval():
    assert wilson(0, 0) == (0.0, 1.0)


def row(label, success, turns, tokens, cost):
    return {"option_set": label, "success": success, "turns": turns, "input_tokens": tokens,
            "cost": cost}


def test_summaries_mean_spread_and_difference_to_the_first():
    rows = [row("a", True, 2, 100, 0.1), row("a", True, 4, 300, 0.3),
            row("b", False, 6, 50, None), row("b", True, 6, 150, 0.2)]
    a, b = summarize(["a", "b"], rows)
    assert (a.runs, a.successes, a.rate) == (2, 2, 1.0)
    assert a.turns == Spread(3.0, pytest.approx(1.4142, abs=1e-4))
    assert b.cost is None                                # one unknown price: unknown
    assert b.difference(a) == {"success_rate": -0.5, "turns": 3.0, "input_tokens": -100.0,
                               "cost": None}


def test_run_seeds_depend_on_seed_set_and_repeat_only():
    seeds = {run_seed(s, label, r) for s in (0, 1) for label in ("full", "coalesced")
             for r in range(3)}
    assert len(seeds) == 12 and run_seed(0, "full", 1) == run_seed(0, "full", 1)


def test_option_sets_keep_the_agents_own_options():
    base = HistoryOpts(strategy="coalesced", tool_call_limit=7)
    [s] = option_sets(base, ["namespaced"], [("println_limit", [2])])
    assert (s.opts.strategy, s.opts.tool_call_limit, s.opts.println_limit) == ("namespaced", 7, 2)


def test_the_chart_puts_each_set_at_its_rate_and_tokens(tmp_path):
    view = ExperimentView(tmp_path, {"runs": []}, tuple(summarize(["a", "b", "c"], [
        row("a", True, 1, 100, None), row("b", False, 1, 300, None),
        row("c", True, 1, 200, None), row("c", False, 1, 200, None)])))
    lines = view.chart(width=21, height=5)
    assert lines[0] == "100% │1" + " " * 20
    assert lines[2] == "     │" + " " * 10 + "3" + " " * 10          # 50% in the middle
    assert lines[4] == "  0% │" + " " * 20 + "2"
    assert lines[6].split() == ["100", "300"]


def test_a_runs_cost_is_priced_from_the_providers_usage_where_reported():
    import dataclasses
    from types import SimpleNamespace
    import pytest as _pytest
    from engine.history import Usage
    from engine.tokens import price_for
    from engine.trace import load_trace
    from ptc_tui.experiments.runs import totals
    from sample_traces import HERE
    turns = tuple(dataclasses.replace(t, usage=Usage(2000, 100, 1024))
                  for t in load_trace(HERE / "product_search.json").turns)
    price = price_for("gpt-4.1")
    cached = price.cached_input if price.cached_input is not None else price.input
    per_turn = (976 * price.input + 1024 * cached + 100 * price.output) / 1e6
    row = totals(SimpleNamespace(turns=turns), "gpt-4.1")
    assert row["cost"] == _pytest.approx(per_turn * len(turns))
    assert row["reported_input_tokens"] == 2000 * len(turns)


def test_a_runs_cost_without_reported_cache_figures_takes_the_cache_models():
    """The experiments report prices a run as `stats` prices the recorded calls: where the
    provider reported no cache reads, the cache model's reads at the cached price."""
    from types import SimpleNamespace

    from engine.tokens import TokenCounter, encoding_for_model, price_for, total_cost
    from engine.trace import load_trace
    from ptc_tui.experiments.runs import totals
    from engine.tokens import recorded_splits, run_costs
    from sample_traces import HERE
    turns = load_trace(HERE / "tool_heavy.json").turns
    counter = TokenCounter(encoding_for_model("gpt-4.1"))
    row = totals(SimpleNamespace(turns=turns), "gpt-4.1")
    price = price_for("gpt-4.1")
    splits = recorded_splits(turns, counter, "gpt-4.1")
    assert sum(s.read for s in splits) > 0
    outputs = sum(counter.count(t.raw_response) for t in turns)
    assert row["cost"] == pytest.approx(
        (sum(s.uncached for s in splits) * price.input + sum(s.read for s in splits)
         * price.cached_input + outputs * price.output) / 1e6)
    assert row["cost"] < total_cost(run_costs(turns, price, counter, "gpt-4.1",
                                              caching=False)).usd
