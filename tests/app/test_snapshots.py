"""SVG snapshots of the main screen (wide and narrow), help, token view and diff view, each
beside a pilot test of the same keys that asserts the state the picture shows: an SVG diff
tells that something changed, the pilot test tells what.

Regenerate after a deliberate change of the look: `pytest tests/app/test_snapshots.py
--snapshot-update`, then look at the SVGs in tests/app/__snapshots__/test_snapshots/."""

import os
from contextlib import asynccontextmanager

import pytest
from textual.geometry import Region
from textual.widgets import DataTable, Static

from engine.tokens import TokenCounter
from ptc_tui.app import PtcApp
from ptc_tui.screens.diff_screen import DiffScreen
from ptc_tui.screens.help_screen import HelpScreen
from ptc_tui.screens.token_screen import TokenScreen
from ptc_tui.screens.trace_screen import TraceScreen
from ptc_tui.view.diff import turn_diff
from ptc_tui.view.token_chart import MARK, PANEL_TITLES
from ptc_tui.view.token_stats import token_stats
from ptc_tui.view.formats import cost_text, percent_text
from ptc_tui.widgets import MemoryPanel, MessagePanel, ProgramPanel, TraceHeader, TurnList
from ptc_tui.widgets.memory_panel import MemoryDetail, MemoryPane
from ptc_tui.widgets.token_columns import TokenColumns
from ptc_tui.widgets.text_panel import TextPanel
from tests.app.conftest import WIDE, sample, until_loaded
from tests.app.test_token_screen import expected_cells, label

NARROW = (100, 40)       # under the 140-column breakpoint: the three panes stack
SCREEN_160 = (160, 45)   # a common terminal: the size issue 16 was written for
SAMPLE = "error_recovery"  # failed turns with error spans, tool calls, dropped history
THEME = "textual-dark"

# The same keys drive each snapshot and its pilot test.
MAIN_KEYS = ("j", "j")                   # turn 3: an unbound_var error, 2 items dropped
HELP_KEYS = ("j", "j", "question_mark")
TOKEN_KEYS = ("j", "j", "v")
TOKEN_CACHING_KEYS = ("j", "j", "v", "m")   # the first priced model: gpt-4o, caching on
DIFF_KEYS = ("j", "j", "d")
ZOOM_KEYS = ("j", "j", "tab", "z")       # turn 3's program pane zoomed
TURN = 3
# long_exploration (26 turns): turn 21's memory, its cursor on `findings` (third row),
# a list of maps defined in turns 3, 15, 18 and 21
LONG = "long_exploration"
MEMORY_KEYS = ("colon", "2", "1", "enter", "tab", "tab", "tab", "down", "down")
MEMORY_TURN, MEMORY_NAME = 21, "findings"
CHART_KEYS = ("j", "j", "j", "v")        # turn 4 of 26 selected


async def settle(app, pilot) -> None:
    """Let the trace load and the workers finish (the turn counts) and the screen take in what
    they sent."""
    await until_loaded(app, pilot)
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def drive(pilot, keys: tuple[str, ...]) -> None:
    """THEME on, then `keys` one at a time, each screen settled before the next key, so the
    picture never depends on how fast this machine counts tokens."""
    pilot.app.theme = THEME
    await settle(pilot.app, pilot)
    for key in keys:
        await pilot.press(key)
        await settle(pilot.app, pilot)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


