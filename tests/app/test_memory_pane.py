"""Pilot tests of the memory pane: the definition under the cursor (keys or mouse) shown in full
below the table, literally; the sample column as wide as the pane allows."""

import dataclasses

import pytest

from engine.trace import load_trace, save_trace
from ptc_tui.app import PtcApp
from ptc_tui.widgets import MemoryPanel
from ptc_tui.widgets.memory_panel import MIN_SAMPLE_WIDTH, MemoryDetail
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio
REDEFINED = "findings"      # long_exploration: defined in turns 3, 15, 18 and 21
TURN = 21
DOCUMENTED = "avg"          # defined with a docstring in turns 4 and 12


async def to_memory_row(app, pilot, name: str, turn: int = TURN) -> MemoryPanel:
    """Turn `turn` selected, the memory table focused, its cursor on `name`."""
    await pilot.press("colon", *str(turn), "enter", "tab", "tab", "tab")
    table = app.screen.query_one(MemoryPanel)
    assert app.focused is table
    names = [r.name for r in table.rows_shown]
    await pilot.press(*["down"] * (names.index(name) - table.cursor_row))
    await pilot.pause()
    return table


async def test_keys_choose_a_definition_and_it_is_shown_in_full(view_of):
    row = next(r for r in view_of("long_exploration").turn(TURN).memory if r.name == REDEFINED)
    assert row.defined_in == TURN and row.defined_before == (3, 15, 18)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        table = await to_memory_row(app, pilot, REDEFINED)
        assert table.chosen == row
        detail = app.screen.query_one(MemoryDetail)
        assert detail.border_title == f"definition · {REDEFINED}"
        lines = detail.plain.splitlines()
        assert lines[0] == f"{REDEFINED} · {row.type}"
        assert lines[1] == f"defined in turn {TURN} (this turn); before that in turns 3, 15, 18"
        assert lines[2] == "── value ──"
        assert detail.plain.endswith("── value ──\n" + row.whole)
        assert len(row.whole.splitlines()) > 1                  # pretty-printed, several lines
        assert len(row.whole) > len(row.sample)                 # more than the table's sample


async def test_the_docstring_is_shown_under_where_it_was_defined(view_of):
    row = next(r for r in view_of("long_exploration").turn(12).memory if r.name == DOCUMENTED)
    assert row.doc and row.defined_before == (4,)
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await to_memory_row(app, pilot, DOCUMENTED, turn=12)
        lines = app.screen.query_one(MemoryDetail).plain.splitlines()
        assert lines[1:3] == ["defined in turn 12 (this turn); before that in turn 4", row.doc]


async def test_the_chosen_definition_stays_chosen_from_turn_to_turn():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        table = await to_memory_row(app, pilot, REDEFINED)
        await pilot.press("shift+tab", "shift+tab", "shift+tab", "k")     # the turn list: up
        await pilot.pause()
        assert app.screen.turn == TURN - 1
        assert table.chosen.name == REDEFINED
        detail = app.screen.query_one(MemoryDetail)
        assert detail.plain.splitlines()[1] == \
            "defined in turn 18; before that in turns 3, 15"


async def test_a_new_turns_definition_is_shown_with_its_table_in_the_same_frame():
    """The detail is filled in as the table is, not by a message handled after the screen is
    drawn (the definition then showed the old turn's for a frame)."""
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        table = await to_memory_row(app, pilot, REDEFINED)
        detail = app.screen.query_one(MemoryDetail)
        app.screen.turn = TURN - 1                 # the watchers run now; no message handled
        assert table.border_title.startswith(f"memory after turn {TURN - 1} ")
        assert detail.plain.splitlines()[1] == "defined in turn 18; before that in turns 3, 15"


async def test_a_click_on_a_row_shows_that_definition():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", *str(TURN), "enter")
        await pilot.pause()
        table = app.screen.query_one(MemoryPanel)
        third = table.rows_shown[2]
        top = table.styles.gutter.top + table.header_height
        await pilot.click(MemoryPanel, offset=(4, top + 2))
        await pilot.pause()
        assert table.chosen == third
        detail = app.screen.query_one(MemoryDetail)
        assert detail.plain.startswith(f"{third.name} · {third.type}")


async def test_a_turn_without_definitions_says_so():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert app.screen.query_one(MemoryPanel).rows_shown == ()
        detail = app.screen.query_one(MemoryDetail)
        assert detail.plain == "No definitions after this turn."


