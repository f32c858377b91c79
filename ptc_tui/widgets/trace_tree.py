"""TraceTree: a folder tree that shows only folders and trace files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.widgets import DirectoryTree

TRACE_NAMES = (".json", ".json.gz", ".inspection.jsonl")


class TraceTree(DirectoryTree):
    """A folder tree showing only folders and trace files (`.json`, `.json.gz`, a ptc_runner
    `.inspection.jsonl`), hidden ones left out (any other file can still be typed)."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if self.shows(p)]

    @staticmethod
    def shows(path: Path) -> bool:
        if path.name.startswith("."):
            return False
        try:
            return path.name.endswith(TRACE_NAMES) or path.is_dir()
        except OSError:               # an unreadable entry is left out, never an error
            return False
