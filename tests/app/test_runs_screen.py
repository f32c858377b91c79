"""The runs screen (`ptc-tui DIR`): every trace under a folder, listed at once and filled in by
a worker; sorting (the arrow drawn in every column's title), filtering by text and by outcome,
Enter opening a run and escape coming back with the cursor kept, a mark drawn and two marked runs
compared, Home and End, a broken file one row saying why (whole under the table while the
cursor is on it), a file name with a control character cut in its middle and found by the
filter as shown (escaped), an imported ptc_runner run beside our traces, the help screen's text;
an SVG snapshot beside a pilot test asserting what it shows."""

import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.widgets import DataTable, ProgressBar

from ptc_tui.app import PtcApp
from ptc_tui.launch import open_directory
from ptc_tui.cli import main
from ptc_tui.screens import TraceScreen
from ptc_tui.screens.compare_screen import CompareScreen
from ptc_tui.screens.help_screen import HelpScreen
from ptc_tui.screens.runs_screen import RunsScreen
from ptc_tui.view.runs import (COLUMNS, MIN_MISSION, NUMERIC, cut_middle, find_runs, listed,
                               read_run)
from ptc_tui.widgets.runs_table import RunsTable
from sample_traces import HERE
from tests.app.conftest import settle
from tests.trace.upstream_fixture import loop_run

SIZE = (160, 40)
SAMPLES = ("product_search", "fail_not_found", "out_of_turns", "single_shot", "tool_heavy")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """./runs: five samples (two in a sub-folder), a broken trace, a file that is not a trace,
    and a ptc_runner run with its report beside it."""
    monkeypatch.chdir(tmp_path)
    runs = Path("runs")
    (runs / "older").mkdir(parents=True)
    for i, name in enumerate(SAMPLES):
        shutil.copy(HERE / f"{name}.json", (runs / "older" if i >= 3 else runs) / f"{name}.json")
    (runs / "broken.json").write_text('{"format": "ptc-trace", "version": 1, "agent": ')
    (runs / "package.json").write_text('{"name": "not a trace"}')
    upstream = runs / "incident"
    upstream.mkdir()
    artifact, canonical = loop_run()
    (upstream / "run.inspection.jsonl").write_text(artifact)
    (upstream / "run.jsonl").write_text(canonical)
    (upstream / "report.json").write_text('{"status": "report", "summary": "done"}')
    return runs


def cells(table: DataTable, row: int) -> dict[str, str]:
    """The row's cells by column name."""
    values = [getattr(c, "plain", str(c)) for c in table.get_row_at(row)]
    return dict(zip([str(c.key.value) for c in table.ordered_columns], values))


def column(table: DataTable, name: str) -> list[str]:
    return [cells(table, i)[name] for i in range(table.row_count)]


def drawn(table: DataTable, row: int | None = None) -> str:
    """The table's header as drawn, or its `row` (the table not scrolled)."""
    return table.render_line(0 if row is None else table.header_height + row).text


async def filled(pilot) -> RunsTable:
    await settle(pilot.app, pilot)
    runs = pilot.app.screen.query_one(RunsTable)
    assert runs.complete
    return runs


def test_finds_every_trace_and_only_traces(folder):
    found = [str(p.relative_to(folder)) for p in find_runs(folder)]
    assert found == ["broken.json", "fail_not_found.json", "incident/run.inspection.jsonl",
                     "older/single_shot.json", "older/tool_heavy.json", "out_of_turns.json",
                     "product_search.json"]


def test_a_run_read(folder):
    [row] = listed(folder, [folder / "fail_not_found.json"])
    assert not row.read and row.file == "fail_not_found.json" and row.turns is None
    row = read_run(row)
    assert (row.agent, row.outcome, row.outcome_kind, row.turns) == \
        ("fail-not-found", "failed: not-found", "failed", 3)
    assert row.tokens > 0 and row.full_tokens >= row.tokens and row.error is None
    [broken] = listed(folder, [folder / "broken.json"])
    broken = read_run(broken)
    assert broken.read and broken.outcome_kind == "unreadable" and "broken.json" in broken.error


