"""A generated 200-turn trace for benchmarks: every turn has a program, prints and tool calls;
memory grows to about 50 names with redefinitions; some turns fail.

    python benchmarks/long_trace.py OUT.json [--turns 200]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.agent import SubAgent  # noqa: E402
from engine.llm import ScriptedLLM  # noqa: E402
from engine.trace import Trace, save_trace  # noqa: E402

CATEGORIES = ["books", "games", "garden", "kitchen", "music", "sports", "toys"]


def search(query: str, limit: int = 5) -> list[dict]:
    """Search the catalogue."""
    return [{"id": i, "name": f"{query}-{i}", "category": CATEGORIES[i % 7],
             "price": round(3 + i * 1.75, 2), "tags": ["new", "sale"][: i % 3]}
            for i in range(limit)]


def stock(item_id: int) -> dict:
    """Stock level of one item."""
    return {"id": item_id, "stock": item_id * 7 % 13, "warehouse": f"W{item_id % 4}"}


def notify(who: str) -> None:
    """Send a notification."""
    return None


def program(turn: int) -> str:
    """Turn `turn`'s program: a mix of tool calls, definitions, functions and prints."""
    name = f"v{turn % 48}"                       # 48 value names, redefined every 48 turns
    lines = [f'(def {name} "results of search {turn}" (tool/search "q{turn}" {3 + turn % 20}))']
    if turn % 5 == 0:
        lines.append(f'(defn f{turn % 10} "price above {turn}" [x] (> (:price x) {turn % 30}))')
    if turn % 3 == 0:
        lines.append(f"(tool/stock {turn}) (tool/stock {turn})")
    if turn % 4 == 0:
        lines.append('(tool/notify "ops")')
    if turn % 7 == 0:
        lines.append(f'(def {name} (mapv :name {name}))')
    if turn % 2 == 0:
        lines.append(f'(println "turn {turn}:" (count {name}) "items, first" (first {name}))')
    if turn % 6 == 1:
        lines.append(f"(println (str/join \", \" (map :category (take 4 {name}))))")
    if turn % 17 == 0:
        lines.append("(undefined-helper 1)")     # a failed turn
    return "\n".join(lines)


def reply(turn: int) -> str:
    return f"Turn {turn}: continue exploring.\n```clojure\n{program(turn)}\n```"


def long_trace(turns: int = 200, compress_history="coalesced") -> Trace:
    agent = SubAgent(
        "Explore the catalogue and report which categories have items in stock.",
        tools={"search": search, "stock": stock, "notify": notify},
        data={"categories": CATEGORIES, "budget": 250}, max_turns=turns,
        compress_history=compress_history, name="long-exploration",
        description=f"A generated {turns}-turn exploration (benchmarks)")
    session = agent.start(ScriptedLLM([reply(t) for t in range(1, turns + 1)],
                                      name="scripted:generated"))
    while not session.done:
        session.step()
    return session.trace(created_at="2026-01-01T00:00:00+00:00")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    trace = long_trace(args.turns)
    save_trace(trace, args.out)
    print(f"{args.out}: {len(trace.turns)} turns, "
          f"{len(trace.turns[-1].memory)} names in memory at the end")
