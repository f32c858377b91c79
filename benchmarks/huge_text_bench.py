"""A trace with one huge reply (default 50 MB): `stats` (token_stats) and the app (open, then `q`),
against the same on the product-search sample, measured in the same run.

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
from ptc_tui.token_stats import token_stats  # noqa: E402
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


async def open_and_quit(path: Path) -> tuple[float, float]:
    """Seconds until the app shows the trace, then from `q` until it has exited."""
    started = time.perf_counter()
    app = PtcApp(path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        shown = time.perf_counter() - started
        started = time.perf_counter()
        await pilot.press("q")
        while app.is_running:
            await asyncio.sleep(0.01)
    return shown, time.perf_counter() - started


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
            shown, quit_s = asyncio.run(open_and_quit(path))
            rows.append((name, stats_s, shown, quit_s))
    base = rows[0]
    print(f"{'trace':16} {'stats s':>9} {'app shown s':>12} {'q to exit s':>12}   ratios to "
          f"{base[0]}")
    for name, *times in rows:
        ratios = " ".join(f"{t / b:8.0f}x" for t, b in zip(times, base[1:]))
        print(f"{name:16} {times[0]:9.2f} {times[1]:12.2f} {times[2]:12.2f}   {ratios}")


if __name__ == "__main__":
    main()
