"""A trace with one huge reply (default 50 MB): `stats` (token_stats) and the app (open, then `q`),
against the same on the product-search sample, measured in the same run: seconds until the app
paints its first screen, until it shows the trace, from `q` to exit once it does, and from `q`
pressed at first paint (while a huge trace still loads) to exit.

    python benchmarks/huge_text_bench.py [--mb 50]

The huge trace is made by running an agent whose first reply is the huge text followed by its
program, so every later request quotes it (under `full` and `compaction`), as a real run would.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.agent import SubAgent  # noqa: E402
from engine.llm import ScriptedLLM  # noqa: E402
from engine.trace import load_trace, save_trace  # noqa: E402
from ptc_tui.app import PtcApp  # noqa: E402
from ptc_tui.view.token_stats import token_stats  # noqa: E402
from sample_traces import HERE as SAMPLES  # noqa: E402


def huge_trace(mb: int):
    words = "word " * (mb * 1_000_000 // 5)
    replies = [words + "\n```clojure\n(def a 1)\n```", "```clojure\n(def b 2)\n```",
               "```clojure\n(return b)\n```"]
    session = SubAgent(mission="Be verbose.", max_turns=3, name="verbose").start(
        ScriptedLLM(replies))
    while not session.done:
        session.step()
    return session.trace()


def seconds(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


async def open_and_quit(path: Path, wait_for_trace: bool) -> tuple[float, float, float]:
    """When the app first painted a screen and when it showed the trace (perf_counter times),
    and when `q` was pressed: at first paint, or once the trace is shown if `wait_for_trace`."""
    app = PtcApp(path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        painted = time.perf_counter()
        while wait_for_trace and getattr(app, "loading", False):     # the trace loads behind
            await pilot.pause(0.01)                                   # a "loading" screen
        shown = time.perf_counter()
        await pilot.press("q")
        pressed = time.perf_counter()
        while app.is_running:
            await asyncio.sleep(0.01)
    return painted, shown, pressed


def app_times(path: Path) -> tuple[float, float, float, float]:
    """Seconds to first paint, to the trace shown, from `q` (trace shown) to exit, and from
    `q` at first paint (while it loads) to exit; each exit as asyncio.run ends, which waits for
    the threads of asyncio's default executor as the app's own run does."""
    started = time.perf_counter()
    painted, shown, pressed = asyncio.run(open_and_quit(path, wait_for_trace=True))
    quit_s = time.perf_counter() - pressed
    _, _, pressed_early = asyncio.run(open_and_quit(path, wait_for_trace=False))
    return painted - started, shown - started, quit_s, time.perf_counter() - pressed_early


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=50)
    args = parser.parse_args()
    small = SAMPLES / "product_search.json"
    with tempfile.TemporaryDirectory() as folder:
        huge = Path(folder) / "huge.json"
        save_trace(huge_trace(args.mb), huge)
        rows = []
        for name, path in (("product_search", small), (f"{args.mb} MB reply", huge)):
            trace = load_trace(path)
            stats_s = seconds(lambda: token_stats(trace, None, {}, None))
            rows.append((name, stats_s, *app_times(path)))
    base = rows[0]
    print(f"{'trace':16} {'stats s':>8} {'painted s':>10} {'shown s':>8} {'q→exit s':>9} "
          f"{'q loading→exit s':>17}   ratios to {base[0]}")
    for name, *times in rows:
        ratios = " ".join(f"{t / b:6.1f}x" for t, b in zip(times, base[1:]))
        print(f"{name:16} {times[0]:8.2f} {times[1]:10.2f} {times[2]:8.2f} {times[3]:9.2f} "
              f"{times[4]:17.2f}   {ratios}")


if __name__ == "__main__":
    main()
