"""The token view-model: bars scaled to the width, totals and costs, price models, no Textual."""

import subprocess
import sys
from dataclasses import replace

import pytest

from engine.tokens import Price, PriceTable, TokenCounter, cost, load_prices
from ptc_tui.view.token_stats import token_stats
from ptc_tui.view.tokens import TokenView, model_choices, price_text

TABLE = PriceTable("2026-01-01", "test", {"gpt-4o-mini": Price("gpt-4o-mini", 0.15, 0.6),
                                          "gpt-4o": Price("gpt-4o", 2.5, 10.0)})


def test_price_text():
    assert price_text(None) == "unknown"
    assert price_text(TABLE.models["gpt-4o-mini"]) == "$0.15/M input"


def test_totals_match_token_stats_under_the_main_views_options(view):
    main = view("strategy_comparison").with_strategy("namespaced").with_options(println_limit=2)
    tokens = TokenView.of(main, TABLE)
    expected = token_stats(main.trace, overrides={"println_limit": 2})
    assert [(r.strategy, r.tokens, r.saved, r.saved_percent) for r in tokens.totals()] == \
        [(t.strategy, t.tokens, t.saved, t.saved_percent) for t in expected.totals]
    assert [r.strategy for r in tokens.totals() if r.current] == ["namespaced"]
    assert [(t.number, t.status, t.tokens, t.reported) for t in tokens.stats.turns] == \
        [(t.number, t.status, t.tokens, t.reported) for t in expected.turns]


def test_caching_figures_match_token_stats_for_the_picked_model(view):
    """The view's per-turn split and its costs with caching are the ones `stats` gives for the
    same model (one cache model, one cost function)."""
    main = view("strategy_comparison").with_options(println_limit=2)
    tokens = TokenView.of(main, TABLE).with_model("gpt-4o")
    expected = token_stats(main.trace, overrides={"println_limit": 2}, model="gpt-4o",
                           counter=TokenCounter(main.renders.counter.encoding))
    assert tokens.turn_cache() == tuple(t.cache for t in expected.turns)
    assert any(split.read for turn in tokens.turn_cache() for split in turn.values())
    rows = tokens.totals()
    assert [(r.cached, r.cache_write) for r in rows] == \
        [(t.cached, t.cache_write) for t in expected.totals]
    price = TABLE.models["gpt-4o"]       # no cached_input here: OpenAI's ratio (half) applies
    for row, split in zip(rows, (tokens.splits(s) for s in tokens.stats.strategies)):
        uncached, read = sum(x.uncached for x in split), sum(x.read for x in split)
        assert row.cost_with_caching == pytest.approx(
            (uncached * price.input + read * price.input / 2) / 1e6)
        assert row.cost_with_caching < row.cost


def test_the_summary_says_when_the_models_provider_caches_nothing(view):
    """A scripted trace with no price model picked: caching is on, and nothing is cached."""
    tokens = TokenView.of(view("strategy_comparison"), TABLE)
    assert tokens.policy.family == "none"
    assert "(none known for this model; c: without)" in tokens.summary()
    assert "none rules" not in tokens.summary()
    assert all(r.cached == 0 for r in tokens.totals())


def test_caching_off_shows_the_costs_without_it(view):
    tokens = TokenView.of(view("strategy_comparison"), TABLE).with_model("gpt-4o")
    off = tokens.with_caching(False)
    assert all(r.cost_with_caching is None and r.cached == 0 for r in off.totals())
    assert [r.shown_cost for r in off.totals()] == [r.cost for r in tokens.totals()]
    assert "without prompt caching" in off.summary()
    assert "with prompt caching (openai rules" in tokens.summary()
    splits = [split for turn in tokens.turn_cache() for split in turn.values()]
    assert any(s.read for s in splits)
    assert all(s.read + s.write + s.uncached > 0 for s in splits)


def test_counts_reuse_the_main_views_counter(view):
    main = view("tool_heavy")
    assert TokenView.of(main, TABLE).stats.encoding is main.renders.counter.encoding
    assert TokenView.of(main, TABLE).stats.opts == main.opts


