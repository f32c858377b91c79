"""The token view's re-render after an option change on a 200-turn trace, with the prompt-cache
model and without it, measured in the same run.

    python benchmarks/caching_bench.py [--turns 200] [--rounds 7]

Each round changes println_limit (a new value each time, so nothing is served from the render
cache) and builds the token view's totals and chart at gpt-4.1's prices as before the cache
model (caching off: every strategy rendered and counted); then, on that same fresh rendering,
what caching on adds: every request of every strategy split into cache read, write and
uncached, and the totals and chart with caching. Timing the two parts of one re-render apart
keeps this machine's load swings (larger than the difference) out of the ratio. Target: with
caching at most 1.1 x without. Times are the best of the rounds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.long_trace import long_trace  # noqa: E402
from engine.history import strategy_order  # noqa: E402
from engine.tokens import cache_policy, load_prices  # noqa: E402
from engine.trace import load_trace, save_trace  # noqa: E402
from ptc_tui.view import TraceView  # noqa: E402
from ptc_tui.view.tokens import TokenView  # noqa: E402

MODEL = "gpt-4.1"
WIDTH = 140


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.json"
        save_trace(long_trace(args.turns), path)
        trace = load_trace(path)
    table = load_prices()
    base = TraceView.of(trace)
    TokenView.of(base, table, MODEL).totals()      # every text of the trace counted once
    limits = iter(range(1, 100_000))
    policy = cache_policy(MODEL)
    without, extra = [], []
    for _ in range(args.rounds):
        start = time.perf_counter()
        view = base.with_options(println_limit=next(limits))
        tokens = TokenView.of(view, table, MODEL, caching=False)
        tokens.totals(args.turns // 2)
        tokens.chart(args.turns // 2, WIDTH)
        middle = time.perf_counter()
        for s in strategy_order():
            tokens.runs.splits(s, policy)
        cached = tokens.with_caching(True)
        cached.totals(args.turns // 2)
        cached.chart(args.turns // 2, WIDTH)
        end = time.perf_counter()
        without.append(middle - start)
        extra.append(end - middle)
    t_without, t_extra = min(without), min(extra)
    t_with = t_without + t_extra

    print(f"{len(trace.turns)} turns, {len(strategy_order())} strategies, prices of {MODEL}, "
          f"best of {args.rounds}\n")
    print("| re-render after an option change | ms | ratio to caching off (target ≤ 1.1) |")
    print("|---|---:|---:|")
    print(f"| caching off (as before) | {t_without * 1000:.1f} | 1.00 |")
    print(f"| caching on | {t_with * 1000:.1f} | {t_with / t_without:.3f} |")
    print(f"| of which the split, totals and chart with caching | {t_extra * 1000:.1f} | "
          f"{t_extra / t_without:.3f} |")


if __name__ == "__main__":
    main()