@pytest.mark.anyio
async def test_rows_are_listed_at_once_and_filled_by_a_worker(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=(240, 40)) as pilot:      # room for every cell whole
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        runs = screen.query_one(RunsTable)
        assert runs.table.row_count == 7            # listed before any file is read
        runs = await filled(pilot)
        assert runs.read_count == 7 and not runs.query_one(ProgressBar).display
        table = runs.table
        assert column(table, "file") == [str(p.relative_to(folder)) for p in find_runs(folder)]
        row = cells(table, column(table, "file").index("product_search.json"))
        assert row["agent"] == "product-search" and row["outcome"] == "returned"
        assert row["turns"] == "3" and row["LLM"] == "scripted:product_search.py"
        mission = json.loads((HERE / "product_search.json").read_text())["agent"]["mission"]
        assert mission.startswith(row["mission"]) and len(row["mission"]) > 40
        assert int(row["input tokens"].replace(",", "")) > 0
        assert row["saved"][:4].isdigit() and row["cost"] == "unknown"
        broken = cells(table, 0)
        assert broken["file"] == "broken.json" and broken["outcome"] == "unreadable"
        reason = read_run(listed(folder, [folder / "broken.json"])[0]).reason
        assert broken["mission"] == reason and "broken.json" not in reason
        incident = cells(table, column(table, "file").index("incident/run.inspection.jsonl"))
        assert incident["outcome"] == "returned: report report" and incident["turns"] == "4"
        assert incident["LLM"] == "openrouter:test/model"


@pytest.mark.anyio
async def test_the_progress_bar_follows_the_worker(folder, monkeypatch):
    import threading

    import ptc_tui.widgets.runs_table as module
    gate, real = threading.Event(), module.read_run
    monkeypatch.setattr(module, "read_run", lambda row: gate.wait(30) and real(row))
    monkeypatch.setattr(module, "POST_EVERY_S", 0)
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        runs = app.screen.query_one(RunsTable)
        bar = runs.query_one(ProgressBar)
        assert bar.display and bar.total == 7 and bar.progress == 0 and not runs.complete
        assert column(runs.table, "turns") == [""] * 7
        gate.set()
        await filled(pilot)
        assert runs.read_count == 7 and not bar.display


