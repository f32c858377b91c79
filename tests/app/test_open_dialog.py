"""Pilot tests of the file dialogs (open, sample picker, save): each returns a Path or None."""

import shutil

import pytest
from textual.app import App
from textual.widgets import Input, OptionList, Static

from engine.trace import load_trace
from ptc_tui.screens.open_dialog import OpenDialog, SamplePickerDialog, SaveDialog
from ptc_tui.widgets.trace_tree import TraceTree
from ptc_tui.view.files import sample_entries
from sample_traces import HERE
from tests.app.conftest import WIDE, sample

pytestmark = pytest.mark.anyio
SAMPLES = sorted(HERE.glob("*.json"))


class DialogApp(App):
    """An empty app that records what each dialog it opens dismisses with."""

    def __init__(self) -> None:
        super().__init__()
        self.results: list = []

    def open(self, dialog) -> None:
        self.push_screen(dialog, self.results.append)


async def opened(pilot, dialog):
    pilot.app.open(dialog)
    await pilot.pause()
    return dialog


def error_of(dialog) -> str:
    return str(dialog.query_one("#dialog .error", Static).render())


async def type_path(pilot, text: str) -> None:
    """Type `text` into the dialog's path field; a long (absolute) path is pasted, as a user
    would, because pressing 60 keys one by one makes the test slow, not better."""
    if len(text) <= 20:
        await pilot.press("end", "ctrl+u", *text)
    else:
        await pilot.press("end", "ctrl+u")
        field = pilot.app.screen.query_one(Input)
        field.insert_text_at_cursor(text)
    await pilot.pause()


