"""Pilot tests of the TokenScreen: the numbers it shows, the price model, closing it."""

import pytest
from textual.widgets import DataTable, Select, Static

from engine.tokens import cost, price_for
from ptc_tui.app import PtcApp
from ptc_tui.screens.token_screen import TokenScreen
from ptc_tui.view.token_chart import MARK, PANEL_TITLES
from ptc_tui.view.token_stats import saving_percent, token_stats
from ptc_tui.view.formats import cost_text, percent_text
from ptc_tui.view.tokens import TokenView
from ptc_tui.widgets.token_columns import TokenColumns
from tests.app.conftest import WIDE, sample

pytestmark = pytest.mark.anyio
NARROW = (100, 40)


async def open_tokens(app, pilot, model=None, closed=None):
    app.push_screen(TokenScreen(app.screen.view, app.screen.turn, model=model), closed)
    await pilot.pause()
    await pilot.pause()
    assert isinstance(app.screen, TokenScreen)
    return app.screen


def totals_cells(screen):
    table = screen.query_one("#token-totals", DataTable)
    return [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]


def label(strategy, shown, recorded):
    """`coalesced (recorded, shown)`: the recorded strategy under the recorded limits, else a
    what-if; the one the main view shows."""
    said = "recorded" if strategy == recorded else "what-if"
    return f"{strategy} ({said}{', shown' if strategy == shown else ''})"


COST, CACHING_COST = 5, 7        # columns of the totals table


def expected_cells(stats, price, shown, selected=1, recorded=None):
    """The totals table: the fifth column sums the turns up to the selected one; each cost is
    followed by its saving against `full`'s, without caching and with it."""
    def through(strategy):
        return sum(turn.tokens[strategy] for turn in stats.turns if turn.number <= selected)
    full = stats.total("full")
    return [[label(t.strategy, shown, recorded), f"{t.tokens:,}",
             f"{t.saved:,}", percent_text(t.saved_percent), f"{through(t.strategy):,}",
             cost_text(cost(price, t.tokens)),
             percent_text(saving_percent(cost(price, full.tokens), cost(price, t.tokens))),
             cost_text(t.cost_with_caching),
             percent_text(saving_percent(full.cost_with_caching, t.cost_with_caching))]
            for t in stats.totals]


@pytest.mark.parametrize("name", ["strategy_comparison", "tool_heavy", "single_shot"])
async def test_totals_equal_token_stats_and_a_scripted_trace_costs_unknown(view_of, name):
    base = view_of(name)
    stats = token_stats(base.trace)
    app = PtcApp(sample(name))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot)
        assert screen.tokens.model is None
        assert totals_cells(screen) == expected_cells(stats, None, base.strategy,
                                                      recorded=base.strategy)
        assert all(row[COST] == row[CACHING_COST] == "unknown" for row in totals_cells(screen))
        assert "unknown" in str(screen.query_one("#token-price", Static).content)


async def test_totals_follow_the_options_of_the_main_view(view_of):
    base = view_of("strategy_comparison")
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("s", "P", "P", "t")
        await pilot.pause()
        opts = app.screen.view.opts
        assert opts != base.opts
        stats = token_stats(base.trace, overrides={"println_limit": opts.println_limit,
                                                   "tool_call_limit": opts.tool_call_limit})
        screen = await open_tokens(app, pilot)
        # other limits than recorded: every strategy's counts are a what-if
        assert totals_cells(screen) == expected_cells(stats, None, opts.strategy, recorded=None)


async def test_m_cycles_the_price_model_and_costs_follow():
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot)
        choices = screen.tokens.choices
        select = screen.query_one("#token-model-select", Select)
        for step in range(1, len(choices) + 1):
            await pilot.press("m")
            model = choices[step % len(choices)]
            assert screen.tokens.model == model
            assert select.value == step % len(choices)
            price = price_for(model)
            assert [r[COST] for r in totals_cells(screen)] == \
                [cost_text(cost(price, t.tokens)) for t in screen.tokens.stats.totals]
        await pilot.press("M")
        assert screen.tokens.model == choices[-1]


