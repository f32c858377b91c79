"""LiveStatus: the one line above the live screen's footer: what is running and what the keys
do."""

from __future__ import annotations

from textual.widgets import Static


class LiveStatus(Static):
    """One line above the footer: what is running and what the keys do."""

    DEFAULT_CSS = """
    LiveStatus {
        height: 1;
        padding: 0 1;
        background: $boost;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """
