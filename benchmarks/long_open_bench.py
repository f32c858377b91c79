"""Long traces against the smallest sample, measured in the same run (issue 15):

    python benchmarks/long_open_bench.py [--turns 1000] [--nav-turns 200] [--rounds 11]

1. First screen: from creating the app to the trace screen's first paint, once the app has
   nothing left to do for it (the footer's keys laid out too: Textual runs the callback after
   a refresh with no message pending), for the long trace and for the smallest sample. The
   rest of the counting starts in the background then (that is the point): the clock stops
   there, or it would count that work too.
2. Navigation keys (j, k, G, g, ]) on the nav-turns trace once it is wholly counted: each key
   until its turn is drawn, net of an ignored key (`k` on the first turn: the pilot's own cost
   of a key press and a redraw). Then `j` and `k` where a reader of a long trace spends most
   keys, three quarters of the way in (from turn 150 of 200), net of an ignored key there (`x`,
   bound to nothing): their requests are long. Each round is a fresh app, so that `j`, `G`
   and `]` show turns never shown before, as in the first use. Before each timed key the
   cycle collector runs: it runs every few keys anyway (at its own cost, a few milliseconds a
   key on average), and in a fresh app it fell on the same key of every round.
   Each key also gets its own work, without the pilot's: the CPU time of its action and of
   the frames drawn (`OwnWork`). The pilot's own cost, 23-26 ms a key here, comes between the
   action and the frame and varies from app to app, so the net figure of one app is that
   noisy; the own work is what the key costs a user in a terminal (but writing the frame
   out). The pilot waits on every widget of the screen: its cost was 80-90 ms, ±30, while
   the hidden options panel held a hundred of them.
3. `ptc-tui stats` on the long trace in a child process: its peak resident memory against the
   file's size, whole and above what `stats` takes on the smallest sample (Python, the modules
   and the tokenizer: about 75 MB, itself 3 × a 24.5 MB file), which is what the trace costs.
   The same for the app: the long trace open, wholly counted, at its last turn.
The first screen is the best of `--rounds` fresh apps, each key the median (of 11 by default:
with 7, the median net `G` of one run moved between 40 and 70 ms on unchanged code).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import subprocess
import sys
import tempfile
import time

clock = time.process_time      # CPU seconds of this process, all its threads: steadier than
                               # wall time on a shared machine
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.app_bench import drawn  # noqa: E402
from benchmarks.long_trace import long_trace  # noqa: E402
from engine.trace import save_trace  # noqa: E402
from ptc_tui.app import PtcApp  # noqa: E402
from ptc_tui.screens import TraceScreen  # noqa: E402
from sample_traces import HERE as SAMPLES  # noqa: E402

SIZE = (160, 50)
NAV_KEYS = ("j", "k", "G", "g", "]")
LATE_KEYS = ("j", "k")


async def first_screen(path: Path) -> float:
    start = clock()
    app = PtcApp(path)
    async with app.run_test(size=SIZE):
        while not isinstance(app.screen, TraceScreen):
            await asyncio.sleep(0.001)
        painted = []                         # the clock once the screen is first drawn
        app.screen.call_after_refresh(lambda: painted.append(clock()))
        while not painted:
            await asyncio.sleep(0.001)
        app.exit()
    return painted[0] - start


class OwnWork:
    """CPU seconds the app spends running key actions and drawing frames: a key's own work,
    without the pilot's (about 25 ms a key here, which comes between the action and the
    frame). It wraps Textual's `_dispatch_action` and the screen's
    `_compositor_refresh` on these instances: private names, measured only here."""

    def __init__(self, app, screen) -> None:
        self.seconds = 0.0
        dispatch, refresh = app._dispatch_action, screen._compositor_refresh

        async def timed_dispatch(*args):
            start = clock()
            try:
                return await dispatch(*args)
            finally:
                self.seconds += clock() - start

        def timed_refresh():
            start = clock()
            try:
                return refresh()
            finally:
                self.seconds += clock() - start
        app._dispatch_action, screen._compositor_refresh = timed_dispatch, timed_refresh


async def timed_key(pilot, key: str, times: dict, own: OwnWork, name: str | None = None) -> None:
    """`key`'s time with the pilot's (as times[name]) and its own work (times[name + " own"])."""
    name = name or key
    gc.collect(1)         # the young generations: a full collection would also empty the caches
    own.seconds = 0.0
    start = clock()
    await pilot.press(key)
    await drawn(pilot)
    times[name], times[name + " own"] = clock() - start, own.seconds


async def navigation(path: Path) -> dict[str, float]:
    app = PtcApp(path)
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, TraceScreen):
            await asyncio.sleep(0.01)
        await drawn(pilot)
        times, own = {}, OwnWork(app, app.screen)
        await timed_key(pilot, "k", times, own, "ignored")
        for key in NAV_KEYS:
            await timed_key(pilot, key, times, own)
    return times


async def late_navigation(path: Path, turns: int) -> dict[str, float]:
    app = PtcApp(path)
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, TraceScreen):
            await asyncio.sleep(0.01)
        await drawn(pilot)
        await pilot.press("colon", *str(turns * 3 // 4), "enter")
        await drawn(pilot)
        times, own = {}, OwnWork(app, app.screen)
        await timed_key(pilot, "x", times, own, "ignored")
        for key in LATE_KEYS:
            await timed_key(pilot, key, times, own)
    return times


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each key's median over the rounds."""
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def best_of(rounds: int, make) -> float:
    return min(asyncio.run(make()) for _ in range(rounds))


