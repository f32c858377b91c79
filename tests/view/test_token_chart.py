"""The token chart's view-model: a group of columns per turn, one per strategy, scaled in eighths
of a cell; the running totals under it; the selected turn marked; no Textual."""

import subprocess
import sys

import pytest

from ptc_tui.view.token_chart import LEVELS, MARK, PANEL_TITLES, ColumnChart, column_cells
from ptc_tui.view.token_stats import TokenStats, TurnTokens

NAMES = ("full", "coalesced", "namespaced", "compaction")


def stats_of(turns: int) -> TokenStats:
    """`turns` turns, each strategy sending fewer tokens than the one before it."""
    rows = tuple(TurnTokens(n, "ok", {s: 1000 + n * (100 - 20 * i) for i, s in enumerate(NAMES)},
                            None) for n in range(1, turns + 1))
    return TokenStats(NAMES, None, None, None, None, rows, (), 0)


def plain(line) -> str:
    return "".join(run.text for run in line)


@pytest.mark.parametrize("value, cells", [
    (0, [" ", " "]), (1, [" ", "▁"]), (8, [" ", "█"]), (12, ["▄", "█"]),
    (16, ["█", "█"]),
])
def test_a_column_fills_eighths_of_cells_from_the_bottom(value, cells):
    assert column_cells(value, 16, 2) == list(cells)


def test_a_small_count_still_shows_and_nothing_shows_for_zero():
    assert column_cells(1, 1_000_000, 3) == [" ", " ", LEVELS[1]]
    assert column_cells(0, 10, 3) == [" ", " ", " "]


def test_thirty_turns_fit_160_columns_with_every_strategy_side_by_side():
    chart = ColumnChart.of(stats_of(30), selected=12)
    lines = chart.lines(width=146, height=29)       # the chart's room at 160x45
    assert len(lines) == 29
    assert max(len(plain(line)) for line in lines) <= 146
    plot = [line for line in lines if any(run.role in NAMES for run in line)]
    for line in plot:                                # four columns per turn, in legend order
        names = [run.role for run in line if run.role in NAMES]
        assert names == list(NAMES) * 30


def test_the_tallest_column_is_the_largest_count_and_the_axis_says_it():
    stats = stats_of(5)
    chart = ColumnChart.of(stats, selected=1)
    lines = chart.lines(width=100, height=20)
    largest = max(t.tokens["full"] for t in stats.turns)
    assert plain(lines[2]).lstrip().startswith(f"{largest:,} │")
    full_cells = [i for i, run in enumerate(lines[2]) if "█" in run.text]
    assert len(full_cells) == 1                      # only turn 5's `full` fills the top cell
    last_group = [run for run in lines[2] if run.role in NAMES][-len(NAMES):]
    assert lines[2][full_cells[0]] is last_group[0] and last_group[0].role == "full"


def test_the_selected_turn_is_marked_over_its_columns_and_under_them():
    chart = ColumnChart.of(stats_of(11), selected=4)
    lines = chart.lines(width=120, height=24)
    titles = [i for i, line in enumerate(lines) if plain(line) in PANEL_TITLES]
    assert [plain(lines[i]) for i in titles] == list(PANEL_TITLES)
    for title in titles:                             # both panels: per turn, running total
        mark = lines[title + 1]
        assert plain(mark).strip() == f"{MARK} turn 4"
        column = len(plain(mark)) - len(plain(mark).lstrip())
        plot_row = lines[title + 2]
        at, selected = 0, []
        for run in plot_row:
            if run.selected:
                selected.append(at)
            at += len(run.text)
        assert selected and selected[0] == column    # the mark sits over turn 4's columns
    axis = lines[titles[0] + 2 + sum(1 for line in lines[titles[0] + 2:titles[1]]
                                     if "│" in plain(line))]
    assert [run.text for run in axis if run.role == "mark"] == ["4"]


def test_the_second_panel_is_the_running_total():
    stats = stats_of(3)
    chart = ColumnChart.of(stats, selected=1)
    assert chart.running[-1] == tuple(sum(t.tokens[s] for t in stats.turns) for s in NAMES)
    lines = chart.lines(width=80, height=20)
    second = [plain(line) for line in lines].index(PANEL_TITLES[1])
    assert plain(lines[second + 2]).lstrip().startswith(f"{chart.running[-1][0]:,} │")


def test_too_many_turns_for_the_width_scroll_at_one_cell_each():
    chart = ColumnChart.of(stats_of(200), selected=100)
    assert chart.layout(160, chart.gutter()) == (1, 0)
    lines = chart.lines(width=160, height=30)
    assert max(len(plain(line)) for line in lines) == chart.gutter() + 200 * len(NAMES)


def test_a_trace_with_no_turns_draws_empty_panels():
    chart = ColumnChart.of(TokenStats(("full",), None, None, None, None, (), (), 0), selected=1)
    lines = chart.lines(width=80, height=12)
    assert [plain(line) for line in lines if plain(line) in PANEL_TITLES] == list(PANEL_TITLES)
    assert not any(run.role == "full" for line in lines for run in line)


def test_the_chart_view_model_loads_no_textual_nor_rich():
    code = ("import sys, ptc_tui.view.token_chart; "
            "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