def test_an_option_the_view_clears_is_cleared_in_the_counts(view):
    main = view("strategy_comparison").with_options(compaction_tokens=5000)
    cleared = main.with_options(compaction_tokens=None)
    assert TokenView.of(cleared, TABLE).stats.opts.compaction_tokens is None


def test_a_scripted_trace_has_no_model_so_costs_are_unknown_until_one_is_picked(view):
    tokens = TokenView.of(view("tool_heavy"), TABLE)
    assert tokens.model is None and tokens.price is None
    assert all(r.cost is None for r in tokens.totals())
    picked = tokens.with_model("gpt-4o-mini")
    assert [r.cost for r in picked.totals()] == \
        [cost(TABLE.models["gpt-4o-mini"], t.tokens) for t in tokens.stats.totals]
    assert "$0.15/M input" in picked.price_line()
    assert f"counted with {tokens.encoding}" in picked.price_line()


def test_step_model_cycles_through_the_trace_model_and_the_price_table(view):
    tokens = TokenView.of(view("single_shot"), TABLE)
    assert tokens.choices == (None, "gpt-4o-mini", "gpt-4o")
    seen = [tokens.step_model(k).model for k in (1, 2, 3, -1)]
    assert seen == ["gpt-4o-mini", "gpt-4o", None, "gpt-4o"]
    assert tokens.labels()[0].startswith("no model")


def test_a_real_trace_model_comes_first_and_is_not_listed_twice():
    assert model_choices("openai:gpt-4o", TABLE) == ("openai:gpt-4o", "gpt-4o-mini")
    assert model_choices("openai:gpt-9", TABLE) == ("openai:gpt-9", "gpt-4o-mini", "gpt-4o")


def test_model_names_come_from_the_shipped_price_table(view):
    table = load_prices()
    tokens = TokenView.of(view("single_shot"), table)
    assert set(tokens.choices[1:]) == set(table.models)


def with_reported(tokens, counts):
    turns = tuple(replace(t, reported=n) for t, n in zip(tokens.stats.turns, counts))
    return replace(tokens, stats=replace(tokens.stats, turns=turns))


def test_reported_text_sums_the_providers_counts_when_the_trace_has_them(view):
    tokens = TokenView.of(view("strategy_comparison"), TABLE)
    assert tokens.reported_text() is None            # the sample traces record no usage
    counts = [1000 + i for i in range(len(tokens.stats.turns))]
    every = with_reported(tokens, counts).reported_text()
    assert f": {sum(counts):,}" in every and "coalesced" in every
    some = with_reported(tokens, [1000] + [None] * (len(counts) - 1)).reported_text()
    assert some.endswith(f": 1,000 for 1 of {len(counts)} turns")


def test_the_token_view_model_loads_no_textual_nor_rich():
    code = ("import sys, ptc_tui.view.tokens; "
            "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_totals_sum_the_turns_through_the_selected_one(view):
    tokens = TokenView.of(view("tool_heavy"), TABLE)
    per_turn = {t.number: t.tokens for t in tokens.stats.turns}
    for selected in (1, 4, max(per_turn)):
        assert [r.through for r in tokens.totals(selected)] == \
            [sum(per_turn[n][r.strategy] for n in per_turn if n <= selected)
             for r in tokens.totals(selected)]
    assert [r.through for r in tokens.totals()] == [r.tokens for r in tokens.totals()]


def test_the_chart_dims_the_cells_a_prompt_cache_would_serve_and_only_those(view):
    from ptc_tui.view.token_chart import ColumnChart
    tokens = TokenView.of(view("strategy_comparison"), TABLE).with_model("gpt-4o")
    chart = ColumnChart.of(tokens.stats, 1, tokens.turn_cache())
    lines = chart.lines(160, 30)
    dimmed = [run for line in lines for run in line if run.cached]
    assert dimmed and all(run.role in tokens.stats.strategies and run.text.strip("█") == ""
                          for run in dimmed)
    assert chart.cached[0] == tuple(0 for _ in tokens.stats.strategies)   # turn 1: nothing yet
    plain = ColumnChart.of(tokens.stats, 1)
    assert not any(run.cached for line in plain.lines(160, 30) for run in line)
