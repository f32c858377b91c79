"""File dialogs: open a trace (typed path or folder tree), pick a bundled sample, save a trace.
Each is a ModalScreen that dismisses with the chosen Path, or None on escape."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ptc_tui.view.files import (SampleEntry, open_problem, sample_entries, save_problem,
                                typed_path)
from ptc_tui.widgets.literal import literal
from ptc_tui.widgets.trace_tree import TraceTree


class PathDialog(ModalScreen[Path | None]):
    """The frame the file dialogs share: a centred box, a title, an error line, escape cancels."""

    DEFAULT_CSS = """
    PathDialog {
        align: center middle;
        #dialog {
            width: 80%;
            max-width: 110;
            height: auto;
            max-height: 90%;
            border: thick $primary;
            background: $surface;
            padding: 0 1;
        }
        .title { text-style: bold; margin-bottom: 1; }
        .error { color: $text-error; }
        .hint { color: $text-muted; }
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]

    def show_error(self, message: str) -> None:
        self.query_one("#dialog .error", Static).update(literal(message))

    def action_cancel(self) -> None:
        self.dismiss(None)


class OpenDialog(PathDialog):
    """Open a trace: type a path (relative to the folder shown) and press enter, or pick a
    file in the tree. A folder typed is browsed; a missing path is refused inline."""

    DEFAULT_CSS = """
    OpenDialog #dialog { height: 80%; }
    OpenDialog TraceTree { height: 1fr; }
    """

    def __init__(self, start_dir: Path) -> None:
        super().__init__()
        self.folder = start_dir       # the folder the tree shows; typed paths are relative to it

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Open a trace", classes="title")
            yield Input(placeholder="path to a trace file; enter opens it", id="open-path")
            yield Static("", classes="error", markup=False)
            yield TraceTree(self.folder, id="open-tree")
            yield Label("enter: open · tab: the folder tree · escape: cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = typed_path(event.value, self.folder)
        problem = open_problem(path)
        if problem:
            self.show_error(problem)
        elif path.is_dir():
            self.show_error("")
            self.folder = path
            self.query_one(TraceTree).path = path
        else:
            self.dismiss(path)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.show_error("")

    def on_directory_tree_file_selected(self, event: TraceTree.FileSelected) -> None:
        event.stop()
        self.dismiss(event.path)


def sample_row(entry: SampleEntry) -> Text:
    """A sample's name in bold, its description (from the trace file: literal) below."""
    return Text.assemble((entry.name, "bold"), "\n  ", literal(entry.description))


class SamplePickerDialog(PathDialog):
    """Pick one of the bundled sample traces, listed with their descriptions."""

    DEFAULT_CSS = """
    SamplePickerDialog OptionList { height: auto; max-height: 30; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.paths: dict[str, Path] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Open a sample trace", classes="title")
            yield OptionList(Option("loading the samples…", disabled=True), markup=False,
                             id="samples")
            yield Static("", classes="error", markup=False)
            yield Label("enter or click: open · escape: cancel", classes="hint")

    def on_mount(self) -> None:
        self.load_samples()

    @work(exclusive=True)
    async def load_samples(self) -> None:
        # Loading every trace takes a few hundred ms (one is 1.5 MB): off the event loop.
        options = self.query_one(OptionList)
        try:
            entries = await asyncio.to_thread(sample_entries)
        except OSError as e:          # the samples folder itself unreadable: say so, stay open
            entries, problem = [], f"cannot list the sample traces: {e}"
        else:
            problem = "" if entries else "no sample traces found"
        self.paths = {e.name: e.path for e in entries}
        options.clear_options()
        options.add_options(Option(sample_row(e), id=e.name) for e in entries)
        options.highlighted = 0 if entries else None
        options.focus()
        self.show_error(problem)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_id in self.paths:
            self.dismiss(self.paths[event.option_id])


class SaveDialog(PathDialog):
    """Save a trace: a path to confirm or edit; an existing file needs a second enter."""

    def __init__(self, default_path: Path, title: str = "Save the trace",
                 verb: str = "save") -> None:
        super().__init__()
        self.default_path = default_path
        self.dialog_title, self.verb = title, verb
        self.overwrite: Path | None = None     # the existing file a second enter replaces

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.dialog_title, classes="title")
            yield Input(str(self.default_path), id="save-path")
            yield Static("", classes="error", markup=False)
            yield Label(f"enter: {self.verb} · escape: cancel", classes="hint")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.overwrite = None
        self.show_error("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = typed_path(event.value, Path())
        problem = save_problem(path)
        if problem:
            self.show_error(problem)
        elif path.exists() and self.overwrite != path:
            self.overwrite = path
            self.show_error(f"{path} exists: press enter again to overwrite it")
        else:
            self.dismiss(path)
