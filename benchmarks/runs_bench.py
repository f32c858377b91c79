"""The runs browser on a folder of many traces (issue 15: 1,000 traces list within a second):

    python benchmarks/runs_bench.py [--runs 1000] [--rounds 3]

The folder holds copies of the sample traces. Measured with Textual's pilot, each the best of
several rounds in a fresh app: from creating the app to every run listed (a row each, drawn:
the worker that reads them starts only then), and on to every run read by the worker; against
the first screen of the smallest sample in the same run, which is mostly the app's own start. Wall seconds and CPU seconds of the process (all its threads) are both shown: on a
shared machine the CPU time is the steadier of the two.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.long_open_bench import first_screen  # noqa: E402
from ptc_tui.app import PtcApp  # noqa: E402
from ptc_tui.screens.runs_screen import RunsScreen  # noqa: E402
from ptc_tui.widgets.runs_table import RunsTable  # noqa: E402
from sample_traces import HERE as SAMPLES  # noqa: E402

SIZE = (160, 50)


def make_folder(folder: Path, runs: int) -> None:
    samples = sorted(SAMPLES.glob("*.json"))
    for i in range(runs):
        sub = folder / f"batch{i // 100}"
        sub.mkdir(exist_ok=True)
        shutil.copy(samples[i % len(samples)], sub / f"run{i:04}.json")


async def listed_and_read(folder: Path, runs: int) -> tuple[float, float, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    app = PtcApp(runs=folder)
    async with app.run_test(size=SIZE) as pilot:
        while not (isinstance(app.screen, RunsScreen)
                   and any(w.group == "runs" for w in app.workers)):
            await asyncio.sleep(0.001)      # the worker starts once the rows are drawn
        listed = time.perf_counter() - wall, time.process_time() - cpu
        table = app.screen.query_one(RunsTable)
        assert table.table.row_count == runs
        while not table.complete:
            await asyncio.sleep(0.01)
        await pilot.pause()
        read = time.perf_counter() - wall, time.process_time() - cpu
    return (*listed, *read)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    smallest = min(SAMPLES.glob("*.json"), key=lambda p: p.stat().st_size)
    with tempfile.TemporaryDirectory() as tmp:
        make_folder(Path(tmp), args.runs)
        asyncio.run(first_screen(smallest))                 # warm imports and tiktoken
        small = min(asyncio.run(first_screen(smallest)) for _ in range(args.rounds))
        rounds = [asyncio.run(listed_and_read(Path(tmp), args.runs)) for _ in range(args.rounds)]
    best = [min(r[i] for r in rounds) for i in range(4)]
    print(f"baseline: first screen of {smallest.name} = {small:.2f} CPU s; best of {args.rounds}\n")
    print("| measurement | wall s | CPU s | CPU ratio to baseline |")
    print("|---|---:|---:|---:|")
    print(f"| {args.runs:,} runs listed (a row each, drawn) | {best[0]:.2f} | {best[1]:.2f} | "
          f"{best[1] / small:.2f} |")
    print(f"| {args.runs:,} runs read by the worker | {best[2]:.2f} | {best[3]:.2f} | "
          f"{best[3] / small:.2f} |")


if __name__ == "__main__":
    main()