async def until(pilot, condition, tries: int = 100) -> None:
    """Let the app run until `condition()` holds (the tree and the samples load in workers)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app never got there")


# --- sample picker -----------------------------------------------------------------------------
async def loaded_picker(pilot) -> SamplePickerDialog:
    dialog = await opened(pilot, SamplePickerDialog())
    await until(pilot, lambda: bool(dialog.paths))
    await pilot.pause()
    return dialog


async def test_sample_picker_lists_every_sample_with_its_description():
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await loaded_picker(pilot)
        options = dialog.query_one(OptionList)
        rows = [options.get_option_at_index(i).prompt.plain for i in range(options.option_count)]
        assert rows == [f"{p.stem}\n  {load_trace(p).agent.description}" for p in SAMPLES]


async def test_sample_picker_returns_the_path_chosen_with_keys():
    index = [p.stem for p in SAMPLES].index("tool_heavy")
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        await loaded_picker(pilot)
        await pilot.press(*["down"] * index, "enter")
        await pilot.pause()
        assert app.results == [HERE / "tool_heavy.json"]


async def test_sample_picker_returns_the_path_clicked():
    index = [p.stem for p in SAMPLES].index("product_search")
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        await loaded_picker(pilot)
        # each row is two lines (name, description) below the list's one-line top border
        await pilot.click("#samples", offset=(4, 1 + 2 * index))
        await pilot.pause()
        assert app.results == [HERE / "product_search.json"]


async def test_escape_closes_the_sample_picker_with_nothing():
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await loaded_picker(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None] and app.screen is not dialog


def test_a_broken_trace_is_listed_with_its_problem_and_hides_no_other(tmp_path):
    shutil.copy(sample("single_shot"), tmp_path / "good.json")
    (tmp_path / "bad.json").write_text("{not json")
    entries = {e.name: e.description for e in sample_entries(tmp_path)}
    assert entries["good"] == load_trace(sample("single_shot")).agent.description
    assert entries["bad"].startswith("(cannot load:") and "not valid JSON" in entries["bad"]


# --- open dialog -----------------------------------------------------------------------------
async def test_open_dialog_returns_a_typed_path_relative_to_its_folder():
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        await opened(pilot, OpenDialog(HERE))
        await type_path(pilot, "single_shot.json")
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [HERE / "single_shot.json"]


async def test_open_dialog_refuses_a_missing_path_and_stays_open(tmp_path):
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await opened(pilot, OpenDialog(tmp_path))
        await type_path(pilot, "nope.json")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and app.results == []
        assert "no such file" in error_of(dialog) and "nope.json" in error_of(dialog)
        await type_path(pilot, str(sample("error_recovery")))     # an absolute path
        assert error_of(dialog) == ""
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [sample("error_recovery")]


async def test_open_dialog_tree_shows_folders_and_json_only_and_a_click_opens(tmp_path):
    for name in ("a.json", "notes.txt", ".hidden.json", "b.json.gz", "c.gz", "run.jsonl"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "runs").mkdir()
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await opened(pilot, OpenDialog(tmp_path))
        tree = dialog.query_one(TraceTree)
        await until(pilot, lambda: bool(tree.root.children))
        assert [str(n.label) for n in tree.root.children] == ["runs", "a.json", "b.json.gz"]
        line = 1 + [str(n.label) for n in tree.root.children].index("a.json")
        await pilot.click(tree, offset=(6, line))
        await pilot.pause()
        assert app.results == [tmp_path / "a.json"]


async def test_open_dialog_tree_works_with_keys_and_a_typed_folder_is_browsed(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "r1.json").write_text("{}")
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await opened(pilot, OpenDialog(tmp_path))
        await type_path(pilot, "runs")
        await pilot.press("enter")
        tree = dialog.query_one(TraceTree)
        await until(pilot, lambda: [str(n.label) for n in tree.root.children] == ["r1.json"])
        assert app.screen is dialog and error_of(dialog) == ""
        await pilot.press("tab", "down", "enter")
        await pilot.pause()
        assert app.results == [tmp_path / "runs" / "r1.json"]


async def test_after_browsing_a_folder_typed_paths_are_relative_to_it(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "r1.json").write_text("{}")
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        await opened(pilot, OpenDialog(tmp_path))
        await type_path(pilot, "runs")
        await pilot.press("enter")
        await type_path(pilot, "r1.json")
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [tmp_path / "runs" / "r1.json"]


async def test_escape_closes_the_open_dialog_with_nothing(tmp_path):
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        await opened(pilot, OpenDialog(tmp_path))
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]


# --- save dialog -----------------------------------------------------------------------------
async def test_save_dialog_returns_its_suggested_path(tmp_path):
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await opened(pilot, SaveDialog(tmp_path / "run.json"))
        assert dialog.query_one(Input).value == str(tmp_path / "run.json")
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [tmp_path / "run.json"]


async def test_save_dialog_returns_an_edited_path(tmp_path):
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        await opened(pilot, SaveDialog(tmp_path / "run.json"))
        await type_path(pilot, str(tmp_path / "other.json"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [tmp_path / "other.json"]


@pytest.mark.parametrize("where, problem", [("", "is a folder"),
                                            ("missing/run.json", "no such folder")])
async def test_save_dialog_refuses_a_folder_or_a_missing_folder(tmp_path, where, problem):
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await opened(pilot, SaveDialog(tmp_path / "run.json"))
        await type_path(pilot, str(tmp_path / where))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and app.results == []
        assert problem in error_of(dialog)


async def test_save_dialog_asks_before_overwriting(tmp_path):
    existing = tmp_path / "run.json"
    existing.write_text("{}")
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await opened(pilot, SaveDialog(existing))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and app.results == []
        assert "overwrite" in error_of(dialog)
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [existing]


async def test_editing_the_path_cancels_the_overwrite_question(tmp_path):
    existing = tmp_path / "run.json"
    existing.write_text("{}")
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        dialog = await opened(pilot, SaveDialog(existing))
        await pilot.press("enter")                 # asks
        await pilot.press("end", "backspace", "n")   # an edit (back to the same name) ...
        await pilot.press("enter")                 # ... so this enter asks again
        await pilot.pause()
        assert app.screen is dialog and "overwrite" in error_of(dialog)
        assert app.results == []


async def test_escape_closes_the_save_dialog_with_nothing(tmp_path):
    app = DialogApp()
    async with app.run_test(size=WIDE) as pilot:
        await opened(pilot, SaveDialog(tmp_path / "run.json"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]
