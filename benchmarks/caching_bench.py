"""The token view's re-render after an option change on a 200-turn trace, with the prompt-cache
model and without it, measured in the same run.

    python benchmarks/caching_bench.py [--turns 200] [--rounds 7]

Each round changes println_limit (a new value each time, so nothing is served from the render
cache: coalesced and namespaced read it and are rendered again, full and compaction keep their
rendering) and times the parts of the token view's re-render at gpt-4.1's prices: rendering and
counting every strategy (the same with caching or without); the totals and the chart without
caching (as before the cache model); and, on the same rendering, the split of every request
into cache read, write and uncached (each rendering splits once per provider family and keeps
it), the totals and the chart with caching. Caching off is the first two parts, caching on the
first and the third: timing the parts apart keeps this machine's load swings (larger than the
difference) out of the ratio. Before the cache model, the token counter encoded every new text
whole; since, a long text is counted line by line with its lines cached, which pays for the
split: each round also re-renders once with texts encoded whole and no caching, as before.
Targets: with caching at most 1.1 x without, and no slower than before. Times are the best of
the rounds.
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
from engine.tokens import counter  # noqa: E402
from engine.tokens import cache_policy, load_prices  # noqa: E402
from engine.trace import load_trace, save_trace  # noqa: E402
from ptc_tui.view import TraceView  # noqa: E402
from ptc_tui.view.token_chart import ColumnChart  # noqa: E402
from ptc_tui.view.tokens import TokenView  # noqa: E402

MODEL = "gpt-4.1"
WIDTH = 140
HEIGHT = 24          # the chart's lines in a 45-line terminal


def draw(totals, chart: ColumnChart) -> None:
    """What the token view draws after a change: the totals through a turn and the chart."""
    totals(chart.selected)
    chart.lines(WIDTH, HEIGHT)


def rerender(base: TraceView, limit: int, table, turns: int) -> tuple[TokenView, float, float]:
    """A re-render with caching off after setting println_limit: (the token view, seconds
    rendering and counting, seconds drawing the totals and chart)."""
    start = time.perf_counter()
    view = base.with_options(println_limit=limit)
    tokens = TokenView.of(view, table, MODEL, caching=False)   # every strategy counted
    rendered_at = time.perf_counter()
    draw(tokens.totals, ColumnChart.of(tokens.stats, turns // 2))
    return tokens, rendered_at - start, time.perf_counter() - rendered_at


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
    limits = iter(range(16, 100_000))   # each new, above the default (15): nothing cached
    policy = cache_policy(MODEL)
    before, rendered, off, on = [], [], [], []
    for _ in range(args.rounds):
        split_from, counter.SPLIT_FROM = counter.SPLIT_FROM, 1 << 62    # texts encoded whole
        _, t_render, t_draw = rerender(base, next(limits), table, args.turns)
        counter.SPLIT_FROM = split_from
        before.append(t_render + t_draw)
        tokens, t_render, t_draw = rerender(base, next(limits), table, args.turns)
        off_at = time.perf_counter()
        cached = tokens.with_caching(True)
        for s in strategy_order():
            cached.runs.splits(s, policy)
        draw(cached.totals, ColumnChart.of(cached.stats, args.turns // 2, cached.turn_cache()))
        on.append(time.perf_counter() - off_at)
        rendered.append(t_render)
        off.append(t_draw)
    t_before, t_render, t_off, t_on = min(before), min(rendered), min(off), min(on)
    t_without, t_with = t_render + t_off, t_render + t_on

    print(f"{len(trace.turns)} turns, {len(strategy_order())} strategies, prices of {MODEL}, "
          f"best of {args.rounds}\n")
    print("| re-render after an option change | ms | ratio to caching off (target ≤ 1.1) |")
    print("|---|---:|---:|")
    print(f"| caching off | {t_without * 1000:.1f} | 1.00 |")
    print(f"| caching on | {t_with * 1000:.1f} | {t_with / t_without:.3f} |")
    print(f"| of which rendering and counting (both) | {t_render * 1000:.1f} | "
          f"{t_render / t_without:.3f} |")
    print(f"| totals and chart, caching off | {t_off * 1000:.1f} | {t_off / t_without:.3f} |")
    print(f"| split, totals and chart, caching on | {t_on * 1000:.1f} | "
          f"{t_on / t_without:.3f} |")
    print("\n| against before the cache model | ms | ratio to before (target ≤ 1) |")
    print("|---|---:|---:|")
    print(f"| before: texts encoded whole, no caching | {t_before * 1000:.1f} | 1.00 |")
    print(f"| now, caching on | {t_with * 1000:.1f} | {t_with / t_before:.3f} |")

if __name__ == "__main__":
    main()
