"""Where the app saves a live run it is stopped in (a signal, a closed terminal) when the run has
no --save file: the autosave folder, `$XDG_STATE_HOME/ptc-tui/autosave` (by default
`~/.local/state/ptc-tui/autosave`). The next start of the app names the files saved there
since the start before."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

SEEN = ".seen"       # its modification time: when the app last named the autosaves


def autosave_folder() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(state) / "ptc-tui" / "autosave"


def autosave_path(name: str) -> Path:
    """A new file in the autosave folder (created if need be) for the run of agent `name`."""
    folder = autosave_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40] or "run"
    return folder / f"{safe}-{stamp}-{os.getpid()}.json"


def unseen_autosaves() -> list[Path]:
    """Autosaves written since the app last named them, newest first; they count as named
    from now on."""
    folder = autosave_folder()
    seen = folder / SEEN
    try:
        since = seen.stat().st_mtime
    except OSError:
        since = 0.0
    try:
        found = [p for p in folder.glob("*.json") if p.stat().st_mtime > since]
        if found:
            seen.touch()
    except OSError:
        return []
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)
