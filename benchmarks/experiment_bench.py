"""`ptc-tui experiment` on a thread pool: how close J jobs come to J times faster.

    python benchmarks/experiment_bench.py [--jobs 8] [--repeat 10] [--sleep-ms 200]

4 option sets (full, coalesced, namespaced, compaction) × --repeat runs of an agent whose LLM
is a stub sleeping --sleep-ms per call, as an HTTP model makes a run wait; each run takes 3
turns and saves its trace. The experiment runs once with --jobs J; the baseline is the sum of
its runs' own wall times (each row's `seconds`), all measured in the same run:

    ratio = wall time / (sum of run times / J)

1.0 is a perfect J-fold speed-up. Target: at most 1.3. A run's own time includes waiting for
the other threads (the GIL), so a second, stricter ratio is printed too: the wall time against
the LLM's sleeping alone (calls × sleep / J), the floor no pool can beat.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ptc_tui.cli import main  # noqa: E402
from ptc_tui.subcommands.output import Output  # noqa: E402
from ptc_tui.experiments.record import load_experiment  # noqa: E402

STUB_AGENT = '''
import time
from engine.agent import SubAgent

agent = SubAgent(mission="Count three turns, then return 3.", max_turns=5, name="stub",
                 tools={"lookup": lambda n: {"n": n, "items": list(range(20))}})
expected = 3

def policy(request, rng):
    time.sleep(SLEEP)
    turn = request.count("looked up {")
    if turn >= 2:
        return "```clojure\\n(return 3)\\n```"
    return f"```clojure\\n(println \\"looked up\\" (tool/lookup {turn}))\\n```"
'''


def main_bench(jobs: int, repeat: int, sleep_ms: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        agent = Path(tmp) / "stub.py"
        agent.write_text(STUB_AGENT.replace("SLEEP", str(sleep_ms / 1000)))
        out = Path(tmp) / "runs"
        argv = ["experiment", str(agent), "--compress", "full,coalesced,namespaced,compaction",
                "--repeat", str(repeat), "--jobs", str(jobs), "--out", str(out), "--json"]
        started = time.perf_counter()
        with open(Path(tmp) / "table.json", "w") as table:
            status = main(argv, out=Output(table))
        wall = time.perf_counter() - started
        if status != 0:
            print(f"experiment failed with status {status}", file=sys.stderr)
            return 1
        rows = load_experiment(out)["runs"]
        turns = sum(r["turns"] for r in rows)
        total = sum(r["seconds"] for r in rows)
        ideal = total / jobs
        print(f"{len(rows)} runs ({turns} LLM calls of {sleep_ms} ms), --jobs {jobs}")
        print(f"  sum of run times   {total:8.2f} s")
        print(f"  sum / jobs         {ideal:8.2f} s")
        print(f"  wall time          {wall:8.2f} s")
        print(f"  ratio wall / (sum / jobs): {wall / ideal:.2f}  (target ≤ 1.3)")
        floor = turns * sleep_ms / 1000 / jobs
        print(f"  ratio wall / (LLM sleep alone / jobs = {floor:.2f} s): {wall / floor:.2f}")
        print(json.dumps({"runs": len(rows), "jobs": jobs, "sum_s": round(total, 3),
                          "wall_s": round(wall, 3), "ratio": round(wall / ideal, 3),
                          "ratio_to_sleep": round(wall / floor, 3)}))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--sleep-ms", type=int, default=200)
    a = parser.parse_args()
    sys.exit(main_bench(a.jobs, a.repeat, a.sleep_ms))