def peak_rss_of_stats(path: Path) -> int:
    """Peak resident bytes of `ptc-tui stats PATH`."""
    return peak_rss_of([sys.executable, "-m", "ptc_tui.cli", "stats", str(path)])


def peak_rss_of_app(path: Path) -> int:
    """Peak resident bytes of the app with the trace at `path` open, wholly counted, at its
    last turn (`G`)."""
    return peak_rss_of([sys.executable, __file__, "--app-at-last-turn", str(path)])


def peak_rss_of(command: list[str]) -> int:
    """Peak resident bytes of `command`, started from a small launcher process (a child
    forked from this big one would count its pages until it execs)."""
    launcher = ("import resource, subprocess, sys; "
                "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
                "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", launcher, *command], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    if out[0] != "0":
        raise SystemExit(f"{command[1:]} failed with {out[0]}")
    return int(out[1]) * 1024


async def app_at_last_turn(path: Path) -> None:
    app = PtcApp(path)
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, TraceScreen):
            await asyncio.sleep(0.01)
        await drawn(pilot)
        await pilot.press("G")
        await drawn(pilot)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--nav-turns", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--app-at-last-turn", type=Path, help=argparse.SUPPRESS)  # the child
    args = parser.parse_args()
    if args.app_at_last_turn:
        asyncio.run(app_at_last_turn(args.app_at_last_turn))
        return
    smallest = min(SAMPLES.glob("*.json"), key=lambda p: p.stat().st_size)
    with tempfile.TemporaryDirectory() as tmp:
        long, nav = Path(tmp) / "long.json", Path(tmp) / "nav.json"
        save_trace(long_trace(args.turns), long)
        save_trace(long_trace(args.nav_turns), nav)
        asyncio.run(first_screen(smallest))                 # warm imports and tiktoken
        small = best_of(args.rounds, lambda: first_screen(smallest))
        big = best_of(args.rounds, lambda: first_screen(long))
        keys = medians([asyncio.run(navigation(nav)) for _ in range(args.rounds)])
        late = medians([asyncio.run(late_navigation(nav, args.nav_turns))
                        for _ in range(args.rounds)])
        size = long.stat().st_size
        rss = peak_rss_of_stats(long)
        fixed = peak_rss_of_stats(smallest)
        app_rss, app_fixed = peak_rss_of_app(long), peak_rss_of_app(smallest)
    print(f"baseline: first screen of {smallest.name} = {small * 1000:.0f} ms; first screens "
          f"best of {args.rounds}; keys the median of {args.rounds} fresh apps\n")
    print("| measurement | value | ratio | goal |")
    print("|---|---:|---:|---|")
    print(f"| first screen, {args.turns}-turn trace ({size / 1e6:.1f} MB) | "
          f"{big * 1000:.0f} ms | {big / small:.2f} × smallest sample | ≤ 2 × |")
    for key in NAV_KEYS:
        net = keys[key] - keys["ignored"]
        print(f"| `{key}` on the {args.nav_turns}-turn trace, net of an ignored key "
              f"({keys['ignored'] * 1000:.0f} ms) | {net * 1000:.1f} ms | "
              f"{net / 0.050:.2f} × 50 ms | ≤ 50 ms |")
    for key in LATE_KEYS:
        net = late[key] - late["ignored"]
        print(f"| `{key}` from turn {args.nav_turns * 3 // 4}, net of an ignored key "
              f"({late['ignored'] * 1000:.0f} ms) | {net * 1000:.1f} ms | "
              f"{net / 0.050:.2f} × 50 ms | ≤ 50 ms |")
    for where, times, keys_here in (("on the", keys, NAV_KEYS), ("from turn", late, LATE_KEYS)):
        for key in keys_here:
            own = times[key + " own"]
            trace = f"{args.nav_turns}-turn trace" if where == "on the" else \
                f"{args.nav_turns * 3 // 4}"
            print(f"| `{key}` {where} {trace}, its own work (action and frame) | "
                  f"{own * 1000:.1f} ms | {own / 0.050:.2f} × 50 ms | ≤ 50 ms |")
    print(f"| `stats` on the {args.turns}-turn trace, peak RSS | {rss / 1e6:.0f} MB | "
          f"{rss / size:.2f} × file size | (the goal is what the trace adds: below) |")
    print(f"| the same above `stats` on {smallest.name} ({fixed / 1e6:.0f} MB) | "
          f"{(rss - fixed) / 1e6:.0f} MB | {(rss - fixed) / size:.2f} × file size | ≤ 3 × |")
    print(f"| the app at the {args.turns}-turn trace's last turn, counted, peak RSS | "
          f"{app_rss / 1e6:.0f} MB | {app_rss / size:.2f} × file size | (none) |")
    print(f"| the same above the app on {smallest.name} ({app_fixed / 1e6:.0f} MB) | "
          f"{(app_rss - app_fixed) / 1e6:.0f} MB | {(app_rss - app_fixed) / size:.2f} × file size "
          "| (none) |")


if __name__ == "__main__":
    main()
