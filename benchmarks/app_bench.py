"""The app's speed, with Textual's test pilot, against starting the app on the smallest sample
measured in the same run.

    python benchmarks/app_bench.py [--turns 200] [--rounds 5]

1. Open the 200-turn benchmark trace: load, render, count, compose and draw the first screen.
2. A limit change (`p`: println_limit + 1) on it: until the selected turn's panes have their new
   content (the rest is counted in a worker), and until every pane, count and the turn list are
   redrawn.
3. The same limit change on the smallest sample (this one must feel instant).
4. `G`: the last turn of the 200-turn trace, whose request is the longest, drawn.
A key the app ignores (`k` on the first turn) is timed too: the pilot's own cost of a key press
and a redraw, which the "net" column subtracts from a limit change.
Each time is the best of several rounds, each round a fresh app (no cache carried over).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.long_trace import long_trace  # noqa: E402
from engine.trace import save_trace  # noqa: E402
from ptc_tui.app import PtcApp  # noqa: E402
from sample_traces import HERE as SAMPLES  # noqa: E402

SIZE = (160, 50)


async def drawn(pilot) -> None:
    """Wait until the workers (counting every turn) are done and the app has handled every
    pending message and refreshed the screen."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def timed_key(pilot, key: str) -> float:
    start = time.perf_counter()
    await pilot.press(key)
    await drawn(pilot)
    return time.perf_counter() - start


def timed_panes(app) -> float:
    """Seconds for a limit change to reach the selected turn's panes: the action and the
    watchers it sets off, up to the paint; the other turns are then counted in a worker."""
    start = time.perf_counter()
    app.screen.action_limit("println_limit", 1)
    return time.perf_counter() - start


async def open_and_change(path: Path) -> tuple[float, ...]:
    """Seconds to a fully drawn first screen, for an ignored key, for a limit change to reach
    the selected turn's panes (in a second app), for `p` to redraw everything, and for `G` to
    draw the last turn (the longest request)."""
    start = time.perf_counter()
    app = PtcApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await drawn(pilot)
        opened = time.perf_counter() - start
        before = app.screen.view.opts.println_limit
        ignored = await timed_key(pilot, "k")
        changed = await timed_key(pilot, "p")
        assert app.screen.view.opts.println_limit == before + 1
        last = await timed_key(pilot, "G")
    app = PtcApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await drawn(pilot)
        panes = timed_panes(app)
        await drawn(pilot)
    return opened, ignored, panes, changed, last


def best(path: Path, rounds: int) -> tuple[float, ...]:
    runs = [asyncio.run(open_and_change(path)) for _ in range(rounds)]
    return tuple(min(times) for times in zip(*runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    smallest = min(SAMPLES.glob("*.json"), key=lambda p: p.stat().st_size)
    with tempfile.TemporaryDirectory() as tmp:
        long = Path(tmp) / "long.json"
        save_trace(long_trace(args.turns), long)
        best(smallest, 1)                                  # warm imports and tiktoken
        small_open, small_ignored, small_panes, small_change, _ = best(smallest, args.rounds)
        long_open, long_ignored, long_panes, long_change, long_last = best(long, args.rounds)
    print(f"baseline: open {smallest.name} ({smallest.stat().st_size / 1e3:.0f} KB) "
          f"= {small_open * 1000:.0f} ms; {args.turns}-turn trace; best of {args.rounds}\n")
    print("| measurement | ms | net of an ignored key, ms | ratio to baseline |")
    print("|---|---:|---:|---:|")
    rows = ((f"open {args.turns}-turn trace, first screen drawn", long_open, None),
            (f"ignored key, {smallest.name}", small_ignored, None),
            (f"limit change, selected turn's panes, {args.turns}-turn trace", long_panes, None),
            (f"limit change, all redrawn, {args.turns}-turn trace", long_change, long_ignored),
            (f"limit change, all redrawn, {smallest.name}", small_change, small_ignored),
            (f"G: the last turn drawn, {args.turns}-turn trace", long_last, long_ignored))
    for label, t, ignored in rows:
        net = "" if ignored is None else f"{(t - ignored) * 1000:.1f}"
        print(f"| {label} | {t * 1000:.1f} | {net} | {t / small_open:.2f} |")


if __name__ == "__main__":
    main()
