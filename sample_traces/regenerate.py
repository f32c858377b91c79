"""Re-record every sample trace from its agent file (deterministic: pinned clock, no timings).

    python -m sample_traces.regenerate [NAME ...]
"""

from __future__ import annotations

import sys

from engine.agent.files import load_agent_file, record
from engine.trace import save_trace
from sample_traces import agent_paths, trace_path


def main(names: list[str]) -> int:
    for path in agent_paths():
        if names and path.stem not in names:
            continue
        trace = record(load_agent_file(path))
        save_trace(trace, trace_path(path))
        print(f"{trace_path(path).name}: {len(trace.turns)} turns, {trace.outcome.status}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