async def test_the_definition_is_shown_literally(tmp_path):
    hostile = "[bold red]x[/] \x1b[2J"
    trace = load_trace(sample("error_recovery"))
    turns = list(trace.turns)
    turns[0] = dataclasses.replace(turns[0], memory={"note": hostile})
    path = tmp_path / "hostile.json"
    save_trace(dataclasses.replace(trace, turns=tuple(turns)), path)
    app = PtcApp(path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        detail = app.screen.query_one(MemoryDetail)
        assert '"[bold red]x[/] \\x1b[2J"' in detail.plain
        drawn = "".join(detail.render_line(y).text for y in range(detail.size.height))
        assert "[bold red]x[/]" in drawn and "\x1b" not in drawn


def sample_room(table: MemoryPanel) -> int:
    """The cells the shown columns before the sample leave it (each padded one a side)."""
    keys = list(table.columns)
    before = [table.columns[k] for k in keys[:keys.index("sample")]]
    return (table.scrollable_content_region.width
            - sum(c.render_width for c in before) - 2)


async def test_the_sample_column_takes_the_width_the_pane_leaves():
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        table = await to_memory_row(app, pilot, REDEFINED)
        narrow = table.columns["sample"].width
        assert narrow >= MIN_SAMPLE_WIDTH and narrow == sample_room(table)
        await pilot.press("z")                                   # the pane zoomed: more room
        await pilot.pause()
        wide = table.columns["sample"].width
        longest = max(len(r.sample or "") for r in table.rows_shown)
        assert "type" in table.columns and "turn" in table.columns     # room for every column
        assert wide > narrow and wide == min(longest, sample_room(table))


async def test_at_160_columns_the_sample_is_on_screen_beside_the_names():
    """strategy_comparison at 160x45: the memory pane is the narrowest; the turn and type
    columns (the definition below shows them) make way for the sample, never the sample
    pushed off the pane's edge."""
    app = PtcApp(sample("strategy_comparison"))
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("colon", "5", "enter")
        await pilot.pause()
        table = app.screen.query_one(MemoryPanel)
        assert len(table.rows_shown) == 8
        width = table.columns["sample"].width
        assert width >= MIN_SAMPLE_WIDTH and width == sample_room(table)
        assert list(table.columns)[:3] == ["changed", "name", "sample"]
        region = table.scrollable_content_region
        assert sum(c.render_width for c in list(table.columns.values())[:3]) \
            <= region.width                                     # the sample's cells on screen
        first = table.rows_shown[0]
        line = table.render_line(table.header_height).text      # the first row as drawn
        assert first.name in line and first.sample[:width - 1] in line


async def test_only_the_chosen_definition_is_pretty_printed(monkeypatch):
    from ptc_tui.view import panes
    printed = []
    real = panes.pretty
    monkeypatch.setattr(panes, "pretty", lambda value: printed.append(value) or real(value))
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", *str(TURN), "enter")
        await pilot.pause()
        table = app.screen.query_one(MemoryPanel)
        assert len(table.rows_shown) > 2
        assert {id(v) for v in printed} == {id(table.chosen.value)}
        await pilot.press("tab", "tab", "tab", "down")         # the next row: printed then
        await pilot.pause()
        assert {id(v) for v in printed} == {id(r.value) for r in table.rows_shown[:2]}


def test_a_value_without_a_sample_shows_its_type_where_the_sample_goes(view_of):
    """nil and empty collections get no sample (the history shows their type alone): the
    sample cell says the type, so the row reads whole where the type column is left out."""
    from ptc_tui.widgets.memory_panel import COLUMNS, row_cells
    rows = {r.name: r for r in view_of("long_exploration").turn(26).memory}
    for name, type_label in (("answer", "nil"), ("dupes", "map[0]")):
        assert rows[name].sample is None and rows[name].type == type_label
        cell = row_cells(rows[name])[COLUMNS.index("sample")]
        assert cell.plain == type_label and str(cell.style) == "dim"


async def test_an_empty_memory_table_is_laid_out_for_the_panes_width():
    """Turn 1 of a run defines nothing yet: its table still shows every column's title (it
    was laid out once, for no width, and so left out the type and the turn)."""
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(MemoryPanel)
        assert app.screen.turn == 1 and table.rows_shown == ()
        assert [c.label.plain for c in table.columns.values()] == \
            ["", "name", "type", "turn", "sample", "doc"]


@pytest.mark.parametrize("turn", [2, 14, 26])
def test_the_doc_column_starts_on_screen_only_where_its_title_fits(view_of, turn):
    """A column past the sample (the doc, read whole below the table) showed as a one-cell
    sliver at the pane's edge at some widths; it now starts on screen with its title or not
    at all (the table scrolls sideways to it)."""
    from ptc_tui.widgets.memory_panel import COLUMNS, MIN_DOC_CELLS, column_layout, row_cells
    cells = [row_cells(r) for r in view_of("long_exploration").turn(turn).memory]
    for room in range(24, 120):
        layout = column_layout(cells, room)
        before_doc = sum(width + 2 for i, width in layout if COLUMNS[i] != "doc")
        on_screen = room - before_doc
        assert on_screen <= 0 or on_screen >= MIN_DOC_CELLS, (room, layout)


@pytest.mark.parametrize("size, scrollbar", [((80, 24), False), ((100, 40), True)], ids=str)
async def test_a_short_memory_table_shows_its_rows_not_a_scrollbar(size, scrollbar):
    """At 80×24 the table has room under its header for one row; a horizontal scrollbar (for
    the doc column, read whole beside it) took it, and no definition showed."""
    from textual.geometry import Region
    app = PtcApp(sample("error_recovery"))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("G")
        await settle(app, pilot)
        table = app.screen.query_one(MemoryPanel)
        assert table.virtual_size.width > table.scrollable_content_region.width  # wider
        assert table.show_horizontal_scrollbar is scrollbar
        drawn = [s.text.strip("│ ") for s in table.render_lines(Region(0, 0, *table.outer_size))]
        first = table.rows_shown[0].name
        assert drawn[1].split()[0] == "name" and drawn[2].split()[0] == first   # under the border
