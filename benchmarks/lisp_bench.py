"""PTC-Lisp speed against plain Python on typical LLM data programs, measured in one process.

    .venv/bin/python benchmarks/lisp_bench.py [--repeat N]

Each program runs end to end through `engine.lisp.run` (read, analyze, compile, execute), and
the same work is written in plain Python. Both are timed in this run, in CPU time of this
process (a machine shared with other work stretches wall-clock times unevenly), best of
several rounds taking turns within each round; the report is the ratio PTC-Lisp time /
Python time per program and their geometric mean.

Two columns: "data" gives the records as `data=` in Python dicts and lists, converted by every
run, as a host calling `run` does (an agent converts its data once per session, so its turns
cost the second column); "memory" gives them as a definition of an earlier turn, already
PTC-Lisp values. Programs that read no records run the same in both. Compiled programs are
kept by source text, as in replays. Target, data column: geometric mean at most 6, none
above 15.

Last, the conversion of 2,000 three-field records (JSON-shaped data) against the conversion
as it was before the speed work (benchmarks/convert_baseline.py), both timed in this run.
Target: at least 5x faster.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.lisp import pr_str, run, to_python  # noqa: E402
from engine.lisp.convert import from_python  # noqa: E402
from benchmarks.convert_baseline import baseline_from_python  # noqa: E402

CATEGORIES = ["books", "games", "garden", "kitchen", "music", "sports", "toys"]
RECORDS = [{"id": i, "name": f"item-{i}", "category": CATEGORIES[i % 7],
            "price": round(5 + (i * 37 % 500) * 1.25, 2), "stock": i * 13 % 40}
           for i in range(2000)]
DATA = {"records": RECORDS}                      # Python data, as a host passes it
MEMORY = {"records": from_python(RECORDS)}       # a definition of an earlier turn
THREE_FIELDS = [{"id": i, "name": f"item-{i}", "price": round(5 + i * 1.25, 2)}
                for i in range(2000)]             # what the conversion row converts


def py_map_reduce():
    return sum(x * x for x in range(100000) if x % 2 == 0)


def py_assoc_map():
    m = {}
    for i in range(10000):
        m["k" + str(i)] = i
    return len(m)


def py_group_by():
    groups: dict = {}
    for r in RECORDS:
        if r["stock"] > 0 and r["price"] > 100:
            groups.setdefault(r["category"], []).append(r)
    return {k: len(v) for k, v in groups.items()}


def py_strings():
    names = [f"item-{i}-{i % 13}" for i in range(5000)]
    hits = [s.upper() for s in names if "-7" in s]
    return len(",".join(hits))


def py_sort_by():
    return [r["id"] for r in sorted(RECORDS, key=lambda r: r["price"], reverse=True)[:10]]


def py_loop():
    i, acc = 0, 0
    while i < 1000:
        acc += i * i
        i += 1
    return acc


PROGRAMS = [
    ("map/reduce over 100,000 numbers",
     "(->> (range 100000) (filter even?) (map #(* % %)) (reduce +))", py_map_reduce),
    ("10,000-entry map with assoc in reduce",
     '(count (reduce (fn [m i] (assoc m (str "k" i) i)) {} (range 10000)))', py_assoc_map),
    ("filter/group-by over 2,000 records",
     "(->> data/records (filter #(and (pos? (:stock %)) (> (:price %) 100))) (group-by :category)"
     " (map (fn [[k v]] [k (count v)])) (into {}))", py_group_by),
    ("string building and searching over 5,000 strings",
     '(->> (range 5000) (map #(str "item-" % "-" (mod % 13))) (filter #(str/includes? % "-7"))'
     ' (map str/upper-case) (str/join ",") count)', py_strings),
    ("sort-by over 2,000 records",
     "(->> data/records (sort-by :price >) (take 10) (mapv :id))", py_sort_by),
    ("1,000-iteration loop",
     "(loop [i 0 acc 0] (if (< i 1000) (recur (inc i) (+ acc (* i i))) acc))", py_loop),
]


def best_times(fns, repeat: int) -> list[float]:
    """Seconds per call of each of `fns`: the best of `repeat` rounds, each long enough to be
    measurable. The functions take turns within a round, so that a busy spell of the machine
    slows all of them rather than one."""
    counts = [_calls_for(fn) for fn in fns]
    best = [math.inf] * len(fns)
    for _ in range(repeat):
        for i, (fn, calls) in enumerate(zip(fns, counts)):
            start = time.process_time()
            for _ in range(calls):
                fn()
            best[i] = min(best[i], (time.process_time() - start) / calls)
    return best


def _calls_for(fn) -> int:
    """How many calls of `fn` take at least 20 ms (at most about 1,000)."""
    calls = 1
    while True:
        start = time.process_time()
        for _ in range(calls):
            fn()
        if time.process_time() - start > 0.02 or calls > 1000:
            return calls
        calls *= 2


def lisp_call(source: str, given: str):
    """A call running `source` with the records given as `data` (Python) or `memory`."""
    kwargs = {}
    if "data/records" in source:
        if given == "memory":
            source, kwargs = source.replace("data/records", "records"), {"memory": MEMORY}
        else:
            kwargs = {"data": DATA}

    def call():
        result = run(source, **kwargs)
        if result.error:
            raise SystemExit(f"benchmark program failed: {result.error}\n{source}")
        return result.value
    return call


def geomean(values) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    rows = []
    for name, source, python in PROGRAMS:
        with_data, with_memory = lisp_call(source, "data"), lisp_call(source, "memory")
        got, want = to_python(with_data()), python()
        if got != want or to_python(with_memory()) != want:
            raise SystemExit(f"{name}: PTC-Lisp gave {pr_str(with_data())}, Python {want!r}")
        rows.append((name, *best_times([python, with_data, with_memory], args.repeat)))
    width = max(len(r[0]) for r in rows)
    print(f"| {'program':<{width}} | Python ms | data ms | ratio | memory ms | ratio |")
    print(f"|{'-' * (width + 2)}|----------:|--------:|------:|----------:|------:|")
    for name, t_py, t_data, t_memory in rows:
        print(f"| {name:<{width}} | {t_py * 1000:9.3f} | {t_data * 1000:7.3f} | "
              f"{t_data / t_py:5.1f} | {t_memory * 1000:9.3f} | {t_memory / t_py:5.1f} |")
    data_ratios = [t_data / t_py for _, t_py, t_data, _ in rows]
    memory_ratios = [t_memory / t_py for _, t_py, _, t_memory in rows]
    print(f"\ndata: geometric mean ratio {geomean(data_ratios):.1f} (target <= 6), "
          f"worst {max(data_ratios):.1f} (target <= 15)")
    print(f"memory: geometric mean ratio {geomean(memory_ratios):.1f}, "
          f"worst {max(memory_ratios):.1f}")
    if from_python(THREE_FIELDS) != baseline_from_python(THREE_FIELDS):
        raise SystemExit("conversion: today's result differs from the baseline's")
    t_then, t_now = best_times([lambda: baseline_from_python(THREE_FIELDS),
                                lambda: from_python(THREE_FIELDS)], args.repeat)
    print(f"conversion of 2,000 three-field records: baseline {t_then * 1000:.3f} ms, now "
          f"{t_now * 1000:.3f} ms, {t_then / t_now:.1f}x faster (target >= 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
