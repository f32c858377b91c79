"""What a key press does on a long turn, the old way against the new, in one run (issue 15):

    python benchmarks/key_parts_bench.py [--turns 200]

On turn turns-1 of the generated trace (benchmarks/long_trace.py): the memory pane's rows with
every value pretty-printed anew against memory_rows keeping each value's text between turns,
and the message pane's text wrapped whole (Rich's Text.wrap) against prose_rows with a
screenful of rows (48) drawn. CPU milliseconds, best of 5.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402

from benchmarks.long_trace import long_trace  # noqa: E402
from ptc_tui.view import TraceView  # noqa: E402
from ptc_tui.view.panes import clipped, memory_rows  # noqa: E402
from ptc_tui.view.pretty import pretty  # noqa: E402
from ptc_tui.widgets.message_panel import pane_text  # noqa: E402
from ptc_tui.widgets.text_panel import prose_rows  # noqa: E402

SCREEN_ROWS = 48
WIDTH = 60


def best(f, rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        start = time.process_time()
        f()
        times.append(time.process_time() - start)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    view = TraceView.of(long_trace(args.turns))
    turns, n = view.turns, args.turns - 1
    kept: dict = {}
    memory_rows(turns, n - 1, view.opts, kept)          # the turn before: its values kept
    old_memory = best(lambda: [clipped(pretty(v)) for v in turns[n].memory.values()])
    new_memory = best(lambda: memory_rows(turns, n, view.opts, kept))
    text = pane_text(view.turn(n).messages)
    console = Console(width=200)
    old_wrap = best(lambda: text.wrap(console, WIDTH))
    new_wrap = best(lambda: [r[0].piece(r[1]) if isinstance(r, tuple) else r
                             for r in prose_rows(text, WIDTH, console)[:SCREEN_ROWS]])
    print(f"turn {n} of a {args.turns}-turn trace; CPU ms, best of 5\n")
    print("| part of a key press | old | new | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| memory rows (pretty-printed values) | {old_memory:.1f} | {new_memory:.1f} | "
          f"{old_memory / new_memory:.0f} × |")
    print(f"| message pane laid out, {SCREEN_ROWS} rows drawn | {old_wrap:.1f} | {new_wrap:.1f} | "
          f"{old_wrap / new_wrap:.1f} × |")


if __name__ == "__main__":
    main()
