"""Sample agents, each a Python file with its recorded trace beside it (`name.py`, `name.json`).

    python -m sample_traces.regenerate      # re-record every trace from its agent file
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def agent_paths() -> list[Path]:
    """Every sample agent file, in name order."""
    return sorted(p for p in HERE.glob("*.py") if not p.name.startswith(("_", "regenerate")))


def trace_path(agent_path: Path) -> Path:
    return agent_path.with_suffix(".json")
