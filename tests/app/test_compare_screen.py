"""The compare screen: SVG snapshots at two sizes, each beside a pilot test asserting what it
shows, and pilot tests of its keys, its selection, the two sides scrolling together, closing,
and the palette's "Compare with…"."""

import os
import shutil
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from engine.agent import fork
from engine.llm import ScriptedLLM
from engine.trace import load_trace, save_trace
from ptc_tui.app import PtcApp
from ptc_tui.screens import TraceScreen
from ptc_tui.screens.compare_screen import CompareScreen
from ptc_tui.screens.open_dialog import OpenDialog
from ptc_tui.widgets.side_by_side import SideBySidePanel
from tests.app.conftest import sample, settle

SIZES = {"wide": (160, 45), "narrow": (100, 40)}
THEME = "textual-dark"
AT = 5


@pytest.fixture
def pair(tmp_path, monkeypatch):
    """parent.json (strategy_comparison) and fork.json: forked at turn AT under namespaced,
    returning at once; the current folder is theirs, so the screen shows short names."""
    parent_path = tmp_path / "parent.json"
    shutil.copy(sample("strategy_comparison"), parent_path)
    parent = load_trace(parent_path)
    session = fork(parent, AT, ScriptedLLM(['```clojure\n(return (count expenses))\n```'],
                                           name="scripted:what-if.json"),
                   opts=parent.agent.history.with_changes(strategy="namespaced"),
                   parent_file=parent_path)
    session.step()
    save_trace(session.trace(created_at="2026-01-01T00:00:00+00:00"), tmp_path / "fork.json")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return Path("parent.json"), Path("fork.json")


def compare_app(pair) -> PtcApp:
    return PtcApp(compare=pair)


async def ready(pilot) -> None:
    """THEME on, the screen settled: what the snapshot and its pilot test both wait for."""
    app = pilot.app
    app.theme = THEME
    await settle(app, pilot)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def panel(app, name: str) -> SideBySidePanel:
    return app.screen.query_one(f"#compare-{name}", SideBySidePanel)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_snapshot(pair, snap_compare, size):
    if "TEXTUAL_DIM_FACTOR" in os.environ:
        pytest.skip("TEXTUAL_DIM_FACTOR is set: the snapshots are drawn at Textual's default")
    assert snap_compare(compare_app(pair), terminal_size=SIZES[size], run_before=ready)


@pytest.mark.anyio
@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
async def test_state_shown_in_the_snapshot(pair, size, notified):
    app = compare_app(pair)
    async with app.run_test(size=SIZES[size]) as pilot:
        await ready(pilot)
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        c = screen.comparison
        assert c.first_divergent_turn == AT and screen.turn == AT      # starts there
        table = screen.query_one(DataTable)
        assert table.row_count == 11 and table.cursor_row == AT - 1
        row = [cell.plain for cell in table.get_row_at(AT - 1)]
        assert row[0] == str(AT) and row[-1] == "◀ first" and row[5] == "⏎✱"   # run by the fork
        assert [cell.plain for cell in table.get_row_at(AT)][5] == "–"   # B has no turn 6
        assert [cell.plain for cell in table.get_row_at(0)][5] == "✓◦"   # from the parent
        header = str(screen.query_one("#compare-header", Static).content)
        assert "A  parent.json · scripted:strategy_comparison.py · returned · 11 turns" in header
        assert "B  fork.json · scripted:what-if.json · returned · 5 turns" in header
        assert "answer: 219" in header and "first divergent turn: 5" in header
        assert "fork of parent.json at turn 5" in header
        programs, requests = panel(app, "programs"), panel(app, "requests")
        assert [r.kind for r in programs.rows if r.kind != "same"][:1] == ["changed"]
        rights = [r.right for r in programs.rows]
        assert rights[:2] == ["── reply ──", "▌ 1 line of code: ran as the program below"]
        rights = [r for r in rights if r is not None]          # the rows only A has left out
        assert rights[-2:] == ["── program ──", "(return (count expenses))"]
        assert requests.border_title == "requests · differences highlighted"
        assert any(r.kind == "folded" for r in requests.rows)
        widgets = [screen.query_one("#compare-header"), table, programs, requests]
        for i, a in enumerate(widgets):
            assert a.region.height >= 3, a
            for b in widgets[i + 1:]:
                assert not a.region.overlaps(b.region), (a, b)
        assert programs.region.width == requests.region.width == SIZES[size][0]
    assert notified == []


@pytest.mark.anyio
async def test_keys_move_the_selection_and_the_panes_follow(pair):
    app = compare_app(pair)
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await ready(pilot)
        screen = app.screen
        table = screen.query_one(DataTable)
        await pilot.press("k", "k")
        assert screen.turn == AT - 2 and table.cursor_row == AT - 3
        assert all(r.kind == "same" for r in panel(app, "programs").rows)
        assert panel(app, "requests").border_title == "requests · the same"
        await pilot.press("G")
        assert screen.turn == 11
        assert panel(app, "programs").rows[0].right == "(no such turn in this run)"
        await pilot.press("g")
        assert screen.turn == 1
        await pilot.press("d")
        assert screen.turn == AT and table.cursor_row == AT - 1
        await pilot.press("down")                     # the table's own cursor keys too
        await pilot.pause()
        assert screen.turn == AT + 1


@pytest.mark.anyio
async def test_r_shows_each_models_whole_reply_above_its_program(pair):
    app = compare_app(pair)
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await ready(pilot)
        screen = app.screen
        reply = screen.comparison.turn_of(0, AT).raw_response      # prose, then the code
        prose, code = reply.split("```clojure")
        programs = panel(app, "programs")
        lefts = [r.left for r in programs.rows]
        assert lefts[1] == prose.splitlines()[0]
        assert "▌ " + code.splitlines()[1] not in lefts        # folded: one line for the code
        assert any(x and x.endswith("of code: ran as the program below") for x in lefts)
        assert programs.border_title.endswith("replies folded (r: whole replies)")
        await pilot.press("r")
        await pilot.pause()
        lefts = [r.left for r in panel(app, "programs").rows]
        assert lefts[1:1 + len(prose.splitlines())] == prose.splitlines()
        assert "▌ ```clojure" in lefts and "▌ " + code.splitlines()[1] in lefts
        assert programs.border_title.endswith("whole replies (r folds)")
        await pilot.press("r")
        await pilot.pause()
        assert "▌ ```clojure" not in [r.left for r in panel(app, "programs").rows]


@pytest.mark.anyio
async def test_both_sides_scroll_together(pair):
    app = compare_app(pair)
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await ready(pilot)
        requests = panel(app, "requests")
        assert len(requests.query(Static)) == 1        # one table: two columns, one scroll
        assert requests.max_scroll_y > 0 and requests.scroll_y == 0
        await pilot.press("J")
        await pilot.pause()
        assert requests.scroll_y > 0
        top = requests.scroll_y
        await pilot.press("K")
        await pilot.pause()
        assert requests.scroll_y < top


@pytest.mark.anyio
async def test_q_closes_a_compare_opened_from_the_command_line(pair):
    app = compare_app(pair)
    async with app.run_test(size=SIZES["narrow"]) as pilot:
        await ready(pilot)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


@pytest.mark.anyio
async def test_the_palettes_compare_with_opens_a_file_and_compares(pair):
    app = PtcApp(pair[0])
    async with app.run_test(size=SIZES["wide"]) as pilot:
        await settle(app, pilot)
        assert any(c.title == "Compare with…" for c in app.get_system_commands(app.screen))
        app.action_compare_with()
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        app.screen.query_one(Input).value = "fork.json"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, CompareScreen)
        c = app.screen.comparison
        assert (c.a.name, c.b.name, c.first_divergent_turn) == ("parent.json", "fork.json", AT)
        await pilot.press("escape")
        assert isinstance(app.screen, TraceScreen)
