"""The app's speed, with Textual's test pilot, against starting the app on the smallest sample
measured in the same run.

    python benchmarks/app_bench.py [--turns 200] [--rounds 5]

1. Open the 200-turn benchmark trace: load, render, count, compose and draw the first screen.
2. A limit change (`p`: println_limit + 1) on it, until every pane, count and the turn list are
   redrawn.
3. The same limit change on the smallest sample (this one must feel instant).
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
    """Wait until the app has handled every pending message and refreshed the screen."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def open_and_change(path: Path) -> tuple[float, float]:
    """Seconds to a fully drawn first screen, then for `p` to be fully redrawn."""
    start = time.perf_counter()
    app = PtcApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await drawn(pilot)
        opened = time.perf_counter() - start
        before = app.screen.view.opts.println_limit
        start = time.perf_counter()
        await pilot.press("p")
        await drawn(pilot)
        changed = time.perf_counter() - start
        assert app.screen.view.opts.println_limit == before + 1
    return opened, changed


def best(path: Path, rounds: int) -> tuple[float, float]:
    runs = [asyncio.run(open_and_change(path)) for _ in range(rounds)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


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
        small_open, small_change = best(smallest, args.rounds)
        long_open, long_change = best(long, args.rounds)
    print(f"baseline: open {smallest.name} ({smallest.stat().st_size / 1e3:.0f} KB) "
          f"= {small_open * 1000:.0f} ms; {args.turns}-turn trace; best of {args.rounds}\n")
    print("| measurement | ms | ratio to baseline |")
    print("|---|---:|---:|")
    for label, t in ((f"open {args.turns}-turn trace, first screen drawn", long_open),
                     (f"limit change redrawn, {args.turns}-turn trace", long_change),
                     (f"limit change redrawn, {smallest.name}", small_change)):
        print(f"| {label} | {t * 1000:.1f} | {t / small_open:.2f} |")


if __name__ == "__main__":
    main()
