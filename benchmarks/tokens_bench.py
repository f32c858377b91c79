"""Token counting of a 200-turn trace: TokenCounter against tiktoken alone, measured in one process.

    python benchmarks/tokens_bench.py [--turns N] [--repeat N]

The trace is synthetic but shaped like a real one: a long system prompt and mission, then per
turn an assistant program and a user message with its results. Two history strategies are
rendered for every turn: "full" (the conversation so far, growing by two messages a turn) and
"summary" (system, mission, a summary that changes every 10 turns, and the last turn only).

Rows, each timed best of --repeat rounds, tiktoken alone against a fresh TokenCounter:
  re-rendered  every message a new string object (as a re-render makes), so each cache hit
               pays for hashing the text; tiktoken encodes every message of every request, as a
               counter without a cache does
  shared       the same trace with requests sharing the message objects (hashes are cached)
  distinct     tiktoken encodes each distinct text once: the least encoding any exact counter
               does, shown to price the cache's own cost (mostly hashing re-rendered text)
  no repeats   every text new, no hit possible: what the cache costs when it cannot help
Target: counter at most 1.3x tiktoken on re-rendered, shared and no repeats.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tokens import TokenCounter, encoding_for_model  # noqa: E402

WORDS = ("filter map reduce sort-by group-by count first rest assoc get-in keys vals price stock "
         "category name id total average review rating product order customer return fail "
         "defn let fn if when cond loop recur tool/search-reviews tool/get-orders data/products "
         "the a of to and in is for with that on this be are was from at by it not or as").split()


def prose(rng: random.Random, n_words: int) -> str:
    lines, line = [], []
    for _ in range(n_words):
        word = rng.choice(WORDS)
        line.append(f"{word}{rng.randrange(1000)}" if rng.random() < 0.15 else word)
        if len(line) >= rng.randrange(6, 14):
            lines.append(" ".join(line))
            line = []
    return "\n".join(lines + [" ".join(line)])


def program(rng: random.Random, turn: int) -> str:
    pairs = rng.randrange(20, 60)
    body = " ".join(f"(:{rng.choice(WORDS)} {rng.choice(WORDS)})" for _ in range(pairs))
    return f"```clojure\n(def step-{turn}\n  (->> data/products (filter {body})))\n```"


def build_trace(turns: int, fresh: bool = True, seed: int = 7) -> list[list[dict[str, str]]]:
    rng = random.Random(seed)
    system = prose(rng, 1500)
    mission = prose(rng, 200)
    pairs = [(program(rng, t), f"Turn {t} result:\n{prose(rng, rng.randrange(60, 300))}")
             for t in range(turns)]
    summaries = [prose(rng, 150 + 10 * k) for k in range(turns // 10 + 1)]

    def message(role: str, text: str) -> dict[str, str]:
        return {"role": role, "content": (text + ".")[:-1] if fresh else text}

    requests = []
    for t in range(turns):
        head = [message("system", system), message("user", mission)]
        full = head + [message(role, text) for a, u in pairs[:t]
                       for role, text in (("assistant", a), ("user", u))]
        summary = head + [message("user", summaries[t // 10])]
        if t:
            summary += [message("assistant", pairs[t - 1][0]), message("user", pairs[t - 1][1])]
        requests += [full, summary]
    return requests


def best_of(repeat: int, fn) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    encoding = encoding_for_model(None)
    encode = encoding.backend.encode_ordinary

    def naive(requests):
        return lambda: [sum(3 + len(encode(m["role"])) + len(encode(m["content"])) for m in request)
                        + 3 for request in requests]

    def counted(requests):
        def run():
            counter = TokenCounter(encoding)
            return [counter.count_messages(request).total for request in requests]
        return run

    rerendered = build_trace(args.turns)
    shared = build_trace(args.turns, fresh=False)
    messages = [m for request in rerendered for m in request]
    distinct = list(dict.fromkeys(text for m in messages for text in (m["role"], m["content"])))
    # The distinct texts made new again (a suffix each), one single-message request per text.
    unseen = [[{"role": "user", "content": f"{text} {i}"}] for i, text in enumerate(distinct)]

    rows = []
    for label, requests, baseline in (
            ("re-rendered: every message of every request", rerendered, naive(rerendered)),
            ("shared: the same, message objects shared", shared, naive(shared)),
            ("distinct: each distinct text once (floor)", rerendered,
             lambda: [len(encode(text)) for text in distinct]),
            ("no repeats: every text new", unseen, naive(unseen))):
        t_tiktoken, _ = best_of(args.repeat, baseline)
        t_counter, totals = best_of(args.repeat, counted(requests))
        assert totals == naive(requests)(), f"{label}: TokenCounter disagrees with tiktoken"
        rows.append((label, t_tiktoken, t_counter))

    chars = sum(len(m["content"]) for m in messages)
    print(f"{args.turns} turns, {len(rerendered)} requests, {len(messages):,} messages, "
          f"{chars / 1e6:.1f} MB of rendered text, {len(distinct):,} distinct texts, "
          f"encoding {encoding.name}, best of {args.repeat}\n")
    print("| rows | tiktoken alone (s) | TokenCounter (s) | ratio |")
    print("|---|---:|---:|---:|")
    for label, t_tiktoken, t_counter in rows:
        print(f"| {label} | {t_tiktoken:.3f} | {t_counter:.3f} | {t_counter / t_tiktoken:.2f}x |")
    ok = all(t_counter <= 1.3 * t_tiktoken for label, t_tiktoken, t_counter in rows
             if not label.startswith("distinct"))
    print(f"\ntarget TokenCounter <= 1.3x tiktoken alone (all rows but distinct): "
          f"{'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
