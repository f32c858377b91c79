"""Rendering and token counting on a 200-turn trace, against baselines measured in the same run.

    python benchmarks/history_bench.py [--turns 200] [--rounds 5]

1. Render every turn's request under each strategy (`render_turns` over the loaded trace)
   against `json.load` of the trace file. Target: at most 3x.
2. Render and count tokens for every turn against tiktoken alone encoding the same rendered
   texts, (a) every message of every request, as a counter without a cache would, and (b) each
   distinct text once (the floor no counter can beat). Target: at most 1.3x of (a).
3. After one limit changes: re-render and recount the selected turn (turn 150).
Times are the best of several rounds (machines here are noisy).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.long_trace import long_trace  # noqa: E402
from engine.history import STRATEGIES, HistoryOpts, render, render_turns  # noqa: E402
from engine.tokens import TokenCounter, encoding_for_model  # noqa: E402
from engine.trace import load_trace, save_trace  # noqa: E402


def best(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.json"
        save_trace(long_trace(args.turns), path)
        size = path.stat().st_size
        trace = load_trace(path)
        t_json = best(lambda: json.loads(path.read_text(encoding="utf-8")), args.rounds)
    context, turns = trace.context(), trace.turns
    encoding = encoding_for_model(None)
    print(f"{len(turns)} turns, trace file {size / 1e6:.1f} MB, {len(turns[-1].memory)} names "
          f"in memory, encoding {encoding.name}\n")

    print("| strategy | render all turns ms | json.load ms | ratio (target ≤ 3) |")
    print("|---|---:|---:|---:|")
    for name in STRATEGIES:
        t = best(lambda: render_turns(name, turns, context), args.rounds)
        print(f"| {name} | {t * 1000:.1f} | {t_json * 1000:.1f} | {t / t_json:.2f} |")

    print("\n| strategy | render + count ms | tiktoken, every message ms | ratio (target ≤ 1.3) "
          "| tiktoken, distinct texts ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in STRATEGIES:
        requests = [m for m, _ in render_turns(name, turns, context)]
        every = [m["content"] for msgs in requests for m in msgs]
        distinct = list(dict.fromkeys(every))

        def render_and_count():
            counter = TokenCounter(encoding)
            for messages, _ in render_turns(name, turns, context):
                counter.count_messages(messages)
        t_ours = best(render_and_count, args.rounds)
        t_every = best(lambda: [encoding.encode(t) for t in every], 1)
        t_distinct = best(lambda: [encoding.encode(t) for t in distinct], args.rounds)
        print(f"| {name} | {t_ours * 1000:.1f} | {t_every * 1000:.0f} | {t_ours / t_every:.3f} "
              f"| {t_distinct * 1000:.1f} | {t_ours / t_distinct:.2f} |")

    print("\n| strategy | limit change: re-render + recount turn 150, ms |")
    print("|---|---:|")
    selected = min(150, len(turns)) - 1
    for name in STRATEGIES:
        counter = TokenCounter(encoding)
        for messages, _ in render_turns(name, turns, context):
            counter.count_messages(messages)          # the app has counted every turn already
        limits = iter(range(1, 10_000))

        def change_limit():
            opts = HistoryOpts(strategy=name).with_changes(println_limit=next(limits))
            messages, _ = render(name, turns[:selected], turns[selected - 1].memory, context, opts)
            counter.count_messages(messages)
        t = best(change_limit, args.rounds)
        print(f"| {name} | {t * 1000:.1f} |")


if __name__ == "__main__":
    main()