async def test_picking_gpt_4o_mini_shows_its_price_and_cost(view_of):
    base = view_of("strategy_comparison")
    stats = token_stats(base.trace, model="gpt-4o-mini")
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot)
        select = screen.query_one("#token-model-select", Select)
        select.value = screen.tokens.choices.index("gpt-4o-mini")
        await pilot.pause()
        assert screen.tokens.model == "gpt-4o-mini"
        assert totals_cells(screen) == expected_cells(stats, stats.price, base.strategy,
                                                      recorded=base.strategy)
        assert all(0 < t.cost_with_caching < t.cost for t in stats.totals)
        price_line = str(screen.query_one("#token-price", Static).content)
        assert f"${stats.price.input:g}/M input" in price_line
        assert f"counted with {stats.encoding.name}" in price_line


async def test_the_model_picker_works_with_the_mouse():
    app = PtcApp(sample("single_shot"))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot)
        await pilot.click("#token-model-select")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen.tokens.model == screen.tokens.choices[1]


@pytest.mark.parametrize("key", ["escape", "q"])
async def test_escape_and_q_close_it_returning_the_picked_model(key):
    app = PtcApp(sample("tool_heavy"))
    closed = []
    async with app.run_test(size=WIDE) as pilot:
        main = app.screen
        screen = await open_tokens(app, pilot, closed=closed.append)
        await pilot.press("m", key)
        await pilot.pause()
        assert app.screen is main
        assert closed == [screen.tokens.model] and closed[0] is not None


async def test_it_opens_on_the_model_it_is_given():
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot, model="gpt-4o-mini")
        assert screen.tokens.model == "gpt-4o-mini"


@pytest.mark.parametrize("size", [NARROW, WIDE])
async def test_chart_marks_the_selected_turn_and_fits_the_terminal(view_of, size):
    stats = token_stats(view_of("long_exploration").trace)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("j", "j", "j")
        await pilot.pause()
        screen = await open_tokens(app, pilot)
        chart = screen.query_one(TokenColumns)
        assert screen.focused is chart               # so arrows scroll it when it is wide
        lines = chart.plain.splitlines()
        assert lines[0] == PANEL_TITLES[0] and PANEL_TITLES[1] in lines
        assert [line.strip() for line in lines if MARK in line] == [f"{MARK} turn 4"] * 2
        assert len(lines) == chart.scrollable_content_region.height   # both panels on screen
        names = [run.role for run in chart.lines[2] if run.role in stats.strategies]
        assert names == list(stats.strategies) * len(stats.turns)   # every turn, every strategy
        assert chart.lines == chart.chart.lines(*chart.scrollable_content_region.size)
        width = chart.scrollable_content_region.width
        if size == WIDE:                                # 26 turns fit 160 columns
            assert max(map(len, lines)) <= width and chart.scroll_x == 0
        else:                                           # 100 columns: scrolled to the mark
            assert max(map(len, lines)) > width
            mark = lines[1].index(MARK)
            assert chart.scroll_x <= mark < chart.scroll_x + width


async def test_a_broken_prices_file_is_a_warning_and_costs_stay_unknown(tmp_path, monkeypatch,
                                                                       notified):
    broken = tmp_path / "prices.toml"
    broken.write_text("as_of = [")
    monkeypatch.setenv("PTC_TUI_PRICES", str(broken))
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot)
        await pilot.press("m")
        assert screen.tokens.choices == (None,)
        assert all(row[COST] == "unknown" for row in totals_cells(screen))
        assert any("prices file" in n for n in notified)


async def test_a_trace_that_cannot_be_counted_is_a_notification_not_a_crash(monkeypatch, notified):
    def broken(*args, **kwargs):
        raise RuntimeError("no counts today")
    monkeypatch.setattr(TokenView, "of", broken)
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        main = app.screen
        app.push_screen(TokenScreen(main.view, main.turn))
        await pilot.pause()
        await pilot.pause()
        assert app.screen is main
        assert any("no counts today" in n for n in notified)


