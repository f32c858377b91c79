"""Rendering real runs for strategy tests: programs run on the engine, then one strategy
renders the request for the next turn."""

from __future__ import annotations

from engine.history import HistoryOpts, render
from tests.history.build import context, make_turns

MISSION = "Find well-reviewed products in stock"

TOOLS = {
    "search-reviews": lambda category: f"Customer Review Summary for {category}",
    "get-inventory": lambda: "Warehouse Inventory Report",
    "notify": lambda name: None,
    "fetch-all": lambda: [1, 2, 3, 4, 5],
    "get-user": lambda uid: {"id": uid, "name": "Alice"},
    "f": lambda *args: list(args),
    "search": lambda **kw: ["r1", "r2"],
    "ping": lambda: "pong",
}


def request(strategy: str, programs, *, tools=None, data=None, max_turns=5, mission=MISSION,
            **opts):
    """(messages, stats, turns): the request after running `programs` as turns 1..N."""
    turns = make_turns(programs, tools=TOOLS if tools is None else tools, data=data)
    memory = turns[-1].memory if turns else {}
    ctx = context(mission=mission, max_turns=max_turns, data=data)
    messages, stats = render(strategy, turns, memory, ctx, HistoryOpts(**opts))
    return messages, stats, turns


def coalesced(programs, **kw) -> str:
    """The USER message `coalesced` sends after `programs`."""
    messages, _, _ = request("coalesced", programs, **kw)
    assert [m["role"] for m in messages] == ["system", "user"]
    return messages[1]["content"]


def coalesced_stats(programs, **kw):
    return request("coalesced", programs, **kw)[1]


def summary(programs, **kw) -> str:
    """Only the summary part of the `coalesced` USER message (mission and turn line cut)."""
    parts = coalesced(programs, **kw).split("\n\n")
    assert parts[0] == kw.get("mission", MISSION)
    return "\n\n".join(parts[1:-1])
