"""Files the dialogs offer: the bundled sample traces with their descriptions, and the checks
on a path typed to open or to save a trace."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.trace import TraceError, load_trace
from engine.trace.disk import target_problem
from sample_traces import HERE


@dataclass(frozen=True)
class SampleEntry:
    name: str
    path: Path
    description: str


def sample_entries(folder: Path = HERE) -> list[SampleEntry]:
    """Every `NAME.json` trace in `folder`, in name order, with its agent's description (a file
    that does not load says why instead, so one bad file never hides the others)."""
    entries = []
    for path in sorted(folder.glob("*.json")):
        try:
            description = load_trace(path).agent.description or "(no description)"
        except TraceError as e:
            description = f"(cannot load: {e})"
        entries.append(SampleEntry(path.stem, path, description))
    return entries


def typed_path(text: str, base: Path) -> Path:
    """The path typed as `text`: `~` expanded, relative to `base`."""
    return base / Path(text.strip()).expanduser()


def open_problem(path: Path) -> str | None:
    """Why `path` cannot be opened as a trace file, or None (a folder is fine: it is browsed)."""
    if not path.exists():
        return f"no such file: {path}"
    return None


def save_problem(path: Path) -> str | None:
    """Why a trace cannot be saved at `path`, or None."""
    return target_problem(path)