async def test_c_switches_caching_off_and_on_and_the_screen_says_which(view_of):
    base = view_of("tool_heavy")
    stats = token_stats(base.trace, model="gpt-4.1")
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot, model="gpt-4.1")
        summary = screen.query_one("#token-summary", Static)
        table = screen.query_one("#token-totals", DataTable)
        assert screen.tokens.caching and len(table.columns) == 9
        coalesced = stats.total("coalesced")
        # tool_heavy's point: coalesced sends less than full but costs more with caching
        assert str(summary.content).startswith(
            f"coalesced: {cost_text(coalesced.cost_with_caching)}, costs ")
        assert "more than full · costs with prompt caching (openai rules" in str(summary.content)
        chart = screen.query_one(TokenColumns)
        assert any(run.cached for line in chart.lines for run in line)
        legend = screen.query_one("#token-legend", Static)
        assert "read from the prompt cache" in str(legend.content)
        await pilot.press("c")
        assert not screen.tokens.caching and len(table.columns) == 7
        assert str(summary.content).startswith(f"coalesced: {cost_text(coalesced.cost)}, saves ")
        assert "costs without prompt caching" in str(summary.content)
        assert not any(run.cached for line in chart.lines for run in line)
        assert "prompt cache" not in str(legend.content)
        await pilot.press("c")
        assert screen.tokens.caching and len(table.columns) == 9


async def test_the_caching_toggle_is_in_the_command_palette():
    app = PtcApp(sample("tool_heavy"))
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot)
        commands = {c.title: c for c in app.get_system_commands(screen)}
        assert "Caching on/off" in commands
        await commands["Caching on/off"].callback()
        await pilot.pause()
        assert not screen.tokens.caching


async def test_reported_cache_reads_are_shown_beside_the_models(tmp_path):
    import dataclasses

    from engine.history.turn import Usage
    from engine.trace import load_trace, save_trace
    trace = load_trace(sample("tool_heavy"))
    turns = tuple(dataclasses.replace(t, usage=Usage(2000, 50, 1024 * (i > 0)))
                  for i, t in enumerate(trace.turns))
    agent = dataclasses.replace(trace.agent, llm="openai:gpt-4.1")
    path = tmp_path / "reported.json"
    save_trace(dataclasses.replace(trace, turns=turns, agent=agent), path)
    app = PtcApp(path)
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_tokens(app, pilot)
        modelled = sum(s.read for s in screen.tokens.splits("coalesced"))
        text = str(screen.query_one("#token-reported", Static).content)
        assert f"cached: {1024 * (len(turns) - 1):,} reported, {modelled:,} by the cache " \
            f"model ({len(turns)} turns)" in text


def as_gpt41(tmp_path):
    """tool_heavy as if openai:gpt-4.1 had run it: a provider that caches prompts."""
    import dataclasses

    from engine.trace import load_trace, save_trace
    trace = load_trace(sample("tool_heavy"))
    path = tmp_path / "tool_heavy_gpt41.json"
    save_trace(dataclasses.replace(trace, agent=dataclasses.replace(
        trace.agent, llm="openai:gpt-4.1")), path)
    return path


async def test_the_headers_saving_follows_the_caching_choice(tmp_path, view_of):
    from ptc_tui.widgets import TraceHeader
    from tests.app.conftest import settle
    path = as_gpt41(tmp_path)
    app = PtcApp(path)
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        main = app.screen
        saving = main.view.caching_saving("openai:gpt-4.1")
        assert saving.saved_percent < 0 < main.header_info.saved  # fewer tokens, dearer
        header = main.query_one(TraceHeader)
        said = (f"with prompt caching (openai:gpt-4.1): costs "
                f"{-saving.saved_percent:.1f}% more than full")
        assert main.header_info.caching == saving and said in str(header.content)
        await pilot.press("v", "c", "escape")                   # caching off in the token view
        await pilot.pause()
        assert app.screen is main and app.caching is False
        assert main.header_info.caching is None
        assert "prompt caching" not in str(header.content)
        assert "fewer than full" in str(header.content)          # the token saving stays
        await pilot.press("v")                                   # the token view: still off
        await pilot.pause()
        assert not app.screen.tokens.caching
        await pilot.press("c", "escape")
        await pilot.pause()
        assert app.caching and said in str(header.content)