@pytest.mark.anyio
async def test_read_runs_reach_the_table_in_batches_every_half_second(folder, monkeypatch):
    """Each batch redraws every cell on screen (a DataTable's cache is all or nothing): one a
    tenth of a second made reading 200 runs take 21 s against 6.5 s (runs_bench)."""
    import ptc_tui.widgets.runs_table as module
    clock, real = [0.0], module.read_run

    def read_run(row):                      # each run takes 0.2 s on the worker's clock
        clock[0] += 0.2
        return real(row)
    monkeypatch.setattr(module, "read_run", read_run)
    monkeypatch.setattr(module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    batches, handle = [], module.RunsTable.on_runs_table__read
    monkeypatch.setattr(module.RunsTable, "on_runs_table__read",
                        lambda self, event: batches.append(len(event.rows)) or handle(self, event))
    assert module.POST_EVERY_S == 0.5
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        assert batches == [3, 3, 1] and runs.read_count == 7


@pytest.mark.anyio
async def test_every_column_is_seen_on_160_columns_and_the_mission_takes_the_rest(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=(160, 40)) as pilot:
        runs = await filled(pilot)
        table = runs.table
        widths = [c.get_render_width(table) for c in table.ordered_columns]
        assert sum(widths) <= table.scrollable_content_region.width
        assert [str(c.key.value) for c in table.ordered_columns] == ["mark", *COLUMNS]
        assert table.columns["mission"].width >= MIN_MISSION
        name = "incident/run.inspection.jsonl"
        shown = cut_middle(name, table.columns["file"].width)
        assert len(shown) < len(name) and shown.endswith(".inspection.jsonl")
        assert runs.shown[column(table, "file").index(shown)].file == name
        narrow = table.columns["mission"].width
        await pilot.resize_terminal(220, 40)
        await pilot.pause()
        assert "incident/run.inspection.jsonl" in column(runs.table, "file")
        assert runs.table.columns["mission"].width > narrow


@pytest.mark.anyio
async def test_sort_by_any_column(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        runs.sort_by("turns")                     # a number: most first
        turns = [int(t) for t in column(runs.table, "turns") if t]
        assert turns == sorted(turns, reverse=True) and len(turns) == 6
        assert column(runs.table, "file")[-1] == "broken.json"   # no value: always last
        await pilot.press("r")                    # reversed
        turns = [int(t) for t in column(runs.table, "turns") if t]
        assert turns == sorted(turns)
        assert column(runs.table, "file")[-1] == "broken.json"
        await pilot.press("greater_than_sign")    # the next column: input tokens, ascending
        assert runs.sort_column == "input tokens" and not runs.reverse
        status = str(runs.query_one("#runs-outcome").content)   # the label has no room for ▲
        assert status.startswith("sorted by input tokens ▲ · o: all outcomes")
        tokens = [int(t.replace(",", "")) for t in column(runs.table, "input tokens") if t]
        assert tokens == sorted(tokens)
        await pilot.press("less_than_sign", "less_than_sign")
        assert runs.sort_column == "outcome"
        outcomes = [o for o in column(runs.table, "outcome")]
        assert outcomes[:-1] == sorted(outcomes[:-1])
        header = str(runs.table.columns["outcome"].label)
        assert header == "outcome ▲"
        for name in COLUMNS:                      # every column sorts
            runs.sort_by(name, reverse=False)
            assert runs.sort_column == name and runs.table.row_count == 7


@pytest.mark.anyio
async def test_filter_by_text_and_by_outcome(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        await pilot.press("slash", *"older", "enter")
        assert runs.filter_text == "older"
        assert column(runs.table, "file") == ["older/single_shot.json", "older/tool_heavy.json"]
        assert app.focused is runs.table         # Enter: back to the list, filter kept
        await pilot.press("slash", *["backspace"] * 5, "enter")
        assert runs.table.row_count == 7
        await pilot.press("o")                   # returned
        assert runs.outcome == "returned"
        assert set(column(runs.table, "outcome")) == {"returned", "returned: report report"}
        await pilot.press("o")                   # failed
        assert column(runs.table, "file") == ["fail_not_found.json"]
        await pilot.press("o")
        assert column(runs.table, "file") == ["out_of_turns.json"]
        await pilot.press("o", "o")              # running (none), then unreadable
        assert runs.outcome == "unreadable" and column(runs.table, "file") == ["broken.json"]
        await pilot.press("o")
        assert runs.outcome is None and runs.table.row_count == 7


@pytest.mark.anyio
async def test_enter_opens_a_run_and_escape_comes_back_with_the_cursor_kept(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        screen = app.screen
        await pilot.press("down", "down", "down")
        wanted = runs.highlighted
        assert wanted.file == "older/single_shot.json"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, TraceScreen)
        assert app.screen.source == wanted.path
        assert len(app.screen.view.trace.turns) == wanted.turns
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        assert runs.table.cursor_row == 3 and runs.highlighted.path == wanted.path


@pytest.mark.anyio
async def test_two_marked_runs_are_compared(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        screen = app.screen
        await pilot.press("down", "space")
        assert runs.marked == [folder / "fail_not_found.json"]
        assert cells(runs.table, 1)["mark"] == "●"
        await pilot.press("down", "space")          # the ptc_runner run
        await settle(app, pilot)
        compare = app.screen
        assert isinstance(compare, CompareScreen) and runs.marked == []
        assert compare.comparison.a.name == "fail_not_found.json"
        assert compare.comparison.b.name == "incident/run.inspection.jsonl"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and cells(runs.table, 1)["mark"] == ""


@pytest.mark.anyio
async def test_a_marked_run_shows_its_mark_until_escape(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        await pilot.press("down", "space", "down")
        assert drawn(runs.table, 1).lstrip().startswith("● ")
        assert "●" not in drawn(runs.table, 0) + drawn(runs.table, 2)
        await pilot.press("escape")
        assert runs.marked == [] and "●" not in drawn(runs.table, 1)


@pytest.mark.anyio
async def test_an_unreadable_run_says_why_on_160_columns(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=(160, 40)) as pilot:
        runs = await filled(pilot)
        row = drawn(runs.table, column(runs.table, "file").index("broken.json"))
        reason = read_run(listed(folder, [folder / "broken.json"])[0]).reason
        assert reason[:10] in row and "unreadable" in row and "runs/" not in row


LONG = "nightly-regression/" + "x" * 50 + ".json"      # the mission column at its narrowest


def why_drawn(runs: RunsTable) -> str:
    """The line under the table, as drawn, or "" when it is not shown."""
    why = runs.query_one("#runs-why")
    if not why.display:
        return ""
    return " ".join(strip.text.strip() for strip in why.render_lines(why.size.region))


@pytest.mark.anyio
async def test_the_cursor_on_an_unreadable_run_shows_why_whole_under_the_table(folder):
    (folder / "nightly-regression").mkdir()
    (folder / LONG).write_text('{"format": "ptc-trace", "version": 99, "agent": {}}')
    app = PtcApp(runs=folder)
    async with app.run_test(size=(160, 40)) as pilot:
        runs = await filled(pilot)
        assert runs.table.columns["mission"].width == MIN_MISSION
        reason = runs.rows[folder / LONG].reason
        assert len(reason) > MIN_MISSION + 20
        files = [row.file for row in runs.shown]
        await pilot.press(*["down"] * files.index(LONG))
        assert runs.highlighted.file == LONG
        assert reason not in drawn(runs.table, runs.table.cursor_row)      # its cell cuts it
        assert why_drawn(runs) == f"{LONG} cannot be read: {reason}"       # whole, on screen
        why = runs.query_one("#runs-why")
        assert why.region.bottom <= app.screen.query_one("Footer").region.y
        await pilot.press("down")                                          # a run read: none
        assert runs.highlighted.reason is None and why_drawn(runs) == ""
        await pilot.press("home")                                          # broken.json
        assert files[0] == "broken.json"
        assert why_drawn(runs).startswith("broken.json cannot be read: the file ends")


@pytest.mark.anyio
async def test_the_line_saying_why_keeps_the_cursors_run_in_view(folder):
    (folder / "zz.json").write_text('{"format": "ptc-trace", "version": 1')    # the last run
    app = PtcApp(runs=folder)
    async with app.run_test(size=(160, 10)) as pilot:                      # rows scroll
        runs = await filled(pilot)
        table = runs.table
        await pilot.press(*["down"] * (table.row_count - 1))   # scrolled, then the line shown
        await pilot.pause()
        assert runs.highlighted.file == "zz.json" and why_drawn(runs).startswith("zz.json")
        shown = table.scrollable_content_region.height - table.header_height
        assert table.scroll_y <= table.cursor_row < table.scroll_y + shown


@pytest.mark.anyio
async def test_why_is_shown_as_soon_as_the_run_under_the_cursor_is_read(folder, monkeypatch):
    import threading

    import ptc_tui.widgets.runs_table as module
    gate, real = threading.Event(), module.read_run
    monkeypatch.setattr(module, "read_run",         # broken.json first, the others held
                        lambda row: real(row) if row.file == "broken.json" else
                        gate.wait(30) and real(row))
    monkeypatch.setattr(module, "POST_EVERY_S", 0)
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = app.screen.query_one(RunsTable)
        for _ in range(100):
            await pilot.pause(0.02)
            if runs.read_count:
                break
        assert runs.read_count == 1 and not runs.complete
        assert runs.highlighted.file == "broken.json"
        assert why_drawn(runs).startswith("broken.json cannot be read: the file ends")
        gate.set()
        await filled(pilot)


@pytest.mark.anyio
async def test_a_file_name_with_a_control_character_is_cut_in_its_middle(folder):
    name = r"hostile/esc\x1b[31mname.json"          # as its column shows it
    (folder / "hostile").mkdir()
    shutil.copy(HERE / "single_shot.json", folder / "hostile" / "esc\x1b[31mname.json")
    app = PtcApp(runs=folder)
    async with app.run_test(size=(160, 40)) as pilot:
        runs = await filled(pilot)
        files = column(runs.table, "file")
        [shown] = [f for f in files if f.startswith("hostile/")]
        assert shown.endswith("mname.json") and len(shown) <= runs.table.columns["file"].width
        assert shown == cut_middle(name, runs.table.columns["file"].width)
        assert shown in drawn(runs.table, files.index(shown))


@pytest.mark.anyio
async def test_the_filter_finds_a_file_name_as_shown_with_its_control_character_escaped(folder):
    shutil.copy(HERE / "single_shot.json", folder / "run\x1bname.json")
    app = PtcApp(runs=folder)
    async with app.run_test(size=(160, 40)) as pilot:
        runs = await filled(pilot)
        await pilot.press("slash", *"x1b")
        assert column(runs.table, "file") == [r"run\x1bname.json"]
        await pilot.press(*["backspace"] * 3, *r"\X1Bn")       # as shown, in any case
        assert runs.filter_text == r"\X1Bn"
        assert column(runs.table, "file") == [r"run\x1bname.json"]
        await pilot.press(*["backspace"] * 5, *"unreadable")   # the outcome column's word
        assert column(runs.table, "file") == ["broken.json"]


@pytest.mark.anyio
async def test_every_sorted_column_shows_its_arrow(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=(160, 40)) as pilot:
        runs = await filled(pilot)
        for name in COLUMNS:
            runs.sort_by(name, reverse=name in NUMERIC)
            await pilot.pause()
            arrow = "▼" if name in NUMERIC else "▲"
            assert f"{name} {arrow}" in drawn(runs.table), name
        widths = [c.get_render_width(runs.table) for c in runs.table.ordered_columns]
        assert sum(widths) <= runs.table.scrollable_content_region.width


@pytest.mark.anyio
async def test_home_and_end_go_to_the_first_and_the_last_run(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        await pilot.press("end")
        assert runs.table.cursor_row == 6 and runs.highlighted.file == "product_search.json"
        await pilot.press("home")
        assert runs.table.cursor_row == 0 and runs.highlighted.file == "broken.json"


@pytest.mark.anyio
async def test_escape_leaves_the_filter_and_keeps_it(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        await pilot.press("slash", *"older", "escape")
        assert app.focused is runs.table and runs.filter_text == "older"
        assert column(runs.table, "file") == ["older/single_shot.json", "older/tool_heavy.json"]
        await pilot.press("down")
        assert runs.highlighted.file == "older/tool_heavy.json"


@pytest.mark.anyio
async def test_the_help_screen_tells_about_the_runs(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        await filled(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("#help-text").plain
        assert "Every trace under the folder" in text and "Home and End" in text
        assert "First run" in text and "Mark to compare" in text
        assert "three panes" not in text and "turn list" not in text


def test_snapshot(folder, snap_compare, monkeypatch):
    if "TEXTUAL_DIM_FACTOR" in os.environ:
        pytest.skip("TEXTUAL_DIM_FACTOR is set: the snapshots are drawn at Textual's default")
    monkeypatch.delenv("NO_COLOR", raising=False)

    async def ready(pilot):
        pilot.app.theme = "textual-dark"
        runs = await filled(pilot)
        runs.sort_by("turns")
        await pilot.pause()
    assert snap_compare(PtcApp(runs=folder), terminal_size=SIZE, run_before=ready)


@pytest.mark.anyio
async def test_state_shown_in_the_snapshot(folder):
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        runs = await filled(pilot)
        runs.sort_by("turns")
        await pilot.pause()
        assert column(runs.table, "turns") == ["7", "4", "4", "3", "3", "1", ""]
        assert column(runs.table, "file")[0] == "older/tool_heavy.json"
        assert str(runs.table.columns["turns"].label) == "turns ▼"
        assert runs.highlighted.file == "broken.json"       # the cursor kept on its run
        assert why_drawn(runs) == ("broken.json cannot be read: the file ends in the middle of "
                                   "the JSON (truncated?)")
        assert "7 runs under runs" in str(app.screen.query_one("#runs-header").content)
        assert app.sub_title == "runs: runs"


def test_the_folder_opens_the_runs_screen(folder, monkeypatch):
    import ptc_tui.launch
    opened = []
    monkeypatch.setattr(ptc_tui.launch, "run_app", lambda **kw: opened.append(kw) or 0)
    assert main([str(folder)]) == 0
    assert [kw["runs"] for kw in opened] == [folder]


def test_a_folder_without_traces_is_one_line(tmp_path, capsys):
    (tmp_path / "notes.json").write_text("{}")
    assert open_directory(tmp_path) == 2
    assert capsys.readouterr().err == f"ptc-tui: {tmp_path}: no trace files under this folder\n"