@pytest.fixture(autouse=True)
def machine_independent(monkeypatch):
    """Colour on whatever NO_COLOR says, and the bundled prices whatever PTC_TUI_PRICES says."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("PTC_TUI_PRICES", raising=False)


@pytest.fixture
def shoot(notified, snap_compare):
    """`shoot(keys, size)`: a PtcApp of SAMPLE after `keys`, compared with its stored SVG; no
    notification may have been raised (a toast's timeout against the machine's speed would make
    the picture racy). THEME is set whatever TEXTUAL_THEME says; TEXTUAL_DIM_FACTOR is read when
    Textual is imported, too late to undo, so a run that sets it skips the pictures."""
    if "TEXTUAL_DIM_FACTOR" in os.environ:
        pytest.skip("TEXTUAL_DIM_FACTOR is set: the snapshots are drawn at Textual's default")

    def compare(keys: tuple[str, ...], size: tuple[int, int], name: str = SAMPLE) -> bool:
        async def run_before(pilot) -> None:
            await drive(pilot, keys)
        return snap_compare(PtcApp(sample(name)), terminal_size=size, run_before=run_before)
    yield compare
    assert notified == []


@asynccontextmanager
async def driven(keys: tuple[str, ...], size: tuple[int, int], name: str = SAMPLE):
    """The app under pilot after `keys`, driven as the snapshot drives it."""
    app = PtcApp(sample(name))
    async with app.run_test(size=size) as pilot:
        await drive(pilot, keys)
        yield app


def turn_list_cells(app) -> list[list[str]]:
    table = app.screen.query_one(TurnList)
    return [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]


def assert_main_screen_state(app, view) -> None:
    """The main screen on turn TURN of `view`, every number shown as the view-model counts it."""
    screen = app.screen
    assert type(screen) is TraceScreen
    assert screen.turn == TURN and screen.view.strategy == view.strategy
    assert screen.query_one(TurnList).cursor_row == TURN - 1
    assert app.focused is screen.query_one(TurnList)
    rows = view.rows()
    assert [c[0] for c in turn_list_cells(app)] == [str(r.number) for r in rows]
    assert [c[2:] for c in turn_list_cells(app)] == \
        [[f"{r.tokens:,}", f"{r.full_tokens:,}"] for r in rows]
    header, h = str(screen.query_one(TraceHeader).content), view.header()
    mission, run_line, options_line, tokens_line = header.split("\n")
    assert mission == h.mission and run_line.startswith(h.llm) and h.outcome in run_line
    assert options_line.startswith(f"recorded: {h.strategy} · ")
    assert tokens_line.startswith(f"tokens: {h.tokens:,} sent, ")
    for shown in (f"{h.saved:,}", f"{h.saved_percent:.1f}%"):
        assert shown in tokens_line, shown

    turn = view.turn(TURN)
    assert turn.status == "error" and turn.program.error is not None
    program = screen.query_one(ProgramPanel)
    assert program.border_title == f"program · turn {TURN} · error"
    assert turn.program.program.strip() in program.plain
    assert turn.program.error.text in program.plain
    assert f"tool calls ({len(turn.program.tool_calls)})" in program.plain
    messages = screen.query_one(MessagePanel)
    assert messages.plain.startswith(f"recorded: {turn.messages.tokens:,} tokens  ·  "
                                     f"full {turn.messages.full_tokens:,}")
    assert turn.messages.dropped and f"dropped ({len(turn.messages.dropped)})" in messages.plain
    memory = screen.query_one(MemoryPanel)
    assert memory.border_title == f"memory after turn {TURN} ({len(turn.memory)})"
    assert memory.rows_shown == turn.memory and memory.row_count == len(turn.memory)
    for pane in (program, messages, memory):       # no pane squeezed to nothing
        assert pane.region.width >= 20 and pane.region.height >= 5, pane


def assert_no_overlap(*widgets) -> None:
    for i, a in enumerate(widgets):
        for b in widgets[i + 1:]:
            assert not a.region.overlaps(b.region), (a, b)


class TestMainScreen:
    def test_snapshot_wide(self, shoot):
        assert shoot(MAIN_KEYS, WIDE)

    def test_snapshot_narrow(self, shoot):
        assert shoot(MAIN_KEYS, NARROW)

    @pytest.mark.anyio
    async def test_state_wide_panes_side_by_side(self, view_of, notified):
        async with driven(MAIN_KEYS, WIDE) as app:
            assert_main_screen_state(app, view_of(SAMPLE))
            screen = app.screen
            assert screen.has_class("-wide") and not screen.has_class("-narrow")
            program, messages, memory = (screen.query_one(w)
                                         for w in (ProgramPanel, MessagePanel, MemoryPanel))
            assert program.region.y == messages.region.y == memory.region.y
            assert program.region.x < messages.region.x < memory.region.x
            assert_no_overlap(screen.query_one(TurnList), program, messages, memory)
            assert app.theme == THEME and app.sub_title == f"{SAMPLE}.json"
            header = screen.query_one(TraceHeader)       # the counts are not cut off at 160
            for line in str(header.content).split("\n")[1:]:
                assert len(line) <= header.content_region.width, line
        assert notified == []

    @pytest.mark.anyio
    async def test_state_narrow_panes_stacked(self, view_of, notified):
        async with driven(MAIN_KEYS, NARROW) as app:
            assert_main_screen_state(app, view_of(SAMPLE))
            screen = app.screen
            assert screen.has_class("-narrow") and not screen.has_class("-wide")
            program, messages, memory = (screen.query_one(w)
                                         for w in (ProgramPanel, MessagePanel, MemoryPanel))
            assert program.region.x == messages.region.x == memory.region.x
            assert program.region.y < messages.region.y < memory.region.y
            assert_no_overlap(screen.query_one(TurnList), program, messages, memory)
        assert notified == []


class TestHelpScreen:
    def test_snapshot(self, shoot):
        assert shoot(HELP_KEYS, WIDE)

    @pytest.mark.anyio
    async def test_state_lists_the_main_screen_keys(self, notified):
        async with driven(HELP_KEYS, WIDE) as app:
            assert type(app.screen) is HelpScreen
            below = app.screen_stack[-2]
            assert type(below) is TraceScreen and below.turn == TURN
            panel = app.screen.query_one("#help-text", TextPanel)
            assert panel.border_title == "help · keys" and app.focused is panel
            keys, about = panel.plain.split("── about ──")
            areas = [block.splitlines()[0] for block in keys.strip().split("\n\n")]
            assert areas[:2] == ["Turns", "View"] and "App" in areas
            for binding in (*TraceScreen.BINDINGS, *PtcApp.BINDINGS):
                if binding.id:
                    assert binding.description in keys, binding
            assert "literally" in about
        assert notified == []


def assert_chart_state(chart: TokenColumns, stats, turn: int) -> None:
    """Both panels on screen, every turn's columns for every strategy, `turn` marked once per
    panel and its number written under the columns."""
    lines = chart.plain.splitlines()
    assert lines[0] == PANEL_TITLES[0] and PANEL_TITLES[1] in lines
    assert len(lines) == chart.scrollable_content_region.height
    assert [line.strip() for line in lines if MARK in line] == [f"{MARK} turn {turn}"] * 2
    for line in chart.lines:
        if any(run.role == "axis" and "│" in run.text for run in line):
            names = [run.role for run in line if run.role in stats.strategies]
            assert names == list(stats.strategies) * len(stats.turns)
    marked = [run.text for line in chart.lines for run in line
              if run.role == "mark" and run.text.isdigit()]
    assert marked == [str(turn)] * 2


class TestTokenScreen:
    def test_snapshot(self, shoot):
        assert shoot(TOKEN_KEYS, WIDE)

    @pytest.mark.anyio
    async def test_state_bars_and_totals_of_every_strategy(self, view_of, notified):
        view = view_of(SAMPLE)
        stats = token_stats(view.trace)
        async with driven(TOKEN_KEYS, WIDE) as app:
            screen = app.screen
            assert type(screen) is TokenScreen and screen.turn == TURN
            assert screen.tokens.model is None            # a scripted trace: no price model
            dialog = screen.query_one("#token-dialog")
            assert dialog.border_title == f"Input tokens per turn · {len(view.turns)} turns"
            legend = str(screen.query_one("#token-legend", Static).content)
            assert all(name in legend for name in stats.strategies)
            assert f"turn {TURN}: selected" in legend

            chart = screen.query_one(TokenColumns)
            assert app.focused is chart
            assert_chart_state(chart, stats, TURN)

            table = screen.query_one("#token-totals", DataTable)
            cells = [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]
            assert cells == [[label(t.strategy, view.strategy, view.strategy),
                              f"{t.tokens:,}", f"{t.saved:,}",
                              percent_text(t.saved_percent),
                              f"{sum(u.tokens[t.strategy] for u in stats.turns[:TURN]):,}",
                              cost_text(None), percent_text(None), cost_text(None),
                              percent_text(None)]
                             for t in stats.totals]
        assert notified == []


class TestTokenScreenWithCaching:
    def test_snapshot(self, shoot):
        assert shoot(TOKEN_CACHING_KEYS, WIDE)

    @pytest.mark.anyio
    async def test_state_costs_with_caching(self, view_of,
                                                                           notified):
        view = view_of(SAMPLE)
        async with driven(TOKEN_CACHING_KEYS, WIDE) as app:
            screen = app.screen
            assert screen.tokens.model == "gpt-4o" and screen.tokens.caching
            stats = token_stats(view.trace, model="gpt-4o",
                                counter=TokenCounter(view.renders.counter.encoding))
            table = screen.query_one("#token-totals", DataTable)
            cells = [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]
            assert cells == expected_cells(stats, stats.price, view.strategy, TURN,
                                           view.strategy)
            summary = str(screen.query_one("#token-summary", Static).content)
            shown = stats.total(view.strategy)
            assert summary.startswith(f"{view.strategy}: {cost_text(shown.cost_with_caching)}, "
                                      "saves ")
            assert "with prompt caching (openai rules" in summary
        assert notified == []


class TestDiffScreen:
    def test_snapshot(self, shoot):
        assert shoot(DIFF_KEYS, WIDE)

    @pytest.mark.anyio
    async def test_state_turn_against_the_previous_one(self, view_of, notified):
        view = view_of(SAMPLE)
        async with driven(DIFF_KEYS, WIDE) as app:
            screen = app.screen
            assert type(screen) is DiffScreen and screen.turn == TURN
            title = str(screen.query_one("#diff-title", Static).content)
            assert title == f"Diff: turn {TURN} vs turn {TURN - 1}"
            cache = str(screen.query_one("#diff-cache", Static).content)
            assert cache == turn_diff(view, TURN).cache.text()
            assert cache.startswith("cache breaks at message ")
            program = screen.query_one("#program-diff", TextPanel)
            message = screen.query_one("#message-diff", TextPanel)
            assert program.plain == "\n".join(view.program_diff(TURN))
            assert message.plain == "\n".join(view.message_diff(TURN))
            assert any(line.startswith("+") for line in program.plain.splitlines()[2:])
            assert program.border_title == f"program · turn {TURN} vs turn {TURN - 1}"
            assert app.focused is program
            assert screen.has_class("-wide") and program.region.y == message.region.y
            assert_no_overlap(program, message)
        assert notified == []


class TestZoomedPane:
    """`z` on the program pane of turn 3: the code and its error span over the whole screen."""

    @pytest.mark.parametrize("size", [SCREEN_160, NARROW], ids=["160x45", "100x40"])
    def test_snapshot(self, shoot, size):
        assert shoot(ZOOM_KEYS, size)

    @pytest.mark.anyio
    @pytest.mark.parametrize("size", [SCREEN_160, NARROW], ids=["160x45", "100x40"])
    async def test_state_the_program_fills_the_screen(self, view_of, notified, size):
        async with driven(ZOOM_KEYS, size) as app:
            screen = app.screen
            program = screen.query_one(ProgramPanel)
            assert screen.turn == TURN and screen.maximized is program
            assert app.focused is program and app.pane_layout.zoomed == "program"
            assert program.region.width == size[0]
            assert program.region.height == size[1] - 1            # all but the footer
            assert screen.query_one("#footer").region.y == size[1] - 1
            for hidden in (TurnList, MessagePanel, MemoryPane, TraceHeader):
                assert not screen.query_one(hidden).region, hidden
            turn = view_of(SAMPLE).turn(TURN)
            assert turn.program.program.strip() in program.plain
            # its prose is drawn laid out again at the zoomed width, not at the width before
            width = program.scrollable_content_region.width
            drawn = program.render_lines(Region(0, 0, *program.size))
            longest = max(len(line.text.strip("│ ▏▕▎▍▌▋▊▉█")) for line in drawn[1:-1])
            assert width - 20 < longest <= width
        assert notified == []


class TestMemoryDetail:
    """The memory pane's detail: turn 21's `findings` in full under the table."""

    @pytest.mark.parametrize("size", [SCREEN_160, NARROW], ids=["160x45", "100x40"])
    def test_snapshot(self, shoot, size):
        assert shoot(MEMORY_KEYS, size, LONG)

    @pytest.mark.anyio
    @pytest.mark.parametrize("size", [SCREEN_160, NARROW], ids=["160x45", "100x40"])
    async def test_state_the_chosen_definition_in_full(self, view_of, notified, size):
        row = next(r for r in view_of(LONG).turn(MEMORY_TURN).memory if r.name == MEMORY_NAME)
        async with driven(MEMORY_KEYS, size, LONG) as app:
            screen = app.screen
            table = screen.query_one(MemoryPanel)
            assert screen.turn == MEMORY_TURN and app.focused is table
            assert table.cursor_row == 2 and table.chosen == row
            detail = screen.query_one(MemoryDetail)
            assert detail.border_title == f"definition · {MEMORY_NAME}"
            assert detail.plain.splitlines()[:2] == [
                f"{MEMORY_NAME} · {row.type}",
                f"defined in turn {MEMORY_TURN} (this turn); before that in turns 3, 15, 18"]
            assert detail.plain.endswith(row.whole) and row.whole.count("\n") >= 2
            assert detail.region.y > table.region.y or detail.region.x > table.region.x
            assert_no_overlap(table, detail)
        assert notified == []


class TestTokenChart:
    """The token view of a 26-turn run, turn 4 selected: every turn on one screen at 160x45."""

    @pytest.mark.parametrize("size", [SCREEN_160, NARROW], ids=["160x45", "100x40"])
    def test_snapshot(self, shoot, size):
        assert shoot(CHART_KEYS, size, LONG)

    @pytest.mark.anyio
    @pytest.mark.parametrize("size", [SCREEN_160, NARROW], ids=["160x45", "100x40"])
    async def test_state_every_turn_and_strategy_in_one_chart(self, view_of, notified, size):
        stats = token_stats(view_of(LONG).trace)
        async with driven(CHART_KEYS, size, LONG) as app:
            screen = app.screen
            assert type(screen) is TokenScreen and screen.turn == 4
            chart = screen.query_one(TokenColumns)
            assert app.focused is chart
            assert_chart_state(chart, stats, 4)
            width = chart.scrollable_content_region.width
            fits = max(map(len, chart.plain.splitlines())) <= width
            assert fits is (size == SCREEN_160)                 # 100 columns: it scrolls
            assert chart.region.height >= 20
        assert notified == []
